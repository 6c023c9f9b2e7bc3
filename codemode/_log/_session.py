"""The session log: what the rest of codemode holds to record events."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar, cast, final

from ._events import Event
from ._invariants import DispatchInvariants, LogInvariantError, kind_of
from ._stores import MemoryStore

if TYPE_CHECKING:
    from types import TracebackType

    from ._stores import EventStore

__all__ = ["SessionLog"]

E = TypeVar("E", bound=Event)


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
    ``tool/result``) and keep a stable root and parent chain. A store that
    already holds events is read once, so that the checks continue its
    history.

    Args:
        store: where events go; a :class:`MemoryStore` when omitted.

    Raises:
        LogInvariantError: an event already in ``store`` breaks the
            invariants (the log is damaged; the store is closed).
    """

    def __init__(self, store: EventStore | None = None) -> None:
        self._store: EventStore = store if store is not None else MemoryStore()
        self._closed = False
        self._invariants = DispatchInvariants()
        try:
            for event in self._store.read():
                problem = self._invariants.problem(event)
                if problem is not None:
                    raise LogInvariantError(kind_of(event), problem, seq=event.seq)
                self._invariants.record(event)
        except BaseException:
            self._store.close()
            raise

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
            LogInvariantError: a dispatch event would break the log's
                invariants (see the class docs); nothing was appended.
            LossyJsonError: the event's JSON fields are not lossless JSON.
        """
        if self._closed:
            raise ValueError("cannot append: the session log is closed")
        problem = self._invariants.problem(event)
        if problem is not None:
            raise LogInvariantError(kind_of(event), problem)
        stamped = cast("E", self._store.append(event))
        self._invariants.record(stamped)
        return stamped

    def dispatch_problem(self, root_call_id: str, parent_call_id: str) -> str | None:
        """Why dispatch events of a call with these ids could not be appended now, or ``None``.

        Code Mode asks before a program runs, so that a run whose sub-calls
        could not be logged fails before any of them is dispatched.
        """
        return self._invariants.dispatch_problem(root_call_id, parent_call_id)

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
