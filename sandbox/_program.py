"""Which classes are the program's, and which classes it may hold.

The record every rule of the language layer reads: the classes the program
made (recorded only once checked, by ``sandbox._classes``), the classes the
builtins and façades hand out, the ones ``type()`` revealed, and from these
:func:`hidden_class`: a class no program may hold. Decided from records and
the interpreter's own slots, never from a name such as ``__module__`` that
library code can be asked to set.

This module runs in the child.
"""

from __future__ import annotations

import asyncio
import selectors
import types
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "HIDDEN_OBJECTS",
    "LOOP_OBJECTS",
    "MODEL_MODULE",
    "PROGRAM_CLASS_MODULE",
    "VISIBLE_CLASSES",
    "adopting_base",
    "carry_own_special_methods",
    "classes_being_made",
    "hidden_class",
    "is_program_class",
    "is_program_function",
    "is_recorded_program_class",
    "own_special_method",
    "ran_by_a_task",
    "real_mro",
    "record_own_special_methods",
    "record_program_class",
    "revealed",
]


#: The ``__name__`` of a program's globals, hence the ``__module__`` of every
#: class it defines. Only a label: which classes are the program's is decided
#: by the record below, never by this name.
MODEL_MODULE: Final = "<model>"

#: The ``__module__`` of every class the program makes (by a class statement
#: or a façade's factory), as a script's classes are in ``__main__``: ``str(Point)``
#: is ``<class '__main__.Point'>`` and a generic alias ``__main__.Cache[str, int]``.
#: Only a label too: in a child, ``sys.modules`` holds the program-module
#: stand-in under this name as under :data:`MODEL_MODULE` (never the process's
#: own ``__main__``), so what ``dataclasses`` looks up by a class's module is the
#: same either way.
PROGRAM_CLASS_MODULE: Final = "__main__"

#: Every class the program created. One run per process, so nothing is ever
#: removed; a strong set keeps membership tests as cheap as a dict lookup.
_program_classes: set[type] = set()


def record_program_class(cls: type) -> None:
    """Record ``cls``, checked, as the program's (``sandbox._classes`` does, last)."""
    _program_classes.add(cls)


#: Façade classes whose every subclass is the program's, even while its
#: metaclass is still making it: enum's makes the members - and runs the
#: program's ``__init__`` on them - before the class statement returns the
#: class to ``sandbox._classes.build_class``. No library subclasses a façade class.
_ADOPTING: set[type] = set()


#: How many class statements (or functional enums) are being made right now.
#: While one is, a subclass of an adopting façade class counts as the
#: program's before it is registered: enum's metaclass runs the program's
#: ``__init__`` on the members while it makes the class. Outside, only a
#: registered class does, so a class whose making failed (a member's
#: ``__init__`` kept one member, a later one raised) is never the program's.
#: A list, so that other modules change it in place: a ``finally`` that only
#: stores an int cannot be cut short by the program's stack depth.
classes_being_made: list[int] = [0]


def is_program_class(cls: object) -> bool:
    """Whether ``cls`` is a class the program created (and that passed the checks)."""
    if not isinstance(cls, type):
        return False
    if cls in _program_classes:
        return True
    return (
        classes_being_made[0] > 0
        and bool(_ADOPTING)
        and cls not in _ADOPTING
        and any(base in _ADOPTING for base in cls.__mro__)
    )


def is_recorded_program_class(cls: object) -> bool:
    """Whether ``cls`` is in the program's record: its class for good."""
    return cls in _program_classes


#: Class -> the special methods its class statement defined with the program's
#: own functions, each as the class holds it (wrapped by the shield or the
#: exit check): by identity, so a method set on the class later - by
#: ``dataclass``, ``total_ordering`` or any library code - is not one of them.
_own_special_methods: dict[type, dict[str, object]] = {}


def record_own_special_methods(cls: type, methods: dict[str, object]) -> None:
    """Record ``methods``: the special methods ``cls``'s class statement defined.

    ``sandbox._classes`` records them as the class holds them, before the
    class is recorded as the program's (which the guard asks for too).
    """
    if methods:
        _own_special_methods[cls] = methods


