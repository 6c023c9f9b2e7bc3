# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a special method inherited from a Python inert base is read from the program's own subclass unwrapped (the guard self-checks library dunders only when read on a library class), so UserList.__getitem__ runs with a foreign self: a program class K whose `data[slice]` is a class makes it return K.__class__(int), i.e. the real `type`; three-argument type() then makes a metaclass whose __instancecheck__ lets a `match` class pattern read gi_frame, f_back and f_builtins natively
import collections
class L(collections.UserList):
    pass
class D:
    def __getitem__(self, i):
        return int
class K:
    data = D()
real_type = L.__getitem__(K, slice(None))
Meta = real_type("Meta", (real_type,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Meta("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        imp = read(frame, "f_builtins").get("__import__")
        if imp is not None:
            try:
                imp("os").system("touch {MARKER_PATH}")
                yield "done"
                return
            except Exception:
                pass
        frame = read(frame, "f_back")
    yield "no import found"
walker = walk()
return next(walker)
