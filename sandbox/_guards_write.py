"""The write guards: which objects a program may change, and which names it may write.

``_write_`` (every attribute or item write and delete the program makes),
``setattr``/``delattr`` and ``object.__setattr__`` as a program reads it, and
``SimpleNamespace``, whose keyword names are checked as writes are.
"""

from __future__ import annotations

import collections
import decimal
import types
from typing import TYPE_CHECKING, Any, Final

from ._attribute_names import BLOCKED_ATTRIBUTES
from ._guards_own import guarded_own, is_own_name, refuse_blocked, refuse_underscore, type_label
from ._program import is_program_class, is_program_function, is_recorded_program_class

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "NAMESPACES",
    "SimpleNamespace",
    "checked_namespace_init",
    "guarded_delattr",
    "guarded_setattr",
    "guarded_write",
    "object_setattr",
]


class SimpleNamespace(types.SimpleNamespace):
    """``types.SimpleNamespace`` whose keyword names are checked as attribute writes are.

    The names go into the instance's ``__dict__``, where library code reading a
    name by ``getattr`` finds them: ``SimpleNamespace(_asyncio_future_blocking=...)``
    answered asyncio's own question about an awaited object. The real class's
    constructor takes any name, so programs get this one (its ``mro()`` shows
    only itself); ``super().__init__`` over a namespace is checked the same way.
    """

    def __init__(self, /, **names: object) -> None:
        for name in names:
            _check_namespace_name(self, name)
        super().__init__(**names)

    def __repr__(self) -> str:
        # As the real class prints: ``namespace(a=1)``.
        text = types.SimpleNamespace.__repr__(self)
        return "namespace" + text.removeprefix(type(self).__name__)


SimpleNamespace.__module__ = "types"

#: The namespaces a program may hold: the façade, and the real class of one a
#: library made.
NAMESPACES: Final = (types.SimpleNamespace, SimpleNamespace)


def checked_namespace_init(init: Callable[..., Any], target: object) -> Callable[..., Any]:
    """``init``, a namespace's real constructor bound to ``target``, checking its names."""

    def __init__(**names: Any) -> Any:
        for name in names:
            _check_namespace_name(target, name)
        return init(**names)

    return __init__


def _check_namespace_name(target: object, name: str) -> None:
    if name[:1] == "_":
        shown = name if len(name) <= 40 else name[:40] + "..."
        raise TypeError(
            f'SimpleNamespace in run_code takes no names that start with "_" (got "{shown}"): '
            "library code reads such names from objects, so they are refused as attribute "
            f'writes are; keep such keys in a dict (record["{shown}"]) or rename them'
        )
    _check_write_name(target, name)


#: Types whose instances a program may change although it did not define them:
#: plain data containers, and decimal contexts (``getcontext().prec = 50``,
#: whose setters validate everything) with their ``traps`` and ``flags``
#: (``getcontext().traps[Inexact] = True``). A signal dict exists only inside a
#: context and changes only that context; every context a program reaches is its
#: own (the run's current one, made afresh in the run's own context variables,
#: or one it made), as the process-wide templates are withdrawn; and it could
#: already set the same traps with ``traps.update(...)`` or
#: ``setcontext(Context(traps=[...]))``. Its ``__setitem__`` takes only signal
#: classes as keys and refuses deleting one.
_SIGNAL_DICT: Final = type(decimal.Context().traps)
_WRITABLE_TYPES: Final = frozenset(
    {
        dict,
        list,
        set,
        bytearray,
        collections.defaultdict,
        collections.OrderedDict,
        collections.Counter,
        collections.deque,
        collections.ChainMap,
        decimal.Context,
        _SIGNAL_DICT,
        types.SimpleNamespace,  # a bag of attributes; the names are checked as for any write
        SimpleNamespace,
    }
)


#: Classes already known to be writable: the base types above, plus each
#: program class the first time it is written to (a class's ``__module__``
#: cannot change later: the program cannot write ``_`` names).
_known_writable: set[type] = set(_WRITABLE_TYPES)


def guarded_write(obj: Any) -> Any:
    """The ``_write_`` guard: return ``obj`` if the program may change it, else refuse."""
    if type(obj) in _known_writable:
        return obj
    return _checked_write(obj)


def _checked_write(obj: Any) -> Any:
    cls = type(obj)
    if is_program_class(cls):
        if is_recorded_program_class(cls):
            # Cached only for good: an enum class counts as the program's while
            # a class is being made, which may end without it ever being recorded.
            _known_writable.add(cls)
        return obj
    if is_program_class(obj) or isinstance(obj, dict | list | collections.deque):
        return obj
    if is_program_function(obj):
        # A library that wraps the function copies its __dict__ onto the wrapper
        # (functools.update_wrapper): its attributes are not the program's alone.
        raise TypeError(
            "cannot set an attribute on a function in run_code, not even the program's own; "
            "keep such state in a dict, an instance of a class of the program's, or a "
            "`nonlocal` variable"
        )
    raise TypeError(
        f"cannot change a {type_label(obj)} object: a program may only change objects it "
        "created (instances of its own classes, its classes, dicts, lists, sets)"
    )


def _check_write_name(obj: object, name: object) -> str:
    if type(name) is not str:
        raise TypeError(f"attribute name must be a str, not {type(name).__name__}")
    if name[:1] == "_":
        if not is_own_name(name):
            refuse_underscore(name)
        guarded_own(obj, name, write=True)
    if name in BLOCKED_ATTRIBUTES or name.endswith("__roles__"):
        refuse_blocked(name)
    return name


def guarded_setattr(obj: object, name: str, value: object) -> None:
    """``setattr`` for restricted code."""
    setattr(guarded_write(obj), _check_write_name(obj, name), value)


def object_setattr(obj: object, name: str, value: object, /) -> None:
    """``object.__setattr__`` as a program reads it: a write to an object it may change.

    A frozen dataclass's ``__post_init__`` calls it to set a field that the
    class's generated ``__setattr__`` refuses to set. The object and the name
    pass the checks of ``setattr(obj, name, value)`` (``guarded_write``, and the
    name as any write's); what it skips is only the class's own ``__setattr__``,
    and no class a program's object can be an instance of has one that guards
    anything: a program class defines none (the compiler refuses it), no inert
    base does, and the façades' read-only classes are not the program's, so the
    write guard refuses their objects first. On a class, as in Python, the
    interpreter refuses it (``type`` has its own ``__setattr__``).
    """
    object.__setattr__(guarded_write(obj), _check_write_name(obj, name), value)


object_setattr.__name__ = "__setattr__"
object_setattr.__qualname__ = "object.__setattr__"


def guarded_delattr(obj: object, name: str) -> None:
    """``delattr`` for restricted code."""
    delattr(guarded_write(obj), _check_write_name(obj, name))
