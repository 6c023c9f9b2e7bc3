# category: descriptors
# signal: leak
# leak: <function NT\._(replace|asdict) at
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: classmethod() chains __get__ (Python 3.9-3.12), so a classmethod wrapping a functools.cached_property runs cached_property.__get__ with the class as its instance, and it reads instance.__dict__ - the class's own namespace - by its attrname, past the guard and past vars(); a cached_property named _replace (a class-body name) set on a namedtuple class hands out the library's raw _replace, which runs with any self (the same leak as descriptors/vars_namedtuple_vars_raw_replace, closed for vars() only)
import collections, functools
def peek(cls):
    return "computed for " + cls.__name__
class Namer:
    _replace = functools.cached_property(peek)
    _asdict = functools.cached_property(peek)
NT = collections.namedtuple("NT", "a b")
NT.raw_replace = classmethod(Namer._replace)
NT.raw_asdict = classmethod(Namer._asdict)
r = NT.raw_replace
class Other:
    def __iter__(self):
        return iter([1, 2])
o = Other()
o._make = lambda it: list(it)
return [repr(r) + " " + repr(NT.raw_asdict), r(o)]
