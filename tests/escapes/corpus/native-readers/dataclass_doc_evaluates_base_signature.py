# category: native-readers
# signal: leak
# leak: where='/|here='/|label='<model>'
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: stops compile
# source: dataclass(init=False) writes a class's docstring from inspect.signature(cls), which, for a class with no __init__ or __new__ of its own, parses the first text signature in its MRO (a docstring opening `Name(...)`, a line `--` and a blank line) and evaluates every name and dotted name in its defaults with eval, in the class's module and then in a copy of sys.modules: from the program's docstring, any constant of any loaded module
import dataclasses
class Base:
    "Base(where=sys.prefix, here=sandbox.__file__, label=sandbox._program.MODEL_MODULE)\n--\n\n"
@dataclasses.dataclass(init=False)
class Leaf(Base):
    x: int = 0
return Leaf.__doc__
