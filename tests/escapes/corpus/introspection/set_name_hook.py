# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: __set_name__ runs implicitly when a class body binds a descriptor
class Descriptor:
    def __set_name__(self, owner, name):
        len.__self__.__import__("os").system("touch {MARKER_PATH}")
class Owner:
    field = Descriptor()
