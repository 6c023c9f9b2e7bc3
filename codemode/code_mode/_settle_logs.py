"""A run's settle-log appends: tracked side work of its scheduler, bounded, drained on exit.

Once a sub-call commits and the program has its value, its ``tool/code-dispatch``
event is appended as side work (through the ``code-dispatch-log`` waterfall when
a listener applies). :class:`SettleLogs` counts those appends, runs them on the
run's :class:`~codemode._scheduling.Scheduler` and is the backpressure the
scheduler's ordered lane waits on, so a slow log listener cannot make pending
results pile up without bound.

It is separate from the dispatcher (:mod:`codemode.code_mode._dispatch`) because
it knows nothing of sub-calls, events or the log: it runs, counts and waits for
callables.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any, final

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from .._scheduling import Scheduler

__all__ = ["SettleLogs"]

_log = logging.getLogger("codemode.code_mode")


@final
class SettleLogs:
    """The settle-log appends of one run: tracked side work, bounded, drained on exit.

    The appends run as side work of the :class:`Scheduler` it is
    :meth:`attach`-ed to (:meth:`spawn`; an append with nothing to await, when
    no ``code-dispatch-log`` listener applies, is a loop callback instead:
    :meth:`soon`); leaving the scheduler waits for every pending one.
    :meth:`wait_for_room` is the backpressure: the bridge's scheduler awaits
    it after every commit, in its ordered lane, so while more than ``limit``
    appends are pending no sub-call starts or commits (each pending append
    holds a whole result, and a log listener may be slow, e.g. one that spills
    to remote storage).

    Args:
        limit: the most pending appends that do not hold the lane (>= 1).
    """

    __slots__ = ("_freed", "_limit", "_pending", "_tasks")

    def __init__(self, *, limit: int) -> None:
        if type(limit) is not int or limit < 1:
            raise ValueError(f"limit must be a positive int, got limit={limit!r}")
        self._limit = limit
        self._pending = 0
        self._freed: anyio.Event | None = None
        self._tasks: Scheduler | None = None  # where the appends run, once attached

    @property
    def pending(self) -> int:
        """Appends started and not yet finished."""
        return self._pending

    def attach(self, scheduler: Scheduler) -> None:
        """Run the appends as side work of ``scheduler``, which waits for them on exit.

        Raises:
            RuntimeError: the appends already have somewhere to run.
        """
        if self._tasks is not None:
            raise RuntimeError("this SettleLogs already runs its appends somewhere")
        self._tasks = scheduler

    def spawn(self, append: Callable[..., Awaitable[object]], *args: Any) -> None:
        """Run ``append(*args)`` as tracked side work."""
        tasks = self._tasks
        if tasks is None:
            raise RuntimeError("spawn() needs an open SettleLogs: attach it to a Scheduler")
        self._pending += 1
        tasks.start_soon(self._run, append, args)

    def soon(self, append: Callable[..., object], *args: Any) -> None:
        """Run the synchronous ``append(*args)`` as tracked side work, from the event loop.

        For an append that never waits (no listener to run): a loop callback
        does what a task would, at a fraction of its cost, and cannot be
        cancelled. It must not raise; whatever it does raise is logged.
        """
        if self._tasks is None:
            raise RuntimeError("soon() needs an open SettleLogs: attach it to a Scheduler")
        self._pending += 1
        asyncio.get_running_loop().call_soon(self._run_soon, append, args)

    async def _run(self, append: Callable[..., Awaitable[object]], args: tuple[Any, ...]) -> None:
        try:
            # An append runs to its end even when the run's task is cancelled
            # (its listener stage is bounded by the dispatcher's stop).
            with anyio.CancelScope(shield=True):
                await append(*args)
        finally:
            self._done()

    def _run_soon(self, append: Callable[..., object], args: tuple[Any, ...]) -> None:
        try:
            append(*args)
        except Exception:
            _log.exception("a settle-log append failed")
        finally:
            self._done()

    def _done(self) -> None:
        self._pending -= 1
        freed, self._freed = self._freed, None
        if freed is not None:
            freed.set()

    async def wait_for_room(self, limit: int | None = None) -> None:
        """Return once at most ``limit`` (by default the one given) appends are pending."""
        most = self._limit if limit is None else limit
        while self._pending > most:
            if self._freed is None:
                self._freed = anyio.Event()
            await self._freed.wait()
