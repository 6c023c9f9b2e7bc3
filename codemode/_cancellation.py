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
"""

from __future__ import annotations

import asyncio

import anyio

__all__ = ["being_cancelled", "is_cancellation"]


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


def is_cancellation(exc: BaseException) -> bool:
    """Whether ``exc`` is (or carries) a cancellation of the running task, which must propagate.

    Everything else foreign code raises, ``SystemExit``, ``KeyboardInterrupt``,
    ``GeneratorExit`` and a ``CancelledError`` nobody delivered to this task
    included, is that code's own failure: under asyncio a real Ctrl-C cancels
    the main task rather than raising inside a tool, and a task's coroutine is
    never closed while it awaits (only an abandoned one is, at shutdown, where
    nothing waits for its result).
    """
    if isinstance(exc, BaseExceptionGroup):
        return any(is_cancellation(inner) for inner in exc.exceptions)
    return isinstance(exc, anyio.get_cancelled_exc_class()) and being_cancelled()
