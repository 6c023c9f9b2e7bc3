# category: descriptors
# signal: leak
# leak: <function NT\._(replace|asdict) at
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is the disclosure, judged with the language layer on)
# source: the guard refuses NT._replace read from the class (a library-made function), but vars() of the same program class returns it raw; it then runs with any self, reading self._make natively
import collections
NT = collections.namedtuple("NT", "a b")
r = vars(NT)["_replace"]
class Other:
    def __iter__(self):
        return iter([1, 2])
o = Other()
o._make = lambda it: list(it)
leak = repr(r) + " " + repr(vars(NT)["_asdict"])
return [leak, r(o)]
