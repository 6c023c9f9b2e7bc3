# category: real-metaclasses
# signal: leak
# leak: <class 'type'>\)|class 'X'
# expect: refused
# tripwire: harmless (it only discloses a class factory, judged with the language layer on)
# source: pyjail class-factory route: the real type kept as a TypeVar bound, read back and called with three arguments
import typing
T = typing.TypeVar("T", bound=type(int))
b = getattr(T, "__bo" + "und__")
return repr(b("X", (), {}))
