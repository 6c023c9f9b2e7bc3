"""MCP transports that treat the server as a hostile peer: bounded frames, parsing off the loop.

An imported MCP server is a remote peer, not part of the host: everything it
sends is input to check, like a sandbox child's frames (SECURITY.md, "Bounded
host work"). The SDK's ``ClientSession`` takes any pair of memory streams of
``SessionMessage``; these transports feed it through a :class:`Guard`:

* stdio (:func:`stdio_transport`): lines are split in linear time from a
  ``bytearray`` (only each new chunk is searched for ``\\n``), a message longer
  than ``max_message_bytes`` closes the connection, and a message longer than
  :data:`INLINE_PARSE_BYTES` is parsed and budgeted in a worker thread.
* any other transport (:func:`guarded`, used for streamable HTTP): the SDK
  parses, and the guard applies the same result budgets to what it parsed.
  For streamable HTTP, ``_http`` caps each body and event at
  ``max_message_bytes`` before the SDK reads it; a refused answer fails its
  request alone, and the guard restates the SDK's error for it as a refusal.

For both, a reply with more than :data:`MAX_CONTENT_BLOCKS` content blocks,
more than :data:`MAX_RESULT_NODES` JSON values or values nested deeper than
:data:`MAX_NESTING_DEPTH`, or a ``tools/list`` answer that alone is past the
listing's budget (``_listing``), becomes a JSON-RPC error for that request
alone (code :data:`REFUSED_BY_CLIENT`), before the SDK builds a model of it or
re-serializes it (which raises a bare ``ValueError`` past about 255 levels);
a message that cannot be parsed closes the connection,
so every pending request fails at once instead of waiting forever for an
answer the SDK dropped. (The SDK's ``jsonschema`` check of
``structuredContent`` is avoided by the client, see ``_client``.)

What the server sends unasked (notifications, requests of its own) is
budgeted too: at most :data:`MAX_UNSOLICITED_MESSAGES` between two answers to
this client's requests, with :data:`UNSOLICITED_PER_SECOND` more allowed for
every second that passes; a server past that closes the connection. Each such
message costs the host a parse and a task in the SDK, so an unbounded flood
would keep a core busy for as long as the connection is open.
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
import time
from collections import deque
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Any, Final, TextIO

import anyio
import anyio.to_thread

from bridge.lossless import fits_inline

from ._listing import MAX_LISTED_SCHEMA_NODES, MAX_LISTED_TEXT_CHARS, measure
from ._listing import over_budget as listing_over_budget

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
    from contextlib import AbstractAsyncContextManager
    from pathlib import Path

    from anyio.abc import ByteReceiveStream, Process
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCError, JSONRPCMessage

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "INLINE_PARSE_BYTES",
    "MAX_CONTENT_BLOCKS",
    "MAX_NESTING_DEPTH",
    "MAX_RESULT_NODES",
    "MAX_UNSOLICITED_MESSAGES",
    "REFUSED_BY_CLIENT",
    "UNSOLICITED_PER_SECOND",
    "Guard",
    "guarded",
    "stdio_transport",
]

#: The longest message a server may send (the sandbox's ``max_frame_bytes`` default).
DEFAULT_MAX_MESSAGE_BYTES: Final = 16 * 1024 * 1024
#: Messages longer than this are parsed in a worker thread, not on the event loop.
INLINE_PARSE_BYTES: Final = 64 * 1024
#: The most content blocks one result may carry (the SDK builds a model per block on the loop).
MAX_CONTENT_BLOCKS: Final = 2048
#: The most JSON values one message may hold. Building them holds the GIL in one C
#: call (about 0.1 µs each), and the SDK re-validates a result on the loop.
MAX_RESULT_NODES: Final = 500_000
#: The deepest a message's values may nest (a result counts as level 1). The SDK
#: re-serializes every result with pydantic, which raises a bare ``ValueError``
#: past about 255 levels; real data nests a few tens (serde_json stops at 128 too).
MAX_NESTING_DEPTH: Final = 128
#: Notifications and requests a server may send unasked between two answers to
#: this client's requests. Each costs the host a parse and a task in the SDK
#: (tens of microseconds); real servers send a few log lines per call.
MAX_UNSOLICITED_MESSAGES: Final = 10_000
#: How many more unsolicited messages each second allows, so that a server's
#: keep-alive pings never close an idle session, however long.
UNSOLICITED_PER_SECOND: Final = 10.0
#: The JSON-RPC error code of a reply this client refused (never sent by the server).
REFUSED_BY_CLIENT: Final = -32099

_CHUNK: Final = 64 * 1024
#: Refusals of the HTTP transport whose error answer has not come through yet. A
#: refusal the SDK swallows (a redirect's or an error status's body) stays until pushed out.
_KEPT_REFUSALS: Final = 64
_EXIT_GRACE: Final = 2.0


class Guard:
    """The budgets of one connection, and why this side closed it, once it did."""

    __slots__ = (
        "_asked", "_clock", "_credit", "_refusals", "_since", "failure", "label",
        "max_message_bytes", "unsolicited",
    )

    def __init__(
        self,
        label: str,
        *,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if type(max_message_bytes) is not int or max_message_bytes < 1024:
            raise ValueError(
                f"max_message_bytes must be an int of at least 1024, got {max_message_bytes!r}"
            )
        self.label = label
        self.max_message_bytes = max_message_bytes
        #: Why the connection was closed by this side, once it was.
        self.failure: str | None = None
        #: Messages the server sent that answered nothing this side asked.
        self.unsolicited = 0
        self._refusals: deque[str] = deque(maxlen=_KEPT_REFUSALS)
        #: The method of every request sent and not yet answered, by id.
        self._asked: dict[object, str] = {}
        self._clock = clock
        self._credit = float(MAX_UNSOLICITED_MESSAGES)
        self._since = clock()

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason

    def refused(self, reason: str) -> None:
        """Note that the transport refused an answer: the SDK's error for it is restated."""
        self._refusals.append(reason)

    def sent(self, item: SessionMessage) -> None:
        """Note a message this side sends: a request expects its answer; a cancel does not."""
        from mcp.shared.dispatcher import coerce_request_id
        from mcp_types import JSONRPCNotification, JSONRPCRequest

        message = item.message
        if isinstance(message, JSONRPCRequest):
            self._asked[coerce_request_id(message.id)] = message.method
        elif isinstance(message, JSONRPCNotification) and message.method == (
            "notifications/cancelled"
        ):
            cancelled = (message.params or {}).get("requestId")
            if isinstance(cancelled, (str, int)):
                self._asked.pop(coerce_request_id(cancelled), None)

    def admitted(self, message: SessionMessage) -> bool:
        """Count a message the server sent; ``False`` once it flooded.

        An answer to a request this side sent restores the whole allowance of
        unsolicited messages; anything else spends one. Past the allowance the
        guard fails, and the transport closes the connection.
        """
        from mcp.shared.dispatcher import coerce_request_id
        from mcp_types import JSONRPCError, JSONRPCResponse

        inner = message.message
        if (
            isinstance(inner, (JSONRPCResponse, JSONRPCError))
            and inner.id is not None
            and self._asked.pop(coerce_request_id(inner.id), None) is not None
        ):
            self._credit = float(MAX_UNSOLICITED_MESSAGES)
            return True
        self.unsolicited += 1
        now = self._clock()
        self._credit = min(
            float(MAX_UNSOLICITED_MESSAGES),
            self._credit + (now - self._since) * UNSOLICITED_PER_SECOND,
        ) - 1
        self._since = now
        if self._credit < 0:
            self.fail(
                f"{self.label} sent more than {MAX_UNSOLICITED_MESSAGES} notifications and "
                "requests without answering this client (MAX_UNSOLICITED_MESSAGES); "
                "the connection was closed"
            )
            return False
        return True

    def received(self, item: SessionMessage) -> SessionMessage:
        """``item`` if within budget, else an error answer for its request alone.

        Linear in the reply up to the budgets: called in a worker thread for a
        long message. (A notification or request of the server's own is
        counted by :meth:`admitted`; the SDK only validates it, so its depth
        harms nothing.)
        """
        from mcp.shared.dispatcher import coerce_request_id
        from mcp.shared.message import SessionMessage
        from mcp_types import ErrorData, JSONRPCError, JSONRPCResponse

        message = item.message
        if isinstance(message, JSONRPCError):
            problem = _shape_problem(message.error.data)
            if problem is None:
                return self._restated(item, message)
            problem = f"{self.label} answered with an error holding {problem}; it was refused"
        elif isinstance(message, JSONRPCResponse):
            method = self._asked.get(coerce_request_id(message.id))
            problem = _over_budget(message.result, method, self.label)
        else:
            return item
        if problem is None:
            return item
        refusal = JSONRPCError(
            jsonrpc="2.0", id=message.id,
            error=ErrorData(code=REFUSED_BY_CLIENT, message=problem),
        )
        return SessionMessage(refusal, item.metadata)

    def _restated(self, item: SessionMessage, message: JSONRPCError) -> SessionMessage:
        """The SDK's error for an answer this side refused, as that refusal.

        The SDK wraps the transport's reason in words of its own ("Failed to
        parse JSON response: …") under a code the server never sent.
        """
        from mcp.shared.message import SessionMessage
        from mcp_types import CONNECTION_CLOSED, ErrorData, JSONRPCError

        text = message.error.message
        reason = next((r for r in self._refusals if text.endswith(r)), None)
        if reason is not None:
            self._refusals.remove(reason)
        elif (
            message.error.code == CONNECTION_CLOSED
            and f"event exceeded the {self.max_message_bytes} byte limit" in text[:200]
        ):
            # httpx2's own check of one event against max_sse_event_size.
            reason = (
                f"{self.label} sent an event longer than max_message_bytes="
                f"{self.max_message_bytes}; the answer was refused (raise max_message_bytes, "
                "or fix the server)"
            )
        else:
            return item
        refusal = JSONRPCError(
            jsonrpc="2.0", id=message.id,
            error=ErrorData(code=REFUSED_BY_CLIENT, message=reason),
        )
        return SessionMessage(refusal, item.metadata)


