"""The durable events of a session, as frozen tagged msgspec Structs.

Every event carries ``seq`` (assigned by the store when it is appended; ``-1``
until then) and ``time`` (UNIX seconds, taken when the event is built). Field
names follow the reference events in snake_case. A tool's canonical value is
never part of an event: only the rendered content is durable.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Final, TypeAlias, final

import msgspec

from .._results import ContentBlock, ErrorInfo, ToolFailure, ToolResult

if TYPE_CHECKING:
    from bridge.lossless import JsonValue
else:
    # msgspec cannot resolve the recursive alias; at run time any JSON decodes.
    JsonValue = Any

__all__ = [
    "DISPATCH_EVENTS",
    "EVENT_KINDS",
    "UNASSIGNED",
    "CodeDispatchEvent",
    "CodeDispatchStartEvent",
    "Event",
    "ToolCallEvent",
    "ToolResultEvent",
    "result_event",
]

#: The ``seq`` of an event no store has appended yet.
UNASSIGNED: Final = -1


#: Where an event's ``time`` comes from (looked up on each event, so tests can stand in a clock).
_clock = time.time


def _now() -> float:
    return _clock()


class _Base(msgspec.Struct, frozen=True, kw_only=True, tag_field="kind"):
    seq: int = UNASSIGNED
    time: float = msgspec.field(default_factory=_now)


@final
class ToolCallEvent(_Base, frozen=True, kw_only=True, tag="tool/call"):
    """The model asked for a call; appended when the call starts.

    ``arguments`` is the model's raw JSON string, exactly as it arrived.
    """

    turn: int
    step: int
    call_id: str
    name: str
    arguments: str


@final
class ToolResultEvent(_Base, frozen=True, kw_only=True, tag="tool/result"):
    """A call's model-facing outcome; appended in model order after its commit.

    ``source_event_seqs`` holds the ``seq`` of the matching ``tool/call``.
    """

    turn: int
    step: int
    call_id: str
    name: str
    is_error: bool
    content: tuple[ContentBlock, ...]
    error: ErrorInfo | None = None
    meta: JsonValue | msgspec.UnsetType = msgspec.UNSET
    source_event_seqs: tuple[int, ...] = ()


@final
class CodeDispatchStartEvent(_Base, frozen=True, kw_only=True, tag="tool/code-dispatch-start"):
    """A ``run_code`` sub-call started (not merely queued).

    ``arguments`` is the normalised JSON value the tool received, not a string.
    """

    root_call_id: str
    parent_call_id: str
    sub_call_id: str
    name: str
    arguments: JsonValue


@final
class CodeDispatchEvent(_Base, frozen=True, kw_only=True, tag="tool/code-dispatch"):
    """A ``run_code`` sub-call settled; ``content`` is the logged (possibly reshaped) copy."""

    root_call_id: str
    parent_call_id: str
    sub_call_id: str
    name: str
    arguments: JsonValue
    is_error: bool
    content: tuple[ContentBlock, ...]
    error: ErrorInfo | None = None


Event: TypeAlias = ToolCallEvent | ToolResultEvent | CodeDispatchStartEvent | CodeDispatchEvent

#: The dispatch event types, as a tuple for ``isinstance``: a ``X | Y`` written in
#: the call builds the union on every call, and every append checks its event.
DISPATCH_EVENTS: Final = (CodeDispatchStartEvent, CodeDispatchEvent)

#: The ``kind`` tag of every event type this version reads.
EVENT_KINDS: Final = frozenset(
    {"tool/call", "tool/result", "tool/code-dispatch-start", "tool/code-dispatch"}
)


def result_event(
    result: ToolResult,
    *,
    turn: int,
    step: int,
    call_id: str,
    name: str,
    source_event_seqs: tuple[int, ...] = (),
) -> ToolResultEvent:
    """The ``tool/result`` event for ``result``: its content and error, never its value."""
    return ToolResultEvent(
        turn=turn,
        step=step,
        call_id=call_id,
        name=name,
        is_error=result.is_error,
        content=result.content,
        error=result.error.info if isinstance(result, ToolFailure) else None,
        meta=result.meta,
        source_event_seqs=source_event_seqs,
    )
