# category: native-readers
# signal: leak
# leak: <module 'sys' \(built-in\)>.*<module 'os'
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event: __globals__ is not audited and sys and os are already imported)
# source: rule 8 shielded only the special methods a class statement defines; collections.UserList.__eq__, inherited by a program class, calls the program's own _UserList__cast with the library's operand; typing.Type[int] == an alias around such an object hands it the real `type`, whose metaclass makes `match` class patterns read a library function's __globals__ and the real builtins, then sys.modules
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
sys_ = imp("sys")
return repr(sys_) + " " + repr(read(sys_, "modules")["os"])