def _over_budget(result: object, method: str | None, label: str) -> str | None:
    """Why an answer to ``method`` (``None``: not asked) is refused, or ``None``."""
    if not isinstance(result, dict):
        return None
    content = result.get("content")
    if isinstance(content, list) and len(content) > MAX_CONTENT_BLOCKS:
        return (
            f"{label} answered with {len(content)} content blocks, more than the "
            f"{MAX_CONTENT_BLOCKS} a result may carry; the answer was refused"
        )
    tools = result.get("tools")
    if method == "tools/list" and isinstance(tools, list):
        # One page past the whole listing's budget is refused here, before the
        # SDK builds a model of every tool on the event loop.
        schemas = [
            tool.get(key) for tool in tools if isinstance(tool, dict)
            for key in ("inputSchema", "outputSchema")
        ]
        nodes, text = measure(
            [s for s in schemas if s is not None], MAX_LISTED_SCHEMA_NODES, MAX_LISTED_TEXT_CHARS
        )
        refused = listing_over_budget(label, len(tools), nodes, text)
        if refused is not None:
            return refused
    problem = _shape_problem(result)
    return None if problem is None else f"{label} answered with {problem}; the answer was refused"


def _shape_problem(value: object) -> str | None:
    """Whether ``value`` holds too many JSON values or nests too deeply, and which.

    One walk, a level at a time, so the depth costs nothing to track; it
    stops at the first level past either bound.
    """
    level: list[object] = [value]
    depth = 0
    nodes = 0
    while level:
        depth += 1
        nodes += len(level)
        if nodes > MAX_RESULT_NODES:
            return f"more than {MAX_RESULT_NODES} JSON values in one result"
        if depth > MAX_NESTING_DEPTH:
            return f"values nested more than {MAX_NESTING_DEPTH} levels deep (MAX_NESTING_DEPTH)"
        below: list[object] = []
        for item in level:
            if isinstance(item, dict):
                below.extend(item.values())
            elif isinstance(item, list):
                below.extend(item)
        level = below
    return None


