# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: Python 3.10+ functions carry __builtins__ directly
def helper():
    pass
b = helper.__builtins__
imp = b["__import__"] if isinstance(b, dict) else b.__import__
imp("os").system("touch {MARKER_PATH}")
