"""The session log: what the rest of codemode holds to record events."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, TypeVar, final

from ._events import DISPATCH_EVENTS, Event, ToolResultEvent
from ._invariants import DispatchInvariants, LogInvariantError, kind_of
from ._recovery import ABANDONED, UNSETTLED_AT_RESULT, OpenRecords, settle_as_aborted
from ._stores import MemoryStore, check_event

if TYPE_CHECKING:
    from types import TracebackType

    from ._stores import EventStore

__all__ = ["SessionLog"]

E = TypeVar("E", bound=Event)

_log = logging.getLogger("codemode.log")


@final
class SessionLog:
    """Appends a session's durable events to a store.

    ``append`` is synchronous and never yields to the event loop, so any number
    of tasks in one loop may append concurrently: each event is written whole
    and ``seq`` follows the order of the calls. Call :meth:`sync` at every turn
    boundary and :meth:`close` (or ``aclose``) at the end::

        with SessionLog(JsonlStore("session.jsonl")) as log:
            log.append(ToolCallEvent(turn=1, step=0, call_id="c1", name="search",
                                     arguments='{"q": "x"}'))
            log.sync()

    Dispatch events are checked before they are appended (see
    :mod:`codemode._log._invariants`): they must carry non-empty ids, belong
    inside their root call's turn (after its ``tool/call``, before its
    ``tool/result``) and keep a stable root and parent chain. A ``tool/call``
    is refused while its id is the id of an open call (a closed call's id
    may be used again). A store that already holds events is read once, so
    that the checks continue its history.

    A store's history is the work of a writer that has stopped: what it left
    open (a ``tool/call`` without its ``tool/result``, a sub-call's start
    without its settle) is closed at once, with events that fail it as
    ``ABORTED`` and say ``abandoned: the writer stopped before it finished``
    (the sub-calls first, then the call), and a warning. So open a store with
    history only when its last writer is gone (a :class:`JsonlStore` holds a
    lock for that), never a second log on a store another log still writes.

    Args:
        store: where events go; a :class:`MemoryStore` when omitted.

    Raises:
        LogInvariantError: an event already in ``store`` breaks the
            invariants (the log is damaged; the store is closed).
        OSError: the store failed to append the events that close what its
            history left open (the store is closed).
    """

    def __init__(self, store: EventStore | None = None) -> None:
        self._store: EventStore = store if store is not None else MemoryStore()
        self._closed = False
        self._invariants = DispatchInvariants()
        try:
            left_open = OpenRecords()
            for event in self._store.read():
                problem = self._invariants.problem(event)
                if problem is not None:
                    raise LogInvariantError(kind_of(event), problem, seq=event.seq)
                self._invariants.record(event)
                left_open.record(event)
            if len(left_open):
                self._close_abandoned(left_open)
        except BaseException:
            self._store.close()
            raise

    def _close_abandoned(self, left_open: OpenRecords) -> None:
        closing = left_open.closing_events()
        calls = sum(1 for event in closing if kind_of(event) == "tool/result")
        _log.warning(
            "the session log held %d call(s) and %d sub-call(s) left open by a writer that "
            "stopped; closing them as %r (ABORTED)",
            calls,
            len(closing) - calls,
            ABANDONED,
        )
        for event in closing:
            # They close the history's records, under the rules the history was read by.
            self._append(event, self._invariants.problem(event))
        self._store.sync()

    @property
    def store(self) -> EventStore:
        """The store events are appended to."""
        return self._store

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has run."""
        return self._closed

    def append(self, event: E) -> E:
        """Append ``event``; return it with its ``seq`` assigned.

        Raises:
            ValueError: the log is closed.
            LogInvariantError: the event would break the log's invariants
                (see the class docs); nothing was appended.
            LossyJsonError: a field of the event cannot be logged exactly (a
                string holding a lone surrogate, a value of the wrong type,
                JSON fields that are not lossless JSON); it names the field.
        """
        if self._closed:
            raise ValueError("cannot append: the session log is closed")
        problem = self._invariants.append_problem(event)
        if (
            problem is None
            and not isinstance(event, DISPATCH_EVENTS)  # the most frequent: a cheap miss first
            and isinstance(event, ToolResultEvent)
            and self._invariants.unsettled_under(event.call_id)
        ):
            self._settle_before_result(event)
        return self._append(event, problem)

    def _settle_before_result(self, result: ToolResultEvent) -> None:
        # Every started sub-call has one settle event, before its root's
        # result: a writer that answers the root first (its own turn runner,
        # a run torn down mid-call) gets the settles appended for it, latest
        # start first, as reopening the log would. The result is checked
        # first, so a result that cannot be logged leaves the sub-calls open.
        check_event(result)
        starts = self._invariants.unsettled_starts(result.call_id)
        _log.warning(
            'the tool/result of call "%s" was appended with %d sub-call(s) started under it '
            "and not settled; settling them as %r (ABORTED)",
            result.call_id,
            len(starts),
            UNSETTLED_AT_RESULT,
        )
        for start in reversed(starts):
            settle = settle_as_aborted(start, UNSETTLED_AT_RESULT)
            self._append(settle, self._invariants.append_problem(settle))

    def _append(self, event: E, problem: str | None) -> E:
        if problem is not None:
            raise LogInvariantError(kind_of(event), problem)
        # A store returns the event it was given, stamped: the same type (no
        # ``cast()`` call, which is a call on every append).
        stamped: E = self._store.append(event)  # type: ignore[assignment]
        self._invariants.record(stamped)
        return stamped

    def dispatch_problem(self, root_call_id: str, parent_call_id: str) -> str | None:
        """Why dispatch events of a call with these ids could not be appended now, or ``None``.

        Code Mode asks before a program runs, so that a run whose sub-calls
        could not be logged fails before any of them is dispatched.
        """
        return self._invariants.dispatch_problem(root_call_id, parent_call_id)

    def call_problem(self, call_id: str) -> str | None:
        """Why a ``tool/call`` with this id could not be appended now, or ``None``.

        :func:`~codemode.run_turn` asks before a turn runs, so that a turn
        whose calls could not be logged fails before any of them runs.
        """
        return self._invariants.call_problem(call_id)

    def sync(self) -> None:
        """Make everything appended so far durable (call at each turn boundary)."""
        if not self._closed:
            self._store.sync()

    def close(self) -> None:
        """Sync and close the store (idempotent)."""
        if self._closed:
            return
        self._closed = True
        self._store.close()

    async def aclose(self) -> None:
        """Same as :meth:`close`, for ``async with`` and async cleanup code."""
        self.close()

    def events(self) -> list[Event]:
        """Every event in the store, in ``seq`` order (unknown kinds skipped)."""
        return list(self._store.read())

    def __enter__(self) -> SessionLog:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> SessionLog:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