def _payload(message: JSONRPCMessage) -> object:
    """The part of an answer that :meth:`Guard.received` walks."""
    result = getattr(message, "result", None)
    if result is not None:
        return result
    error = getattr(message, "error", None)
    return None if error is None else error.data


#: Outside strings: a string's opening quote, or one token that adds a value to a container.
_OUTSIDE_TOKEN: Final = re.compile(rb'"|[,\[{]')
#: Inside a string: a bounded piece of it, at most 256 runs of up to 4 KiB of plain
#: bytes or escapes (1 MiB, a few milliseconds), so that no one match holds the GIL long.
MAX_PIECE_BYTES: Final = 256 * 4096
_STRING_PIECE: Final = re.compile(rb'(?:[^"\\]{1,4096}+|\\.){0,256}')


def values_bound(line: bytes) -> int:
    """At least as many JSON values as ``line`` holds (commas and brackets in strings count too)."""
    return line.count(b",") + line.count(b"[") + line.count(b"{") + 1


def more_values_than(line: bytes, limit: int) -> bool:
    """Whether the JSON text ``line`` holds more than ``limit`` values.

    Counting bytes is one fast C call; only when that upper bound is over the
    limit (commas or brackets inside strings count too) are the tokens outside
    strings counted, one match at a time, and a string is skipped a bounded
    piece at a time (a 15 MB string of brackets was one match holding the GIL,
    and with it the event loop, for about 0.4 s), so the thread doing it never
    holds the GIL for long. Shared by the client's transport and the served
    wire. Text that is not JSON (an unterminated string) counts what was read.
    """
    if values_bound(line) <= limit:
        return False
    count = 1
    for _ in tokens_outside_strings(line, _OUTSIDE_TOKEN):
        count += 1
        if count > limit:
            return True
    return False


