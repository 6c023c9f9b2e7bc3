# category: native-readers
# signal: leak
# leak: where='/
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: stops compile
# source: a class's C docstring, where inspect finds a text signature, is fixed when the class is made, so a docstring written afterwards is only in the class dict; but dataclass(slots=True) makes a new class from that dict, whose C docstring is then the written text: `Name(where=sys.prefix)`, a line `--` and a blank line, which dataclass(init=False) of a subclass evaluates through inspect.signature in a copy of sys.modules
import dataclasses
class Base:
    pass
Base.__doc__ = "Base(where=sys.prefix)\n--\n\n"
Slotted = dataclasses.dataclass(slots=True, init=False)(Base)
@dataclasses.dataclass(init=False)
class Leaf(Slotted):
    x: int = 0
return Leaf.__doc__
