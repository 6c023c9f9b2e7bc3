"""Running one model turn's tool calls, with the same scheduling contract as sub-calls.

The model's calls start in the order it made them; consecutive parallel-safe
calls overlap in a rolling pool (up to ``max_parallel``); an exclusive call is
a barrier through its commit; results come back in model order. Each call
logs ``tool/call`` when it starts and ``tool/result`` after its commit, so the
results are logged in model order too, and the log is synced at the end of
the turn.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final, final

import msgspec

from bridge.lossless import LossyJsonError

from ._execution import CallInput
from ._jobs import PipelineJob
from ._log import ModelToolCall, ToolCallEvent, check_event, result_event
from ._outcomes import from_exception, plain_failure
from ._results import safe_str, type_name
from ._scheduling import JobFailed, Scheduler

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._execution import ScopeKey
    from ._log import SessionLog
    from ._registry import Registry
    from ._results import ToolResult
    from ._signal import AbortSignal

__all__ = ["ModelToolCall", "parse_arguments", "run_turn"]

_decoder = msgspec.json.Decoder()
_logger: Final = logging.getLogger("codemode")


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

    __slots__ = ("_answered", "_call", "_call_seq", "_log", "_refused", "_step", "_turn")

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
        arguments = parse_arguments(call.arguments)
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
        await super().start()

    async def run(self) -> None:
        if self._refused is None:
            await super().run()

    async def commit(self) -> ToolResult:
        refused = self._refused
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
    if type(value) in (str, int, bool):
        text = ascii(value)
    else:
        text = f"<{type(value).__name__}>".encode("ascii", "backslashreplace").decode("ascii")
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _sub_call_owner(call_id: str, ids: dict[str, int]) -> int | None:
    """The index of the turn's call whose sub-calls' ids ``call_id`` has the form of, if any."""
    at = call_id.find(_SUB_CALL_MARK)
    while at >= 0:
        owner = ids.get(call_id[:at])
        if owner is not None:
            return owner
        at = call_id.find(_SUB_CALL_MARK, at + 1)
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
                f"calls[{index}].call_id {call.call_id!r} is also the id of calls[{earlier}]; "
                "each call of a turn needs its own id (answer the model's duplicate with an "
                "error of your own, or give it a fresh id)"
            )
        if log is not None:
            problem = log.call_problem(call.call_id)
            if problem is not None:
                raise ValueError(
                    f"calls[{index}].call_id {call.call_id!r} cannot be logged: {problem}; "
                    "nothing has run"
                )
    for index, call in enumerate(calls):
        owner = _sub_call_owner(call.call_id, first_use)
        if owner is not None:
            raise ValueError(
                f"calls[{index}].call_id {call.call_id!r} is an id a sub-call of "
                f"calls[{owner}] ({calls[owner].call_id!r}) would get; give it an id of its "
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
    if log is not None:
        log.sync()
    return results
