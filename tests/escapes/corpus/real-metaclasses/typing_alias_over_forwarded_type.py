# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a typing alias relays attribute reads to its origin, so the AttributeError of typing.Type.x carries the real type in .obj; a second alias over the error reads .obj past the guard's AttributeError check, and the real type builds a class from a dict
import typing
Alias = type(typing.List[int])
try:
    typing.Type.no_such_attribute
except AttributeError as error:
    real_type = Alias(error, (int,), name="relay").obj
Anything = real_type("Anything", (real_type,), {"__instancecheck__": lambda cls, obj: True})
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
