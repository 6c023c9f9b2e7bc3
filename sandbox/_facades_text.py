"""Guarded replacements for readers and writers the plain modules would run unguarded.

``operator.attrgetter``/``methodcaller`` read attributes by names the program
gives, natively: these versions read through the attribute guard.
``pprint.pprint`` writes to the process's real standard output and
``time.strftime`` without a time reads the local time zone from the file
system: these versions print like ``print`` and use UTC.
``string.Template``'s substitution hands a function of its own to whatever
``self.pattern`` is: :func:`check_template_pattern` makes it read that once
and take only a compiled pattern.
``csv``'s dialect registry is keyed by names: these versions key it by exact
strings only. ``fnmatch`` keeps its compiled patterns in a process-wide cache
keyed by the pattern and reads a name through ``os.fspath``: these versions
hand it exact ``str`` (or ``bytes``) copies only.
"""

from __future__ import annotations

import csv as _csv
import fnmatch as _fnmatch
import pprint as _pprint
import re
import string
import time as _time
from typing import TYPE_CHECKING, Any

from . import _output
from ._guards import guarded_getattr
from ._library import handed_out

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "attrgetter",
    "check_template_pattern",
    "fnmatch",
    "fnmatch_filter",
    "fnmatchcase",
    "get_dialect",
    "methodcaller",
    "pp",
    "pprint",
    "register_dialect",
    "strftime",
    "translate",
]


def _exact_name(name: object, what: str) -> str:
    if type(name) is not str:
        raise TypeError(f"{what} names must be str, not {type(name).__name__}")
    return name


def _dialect_name(name: object) -> str:
    """A dialect's name as csv keeps it: an exact copy (a ``str`` subclass's text alone)."""
    if not isinstance(name, str):
        raise TypeError("dialect name must be a string")
    return str.__str__(name)


def register_dialect(name: object, dialect: object = None, /, **fmtparams: Any) -> None:
    """``csv.register_dialect``, under an exact string.

    The registry is the child's own (one program a process): a dialect lasts
    for the run that registers it. The dialect's settings are read by csv's
    fixed names, as when they are passed to ``csv.reader``.
    """
    if dialect is None:
        _csv.register_dialect(_dialect_name(name), **fmtparams)
    else:
        _csv.register_dialect(_dialect_name(name), dialect, **fmtparams)  # type: ignore[arg-type]


def get_dialect(name: object) -> Any:
    """``csv.get_dialect``, looked up by an exact string."""
    return handed_out(_csv.get_dialect(_dialect_name(name)), "csv.get_dialect")


def _shell_text(value: object) -> Any:  # str or bytes: fnmatch's AnyStr takes one of them
    """A name or pattern for ``fnmatch``: an exact ``str`` or ``bytes`` copy.

    The real functions key a process-wide cache by the pattern (hashing and
    comparing it) and read a name through ``os.fspath``: a subclass, or an
    object with ``__fspath__``, would run the program's code there. A copy of
    the text alone runs none.
    """
    if isinstance(value, str):
        return str.__str__(value)
    if isinstance(value, bytes):
        return b"".join((value,))
    raise TypeError(f"expected str or bytes, not {type(value).__name__}")


def fnmatch(name: object, pat: object) -> bool:
    """``fnmatch.fnmatch`` over exact copies of the name and the pattern."""
    return _fnmatch.fnmatch(_shell_text(name), _shell_text(pat))


def fnmatchcase(name: object, pat: object) -> bool:
    """``fnmatch.fnmatchcase`` over exact copies of the name and the pattern."""
    return _fnmatch.fnmatchcase(_shell_text(name), _shell_text(pat))


def fnmatch_filter(names: Iterable[object], pat: object) -> list[Any]:
    """``fnmatch.filter``: the names (as exact copies) that match the pattern."""
    return _fnmatch.filter([_shell_text(name) for name in names], _shell_text(pat))


def translate(pat: object) -> str:
    """``fnmatch.translate`` of an exact copy of the pattern: the regular expression's text."""
    if not isinstance(pat, str):
        raise TypeError(f"expected str, not {type(pat).__name__}")
    return _fnmatch.translate(str.__str__(pat))


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


class _TemplateView(string.Template):
    """What the library's substitution runs on: the values read once from the program's template."""


def _pattern_checked(substitute: Callable[..., str]) -> Callable[..., str]:
    """``Template.substitute`` or ``safe_substitute``, run on values read once and checked.

    The library's code calls ``self.pattern.sub(convert, self.template)``: with
    a program object as ``pattern`` - set by a write, a dataclass's generated
    ``__init__``, a class attribute, a property of a base - that object's
    ``sub`` would be handed the library's own ``convert`` closure, raw. So the
    pattern is read once, must be a compiled pattern (``re.Pattern``, whose
    ``sub`` is C), and the library's code runs on a view holding what was read.
    """

    def checked(self: string.Template, /, *args: Any, **kwargs: Any) -> str:
        pattern = self.pattern
        if type(pattern) is not re.Pattern:
            raise TypeError(
                f"{type(self).__qualname__}.pattern must be a compiled regular expression "
                f"(re.Pattern), not {type(pattern).__qualname__}: set pattern in the class "
                "body as a string (Template compiles it), or to re.compile(...)"
            )
        view = object.__new__(_TemplateView)
        view.__dict__.update(
            pattern=pattern, template=self.template, delimiter=self.delimiter
        )
        return substitute(view, *args, **kwargs)

    checked.__name__ = substitute.__name__
    checked.__qualname__ = substitute.__qualname__
    checked.__doc__ = substitute.__doc__
    return checked


def check_template_pattern() -> None:
    """Make ``string.Template``'s substitution check the pattern it reads (the zygote, once).

    Changes the library class for the rest of the process: only in a process
    that runs programs and nothing else.
    """
    for name in ("substitute", "safe_substitute"):
        method = string.Template.__dict__[name]
        if method.__module__ == "string":  # not replaced already
            setattr(string.Template, name, _pattern_checked(method))
