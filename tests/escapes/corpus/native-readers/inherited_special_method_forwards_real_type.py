# category: native-readers
# signal: marker
# expect: refused
# tripwire: stops os.system
# source: rule 8 shielded only the special methods a class statement defines; a program class that inherits one from an inert library base runs the library's method with the library's operand, and that method calls the program's own code by an ordinary name: collections.UserList.__eq__ calls self.__cast(other), the program's _UserList__cast, with the operand unshielded; typing.Type[int] == an alias whose origin is such an object compares the origins natively and hands the real `type` over; three-argument type() makes a metaclass whose `match` class patterns read a library function's __globals__ (unaudited) and the real __import__
import typing
import collections
caught = []
class Spy(collections.UserList):
    def __hash__(self):
        return 1
    def _UserList__cast(self, other):
        caught.append(other)
        return []
Alias = type(typing.List[int])
typing.Type[int] == Alias(Spy(), (int,))
real_type = caught[0]
Meta = real_type("Meta", (real_type,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Meta("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
imp = read(read(Spy, "__init__"), "__globals__")["__builtins__"]["__import__"]
imp("os").system("touch {MARKER_PATH}")
return "done"
