"""Task plumbing for the host: a set of tasks that ends together, and a parked task's wake-up.

:class:`TaskSet` runs tasks that must all end before their owner goes on: the
caller tasks of a run (:mod:`bridge._call_table`) and the workers of a scheduler
(:mod:`codemode._scheduling`). They are plain asyncio tasks, each inside an
anyio cancel scope of its own, not the children of an anyio task group: a
task group's spawn and the end of its child cost about fifty Python calls per
task, which made dispatching ten parallel calls and ending their run a sixth
of the host's work for them, and entering and leaving the group cost every run
through ``run_code`` a loop iteration's worth. What the group gave is kept:
cancelling is level-triggered (a task's scope, not a one-off ``Task.cancel``),
the tasks are cancelled when their owner leaves by an exception, and leaving
waits for every task to end, even when the owner itself is being cancelled.
One difference: a cancel scope around the owner does not reach the tasks
while the owner's block runs; they are cancelled when the block is left.
A set whose tasks are never cancelled through it (``cancellable=False``: a
shielded scheduler's workers, which run every started job to its commit)
gives them no scope at all: a scope per task, with its wrapper coroutine,
was about a tenth of the host's work for ten parallel sub-calls.

:class:`ParkedCaller` is where a task waits for its next piece of work.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any, Generic, TypeVar, final

import anyio

if TYPE_CHECKING:
    from collections.abc import Coroutine
    from types import TracebackType

__all__ = ["ParkedCaller", "TaskSet"]

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
class TaskSet:
    """Tasks that all end before their owner goes on; an async context manager.

    Leaving the context by an exception (the owner cancelled, or failing)
    cancels every task first, unless ``cancel_on_error`` is off (tasks that
    must run to their end whatever happens to their owner); leaving it
    normally waits for them as they are (:meth:`cancel` first to stop them).
    Either way it returns only once every task has ended, shielded from the
    owner's cancellation, and it re-raises the first exception a task ended
    with other than its cancellation (a task's body is expected to catch what
    it can handle, so that is a bug or a ``BaseException``, which must not
    vanish). :meth:`wait` does the same without a context.

    A set made with ``cancellable=False`` runs each task without a cancel
    scope of its own (for tasks that must run to their end whatever happens,
    a scope that is never cancelled is a cost and nothing else: an object, a
    backend look-up and a wrapper coroutine per task); :meth:`cancel` then
    refuses, and leaving the context by an exception never cancels.

    Args:
        cancel_on_error: cancel the tasks when the context is left by an exception.
        cancellable: whether the tasks can be cancelled through the set at all.

    Raises:
        ValueError: ``cancel_on_error`` without ``cancellable``.
    """

    __slots__ = ("_cancel_on_error", "_cancellable", "_emptied", "_failure", "_live", "_started")

    def __init__(self, *, cancel_on_error: bool = True, cancellable: bool = True) -> None:
        if cancel_on_error and not cancellable:
            raise ValueError("a TaskSet that cancels on error must be cancellable")
        self._cancel_on_error = cancel_on_error
        self._cancellable = cancellable
        # The tasks not yet ended, each with its scope; an ended one is dropped
        # at once (a turn's scheduler lives long and may run many), keeping
        # only the first failure to re-raise.
        self._live: dict[asyncio.Task[Any], anyio.CancelScope | None] = {}
        self._started = 0
        self._failure: BaseException | None = None
        # What wait() awaits: set when the last live task ends. A bare future,
        # not asyncio.wait (a few dozen Python calls, paid by every run that
        # has a task still parked when it ends); cancelling the waiter cancels
        # only this future, never the tasks.
        self._emptied: asyncio.Future[None] | None = None

    @property
    def started(self) -> int:
        """The tasks started so far, ended or not."""
        return self._started

    def __len__(self) -> int:
        """The tasks not yet ended."""
        return len(self._live)

    def start(self, body: Coroutine[Any, Any, object]) -> None:
        """Run ``body`` in a new task from the next loop step, in a cancel scope of its own.

        A set made with ``cancellable=False`` gives the task no scope.
        """
        loop = asyncio.get_running_loop()
        if not self._cancellable:
            task: asyncio.Task[Any] = loop.create_task(body)
            self._live[task] = None
            self._started += 1
            task.add_done_callback(self._ended)
            return
        # The scope exists before its task first runs, so that a cancel issued
        # before then is not lost: the task enters a scope already cancelled.
        scope = anyio.CancelScope()
        task = loop.create_task(_within(scope, body))
        self._live[task] = scope
        self._started += 1
        task.add_done_callback(self._ended)

    def forget(self, task: asyncio.Task[Any]) -> None:
        """Stop waiting for ``task``: it has nothing left to do but end (a caller let go).

        Leaving the set, and :meth:`wait`, no longer wait for it, and
        :meth:`cancel` no longer reaches it. Should it fail after all, its
        exception is not re-raised here: asyncio reports it as never retrieved.
        """
        if self._live.pop(task, _GONE) is _GONE:
            return
        emptied = self._emptied
        if not self._live and emptied is not None and not emptied.done():
            emptied.set_result(None)

    def _ended(self, task: asyncio.Task[Any]) -> None:
        if self._live.pop(task, _GONE) is _GONE:
            return  # forgotten: nobody waits for it
        emptied = self._emptied
        if not self._live and emptied is not None and not emptied.done():
            emptied.set_result(None)
        if task.cancelled():
            return
        failure = task.exception()
        if failure is not None and self._failure is None:
            self._failure = failure

    def cancel(self) -> None:
        """Cancel every task (level-triggered: again at each wait until it ends).

        Raises:
            RuntimeError: the set was made with ``cancellable=False``.
        """
        if not self._cancellable:
            raise RuntimeError("this TaskSet runs tasks that cannot be cancelled")
        for scope in self._live.values():
            assert scope is not None
            scope.cancel()

    async def __aenter__(self) -> TaskSet:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc_type is not None and self._cancel_on_error:
            self.cancel()
        await self.wait()

    async def wait(self) -> None:
        """Return once every task has ended (shielded); re-raise a task's failure."""
        while self._live:
            emptied = self._emptied = asyncio.get_running_loop().create_future()
            try:
                with anyio.CancelScope(shield=True):
                    await emptied
            finally:
                self._emptied = None
        failure, self._failure = self._failure, None
        if failure is not None:
            raise failure


#: What ``_live.pop`` returns for a task the set no longer holds (a held task's
#: scope may be ``None``).
_GONE: object = object()


async def _within(scope: anyio.CancelScope, body: Coroutine[Any, Any, object]) -> None:
    with scope:
        await body
