# category: introspection
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a positional class pattern reads the attributes named in __match_args__ natively; a namedtuple names blocked attributes and an ABC registration makes any object match
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
