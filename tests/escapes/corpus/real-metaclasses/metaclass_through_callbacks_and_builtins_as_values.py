# category: real-metaclasses
# signal: leak
# leak: ABCMeta|_ProtocolMeta|EnumType|_TypedDictMeta|NamedTupleMeta
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a metaclass handed to the program, judged with the language layer on)
# source: variant of protocol_metaclass_through_type and abc_metaclass_through_mapping: the class of a program class asked for through type used as a value (map, functools.reduce, functools.partial, a sort key) and through __class__ of classes with library metaclasses, instead of a direct type() call
import typing, enum, collections.abc, functools, abc
class Shape(typing.Protocol):
    def area(self) -> float: ...
class Color(enum.Enum):
    RED = 1
class Movie(typing.TypedDict):
    title: str
class M(collections.abc.Mapping):
    def __getitem__(self, k): raise KeyError(k)
    def __iter__(self): return iter(())
    def __len__(self): return 0
class Point(typing.NamedTuple):
    x: int
out = []
def tryit(label, f):
    try:
        out.append(label + ": " + repr(f()))
    except Exception as e:
        out.append(label + " !" + type(e).__name__ + ": " + str(e)[:80])
for C in (Shape, Color, Movie, M, Point, abc.ABC):
    tryit("type", lambda: type(C))
    tryit("map", lambda: list(map(type, [C])))
    tryit("reduce", lambda: functools.reduce(lambda a, b: type(a), [0, 1], C))
    tryit("partial", lambda: functools.partial(type, C)())
    tryit("cls", lambda: C.__class__)
tryit("color member class class", lambda: type(type(Color.RED)))
tryit("typing.Type[Shape] call", lambda: typing.Type[Shape](1))
tryit("super", lambda: super(Shape, Shape).__class__)
tryit("sorted key", lambda: sorted([Shape, M], key=type))
tryit("max key", lambda: max([Shape], key=lambda c: 1))
tryit("dict fromkeys", lambda: list(dict.fromkeys(map(type, [Shape]))))
tryit("type of type", lambda: type(type))
tryit("type type C", lambda: type(type(Shape)))
tryit("class of typing.Protocol", lambda: typing.Protocol.__class__)
return out
