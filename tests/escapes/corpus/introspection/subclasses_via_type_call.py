# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: type.__subclasses__ called unbound on object
for cls in type.__subclasses__(object):
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
