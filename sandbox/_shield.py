"""The shield: no operand a library holds reaches the program's special methods (rule 8).

Native and library code evaluates comparisons and operators with operands of
its own (a dict's keys, a cache's tuples of classes, a typing alias's origin).
Every such special method a program class has is entered through
:func:`shielded`, which looks inside its arguments for a class the program may
not hold; a context manager's exit gets only classes it may hold
(:func:`exit_details`).

This module runs in the child.
"""

from __future__ import annotations

import types
from typing import TYPE_CHECKING, Any, Final

from ._library import CONTAINER_TYPES, handed_out, items_reader, reveal_class
from ._program import HIDDEN_OBJECTS, hidden_class

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = [
    "CALLBACK_METHODS",
    "EXIT_METHODS",
    "NO_OPERAND_METHODS",
    "OPERATOR_METHODS",
    "SHIELDED_METHODS",
    "SHIELD_LIMIT",
    "exit_details",
    "holds_hidden_class",
    "revealing_exit",
    "shielded",
]


#: Special methods that native and library code call with operands of its own:
#: comparisons (a dict or cache lookup compares a program key with the keys it
#: holds, ``typing``'s aliases compare their origins), the binary operators and
#: their reflections, which answer ``NotImplemented`` to an operand they do not
#: take; and item access, ``__missing__`` (dict's own lookup with the key it was
#: given) and ``__round__``, which refuse it. See :func:`shielded`; the
#: context-manager exits are checked by :func:`exit_details` instead.
OPERATOR_METHODS: Final = frozenset(
    {f"__{op}__" for op in ("eq", "ne", "lt", "le", "gt", "ge")}
    | {
        f"__{prefix}{op}__"
        for op in (
            "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod", "pow",
            "lshift", "rshift", "and", "xor", "or",
        )
        for prefix in ("", "r", "i")
    }
)
SHIELDED_METHODS: Final = OPERATOR_METHODS | frozenset(
    {
        "__contains__", "__getitem__", "__setitem__", "__delitem__", "__missing__", "__round__",
        "__format__",
    }
)
#: Special methods library code calls as it calls a function the program gives
#: it, with values it computes from what it was given, never with keys of its
#: own state: a constructor (``type(x)(...)``) and ``__call__`` (a callback;
#: a plain function in its place would get the same values). Not shielded: the
#: shield would cost every object the program makes a third of a microsecond.
CALLBACK_METHODS: Final = frozenset({"__init__", "__call__"})
#: The special methods a program may define that take no operand: nothing to shield.
NO_OPERAND_METHODS: Final = frozenset(
    {
        "__post_init__", "__repr__", "__str__", "__hash__", "__bool__", "__len__", "__iter__",
        "__reversed__", "__next__", "__aiter__", "__anext__", "__enter__", "__aenter__",
        "__await__", "__neg__", "__pos__", "__abs__", "__invert__", "__int__", "__float__",
        "__index__",
    }
)

def shielded(name: str, method: Any) -> Any:
    """``method``, a special method of a program class, never called with a hidden class.

    A comparison or operator a library evaluates with an operand of its own
    calls the program's method with it: a key the C dict compares while
    looking up a colliding program key, the origin of a typing alias (the real
    ``type`` for ``typing.Type``), a cache key that is a tuple of classes. Given
    an argument that is or holds a hidden class (:func:`holds_hidden_class`),
    the shield answers ``NotImplemented`` for an operator - Python then falls
    back as for any operand the method does not handle - and raises
    ``TypeError`` for any other method, without calling the program's code.
    """
    operator = name in OPERATOR_METHODS
    plain = type(method) is types.FunctionType
    binds = hasattr(type(method), "__get__")

    def refused(arg: object) -> bool:
        if holds_hidden_class(arg, name):
            if operator:
                return True
            raise TypeError(f"{name} of a program class got a class run_code hides")
        return False

    # Only a class or a container can be or hold a hidden class: one type test
    # per argument on the common path (these wrap the program's hottest methods).
    def special(self: object, /, *args: object) -> Any:
        for arg in args:
            if issubclass(type(arg), _CLASS_OR_CONTAINER) and refused(arg):
                return NotImplemented
        if plain:
            return method(self, *args)
        target = method.__get__(self, type(self)) if binds else method
        return target(*args)

    def special_with_keywords(self: object, /, *args: object, **keywords: object) -> Any:
        for arg in (*args, *keywords.values()):
            if issubclass(type(arg), _CLASS_OR_CONTAINER) and refused(arg):
                return NotImplemented
        if plain:
            return method(self, *args, **keywords)
        target = method.__get__(self, type(self)) if binds else method
        return target(*args, **keywords)

    return _named_like(special_with_keywords if name in _KEYWORD_METHODS else special, name, method)


