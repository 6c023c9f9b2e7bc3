"""``serve-mcp`` over HTTP holds a connection only while a request on it is served.

A connection that sends no complete request head (nothing at all, or a head a
byte at a time) is closed once it has waited ``HTTP_HEAD_TIMEOUT``, and the
server holds at most ``connection_limit()`` connections: one more closes the
connection that has waited longest for a head. So a local process, without the
token too (it is read from a complete head), cannot take every descriptor of
the server and keep the token holder, the sandbox's pipes and the log from
theirs. Nothing is timed: each test waits for the close it means.
"""

from __future__ import annotations

import select
import socket
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream

from codemode import Registry
from codemode.mcp import McpTools, _server_connections
from codemode.mcp._server_connections import MAX_CONNECTIONS, connection_limit

from .served_http import served_http
from .test_mcp_serve_http_loopback import registry, request

if TYPE_CHECKING:
    from anyio.abc import SocketStream

pytestmark = pytest.mark.xdist_group("mcp-http-connections")

#: Seconds: a guard against hangs, never a timing assertion.
GUARD = 60
TOKEN = "Qm9ndXMtdG9rZW4tZm9yLXRlc3RzLW9ubHktNDNjaGFy"[:43]
#: A request head that never ends.
PARTIAL_HEAD = b"POST /mcp HTTP/1.1\r\nHost: localhost\r\n"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


async def closed_by_server(stream: SocketStream) -> bytes:
    """Read until the server closes ``stream``; what it sent before."""
    received = b""
    with anyio.fail_after(GUARD):
        while True:
            try:
                received += await stream.receive()
            except (anyio.EndOfStream, anyio.BrokenResourceError):
                return received


@pytest.mark.parametrize("sent", [b"", PARTIAL_HEAD], ids=["nothing", "partial-head"])
async def test_a_connection_without_a_complete_request_head_is_closed(
    sent: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(_server_connections, "HTTP_HEAD_TIMEOUT", 0.05)
    # (Served with that timeout, a client's own keep-alive connections would be
    # closed between its requests: test_connections_past_the_limit... serves one.)
    async with (
        served_http(registry(), token=TOKEN) as (_, _, port),
        await anyio.connect_tcp("127.0.0.1", port) as stream,
    ):
        if sent:
            await stream.send(sent)
        assert await closed_by_server(stream) == b""


async def test_connections_past_the_limit_close_the_longest_waiting_and_the_client_is_served(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_server_connections, "MAX_CONNECTIONS", 8)
    limit = connection_limit()
    assert limit == 8
    async with served_http(registry(), token=TOKEN) as (_, url, port):
        idle = [await anyio.connect_tcp("127.0.0.1", port) for _ in range(3 * limit)]
        try:
            # Each connection past the limit closed the one that had waited longest.
            for stream in idle[: 2 * limit]:
                assert await closed_by_server(stream) == b""
            async with McpTools.http(url, headers={"Authorization": f"Bearer {TOKEN}"}) as remote:
                imported = Registry(mode="native")
                await remote.register(imported, prefix="remote_")
                assert imported.get("remote_echo") is not None
        finally:
            for stream in idle:
                await stream.aclose()


#: How many requests a client that reads no answer sends at once on one connection.
PIPELINED = 20_000


def refused(port: int, kind: str) -> bytes:
    """A request the server refuses for its headers, of ``kind``."""
    if kind == "host":
        return request("GET", port, host="evil.example")
    if kind == "origin":
        return request("GET", port, headers={"Origin": "http://evil.example"})
    if kind == "token":
        return request("GET", port)
    return request(
        "POST", port, headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "text/plain"}
    )


@pytest.mark.parametrize("kind", ["host", "origin", "token", "content-type"])
async def test_a_refused_request_is_the_last_one_answered_on_its_connection(kind: str) -> None:
    # Pipelined requests behind a refused one are never answered: a client
    # without the token cannot queue answers it then leaves unread.
    async with (
        served_http(registry(), token=TOKEN) as (_, _, port),
        await anyio.connect_tcp("127.0.0.1", port) as stream,
    ):
        await stream.send(refused(port, kind) * 20)
        answered = await closed_by_server(stream)
    assert answered.count(b"HTTP/1.1 ") == 1, answered[:300]
    assert b"connection: close" in answered.lower()


