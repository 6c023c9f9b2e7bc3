# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; a function's __globals__ holds the namespace and its builtins
def helper():
    pass
b = helper.__globals__["__builtins__"]
imp = b["__import__"] if isinstance(b, dict) else b.__import__
imp("os").system("touch {MARKER_PATH}")
