"""The ``contextlib`` replacements: what they call on the program's objects goes through the guards.

``contextlib``'s managers call methods natively on whatever they hold. Python
3.11's ``contextmanager`` throws ``(type, value, traceback)`` into the
program's generator, which hands all three to a ``throw`` a program class
defines if the generator is paused in ``yield from``; ``closing`` and
``aclosing`` call ``close``/``aclose`` natively on any object, a coroutine a
task is running among them (rule 5); ``ExitStack`` calls a callback pushed on
it with the real class and value of what was raised, past the check a ``with``
statement makes for a program's ``__exit__`` (rule 8). The versions here throw
the exception alone, call the methods the guard hands out, and hand every
callback only what the program may hold.

They are separate from the ``copy`` and ``dataclasses`` replacements
(``sandbox._facades_data``) and the ``functools`` decorators
(``sandbox._facades_decorators``, whose check that a function is the program's
they use): none of them calls into this module. A program sees these classes as
it saw them in ``sandbox._facades_data``: ``repr`` shows ``contextlib``'s names
for the ones the real module has, and that module's for the rest.
"""

from __future__ import annotations

import contextlib
import functools
from typing import TYPE_CHECKING, Any, TypeVar

from ._facades_decorators import _require_program_function
from ._guards import guarded_getattr
from ._shield import exit_details

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "AsyncClosing",
    "AsyncExitStack",
    "Closing",
    "ExitStack",
    "safe_asynccontextmanager",
    "safe_contextmanager",
]

_T = TypeVar("_T")


class _ThrowsValues:
    """A program's generator as ``contextmanager`` drives it, thrown into with the exception alone.

    Python 3.11's ``contextmanager`` throws ``(type, value, traceback)`` into
    the generator, and a generator paused in ``yield from x`` hands all three to
    ``x.throw``, a method a program class may define: the real traceback. Here
    only the exception goes in, as Python 3.12 throws it.

    The generator is whatever the decorated function returned (or the function
    ``type(managed())`` was called with): any object. So ``send``, ``throw``
    and ``close`` reach it as the guard hands them to the program, never
    natively: a coroutine a task is running is neither thrown into nor closed
    under its task (rule 5).
    """

    __slots__ = ("_generator",)

    def __init__(self, generator: Any) -> None:
        self._generator = generator

    def __iter__(self) -> _ThrowsValues:
        return self

    def __next__(self) -> Any:
        return next(self._generator)

    def send(self, value: object) -> Any:
        return guarded_getattr(self._generator, "send")(value)

    def throw(self, kind: Any, value: object = None, traceback: object = None) -> Any:
        return guarded_getattr(self._generator, "throw")(kind if value is None else value)

    def close(self) -> None:
        guarded_getattr(self._generator, "close")()


class _AsyncThrowsValues:
    """:class:`_ThrowsValues` for ``asynccontextmanager``'s async generators (``asend``,
    ``athrow`` and ``aclose`` as the guard hands them out)."""

    __slots__ = ("_generator",)

    def __init__(self, generator: Any) -> None:
        self._generator = generator

    def __aiter__(self) -> _AsyncThrowsValues:
        return self

    def __anext__(self) -> Any:
        # Through the type's slot, as the program's own anext() or async for
        # reads it: never an attribute of whatever the function returned.
        return anext(self._generator)

    def asend(self, value: object) -> Any:
        return guarded_getattr(self._generator, "asend")(value)

    def athrow(self, kind: Any, value: object = None, traceback: object = None) -> Any:
        return guarded_getattr(self._generator, "athrow")(kind if value is None else value)

    def aclose(self) -> Any:
        return guarded_getattr(self._generator, "aclose")()


class _GeneratorContextManager(contextlib._GeneratorContextManager):  # type: ignore[type-arg]
    """What ``contextmanager`` makes: its generator is thrown the exception alone.

    Wrapped here, in the class, not in the factory: ``type(managed())`` hands
    the class to the program, which may call it with any callable.
    """

    def __init__(self, func: Any, args: Any, kwds: Any) -> None:
        super().__init__(func, args, kwds)
        self.gen = _ThrowsValues(self.gen)


