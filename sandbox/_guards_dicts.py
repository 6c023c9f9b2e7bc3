"""Where the interpreter keeps an attribute, read without running any code.

The attribute guard's helpers that answer from the class dicts along the real
MRO and from an object's own ``__dict__`` slot, never through a descriptor, a
``__getattr__`` or a metaclass: whether a special name exists (``hasattr``
of a name the guard refuses to hand out), and an object's own attributes
(which callers only test a name's presence in). Separate from
:mod:`sandbox._guards` because none of it decides a read: it is the lookup
the guard's decisions, and ``hasattr``'s answer, are built on.
"""

from __future__ import annotations

import types
from typing import Any, Final

from ._program import real_mro

__all__: list[str] = []

_MISSING: Final[Any] = object()


def _is_special_name(name: str) -> bool:
    return len(name) > 4 and name[:2] == "__" and name[-2:] == "__"


#: The interpreter's own reader of a class's dict.
_class_dict: Final = type.__dict__["__dict__"].__get__


def _has_special(obj: object, name: str) -> bool:
    """Whether ``obj`` has the special attribute ``name``, found without running any code.

    Where the interpreter finds it: in the class dicts along the real MRO (a
    class's attributes are its MRO's and its metaclass's, ``__dict__``,
    ``__name__``), and in the object's own attributes - an exception's, a
    program object's, a library object's (``typing.List[int]`` keeps its
    ``__origin__`` there). A ``list[int]`` answers for its origin, as it
    relays every read but its own few.
    """
    if type(obj) is types.GenericAlias and name not in _GENERIC_ALIAS_OWN:
        return _has_special(obj.__origin__, name)
    if isinstance(obj, type):
        found = _first_definer(type(obj), name)
        if found is type and type(type.__dict__[name]) is types.GetSetDescriptorType:
            # The interpreter's own answer for a class, in C: `__abstractmethods__`
            # only for an ABC, `__annotations__` not for a builtin type.
            try:
                type.__dict__[name].__get__(obj, type(obj))
            except AttributeError:
                return False
            return True
    owners = (obj, type(obj)) if isinstance(obj, type) else (type(obj),)
    if any(name in _class_dict(cls) for owner in owners for cls in real_mro(owner)):
        return True
    return not isinstance(obj, type) and name in _own_attributes(obj)


def _first_definer(cls: type, name: str) -> type | None:
    """The first class along ``cls``'s real MRO whose dict has ``name``."""
    for klass in real_mro(cls):
        if name in _class_dict(klass):
            return klass
    return None


#: The names a ``types.GenericAlias`` answers itself; it relays every other read
#: to its origin (``ga_getattro``'s exceptions in CPython 3.11).
_GENERIC_ALIAS_OWN: Final = frozenset(
    {
        "__class__", "__origin__", "__args__", "__unpacked__", "__parameters__",
        "__typing_unpacked_tuple_args__", "__mro_entries__", "__reduce_ex__", "__reduce__",
        "__copy__", "__deepcopy__",
    }
)  # fmt: skip


#: The descriptors by which the interpreter keeps an object's own attributes.
_DICT_SLOTS: Final = (types.GetSetDescriptorType, types.MemberDescriptorType)


def _own_attributes(obj: object) -> dict[str, object]:
    """``obj``'s own attributes, read by the interpreter's own ``__dict__`` slot (or ``{}``).

    The ``__dict__`` descriptor is found on the class dicts along the real MRO
    and used only if it is the interpreter's own (a getset or member
    descriptor, C code): a class's property of that name never runs. Never
    handed out: callers only test a name's presence.
    """
    for klass in real_mro(type(obj)):
        slot = _class_dict(klass).get("__dict__", _MISSING)
        if slot is _MISSING:
            continue
        if type(slot) in _DICT_SLOTS:
            own = slot.__get__(obj, type(obj))
            if type(own) is dict:
                return own
        break
    return {}
