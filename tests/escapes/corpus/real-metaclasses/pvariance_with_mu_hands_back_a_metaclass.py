# category: real-metaclasses
# signal: marker
# expect: refused
# tripwire: stops object.__getattr__ tb_frame
# source: pvariance(data, mu) sums (x - mu) squared through _sum, whose result type is type() of each product the program's operators return (a class gives the real type); _convert then calls T(ss / n) with the program's own total, so type(an ABC class) comes back as ABCMeta
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
    def __truediv__(self, other):
        return Base
total = Total()
class Point:
    @staticmethod
    def as_integer_ratio():
        return (total, None)
class Diff:
    def __mul__(self, other):
        return Point
class Datum:
    def __sub__(self, other):
        return Diff()
Meta = statistics.pvariance([Datum(), Datum()], mu=0)
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
