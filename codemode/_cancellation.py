"""Telling a real cancellation from a ``CancelledError`` that foreign code raised.

A tool body, a listener or a job may raise ``asyncio.CancelledError`` without
anyone cancelling the task that awaits it: it awaited a future or task that
something else cancelled (a shared in-flight request, a background task), or
it raised one itself. Judged by its type, such an exception would be taken
for a cancellation of the call and propagated, and the call would never get
its outcome: no settle event in the log, a program waiting for a reply until
its wall clock. So a cancellation is recognised by the state of the running
task, not by the exception's type: only while the task has a cancellation
request pending (``Task.cancelling()``, which anyio's cancel scopes also raise)
is a ``CancelledError`` the task's own. Anything else is the raiser's failure.

That state is not the host's alone: foreign code running in the host's task
can request (``current_task().cancel()``) or withdraw (``uncancel()``) a
cancellation of it. So where the host knows what it asked for, it says so
(``asked``): the pipeline asks its stage's cancel scope (``cancel_called``),
the scheduler its own flag; the task's state is the fallback. And a request a
tool body made on the host's task is withdrawn when the body returns
(:func:`withdraw_self_cancel`), so that it cannot land in the host's code.

Classifying runs inside ``except BaseException`` handlers, on exceptions
foreign code made: it must run no foreign code and never raise. The real type
is used (``type(exc)``, never ``isinstance``, which consults a foreign
``__class__``), a group's members are read through ``BaseExceptionGroup``'s
own descriptor, iteratively and within a bound, and any error inside means
"not a cancellation".
"""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING, Final

import anyio

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "being_cancelled",
    "cancel_requests",
    "is_cancellation",
    "scope_cancelled",
    "split_cancellation",
    "withdraw_self_cancel",
]

#: How many exceptions of a group (at any depth) are looked at, at most.
_MAX_MEMBERS: Final = 10_000

_members_of: Final = BaseExceptionGroup.__dict__["exceptions"].__get__


def cancel_requests() -> int:
    """The running task's pending cancellation requests (``cancelling()``; 0 outside a task)."""
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no asyncio loop in this thread
        return 0
    return 0 if task is None else task.cancelling()


def being_cancelled() -> bool:
    """Whether the running task has a cancellation request pending.

    True, to be safe, where that cannot be told: outside an asyncio task
    (under trio, whose ``Cancelled`` only a real cancellation raises).
    """
    try:
        task = asyncio.current_task()
    except RuntimeError:  # no asyncio loop in this thread
        return True
    return task is None or task.cancelling() > 0


def scope_cancelled() -> bool:
    """Whether an anyio cancel scope around the running code (up to a shield) was cancelled.

    The cancel scopes the host runs foreign code in (a stage's stop scope, a
    signal's scope) and those foreign code opens around what it calls (a
    wrapper's timeout) are told apart from a bare ``task.cancel()``: only a
    cancelled scope's ``CancelledError`` has a scope waiting to catch it.
    """
    try:
        return anyio.current_effective_deadline() == -math.inf
    except Exception:
        return being_cancelled()


def _leaves(exc: BaseException) -> list[BaseException] | None:
    """The non-group exceptions in ``exc`` (itself, or a group's members at any depth).

    ``None`` when they cannot be read within the bound, or reading them failed.
    Runs no foreign code: real types only, and the base class's descriptor.
    """
    try:
        leaves: list[BaseException] = []
        stack: list[BaseException] = [exc]
        seen = 0
        while stack:
            item = stack.pop()
            seen += 1
            if seen > _MAX_MEMBERS:
                return None
            if issubclass(type(item), BaseExceptionGroup):
                members = _members_of(item)
                if type(members) is not tuple:
                    return None
                stack.extend(reversed(members))
            else:
                leaves.append(item)
        return leaves
    except Exception:
        return None


def _is_cancelled_exc(item: BaseException, cancelled: type[BaseException]) -> bool:
    try:
        return issubclass(type(item), cancelled)
    except Exception:  # a metaclass's __subclasscheck__ is not consulted, but be total
        return False


def split_cancellation(
    exc: BaseException, asked: Callable[[], bool] | None = None
) -> tuple[BaseException | None, BaseException | None]:
    """``(cancellation, failure)``: what of ``exc`` must propagate, and what is a failure.

    ``cancellation`` is ``None`` unless ``exc`` is, or carries, a cancellation
    of the running task (the host ``asked()`` for one; without ``asked``,
    the task has a request pending: :func:`being_cancelled`); then it is
    ``exc`` itself when that is all it holds, else the first cancellation
    among a group's members (so that the cancel scope that asked for it
    recognises it). ``failure`` is ``exc`` when it is
    not a cancellation; when a group mixes a cancellation with other
    exceptions, a new group of those others (the call's outcome). Never
    raises, and runs no foreign code.
    """
    try:
        cancelled = anyio.get_cancelled_exc_class()
        if asked is None:
            asked = being_cancelled
        if not issubclass(type(exc), BaseExceptionGroup):
            if _is_cancelled_exc(exc, cancelled) and asked():
                return exc, None
            return None, exc
        leaves = _leaves(exc)
        if leaves is None:
            return None, exc
        cancels = [item for item in leaves if _is_cancelled_exc(item, cancelled)]
        if not cancels or not asked():
            return None, exc
        others = [item for item in leaves if not _is_cancelled_exc(item, cancelled)]
        if not others:
            return exc, None
        return cancels[0], BaseExceptionGroup("failures alongside a cancellation", others)
    except Exception:
        return None, exc


def is_cancellation(exc: BaseException, asked: Callable[[], bool] | None = None) -> bool:
    """Whether ``exc`` is (or carries) a cancellation of the running task, which must propagate.

    Everything else foreign code raises, ``SystemExit``, ``KeyboardInterrupt``,
    ``GeneratorExit`` and a ``CancelledError`` nobody delivered to this task
    included, is that code's own failure: under asyncio a real Ctrl-C cancels
    the main task rather than raising inside a tool, and a task's coroutine is
    never closed while it awaits (only an abandoned one is, at shutdown, where
    nothing waits for its result). Never raises, and runs no foreign code.
    """
    return split_cancellation(exc, asked)[0] is not None


async def withdraw_self_cancel(before: int, asked: Callable[[], bool]) -> None:
    """Withdraw the cancellation requests foreign code made on the running task.

    ``before`` is the task's ``cancelling()`` before the foreign code ran; a
    higher count now, when the host did not ask (``asked()``), is a request
    the code made itself (``current_task().cancel()``): it is withdrawn, and a
    ``CancelledError`` it left pending is taken here rather than at the
    host's next wait (where it would end a scheduler's worker). Only this
    rare case waits (one loop step); a caller on a hot path checks
    :func:`cancel_requests` against ``before`` first and awaits this only then.
    """
    try:
        task = asyncio.current_task()
    except RuntimeError:
        return
    if task is None or task.cancelling() <= before or asked():
        return
    while task.cancelling() > before:
        task.uncancel()
    try:
        await asyncio.sleep(0)  # a pending CancelledError of the code's own, if any, lands here
    except asyncio.CancelledError:
        if asked():
            raise
        while task.cancelling() > before:
            task.uncancel()
