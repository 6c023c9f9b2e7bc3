# category: real-metaclasses
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: an enum class's metaclass (the façade's checked EnumType) reached through a member's __class__.__class__; its base, the real EnumType, and their base, the real type, build classes from a dict
import enum
class Color(enum.Enum):
    RED = 1
Meta = Color.RED.__class__.__class__
Real = Meta.mro(Meta)[-2]
Anything = Real("Anything", (Real,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Anything("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        builtins = read(frame, "f_builtins")
        if "exec" in builtins:
            yield builtins["open"]("{SECRET_PATH}").read()
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)
