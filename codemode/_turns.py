"""Running one model turn's tool calls, with the same scheduling contract as sub-calls.

The model's calls start in the order it made them; consecutive parallel-safe
calls overlap in a rolling pool (up to ``max_parallel``); an exclusive call is
a barrier through its commit; results come back in model order. Each call
logs ``tool/call`` when it starts and ``tool/result`` after its commit, so the
results are logged in model order too, and the log is synced at the end of
the turn.
"""

from __future__ import annotations

import dataclasses
import logging
from typing import TYPE_CHECKING, Final, final

import anyio
import msgspec

from bridge._decoding import INLINE_DECODE_BYTES, host_charge
from bridge.lossless import LossyJsonError

from ._errors import ToolArgsError
from ._execution import CallInput
from ._jobs import PipelineJob
from ._log import ModelToolCall, ToolCallEvent, check_event, result_event
from ._outcomes import aborted, from_exception, plain_failure
from ._results import safe_str, type_name
from ._scheduling import JobFailed, Scheduler

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._execution import ScopeKey
    from ._log import SessionLog
    from ._registry import Registry
    from ._results import ToolResult
    from ._scheduling import Mode
    from ._signal import AbortSignal

__all__ = ["ModelToolCall", "parse_arguments", "run_turn"]

_decoder = msgspec.json.Decoder()
_logger: Final = logging.getLogger("codemode")


#: The most a model call's arguments may cost the host once decoded
#: (:func:`bridge._decoding.host_charge`): the same as a run's tool data in flight.
MAX_ARGUMENTS_CHARGE: Final = 64 * 1024 * 1024


class _ArgumentsTooLarge:
    """Stands for arguments whose decoded value would cost more than the budget."""

    __slots__ = ("charge", "size")

    def __init__(self, size: int, charge: int) -> None:
        self.size = size
        self.charge = charge


def _parse_charged(text: str) -> object:
    """:func:`parse_arguments`, unless the text's decoded value would not fit the budget."""
    raw = text.encode("utf-8", "surrogatepass")
    charge = host_charge(raw)
    if charge > MAX_ARGUMENTS_CHARGE:
        return _ArgumentsTooLarge(len(raw), charge)
    return parse_arguments(text)


def parse_arguments(text: str) -> object:
    """The arguments a model's raw JSON string stands for.

    An empty string means ``{}``. Text that is not JSON is passed on as the
    string itself, so the tool rejects it as ``INVALID_ARGS`` and the model
    learns what was wrong instead of the turn failing. Numbers are kept as
    parsed: a lossy one (an integer beyond 2**53) is refused by the pipeline
    with its path.
    """
    if text == "" or text.isspace():
        return {}
    try:
        return _decoder.decode(text)
    except (msgspec.DecodeError, RecursionError):
        return text


