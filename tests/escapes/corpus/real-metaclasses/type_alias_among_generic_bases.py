# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the real type contributed by typing.Type[int] among other bases (typing.Generic[T]): the class is still a real metaclass, so a fix that only looks at a lone typing.Type base is not enough
import typing
T = typing.TypeVar("T")
class Meta(typing.Type[int], typing.Generic[T]):
    pass
Anything = Meta("Anything", (Meta,), {"__instancecheck__": lambda cls, obj: True})
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
