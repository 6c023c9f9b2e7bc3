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
  waits for every earlier job to commit first;
* a job's outcome is published as soon as its ``commit`` returns; the
  scheduler's optional ``after_commit`` is then awaited while the ordered lane
  is still held, so nothing starts or commits until it returns (its user's
  backpressure).

A job is *in flight* from the moment its ``start`` stage begins until its
commit turn is over.

Jobs run in the scheduler's own worker tasks (a :class:`bridge.tasks.TaskSet`,
not an anyio task group, whose spawn and task ends cost more than the rest of
a sub-call's scheduling), so a started job runs to its commit whatever happens
to its submitter. One worker at a time
holds the *starter* role: it waits until the head of the queue may start,
starts it, and hands the role on before running the job, so that later jobs
can start meanwhile. A job submitted while nothing else is in flight (the
sequential case) therefore costs no new task: the worker that ran the previous
job starts it. A new worker is spawned only when jobs overlap.

The waits are on asyncio's own events, not anyio's: Code Mode runs on asyncio,
and anyio's wrapper (a backend look-up per event made, a layer per wait and
set) cost more host time per sub-call than the rest of the scheduler's
bookkeeping. Cancellation reaches a waiting task as it would through anyio.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from typing import TYPE_CHECKING, Any, Final, Generic, Literal, Protocol, TypeVar, final

import anyio
import anyio.lowlevel

from bridge.tasks import TaskSet

from ._cancellation import split_cancellation
from ._results import type_name

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Coroutine
    from types import TracebackType

__all__ = ["Job", "JobAbandoned", "JobFailed", "Mode", "Scheduler", "Ticket"]

_logger: Final = logging.getLogger("codemode")

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


class JobFailed(Exception):
    """A job stage raised a ``BaseException`` that was not a cancellation; it is the cause."""


@final
class _Entry(Generic[T]):
    __slots__ = ("callbacks", "committed", "done", "job", "outcome", "state", "turn_over")

    def __init__(self, job: Job[T]) -> None:
        self.job = job
        self.state: Literal["queued", "started", "abandoned"] = "queued"
        self.done = asyncio.Event()  # the outcome is known
        self.turn_over = False  # this job's commit turn is over
        # Made only when the next job has to wait for this one's commit turn.
        self.committed: asyncio.Event | None = None
        self.outcome: tuple[Literal[True], T] | tuple[Literal[False], BaseException] | None = None
        # Called once, as the outcome is published (Ticket.add_done_callback).
        self.callbacks: list[Callable[[], object]] | None = None

    def publish(self) -> None:
        """Make the outcome known: wake the submitter, run the done callbacks (once)."""
        if self.done.is_set():
            return
        self.done.set()
        callbacks, self.callbacks = self.callbacks, None
        for callback in callbacks or ():
            self.call(callback)

    def call(self, callback: Callable[[], object]) -> None:
        """Run a done callback; what it raises is logged (the outcome stands for the submitter)."""
        try:
            callback()
        except Exception:
            _logger.exception("a done callback of %r raised; ignored", self.job)


