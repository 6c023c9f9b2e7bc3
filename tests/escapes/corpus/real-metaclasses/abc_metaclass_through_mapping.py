# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: a program class deriving from collections.abc.Mapping gets the real ABCMeta; type() of the class would hand it out, and its three-argument form builds a class with __match_args__ that ABC registration lets match any object
import collections.abc
class Settings(collections.abc.Mapping):
    def __getitem__(self, key):
        raise KeyError(key)
    def __iter__(self):
        return iter(())
    def __len__(self):
        return 0
AbcMeta = type(Settings)
def read(obj, name):
    View = AbcMeta("View", (collections.abc.Sequence,), {"__match_args__": (name,), "__getitem__": None, "__len__": None})
    View.register(type(obj))
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
