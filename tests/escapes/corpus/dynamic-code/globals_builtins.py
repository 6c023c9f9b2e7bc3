# category: dynamic-code
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: globals() exposes the namespace and its __builtins__
b = globals()["__builtins__"]
imp = b["__import__"] if isinstance(b, dict) else b.__import__
imp("os").system("touch {MARKER_PATH}")
