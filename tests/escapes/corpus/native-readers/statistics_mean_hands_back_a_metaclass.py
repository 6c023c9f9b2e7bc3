# category: native-readers
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: statistics._sum coerces its result type from the real type() of each data point (a class gives the real `type`), and mean()'s _convert calls T(value) on a value the program's own __truediv__ returns, so type(an ABC class) hands out the real ABCMeta: a class factory whose classes' match patterns read any attribute natively
import statistics, abc
class Base(abc.ABC):
    pass
class Total:
    def __radd__(self, other):
        return self
    def is_finite(self):
        return False
    def __truediv__(self, other):
        return Base
total = Total()
class Point:
    @staticmethod
    def as_integer_ratio():
        return (total, None)
Meta = statistics.mean([Point])
def read(obj, name):
    Reader = Meta("Reader", (), {"__match_args__": (name,), "__subclasshook__": classmethod(lambda cls, other: True)})
    match obj:
        case Reader(value):
            return value
    return None
try:
    int("x")
except ValueError as error:
    caught = error
frame = read(read(caught, "__traceback__"), "tb_frame")
while frame is not None:
    builtins = read(frame, "f_builtins")
    if "exec" in builtins:
        if builtins["__import__"]("os").system("touch {MARKER_PATH}") != 0:
            raise OSError("the shell did not run")
        break
    frame = read(frame, "f_back")
return "done"
