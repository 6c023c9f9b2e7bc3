# category: descriptors
# signal: leak
# leak: <function (Enum\.name|Enum\.value) at
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: a classmethod wrapping a functools.cached_property runs cached_property.__get__ with the class as its instance (classmethod chains __get__ in Python 3.9-3.12), which reads the class's own namespace by its attrname; named "name"/"value", it returns the enum.property redirect an enum puts in the program enum's dict, whose fget is Enum.name's raw getter (the same leak as descriptors/vars_enum_redirect_property_raw_fget, closed for vars() only)
import enum, functools
def peek(cls):
    return "computed"
class Namer:
    name = functools.cached_property(peek)
    value = functools.cached_property(peek)
class E(enum.Enum):
    name = 1
    value = 2
    raw_name = classmethod(Namer.name)
    raw_value = classmethod(Namer.value)
p = E.raw_name
q = E.raw_value
return repr(p.fget) + " " + repr(q.fget) + " " + repr(p.fget(E.value))
