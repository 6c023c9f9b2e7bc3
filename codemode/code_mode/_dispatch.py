"""The sub-dispatch bridge: each tool call of a program becomes a registry call.

One :class:`SubDispatcher` serves one ``run_code`` execution, opened with
:func:`dispatching` around the program's run. The sandbox hands it every call
frame in the order the program made them; it

* refuses calls once the run is over (its run signal aborted: the outer call
  was aborted, or the program settled), lossy arguments, and calls over quota -
  none of these uses a call number;
* numbers the rest ``<outer call id>:code:<n>`` from 1, in submission order;
* runs each through the full pipeline with the outer execution's token as
  ``parent``, the outer ``root_call_id`` and the run-scoped signal, scheduled
  by the shared rolling pool (ordered starts and commits, parallel-safe calls
  overlapping, exclusive calls as barriers through their commit);
* logs ``tool/code-dispatch-start`` when a call starts and, after the program
  has its value, ``tool/code-dispatch`` with the content the
  ``code-dispatch-log`` waterfall shaped (only when the outer call has an agent),
  as tracked side work (:class:`SettleLogs`): while more of these appends are
  pending than ``max_parallel_sub_calls``, the ordered lane waits, so a slow
  log listener cannot make pending results pile up without bound;
* collects the side channels: deferred contexts, image-bearing results and
  ``concludes_turn``;
* records every dispatch event the session log could not take
  (``log_failures``), so that ``run_code`` reports it instead of losing it;
* charges both events of every sub-call, and the spill files written for its
  result, against the run's :class:`~codemode._log.PersistBudget`
  (``Quotas.max_persisted_bytes``, ``Quotas.max_spill_files``): a call is
  admitted only with room for its start event and a bounded settle event, and
  refused with ``QUOTA_EXCEEDED`` otherwise (it uses no number); a result whose
  logged copy does not fit what is left is logged as a bounded preview with
  its size and SHA-256, saying so (:class:`~._persist.SubCallLogBudget`).

Settling is bounded: started sub-calls get :data:`SETTLE_GRACE_SECONDS` after
the run signal aborts to commit (and their settle-log appends to finish);
whatever stage still runs then (a listener or body that ignores the signal) is
cancelled, the sub-call commits as ``ABORTED`` and its event is still appended.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any, Final, final

import anyio
import anyio.abc
import anyio.to_thread

from bridge.lossless import JsonValue, LossyJsonError, materialize
from sandbox import ToolCallFailed

from .._cancellation import (
    cancel_requests,
    is_cancellation,
    scope_cancelled,
    withdraw_self_cancel,
)
from .._errors import LOG_WRITE_FAILED, QUOTA_EXCEEDED
from .._execution import CallInput
from .._jobs import PipelineJob
from .._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    PersistBudget,
    SessionLog,
    encode_arguments,
    forget_arguments,
)
from .._offload import fits_inline, sized
from .._outcomes import aborted, from_exception
from .._results import (
    ContentBlock,
    ContextMessage,
    ImageBlock,
    ToolResult,
    safe_str,
    type_name,
)
from .._scheduling import JobAbandoned, Scheduler, Ticket
from .._signal import AbortSignal
from ._persist import (
    INLINE_TEXT,
    LOG_PREVIEW_BYTES,
    ContentMeasure,
    LoggedArguments,
    SubCallLogBudget,
    content_chars,
    measure_arguments,
    measure_content,
)
from ._quotas import QuotaCounter, Quotas

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence
    from types import TracebackType

    from sandbox import CallReply

    from .._execution import ToolRunContext
    from .._registry import Agent, Registry

__all__ = [
    "LOG_PREVIEW_BYTES",
    "SETTLED",
    "SETTLE_GRACE_SECONDS",
    "CodeDispatchLog",
    "SettleLogs",
    "SubCallRecord",
    "SubDispatcher",
    "dispatching",
]

_log = logging.getLogger("codemode.code_mode")

#: The reason the run signal carries once a program has finished, whatever the outcome.
SETTLED: Final = "run_code settled"

#: How long, once a program has settled, its started sub-calls get to commit and
#: their settle-log appends to finish before whatever still runs is cancelled.
#: Every stage sees the aborted run signal at once; this bounds only those that
#: ignore it (a body or listener awaiting something that never comes), which
#: would otherwise keep ``run_code`` from returning at all.
SETTLE_GRACE_SECONDS: float = 5.0

#: Where a deferred image-bearing result says it came from.
IMAGE_CONTEXT_SOURCE = "code-mode"


@final
@dataclass(frozen=True, kw_only=True)
class CodeDispatchLog:
    """One settled sub-call about to be logged, as ``code-dispatch-log`` listeners see it.

    ``content`` is the sub-call's rendered result; a listener may return other
    blocks for the durable copy only (the program already has the value).
    """

    execution: ToolRunContext
    agent: Agent | None
    sub_call_id: str
    name: str
    is_error: bool
    content: tuple[ContentBlock, ...]
    #: What the run may still persist: a listener that writes on the run's
    #: behalf (the spill policy) charges its files here.
    budget: PersistBudget | None = None


@final
@dataclass(frozen=True)
class SubCallRecord:
    """A dispatched sub-call, as the CLI and callers may list them."""

    id: str
    name: str
    is_error: bool


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


@final
class SubDispatcher:
    """Implements the sandbox's ``CallHandler`` for one ``run_code`` execution."""

    def __init__(
        self,
        *,
        registry: Registry,
        outer: ToolRunContext,
        run_signal: AbortSignal,
        log: SessionLog | None,
        quotas: Quotas,
    ) -> None:
        self._registry = registry
        self._outer = outer
        #: The run-scoped signal: every sub-call's caller signal.
        self.run_signal = run_signal
        # Read when the run starts, as every setting of the run is.
        self._max_parallel = registry.max_parallel_sub_calls
        # The scheduler and the settle-log appends are made by the first call
        # (most programs make none, and making, opening and closing them was
        # a tenth of a trivial run's Python calls); see _jobs and settle.
        self._scheduler: Scheduler | None = None
        self._settle_logs: SettleLogs | None = None
        # Dispatch events are durable records of an agent's turn; without an
        # agent there is no turn to attach them to, so nothing is logged.
        self._log = log if outer.agent is not None else None
        # What the host may persist on this run's behalf (nothing is, without a log).
        self._log_budget = (
            SubCallLogBudget(outer=outer, quotas=quotas) if self._log is not None else None
        )
        self._quota = QuotaCounter(quotas)
        self._count = 0
        # Calls are numbered, admitted and queued in the order the program made
        # them, also when large arguments are copied in a thread first: each
        # call copied off the loop holds a place (an event set once it is
        # queued, or refused), and every call after it waits for that place.
        self._last_place: anyio.Event | None = None
        #: Places reserved by start_call for the calls it hands to call_tool,
        #: by the identity of their arguments (the bridge passes the same object).
        self._reserved: dict[int, tuple[anyio.Event | None, anyio.Event]] = {}
        # The stages of started sub-calls, cancelled together once the grace
        # after settlement is over (see stop_stages).
        self._stages: set[anyio.CancelScope] = set()
        #: The running backend's scope class (see _Stage), once a stage has made one.
        self._scope_kind: type[anyio.CancelScope] | None = None
        self._stopped = False
        #: Sub-calls whose start event is logged and whose settle is not yet
        #: recorded: whatever is left when the run ends is settled as ABORTED.
        self._unsettled: dict[str, _SubCall] = {}
        #: The dispatch events the session log refused or failed to write.
        self.log_failures: list[str] = []
        self.contexts: list[ContextMessage] = []
        self.concludes_turn = False
        self.records: list[SubCallRecord] = []

    def _over(self) -> str | None:
        """Why the run is over (its signal's reason), or ``None`` while it runs."""
        return self.run_signal.reason

    @property
    def budget(self) -> PersistBudget | None:
        """What the run may still persist (``None`` when nothing is logged)."""
        return None if self._log_budget is None else self._log_budget.budget

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        """Dispatch one program call; return its canonical value or raise ``ToolCallFailed``."""
        reserved = self._reserved.pop(id(args), None)
        earlier, place = reserved if reserved is not None else self._reserve()
        try:
            self._refuse_when_over(name)
            floor, inline = measure_arguments(args) if self._log is not None else (0, True)
            self._refuse_when_spent(name, floor)
            try:
                # Two independent frozen snapshots, what the tool receives and
                # what is logged (the second, and its encoding, only when there
                # is a log), taken together and off the event loop when the
                # arguments are large. The pipeline and the log store read them
                # as they are: they are checked.
                work = partial(_snapshots, args, self._log is not None)
                if not inline:
                    # Few items may still hold long strings, which the logged
                    # copy's encoding reads whole.
                    dispatched, logged = await anyio.to_thread.run_sync(
                        work, abandon_on_cancel=True
                    )
                else:
                    dispatched, logged = await sized(args, work)
            except LossyJsonError as exc:
                raise _lossy_arguments(exc) from None
            if earlier is not None:
                await earlier.wait()  # the calls made before this one are queued
            ticket = self._enqueue(name, dispatched, logged)
        finally:
            place.set()
        with contextlib.suppress(JobAbandoned, _NotLogged):  # answered by _answer_of
            await ticket.result()
        return self._answer_of(name, ticket)

    def _reserve(self) -> tuple[anyio.Event | None, anyio.Event]:
        """A place in call order: the event of the call before (if still open), and this one's."""
        earlier = self._last_place
        place = self._last_place = anyio.Event()
        return (earlier if earlier is not None and not earlier.is_set() else None), place

    def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
        """Take a call from the bridge; answer it as the sub-call's commit returns.

        The answer is written from the scheduler's worker, in the step that
        committed the sub-call, before its settle-log append: no task of the
        bridge's waits for it. Arguments too large to copy on the event loop
        are left to :meth:`call_tool`, which copies them in a thread; so is a
        call made while such a copy is in progress, to keep call order. A call
        declined (``False``) must be handed to :meth:`call_tool` with the same
        arguments object: its place in call order is held for it.
        """
        waiting = self._last_place is not None and not self._last_place.is_set()
        if self._log is None:
            if waiting or not fits_inline(args):
                self._reserved[id(args)] = self._reserve()
                return False
            floor = 0
        else:
            floor, inline = (0, False) if waiting else measure_arguments(args)
            if not inline:
                # Copied in a thread by call_tool, or queued behind a call that
                # is: its place in call order is taken now, as the frame arrives.
                self._reserved[id(args)] = self._reserve()
                return False
        try:
            self._refuse_when_over(name)
            self._refuse_when_spent(name, floor)
            try:
                dispatched, logged = _snapshots(args, self._log is not None)
            except LossyJsonError as exc:
                raise _lossy_arguments(exc) from None
            ticket = self._enqueue(name, dispatched, logged)
        except ToolCallFailed as failure:
            reply.failure(failure)
            return True
        reply.on_cancel(ticket.withdraw)
        ticket.add_done_callback(partial(self._answer, name, ticket, reply))
        return True

    def _refuse_when_over(self, name: str) -> None:
        over = self._over()
        if over is not None:
            # After the outer abort or the program's settlement nothing is
            # dispatched, and the refused call uses no number.
            raise ToolCallFailed(f"run_code run is over ({over}); {name} not dispatched")

    def _refuse_when_spent(self, name: str, floor: int) -> None:
        """Refuse a call that cannot fit in what the run may still persist, before any copy.

        ``floor`` is a floor of its arguments' JSON size (``measure_arguments``).
        """
        if self._log_budget is not None:
            self._log_budget.refuse_when_spent(name, floor, self._next_id())

    def _enqueue(
        self, name: str, dispatched: JsonValue, logged: LoggedArguments | None
    ) -> Ticket[ToolResult]:
        """Number the call and queue it on the run's scheduler (made by the first call).

        Raises:
            ToolCallFailed: the call is over quota, or its events would not fit
                in the run's budget (it uses no number).
        """
        log_budget = self._log_budget
        if log_budget is not None and logged is not None:
            log_budget.admit(name, self._next_id(), logged)
        refusal = self._quota.admit(name)
        if refusal is not None:
            if log_budget is not None and logged is not None:
                log_budget.release(logged)
            raise ToolCallFailed(refusal, code=QUOTA_EXCEEDED)
        sub_call_id = self._next_id()
        self._count += 1
        job = _SubCall(self, sub_call_id, name, dispatched, logged)
        scheduler = self._scheduler
        if scheduler is None:
            scheduler = self._jobs()
        return scheduler.enqueue(job)

    def _answer_of(self, name: str, ticket: Ticket[ToolResult]) -> JsonValue:
        """What the program gets for a finished sub-call: its value.

        Raises:
            ToolCallFailed: the call failed, was abandoned, or its run is over.
        """
        try:
            result = ticket.outcome()
        except JobAbandoned as exc:
            raise ToolCallFailed(
                f"run_code run is over ({exc.reason}); {name} tool call abandoned"
            ) from None
        except _NotLogged as exc:
            raise ToolCallFailed(
                f"{name} not dispatched: the session log could not record its start ({exc})",
                code=LOG_WRITE_FAILED,
            ) from None
        over = self._over()
        if over is not None:
            # The run ended while this call was in flight: the program is being
            # stopped, so it gets no result from a run that is over.
            raise ToolCallFailed(f"run_code run is over ({over}); {name} result discarded")
        if result.is_error:
            info = result.error.info
            raise ToolCallFailed(
                result.error.message,
                code=info.code if info else None,
                exception_type=result.error.exception_type,
            )
        # The pipeline's frozen, checked value: the bridge encodes it as it is.
        return result.value

    def _answer(self, name: str, ticket: Ticket[ToolResult], reply: CallReply) -> None:
        try:
            value = self._answer_of(name, ticket)
        except ToolCallFailed as failure:
            reply.failure(failure)
        except Exception as exc:
            reply.crashed(exc)
        else:
            reply.value(value)

    def _jobs(self) -> Scheduler:
        """Make and open the run's scheduler and settle-log appends (the first call does).

        Synchronous, so two calls arriving together cannot both make one. A
        run signal already aborted closes the new scheduler at once, so the
        call that made it is abandoned, as it would be by an open one.
        """
        settle_logs = self._settle_logs = SettleLogs(limit=self._max_parallel)
        scheduler = self._scheduler = Scheduler(
            max_parallel=self._max_parallel, after_commit=settle_logs.wait_for_room, shield=True
        )
        scheduler.open()
        # The run's side work is the scheduler's, whose exit waits for the
        # appends too (a task group of their own cost its scopes and a loop
        # iteration on every run).
        settle_logs.attach(scheduler)
        # Once the run signal aborts (the outer call was aborted, or the
        # program settled), no queued sub-call may start any more.
        run_signal = self.run_signal
        run_signal.on_abort(lambda: scheduler.close(run_signal.reason or SETTLED))
        return scheduler

    async def settle(self, error: BaseException | None) -> None:
        """End the run: abort the run signal, then settle whatever the calls started.

        ``error`` is what ends the ``dispatching`` block, if anything: the
        scheduler is left with it, as an ``async with`` around the block would
        be (its side work is cancelled; its started sub-calls, shielded, are not).
        """
        self.run_signal.abort(SETTLED)
        scheduler, settle_logs = self._scheduler, self._settle_logs
        if scheduler is None or settle_logs is None:
            # No call was made: nothing queued, started or to append.
            self.stop_stages()
            return
        try:
            if scheduler.in_flight or settle_logs.pending:
                with anyio.CancelScope(shield=True):
                    with anyio.move_on_after(SETTLE_GRACE_SECONDS):
                        await scheduler.settle(SETTLED)
                        await settle_logs.wait_for_room(0)
                    # What still runs ignores the aborted signal: stop it, so
                    # that every started call commits and is logged.
                    self.stop_stages()
                    await scheduler.settle(SETTLED)
            else:
                # Nothing started and nothing to append (the aborted run
                # signal closed the scheduler): no settlement to wait for.
                self.stop_stages()
        except BaseException as exc:
            error = exc
            raise
        finally:
            try:
                await scheduler.__aexit__(
                    None if error is None else type(error),
                    error,
                    None if error is None else error.__traceback__,
                )
            finally:
                self._close_unsettled()

    def _close_unsettled(self) -> None:
        """Settle, as ``ABORTED`` and at once, every started sub-call that has no settle yet.

        Only a sub-call whose job never reached its commit or a failing stage
        (its worker was cancelled: the event loop closing) is left here; its
        settle event is appended now, before the run's root call can be answered.
        """
        while self._unsettled:
            sub_call_id, job = self._unsettled.popitem()
            job._open = False
            result = aborted(before_dispatch=False)
            self.records.append(SubCallRecord(sub_call_id, job._name, True))
            if self._log is not None:
                assert job._logged is not None
                self._append_settle(sub_call_id, job._name, job._logged, result, result.content)

    # -- pieces used by _SubCall ------------------------------------------------

    def _call_input(self, sub_call_id: str, name: str, arguments: JsonValue) -> CallInput:
        outer = self._outer
        return CallInput(
            call_id=sub_call_id,
            root_call_id=outer.root_call_id,
            name=name,
            arguments=arguments,
            agent=outer.agent,
            parent=outer.token,
            signal=self.run_signal,
        )

    def stage(self) -> _Stage:
        """A scope around one stage of a sub-call, cancelled only by :meth:`stop_stages`.

        Shielded: when the task running ``run_code`` is cancelled, a started
        sub-call sees the aborted run signal instead and still commits.
        """
        return _Stage(self)

    def stop_stages(self) -> None:
        """Cancel every stage still running, and every one that begins from now on."""
        self._stopped = True
        for scope in tuple(self._stages):
            scope.cancel()

    def _next_id(self) -> str:
        """The id the next admitted call gets."""
        return f"{self._outer.call_id}:code:{self._count + 1}"

    def _log_failed(self, what: str, sub_call_id: str, exc: Exception) -> str:
        reason = f"{type_name(exc)}: {safe_str(exc, 300)}"
        self.log_failures.append(f"{what} of {sub_call_id} ({reason})")
        _log.error("could not append the %s event of %s", what, sub_call_id, exc_info=exc)
        return reason

    def _log_start(self, sub_call_id: str, name: str, logged: LoggedArguments | None) -> None:
        if self._log is None:
            return
        assert logged is not None
        assert self._log_budget is not None  # made with the log
        try:
            self._log.append(
                CodeDispatchStartEvent(
                    root_call_id=self._outer.root_call_id,
                    parent_call_id=self._outer.call_id,
                    sub_call_id=sub_call_id,
                    name=name,
                    arguments=logged.value,
                )
            )
        except Exception as exc:
            # A call whose start cannot be recorded is not dispatched: nothing
            # may run that the log does not show.
            self._log_budget.release(logged)
            reason = self._log_failed("tool/code-dispatch-start", sub_call_id, exc)
            raise _NotLogged(reason) from exc

    def _settled(
        self, sub_call_id: str, name: str, logged: LoggedArguments | None, result: ToolResult
    ) -> None:
        self.records.append(SubCallRecord(sub_call_id, name, result.is_error))
        self.contexts.extend(result.additional_contexts)
        if not result.is_error:
            if any(isinstance(block, ImageBlock) for block in result.content):
                self.contexts.append(
                    ContextMessage(content=result.content, source=IMAGE_CONTEXT_SOURCE)
                )
            if result.concludes_turn:
                self.concludes_turn = True
        if self._log is not None:
            assert logged is not None
            # Only a job commits, and the first call made the appends' home.
            settle_logs = self._settle_logs
            assert settle_logs is not None
            if self._registry.hooks.listeners(
                "code_dispatch_log", self._outer.agent
            ) or self._measured_off_loop(result.content):
                settle_logs.spawn(self._log_settle, sub_call_id, name, logged, result)
            else:
                # Nothing to shape the content: the append does not wait, and
                # needs no task of its own.
                settle_logs.soon(
                    self._append_settle, sub_call_id, name, logged, result, result.content
                )

    async def _log_settle(
        self, sub_call_id: str, name: str, logged: LoggedArguments, result: ToolResult
    ) -> None:
        assert self._log is not None
        dispatch = CodeDispatchLog(
            execution=self._outer,
            agent=self._outer.agent,
            sub_call_id=sub_call_id,
            name=name,
            is_error=result.is_error,
            content=result.content,
            budget=self.budget,
        )
        content = result.content
        if not self._registry.hooks.listeners("code_dispatch_log", self._outer.agent):
            await self._append_measured(sub_call_id, name, logged, result, content)
            return
        with self.stage() as scope:
            before = cancel_requests()
            try:
                try:
                    content = await self._registry.hooks.run_code_dispatch_log(dispatch)
                finally:
                    # A listener that cancelled its own (this) task: withdrawn, so
                    # that the settle below is still appended.
                    if cancel_requests() > before:
                        await withdraw_self_cancel(before, scope_cancelled)
            except BaseException as exc:
                # Only a cancellation the host asked for (this stage's scope, or
                # one around it) propagates; the listener's own is its failure.
                if is_cancellation(exc, scope_cancelled):
                    raise
                _log.warning(
                    "a code-dispatch-log listener failed for %s; logging the original content",
                    sub_call_id,
                    exc_info=True,
                )
        if scope.cancelled_caught:
            _log.warning(
                "a code-dispatch-log listener for %s outlived the settled run; "
                "logging the original content",
                sub_call_id,
            )
        await self._append_measured(sub_call_id, name, logged, result, content)

    def _measured_off_loop(self, content: Sequence[ContentBlock]) -> bool:
        """Whether the budget check of a settle event with ``content`` measures it off the loop."""
        budget = self._log_budget
        return (
            budget is not None
            and budget.measures_content
            and content_chars(content) > INLINE_TEXT
        )

    async def _append_measured(
        self,
        sub_call_id: str,
        name: str,
        logged: LoggedArguments,
        result: ToolResult,
        content: Sequence[ContentBlock],
    ) -> None:
        """Append the settle event, a long content measured in a worker thread first.

        A content is the tool's rendering of its value (or a listener's), and
        no frame or value cap bounds it: its size and SHA-256 are taken a chunk
        at a time in a worker thread, so the loop never encodes or hashes more
        than :data:`INLINE_TEXT` characters of it before the budget is known.
        What is then appended is within the run's budget (or the cut copy).
        """
        measured: ContentMeasure | None = None
        if self._measured_off_loop(content):
            try:
                measured = await anyio.to_thread.run_sync(measure_content, tuple(content))
            except Exception:
                # Only a MemoryError can get here (the measure reads nothing but
                # the content's strings): the append measures on its own path, so
                # the settle event is still written, whatever it costs.
                measured = None
        self._append_settle(sub_call_id, name, logged, result, content, measured)

    def _append_settle(
        self,
        sub_call_id: str,
        name: str,
        logged: LoggedArguments,
        result: ToolResult,
        content: Sequence[ContentBlock],
        measured: ContentMeasure | None = None,
    ) -> None:
        assert self._log is not None
        event = CodeDispatchEvent(
            root_call_id=self._outer.root_call_id,
            parent_call_id=self._outer.call_id,
            sub_call_id=sub_call_id,
            name=name,
            arguments=logged.value,
            is_error=result.is_error,
            content=tuple(content),
            error=result.error.info if result.is_error else None,
        )
        try:
            if self._log_budget is not None:
                event = self._log_budget.within_budget(event, logged, measured)
            self._log.append(event)
        except Exception as exc:
            # Side work after the program has its value: a store that fails
            # (a full disk, a closed log) must not crash the run, and is
            # reported by run_code once the program settles.
            self._log_failed("tool/code-dispatch", sub_call_id, exc)
        finally:
            forget_arguments(logged.value)