def stuffed(port: int, raw: bytes) -> socket.socket:
    """A connection that reads almost nothing and has sent ``raw`` until the server
    stopped taking more (or closed it)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1024)
    sock.connect(("127.0.0.1", port))
    sock.setblocking(False)
    try:
        for _ in range(PIPELINED):
            sock.send(raw)
    except (BlockingIOError, ConnectionError):
        pass
    return sock


def hung_up(sock: socket.socket) -> bool:
    """Wait (at most GUARD) until the peer closes ``sock``, reading none of what it sent."""
    watch = select.poll()
    watch.register(sock, select.POLLRDHUP)
    return any(
        events & (select.POLLRDHUP | select.POLLHUP | select.POLLERR)
        for _, events in watch.poll(GUARD * 1000)
    )


async def test_connections_that_read_no_answer_keep_no_client_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every place taken by a connection pipelining refused requests and reading no
    # answer: were their requests "in progress" for as long as they read nothing,
    # the token holder's connection would be the one closed.
    monkeypatch.setattr(_server_connections, "MAX_CONNECTIONS", 8)
    async with served_http(registry(), token=TOKEN) as (_, url, port):
        raw = request("GET", port)
        held = [await anyio.to_thread.run_sync(stuffed, port, raw) for _ in range(8)]
        try:
            for sock in held:
                assert await anyio.to_thread.run_sync(hung_up, sock)
            async with McpTools.http(url, headers={"Authorization": f"Bearer {TOKEN}"}) as remote:
                imported = Registry(mode="native")
                await remote.register(imported, prefix="remote_")
                assert imported.get("remote_echo") is not None
        finally:
            for sock in held:
                sock.close()


def answered_request(port: int) -> bytes:
    """A request with the token that the app answers (404: a path it does not serve),
    keeping the connection."""
    raw = request("GET", port, headers={"Authorization": f"Bearer {TOKEN}"})
    return raw.replace(b" /mcp ", b" /elsewhere ", 1)


async def test_a_connection_whose_client_reads_none_of_its_answers_is_closed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # With the token: requests the app answers (404, a path it does not serve)
    # keeping the connection, pipelined until the server's writes are paused for good.
    monkeypatch.setattr(_server_connections, "HTTP_WRITE_TIMEOUT", 0.05)
    async with served_http(registry(), token=TOKEN) as (_, _, port):
        raw = answered_request(port)
        sock = await anyio.to_thread.run_sync(stuffed, port, raw)
        try:
            assert await anyio.to_thread.run_sync(hung_up, sock)
        finally:
            sock.close()


async def test_a_connection_never_answered_is_closed_before_one_a_client_was_answered_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The client's keep-alive connection has waited longest (since its answer),
    # yet the connections that never sent a request make room first.
    monkeypatch.setattr(_server_connections, "MAX_CONNECTIONS", 8)
    async with served_http(registry(), token=TOKEN) as (_, _, port):
        asked = answered_request(port)
        async with await anyio.connect_tcp("127.0.0.1", port) as kept:
            received = BufferedByteReceiveStream(kept)
            await kept.send(asked)
            with anyio.fail_after(GUARD):
                head = await received.receive_until(b"\r\n\r\n", 65536)
            assert head.startswith(b"HTTP/1.1 404")
            idle = [await anyio.connect_tcp("127.0.0.1", port) for _ in range(8)]
            try:
                assert await closed_by_server(idle[0]) == b""
                await kept.send(asked)  # the kept connection still serves
                with anyio.fail_after(GUARD):
                    body = await received.receive_until(b"HTTP/1.1 404", 65536)
                assert b"connection: close" not in body.lower()
            finally:
                for stream in idle:
                    await stream.aclose()


@pytest.mark.parametrize(
    ("descriptors", "limit"),
    [(1024, MAX_CONNECTIONS), (256, 64), (40, 10), (16, 8), (4, 8), (1 << 20, MAX_CONNECTIONS)],
)
def test_the_limit_leaves_three_quarters_of_the_descriptors_to_the_rest(
    descriptors: int, limit: int
) -> None:
    assert connection_limit(descriptors) == limit
