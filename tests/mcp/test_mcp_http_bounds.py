"""An MCP server over HTTP is a hostile peer: no body is read past the cap, nothing hangs.

The server here speaks raw HTTP/1.1 from the test's own event loop, so it can
send what an SDK server never would: an endless body, a length that lies, a
compressed or chopped-up answer. Every assertion is on an outcome (which error,
which call still works) or on a count: the bytes and pieces the client's
``CappedBody`` read. Deadlines are guards against hangs only.
"""

from __future__ import annotations

import gzip
import itertools
import json
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from anyio.abc import SocketAttribute
from anyio.streams.buffered import BufferedByteReceiveStream
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codemode import AbortSignal, CallInput, Registry, ToolSuccess
from codemode._json import thaw
from codemode.mcp import MCP_CALL_FAILED, McpTools, _client, _http
from codemode.mcp._http import FREE_PIECES, MIN_MEAN_PIECE_BYTES, CappedBody

from .processes import GUARD_SECONDS

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Iterable

    from anyio.abc import SocketStream

    from codemode import ToolResult

pytestmark = pytest.mark.xdist_group("mcp-http-bounds")

#: The cap most tests connect with (small, so a test never moves much data).
CAP = 64 * 1024
#: The most one network read of httpcore hands over (``READ_NUM_BYTES``).
ONE_READ = 64 * 1024
#: What an "endless" answer would send if nobody stopped reading it.
ENDLESS = 32 * 1024 * 1024


class Gone(Exception):
    """The client closed the connection while the server was still sending."""


# -- the raw server ----------------------------------------------------------------------------


@dataclass
class RawServer:
    """An MCP server in raw HTTP/1.1: ``plans`` answer ``tools/call`` by tool name."""

    plans: dict[str, Callable[[SocketStream, int], Awaitable[None]]] = field(default_factory=dict)
    #: Answer ``initialize`` with a session id (the SDK then DELETEs it on close).
    session: bool = False
    on_delete: Callable[[SocketStream], Awaitable[None]] | None = None
    url: str = ""
    #: Every request: (method, its headers).
    requests: list[tuple[str, dict[str, str]]] = field(default_factory=list)
    #: Set when the client closed a connection the server was still sending on.
    cut: anyio.Event = field(default_factory=anyio.Event)

    async def serve(self, stream: SocketStream) -> None:
        received = BufferedByteReceiveStream(stream)
        try:
            while True:
                head = await received.receive_until(b"\r\n\r\n", 64 * 1024)
                first, *lines = head.decode("latin-1").split("\r\n")
                method = first.split(" ", 1)[0]
                headers = {
                    name.strip().lower(): value.strip()
                    for name, _, value in (line.partition(":") for line in lines)
                }
                self.requests.append((method, headers))
                body = await received.receive_exactly(int(headers.get("content-length", "0")))
                if method == "DELETE" and self.on_delete is not None:
                    await self.on_delete(stream)
                elif method != "POST":
                    await stream.send(b"HTTP/1.1 405 Not Allowed\r\ncontent-length: 0\r\n\r\n")
                else:
                    await self.answer(stream, json.loads(body))
        except Gone:
            self.cut.set()
        except (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError,
                anyio.ClosedResourceError, anyio.DelimiterNotFound, OSError):
            pass
        finally:
            await stream.aclose()

    async def answer(self, stream: SocketStream, message: dict[str, Any]) -> None:
        if "id" not in message:
            await stream.send(b"HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n")
            return
        ident, method = message["id"], message["method"]
        if method == "tools/call":
            await self.plans[message["params"]["name"]](stream, ident)
            return
        extra = b"mcp-session-id: s1\r\n" if self.session and method == "initialize" else b""
        if method == "initialize":
            result: dict[str, Any] = {
                "protocolVersion": message["params"]["protocolVersion"],
                "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": {"name": "raw", "version": "1"},
            }
        elif method == "tools/list":
            result = {"tools": [
                {"name": name, "description": "d", "inputSchema": {"type": "object"}}
                for name in self.plans
            ]}
        else:  # server/discover: this is a legacy server
            error = {"code": -32601, "message": f"unknown method {method}"}
            await send_json(stream, json.dumps(
                {"jsonrpc": "2.0", "id": ident, "error": error}).encode())
            return
        await send_json(stream, json.dumps(
            {"jsonrpc": "2.0", "id": ident, "result": result}).encode(), extra=extra)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@asynccontextmanager
