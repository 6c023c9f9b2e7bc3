# category: real-metaclasses
# signal: leak
# leak: <module 'builtins'|'sandbox\._tripwire'
# expect: refused
# plain: skip (a leak is judged only with the language layer on; userlist_getitem_subclass_hands_type shows the harm of the same gadget)
# tripwire: harmless (no audited event on this route: __globals__ reads are not audited; the harm is the disclosure, judged with the language layer on)
# source: UserList.__getitem__ read unwrapped from the program's own subclass runs with a foreign self and returns K.__class__(int), the real `type`; a metaclass made with three-argument type() lets a `match` class pattern read a library function's __globals__ (not audited), reaching the real builtins module and sys.modules past the tripwire
import collections
class L(collections.UserList):
    pass
class D:
    def __getitem__(self, i):
        return int
class K:
    data = D()
real_type = L.__getitem__(K, slice(None))
Meta = real_type("Meta", (real_type,), {"__instancecheck__": lambda cls, obj: True})
def read(obj, name):
    View = Meta("View", (), {"__match_args__": (name,)})
    match obj:
        case View(value):
            return value
g = read(L.__getitem__, "__globals__")
b = g["__builtins__"]
sysmod = g["_sys"]
mods = read(sysmod, "modules")
return repr(mods["builtins"]) + " " + repr(b["__import__"]) + " " + repr(sorted(k for k in mods if k.startswith("sandbox")))
