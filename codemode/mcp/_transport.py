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

For both, a reply with more than :data:`MAX_CONTENT_BLOCKS` content blocks or
more than :data:`MAX_RESULT_NODES` JSON values becomes a JSON-RPC error for
that request alone (code :data:`REFUSED_BY_CLIENT`); a message that cannot be
parsed closes the connection, so every pending request fails at once instead
of waiting forever for an answer the SDK dropped. (The SDK's ``jsonschema``
check of ``structuredContent`` is avoided by the client, see ``_client``.)
"""

from __future__ import annotations

import json
import os
import re
import signal
import sys
from collections import deque
from contextlib import asynccontextmanager, suppress
from typing import TYPE_CHECKING, Any, Final, TextIO

import anyio
import anyio.to_thread

from bridge.lossless import exceeds_nodes

from .._offload import INLINE_NODES

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping, Sequence
    from contextlib import AbstractAsyncContextManager
    from pathlib import Path

    from anyio.abc import ByteReceiveStream, Process
    from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCError

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "INLINE_PARSE_BYTES",
    "MAX_CONTENT_BLOCKS",
    "MAX_RESULT_NODES",
    "REFUSED_BY_CLIENT",
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
#: The JSON-RPC error code of a reply this client refused (never sent by the server).
REFUSED_BY_CLIENT: Final = -32099

_CHUNK: Final = 64 * 1024
#: Refusals of the HTTP transport whose error answer has not come through yet. A
#: refusal the SDK swallows (a redirect's or an error status's body) stays until pushed out.
_KEPT_REFUSALS: Final = 64
_EXIT_GRACE: Final = 2.0


class Guard:
    """The budgets of one connection, and why this side closed it, once it did."""

    __slots__ = ("_refusals", "failure", "label", "max_message_bytes")

    def __init__(self, label: str, *, max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES) -> None:
        if type(max_message_bytes) is not int or max_message_bytes < 1024:
            raise ValueError(
                f"max_message_bytes must be an int of at least 1024, got {max_message_bytes!r}"
            )
        self.label = label
        self.max_message_bytes = max_message_bytes
        #: Why the connection was closed by this side, once it was.
        self.failure: str | None = None
        self._refusals: deque[str] = deque(maxlen=_KEPT_REFUSALS)

    def fail(self, reason: str) -> None:
        if self.failure is None:
            self.failure = reason

    def refused(self, reason: str) -> None:
        """Note that the transport refused an answer: the SDK's error for it is restated."""
        self._refusals.append(reason)

    def received(self, item: SessionMessage) -> SessionMessage:
        """``item`` if within budget, else an error answer for its request alone.

        Linear in the reply up to the budgets: called in a worker thread for a
        long message.
        """
        from mcp.shared.message import SessionMessage
        from mcp_types import ErrorData, JSONRPCError, JSONRPCResponse

        message = item.message
        if isinstance(message, JSONRPCError):
            return self._restated(item, message)
        if not isinstance(message, JSONRPCResponse):
            return item
        result = message.result
        problem = _over_budget(result)
        if problem is None:
            return item
        refusal = JSONRPCError(
            jsonrpc="2.0", id=message.id,
            error=ErrorData(code=REFUSED_BY_CLIENT, message=f"{self.label} {problem}"),
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


def _over_budget(result: object) -> str | None:
    if not isinstance(result, dict):
        return None
    content = result.get("content")
    if isinstance(content, list) and len(content) > MAX_CONTENT_BLOCKS:
        return (
            f"answered with {len(content)} content blocks, more than the "
            f"{MAX_CONTENT_BLOCKS} a result may carry; the answer was refused"
        )
    if exceeds_nodes(result, MAX_RESULT_NODES):
        return (
            f"answered with more than {MAX_RESULT_NODES} JSON values in one result; "
            "the answer was refused"
        )
    return None


#: A string, or one token that adds a value to a container (outside strings).
_TOKEN: Final = re.compile(rb'"(?:[^"\\]|\\.)*+"|[,\[{]')


def _too_many_values(line: bytes) -> bool:
    """Whether the JSON text ``line`` holds more than :data:`MAX_RESULT_NODES` values.

    Counting bytes is one fast C call; only when that upper bound is over the
    budget (commas or brackets inside strings count too) are the tokens outside
    strings counted, one match at a time, so the thread doing it never holds
    the GIL for long.
    """
    if line.count(b",") + line.count(b"[") + line.count(b"{") <= MAX_RESULT_NODES:
        return False
    count = 0
    for match in _TOKEN.finditer(line):
        if match.end() - match.start() == 1:
            count += 1
            if count > MAX_RESULT_NODES:
                return True
    return False


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
                    result = getattr(item.message, "result", None)
                    message = (
                        guard.received(item)
                        if not exceeds_nodes(result, INLINE_NODES)
                        else await anyio.to_thread.run_sync(
                            guard.received, item, abandon_on_cancel=True
                        )
                    )
                    try:
                        await read_send.send(message)
                    except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                        return

        async def outbound() -> None:
            async with write_receive:
                async for item in write_receive:
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