@final
class dispatching:
    """Serve the tool calls of one ``run_code`` execution while the block runs the program.

    The run signal (``dispatcher.run_signal``) follows the outer call's signal
    and is every sub-call's caller signal. Leaving the block settles the run,
    whatever the outcome: the run signal aborts with :data:`SETTLED` (calls
    arriving later are refused), queued calls are abandoned, every started
    call commits (waited for shielded, so even a cancelled caller leaves no
    sub-call running), and every settle-log append finishes. Every dispatch
    event is therefore appended before the block exits.

    A plain async context manager rather than a generator one: every run
    enters one, and ``contextlib``'s wrapper (a generator, its frames and the
    wrapper's own calls) was work each trivial run paid for nothing. Each
    instance serves one block.
    """

    __slots__ = ("_dispatcher", "_dispose", "_log", "_outer", "_quotas", "_registry")

    def __init__(
        self,
        *,
        registry: Registry,
        outer: ToolRunContext,
        log: SessionLog | None,
        quotas: Quotas,
    ) -> None:
        self._registry = registry
        self._outer = outer
        self._log = log
        self._quotas = quotas
        self._dispatcher: SubDispatcher | None = None
        self._dispose: Callable[[], None] | None = None

    async def __aenter__(self) -> SubDispatcher:
        if self._dispose is not None:
            raise RuntimeError("a dispatching block is entered once")
        outer = self._outer
        run_signal = AbortSignal()
        dispose = outer.signal.on_abort(
            lambda: run_signal.abort(outer.signal.reason or "aborted")
        )
        try:
            dispatcher = SubDispatcher(
                registry=self._registry,
                outer=outer,
                run_signal=run_signal,
                log=self._log,
                quotas=self._quotas,
            )
        except BaseException:
            dispose()
            raise
        self._dispose = dispose
        self._dispatcher = dispatcher
        return dispatcher

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        dispatcher, dispose = self._dispatcher, self._dispose
        assert dispatcher is not None
        assert dispose is not None
        self._dispatcher = None
        try:
            await dispatcher.settle(exc)
        finally:
            dispose()


