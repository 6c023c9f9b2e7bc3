# category: real-metaclasses
# signal: leak
# leak: class 'X'
# expect: refused
# tripwire: harmless (it only discloses a class factory, judged with the language layer on)
# source: pyjail class-factory route: the class an InitVar keeps, read back and called with three arguments
import dataclasses
t = dataclasses.InitVar[type(int)].type
return repr(t("X", (), {}))
