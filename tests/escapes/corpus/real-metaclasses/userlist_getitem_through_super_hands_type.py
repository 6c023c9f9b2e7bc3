# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the same unbound UserList.__getitem__ as userlist_getitem_subclass_hands_type, read through super(L, L), which finds a library class's Python method unbound when its second argument is a class
import collections
class L(collections.UserList):
    pass
class D:
    def __getitem__(self, i):
        return int
class K:
    data = D()
real_type = super(L, L).__getitem__(K, slice(None))
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
