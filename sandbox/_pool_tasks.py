"""The pool's background work: the zygote kept alive, warm children kept ready and watched.

:class:`PoolTasks` is the layer of :class:`~sandbox.WorkerPool` above its
children (``sandbox._pool_children``). Two tasks run in the pool's task group
for its whole life: ``_supervise`` keeps one zygote alive (restarting it, with
a back-off, when it dies) and ``_refill`` keeps ``size`` children forked from
it waiting on READY (deferring a replacement while a run that took a child
still runs, then until a little after it returned). Each warm child has a
``_watch`` task for its whole life: one that dies while waiting is replaced,
and one whose run ended well is reaped and released here when it exits.

It is separate from the run path (``sandbox._pool``) because none of it runs on
a run's path: the two meet only through the pool's events (``_refill_wanted``,
``_run_returned``, ``_idle_changed``) and counters. Its state is made by the
pool's ``__init__``.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Final

import anyio

from sandbox._children import Zygote
from sandbox._pool_children import PoolChildren

if TYPE_CHECKING:
    from anyio.abc import TaskStatus

    from sandbox import _zygote
    from sandbox._children import Child
    from sandbox._config import Limits

__all__ = ["PoolTasks"]

#: While a warm child remains, one taken by a run is replaced once a run
#: returns, so that the fork and the new child's set-up do not compete with the
#: run for the CPUs; a run that lasts longer than this has its replacement
#: started anyway, so that a long program does not leave the pool short.
_REFILL_DEFER_SECONDS: Final = 0.05
#: The replacement's fork request (file-system calls and a uid on the event
#: loop) and the finished child's release (closing its input pipe, on which it
#: exits) wait this long after the run returned, so that the caller's work
#: after the run (``run_code`` settles, renders and logs its result) does not
#: queue behind them.
_AFTER_RUN_SECONDS: Final = 0.002


class PoolTasks(PoolChildren):
    """The layer of :class:`~sandbox.WorkerPool` that keeps its zygote and warm children."""

    _limits: Limits
    _size: int
    _platform: _zygote.ZygoteReady | None
    _zygote_starts: int
    _refill_wanted: asyncio.Event
    _taken: bool
    _run_returned: asyncio.Event
    _idle_changed: asyncio.Event
    _idle: list[Child]
    _busy: int
    _crashed: int

    async def _supervise(self, *, task_status: TaskStatus[None]) -> None:
        failures = 0
        while True:
            try:
                zygote = await Zygote.start(self._child_gone)
            except Exception as exc:
                if self._zygote_starts == 0:
                    raise
                self._zygote_error = f"{type(exc).__name__}: {exc}"
                failures += 1
                # Back off so that a zygote that cannot start does not spin.
                await anyio.sleep(min(0.05 * 2**failures, 5.0))
                continue
            failures = 0
            self._zygote = zygote
            self._platform = zygote.ready
            self._zygote_error = None
            self._zygote_starts += 1
            self._zygote_up.set()
            self._want_refill()
            if self._zygote_starts == 1:
                task_status.started()
            try:
                await zygote.serve()
            finally:
                with anyio.CancelScope(shield=True):
                    self._zygote = None
                    self._zygote_up = asyncio.Event()
                    # The warm children die with the zygote (parent-death
                    # signal, or the zygote kills them as it closes).
                    idle, self._idle = self._idle, []
                    for child in idle:
                        self._release(child)
                    self._notify_idle()
                    await zygote.aclose()
            self._zygote_error = "the sandbox zygote exited"

    async def _refill(self) -> None:
        settings = self._settings_for(self._limits)
        failures = 0
        while True:
            # One fork at a time: the zygote forks serially anyway, and runs
            # that find no warm child fork their own.
            while len(self._idle) < self._size and not self._closed:
                try:
                    child = await self._start_child(settings)
                except Exception:
                    # The supervisor restarts a dead zygote; a child that cannot
                    # start is reported by the next run that needs one. Back
                    # off so that a broken set-up does not fork in a loop.
                    failures += 1
                    await anyio.sleep(min(0.01 * 2**failures, 2.0))
                    continue
                failures = 0
                child.state = "idle"
                self._idle.append(child)
                assert self._task_group is not None
                self._task_group.start_soon(self._watch, child)
                self._notify_idle()
            await self._refill_wanted.wait()
            self._refill_wanted = asyncio.Event()
            taken, self._taken = self._taken, False
            if (self._busy or taken) and self._idle:
                # A warm child is still there for the next run: let the busy
                # one finish first. With none left, a run arriving now would
                # fork its own, on its own path: refill at once. A run can
                # take its child and return before this task runs at all (it
                # need not yield when the child answers at once): the caller's
                # next steps still come first.
                if self._busy:
                    with anyio.move_on_after(_REFILL_DEFER_SECONDS):
                        await self._run_returned.wait()
                await anyio.sleep(_AFTER_RUN_SECONDS)

    async def _watch(self, child: Child) -> None:
        """Wait for a warm child's exit, for its whole life.

        A warm child that dies while waiting (killed from outside, the zygote
        gone) leaves the pool and is replaced. One whose run ended well is
        reaped and released here once it exits: its run marked it
        ``finishing`` and gave this wait a deadline, past which it is killed.
        The task was there all along, so the run spawns none (a task costs
        tens of microseconds on the run's path).
        """
        try:
            with anyio.CancelScope() as scope:
                child.watch = scope
                await child.exited.wait()
        finally:
            child.watch = None
            if child.state == "finishing":
                with anyio.CancelScope(shield=True):
                    await self._dispose(child, self._zygote)
                    self._exiting -= 1
        if child.state == "idle":
            self._idle.remove(child)
            self._crashed += 1
            self._release(child)
            self._want_refill()
            self._notify_idle()

    def _want_refill(self) -> None:
        self._refill_wanted.set()

    def _notify_idle(self) -> None:
        event, self._idle_changed = self._idle_changed, asyncio.Event()
        event.set()
