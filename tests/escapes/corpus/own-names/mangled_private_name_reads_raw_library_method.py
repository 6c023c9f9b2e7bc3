# category: own-names
# signal: leak
# leak: <function UserList\.__cast at
# expect: refused
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a raw library method that runs with any self, judged with the language layer on)
# source: the compiler turns cls.__cast in a class named UserList into _own_(cls, "__cast")._UserList__cast: the guard judges the name as written while the interpreter reads the mangled name, so a program class named after a library base reads that base's private method from the class, unchecked (getattr(cls, "_UserList__cast") is refused)
import collections
class UserList(collections.UserList):
    @classmethod
    def grab(cls):
        return cls.__cast
raw = UserList.grab()
return [repr(raw), repr(raw(None, collections.UserList([1, 2])))]
