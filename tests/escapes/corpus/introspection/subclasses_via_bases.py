# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; __bases__ of a builtin type
for cls in (1).__class__.__bases__[0].__subclasses__():
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