@final
class _SubCall(PipelineJob):
    """One sub-call as a scheduler job: logged start, concurrent run, settled commit.

    A stage stopped after the grace (see :meth:`SubDispatcher.stop_stages`)
    settles the sub-call as aborted; the pipeline handles it (``begin``'s
    ``stop``).
    """

    __slots__ = ("_d", "_id", "_logged", "_name", "_open")

    def __init__(
        self,
        dispatcher: SubDispatcher,
        sub_call_id: str,
        name: str,
        dispatched: JsonValue,
        logged: LoggedArguments | None,
    ) -> None:
        call = dispatcher._call_input(sub_call_id, name, dispatched)
        # Each stage that may wait runs in a scope the dispatcher can stop.
        super().__init__(dispatcher._registry, call, stop=dispatcher.stage)
        self._d = dispatcher
        self._id = sub_call_id
        self._name = name
        self._logged = logged
        self._open = False  # started (its start event logged) and not yet settled

    async def start(self) -> None:
        self._d._log_start(self._id, self._name, self._logged)
        # From here on the sub-call settles on every path: through its commit,
        # its failure (below), or the dispatcher's sweep as the run ends.
        self._open = True
        self._d._unsettled[self._id] = self
        try:
            await super().start()
        except BaseException as exc:
            self.settle_failed(exc)
            raise

    async def run(self) -> None:
        try:
            await super().run()
        except BaseException as exc:
            self.settle_failed(exc)
            raise

    async def commit(self) -> ToolResult:
        try:
            result = await super().commit()
        except BaseException as exc:
            self.settle_failed(exc)
            raise
        self.settle(result)
        return result

    def settle(self, result: ToolResult) -> None:
        """Record the sub-call's outcome and log its settle event (once)."""
        if not self._open:
            return
        self._open = False
        self._d._unsettled.pop(self._id, None)
        self._d._settled(self._id, self._name, self._logged, result)

    def settle_failed(self, exc: BaseException) -> None:
        """Settle a sub-call whose stage raised: ``ABORTED`` if cancelled, else its failure."""
        if is_cancellation(exc):
            self.settle(aborted(before_dispatch=False))
        else:
            self.settle(from_exception(exc))