#: The most values :func:`holds_hidden_class` looks at in one argument.
SHIELD_LIMIT: Final = 100_000
#: Containers whose items the shield looks at: those rule 9's check looks inside,
#: read with their base type's own methods (``items_reader``), so a program
#: subclass's ``__iter__`` never runs in the check.
_CONTAINERS: Final = CONTAINER_TYPES
#: What the shield refuses whatever it holds: the runtime's own objects, the
#: same set rule 9's check withholds (``HIDDEN_OBJECTS``). asyncio keeps what it
#: is given in sets and dicts (``as_completed``'s ``set(fs)``, ``gather``'s map of
#: awaitables to futures), so a program object whose hash a real task's shares
#: is compared with the task, and its ``__eq__`` would receive it.
_ALWAYS_HIDDEN: Final = HIDDEN_OBJECTS
#: What the shield looks at: classes, containers, and the always hidden.
_CLASS_OR_CONTAINER: Final = (type, *_ALWAYS_HIDDEN, *_CONTAINERS)
#: The shielded methods that may be called with keyword arguments.
_KEYWORD_METHODS: Final = frozenset({"__round__"})


def _native_items(container: object) -> Iterable[object]:
    reader = items_reader(type(container))
    return reader(container) if reader is not None else ()


def holds_hidden_class(value: object, where: str) -> bool:
    """Whether ``value`` is a hidden class, or holds one in a container, at any depth.

    typing's cache keys are tuples of classes, nested (``(Union, (TracebackType,
    NoneType))``). The containers are tuples, lists, dicts, sets, deques and
    dict views, exact or subclassed alike, read natively; a mapping proxy (a
    class's namespace), a traceback, frame or code object, and a real future,
    task, event loop, callback handle or selector count as hidden themselves
    (``HIDDEN_OBJECTS``). More than
    :data:`SHIELD_LIMIT` values are refused with a ``TypeError`` rather than
    handed over unchecked.
    """
    if issubclass(type(value), _ALWAYS_HIDDEN):
        return True
    if not issubclass(type(value), _CONTAINERS):
        return hidden_class(value)
    pending: list[object] = [value]
    seen: set[int] = set()
    looked_at = 0
    while pending:
        container = pending.pop()
        if id(container) in seen:
            continue
        seen.add(id(container))
        for item in _native_items(container):
            looked_at += 1
            if looked_at > SHIELD_LIMIT:
                raise TypeError(
                    f"{where} of a program class got an argument of more than {SHIELD_LIMIT} "
                    "values, too many to check before the program's code may see it"
                )
            if issubclass(type(item), _CONTAINERS):
                pending.append(item)
            elif hidden_class(item) or issubclass(type(item), _ALWAYS_HIDDEN):
                return True
    return False


def _named_like(special: Any, name: str, method: Any) -> Any:
    """``special``, a wrapper of the program's special method ``method``, under its names."""
    special.__name__ = name
    special.__qualname__ = getattr(method, "__qualname__", name)
    special.__doc__ = getattr(method, "__doc__", None)
    return special


#: The context-manager exits: the ``with`` statement hands them the class of the
#: exception it caught, computed natively, never through ``type()``.
EXIT_METHODS: Final = frozenset({"__exit__", "__aexit__"})


def exit_details(who: str, details: tuple[object, ...]) -> tuple[object, ...]:
    """What a ``with`` statement (or an exit stack) hands an exit, ``(type, value, tb)``, checked.

    The class is the real class of what library code raised: one no façade
    lists is swept, as ``type(error)`` would give it (rule 7), and a metaclass
    is refused; the exception goes through :func:`handed_out`. The traceback is
    handed on as ``None``: what the interpreter passes to a program's code is
    checked as what library code returns, and a traceback is the runtime's own
    object (its frames are the host's).
    """
    if details and hidden_class(details[0]):
        if issubclass(details[0], type):  # type: ignore[arg-type]
            raise TypeError(f"{who} got a class run_code hides")
        reveal_class(details[0])  # type: ignore[arg-type]
    if len(details) > 1 and issubclass(type(details[1]), BaseException):
        handed_out(details[1], who)
    if len(details) > 2:
        return (*details[:2], None, *details[3:])
    return details


def revealing_exit(name: str, method: Any) -> Any:
    """``method``, a program's ``__exit__`` or ``__aexit__``, given only classes it may hold.

    The exception class a ``with`` statement passes is the real class of what
    library code raised: one no façade lists reaches the program swept, as
    ``type(error)`` would give it (rule 7). A metaclass is refused.
    """
    binds = hasattr(type(method), "__get__")

    def special(self: object, /, *args: object) -> Any:
        args = exit_details(f"{name} of a program class", args)
        target = method.__get__(self, type(self)) if binds else method
        return target(*args)

    return _named_like(special, name, method)
