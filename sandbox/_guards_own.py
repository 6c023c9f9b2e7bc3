"""Whose objects a program may use ``_x`` names on, and the refusals every guard shares.

A program's own ``_x`` and ``__x`` attributes are its state; the same names on
a library's objects are the library's (``sandbox._guards`` reads, and
``sandbox._guards_write`` writes, through the checks here).
"""

from __future__ import annotations

import types
from typing import Any, Final, NoReturn

from ._attribute_names import RESERVED_PRIVATE_ATTRIBUTES
from ._hints import underscore_hint
from ._program import is_program_class, is_program_function, real_mro

__all__ = [
    "guarded_own",
    "is_own_name",
    "is_program_object",
    "refuse_blocked",
    "refuse_foreign",
    "refuse_unbound",
    "refuse_underscore",
    "type_label",
    "unbound_library_method",
]

_ABSENT: Final[Any] = object()


def refuse_underscore(name: str) -> NoReturn:
    raise AttributeError(
        f'"{name}" is an invalid attribute name because it starts with "_"'
        + underscore_hint(name)
    )


def is_own_name(name: str) -> bool:
    """``_x`` or ``__x``: an attribute name that is the program's own on its own objects."""
    return (
        name[:1] == "_"
        and name != "_"
        and not name.endswith("_")
        and name not in RESERVED_PRIVATE_ATTRIBUTES
    )


def refuse_foreign(obj: object, name: str) -> NoReturn:
    raise AttributeError(
        f'"{name}" starts with "_": such attributes can be used only on the program\'s own '
        f"objects (instances of classes it defines, and those classes), not on a "
        f"{type_label(obj)} object"
    )


#: A namedtuple's own API, named with "_" so that no field name can clash with it.
_NAMEDTUPLE_API: Final = frozenset({"_asdict", "_replace", "_make", "_fields", "_field_defaults"})


def _namedtuple_member(obj: object, name: str) -> bool:
    """Whether ``obj._name`` is the namedtuple API of a library namedtuple instance.

    Only on an instance (read from it, a method is bound to it), and only when
    the class the name is found on first is the namedtuple class itself - the
    one ``collections.namedtuple`` made, which holds ``_fields`` - not a
    subclass that redefined it.
    """
    if name not in _NAMEDTUPLE_API or issubclass(type(obj), type):
        return False
    for klass in real_mro(type(obj)):
        if name in vars(klass):
            return "_fields" in vars(klass) and issubclass(klass, tuple)
    return False


def guarded_own(obj: Any, name: str, write: bool = False) -> Any:
    """``_own_``: return ``obj`` if it may carry the program's own ``_x`` attributes.

    The compiler turns ``obj._x`` into ``_own_(obj, "_x")._x`` (with ``write``
    true for a write or delete). Only the program's objects pass: instances of
    its classes, the classes themselves, and ``super()`` over one of them.
    Their classes derive from inert bases only (``sandbox._classes``), so an
    ``_x`` found there is the program's or an inert base's, never a library's
    state. A read may also take a library namedtuple instance's own API
    (``_replace``, ``_asdict``, ...), which is no state of the library's.
    """
    if is_program_class(type(obj)):
        return obj
    if type(obj) is super and is_program_object(obj.__self__):  # type: ignore[attr-defined]
        if unbound_library_method(obj, name) is not None:
            refuse_unbound(obj, name)
        return obj
    if is_program_class(obj):
        # On a class, the lookup also finds the metaclass's own helpers
        # (abc's `_dump_registry`, `_abc_registry_clear`), which are no
        # attributes of the program's.
        if any(name in vars(meta) for meta in type(obj).__mro__):
            refuse_foreign(obj, name)
        if unbound_library_method(obj, name) is not None:
            refuse_unbound(obj, name)
        return obj
    if not write and _namedtuple_member(obj, name):
        # `urlparse(url)._replace(query=...)`: reads and calls fixed names only.
        return obj
    refuse_foreign(obj, name)


def refuse_unbound(obj: object, name: str) -> NoReturn:
    raise AttributeError(
        f'"{name}" is a method of a library base class: read from a class it would run with '
        f"any self, so it can be used only on an instance (self.{name}(...))"
    )


def unbound_library_method(target: object, name: str) -> type | None:
    """The class to check ``self`` against if reading ``name`` on ``target`` gives a library method.

    A library class's plain-Python method, read from a class or from ``super()``
    over a class, comes back as the function itself: it would run with any
    ``self`` the program chose (``UserList.__getitem__`` builds
    ``self.__class__(...)``, which for a class is its metaclass, the real
    ``type``). Whichever class it is read from - the library's own, or a
    program class deriving from it - the method must check its ``self``.
    ``None`` when the read gives anything else (a bound method, a static
    method, a program function, a value).
    """
    if isinstance(target, type):
        cls: Any = target
        order: tuple[type, ...] = real_mro(target)
    elif type(target) is super:
        cls = target.__self_class__  # type: ignore[attr-defined]
        if not isinstance(cls, type) or cls is not target.__self__:  # type: ignore[attr-defined]
            return None  # super() over an instance binds what it finds
        order = cls.__mro__
        start = target.__thisclass__  # type: ignore[attr-defined]
        order = order[order.index(start) + 1 :] if start in order else ()
    else:
        return None
    for klass in order:
        found = type.__dict__["__dict__"].__get__(klass).get(name, _ABSENT)
        if found is not _ABSENT:
            if type(found) is types.FunctionType and not is_program_function(found):
                return cls  # type: ignore[no-any-return]
            return None
    return None


def refuse_blocked(name: str) -> NoReturn:
    raise AttributeError(f'"{name}" is a restricted attribute (it leads to interpreter internals)')



def is_program_object(obj: object) -> bool:
    """An instance of one of the program's classes, or one of those classes."""
    return is_program_class(type(obj)) or is_program_class(obj)



def type_label(obj: object) -> str:
    # The class name only: a module path would tell the program about the host.
    return type(obj).__qualname__
