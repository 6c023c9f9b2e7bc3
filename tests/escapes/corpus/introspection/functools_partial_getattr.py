# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: partial over getattr freezes a dunder name into a callable
import functools
self_of = functools.partial(getattr, len)
functools.partial(getattr, self_of("__self__"))("__import__")("os").system("touch {MARKER_PATH}")
