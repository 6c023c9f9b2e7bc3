"""Guarded replacements for readers and writers the plain modules would run unguarded.

``operator.attrgetter``/``methodcaller`` read attributes by names the program
gives, natively: these versions read through the attribute guard.
``pprint.pprint`` writes to the process's real standard output and
``time.strftime`` without a time reads the local time zone from the file
system: these versions print like ``print`` and use UTC.
"""

from __future__ import annotations

import pprint as _pprint
import time as _time
from typing import TYPE_CHECKING, Any

from . import _output
from ._guards import guarded_getattr

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["attrgetter", "methodcaller", "pp", "pprint", "strftime"]


def _exact_name(name: object, what: str) -> str:
    if type(name) is not str:
        raise TypeError(f"{what} names must be str, not {type(name).__name__}")
    return name


def attrgetter(*names: str) -> Callable[[Any], Any]:
    """``operator.attrgetter``, every step read through the attribute guard."""
    if not names:
        raise TypeError("attrgetter expected 1 argument, got 0")
    paths = [tuple(_exact_name(name, "attrgetter").split(".")) for name in names]

    def read(obj: Any, path: tuple[str, ...]) -> Any:
        for step in path:
            obj = guarded_getattr(obj, step)
        return obj

    if len(paths) == 1:
        only = paths[0]
        return lambda obj: read(obj, only)
    return lambda obj: tuple(read(obj, path) for path in paths)


def methodcaller(name: str, /, *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
    """``operator.methodcaller``, the method read through the attribute guard."""
    method = _exact_name(name, "methodcaller")
    return lambda obj: guarded_getattr(obj, method)(*args, **kwargs)


def _print_text(text: str) -> None:
    _output.emit(text, lambda target: guarded_getattr(target, "write"))


def pprint(
    obj: object,
    stream: Any = None,
    indent: int = 1,
    width: int = 80,
    depth: int | None = None,
    *,
    compact: bool = False,
    sort_dicts: bool = True,
    underscore_numbers: bool = False,
) -> None:
    """``pprint.pprint``: printed like ``print`` (or to the program's own ``stream``)."""
    text = _pprint.pformat(
        obj,
        indent=indent,
        width=width,
        depth=depth,
        compact=compact,
        sort_dicts=sort_dicts,
        underscore_numbers=underscore_numbers,
    )
    if stream is None:
        _print_text(text + "\n")
    else:
        guarded_getattr(stream, "write")(text + "\n")


def pp(obj: object, *args: Any, sort_dicts: bool = False, **kwargs: Any) -> None:
    """``pprint.pp``: :func:`pprint` keeping the dict order."""
    pprint(obj, *args, sort_dicts=sort_dicts, **kwargs)


def strftime(format: str, t: Any = None, /) -> str:
    """``time.strftime``; without a time it formats the current UTC time."""
    return _time.strftime(format, _time.gmtime() if t is None else t)
