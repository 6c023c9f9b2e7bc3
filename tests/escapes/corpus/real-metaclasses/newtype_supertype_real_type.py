# category: real-metaclasses
# signal: leak
# leak: class 'X'
# expect: refused
# tripwire: harmless (it only discloses a class factory, judged with the language layer on)
# source: pyjail class-factory route: the real type kept by NewType and read back as its supertype
import typing
N = typing.NewType("N", type(int))
s = getattr(N, "__super" + "type__")
return repr(s("X", (), {}))
