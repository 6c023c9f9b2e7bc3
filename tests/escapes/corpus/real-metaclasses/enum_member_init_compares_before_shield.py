# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: rule 8's shield (sandbox._classes.build_class wraps __eq__ & co. with _shielded) is applied only after builtins.__build_class__ returns, but an enum subclass (an _ADOPTING façade base) makes its members, and runs the program's __init__ on them, inside that call: a member's __init__ compares typing.Type[int] with an alias around the member itself, so the still-raw __eq__ receives Type's origin, the real `type`; three-argument type() then makes a metaclass whose __instancecheck__ lets `match` read gi_frame/f_back/f_builtins natively
import enum, typing
caught = []
Alias = type(typing.List[int])
class Spy(enum.Enum):
    A = 1
    def __init__(self, value):
        typing.Type[int] == Alias(self, (int,))
    def __eq__(self, other):
        caught.append(other)
        return False
    def __hash__(self):
        return 1
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
