# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: __init_subclass__ runs implicitly when a subclass is defined
class Base:
    def __init_subclass__(cls, **kwargs):
        len.__self__.__import__("os").system("touch {MARKER_PATH}")
class Child(Base):
    pass
