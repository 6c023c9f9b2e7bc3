# category: check-then-use
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ gi_frame
# source: collections.namedtuple converts field names with str(); a str subclass whose __str__ returns gi_frame must meet the field-name check on what namedtuple really used, or a class pattern reads frames
import collections
import collections.abc
class Field(str):
    def __str__(self):
        return self.target
def read(obj, name):
    field = Field("x")
    field.target = name
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