def tokens_outside_strings(line: bytes, pattern: re.Pattern[bytes]) -> Iterator[bytes]:
    """The tokens of ``pattern`` in the JSON text ``line``, outside its strings, in order.

    ``pattern`` must match a double quote (a string's opening one) besides the
    tokens it looks for. A string is skipped a bounded piece at a time, never as
    one match, so a worker thread walking the text never holds the GIL (and with
    it the event loop) long, whatever a peer put in a string. Text that is not
    JSON (an unterminated string) ends the walk where it stops being JSON.
    """
    end = len(line)
    position = 0
    while (token := pattern.search(line, position)) is not None:
        position = token.end()
        if token.group() != b'"':
            yield token.group()
            continue
        while True:  # to the string's closing quote
            piece = _STRING_PIECE.match(line, position)
            assert piece is not None  # the pattern matches the empty string
            advanced = piece.end() > position
            position = piece.end()
            if position >= end:
                return
            if line[position] == 0x22:  # the closing quote
                position += 1
                break
            if not advanced:  # a lone backslash at the end: not JSON
                return


def _too_many_values(line: bytes) -> bool:
    """Whether ``line`` holds more than :data:`MAX_RESULT_NODES` tokens that add a value."""
    # The first value (the message itself) is not one of them.
    return more_values_than(line, MAX_RESULT_NODES + 1)


def _constant(name: str) -> object:
    raise ValueError(f"{name} is not JSON")


def _parse(line: bytes, guard: Guard) -> SessionMessage:
    """One line as a message, within the guard's budgets.

    Raises:
        ValueError: the line is not one JSON-RPC message, or holds more than
            :data:`MAX_RESULT_NODES` values.
    """
    import mcp_types
    from mcp.shared.message import SessionMessage

    if _too_many_values(line):
        raise ValueError(f"it holds more than {MAX_RESULT_NODES} JSON values")
    # json.loads builds the values about four times as fast as pydantic's
    # validate_json (which holds the GIL throughout); the models then only wrap them.
    raw = json.loads(line, parse_constant=_constant)
    message = mcp_types.jsonrpc_message_adapter.validate_python(raw, by_name=False)
    return guard.received(SessionMessage(message))


async def _lines(stream: ByteReceiveStream, guard: Guard) -> AsyncIterator[bytes]:
    """The stream's lines, each at most ``max_message_bytes``, split in linear time."""
    cap = guard.max_message_bytes
    buffer = bytearray()
    while True:
        try:
            chunk = await stream.receive(_CHUNK)
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            return
        start = 0
        while (end := chunk.find(b"\n", start)) >= 0:
            if len(buffer) + end - start > cap:
                break
            buffer += chunk[start:end]
            line = bytes(buffer)
            buffer.clear()
            start = end + 1
            if line.strip():
                yield line
        buffer += chunk[start:]
        if len(buffer) > cap:
            guard.fail(
                f"{guard.label} sent a message longer than max_message_bytes={cap}; "
                "the connection was closed"
            )
            return


