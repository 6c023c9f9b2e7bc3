"""The decorators of ``functools``, ``abc`` and ``typing``: on the program's functions and classes.

``functools.wraps``/``update_wrapper`` read and write dunder attributes of
arbitrary objects, and ``update_wrapper`` (which ``cache`` and ``lru_cache``
run) copies the wrapped object's ``__dict__`` onto the wrapper: over a library
class, its methods, the real ``str.format`` among them. ``functools.total_ordering``,
``abc.abstractmethod`` and ``typing.final`` set attributes on whatever they are
given, and ``functools.partialmethod`` calls ``__get__`` natively on any
descriptor. The versions here act on the program's own functions and classes
(copying only reviewed names, as exact strings) and refuse the rest with a
message that says so; ``final`` hands anything else back unmarked.

The checks that a function or class is the program's (``_require_program_function``,
``_require_program_class``) are here, and the ``dataclasses`` and ``contextlib``
replacements (``sandbox._facades_data``, ``sandbox._facades_contextlib``) take
them from here.
"""

from __future__ import annotations

import functools
import types
from typing import TYPE_CHECKING, Any, Final, TypeVar

from ._guards import add_keyword_holder, guarded_setattr
from ._library import result_checked
from ._program import is_program_class, is_program_function

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "SafePartialMethod",
    "safe_abstractmethod",
    "safe_cache",
    "safe_final",
    "safe_lru_cache",
    "safe_total_ordering",
    "safe_update_wrapper",
    "safe_wraps",
]

_T = TypeVar("_T")


def _require_program_class(cls: object, what: str) -> type:
    if not is_program_class(cls):
        raise TypeError(f"{what} can only be applied to a class defined by the program")
    return cls  # type: ignore[return-value]


def safe_total_ordering(cls: type) -> type:
    """``functools.total_ordering`` for the program's own classes."""
    return functools.total_ordering(_require_program_class(cls, "total_ordering()"))


def safe_final(target: _T) -> _T:
    """``typing.final``: marks the program's classes and functions, returns anything else as is.

    The real one sets ``__final__`` on whatever it is given, library classes
    included: a write past the write guard.
    """
    if is_program_class(target) or is_program_function(target):
        target.__final__ = True  # type: ignore[attr-defined]
    return target


def safe_abstractmethod(function: _T) -> _T:
    """``abc.abstractmethod`` for the program's own functions (it sets a flag on them)."""
    _require_program_function(function, "abstractmethod()")
    function.__isabstractmethod__ = True  # type: ignore[attr-defined]
    return function


def _require_program_function(function: object, what: str) -> None:
    if not is_program_function(function):
        raise TypeError(f"{what} can only decorate a function defined by the program")


def _program_function_only(decorator: Callable[..., Any], what: str) -> Callable[..., Any]:
    """``decorator`` for the program's own functions: it copies the function's ``__dict__``.

    ``functools.update_wrapper`` (which caches and context-manager decorators
    run) copies the wrapped object's ``__dict__`` onto the wrapper: over a
    library class, its methods - the real ``str.format`` among them.
    """

    def apply(function: Any) -> Any:
        _require_program_function(function, what)
        return decorator(function)

    return apply


def _cached(decorator: Callable[..., Any], what: str) -> Callable[..., Any]:
    """A caching ``decorator`` for the program's own functions, its wrapper's lambda checked.

    ``lru_cache`` keeps a lambda of its own on the wrapper (``cache_parameters``):
    a library function reaches the program only in checked form (rule 9).
    """

    def apply(function: Any) -> Any:
        wrapper = _program_function_only(decorator, what)(function)
        wrapper.cache_parameters = result_checked(
            wrapper.cache_parameters, "functools cache_parameters"
        )
        return wrapper

    return apply


def safe_cache(function: _T) -> _T:
    """``functools.cache`` for the program's own functions."""
    return _cached(functools.cache, "cache()")(function)  # type: ignore[no-any-return]


def safe_lru_cache(maxsize: Any = 128, typed: bool = False) -> Any:
    """``functools.lru_cache`` for the program's own functions (``@lru_cache`` or with options)."""
    if callable(maxsize) and not isinstance(maxsize, bool | int):
        return _cached(functools.lru_cache, "lru_cache()")(maxsize)
    return _cached(functools.lru_cache(maxsize, typed), "lru_cache()")


#: What ``wraps`` and ``update_wrapper`` copy: the name and the docstring.
_WRAPPER_NAMES: Final = ("__name__", "__qualname__", "__doc__")


def _copy_names(wrapper: object, wrapped: object, names: tuple[str, ...] = _WRAPPER_NAMES) -> None:
    """Copy the name and docstring of ``wrapped`` onto ``wrapper``, a program function or object.

    Only these reviewed dunders (which a program reads as they are) and only
    exact strings (or a ``None`` docstring): what a program could write itself
    if it could write dunders.
    """
    for attr in names:
        if attr in _WRAPPER_NAMES:
            value = getattr(wrapped, attr, None)
            if type(value) is str or (attr == "__doc__" and value is None):
                setattr(wrapper, attr, value)


def safe_wraps(wrapped: object) -> Callable[[_T], _T]:
    """``functools.wraps``: copy the name and docstring of ``wrapped`` onto a program function."""

    def decorate(wrapper: _T) -> _T:
        _require_program_function(wrapper, "wraps()")
        _copy_names(wrapper, wrapped)
        return wrapper

    return decorate


