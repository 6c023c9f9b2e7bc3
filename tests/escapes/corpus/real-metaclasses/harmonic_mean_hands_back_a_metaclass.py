# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: harmonic_mean coerces its result type from type() of each reciprocal the program's __rtruediv__ returns (a class gives the real type) and calls T(sum_weights / total), where total is the program's object: type(an ABC class) is ABCMeta; same class as statistics_mean_hands_back_a_metaclass through another entry point
import statistics, abc
class Base(abc.ABC):
    pass
class Total:
    def __radd__(self, other):
        return self
    def __add__(self, other):
        return self
    def is_finite(self):
        return False
    def __le__(self, other):
        return False
    def __rtruediv__(self, other):
        return Base
total = Total()
class Point:
    @staticmethod
    def as_integer_ratio():
        return (total, None)
class Datum:
    def __lt__(self, other):
        return False
    def __rtruediv__(self, other):
        return Point
Meta = statistics.harmonic_mean([Datum(), Datum()])
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
