"""Running one model turn's tool calls, with the same scheduling contract as sub-calls.

The model's calls start in the order it made them; consecutive parallel-safe
calls overlap in a rolling pool (up to ``max_parallel``); an exclusive call is
a barrier through its commit; results come back in model order. Each call
logs ``tool/call`` when it starts and ``tool/result`` after its commit, so the
results are logged in model order too, and the log is synced at the end of
the turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, final

import msgspec

from bridge.lossless import LossyJsonError

from ._execution import CallInput
from ._jobs import PipelineJob
from ._log import ModelToolCall, ToolCallEvent, check_event, result_event
from ._scheduling import Scheduler

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ._execution import ScopeKey
    from ._log import SessionLog
    from ._registry import Registry
    from ._results import ToolResult
    from ._signal import AbortSignal

__all__ = ["ModelToolCall", "parse_arguments", "run_turn"]

_decoder = msgspec.json.Decoder()


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

    __slots__ = ("_call", "_call_seq", "_log", "_step", "_turn")

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
    ) -> None:
        arguments = parse_arguments(call.arguments)
        super().__init__(
            registry, CallInput(call.call_id, call.name, arguments, signal, agent=agent)
        )
        self._call = call
        self._log = log
        self._turn = turn
        self._step = step
        self._call_seq: int | None = None

    async def start(self) -> None:
        if self._log is not None:
            event = self._log.append(
                ToolCallEvent(
                    turn=self._turn,
                    step=self._step,
                    call_id=self._call.call_id,
                    name=self._call.name,
                    arguments=self._call.arguments,
                )
            )
            self._call_seq = event.seq
        await super().start()

    async def commit(self) -> ToolResult:
        result = await super().commit()
        if self._log is not None:
            self._log.append(
                result_event(
                    result,
                    turn=self._turn,
                    step=self._step,
                    call_id=self._call.call_id,
                    name=self._call.name,
                    source_event_seqs=(self._call_seq,) if self._call_seq is not None else (),
                )
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
                registry, call, agent=agent, signal=signal, log=log, turn=turn, step=step
            )
        )
    results: list[Any] = []
    async with Scheduler(max_parallel=max_parallel) as scheduler:
        # Queue every call before awaiting any, so model order is submission order.
        tickets = [scheduler.enqueue(job) for job in jobs]
        for ticket in tickets:
            results.append(await ticket.result())
    if log is not None:
        log.sync()
    return results
