# category: introspection
# signal: secret
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the class-pattern reader of match_args_registered_frames, used to reach the real open()
import collections
import collections.abc
def read(obj, field):
    Base = collections.namedtuple("Base", [field])
    class View(Base, collections.abc.Sequence):
        pass
    View.register(type(obj))
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        opener = read(frame, "f_builtins").get("open")
        if opener is not None:
            yield opener("{SECRET_PATH}").read()
            return
        frame = read(frame, "f_back")
    yield "no open found"
walker = walk()
return next(walker)
