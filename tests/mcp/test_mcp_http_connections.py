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

from typing import TYPE_CHECKING

import anyio
import pytest

from codemode import Registry
from codemode.mcp import McpTools, _server_connections
from codemode.mcp._server_connections import MAX_CONNECTIONS, connection_limit

from .served_http import served_http
from .test_mcp_serve_http_loopback import registry

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


@pytest.mark.parametrize(
    ("descriptors", "limit"),
    [(1024, MAX_CONNECTIONS), (256, 64), (40, 10), (16, 8), (4, 8), (1 << 20, MAX_CONNECTIONS)],
)
def test_the_limit_leaves_three_quarters_of_the_descriptors_to_the_rest(
    descriptors: int, limit: int
) -> None:
    assert connection_limit(descriptors) == limit
