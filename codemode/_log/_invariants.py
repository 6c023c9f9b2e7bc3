"""The invariants a session log keeps for dispatch events, checked before each append.

A ``tool/code-dispatch-start`` or ``tool/code-dispatch`` event is admitted only

* with non-empty ``root_call_id``, ``parent_call_id`` and ``sub_call_id``;
* inside its root call's open turn: the root call's ``tool/call`` is logged and
  its ``tool/result`` is not yet (the log has no turn-start and turn-end events,
  so the root call's own span is the turn it belongs to);
* with a stable root: while its root call is open, a sub-call logged under
  it never names another;
* with a parent on its root's chain: the parent is the root itself or a
  sub-call already logged under that root.

An id names at most one open call at a time: a ``tool/call`` is refused
while its ``call_id`` is the id of an open call or of a sub-call logged under
one, and a dispatch event is refused when its ``sub_call_id`` is the id of an
open call.

So a replayed log always rebuilds one tree per root call, and no dispatch
event can land after the call it belongs to has been answered. Once a root
call's ``tool/result`` is logged, no dispatch event can name it again, so what
is kept about its sub-calls is dropped: the checks' memory grows with the
sub-calls of the open calls, not with the length of the session.

A closed call's id may name a new call: every dispatch event naming a root
falls between that root's latest ``tool/call`` and its ``tool/result``, and
no other open call has its id meanwhile, so replay (which attaches an event
to the latest call of its id) rebuilds each span's own tree. Refusing reuse
would mean remembering every id of the session, and model APIs that number
their calls per response reuse ids from turn to turn.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, final

from .._errors import CodemodeError
from ._events import (
    DISPATCH_EVENTS,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ToolCallEvent,
    ToolResultEvent,
)

if TYPE_CHECKING:
    from ._events import Event

__all__ = ["DispatchInvariants", "LogInvariantError", "kind_of"]


def kind_of(event: Event) -> str:
    """The ``kind`` tag of an event (``"tool/call"``, ...)."""
    return str(type(event).__struct_config__.tag)


class LogInvariantError(CodemodeError, ValueError):
    """An event would break the session log's invariants, so it was not appended.

    Attributes:
        kind: the event's kind, e.g. ``"tool/code-dispatch"``.
        problem: what is wrong, and what to do about it.
        seq: the event's ``seq`` when it was read from a store's history,
            ``None`` for an event being appended.
    """

    def __init__(self, kind: str, problem: str, *, seq: int | None = None) -> None:
        self.kind = kind
        self.problem = problem
        self.seq = seq
        where = "" if seq is None else f" (the log's event seq={seq})"
        super().__init__(f"{kind} event refused{where}: {problem}")


#: The most of an id a refusal quotes: ids are a model's text, of any length.
_ID_SHOWN: Final = 200


def _id(text: str) -> str:
    """``text`` as a refusal quotes it: whole when short, else its start and its length."""
    if len(text) <= _ID_SHOWN:
        return text
    return f"{text[:_ID_SHOWN]}… ({len(text)} characters)"


@final
class DispatchInvariants:
    """What a session log knows to check dispatch events: open calls and each sub-call's root."""

    __slots__ = ("_open", "_orphans", "_roots", "_sub_calls", "_unsettled")

    def __init__(self) -> None:
        self._open: set[str] = set()  # calls whose tool/call is logged and tool/result is not
        self._roots: dict[str, str] = {}  # sub-call id -> the open root it was logged under
        self._sub_calls: dict[str, list[str]] = {}  # open root -> its sub-calls, to forget
        # open root -> its sub-calls whose start is logged and settle is not
        self._unsettled: dict[str, dict[str, CodeDispatchStartEvent]] = {}
        # sub-call id -> its closed root, for a start its root's tool/result left unsettled
        # (a writer that lost it): its settle is still admitted, so that recovery closes it
        self._orphans: dict[str, str] = {}

    def __len__(self) -> int:
        """How many sub-calls the checks remember (those of the open root calls, and orphans)."""
        return len(self._roots) + len(self._orphans)

    def unsettled_under(self, call_id: str) -> int:
        """How many sub-calls started under the open call ``call_id`` have no settle yet."""
        return len(self._unsettled.get(call_id, ()))

    def unsettled_starts(self, call_id: str) -> list[CodeDispatchStartEvent]:
        """The starts under the open call ``call_id`` with no settle yet, in log order."""
        return list(self._unsettled.get(call_id, {}).values())

    def result_problem(self, event: Event) -> str | None:
        """Why a ``tool/result`` would leave sub-calls of its root unsettled, or None.

        Not one of the history's rules (:meth:`problem`): a log written before
        settles were bound to starts may break it, and opening it closes them.
        ``InvariantCheck`` reports it.
        """
        if not isinstance(event, ToolResultEvent):
            return None
        unsettled = self._unsettled.get(event.call_id)
        if not unsettled:
            return None
        first = min(unsettled)
        return (
            f'the tool/result of call "{_id(event.call_id)}" leaves {len(unsettled)} sub-call(s) '
            f'started under it without their tool/code-dispatch (e.g. "{_id(first)}"); every '
            "started sub-call has exactly one settle event (opening the log closes them)"
        )

    def dispatch_problem(self, root_call_id: str, parent_call_id: str) -> str | None:
        """Why a dispatch event of a call with these ids could not be appended now, or None."""
        if not root_call_id or not parent_call_id:
            return "root_call_id and parent_call_id must not be empty"
        if root_call_id not in self._open:
            return (
                f'its root call "{_id(root_call_id)}" is not open in this log (its tool/call is '
                "not logged, or its tool/result already is), and dispatch events belong "
                "inside their root call's turn; run the call through run_turn(), or append "
                "its ToolCallEvent before executing it"
            )
        if parent_call_id != root_call_id and self._roots.get(parent_call_id) != root_call_id:
            return (
                f'its parent call "{_id(parent_call_id)}" is neither the root call '
                f'"{_id(root_call_id)}" nor a sub-call logged under it'
            )
        return None

    def call_problem(self, call_id: str) -> str | None:
        """Why a ``tool/call`` with this id could not be appended now, or None."""
        if call_id in self._open:
            return (
                f'call "{_id(call_id)}" is already open in this log (its tool/call is logged and '
                "its tool/result is not): an id names one open call at a time, since its "
                "sub-calls' ids are made of it; give the new call an id of its own, or log "
                "the open call's tool/result first"
            )
        root = self._roots.get(call_id)
        if root is not None:
            return (
                f'"{_id(call_id)}" is the id of a sub-call logged under the open call '
                f'"{_id(root)}": '
                "an id names one open call at a time; give the new call an id of its own"
            )
        return None

    def append_problem(self, event: Event) -> str | None:
        """Why ``event`` cannot be appended now, or None: :meth:`problem` and the id rule.

        The rule that an id names one open call at a time applies to what is
        appended, not to a history: a log written before it may break it.
        """
        if isinstance(event, DISPATCH_EVENTS):  # the most frequent, so tested first
            problem = self._dispatch_event_problem(event)
            if problem is not None:
                return problem
            if event.root_call_id not in self._open:
                # A start its root's tool/result left unsettled is closed by
                # reopening the log (a history's rule), never by a live writer.
                return self.dispatch_problem(event.root_call_id, event.parent_call_id)
            if event.sub_call_id in self._open:
                return (
                    f'sub-call id "{_id(event.sub_call_id)}" is the id of an open call: an id '
                    "names one open call at a time (was a model call given an id of the form "
                    "<call id>:code:<n>?)"
                )
            return None
        if isinstance(event, ToolCallEvent):
            return self.call_problem(event.call_id)
        if isinstance(event, ToolResultEvent) and event.call_id not in self._open:
            root = self._roots.get(event.call_id)
            what = (
                f'the id of a sub-call logged under the open call "{_id(root)}" (a sub-call '
                "settles with tool/code-dispatch)"
                if root is not None
                else "not the id of an open call (its tool/call is not logged, or its "
                "tool/result already is)"
            )
            return f'call "{_id(event.call_id)}" is {what}: a tool/result answers an open root call'
        return None

    def problem(self, event: Event) -> str | None:
        """Why ``event`` could not follow what was recorded so far, or None (a history's rules)."""
        if not isinstance(event, DISPATCH_EVENTS):
            return None
        return self._dispatch_event_problem(event)

    def _dispatch_event_problem(
        self, event: CodeDispatchStartEvent | CodeDispatchEvent
    ) -> str | None:
        """:meth:`problem` for a dispatch event."""
        if not event.sub_call_id:
            return "sub_call_id must not be empty"
        known = self._roots.get(event.sub_call_id)
        if (
            known is None
            and isinstance(event, CodeDispatchEvent)
            and self._orphans.get(event.sub_call_id) == event.root_call_id
        ):
            return None  # settles a start its root's tool/result left unsettled
        if known is not None and isinstance(event, CodeDispatchStartEvent):
            return (
                f'sub-call "{_id(event.sub_call_id)}" already has its start event: sub-call ids '
                f'must be unique (is the id of its root call "{_id(event.root_call_id)}" used by '
                "two calls?)"
            )
        if known is not None and known != event.root_call_id:
            return (
                f'sub-call "{_id(event.sub_call_id)}" was logged under root call '
                f'"{_id(known)}" and '
                f'now names root call "{_id(event.root_call_id)}"'
            )
        return self.dispatch_problem(event.root_call_id, event.parent_call_id)

    def record(self, event: Event) -> None:
        """Take an appended (or read) event into account for later checks."""
        if isinstance(event, DISPATCH_EVENTS):  # the most frequent, so tested first
            sub_call_id = event.sub_call_id
            if sub_call_id not in self._roots:
                if (
                    isinstance(event, CodeDispatchEvent)
                    and self._orphans.get(sub_call_id) == event.root_call_id
                ):
                    del self._orphans[sub_call_id]
                    return
                root = self._roots[sub_call_id] = event.root_call_id
                sub_calls = self._sub_calls.get(root)
                if sub_calls is None:
                    self._sub_calls[root] = [sub_call_id]
                else:
                    sub_calls.append(sub_call_id)
            else:
                root = self._roots[sub_call_id]
            if isinstance(event, CodeDispatchStartEvent):
                started = self._unsettled.get(root)
                if started is None:
                    self._unsettled[root] = {sub_call_id: event}
                else:
                    started[sub_call_id] = event
            else:
                unsettled = self._unsettled.get(root)
                if unsettled is not None:
                    unsettled.pop(sub_call_id, None)
        elif isinstance(event, ToolCallEvent):
            self._open.add(event.call_id)
        elif isinstance(event, ToolResultEvent):
            self._open.discard(event.call_id)
            for sub_call_id in self._sub_calls.pop(event.call_id, ()):
                del self._roots[sub_call_id]
            for sub_call_id in self._unsettled.pop(event.call_id, ()):
                self._orphans[sub_call_id] = event.call_id
