# category: native-readers
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a typing alias compares its origin with the other alias's natively (typing._GenericAlias.__eq__): typing.Type[int] against an alias built around a program object calls that object's __eq__ with Type's origin, the real `type`; with it, three-argument type() makes a metaclass whose __instancecheck__ lets a `match` class pattern read gi_frame, f_back and f_builtins natively
import typing
caught = []
class Spy:
    def __eq__(self, other):
        caught.append(other)
        return False
    def __hash__(self):
        return 1
Alias = type(typing.List[int])
typing.Type[int] == Alias(Spy(), (int,))
real_type = caught[0]
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