@final
class _TurnCall(PipelineJob):
    """One model call as a scheduler job: log and prepare, run, commit and log."""

    __slots__ = (
        "_answered", "_call", "_call_seq", "_deferred", "_log", "_refused", "_step", "_turn",
    )

    def __init__(
        self,
        registry: Registry,
        call: ModelToolCall,
        *,
        agent: ScopeKey | None,
        signal: AbortSignal,
        log: SessionLog | None,
        turn: int,
        step: int,
        scheduler: Scheduler,
    ) -> None:
        # Short text is decoded here, on the loop; longer text in start(), in a
        # worker thread and only once its decoded cost is known to fit.
        deferred = len(call.arguments) > INLINE_DECODE_BYTES
        arguments = None if deferred else parse_arguments(call.arguments)
        self._deferred = deferred
        super().__init__(
            registry,
            CallInput(call.call_id, call.name, arguments, signal, agent=agent),
            # A CancelledError is the turn's cancellation only once the
            # scheduler cancels its workers (its caller was cancelled).
            asked=scheduler.cancelling,
        )
        self._call = call
        self._log = log
        self._turn = turn
        self._step = step
        self._call_seq: int | None = None
        # Why the call's tool/call could not be appended (then nothing runs for it).
        self._refused: Exception | None = None
        self._answered = False  # its tool/result is appended

    async def start(self) -> None:
        if self._log is not None:
            try:
                event = self._log.append(
                    ToolCallEvent(
                        turn=self._turn,
                        step=self._step,
                        call_id=self._call.call_id,
                        name=self._call.name,
                        arguments=self._call.arguments,
                    )
                )
            except Exception as exc:
                # Another writer of the log took the id since the turn's check
                # (or the store failed): this call alone fails, and nothing runs.
                self._refused = exc
                return
            self._call_seq = event.seq
        if self._deferred:
            self._deferred = False
            parsed = await anyio.to_thread.run_sync(
                _parse_charged, self._call.arguments, abandon_on_cancel=True
            )
            if isinstance(parsed, _ArgumentsTooLarge):
                self._refused = ToolArgsError(
                    [f"the arguments are {parsed.size} bytes of JSON that would cost the host "
                     f"about {parsed.charge} bytes once decoded, over the limit of "
                     f"{MAX_ARGUMENTS_CHARGE}; send smaller arguments"]
                )
                return
            self._input = dataclasses.replace(self._input, arguments=parsed)
        await super().start()

    def mode(self) -> Mode:
        # Arguments not decoded yet are never walked on the loop: running alone is always correct.
        return "exclusive" if self._deferred else super().mode()

    async def run(self) -> None:
        if self._refused is None:
            await super().run()

    async def commit(self) -> ToolResult:
        refused = self._refused
        if isinstance(refused, ToolArgsError):
            failure = from_exception(refused)
            self._answer(failure)
            return failure
        if refused is not None:
            return plain_failure(
                f"call {self._call.call_id!r} was not run: its tool/call event could not be "
                f"logged ({type_name(refused)}: {safe_str(refused, 300)})"
            )
        result = await super().commit()
        self._answer(result)
        return result

    def _answer(self, result: ToolResult) -> None:
        """Append the call's tool/result (once, and only after its tool/call)."""
        if self._log is None or self._call_seq is None or self._answered:
            return
        self._answered = True
        self._log.append(
            result_event(
                result,
                turn=self._turn,
                step=self._step,
                call_id=self._call.call_id,
                name=self._call.name,
                source_event_seqs=(self._call_seq,),
            )
        )

    def abandon(self) -> None:
        """Log an ``ABORTED`` tool/result if the call's tool/call is logged and unanswered."""
        if self._answered or self._call_seq is None:
            return
        try:
            self._answer(aborted(before_dispatch=False))
        except Exception:
            _logger.exception("could not log the tool/result of call %r", self._call.call_id)

    def failed(self, exc: Exception) -> ToolResult:
        """The call's result when its job ended in ``exc``; its tool/result if still owed."""
        cause = exc.__cause__ if type(exc) is JobFailed and exc.__cause__ is not None else exc
        result = from_exception(cause)
        if not self._answered:
            try:
                self._answer(result)
            except Exception:
                # The log refuses it or its store failed: reopening the log closes the call.
                _logger.exception(
                    "could not log the tool/result of call %r", self._call.call_id
                )
        return result


_SUB_CALL_MARK = ":code:"


def _check_loggable(index: int, call: ModelToolCall, *, turn: int, step: int) -> None:
    """Refuse a call whose ``tool/call`` event no store would accept, naming the field."""
    probe = ToolCallEvent(
        turn=turn, step=step, call_id=call.call_id, name=call.name, arguments=call.arguments,
        time=0.0,
    )
    try:
        check_event(probe)
    except LossyJsonError as exc:
        field = exc.path.removeprefix("$.")
        if field in ("turn", "step"):
            raise ValueError(
                f"{field}={_shown(getattr(probe, field))}: {exc.reason}; nothing has run"
            ) from None
        which = "" if field == "call_id" else f" (call_id {_shown(call.call_id)})"
        raise ValueError(
            f"calls[{index}].{field}{which} cannot be logged: {exc.reason}; nothing has run "
            "(answer the model with an error of your own, or repair the text)"
        ) from None


def _shown(value: object, limit: int = 80) -> str:
    """``value`` for an error message: its repr in ASCII, cut to ``limit`` characters.

    Only a builtin's repr is called: a subclass's ``__repr__`` is arbitrary code.
    """
    if type(value) is str:
        # Cut before quoting: the quoted form of a character can be ten characters.
        text = ascii(value[:limit])
    elif type(value) in (int, bool):
        text = ascii(value)
    else:
        text = f"<{type(value).__name__}>".encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sub_call_owner(call_id: str, ids: dict[str, int], lengths: frozenset[int]) -> int | None:
    """The index of the turn's call whose sub-calls' ids ``call_id`` has the form of, if any.

    A sub-call's id is ``<parent>:code:<n>`` and a nested run's parent is a
    sub-call, so the owners ``call_id`` can name are what precedes each
    ``:code:<digits>`` of its all-digit tail, read from the right (one pass).
    Only a head whose length is the length of one of the turn's ids
    (``lengths``) is looked up, so what the check slices and hashes is at
    most the turn's ids once, never one copy of ``call_id`` per mark in it (a
    model's id is untrusted text).
    """
    end = len(call_id)
    at = call_id.rfind(_SUB_CALL_MARK)
    while at >= 0:
        digits = call_id[at + len(_SUB_CALL_MARK) : end]
        if not (digits.isascii() and digits.isdigit()):
            return None
        if at in lengths:
            owner = ids.get(call_id[:at])
            if owner is not None:
                return owner
        end = at
        at = call_id.rfind(_SUB_CALL_MARK, 0, end)
    return None


