"""The served side of the wire: what a client sends is read within budgets; owed answers are sent.

``codemode serve-mcp``'s client is a peer the host does not trust (SECURITY.md,
"Bounded host work"). The SDK's stdio transport read lines of any length, parsed
them with pydantic on the event loop, dropped what it could not parse without an
answer, and its dispatcher starts a task per request whose answer waits, held in
memory, for a client that may never read it. Here:

* every request counts in the server's :class:`Backlog` from the moment it is
  read until its answer has been written (or dropped: the client cancelled it,
  or went away). Past ``max_pending`` requests, or their bytes past
  ``max_message_bytes`` or their JSON values past :data:`MAX_MESSAGE_VALUES`
  (one request alone may always be held), the stdio transport stops reading, so
  a client that writes without reading finds its pipe full; over HTTP such a
  POST is answered at once with the busy error (:data:`SERVER_BUSY`);
* stdio lines are split in linear time and capped at ``max_message_bytes``; a
  longer message is answered with an error and skipped when its id can be read
  from its first bytes, else the connection is closed (the reason is logged);
* a message that is not JSON, nests too deeply to parse, holds too many
  values, is a batch, or is not a JSON-RPC message gets the JSON-RPC error it is
  owed (``-32700``/``-32600``, with its id when one can be read); what no answer
  is owed for (a malformed notification) is logged;
* an answer that cannot be written as JSON becomes an error answer for its id;
* over HTTP (:mod:`codemode.mcp._server_http`), a request whose ``Host`` or
  ``Origin`` does not name this loopback listener, one without the server's
  bearer token when it has one, or a POST that is not ``application/json`` is
  refused before anything else: it takes no place in the backlog and its body
  is never read.

The same :class:`Ticket` that counts a request is what ``tools/call``
admission hangs its slot on (:func:`current_ticket`), so a call holds its slot
until its answer is written, not until its handler returns.
"""

from __future__ import annotations

import fcntl
import json
import logging
import os
import sys
from collections import deque
from contextlib import asynccontextmanager, contextmanager, suppress
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any, Final, final

import anyio
import anyio.to_thread

from ._server_messages import (
    ID_WINDOW,
    INTERNAL_ERROR,
    INVALID_REQUEST,
    MAX_MESSAGE_DEPTH,
    MAX_MESSAGE_VALUES,
    PARSE_ERROR,
    Refusal,
    RequestId,
    batch_answers,
    error_line,
    id_in,
    id_key,
    message_of,
    parse,
)
from ._transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    INLINE_PARSE_BYTES,
    values_bound,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterator
    from contextvars import Context

    from mcp.shared._context_streams import ContextReceiveStream, ContextSendStream
    from mcp.shared.message import SessionMessage

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "INVALID_REQUEST",
    "MAX_MESSAGE_DEPTH",
    "MAX_MESSAGE_VALUES",
    "PARSE_ERROR",
    "PENDING_SPARE",
    "SERVER_BUSY",
    "Backlog",
    "Ticket",
    "current_ticket",
    "hold_ticket",
    "stdio_wire",
]

#: The JSON-RPC error code of a request refused because the server is full
#: (in the implementation-defined server-error range).
SERVER_BUSY: Final = -32000
#: Requests that may be pending beyond ``max_concurrent + max_queued`` calls:
#: listings, pings and refusals waiting for their answers to be written.
PENDING_SPARE: Final = 16

_CHUNK: Final = 64 * 1024
#: Messages with more brackets than this are parsed in a worker thread, whose
#: stack is fresh, so the nesting Python's json refuses does not depend on the caller's depth.
_INLINE_BRACKETS: Final = 256
#: Messages the transport logs instead of answering, at most (then it says it stopped).
_MAX_LOGGED: Final = 100

_log = logging.getLogger("codemode.mcp")

#: The request whose handler runs in this context (the SDK starts each handler
#: in a copy of the context its message was sent from).
_TICKET: ContextVar[Ticket | None] = ContextVar("codemode_mcp_ticket", default=None)


def current_ticket() -> Ticket | None:
    """The :class:`Ticket` of the request being handled here, if a codemode transport read it."""
    return _TICKET.get()


