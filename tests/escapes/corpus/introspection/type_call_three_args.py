# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: type(name, bases, namespace) defines dunders without a class statement
Evil = type("Evil", (), {"__getattr__": lambda self, name: len.__self__.__import__("os")})
Evil().anything.system("touch {MARKER_PATH}")
