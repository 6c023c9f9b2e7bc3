# category: native-readers
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a bound method relays attribute reads it cannot answer to the object it wraps, natively; classmethod() wraps any object, so Relay.error.obj reads .obj of the AttributeError of typing.Type.x past the guard's AttributeError check (it sees a method) and hands out the real type, which builds a frame reader
import typing
try:
    typing.Type.no_such_attribute
except AttributeError as error:
    caught = error
class Relay:
    error = classmethod(caught)
real_type = Relay.error.obj
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
