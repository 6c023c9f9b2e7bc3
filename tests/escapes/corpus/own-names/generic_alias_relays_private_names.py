# category: own-names
# signal: leak
# leak: <function UserList\.__cast at
# plain: skip (a leak is judged only with the language layer on)
# tripwire: harmless (no audited event; the harm is a raw library method that runs with any self, judged with the language layer on)
# source: a subscripted class (types.GenericAlias, typing's aliases) relays every attribute read it does not answer itself to its origin class, so an alias of the program's own class read by an _x name would hand out what that name finds on the class: a library base's private method, unchecked
import collections
import typing
T = typing.TypeVar("T")
class Rows(collections.UserList):
    pass
class Boxed(typing.Generic[T], collections.UserList):
    pass
found = []
for alias in (Rows[int], Boxed[int]):
    try:
        found.append(repr(getattr(alias, "_UserList__cast")))
    except AttributeError as error:
        found.append(type(error).__name__)
    try:
        found.append(repr(alias._UserList__cast))
    except AttributeError as error:
        found.append(type(error).__name__)
return found
