# category: real-metaclasses
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the bare typing.Type alias contributes the real type as a base just like typing.Type[int]; the metaclass it gives builds a frame reader
import typing
class Meta(typing.Type):
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
            yield builtins["open"]("{SECRET_PATH}").read()
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)
