"""The ``enum`` façade: the real enum classes, with member names checked in the functional API.

``Enum("Color", [("RED", 1), ...])`` builds a class from a list of names. A name
that starts with ``_`` would land in the class body unchecked, so a program
could define any special method that way (``__format__``, ``__getattribute__``,
``__reduce_ex__``, ...), past the compiler's list of methods a class body may
define. These subclasses refuse such names; everything else is the real enum.
"""

from __future__ import annotations

import enum
from typing import Any

from ._attribute_names import BLOCKED_ATTRIBUTES
from ._classes import inert_base, register_program_class
from ._program import PROGRAM_CLASS_MODULE, adopting_base, classes_being_made

__all__ = ["Enum", "Flag", "IntEnum", "IntFlag", "StrEnum"]


def _checked_names(names: object) -> object:
    """An exact copy of the functional API's ``names``, every member name checked.

    The shapes it accepts: ``"A B"`` / ``"A,B"``, an iterable of names or of
    ``(name, value)`` pairs, or a dict of names to values. What is checked
    is an exact copy (exact ``str`` names, exact ``list``/``dict``), and the
    copy is what enum reads: a ``str`` subclass could hash and compare like a
    dunder whatever its text, and a container could read differently twice.
    """
    if type(names) is str:
        parts = names.replace(",", " ").split()
        for part in parts:
            _check_name(part)
        return parts
    if type(names) is dict:
        copied = dict(names)
        for key in copied:
            _check_name(key)
        return copied
    if isinstance(names, str | bytes) or not hasattr(type(names), "__iter__"):
        raise TypeError(
            "enum member names in run_code must be a str, an iterable of names or of "
            f"(name, value) pairs, or a dict; got {type(names).__qualname__}"
        )
    items: list[object] = []
    for item in list(names):  # type: ignore[call-overload]  # read once, into an exact list
        if type(item) in (tuple, list):
            pair = tuple(item)
            if len(pair) != 2:
                raise ValueError("enum members given as pairs must be (name, value)")
            _check_name(pair[0])
            items.append(pair)
        else:
            _check_name(item)
            items.append(item)
    return items


def _check_name(name: object) -> None:
    if (
        type(name) is not str
        or name.startswith("_")
        or name in BLOCKED_ATTRIBUTES
        or name.endswith("__roles__")
    ):
        # As a class body's names: a reserved name (`gi_frame`, `f_back`) is
        # refused there, so it is refused as a member name too.
        raise ValueError(
            f"enum member name {name!r} is not allowed in run_code "
            "(member names must be plain str not starting with '_' and not naming "
            "interpreter internals)"
        )


class _CheckedEnumType(enum.EnumType):
    """``EnumType`` whose functional API checks member names and builds a checked class."""

    def __call__(cls, value: Any, names: Any = None, *args: Any, **kwargs: Any) -> Any:
        if names is None and not args and not kwargs:
            return super().__call__(value)  # a member lookup: Color(1)
        if args or set(kwargs) - {"start"}:
            raise TypeError(
                "the enum functional API in run_code takes the class name, the member names "
                "and start= only"
            )
        start = kwargs.get("start", 1)
        if type(start) is not int:
            raise TypeError("start= must be an int")
        if type(value) is not str:
            raise TypeError("the enum class name must be a str")
        # module= and qualname= given, so enum does not look them up in the
        # caller's frame (sys._getframe).
        create: Any = super().__call__
        classes_being_made[0] += 1  # its members are made as the program's, see there
        try:
            created: type = create(
                value,
                _checked_names(names),
                module=PROGRAM_CLASS_MODULE,
                qualname=value,
                start=start,
            )
            return register_program_class(created)
        finally:
            classes_being_made[0] -= 1


# Its name shows in the interpreter's own messages ("... and 'EnumType'"), as in CPython.
_CheckedEnumType.__name__ = _CheckedEnumType.__qualname__ = "EnumType"

_REASON = "the enum façade: member names come from the class body (compiler-checked)"


@adopting_base
@inert_base(_REASON)
class Enum(enum.Enum, metaclass=_CheckedEnumType):
    """``enum.Enum``; the functional API checks member names."""


@adopting_base
@inert_base(_REASON)
class IntEnum(enum.IntEnum, metaclass=_CheckedEnumType):
    """``enum.IntEnum``; the functional API checks member names."""


@adopting_base
@inert_base(_REASON)
class StrEnum(enum.StrEnum, metaclass=_CheckedEnumType):
    """``enum.StrEnum``; the functional API checks member names."""


@adopting_base
@inert_base(_REASON)
class Flag(enum.Flag, metaclass=_CheckedEnumType):
    """``enum.Flag``; the functional API checks member names."""


@adopting_base
@inert_base(_REASON)
class IntFlag(enum.IntFlag, metaclass=_CheckedEnumType):
    """``enum.IntFlag``; the functional API checks member names."""
