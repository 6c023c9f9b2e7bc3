# category: dynamic-code
# signal: leak
# leak: <class 'abc.ABCMeta'>|<class 'int'>
# expect: refused
# tripwire: harmless (no audited event; judged with the language layer on)
# source: pyjail class-hook route: __subclasshook__ is called by ABCMeta with classes that library code checks
import abc
seen = []
class P(abc.ABC):
    @classmethod
    def __subclasshook__(cls, C):
        seen.append(repr(type(cls)))
        return True
isinstance(1, P)
return seen
