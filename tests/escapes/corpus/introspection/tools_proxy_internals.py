# category: introspection
# signal: marker
# plain: skip (needs the sandbox's tools binding)
# expect: refused
# tripwire: stops os.system
# source: the tools proxy and its call objects are host-written; walk their methods' globals
candidates = [type(tools), type(tools.echo)]
for cls in candidates:
    for value in vars(cls).values():
        g = getattr(value, "__globals__", None)
        if g is not None:
            b = g["__builtins__"]
            imp = b["__import__"] if isinstance(b, dict) else b.__import__
            imp("os").system("touch {MARKER_PATH}")
