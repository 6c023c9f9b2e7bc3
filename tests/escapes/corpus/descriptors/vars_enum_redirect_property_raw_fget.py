# category: descriptors
# signal: leak
# leak: <function (Enum\.name|Enum\.value|DynamicClassAttribute\.getter) at
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: a program enum with a member named like a base property (name, value) gets an enum.property redirect in its own class dict, carrying Enum.name's raw fget; vars() of the program's own class hands out that library descriptor, whose fget (and whose class's getter/setter) run with any self
import enum
class E(enum.Enum):
    name = 1
    value = 2
p = vars(E)["name"]
q = vars(E)["value"]
return repr(p.fget) + " " + repr(q.fget) + " " + repr(type(p).getter) + " " + repr(p.fget(enum.Enum("X", "A").A if False else E.value))
