# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: the class-pattern reader with a typing.NamedTuple built from strings, so that a fix limited to collections.namedtuple is not enough
import collections.abc
import typing
def read(obj, field):
    Base = typing.NamedTuple("Base", [(field, object)])
    class View(Base, collections.abc.Sequence):
        pass
    View.register(type(obj))
    match obj:
        case View(value):
            return value
def walk():
    frame = read(walker, "gi_frame")
    while frame is not None:
        found = read(frame, "f_builtins").get("__import__")
        if found is not None:
            try:
                found("os").system("touch {MARKER_PATH}")
                yield "done"
                return
            except Exception:
                pass
        frame = read(frame, "f_back")
    yield "no import found"
walker = walk()
return next(walker)
