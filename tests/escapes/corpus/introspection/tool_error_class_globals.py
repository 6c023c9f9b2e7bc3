# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: the ToolCallError class is defined in host-written code; its methods' globals are real
for name in ("__init__", "__str__", "__reduce__"):
    method = getattr(ToolCallError, name, None)
    g = getattr(method, "__globals__", None)
    if g is not None:
        b = g["__builtins__"]
        imp = b["__import__"] if isinstance(b, dict) else b.__import__
        imp("os").system("touch {MARKER_PATH}")
        break