def _wrapper_parts(value: object, allowed: tuple[str, ...], what: str) -> tuple[str, ...]:
    """``assigned``/``updated`` of ``update_wrapper``, copied: exact names functools itself uses."""
    names = tuple(value) if isinstance(value, tuple | list) else None
    if names is None or not all(type(name) is str and name in allowed for name in names):
        raise TypeError(
            f"update_wrapper() in run_code takes {what} as a tuple of some of {allowed!r}"
        )
    return names


def safe_update_wrapper(
    wrapper: _T,
    wrapped: object,
    assigned: object = functools.WRAPPER_ASSIGNMENTS,
    updated: object = functools.WRAPPER_UPDATES,
) -> _T:
    """``functools.update_wrapper`` onto a program function or an instance of a program class.

    The real one sets ``__module__``, ``__name__``, ``__qualname__``, ``__doc__``,
    ``__annotations__`` and ``__wrapped__`` on any object, and copies the
    wrapped object's ``__dict__`` onto it: over a library class, its methods
    (the real ``str.format`` among them), raw. Here, as ``wraps`` does, the
    name and docstring are copied (exact strings), onto the program's own
    function or object only; ``__module__`` (the program's own anyway),
    ``__annotations__`` and ``__wrapped__`` (a reference the program keeps
    itself) are not set; and the ``__dict__`` update copies only the
    attributes of a program object (class-based decorators stacked), each set
    through the write guard, as ``setattr`` sets it.
    """
    names = _wrapper_parts(assigned, functools.WRAPPER_ASSIGNMENTS, "assigned")
    parts = _wrapper_parts(updated, functools.WRAPPER_UPDATES, "updated")
    if not (
        is_program_function(wrapper)
        or (is_program_class(type(wrapper)) and not isinstance(wrapper, type))
    ):
        raise TypeError(
            "update_wrapper() in run_code updates a function the program defines or an "
            "instance of one of its classes (`functools.update_wrapper(self, fn)` in a "
            "class-based decorator's __init__)"
        )
    _copy_names(wrapper, wrapped, names)
    if "__dict__" in parts and is_program_class(type(wrapped)) and not isinstance(wrapped, type):
        for key, value in list(vars(wrapped).items()):
            if type(key) is str and not (key[:2] == "__" and key[-2:] == "__"):
                guarded_setattr(wrapper, key, value)
    return wrapper


class SafePartialMethod:
    """``functools.partialmethod`` over a function the program defines.

    The real one calls ``func.__get__(obj, cls)`` natively on whatever ``func``
    is - any descriptor the program holds, a library's included - and hands
    out ``functools``' own ``_method`` function raw. This one takes the
    program's own functions (and its own partial methods, flattened as the
    real one flattens them): read from an instance it is a ``functools.partial``
    of the bound method, from the class a plain function, as in Python.
    """

    __slots__ = ("args", "func", "keywords")

    func: Callable[..., Any]
    args: tuple[Any, ...]
    keywords: dict[str, Any]

    def __init__(self, func: object, /, *args: Any, **keywords: Any) -> None:
        if type(self) is not SafePartialMethod:
            raise TypeError("partialmethod objects are made by functools.partialmethod")
        if type(func) is SafePartialMethod:
            args = func.args + args
            keywords = {**func.keywords, **keywords}
            func = func.func
        elif not is_program_function(func):
            raise TypeError(
                "partialmethod() in run_code takes a function the program defines (a def in "
                "the class body); for another callable write the method: "
                "`def double(self): return self.scale(2)`"
            )
        self.func = func  # type: ignore[assignment]
        self.args = args
        self.keywords = keywords

    def __get__(self, obj: object, cls: type | None = None) -> Any:
        if obj is None:
            return self._unbound()
        bound = types.MethodType(self.func, obj)
        result = functools.partial(bound, *self.args, **self.keywords)
        result.__self__ = obj  # type: ignore[attr-defined]  # as the real one sets it
        return result

    def _unbound(self) -> Callable[..., Any]:
        func, args, keywords = self.func, self.args, self.keywords

        def method(cls_or_self: object, /, *more: Any, **given: Any) -> Any:
            return func(cls_or_self, *args, *more, **{**keywords, **given})

        # Named as the real one's is.
        method.__name__ = "_method"
        method.__qualname__ = "partialmethod._make_unbound_method.<locals>._method"
        return method

    @property
    def __isabstractmethod__(self) -> bool:
        return getattr(self.func, "__isabstractmethod__", False) is True

    def __repr__(self) -> str:
        args = ", ".join(map(repr, self.args))
        keywords = ", ".join(f"{key}={value!r}" for key, value in self.keywords.items())
        return f"functools.partialmethod({self.func!r}, {args}, {keywords})"

    def __setattr__(self, name: str, value: object) -> None:
        if name in SafePartialMethod.__slots__ and not hasattr(self, name):
            object.__setattr__(self, name, value)  # set once, by __init__
            return
        raise AttributeError("partialmethod objects are read-only")


SafePartialMethod.__name__ = SafePartialMethod.__qualname__ = "partialmethod"
SafePartialMethod.__module__ = "functools"
add_keyword_holder(SafePartialMethod)
