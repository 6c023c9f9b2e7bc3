# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: super() objects expose __self_class__ and the MRO
class A:
    def leak(self):
        return super().__thisclass__.__mro__[-1].__subclasses__()
for cls in A().leak():
    if cls.__name__ == "_wrap_close":
        cls.__init__.__globals__["system"]("touch {MARKER_PATH}")
