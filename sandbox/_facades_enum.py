"""The ``enum`` façade: the real enum classes, with member names checked in the functional API.

``Enum("Color", [("RED", 1), ...])`` builds a class from a list of names. A name
that starts with ``_`` would land in the class body unchecked, so a program
could define any special method that way (``__format__``, ``__getattribute__``,
``__reduce_ex__``, ...), past the compiler's list of methods a class body may
define. These subclasses refuse such names; everything else is the real enum.
"""

from __future__ import annotations

import enum
from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["Enum", "Flag", "IntEnum", "IntFlag", "StrEnum"]


def _member_names(names: object) -> Iterable[object]:
    # The shapes the functional API accepts: "A B" / "A,B", an iterable of
    # names or of (name, value) pairs, or a mapping of names to values.
    if isinstance(names, str):
        return names.replace(",", " ").split()
    if isinstance(names, Mapping):
        return list(names)
    assert isinstance(names, list)
    return [item[0] if isinstance(item, tuple | list) and item else item for item in names]


class _CheckedEnumType(enum.EnumType):
    """``EnumType`` whose functional API refuses member names starting with ``_``."""

    def __call__(cls, value: Any, names: Any = None, *args: Any, **kwargs: Any) -> Any:
        if names is not None:
            # Checked on a private copy, so what is checked is what is used
            # (a generator is read once; a mapping cannot change in between).
            if isinstance(names, Mapping):
                names = dict(names)
            elif not isinstance(names, str):
                names = list(names)
            for name in _member_names(names):
                if not isinstance(name, str) or name.startswith("_"):
                    raise ValueError(
                        f"enum member name {name!r} is not allowed in run_code "
                        "(names starting with '_' are reserved)"
                    )
        return super().__call__(value, names, *args, **kwargs)


class Enum(enum.Enum, metaclass=_CheckedEnumType):
    """``enum.Enum``; the functional API checks member names."""


class IntEnum(enum.IntEnum, metaclass=_CheckedEnumType):
    """``enum.IntEnum``; the functional API checks member names."""


class StrEnum(enum.StrEnum, metaclass=_CheckedEnumType):
    """``enum.StrEnum``; the functional API checks member names."""


class Flag(enum.Flag, metaclass=_CheckedEnumType):
    """``enum.Flag``; the functional API checks member names."""


class IntFlag(enum.IntFlag, metaclass=_CheckedEnumType):
    """``enum.IntFlag``; the functional API checks member names."""
