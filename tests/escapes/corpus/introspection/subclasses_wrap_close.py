# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: classic jail escape; object's subclasses include os._wrap_close, whose globals are os
for cls in ().__class__.__base__.__subclasses__():
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