async def run_turn(
    registry: Registry,
    calls: Sequence[ModelToolCall],
    *,
    agent: ScopeKey | None,
    signal: AbortSignal,
    log: SessionLog | None,
    turn: int,
    step: int = 0,
    max_parallel: int = 10,
) -> list[ToolResult]:
    """Run the tool calls of one model response; return their results in model order.

    Each call goes through the registry's full pipeline as a model-direct call
    (no parent). Scheduling: calls start in model order, each classified by
    ``registry.execution_mode`` just before it starts; consecutive
    parallel-safe calls overlap, at most ``max_parallel`` at once; an
    exclusive call runs alone and holds the barrier through its commit. A call
    whose turn comes after ``signal`` aborted still gets a result
    (``ABORTED_BEFORE_DISPATCH``).

    With a ``log``, each call appends ``tool/call`` when it starts and
    ``tool/result`` after its commit (``source_event_seqs`` = the call event's
    ``seq``), and the log is synced when the turn ends.

    Args:
        registry: the registry to execute the calls on.
        calls: the model's calls, in the order it made them.
        agent: the scope the calls run for.
        signal: the caller's cancellation signal, shared by every call.
        log: where to record the turn, or ``None``.
        turn: the turn number recorded in the events.
        step: the model step within the turn recorded in the events.
        max_parallel: how many parallel-safe calls may overlap (>= 1).

    Raises:
        ValueError: ``max_parallel`` is not a positive integer, or the turn
            cannot be logged whole (nothing has run): two calls share a
            ``call_id``; a call's ``call_id``, ``name`` or ``arguments``
            cannot be logged (a lone surrogate, or not a ``str``), with or
            without a ``log``; a call's id is that of a call still open in
            ``log``, or one a sub-call of another call of the turn would get
            (``<call id>:code:<n>``).
        TypeError: an item of ``calls`` is not a :class:`ModelToolCall`.
    """
    jobs: list[_TurnCall] = []
    scheduler = Scheduler(max_parallel=max_parallel)
    first_use: dict[str, int] = {}
    # Every check comes before any call starts: a turn refused halfway would
    # leave calls that ran and a caller with no results to show for them.
    for index, call in enumerate(calls):
        if not isinstance(call, ModelToolCall):
            raise TypeError(
                f"calls[{index}] must be a ModelToolCall, got {type(call).__name__}"
            )
        _check_loggable(index, call, turn=turn, step=step)
        # A call's id names it in the log and prefixes its sub-calls' ids
        # (`<id>:code:<n>`): two calls with one id would log as one.
        earlier = first_use.setdefault(call.call_id, index)
        if earlier != index:
            raise ValueError(
                f"calls[{index}].call_id {_shown(call.call_id)} is also the id of "
                f"calls[{earlier}]; "
                "each call of a turn needs its own id (answer the model's duplicate with an "
                "error of your own, or give it a fresh id)"
            )
        if log is not None:
            problem = log.call_problem(call.call_id)
            if problem is not None:
                raise ValueError(
                    f"calls[{index}].call_id {_shown(call.call_id)} cannot be logged: {problem}; "
                    "nothing has run"
                )
    lengths = frozenset(map(len, first_use))
    for index, call in enumerate(calls):
        owner = _sub_call_owner(call.call_id, first_use, lengths)
        if owner is not None:
            raise ValueError(
                f"calls[{index}].call_id {_shown(call.call_id)} is an id a sub-call of "
                f"calls[{owner}] ({_shown(calls[owner].call_id)}) would get; give it an id of its "
                "own (nothing has run)"
            )
        jobs.append(
            _TurnCall(
                registry,
                call,
                agent=agent,
                signal=signal,
                log=log,
                turn=turn,
                step=step,
                scheduler=scheduler,
            )
        )
    results: list[ToolResult] = []
    try:
        async with scheduler:
            # Queue every call before awaiting any, so model order is submission order.
            tickets = [scheduler.enqueue(job) for job in jobs]
            for job, ticket in zip(jobs, tickets, strict=True):
                try:
                    result = await ticket.result()
                except Exception as exc:
                    # Whatever happened to this call (a stage that raised, a log
                    # that refused its events, a job abandoned) is its own error
                    # result: the caller gets a result for every call.
                    result = job.failed(exc)
                results.append(result)
    except BaseException:
        # The turn itself was cancelled (or failed): every call whose tool/call
        # is logged still gets its tool/result, so the log answers every call
        # its writer started while that writer lives.
        for job in jobs:
            job.abandon()
        raise
    if log is not None:
        log.sync()
    return results
