# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: reduce(getattr, names, start) walks an attribute path in C
import functools
imp = functools.reduce(getattr, ["__self__", "__import__"], len)
imp("os").system("touch {MARKER_PATH}")
