"""The host's caller tasks: each serves a tool call, then parks until the next one.

:class:`CallerTasks` holds the caller tasks of one run and :class:`ParkedCaller`
is where one of them waits between calls. The tasks are plain asyncio tasks,
each inside an anyio cancel scope of its own, not the children of an anyio task
group: a task group's spawn and the end of its child cost about fifty Python
calls per task, which made dispatching ten parallel calls and ending their run
a sixth of the host's work for them. What the group gave is kept: cancelling is
level-triggered (a task's scope, not a one-off ``Task.cancel``), the tasks are
cancelled when their run is left by an exception, and leaving waits for every
task to end, even when the run itself is being cancelled.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

import anyio

if TYPE_CHECKING:
    from collections.abc import Coroutine
    from types import TracebackType

__all__ = ["CallerTasks", "ParkedCaller"]

_Call = TypeVar("_Call")


@final
class ParkedCaller(Generic[_Call]):
    """Where a parked caller task waits for its next call.

    A bare loop future rather than an event: a parked caller is woken once per
    call, and an ``anyio.Event`` made and awaited per call was a tenth of the
    host's Python calls per sub-call. Cancelling the waiting task cancels the
    future, as it would the event's wait.
    """

    __slots__ = ("_call", "_wake", "_woken")

    def __init__(self) -> None:
        self._wake: asyncio.Future[None] | None = None
        self._woken = False
        self._call: _Call | None = None

    def serve(self, call: _Call) -> None:
        """Wake the caller with ``call`` to serve."""
        self._call = call
        self._set()

    def release(self) -> None:
        """Wake the caller with no call: its task returns."""
        self._call = None
        self._set()

    def _set(self) -> None:
        self._woken = True
        wake = self._wake
        if wake is not None and not wake.done():
            wake.set_result(None)

    async def next_call(self) -> _Call | None:
        """The next call to serve, or ``None`` once released."""
        if not self._woken:
            wake = self._wake = asyncio.get_running_loop().create_future()
            try:
                await wake
            finally:
                self._wake = None
        self._woken = False
        call, self._call = self._call, None
        return call


@final
class CallerTasks:
    """The caller tasks of one run; an async context manager that waits for them all.

    Leaving the context by an exception (the run cancelled, or its read loop
    failing) cancels every task first; leaving it normally waits for them as
    they are (:meth:`cancel` first to stop them). Either way it returns only
    once every task has ended, shielded from the cancellation of the run, and
    it re-raises the first exception a task ended with other than its
    cancellation (the callers catch every ``Exception`` of a handler, so that
    is a bug or a ``BaseException``, which must not vanish).
    """

    __slots__ = ("_scopes", "_tasks")

    def __init__(self) -> None:
        self._tasks: list[asyncio.Task[None]] = []
        self._scopes: list[anyio.CancelScope] = []

    def __len__(self) -> int:
        """The tasks started, ended or not."""
        return len(self._tasks)

    def start(self, body: Coroutine[Any, Any, None]) -> None:
        """Run ``body`` in a new task, in a cancel scope of its own, from the next loop step."""
        # The scope exists before its task first runs, so that a cancel issued
        # before then is not lost: the task enters a scope already cancelled.
        scope = anyio.CancelScope()
        self._scopes.append(scope)
        self._tasks.append(asyncio.get_running_loop().create_task(_within(scope, body)))

    def cancel(self) -> None:
        """Cancel every task (level-triggered: again at each wait until it ends)."""
        for scope in self._scopes:
            scope.cancel()

    async def __aenter__(self) -> CallerTasks:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc_type is not None:
            self.cancel()
        pending = [task for task in self._tasks if not task.done()]
        if pending:
            with anyio.CancelScope(shield=True):
                await asyncio.wait(pending)
        for task in self._tasks:
            if not task.cancelled() and (failure := task.exception()) is not None:
                raise failure


async def _within(scope: anyio.CancelScope, body: Coroutine[Any, Any, None]) -> None:
    with scope:
        await body