def hold_ticket(ticket: Ticket | None) -> None:
    """Make ``ticket`` this context's :func:`current_ticket` (a transport reading a request)."""
    _TICKET.set(ticket)


@final
class Ticket:
    """One request read and not yet answered, and what it holds of the backlog."""

    __slots__ = ("_backlog", "_on_settle", "bytes", "id", "settled", "values")

    def __init__(
        self, backlog: Backlog, request_id: RequestId | None, size: int, values: int
    ) -> None:
        self._backlog = backlog
        self.id = request_id
        self.bytes = size
        self.values = values
        self.settled = False
        self._on_settle: list[Callable[[], object]] = []

    def on_settle(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` once the answer is written or dropped (at once if it was)."""
        if self.settled:
            callback()
        else:
            self._on_settle.append(callback)

    def settle(self) -> None:
        """The answer was written, or will never be: release what the request held."""
        if self.settled:
            return
        self.settled = True
        self._backlog._release(self)
        callbacks, self._on_settle = self._on_settle, []
        for callback in callbacks:
            callback()

    async def settle_unanswered(self) -> None:
        """The SDK's hook for a request that ends without an answer (the client cancelled it)."""
        self.settle()


@final
class Backlog:
    """The requests read and not yet answered, with the bytes and JSON values they hold.

    A request may enter while fewer than ``max_requests`` are held and, unless
    it is the only one, while the held bytes and values stay within
    ``max_bytes`` and ``max_values``. So whatever a client does, the server
    holds at most ``max_requests`` parked answers, and request text of at most
    ``max_bytes`` plus one message.
    """

    __slots__ = ("_changed", "bytes", "max_bytes", "max_requests", "max_values", "most_bytes",
                 "most_partial", "most_requests", "most_values", "paused", "refused", "requests",
                 "values")

    def __init__(self, *, max_requests: int, max_bytes: int,
                 max_values: int = MAX_MESSAGE_VALUES) -> None:
        self.max_requests = max_requests
        self.max_bytes = max_bytes
        self.max_values = max_values
        self.requests = 0
        self.bytes = 0
        self.values = 0
        #: The most held at once (requests, and their bytes and values).
        self.most_requests = 0
        self.most_bytes = 0
        self.most_values = 0
        #: The most bytes of a message still being read that a stdio reader held.
        self.most_partial = 0
        #: How often a transport waited for room before it read on (stdio).
        self.paused = 0
        #: How many requests were refused for want of room (HTTP).
        self.refused = 0
        self._changed: anyio.Event | None = None

    def fits(self, size: int, values: int) -> bool:
        """Whether a request of ``size`` bytes and ``values`` JSON values may enter now."""
        if self.requests >= self.max_requests:
            return False
        return self.requests == 0 or (
            self.bytes + size <= self.max_bytes and self.values + values <= self.max_values
        )

    def enter(self, request_id: RequestId | None, size: int, values: int) -> Ticket:
        """Count a request in, whether or not it :meth:`fits` (the caller checked)."""
        self.requests += 1
        self.most_requests = max(self.most_requests, self.requests)
        self._grow(size, values)
        return Ticket(self, request_id, size, values)

    async def admit(self, request_id: RequestId | None, size: int, values: int) -> Ticket:
        """Count a request in once it fits, waiting for answers to be written until it does."""
        if not self.fits(size, values):
            self.paused += 1
            await self.wait_until(lambda backlog: backlog.fits(size, values))
        return self.enter(request_id, size, values)

    def try_admit(self, request_id: RequestId | None, size: int, values: int) -> Ticket | None:
        """Count a request in if it fits now, else ``None`` (and count the refusal)."""
        if not self.fits(size, values):
            self.refused += 1
            return None
        return self.enter(request_id, size, values)

    def charge(self, ticket: Ticket, size: int, values: int) -> bool:
        """Add what a held request turned out to hold, if that still fits; ``False`` if not."""
        if self.requests > 1 and (
            self.bytes + size > self.max_bytes or self.values + values > self.max_values
        ):
            self.refused += 1
            return False
        ticket.bytes += size
        ticket.values += values
        self._grow(size, values)
        return True

    async def wait_until(self, predicate: Callable[[Backlog], bool]) -> None:
        """Wait until ``predicate(self)`` holds, checked each time the backlog changes."""
        while not predicate(self):
            if self._changed is None:
                self._changed = anyio.Event()
            await self._changed.wait()

    def _grow(self, size: int, values: int) -> None:
        self.bytes += size
        self.values += values
        self.most_bytes = max(self.most_bytes, self.bytes)
        self.most_values = max(self.most_values, self.values)
        self._notify()

    def _release(self, ticket: Ticket) -> None:
        self.requests -= 1
        self.bytes -= ticket.bytes
        self.values -= ticket.values
        self._notify()

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()
            self._changed = None


# -- stdio ---------------------------------------------------------------------------------------


@contextmanager
def _claimed_stdio() -> Iterator[tuple[int, int]]:
    """This process's stdin and stdout as the wire, with fd 0 and 1 elsewhere meanwhile.

    While serving, fd 0 reads ``/dev/null`` and fd 1 writes to stderr, so a tool
    (or a child it starts) that reads stdin or prints cannot touch the protocol
    stream; both are restored on exit.
    """
    sys.stdout.flush()
    wire_in = fcntl.fcntl(0, fcntl.F_DUPFD_CLOEXEC, 3)
    try:
        wire_out = fcntl.fcntl(1, fcntl.F_DUPFD_CLOEXEC, 3)
    except OSError:
        os.close(wire_in)
        raise
    null = os.open(os.devnull, os.O_RDONLY)
    try:
        os.dup2(null, 0)
        os.dup2(2, 1)
    finally:
        os.close(null)
    try:
        yield wire_in, wire_out
    finally:
        with suppress(ValueError, OSError):
            sys.stdout.flush()
        os.dup2(wire_in, 0)
        os.dup2(wire_out, 1)
        os.close(wire_in)
        os.close(wire_out)


@contextmanager
def _non_blocking(*fds: int) -> Iterator[None]:
    """The fds in non-blocking mode (polled by the event loop, no thread ever blocked in a read).

    The mode belongs to the open file, which a terminal shares with the shell,
    so each fd gets its own mode back on exit.
    """
    before = [os.get_blocking(fd) for fd in fds]
    for fd in fds:
        os.set_blocking(fd, False)
    try:
        yield
    finally:
        for fd, blocking in zip(fds, before, strict=True):
            with suppress(OSError):
                os.set_blocking(fd, blocking)


@final
class _Wire:
    """The client's two ends, non-blocking; lines are written whole, one at a time."""

    __slots__ = ("_lock", "gone", "read_bytes", "read_fd", "write_fd", "written")

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self.read_fd = read_fd
        self.write_fd = write_fd
        #: Set once the client stopped reading (its end of our stdout is closed).
        self.gone = False
        self.read_bytes = 0
        self.written = 0
        self._lock = anyio.Lock()

    async def read(self) -> bytes:
        """The next bytes the client sent, ``b""`` at its end."""
        while True:
            try:
                chunk = os.read(self.read_fd, _CHUNK)
            except BlockingIOError:
                await anyio.wait_readable(self.read_fd)
                continue
            except InterruptedError:
                continue
            except OSError:
                return b""
            self.read_bytes += len(chunk)
            return chunk

    async def write(self, data: bytes) -> None:
        """Write ``data`` whole; once the client is gone, drop it."""
        async with self._lock:
            view = memoryview(data)
            while view and not self.gone:
                try:
                    count = os.write(self.write_fd, view)
                except BlockingIOError:
                    await anyio.wait_writable(self.write_fd)
                    continue
                except InterruptedError:
                    continue
                except OSError:
                    self.gone = True
                    return
                view = view[count:]
                self.written += count


@final
class _StdioTransport:
    """Reads the client's lines into the SDK's stream, writes its answers back, counts both."""

    def __init__(self, wire: _Wire, backlog: Backlog, max_message_bytes: int) -> None:
        self.wire = wire
        self.backlog = backlog
        self.cap = max_message_bytes
        #: The requests read and not yet answered, by id (a client may reuse one).
        self._open: dict[tuple[type, RequestId], deque[Ticket]] = {}
        self._reading = anyio.CancelScope()
        self._logged = 0
        #: Why this side closed the connection, once it did.
        self.closed_because: str | None = None

    # -- reading

    async def read(self, sink: ContextSendStream[SessionMessage | Exception]) -> None:
        async with sink:
            with self._reading:
                await self._read_lines(sink)

    async def _read_lines(self, sink: ContextSendStream[SessionMessage | Exception]) -> None:
        cap = self.cap
        buffer = bytearray()
        skipping = False  # the rest of an over-cap message, up to its newline, is dropped
        while True:
            chunk = await self.wire.read()
            if not chunk:
                if buffer.strip() and not skipping:
                    await self._line(bytes(buffer), sink)
                return
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                if skipping:
                    skipping = False
                elif len(buffer) + end - start > cap:
                    head = bytes(buffer[:ID_WINDOW]) + chunk[start:min(end, start + ID_WINDOW)]
                    buffer.clear()
                    if not await self._overlong(head):
                        return
                else:
                    buffer += chunk[start:end]
                    line = bytes(buffer)
                    buffer.clear()
                    if line.strip():
                        await self._line(line, sink)
                if self.wire.gone:
                    return
                start = end + 1
            if skipping:
                continue
            if len(buffer) + len(chunk) - start > cap:
                head = bytes(buffer[:ID_WINDOW]) + chunk[start:start + ID_WINDOW]
                buffer.clear()
                if not await self._overlong(head):
                    return
                skipping = True
            else:
                buffer += chunk[start:]
                self.backlog.most_partial = max(self.backlog.most_partial, len(buffer))

    async def _overlong(self, head: bytes) -> bool:
        """Answer a message over the cap, whose first bytes are ``head``; ``False``: close."""
        # The same bytes are searched however the message arrived in pieces.
        request_id = id_in(head[:min(ID_WINDOW, self.cap)])
        if request_id is None:
            self.closed_because = (
                f"the client sent a message longer than max_message_bytes={self.cap} "
                "whose id could not be read from its first bytes; the connection was closed"
            )
            _log.warning("codemode serve-mcp: %s", self.closed_because)
            return False
        await self.wire.write(error_line(
            request_id, INVALID_REQUEST,
            f"Invalid request: the message is longer than max_message_bytes={self.cap} bytes "
            "and was not read; send a shorter one (or start the server with a higher "
            "--max-message-bytes)",
        ))
        return True

    async def _line(self, line: bytes, sink: ContextSendStream[SessionMessage | Exception]) -> None:
        from mcp.shared.message import ServerMessageMetadata, SessionMessage
        from mcp_types import JSONRPCRequest

        try:
            if len(line) <= INLINE_PARSE_BYTES and (
                line.count(b"[") + line.count(b"{") <= _INLINE_BRACKETS
            ):
                raw = parse(line)
            else:
                raw = await anyio.to_thread.run_sync(parse, line, abandon_on_cancel=True)
            if isinstance(raw, list):
                answers = batch_answers(raw)
                if answers:
                    await self.wire.write(json.dumps(answers).encode() + b"\n")
                else:
                    self._unanswered("a batch of notifications")
                return
            message = message_of(raw)
        except Refusal as refusal:
            if refusal.owed:
                await self.wire.write(
                    error_line(refusal.request_id, refusal.code, refusal.message)
                )
            else:
                self._unanswered(refusal.message)
            return
        if not isinstance(message, JSONRPCRequest):
            _TICKET.set(None)
            await sink.send(SessionMessage(message))
            return
        ticket = await self.backlog.admit(message.id, len(line), values_bound(line))
        self._open.setdefault(id_key(message.id), deque()).append(ticket)
        ticket.on_settle(lambda: self._forget(ticket))
        # The SDK starts the handler in a copy of the context this message is sent
        # from, so the handler (and its answer, see _write_answers) carries the ticket.
        _TICKET.set(ticket)
        try:
            metadata = ServerMessageMetadata(on_request_unanswered=ticket.settle_unanswered)
            await sink.send(SessionMessage(message, metadata=metadata))
        finally:
            _TICKET.set(None)

    def _unanswered(self, what: str) -> None:
        self._logged += 1
        if self._logged <= _MAX_LOGGED:
            _log.warning(
                "codemode serve-mcp: the client sent %s; no answer is owed, it was dropped", what
            )
        if self._logged == _MAX_LOGGED:
            _log.warning("codemode serve-mcp: further dropped messages are not logged")

    def _forget(self, ticket: Ticket) -> None:
        if ticket.id is None:
            return
        key = id_key(ticket.id)
        waiting = self._open.get(key)
        if waiting is not None:
            with suppress(ValueError):
                waiting.remove(ticket)
            if not waiting:
                del self._open[key]

    # -- writing

    async def write_answers(self, source: ContextReceiveStream[SessionMessage]) -> None:
        from mcp_types import JSONRPCError, JSONRPCResponse

        async with source:
            async for item in source:
                message = item.message
                answer_id = (
                    message.id if isinstance(message, JSONRPCResponse | JSONRPCError) else None
                )
                try:
                    data = message.model_dump_json(by_alias=True, exclude_unset=True).encode()
                except (ValueError, TypeError, RecursionError) as exc:
                    if answer_id is None:
                        _log.warning("codemode serve-mcp: a %s could not be written as JSON (%s); "
                                     "it was dropped", type(message).__name__, str(exc)[:300])
                        continue
                    data = error_line(
                        answer_id, INTERNAL_ERROR,
                        f"the answer could not be written as JSON: {str(exc)[:300]}",
                    )[:-1]
                await self.wire.write(data + b"\n")
                if answer_id is not None:
                    self._answered(answer_id, source.last_context)
                if self.wire.gone:
                    # Nobody reads: stop reading too, so the SDK sees the end.
                    self._reading.cancel()

    def _answered(self, answer_id: RequestId, context: Context | None) -> None:
        ticket = context.get(_TICKET) if context is not None else None
        if ticket is None or ticket.settled or ticket.id is None or (
            id_key(ticket.id) != id_key(answer_id)
        ):
            waiting = self._open.get(id_key(answer_id))
            ticket = waiting[0] if waiting else None
        if ticket is not None:
            ticket.settle()

    def settle_all(self) -> None:
        for waiting in list(self._open.values()):
            for ticket in list(waiting):
                ticket.settle()
        self._open.clear()


@asynccontextmanager
async def stdio_wire(
    backlog: Backlog,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    *,
    stdin: int | None = None,
    stdout: int | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's read and write streams over stdio (or the given fds), within the budgets.

    Without ``stdin``/``stdout`` this process's fd 0 and 1 are the wire, and
    point at ``/dev/null`` and stderr while it is served.
    """
    from mcp.shared._context_streams import create_context_streams
    from mcp.shared.message import SessionMessage

    with _wire_fds(stdin, stdout) as (read_fd, write_fd), _non_blocking(read_fd, write_fd):
        wire = _Wire(read_fd, write_fd)
        transport = _StdioTransport(wire, backlog, max_message_bytes)
        read_send, read_receive = create_context_streams[SessionMessage | Exception](0)
        write_send, write_receive = create_context_streams[SessionMessage](0)
        try:
            async with anyio.create_task_group() as group:
                group.start_soon(transport.read, read_send)
                group.start_soon(transport.write_answers, write_receive)
                try:
                    yield read_receive, write_send
                finally:
                    group.cancel_scope.cancel()
        finally:
            transport.settle_all()
            for stream in (read_receive, write_send):
                await stream.aclose()


@contextmanager
def _wire_fds(stdin: int | None, stdout: int | None) -> Iterator[tuple[int, int]]:
    if stdin is None and stdout is None:
        with _claimed_stdio() as fds:
            yield fds
        return
    if stdin is None or stdout is None:
        raise ValueError("give both stdin and stdout, or neither")
    yield stdin, stdout
