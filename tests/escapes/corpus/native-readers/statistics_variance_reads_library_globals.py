# category: native-readers
# signal: leak
# leak: <module 'sys'|'exec': <built-in function exec>
# expect: refused
# tripwire: misses (no audited event on its route: __globals__ and match reads are not audited)
# source: the statistics gadget of statistics_mean_hands_back_a_metaclass through variance() (_ss coerces T from groupby(data, type), _convert calls T(value)); the real ABCMeta makes a class whose match patterns read a library function's __globals__ natively, which no audit event watches
import statistics, abc
class Base(abc.ABC):
    pass
class Total:
    def __radd__(self, other):
        return self
    def __add__(self, other):
        return self
    def __mul__(self, other):
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
Meta = statistics.variance([Point, Point])
def read(obj, name):
    Reader = Meta("Reader", (), {"__match_args__": (name,), "__subclasshook__": classmethod(lambda cls, other: True)})
    match obj:
        case Reader(value):
            return value
    return None
found = read(statistics.mean, "__globals__")
return repr(found["sys"]) + " " + repr({"exec": found["__builtins__"]["exec"]})