@final
class _Lane:
    """A first-come, first-served turn for the ordered stages, only ever taken by workers.

    Cheaper than a lock for the common case of a free lane: taking it neither
    yields nor looks up the current task (the stages themselves are where
    other tasks get to run). A waiter is handed the turn directly on release.
    """

    __slots__ = ("_busy", "_waiters")

    def __init__(self) -> None:
        self._busy = False
        self._waiters: deque[asyncio.Event] = deque()

    async def __aenter__(self) -> None:
        if not self._busy:
            self._busy = True
            return
        turn = asyncio.Event()
        self._waiters.append(turn)
        try:
            await turn.wait()
        except BaseException:
            if turn.is_set():
                self._release()  # the turn was handed over already: pass it on
            else:
                self._waiters.remove(turn)
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self._release()

    def _release(self) -> None:
        if self._waiters:
            self._waiters.popleft().set()
        else:
            self._busy = False


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

    def add_done_callback(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` once the outcome is known (at once if it is already).

        It runs in the task that publishes the outcome (a worker, as the job's
        commit returns), before that task goes on: a submitter that answers
        from it needs no task of its own waiting on :meth:`result`. It must not
        block; an exception it raises is logged and ignored.
        """
        entry = self._entry
        if entry.done.is_set():
            entry.call(callback)
            return
        if entry.callbacks is None:
            entry.callbacks = []
        entry.callbacks.append(callback)

    def outcome(self) -> T:
        """The job's outcome, once :attr:`done`: what :meth:`result` returns or raises.

        Raises:
            RuntimeError: the outcome is not known yet.
            JobAbandoned: the scheduler settled before the job started.
            Exception: whatever a stage of the job raised.
        """
        outcome = self._entry.outcome
        if outcome is None or not self._entry.done.is_set():
            raise RuntimeError("the job's outcome is not known yet; await result() for it")
        if outcome[0]:
            return outcome[1]
        raise outcome[1]

    def withdraw(self) -> None:
        """The submitter no longer wants the outcome: a job still queued never starts.

        A started job runs to its commit (its done callbacks still run).
        """
        self._scheduler._withdraw(self._entry)

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
        return self.outcome()


@final
class Scheduler:
    """Runs submitted jobs under the rolling-pool contract (see the module docstring).

    Use it as an async context manager; it owns the tasks its jobs run in::

        async with Scheduler(max_parallel=4) as scheduler:
            result = await scheduler.submit(job)

    Leaving the block abandons jobs still queued and waits for started ones
    (and for its side work, :meth:`start_soon`). Leaving it by an exception
    first cancels the side work and, unless ``shield``, the started jobs.

    Args:
        max_parallel: how many parallel jobs may be in flight at once (>= 1).
        after_commit: awaited after every commit, once the job's outcome is
            published, while the ordered lane is still held: no job starts or
            commits until it returns. Code Mode waits there while too many
            settle-log appends are pending. It should not raise; an exception
            is logged and ignored (the outcome stands).
        shield: never cancel the workers, not even when the block is left by
            an exception (the task that entered it cancelled), so that a
            started job always reaches its commit. The owner must then bound
            its jobs some other way (Code Mode stops the stages of sub-calls
            that outlive their run). Without it a cancel scope around the
            block reaches the jobs when the block is left.

    Raises:
        ValueError: ``max_parallel`` is not a positive integer.
        TypeError: ``after_commit`` is not callable.
    """

    def __init__(
        self,
        *,
        max_parallel: int = 10,
        after_commit: Callable[[], Awaitable[object]] | None = None,
        shield: bool = False,
    ) -> None:
        if type(max_parallel) is not int or max_parallel < 1:
            raise ValueError(
                f"max_parallel must be a positive integer, got max_parallel={max_parallel!r}"
            )
        if after_commit is not None and not callable(after_commit):
            raise TypeError(f"after_commit must be callable, got after_commit={after_commit!r}")
        self._max = max_parallel
        self._after_commit = after_commit
        self._shield = shield
        self._queue: deque[_Entry[Any]] = deque()
        self._entries: set[_Entry[Any]] = set()  # every entry not yet resolved, for teardown
        self._in_flight = 0
        self._closed: str | None = None
        # Made by the first task that waits for a change, set (and dropped) by the next change.
        self._changed: asyncio.Event | None = None
        # The ordered stages take turns on this lane.
        self._lane = _Lane()
        self._last_started: _Entry[Any] | None = None
        self._starter = False  # a worker holds the starter role
        self._workers: TaskSet | None = None
        self._side: TaskSet | None = None
        # Set as the scheduler cancels its workers (left by an exception, not
        # shielded): only then is a CancelledError in a job the host's own.
        self._cancelling = False

    @property
    def max_parallel(self) -> int:
        """The most parallel jobs in flight at once."""
        return self._max

    @property
    def in_flight(self) -> int:
        """Jobs started and not yet past their commit turn."""
        return self._in_flight

    def cancelling(self) -> bool:
        """Whether the scheduler is cancelling its workers (its block was left by an exception).

        A job's stages are cancelled for real only then (or by a scope of
        their own): a ``CancelledError`` a job's foreign code raises, or
        causes by cancelling the worker's task itself, is the job's failure.
        """
        return self._cancelling

    async def __aenter__(self) -> Scheduler:
        return self.open()

    def open(self) -> Scheduler:
        """Open the scheduler without an ``async with``, for an owner that opens it lazily.

        What ``__aenter__`` does; the owner must then leave it as a context is
        left, ``await scheduler.__aexit__(...)`` with the exception that ends
        its block (or three ``None``), in the task of its choice.

        Raises:
            RuntimeError: the scheduler was opened before.
        """
        if self._workers is not None:
            raise RuntimeError("a Scheduler can be entered only once")
        # Shielded workers are never cancelled: they need no scope of their own.
        self._workers = TaskSet(cancel_on_error=not self._shield, cancellable=not self._shield)
        self._side = TaskSet()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        workers, side = self._workers, self._side
        assert workers is not None
        assert side is not None
        self._close("the scheduler was closed")
        if exc_type is not None and not self._shield:
            self._cancelling = True
        try:
            try:
                await workers.__aexit__(exc_type, exc, tb)
            finally:
                await side.__aexit__(exc_type, exc, tb)
        finally:
            # Whatever did not get an outcome (its worker was cancelled)
            # must not leave a submitter waiting forever.
            for entry in tuple(self._entries):
                if not entry.done.is_set():
                    entry.outcome = (False, JobAbandoned("the scheduler was closed"))
                    entry.publish()
            self._entries.clear()

    def start_soon(self, func: Callable[..., Coroutine[Any, Any, object]], *args: Any) -> None:
        """Run ``func(*args)`` as side work, in a task of the scheduler's own.

        Leaving the scheduler waits for it as for the jobs (the owner of side
        work that must outlive a cancelled caller shields it itself).

        Raises:
            RuntimeError: the scheduler is not open.
        """
        if self._side is None:
            raise RuntimeError("start_soon() needs an open Scheduler: `async with Scheduler(...)`")
        self._side.start(func(*args))

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
        workers = self._workers
        if workers is None:
            raise RuntimeError(f"{what}() needs a running scheduler: `async with Scheduler()`")
        entry: _Entry[T] = _Entry(job)
        if self._closed is not None:
            entry.state = "abandoned"
            entry.outcome = (False, JobAbandoned(self._closed))
            entry.publish()
        else:
            self._queue.append(entry)
            self._entries.add(entry)
            self._notify()
            if not self._starter:
                self._starter = True
                workers.start(self._work())
        return Ticket(self, entry)

    def _withdraw(self, entry: _Entry[Any]) -> None:
        # The submitter went away; a job that has not started never will.
        if entry.state == "queued":
            entry.state = "abandoned"
            self._queue.remove(entry)
            self._entries.discard(entry)
            entry.outcome = (False, JobAbandoned("its submitter withdrew it"))
            entry.publish()
            self._notify()

    def close(self, reason: str) -> None:
        """Abandon every queued job now and every later submission; started jobs go on.

        The submitters of abandoned jobs get :class:`JobAbandoned` with
        ``reason`` (the first reason given, when closed more than once).
        Synchronous, so it can run from an abort callback: no queued job
        starts after it returns.
        """
        self._close(reason)

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
            self._entries.discard(entry)
            entry.publish()
        self._notify()

    def _notify(self) -> None:
        changed = self._changed
        if changed is not None:
            self._changed = None
            changed.set()

    async def _wait_change(self) -> None:
        changed = self._changed
        if changed is None:
            changed = self._changed = asyncio.Event()
        await changed.wait()

    def _mode_of(self, job: Job[Any]) -> Mode:
        try:
            mode: object = job.mode()
        except BaseException as exc:
            _job_failure(exc, self.cancelling)  # a real cancellation goes on
            return "exclusive"
        # Only the exact string means parallel; anything else fails closed.
        return "parallel" if type(mode) is str and mode == "parallel" else "exclusive"

    async def _work(self) -> None:
        """A worker, spawned holding the starter role: start jobs in order, run some of them.

        While jobs are queued the starter starts them one after another and
        gives each its own task to run in, as a rolling pool does. The last
        job started, when nothing else is queued (the sequential case), runs
        in the starter's own task instead: the role is handed to whichever
        task queues the next job, and taken back afterwards if nobody took it.

        An exclusive job (or any job when only one may be in flight) runs in
        the starter's task and keeps the role: nothing else may start before
        its commit turn is over, and the next job's mode must not be read
        before then either.
        """
        workers = self._workers
        assert workers is not None
        spawned = False  # a job was given its own task since this worker last yielded
        while True:
            picked = await self._next_startable()
            if picked is None:
                self._starter = False
                return
            entry, mode = picked
            self._queue.popleft()
            entry.state = "started"
            self._in_flight += 1
            previous, self._last_started = self._last_started, entry
            error: Exception | None = None
            async with self._lane:
                try:
                    await entry.job.start()
                except BaseException as exc:
                    error = _job_failure(exc, self.cancelling)
            if mode == "exclusive" or self._max == 1:
                spawned = False
                await self._finish(entry, error, previous)
                continue
            if spawned and not self._queue:
                # Let the runs started before this one begin first: runs
                # begin in start order.
                spawned = False
                await anyio.lowlevel.checkpoint()
            if self._queue:
                workers.start(self._finish(entry, error, previous))
                spawned = True
                continue
            self._starter = False
            await self._finish(entry, error, previous)
            if self._starter:
                return  # a worker spawned meanwhile starts the jobs now
            self._starter = True

    async def _next_startable(self) -> tuple[_Entry[Any], Mode] | None:
        """Wait until the head job may start; None once the scheduler is closed and drained."""
        while True:
            while not self._queue:
                if self._closed is not None:
                    return None
                await self._wait_change()
            entry = self._queue[0]
            mode = await self._room_for(entry)
            if mode is not None:
                return entry, mode

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

    async def _hold_lane(self, entry: _Entry[Any]) -> None:
        assert self._after_commit is not None
        try:
            await self._after_commit()
        except Exception:
            _logger.exception("a scheduler's after_commit raised after %r; ignored", entry.job)

    async def _finish(
        self, entry: _Entry[Any], error: Exception | None, previous: _Entry[Any] | None
    ) -> None:
        """Run the job, wait for its commit turn, commit, and publish the outcome."""
        try:
            if error is None:
                try:
                    await entry.job.run()
                except BaseException as exc:
                    error = _job_failure(exc, self.cancelling)
            if previous is not None and not previous.turn_over:
                if previous.committed is None:
                    previous.committed = asyncio.Event()
                await previous.committed.wait()
            if error is None:
                async with self._lane:
                    try:
                        entry.outcome = (True, await entry.job.commit())
                    except BaseException as exc:
                        entry.outcome = (False, _job_failure(exc, self.cancelling))
                    if self._after_commit is not None:
                        entry.publish()  # the submitter has its outcome now
                        await self._hold_lane(entry)
            else:
                entry.outcome = (False, error)
        finally:
            if entry.outcome is None:
                entry.outcome = (False, JobAbandoned("the scheduler was closed"))
            self._in_flight -= 1
            entry.turn_over = True
            if entry.committed is not None:
                entry.committed.set()
            self._entries.discard(entry)
            entry.publish()
            self._notify()


def _job_failure(exc: BaseException, asked: Callable[[], bool]) -> Exception:
    """What a job stage raised, as the job's outcome; a real cancellation is raised again.

    A stage's ``SystemExit``, ``KeyboardInterrupt`` or ``CancelledError`` that
    the scheduler did not ask for (``asked``: it is cancelling its workers;
    see :mod:`codemode._cancellation`) is the job's failure: were it let
    through, it would end the worker task and the job would never get an
    outcome, nor the jobs queued behind it a worker.
    """
    cancellation, failure = split_cancellation(exc, asked)
    if cancellation is not None:
        raise cancellation
    assert failure is not None
    # The real type: isinstance would consult a foreign __class__.
    if issubclass(type(failure), Exception):
        return failure  # type: ignore[return-value]
    wrapped = JobFailed(f"the job raised {type_name(failure)}")
    wrapped.__cause__ = failure
    return wrapped
