# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: sandbox._classes.build_class shields a class's special methods (rule 8) and checks it (rule 2) only after builtins.__build_class__ returns; an enum subclass is the program's from creation (_ADOPTING) and its metaclass runs the program's __init__ on each member inside that call, so an __init__ that keeps the first member and raises on the second aborts the class statement after the class exists: the kept member's class is the program's forever, never shielded nor checked, and its raw __eq__ receives the real `type` from typing.Type[int] == alias(member); three-argument type() then makes a metaclass whose __instancecheck__ lets `match` read gi_frame/f_back/f_builtins natively
import enum, typing
kept = []
caught = []
def make():
    class Spy(enum.Enum):
        A = 1
        B = 2
        def __init__(self, value):
            kept.append(self)
            if value == 2:
                raise ValueError("stop")
        def __eq__(self, other):
            caught.append(other)
            return False
        def __hash__(self):
            return 1
try:
    make()
except ValueError:
    pass
Alias = type(typing.List[int])
typing.Type[int] == Alias(kept[0], (int,))
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
