# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: operator.methodcaller calls methods by name in C
import operator
for cls in operator.methodcaller("__subclasses__")(object):
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
