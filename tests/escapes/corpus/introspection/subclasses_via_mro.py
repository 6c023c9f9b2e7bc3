# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic; the last entry of any __mro__ is object
for cls in "".__class__.__mro__[-1].__subclasses__():
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
