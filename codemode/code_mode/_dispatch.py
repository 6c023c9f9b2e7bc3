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
  as tracked side work (:class:`~._settle_logs.SettleLogs`): while more of
  these appends are pending than ``max_parallel_sub_calls``, the ordered lane
  waits, so a slow log listener cannot make pending results pile up without
  bound;
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

This module admits, numbers, queues, answers and settles the calls. The
dispatch events and the ``code-dispatch-log`` waterfall are
:mod:`codemode.code_mode._dispatch_events`, the sub-call as a scheduler job and
the stop scopes of its stages :mod:`codemode.code_mode._sub_call`, and the
bounded settle-log appends :mod:`codemode.code_mode._settle_logs`.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Final, final

import anyio
import anyio.abc
import anyio.to_thread

from bridge.lossless import JsonValue, LossyJsonError, materialize
from sandbox import ToolCallFailed

from .._errors import LOG_WRITE_FAILED, QUOTA_EXCEEDED
from .._execution import CallInput
from .._log import SessionLog, encode_arguments
from .._offload import fits_inline, sized
from .._outcomes import aborted
from .._results import ContextMessage, ImageBlock, ToolResult
from .._scheduling import JobAbandoned, Scheduler, Ticket
from .._signal import AbortSignal
from ._dispatch_events import DispatchEvents, _NotLogged
from ._persist import (
    LOG_PREVIEW_BYTES,
    LoggedArguments,
    SubCallLogBudget,
    measure_arguments,
)
from ._quotas import QuotaCounter, Quotas
from ._settle_logs import SettleLogs
from ._sub_call import _Stage, _SubCall

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import TracebackType

    from sandbox import CallReply

    from .._execution import ToolRunContext
    from .._registry import Registry

__all__ = [
    "LOG_PREVIEW_BYTES",
    "SETTLED",
    "SETTLE_GRACE_SECONDS",
    "SubCallRecord",
    "SubDispatcher",
    "dispatching",
]

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
@dataclass(frozen=True)
class SubCallRecord:
    """A dispatched sub-call, as the CLI and callers may list them."""

    id: str
    name: str
    is_error: bool


@final
class SubDispatcher(DispatchEvents):
    """Implements the sandbox's ``CallHandler`` for one ``run_code`` execution.

    Its layer :class:`~codemode.code_mode._dispatch_events.DispatchEvents`
    writes the session log's dispatch events; this class admits, numbers,
    queues, answers, stops and settles the calls.
    """

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
