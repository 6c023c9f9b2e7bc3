# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a TypedDict class is made by the real _TypedDictMeta; its __class__ would hand out that metaclass, and calling it (or its base, the real type) with three arguments builds classes from a dict
import typing
class Movie(typing.TypedDict):
    title: str
Meta = Movie.__class__
Real = Meta.mro(Meta)[1]
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
            if builtins["__import__"]("os").system("touch {MARKER_PATH}") != 0:
                raise OSError("the shell did not run")
            yield "done"
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)