def carry_own_special_methods(source: type, made: type) -> None:
    """Record for ``made`` the special methods of ``source`` it holds as they are.

    ``dataclass(slots=True)`` makes a new class of the decorated one's dict:
    the program's special methods are the same objects there.
    """
    own = _own_special_methods.get(source)
    if own:
        record_own_special_methods(
            made, {name: value for name, value in own.items() if vars(made).get(name) is value}
        )


def own_special_method(cls: type, name: str, value: object) -> bool:
    """Whether ``value``, ``name`` in ``cls``'s dict, is a special method the program wrote."""
    own = _own_special_methods.get(cls)
    return own is not None and own.get(name, _ABSENT) is value


_ABSENT: Final = object()


def ran_by_a_task(obj: object) -> bool:
    """Whether ``obj`` is a coroutine a task is running: one that is suspended.

    Stepping a coroutine by hand is refused, so a suspended one is a task's
    (or awaited by a coroutine a task runs). Only that task may step it again:
    closed, thrown into or started once more by anyone else, the task finds it
    ended or moved on (rule 5).
    """
    return type(obj) is types.CoroutineType and obj.cr_suspended


def is_program_function(function: object) -> bool:
    """Whether ``function`` is a plain function the program defined.

    Decided by its globals, which are the program's namespace (whose
    ``__name__`` a program cannot rebind), not by its code object: reading
    ``__code__`` is an event the child's tripwire ends a run on.
    """
    return (
        type(function) is types.FunctionType
        and function.__globals__.get("__name__") == MODEL_MODULE
    )


def adopting_base(cls: type) -> type:
    """Declare a façade class whose subclasses are the program's from their creation on."""
    _ADOPTING.add(cls)
    return cls


#: The classes the builtins and façades hand to programs (filled by
#: ``sandbox._builtins``); the guards read the same set.
VISIBLE_CLASSES: Final[set[type]] = set()


def hidden_class(value: object) -> bool:
    """Whether ``value`` is a class no program may hold: a metaclass, or one never exposed.

    The real ``type`` is the first of them (the builtins hand out a stand-in);
    library caches also hold classes of the runtime's own (``TracebackType``).
    A class ``type()`` has handed out is not hidden. Decided on ``type(value)``,
    which a program object cannot disguise.
    """
    return issubclass(type(value), type) and (
        issubclass(value, type)  # type: ignore[arg-type]
        or not (value in VISIBLE_CLASSES or value in revealed or is_program_class(value))
    )


#: The event loop's objects: a real future or task (the asyncio façade hands
#: out ``ProgramTask`` objects), a loop, a callback handle (``TimerHandle``
#: too) and the loop's selector, each a way to the loop's processes, sockets
#: and the frames of every task.
LOOP_OBJECTS: Final[tuple[type, ...]] = (
    asyncio.Future,
    getattr(asyncio.futures, "_PyFuture", asyncio.Future),
    asyncio.AbstractEventLoop,
    asyncio.Handle,
    selectors.BaseSelector,
)

#: The runtime's own objects, which no program ever holds: withheld as values,
#: not only as classes, at both doors from library code to the program (rule 8's
#: shield, and rule 9's check of what crosses: ``sandbox._library.handed_out``):
#: a class's namespace (a mapping proxy), the interpreter's objects that lead to
#: its frames and code, and the event loop's.
HIDDEN_OBJECTS: Final[tuple[type, ...]] = (
    types.MappingProxyType,
    types.TracebackType,
    types.FrameType,
    types.CodeType,
    *LOOP_OBJECTS,
)

#: A class's MRO as the interpreter keeps it, whatever its metaclass defines.
real_mro: Final[Callable[[type], tuple[type, ...]]] = type.__dict__["__mro__"].__get__

#: Classes handed to the program by ``type()`` or with an object of theirs
#: (``sandbox._library.reveal_class`` adds them): the program holds them.
revealed: set[type] = set()
