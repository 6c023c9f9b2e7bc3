"""What ``type()`` gives a program: never a metaclass, never a class that makes what it must not.

``type(x)`` of a class is :class:`SafeType`, which prints and compares like
``type`` and takes one argument only (three-argument ``type()`` would build a
class past every check). The interpreter's own classes (function, code,
frame, ...) and the runtime's classes of ``tools`` and its calls come as
stand-ins that answer ``isinstance`` and cannot be called; any other class is
swept before the program has it (rule 7). And ``classmethod`` binds as
Python 3.13's does.

This module runs in the child.
"""

from __future__ import annotations

import types
from typing import Any, Final

from bridge.proxy import TOOL_CLASSES

from ._library import reveal_class

__all__ = ["SafeClassMethod", "SafeType", "class_of"]


class _SafeTypeMeta(type):
    """Metaclass of :class:`SafeType`: makes ``type(x)`` and ``isinstance(c, type)`` work."""

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        if cls is not SafeType:
            return super().__call__(*args, **kwargs)
        if len(args) != 1 or kwargs:
            raise TypeError(
                "type() takes exactly one argument in run_code: type(x) returns the class of x; "
                "define classes with the class statement"
            )
        return class_of(args[0])

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, type) if cls is SafeType else super().__instancecheck__(obj)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, type) if cls is SafeType else super().__subclasscheck__(sub)

    def __repr__(cls) -> str:
        return "<class 'type'>" if cls is SafeType else super().__repr__()


class SafeType(metaclass=_SafeTypeMeta):
    """The ``type`` builtin of restricted code: ``type(x)`` only.

    The three-argument form builds a class from a dict, bypassing every check
    the transformer makes on class bodies, so it is refused. The class of a
    class (a metaclass such as the real ``type``, which has that form) is
    never handed out: ``type(SomeClass)`` and ``SomeClass.__class__`` give
    this class instead, which compares and prints like ``type``.
    """

    __slots__ = ()

    def __class_getitem__(cls, item: Any) -> types.GenericAlias:
        return types.GenericAlias(cls, item)


SafeType.__name__ = SafeType.__qualname__ = "type"
SafeType.__module__ = "builtins"


class SafeClassMethod(classmethod):  # type: ignore[type-arg]
    """``classmethod`` as Python 3.13 has it: it binds what it wraps to the class, always.

    Python 3.11's passes the class to a wrapped descriptor's ``__get__`` as its
    instance: ``classmethod(functools.cached_property(f))`` read the class's
    own namespace (a namedtuple's raw ``_replace``, an enum's redirecting
    property) past every guard. Here the wrapped callable is bound to the
    class as a method, whatever it is.
    """

    def __init__(self, function: Any, /) -> None:
        if not callable(function):
            raise TypeError(
                f"classmethod() in run_code wraps a function, not a {type(function).__name__} "
                "object; for a value computed from the class, write a @classmethod method and "
                "call it"
            )
        super().__init__(function)

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        return types.MethodType(self.__func__, type(instance) if owner is None else owner)


SafeClassMethod.__name__ = SafeClassMethod.__qualname__ = "classmethod"
SafeClassMethod.__module__ = "builtins"


class _StandInMeta(type):
    """Metaclass of the stand-ins for the interpreter's and the runtime's classes (`_STAND_INS`)."""

    _real: type
    _made_by: str

    def __call__(cls, *args: Any, **kwargs: Any) -> Any:
        raise TypeError(f"{cls.__name__}() cannot be called in run_code: {cls._made_by}")

    def __instancecheck__(cls, obj: object) -> bool:
        return isinstance(obj, cls._real)

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, cls._real)

    def __repr__(cls) -> str:
        return repr(cls._real)


def _stand_in(real: type, made_by: str) -> type:
    stand_in = _StandInMeta(real.__name__, (), {"__slots__": ()})
    stand_in._real = real
    stand_in._made_by = made_by
    stand_in.__module__ = "builtins"
    return stand_in


_BY_STATEMENTS: Final = (
    "objects of the interpreter's own classes (functions, code, frames, tracebacks, cells) "
    "come only from the program's own statements (def, lambda)"
)
_BY_THE_RUNTIME: Final = (
    "tools, tool stubs and tool calls are made by the runtime: call a tool as "
    "tools.name(...) or tools['name'](...)"
)


#: What ``type()`` gives for the interpreter's own classes: a stand-in that
#: prints, compares and answers ``isinstance`` as the class does, and cannot be
#: called. ``type(lambda: 0)`` was the real ``FunctionType``, which makes a
#: function of any code object: one barrier fewer between a program and
#: unguarded bytecode, should a code object ever reach it. The same for the
#: runtime's classes of ``tools`` and its calls: called with an object of the
#: program's, their methods would run the runtime's code on it (a guarantee
#: lives in the class ``type()`` reveals, not only in the factory).
_STAND_INS: Final[dict[type, type]] = {
    **{
        real: _stand_in(real, _BY_STATEMENTS)
        for real in (
            types.FunctionType, types.CodeType, types.FrameType, types.TracebackType,
            types.CellType, types.MethodType, types.GeneratorType, types.CoroutineType,
            types.AsyncGeneratorType, types.BuiltinFunctionType, types.MappingProxyType,
        )
    },
    **{real: _stand_in(real, _BY_THE_RUNTIME) for real in TOOL_CLASSES},
}  # fmt: skip


def class_of(obj: object) -> type:
    """``type(obj)``, with metaclasses replaced by :class:`SafeType`.

    The interpreter's own classes are replaced by stand-ins (:data:`_STAND_INS`),
    and a library class it reveals has its methods made to check their self
    first (:func:`reveal_class`): read from the class, they would run with any
    self.
    """
    cls = type(obj)
    if issubclass(cls, type):
        return SafeType
    stand_in = _STAND_INS.get(cls)
    if stand_in is not None:
        return reveal_class(stand_in)
    return reveal_class(cls)