async def _pump_lines(
    stream: ByteReceiveStream, guard: Guard, sink: MemoryObjectSendStream[Any]
) -> None:
    async with sink:
        async for line in _lines(stream, guard):
            try:
                if len(line) <= INLINE_PARSE_BYTES:
                    message = _parse(line, guard)
                else:
                    message = await anyio.to_thread.run_sync(
                        _parse, line, guard, abandon_on_cancel=True
                    )
            except (ValueError, RecursionError) as exc:
                reason = str(exc).strip().splitlines() or [type(exc).__name__]
                guard.fail(
                    f"{guard.label} sent a message that is not valid JSON-RPC "
                    f"({reason[0][:300]}); the connection was closed"
                )
                return
            if not guard.admitted(message):
                return
            try:
                await sink.send(message)
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                return


@asynccontextmanager
async def stdio_transport(
    command: str,
    args: Sequence[str],
    guard: Guard,
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    errlog: TextIO | None = None,
) -> AsyncIterator[tuple[Any, Any]]:
    """Start ``command args…`` and speak newline-delimited JSON-RPC over its pipes, guarded.

    The server runs in its own session (process group). On exit its stdin is
    closed; it gets :data:`_EXIT_GRACE` seconds to exit, then its group gets
    SIGTERM and, after as long again, SIGKILL.
    """
    from mcp.client.stdio import get_default_environment

    process = await anyio.open_process(
        [command, *args],
        env=get_default_environment() | dict(env or {}),
        stderr=errlog if errlog is not None else sys.stderr,
        cwd=cwd,
        start_new_session=True,
    )
    read_send, read_receive = anyio.create_memory_object_stream[Any](0)
    write_send, write_receive = anyio.create_memory_object_stream[Any](0)
    assert process.stdout is not None
    assert process.stdin is not None
    stdout, stdin = process.stdout, process.stdin

    async def write(receive: MemoryObjectReceiveStream[Any]) -> None:
        try:
            async with receive:
                async for item in receive:
                    guard.sent(item)
                    data = item.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await stdin.send(data.encode() + b"\n")
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            guard.fail(f"{guard.label} stopped reading its stdin")
            await read_send.aclose()

    try:
        async with anyio.create_task_group() as group:
            group.start_soon(_pump_lines, stdout, guard, read_send)
            group.start_soon(write, write_receive)
            try:
                yield read_receive, write_send
            finally:
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            await _stop(process)
            for stream in (read_receive, write_send):
                await stream.aclose()


async def _stop(process: Process) -> None:
    """Close stdin, wait a grace period, then SIGTERM and SIGKILL the process group."""
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        if process.stdin is not None:
            await process.stdin.aclose()
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            with suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, sig)
        with anyio.move_on_after(_EXIT_GRACE):
            await process.wait()
        if process.returncode is not None:
            break
    with suppress(OSError, anyio.BrokenResourceError, anyio.ClosedResourceError):
        await process.aclose()


@asynccontextmanager
async def guarded(
    transport: AbstractAsyncContextManager[tuple[Any, Any]], guard: Guard
) -> AsyncIterator[tuple[Any, Any]]:
    """Another transport's streams (already parsed by the SDK), with the guard's budgets."""
    async with transport as (inner_read, inner_write):
        read_send, read_receive = anyio.create_memory_object_stream[Any](0)
        write_send, write_receive = anyio.create_memory_object_stream[Any](0)

        async def inbound() -> None:
            async with read_send:
                async for item in inner_read:
                    if isinstance(item, Exception):
                        guard.fail(f"{guard.label} sent a message that is not valid JSON-RPC "
                                   f"({item}); the connection was closed")
                        return
                    message = (
                        guard.received(item)
                        if fits_inline(_payload(item.message))
                        else await anyio.to_thread.run_sync(
                            guard.received, item, abandon_on_cancel=True
                        )
                    )
                    if not guard.admitted(message):
                        return
                    try:
                        await read_send.send(message)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return

        async def outbound() -> None:
            async with write_receive:
                async for item in write_receive:
                    guard.sent(item)
                    await inner_write.send(item)

        async with anyio.create_task_group() as group:
            group.start_soon(inbound)
            group.start_soon(outbound)
            try:
                yield read_receive, write_send
            finally:
                group.cancel_scope.cancel()
                await read_receive.aclose()
                await write_send.aclose()