@final
class _Stage:
    """The context of :meth:`SubDispatcher.stage`: its scope, kept among the stages to stop.

    A class rather than a generator-based context manager: every sub-call
    enters one, and the generator's machinery cost more than the scope.
    """

    __slots__ = ("_dispatcher", "_scope")

    def __init__(self, dispatcher: SubDispatcher) -> None:
        self._dispatcher = dispatcher
        self._scope: anyio.CancelScope | None = None

    def __enter__(self) -> anyio.CancelScope:
        dispatcher = self._dispatcher
        # anyio.CancelScope looks the running backend up on every construction;
        # a run's stages all run on its one loop, so the backend's class, taken
        # from the first scope, makes the others.
        kind = dispatcher._scope_kind
        if kind is None:
            scope = anyio.CancelScope(shield=True)
            dispatcher._scope_kind = type(scope)
        else:
            scope = kind(shield=True)
        self._scope = scope
        if dispatcher._stopped:
            scope.cancel()
        dispatcher._stages.add(scope)
        try:
            return scope.__enter__()
        except BaseException:
            dispatcher._stages.discard(scope)
            raise

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> bool:
        scope = self._scope
        assert scope is not None
        try:
            return scope.__exit__(exc_type, exc, tb)
        finally:
            self._dispatcher._stages.discard(scope)


class _NotLogged(Exception):
    """The session log could not record a sub-call's start; it is not dispatched."""


def _lossy_arguments(exc: LossyJsonError) -> ToolCallFailed:
    return ToolCallFailed(f"tool arguments must be lossless JSON: {exc}")


def _snapshots(args: JsonValue, logged: bool) -> tuple[JsonValue, LoggedArguments | None]:
    """The dispatched snapshot and the logged one with its size (``None``: nothing is logged).

    The logged snapshot's JSON is encoded here, once: its size is charged to
    the run's budget, and the log store writes these bytes in both events.
    """
    dispatched = materialize(args, freeze=True, accept_tuples=True)
    if not logged:
        return dispatched, None
    copy = materialize(args, freeze=True, accept_tuples=True)
    return dispatched, LoggedArguments(copy, len(encode_arguments(copy)))

