# category: dynamic-code
# signal: leak
# leak: <class 'type'>|EnumType
# expect: refused
# tripwire: harmless (no audited event; judged with the language layer on)
# source: pyjail class-hook route: an enum's _missing_ hook, called by the metaclass with program-chosen values
import enum
class E(enum.Enum):
    A = 1
    @classmethod
    def _missing_(cls, v):
        return repr(type(cls))
return repr(E(5))
