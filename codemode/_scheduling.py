"""The rolling pool with exclusive barriers and in-order commits.

One scheduler runs both a model turn's tool calls and a ``run_code`` program's
sub-calls, under one contract:

* jobs **start strictly in submission order**, and a job's mode is read just
  before it starts (a ``mode()`` that raises, or returns anything but
  ``"parallel"``, means ``"exclusive"``: fail closed);
* consecutive ``parallel`` jobs overlap, at most ``max_parallel`` in flight (a
  rolling pool: the next one starts as soon as a slot frees, not in batches);
* an ``exclusive`` job waits until nothing is in flight, runs alone, and holds
  the barrier through its commit;
* the ordered stages (``start`` and ``commit``) never overlap each other;
  only ``run`` is concurrent;
* commits happen in submission order, so a job whose ``run`` finished early
  waits for every earlier job to commit first.

A job is *in flight* from the moment its ``start`` stage begins until its
commit turn is over.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TypeVar, final

import anyio
import anyio.abc

if TYPE_CHECKING:
    from types import TracebackType

__all__ = ["Job", "JobAbandoned", "Mode", "Scheduler", "Ticket"]

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)

Mode = Literal["parallel", "exclusive"]


class Job(Protocol[T_co]):
    """A unit of work in three stages; implement all four methods.

    ::

        class Call:
            def mode(self) -> Literal["parallel", "exclusive"]:
                return "parallel"        # read just before the job starts
            async def start(self) -> None:
                ...                      # alone, in submission order
            async def run(self) -> None:
                ...                      # concurrently with other parallel jobs
            async def commit(self) -> Result:
                ...                      # alone, in submission order; the value submit returns
    """

    def mode(self) -> Mode:
        """Whether the job may overlap others (``"parallel"``) or must run alone."""
        ...

    async def start(self) -> None:
        """The ordered stage before the job runs."""
        ...

    async def run(self) -> None:
        """The concurrent stage."""
        ...

    async def commit(self) -> T_co:
        """The ordered stage after the job ran; its value is what ``submit`` returns."""
        ...


class JobAbandoned(Exception):
    """The job never started: the scheduler settled (or closed) while it was queued.

    Attributes:
        reason: why the scheduler settled.
    """

    def __init__(self, reason: str) -> None:
        self.reason = reason
        super().__init__(f"job abandoned before it started: {reason}")


@final
class _Entry(Generic[T]):
    __slots__ = ("committed", "done", "job", "outcome", "state")

    def __init__(self, job: Job[T]) -> None:
        self.job = job
        self.state: Literal["queued", "started", "abandoned"] = "queued"
        self.done = anyio.Event()  # the outcome is known
        self.committed = anyio.Event()  # this job's commit turn is over
        self.outcome: tuple[Literal[True], T] | tuple[Literal[False], BaseException] | None = None


@final
class Ticket(Generic[T]):
    """A queued job: await :meth:`result` for its outcome."""

    __slots__ = ("_entry", "_scheduler")

    def __init__(self, scheduler: Scheduler, entry: _Entry[T]) -> None:
        self._scheduler = scheduler
        self._entry = entry

    @property
    def done(self) -> bool:
        """Whether the outcome is known."""
        return self._entry.done.is_set()

    async def result(self) -> T:
        """Wait for the job's outcome.

        If the waiting task is cancelled while the job is still queued, the
        job is withdrawn and never starts; a started job runs to its commit.

        Returns:
            The value of the job's ``commit``.

        Raises:
            JobAbandoned: the scheduler settled before the job started.
            Exception: whatever a stage of the job raised.
        """
        entry = self._entry
        try:
            await entry.done.wait()
        except BaseException:
            self._scheduler._withdraw(entry)
            raise
        outcome = entry.outcome
        assert outcome is not None
        if outcome[0]:
            return outcome[1]
        raise outcome[1]


@final
class Scheduler:
    """Runs submitted jobs under the rolling-pool contract (see the module docstring).

    Use it as an async context manager; it owns the task group its jobs run in::

        async with Scheduler(max_parallel=4) as scheduler:
            result = await scheduler.submit(job)

    Leaving the block abandons jobs still queued and waits for started ones.

    Args:
        max_parallel: how many parallel jobs may be in flight at once (>= 1).

    Raises:
        ValueError: ``max_parallel`` is not a positive integer.
    """

    def __init__(self, *, max_parallel: int = 10) -> None:
        if type(max_parallel) is not int or max_parallel < 1:
            raise ValueError(
                f"max_parallel must be a positive integer, got max_parallel={max_parallel!r}"
            )
        self._max = max_parallel
        self._queue: deque[_Entry[Any]] = deque()
        self._entries: set[_Entry[Any]] = set()  # every entry not yet resolved, for teardown
        self._in_flight = 0
        self._closed: str | None = None
        self._changed = anyio.Event()
        self._lane = anyio.Lock()  # the ordered stages take turns on this lane
        self._last_committed: anyio.Event | None = None
        self._tg: anyio.abc.TaskGroup | None = None

    @property
    def max_parallel(self) -> int:
        """The most parallel jobs in flight at once."""
        return self._max

    @property
    def in_flight(self) -> int:
        """Jobs started and not yet past their commit turn."""
        return self._in_flight

    async def __aenter__(self) -> Scheduler:
        if self._tg is not None:
            raise RuntimeError("a Scheduler can be entered only once")
        tg = anyio.create_task_group()
        await tg.__aenter__()
        self._tg = tg
        tg.start_soon(self._drive)
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool | None:
        assert self._tg is not None
        self._close("the scheduler was closed")
        if exc_type is not None:
            self._tg.cancel_scope.cancel()
        try:
            return await self._tg.__aexit__(exc_type, exc, tb)
        finally:
            # Whatever did not get an outcome (its stage task was cancelled)
            # must not leave a submitter waiting forever.
            for entry in self._entries:
                if not entry.done.is_set():
                    entry.outcome = (False, JobAbandoned("the scheduler was closed"))
                    entry.done.set()
            self._entries.clear()

    async def submit(self, job: Job[T]) -> T:
        """Queue ``job`` and wait for its outcome (``enqueue(job).result()``).

        Returns:
            The value of the job's ``commit``.

        Raises:
            JobAbandoned: the scheduler settled before the job started.
            Exception: whatever a stage of the job raised.
        """
        return await self._enqueue(job, "submit").result()

    def enqueue(self, job: Job[T]) -> Ticket[T]:
        """Queue ``job`` now, without waiting; await the ticket's ``result()`` for its outcome.

        Queueing is synchronous, so a caller that enqueues several jobs in a
        row fixes their submission order without depending on task scheduling.
        """
        return self._enqueue(job, "enqueue")

    def _enqueue(self, job: Job[T], what: str) -> Ticket[T]:
        if self._tg is None:
            raise RuntimeError(f"{what}() needs a running scheduler: `async with Scheduler()`")
        entry: _Entry[T] = _Entry(job)
        if self._closed is not None:
            entry.state = "abandoned"
            entry.outcome = (False, JobAbandoned(self._closed))
            entry.done.set()
        else:
            self._queue.append(entry)
            self._entries.add(entry)
            self._notify()
        return Ticket(self, entry)

    def _withdraw(self, entry: _Entry[Any]) -> None:
        # The submitter went away; a job that has not started never will.
        if entry.state == "queued":
            entry.state = "abandoned"
            self._queue.remove(entry)
            self._entries.discard(entry)
            self._notify()

    async def settle(self, reason: str) -> None:
        """Abandon every queued job, then wait until every started job has committed.

        The submitters of abandoned jobs get :class:`JobAbandoned` with ``reason``;
        later submissions are abandoned at once.
        """
        self._close(reason)
        while self._in_flight:
            await self._wait_change()

    # -- internals ------------------------------------------------------------------------

    def _close(self, reason: str) -> None:
        if self._closed is None:
            self._closed = reason
        while self._queue:
            entry = self._queue.popleft()
            entry.state = "abandoned"
            entry.outcome = (False, JobAbandoned(self._closed))
            entry.done.set()
            self._entries.discard(entry)
        self._notify()

    def _notify(self) -> None:
        self._changed.set()
        self._changed = anyio.Event()

    async def _wait_change(self) -> None:
        await self._changed.wait()

    @staticmethod
    def _mode_of(job: Job[Any]) -> Mode:
        try:
            mode: object = job.mode()
        except Exception:
            return "exclusive"
        # Only the exact string means parallel; anything else fails closed.
        return "parallel" if type(mode) is str and mode == "parallel" else "exclusive"

    async def _drive(self) -> None:
        """The ordered lane: start each job in turn, enforcing the pool and the barrier."""
        assert self._tg is not None
        while True:
            while not self._queue:
                if self._closed is not None:
                    return
                await self._wait_change()
            entry = self._queue[0]
            mode = await self._room_for(entry)
            if mode is None:
                continue  # abandoned while it waited for room
            self._queue.popleft()
            entry.state = "started"
            self._in_flight += 1
            previous, self._last_committed = self._last_committed, entry.committed
            error: Exception | None = None
            async with self._lane:
                try:
                    await entry.job.start()
                except Exception as exc:
                    error = exc
            self._tg.start_soon(self._finish, entry, error, previous)
            if mode == "exclusive":
                await entry.committed.wait()

    async def _room_for(self, entry: _Entry[Any]) -> Mode | None:
        """Wait until the head job may start; return its mode, or None if it left the queue."""
        while True:
            # Read just before the start: a wait below means reading it again,
            # since the job's classification may depend on what ran meanwhile.
            mode = self._mode_of(entry.job)
            limit = 0 if mode == "exclusive" else self._max - 1
            if self._in_flight <= limit:
                return mode
            while self._in_flight > limit:
                await self._wait_change()
                if not self._queue or self._queue[0] is not entry:
                    return None

    async def _finish(
        self, entry: _Entry[Any], error: Exception | None, previous: anyio.Event | None
    ) -> None:
        """Run the job, wait for its commit turn, commit, and publish the outcome."""
        try:
            if error is None:
                try:
                    await entry.job.run()
                except Exception as exc:
                    error = exc
            if previous is not None:
                await previous.wait()
            if error is None:
                async with self._lane:
                    try:
                        entry.outcome = (True, await entry.job.commit())
                    except Exception as exc:
                        entry.outcome = (False, exc)
            else:
                entry.outcome = (False, error)
        finally:
            if entry.outcome is None:
                entry.outcome = (False, JobAbandoned("the scheduler was closed"))
            self._in_flight -= 1
            entry.committed.set()
            entry.done.set()
            self._entries.discard(entry)
            self._notify()