async def listening(server: RawServer) -> AsyncIterator[RawServer]:
    """``server`` serving on a fresh loopback port (its ``url`` set) until the block ends."""
    listener = await anyio.create_tcp_listener(local_host="127.0.0.1")
    server.url = f"http://127.0.0.1:{listener.extra(SocketAttribute.local_port)}/mcp"
    async with listener, anyio.create_task_group() as group:
        group.start_soon(listener.serve, server.serve)
        yield server
        group.cancel_scope.cancel()


@pytest.fixture
async def raw() -> AsyncIterator[RawServer]:
    async with listening(RawServer()) as server:
        yield server


class Body(CappedBody):
    """A ``CappedBody`` that keeps the length its response declared, to find it by."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.declared: int | None = kwargs.get("declared")


@pytest.fixture
def bodies(monkeypatch: pytest.MonkeyPatch) -> list[Body]:
    """Every ``CappedBody`` the client makes, to read its counters."""
    made: list[Body] = []

    def record(*args: Any, **kwargs: Any) -> Body:
        made.append(Body(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr(_http, "CappedBody", record)
    return made


# -- answers -----------------------------------------------------------------------------------


def answer_of(ident: int, text: str) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": ident,
                       "result": {"content": [{"type": "text", "text": text}]}}).encode()


def sized(ident: int, size: int) -> tuple[bytes, str]:
    """An answer of exactly ``size`` bytes, and the text it carries."""
    text = "A" * (size - len(answer_of(ident, "")))
    body = answer_of(ident, text)
    assert len(body) == size
    return body, text


async def send_json(stream: SocketStream, body: bytes, *, extra: bytes = b"",
                    status: bytes = b"200 OK", kind: bytes = b"application/json") -> None:
    await stream.send(b"HTTP/1.1 %s\r\ncontent-type: %s\r\ncontent-length: %d\r\n%s\r\n"
                      % (status, kind, len(body), extra) + body)


async def send_chunked(stream: SocketStream, pieces: Iterable[bytes], *, status: bytes = b"200 OK",
                       kind: bytes = b"application/json", extra: bytes = b"") -> None:
    """A chunked body, one chunk a piece; :class:`Gone` once the client stops reading."""
    try:
        await stream.send(b"HTTP/1.1 %s\r\ncontent-type: %s\r\ntransfer-encoding: chunked\r\n"
                          b"%s\r\n" % (status, kind, extra))
        for piece in pieces:
            await stream.send(b"%x\r\n%s\r\n" % (len(piece), piece))
        await stream.send(b"0\r\n\r\n")
    except (anyio.BrokenResourceError, anyio.ClosedResourceError, OSError) as exc:
        raise Gone from exc


def endless(
    kind: bytes = b"application/json", status: bytes = b"200 OK", extra: bytes = b""
) -> Callable[[SocketStream, int], Awaitable[None]]:
    """A chunked answer of :data:`ENDLESS` bytes, made as it is sent."""

    async def plan(stream: SocketStream, ident: int) -> None:
        head = b'{"jsonrpc": "2.0", "id": %d, "result": {"content": [{"type": "text", "text": "'
        tail = b'"}]}}'
        filler = (b"A" * ONE_READ for _ in range(ENDLESS // ONE_READ))
        await send_chunked(stream, itertools.chain([head % ident], filler, [tail]),
                           kind=kind, status=status, extra=extra)

    return plan


async def small(stream: SocketStream, ident: int) -> None:
    await send_json(stream, answer_of(ident, "ok"))


async def call(registry: Registry, name: str) -> ToolResult:
    return await registry.execute(CallInput("c1", name, {}, AbortSignal()))


def failure(result: ToolResult) -> str:
    """The message of a failed call, which must be ``MCP_CALL_FAILED``."""
    assert not isinstance(result, ToolSuccess), result
    assert result.error.info is not None
    assert result.error.info.code == MCP_CALL_FAILED, result
    return result.error.message


def too_long(url: str, tool: str, cap: int = CAP) -> str:
    return (f'MCP call of "{tool}" failed: MCP server at {url} sent a message longer than '
            f"max_message_bytes={cap}; the answer was refused (raise max_message_bytes, "
            "or fix the server)")


# -- the cap on a JSON body --------------------------------------------------------------------


async def test_an_endless_body_fails_its_call_alone_and_is_read_no_further_than_the_cap(
    raw: RawServer, bodies: list[Body]
) -> None:
    raw.plans.update(endless=endless(), small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            refused = await call(registry, "endless")
            await raw.cut.wait()  # the client closed that connection mid-body
            after = await call(registry, "small")
    assert failure(refused) == too_long(raw.url, "endless")
    assert isinstance(after, ToolSuccess), after
    assert thaw(after.value) == "ok"
    [endless_body] = [body for body in bodies if body.read > CAP]
    assert endless_body.read <= CAP + ONE_READ  # of the 32 MiB on offer


async def test_a_declared_length_over_the_cap_is_refused_before_a_byte_is_read(
    raw: RawServer, bodies: list[Body]
) -> None:
    async def declared(stream: SocketStream, ident: int) -> None:
        await send_json(stream, sized(ident, CAP + 1)[0])

    raw.plans.update(declared=declared, small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            refused = await call(registry, "declared")
            after = await call(registry, "small")
    assert failure(refused) == too_long(raw.url, "declared")
    assert isinstance(after, ToolSuccess), after
    [refused_body] = [body for body in bodies if body.declared == CAP + 1]
    assert (refused_body.read, refused_body.pieces) == (0, 0)


@pytest.mark.parametrize("chunked", [False, True], ids=["content-length", "chunked"])
@pytest.mark.parametrize("size", [CAP - 1, CAP, CAP + 1])
async def test_a_body_up_to_the_cap_is_read_whole_and_one_byte_more_is_refused(
    raw: RawServer, chunked: bool, size: int
) -> None:
    sent: list[str] = []

    async def exact(stream: SocketStream, ident: int) -> None:
        body, text = sized(ident, size)
        sent.append(text)
        if chunked:
            await send_chunked(stream, [body[i:i + 4096] for i in range(0, len(body), 4096)])
        else:
            await send_json(stream, body)

    raw.plans.update(exact=exact, small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            result = await call(registry, "exact")
            after = await call(registry, "small")
    if size <= CAP:
        assert isinstance(result, ToolSuccess), result
        assert thaw(result.value) == sent[0]
    else:
        assert failure(result) == too_long(raw.url, "exact")
    assert isinstance(after, ToolSuccess), after


PROPERTY_CAP = 16 * 1024

_EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))


@_EXAMPLES
@given(
    size=st.integers(PROPERTY_CAP - 3000, PROPERTY_CAP + 3000),
    cuts=st.lists(st.integers(32, 8192), min_size=1, max_size=64),
    chunked=st.booleans(),
)
async def test_a_body_in_any_pieces_is_read_whole_within_the_cap_and_refused_past_it(
    raw: RawServer, bodies: list[Body], size: int, cuts: list[int], chunked: bool
) -> None:
    bodies.clear()
    sent: list[str] = []

    async def pieces(stream: SocketStream, ident: int) -> None:
        body, text = sized(ident, size)
        sent.append(text)
        parts: list[bytes] = []
        at = 0
        while at < len(body):
            cut = cuts[len(parts) % len(cuts)]
            parts.append(body[at:at + cut])
            at += cut
        if chunked:
            await send_chunked(stream, parts)
            return
        await stream.send(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                          b"content-length: %d\r\n\r\n" % size)
        for part in parts:
            await stream.send(part)

    raw.plans["pieces"] = pieces
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=PROPERTY_CAP) as server:
            await server.register(registry)
            result = await call(registry, "pieces")
    [body] = [body for body in bodies if body.declared == (None if chunked else size)]
    if size <= PROPERTY_CAP:
        assert isinstance(result, ToolSuccess), result
        assert thaw(result.value) == sent[0]
        assert body.read == size
    else:
        assert failure(result) == too_long(raw.url, "pieces", PROPERTY_CAP)
        if chunked:  # read up to the piece that crossed the cap, no further
            assert PROPERTY_CAP < body.read <= PROPERTY_CAP + max(cuts)
        else:  # refused on its declared length, unread
            assert body.read == 0


# -- event streams -----------------------------------------------------------------------------


def event_of(text_size: int) -> Callable[[SocketStream, int], Awaitable[None]]:
    async def plan(stream: SocketStream, ident: int) -> None:
        event = b"event: message\ndata: " + answer_of(ident, "E" * text_size) + b"\n\n"
        await send_json(stream, event, kind=b"text/event-stream")

    return plan


async def test_an_event_over_the_cap_fails_its_call_alone(raw: RawServer) -> None:
    raw.plans.update(event=event_of(CAP), small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            refused = await call(registry, "event")
            after = await call(registry, "small")
    assert failure(refused) == (
        f'MCP call of "event" failed: MCP server at {raw.url} sent an event longer than '
        f"max_message_bytes={CAP}; the answer was refused (raise max_message_bytes, "
        "or fix the server)"
    )
    assert isinstance(after, ToolSuccess), after


async def test_an_event_under_the_cap_is_read_though_the_sdk_alone_would_stop_at_1_mib(
    raw: RawServer,
) -> None:
    raw.plans["event"] = event_of(3 * 1024 * 1024 // 2)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=2 * 1024 * 1024) as server:
            await server.register(registry)
            result = await call(registry, "event")
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == "E" * (3 * 1024 * 1024 // 2)


# -- bodies that are not what they say ---------------------------------------------------------


async def test_a_compressed_body_is_refused_and_identity_is_what_the_client_asks_for(
    raw: RawServer,
) -> None:
    async def squeezed(stream: SocketStream, ident: int) -> None:
        await send_json(stream, gzip.compress(answer_of(ident, "ok")),
                        extra=b"content-encoding: gzip\r\n")

    raw.plans.update(squeezed=squeezed, small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            await server.register(registry)
            refused = await call(registry, "squeezed")
            after = await call(registry, "small")
    assert failure(refused) == (
        f'MCP call of "squeezed" failed: MCP server at {raw.url} sent a compressed answer '
        "(Content-Encoding: gzip), though this client asks for identity; the answer was refused"
    )
    assert isinstance(after, ToolSuccess), after
    assert {headers.get("accept-encoding") for _, headers in raw.requests} == {"identity"}


async def test_a_body_that_ends_before_its_length_fails_its_call_alone(raw: RawServer) -> None:
    async def short(stream: SocketStream, ident: int) -> None:
        await stream.send(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                          b"content-length: 1000\r\n\r\n" + answer_of(ident, "x")[:10])
        await stream.aclose()

    raw.plans.update(short=short, small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            await server.register(registry)
            lost = await call(registry, "short")
            after = await call(registry, "small")
    assert failure(lost) == (
        f'MCP call of "short" failed: MCP server at {raw.url} did not send its whole answer '
        "(RemoteProtocolError: peer closed connection without sending complete message body "
        "(received 10 bytes, expected 1000)); the answer was lost"
    )
    assert isinstance(after, ToolSuccess), after


async def test_bytes_past_a_declared_length_end_the_session_saying_why(raw: RawServer) -> None:
    # The extra bytes wait in the pooled connection as the start of the next answer:
    # the next request on it fails before it has one, which the SDK does not catch,
    # so its transport, and with it every pending and later call, ends.
    async def overlong(stream: SocketStream, ident: int) -> None:
        body = answer_of(ident, "ok")
        await stream.send(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n"
                          b"content-length: %d\r\n\r\n%sNOT HTTP\r\n\r\n" % (len(body), body))

    raw.plans.update(overlong=overlong, small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            await server.register(registry)
            answered = await call(registry, "overlong")
            broken = await call(registry, "small")
            later = await call(registry, "small")
    assert isinstance(answered, ToolSuccess), answered
    assert failure(broken).startswith(
        f'MCP call of "small" failed: an HTTP request to MCP server at {raw.url} failed '
        "(RemoteProtocolError: "
    )
    assert failure(broken).endswith("; the connection was closed")
    assert raw.url in failure(later)


async def test_a_body_in_tiny_pieces_is_refused_after_a_bounded_number_of_them(
    raw: RawServer, bodies: list[Body]
) -> None:
    async def crumbs(stream: SocketStream, ident: int) -> None:
        body = sized(ident, 4096)[0]
        await send_chunked(stream, [body[i:i + 1] for i in range(len(body))])

    raw.plans.update(crumbs=crumbs, small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            await server.register(registry)
            refused = await call(registry, "crumbs")
            after = await call(registry, "small")
    [body] = [body for body in bodies if body.declared is None]
    assert body.pieces == FREE_PIECES + body.read // MIN_MEAN_PIECE_BYTES + 1
    assert failure(refused) == (
        f'MCP call of "crumbs" failed: MCP server at {raw.url} sent a message in more than '
        f"{body.pieces - 1} pieces of under 512 bytes on average; the answer was refused "
        "(fix the server)"
    )
    assert isinstance(after, ToolSuccess), after


async def test_an_error_status_with_an_endless_body_is_read_no_further_than_the_cap(
    raw: RawServer, bodies: list[Body]
) -> None:
    raw.plans.update(failing=endless(status=b"500 Internal Server Error"), small=small)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            failed = await call(registry, "failing")
            await raw.cut.wait()
            after = await call(registry, "small")
    # The SDK reads an error status's JSON body for a JSON-RPC error, and says only
    # this when it cannot have one.
    assert failure(failed) == (
        'MCP call of "failing" failed (JSON-RPC error -32603): Server returned an error response'
    )
    assert isinstance(after, ToolSuccess), after
    [endless_body] = [body for body in bodies if body.read > CAP]
    assert endless_body.read <= CAP + ONE_READ


async def test_a_redirects_body_is_never_read_and_the_redirect_is_followed(
    raw: RawServer, bodies: list[Body]
) -> None:
    moved = endless(kind=b"text/html", status=b"307 Temporary Redirect",
                    extra=b"location: " + raw.url.encode() + b"\r\n")
    calls: list[int] = []

    async def redirected(stream: SocketStream, ident: int) -> None:
        # The first attempt is moved to the same endpoint, the second answered.
        calls.append(ident)
        await (moved if len(calls) == 1 else small)(stream, ident)

    raw.plans["redirected"] = redirected
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            result = await call(registry, "redirected")
            await raw.cut.wait()  # the client closed the redirect's connection unread
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == "ok"
    assert len(calls) == 2
    assert all(body.read <= CAP for body in bodies)


# -- closing -----------------------------------------------------------------------------------


async def test_closing_does_not_wait_for_a_delete_the_server_never_answers(
    raw: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def never(stream: SocketStream) -> None:
        await anyio.sleep_forever()

    monkeypatch.setattr(_client, "CLOSE_TIMEOUT", 0.5)
    raw.session = True
    raw.on_delete = never
    raw.plans["small"] = small
    registry = Registry()
    # The SDK reads the DELETE's answer with a 300 s timeout; the guard is shorter.
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            await server.register(registry)
            result = await call(registry, "small")
    assert isinstance(result, ToolSuccess), result
    assert "DELETE" in [method for method, _ in raw.requests]


async def test_an_endless_event_stream_answering_the_delete_is_capped_like_a_body(
    raw: RawServer, bodies: list[Body]
) -> None:
    stream_forever = endless(kind=b"text/event-stream")

    async def on_delete(stream: SocketStream) -> None:
        await stream_forever(stream, 0)

    raw.session = True
    raw.on_delete = on_delete
    raw.plans["small"] = small
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url, max_message_bytes=CAP) as server:
            await server.register(registry)
            result = await call(registry, "small")
        [delete_body] = [body for body in bodies if body.read > CAP]
        assert delete_body.read <= CAP + ONE_READ
        await raw.cut.wait()
    assert isinstance(result, ToolSuccess), result


# -- the setting -------------------------------------------------------------------------------


@pytest.mark.parametrize("cap", [1023, 0, -1, 4096.0, True])
def test_max_message_bytes_is_checked_when_the_connection_is_built(cap: Any) -> None:
    with pytest.raises(ValueError, match=r"^max_message_bytes must be an int of at least 1024"):
        McpTools.http("http://127.0.0.1:1/mcp", max_message_bytes=cap)

