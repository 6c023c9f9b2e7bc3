"""``vars(obj)`` for restricted code: a copy of a program object's attributes that writes through.

Only the program's own objects (and ``SimpleNamespace``) are answered, and
every change made on the copy is made on the object first, through the write
guards of :mod:`sandbox._guards_write`. Separate from :mod:`sandbox._guards`
because it reads no attribute through the getattr guard: it is a builtin
built on the write guards and the record of the program's objects.
"""

from __future__ import annotations

import types
from typing import Any, Final

from bridge.lossless import read_as_dict

from ._guards_own import is_own_name, is_program_object, type_label
from ._guards_write import NAMESPACES, guarded_delattr, guarded_setattr
from ._library import self_checked
from ._program import is_program_class, is_program_function
from ._types import SafeClassMethod

__all__ = ["Attributes", "safe_vars"]

_MISSING: Final[Any] = object()


def safe_vars(obj: Any = _MISSING) -> dict[str, Any]:
    """``vars(obj)`` for the program's own objects: their attributes, written through.

    A copy, whose changes are made on the object too, each through the write
    guard (:class:`Attributes`): ``vars(self).update(kw)`` sets the attributes
    as in Python, and cannot set a name the guards refuse. Only the program's
    objects (and ``SimpleNamespace``), so that no library object's private state
    is handed out. ``vars()`` (the namespace) is refused with a hint.
    """
    if obj is _MISSING:
        raise TypeError(
            "vars() without an argument (the program's namespace) is not available in "
            "run_code; pass values explicitly, or use vars(obj) for an object's attributes"
        )
    if not (is_program_object(obj) or type(obj) in NAMESPACES):
        raise TypeError(
            "vars() in run_code works on the program's own objects and SimpleNamespace, "
            f"not on a {type_label(obj)} object"
        )
    members = {
        key: value
        for key, value in obj.__dict__.items()
        if type(key) is str and (key[:1] != "_" or is_own_name(key))
    }
    if isinstance(obj, type):
        # A class's dict may hold what libraries put there (a namedtuple's
        # `_replace`, an enum's redirecting properties): each as the guard
        # would hand it out, never a library function that runs with any self.
        members = {
            key: checked
            for key, value in members.items()
            if (checked := _class_member(obj, value)) is not _MISSING
        }
    return Attributes(obj, members)


class Attributes(dict):  # type: ignore[type-arg]
    """What ``vars(obj)`` returns: a copy of ``obj``'s attributes that writes through.

    Every change is made on ``obj`` first, by the guarded ``setattr`` and
    ``delattr`` (so a refused name or object raises before anything changes),
    then on the copy. A dict, so that ``json.dumps(vars(obj))`` and ``dict``'s
    own readers work as on the real ``__dict__``.
    """

    __slots__ = ("_owner",)

    def __init__(self, owner: object, members: dict[str, Any]) -> None:
        dict.__init__(self, members)
        self._owner = owner

    def __setitem__(self, key: str, value: Any) -> None:
        guarded_setattr(self._owner, key, value)
        dict.__setitem__(self, key, value)

    def __delitem__(self, key: str) -> None:
        guarded_delattr(self._owner, key)
        dict.__delitem__(self, key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def __ior__(self, other: Any) -> Attributes:  # type: ignore[misc]
        self.update(other)
        return self

    def setdefault(self, key: str, default: Any = None) -> Any:
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    def pop(self, key: str, *default: Any) -> Any:
        if key not in self:
            return dict.pop(self, key, *default)
        value = dict.__getitem__(self, key)
        del self[key]
        return value

    def popitem(self) -> tuple[str, Any]:
        if not self:
            raise KeyError("popitem(): dictionary is empty")
        key = next(reversed(self))
        return key, self.pop(key)

    def clear(self) -> None:
        for key in list(self):
            del self[key]


# A tool's arguments and the run's value take it as the dict it copies.
read_as_dict(Attributes)


def _class_member(cls: type, value: object) -> object:
    """``value``, from ``cls``'s own dict, as ``vars(cls)`` shows it (``_MISSING``: not at all)."""
    if type(value) is types.FunctionType:
        return value if is_program_function(value) else self_checked(value, cls)
    if type(value) in (staticmethod, classmethod, SafeClassMethod):
        inner = value.__func__  # type: ignore[attr-defined]
        return value if is_program_function(inner) else _MISSING
    if isinstance(value, property):
        parts = (value.fget, value.fset, value.fdel)
        if all(part is None or is_program_function(part) for part in parts):
            return value
        return _MISSING
    if hasattr(type(value), "__get__") and not is_program_class(type(value)):
        return _MISSING  # a library's descriptor: what it holds is not the program's
    return value
