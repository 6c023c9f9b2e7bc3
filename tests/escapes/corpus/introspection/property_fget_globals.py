# category: introspection
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: a property's fget is a plain function with globals
class Holder:
    @property
    def value(self):
        return 1
b = Holder.value.fget.__globals__["__builtins__"]
imp = b["__import__"] if isinstance(b, dict) else b.__import__
imp("os").system("touch {MARKER_PATH}")