class _AsyncGeneratorContextManager(
    contextlib._AsyncGeneratorContextManager  # type: ignore[type-arg]
):
    """What ``asynccontextmanager`` makes: its generator is thrown the exception alone."""

    def __init__(self, func: Any, args: Any, kwds: Any) -> None:
        super().__init__(func, args, kwds)
        self.gen = _AsyncThrowsValues(self.gen)


class Closing(contextlib.closing):  # type: ignore[type-arg]
    """``contextlib.closing``: the ``close`` it calls on exit is the one the guard hands out.

    The real one calls ``thing.close()`` natively on whatever it was given: a
    coroutine a task is running, closed under its task (rule 5).
    """

    thing: Any

    def __exit__(self, *exc_info: object) -> None:
        guarded_getattr(self.thing, "close")()


class AsyncClosing(contextlib.aclosing):  # type: ignore[type-arg]
    """``contextlib.aclosing``: the ``aclose`` it awaits on exit is the one the guard hands out."""

    thing: Any

    async def __aexit__(self, *exc_info: object) -> None:
        await guarded_getattr(self.thing, "aclose")()


Closing.__name__ = Closing.__qualname__ = "closing"
AsyncClosing.__name__ = AsyncClosing.__qualname__ = "aclosing"

for _made in (_GeneratorContextManager, _AsyncGeneratorContextManager, Closing, AsyncClosing):
    _made.__module__ = "contextlib"


def safe_contextmanager(function: _T) -> _T:
    """``contextlib.contextmanager`` for the program's own generator functions."""
    _require_program_function(function, "contextmanager()")

    @functools.wraps(function)  # type: ignore[arg-type]
    def helper(*args: Any, **kwargs: Any) -> Any:
        return _GeneratorContextManager(function, args, kwargs)

    return helper  # type: ignore[return-value]


def safe_asynccontextmanager(function: _T) -> _T:
    """``contextlib.asynccontextmanager`` for the program's own async generator functions."""
    _require_program_function(function, "asynccontextmanager()")

    @functools.wraps(function)  # type: ignore[arg-type]
    def helper(*args: Any, **kwargs: Any) -> Any:
        return _AsyncGeneratorContextManager(function, args, kwargs)

    return helper  # type: ignore[return-value]


def _checked_exit(callback: Callable[..., Any]) -> Callable[..., Any]:
    """``callback``, an exit pushed on an exit stack, given only what the program may hold."""

    def exit_(*details: object) -> Any:
        return callback(*exit_details("an exit stack's callback", details))

    return exit_


def _checked_async_exit(callback: Callable[..., Any]) -> Callable[..., Any]:
    """The coroutine-function form of :func:`_checked_exit` (``push_async_exit``)."""

    async def exit_(*details: object) -> Any:
        return await callback(*exit_details("an exit stack's callback", details))

    return exit_


class ExitStack(contextlib.ExitStack):
    """``contextlib.ExitStack``, whose callbacks are handed exceptions as ``__exit__`` is.

    ``push(fn)`` of a plain function has the stack call it with the real
    class and value of what was raised, past the check a ``with`` statement
    makes for a program's ``__exit__``; every callback goes through that check
    here (``sandbox._shield.exit_details``). Programs cannot derive
    from it, so no program method stands in for the one funnel.
    """

    def _push_exit_callback(self, callback: Callable[..., Any], is_sync: bool = True) -> None:
        super()._push_exit_callback(_checked_exit(callback), is_sync)  # type: ignore[misc]


class AsyncExitStack(contextlib.AsyncExitStack):
    """``contextlib.AsyncExitStack`` with its callbacks checked as :class:`ExitStack`'s are."""

    def _push_exit_callback(self, callback: Callable[..., Any], is_sync: bool = True) -> None:
        checked = _checked_exit(callback) if is_sync else _checked_async_exit(callback)
        super()._push_exit_callback(checked, is_sync)  # type: ignore[misc]


# What a program prints for them is what a script prints: contextlib's classes.
for _stack in (ExitStack, AsyncExitStack):
    _stack.__module__ = "contextlib"
