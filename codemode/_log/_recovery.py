"""Closing what a writer that stopped left open, when its log is opened again.

A writer that dies (a crash, ``SIGKILL``, a lost machine) can leave a root
call's ``tool/call`` without its ``tool/result`` and a sub-call's
``tool/code-dispatch-start`` without its ``tool/code-dispatch``. Such a record
would stay ``pending`` for ever, keep its ids taken, and break the promise
that every started sub-call has one settle event. So :class:`OpenRecords`
follows a store's history as it is read, and :meth:`OpenRecords.closing_events`
gives the events that close it: a settle event for each unsettled start of an
open root (the deepest first), then the root's ``tool/result``. Each is an
``ABORTED`` failure whose text says the call was abandoned; whether its body
ran is not known, which is what ``ABORTED`` (rather than
``ABORTED_BEFORE_DISPATCH``) says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

from bridge.lossless import LossyJsonError, materialize

from .._errors import ABORTED
from .._results import ErrorInfo, TextBlock
from ._events import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ToolCallEvent,
    ToolResultEvent,
)

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

    from ._events import Event

__all__ = [
    "ABANDONED",
    "ABANDONED_ERROR",
    "UNSETTLED_AT_RESULT",
    "OpenRecords",
    "settle_as_aborted",
]

#: The message of every event that closes a call a stopped writer left open.
ABANDONED: Final = "abandoned: the writer stopped before it finished"

#: Their error identity: the code of a call aborted after its start was logged.
ABANDONED_ERROR: Final = ErrorInfo(name="AbortError", code=ABORTED)

#: The message of a settle the log appends itself, for a sub-call still open
#: when its root call's ``tool/result`` is appended.
UNSETTLED_AT_RESULT: Final = (
    "abandoned: the root call's result was logged before this sub-call settled"
)

_CONTENT: Final = (TextBlock(text=f"Error: {ABANDONED}"),)


def _loggable(arguments: JsonValue) -> JsonValue:
    """A start's arguments for its closing event; ``None`` if they cannot be logged again.

    A line another program wrote may hold what this version's writer never
    does (``-0.0``, an int past 2**53); the start keeps it, and the log
    still opens.
    """
    try:
        materialize(arguments, accept_tuples=True)
    except LossyJsonError:
        return None
    return arguments


@final
class OpenRecords:
    """The open root calls of a history and the unsettled starts under each, in log order."""

    __slots__ = ("_calls", "_orphans", "_starts")

    def __init__(self) -> None:
        self._calls: dict[str, ToolCallEvent] = {}
        self._starts: dict[str, dict[str, CodeDispatchStartEvent]] = {}
        # Starts left unsettled under a root that did get its tool/result.
        self._orphans: dict[str, CodeDispatchStartEvent] = {}

    def record(self, event: Event) -> None:
        """Take one event of the history (already admitted by the invariants) into account."""
        if isinstance(event, ToolCallEvent):
            self._calls.pop(event.call_id, None)  # a repeated id counts from its latest call
            self._calls[event.call_id] = event
        elif isinstance(event, ToolResultEvent):
            self._calls.pop(event.call_id, None)
            # A writer that answered the root without settling all of its
            # sub-calls: those starts are closed too (the invariants admit it).
            self._orphans.update(self._starts.pop(event.call_id, {}))
        elif isinstance(event, CodeDispatchStartEvent):
            self._starts.setdefault(event.root_call_id, {})[event.sub_call_id] = event
        elif isinstance(event, CodeDispatchEvent):
            unsettled = self._starts.get(event.root_call_id)
            if unsettled is not None and event.sub_call_id in unsettled:
                del unsettled[event.sub_call_id]
            else:
                orphan = self._orphans.get(event.sub_call_id)
                if orphan is not None and orphan.root_call_id == event.root_call_id:
                    del self._orphans[event.sub_call_id]

    def __len__(self) -> int:
        """How many records are open: root calls and unsettled sub-calls."""
        return (
            len(self._calls)
            + len(self._orphans)
            + sum(len(self._starts.get(root, ())) for root in self._calls)
        )

    def closing_events(self) -> list[Event]:
        """The events that close every open record: settles (latest start first), then results.

        The unsettled starts of roots already answered come first.
        """
        closing: list[Event] = [
            settle_as_aborted(start) for start in reversed(self._orphans.values())
        ]
        for call_id, call in self._calls.items():
            for start in reversed(list(self._starts.get(call_id, {}).values())):
                closing.append(settle_as_aborted(start))
            closing.append(
                ToolResultEvent(
                    turn=call.turn,
                    step=call.step,
                    call_id=call_id,
                    name=call.name,
                    is_error=True,
                    content=_CONTENT,
                    error=ABANDONED_ERROR,
                    source_event_seqs=(call.seq,),
                )
            )
        return closing


def settle_as_aborted(
    start: CodeDispatchStartEvent, message: str = ABANDONED
) -> CodeDispatchEvent:
    """The settle event that closes ``start`` as abandoned (``ABORTED``), saying ``message``."""
    content = _CONTENT if message is ABANDONED else (TextBlock(text=f"Error: {message}"),)
    return CodeDispatchEvent(
        root_call_id=start.root_call_id,
        parent_call_id=start.parent_call_id,
        sub_call_id=start.sub_call_id,
        name=start.name,
        arguments=_loggable(start.arguments),
        is_error=True,
        content=content,
        error=ABANDONED_ERROR,
    )
