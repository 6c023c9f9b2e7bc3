# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a subclass of the program's type() stand-in, called with three arguments
class Maker(type):
    pass
Evil = Maker("Evil", (), {"__getattr__": lambda self, name: len.__self__.__import__("os")})
Evil().anything.system("touch {MARKER_PATH}")
