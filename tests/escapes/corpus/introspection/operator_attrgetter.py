# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: operator.attrgetter fetches attributes in C, past the attribute guard
import operator
operator.attrgetter("__self__.__import__")(len)("os").system("touch {MARKER_PATH}")
