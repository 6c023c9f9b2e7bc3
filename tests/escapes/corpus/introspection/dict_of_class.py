# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a type's __dict__ is a mappingproxy onto its real namespace
for cls in type.__dict__["__subclasses__"](object):
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
