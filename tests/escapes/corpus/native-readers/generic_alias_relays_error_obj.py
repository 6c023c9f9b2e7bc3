# category: native-readers
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: types.GenericAlias (type(list[int])) relays every attribute but a few to its origin, natively: over an AttributeError it reads .obj past the guard (CVE-2024-47532 class), here the real type behind typing.Type, which builds classes from a dict
import typing
GenericAlias = type(list[int])
try:
    typing.Type.no_such_attribute
except AttributeError as error:
    real_type = GenericAlias(error, ()).obj
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
            yield builtins["open"]("{SECRET_PATH}").read()
            return
        frame = read(frame, "f_back")
    yield "no host frame found"
walker = walk()
return next(walker)
