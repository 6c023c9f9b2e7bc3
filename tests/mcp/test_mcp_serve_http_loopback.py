"""``serve-mcp`` over HTTP answers only what is sent to it on loopback, by a local client.

A web page the user visits can send requests to a loopback port: as itself
(a cross-site request: its ``Origin`` is its own), or, after its DNS name was
rebound to 127.0.0.1, as a same-origin request whose ``Host`` is the page's
name. Forms and ``text/plain`` bodies go out without a CORS preflight. Each is
refused by its headers before anything else: it takes no place in the backlog
and its body is never read, so it cannot crowd out a local client either. And
the server, which has no TLS, listens on loopback only (a bearer token, when it has one, is
tested in test_mcp_http_auth.py).

Every request is raw HTTP over a socket, to the real server (in this event
loop, so its backlog can be read, or the ``codemode serve-mcp`` process).
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream
from mcp import Client

from codemode import Registry, tool
from codemode.mcp._server import McpCodeServer, serve_http
from codemode.mcp._server_http import HttpAdmission, http_refusal
from codemode.mcp._server_wire import Backlog

from .processes import CODEMODE, REPO, http_server
from .served_http import served_http

if TYPE_CHECKING:
    from starlette.types import Message

pytestmark = pytest.mark.xdist_group("mcp-http-loopback")

#: Seconds: a guard against hangs, never a timing assertion.
GUARD = 60
SERVED = str(REPO / "tests" / "mcp" / "served_tools.py") + ":registry"
INIT = json.dumps({
    "jsonrpc": "2.0", "id": 0, "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {},
               "clientInfo": {"name": "page", "version": "0"}},
}).encode()


@tool
def echo(text: str) -> str:
    """Say it back."""
    return text


def registry() -> Registry:
    served = Registry(mode="both")
    served.register(echo)
    return served


def request(method: str, port: int, *, host: str | None = None, headers: dict[str, str] | None
            = None, body: bytes = b"", declared: int | None = None) -> bytes:
    """One raw HTTP/1.1 request; ``declared`` is its Content-Length (default: the body's)."""
    fields = {
        "Host": f"127.0.0.1:{port}" if host is None else host,
        "Accept": "application/json, text/event-stream",
        **({"Content-Type": "application/json"} if method == "POST" else {}),
        **(headers or {}),
    }
    if method == "POST":
        fields["Content-Length"] = str(len(body) if declared is None else declared)
    head = "".join(f"{name}: {value}\r\n" for name, value in fields.items() if value)
    return f"{method} /mcp HTTP/1.1\r\n{head}\r\n".encode() + body


async def status_of(connect_to: str, port: int, raw: bytes) -> tuple[int, bytes]:
    """Send ``raw`` on a new connection; the answer's status and its first bytes of body."""
    async with await anyio.connect_tcp(connect_to, port) as stream:
        await stream.send(raw)
        received = BufferedByteReceiveStream(stream)
        head = await received.receive_until(b"\r\n\r\n", 64 * 1024)
        lines = head.decode("latin-1").split("\r\n")
        length = [int(line.split(":", 1)[1]) for line in lines
                  if line.lower().startswith("content-length:")]
        body = await received.receive_exactly(length[0]) if length else b""
        return int(lines[0].split(" ")[1]), body


# -- who may ask --------------------------------------------------------------------------------

NOT_LOOPBACK_HOSTS = [
    "evil.example:{port}", "evil.example", "localhost.evil.example:{port}",
    "127.0.0.1.evil.example:{port}", "localhost:{port}@evil.example", "[::2]:{port}",
    "LocalHost:{port}",
]
OTHER_ORIGINS = [
    "http://evil.example", "http://evil.example:{port}", "https://evil.example", "null",
    "http://localhost.evil.example:{port}", "http://127.0.0.1@evil.example",
    "file://", "http://localhost:{port}/path",
]


@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
async def test_a_request_whose_host_is_not_a_loopback_name_is_refused(method: str) -> None:
    # A page whose DNS name now resolves to 127.0.0.1 sends its own name as Host.
    async with served_http(registry()) as (server, _, port):
        for host in NOT_LOOPBACK_HOSTS:
            raw = request(method, port, host=host.format(port=port),
                          headers={"Mcp-Session-Id": "" if method == "POST" else "0" * 32},
                          body=INIT)
            status, body = await status_of("127.0.0.1", port, raw)
            assert status == 421, (host, status, body)
        for host in ("127.0.0.1:{port}", "localhost:{port}", "[::1]:{port}"):
            status, _ = await status_of(
                "127.0.0.1", port, request("POST", port, host=host.format(port=port), body=INIT)
            )
            assert status == 200, host
        assert server.backlog.refused == 0


@pytest.mark.parametrize("method", ["POST", "GET", "DELETE", "OPTIONS"])
async def test_a_request_from_another_origin_is_refused(method: str) -> None:
    async with served_http(registry()) as (server, _, port):
        for origin in OTHER_ORIGINS:
            raw = request(method, port, headers={"Origin": origin.format(port=port)}, body=INIT)
            status, body = await status_of("127.0.0.1", port, raw)
            assert status == 403, (origin, status, body)
        # A page served from loopback is local, as any local process is.
        for origin in ("http://localhost:3000", "http://127.0.0.1:{port}", "https://[::1]"):
            raw = request("POST", port, headers={"Origin": origin.format(port=port)}, body=INIT)
            assert (await status_of("127.0.0.1", port, raw))[0] == 200, origin
        assert server.backlog.refused == 0


async def test_a_post_a_page_can_send_without_a_preflight_is_refused() -> None:
    # Forms and text/plain need no CORS preflight; a JSON-RPC body in them is not read.
    async with served_http(registry()) as (_, _, port):
        for content_type in ("text/plain", "application/x-www-form-urlencoded",
                             "multipart/form-data; boundary=x", "text/plain; application/json",
                             "application/jsonp", "-"):
            raw = request("POST", port, body=INIT,
                          headers={"Content-Type": "" if content_type == "-" else content_type})
            status, body = await status_of("127.0.0.1", port, raw)
            assert status == 415, (content_type, status, body)
        raw = request("POST", port, body=INIT,
                      headers={"Content-Type": "application/json; charset=utf-8"})
        assert (await status_of("127.0.0.1", port, raw))[0] == 200


async def test_a_refused_request_takes_no_place_and_its_body_is_never_read() -> None:
    # Each of these declares a body and never sends it: a request that is read
    # would wait for it (and hold a place in the backlog meanwhile).
    async with served_http(
        registry(), max_concurrent=1, max_queued=0, max_pending=2
    ) as (server, url, port):
        refused = [
            request("POST", port, host="evil.example", declared=1000),
            request("POST", port, headers={"Origin": "http://evil.example"}, declared=1000),
            request("POST", port, headers={"Content-Type": "text/plain"}, declared=1000),
        ]
        streams = []
        for raw in refused * 4:  # more than max_pending of them, all open at once
            stream = await anyio.connect_tcp("127.0.0.1", port)
            streams.append(stream)
            await stream.send(raw)
        try:
            for stream in streams:
                head = await BufferedByteReceiveStream(stream).receive_until(b"\r\n", 1024)
                assert head.split(b" ")[1] in (b"421", b"403", b"415"), head
            backlog = server.backlog
            assert (backlog.most_requests, backlog.refused) == (0, 0)
            async with Client(url) as client:
                assert (await client.call_tool("echo", {"text": "hi"})).is_error is False
        finally:
            for stream in streams:
                await stream.aclose()


@dataclass
class Asgi:
    """One ASGI request whose body never ends: what the app saw, what came back."""

    headers: list[tuple[bytes, bytes]]
    method: str = "POST"
    read: int = 0
    sent: list[Message] = field(default_factory=list)
    seen: int = 0
    stall: anyio.Event = field(default_factory=anyio.Event)

    async def receive(self) -> Message:
        self.read += 1
        if self.read > 1:
            await self.stall.wait()  # never set
        return {"type": "http.request", "body": b"{", "more_body": True}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        self.seen += 1
        await send({"type": "http.response.start", "status": 299, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def status(self, admission: HttpAdmission) -> int:
        scope = {"type": "http", "method": self.method, "path": "/mcp", "headers": self.headers}
        with anyio.fail_after(GUARD):
            await admission(scope, self.receive, self.send)
        return int(self.sent[0]["status"])


JSON = (b"content-type", b"application/json")
LOCAL = (b"host", b"127.0.0.1:8000")


@pytest.mark.parametrize(("headers", "status"), [
    ([(b"host", b"evil.example:8000"), JSON], 421),
    ([JSON], 421),
    ([LOCAL, LOCAL, JSON], 421),
    ([LOCAL, (b"origin", b"http://evil.example"), JSON], 403),
    ([LOCAL, (b"origin", b"http://localhost"), (b"origin", b"null"), JSON], 403),
    ([LOCAL, (b"content-type", b"text/plain")], 415),
    ([LOCAL], 415),
])
async def test_http_admission_refuses_by_headers_before_it_takes_a_place_or_reads(
    headers: list[tuple[bytes, bytes]], status: int
) -> None:
    backlog = Backlog(max_requests=1, max_bytes=1024)
    hostile = Asgi(headers)
    assert await hostile.status(HttpAdmission(hostile.app, backlog, 64, body_timeout=0)) == status
    answer = json.loads(hostile.sent[1]["body"])
    assert (answer["id"], answer["error"]["code"]) == (None, -32600)
    assert (hostile.read, hostile.seen) == (0, 0)
    assert (backlog.most_requests, backlog.refused) == (0, 0)


@pytest.mark.parametrize("method", ["GET", "DELETE", "PUT"])
async def test_http_admission_checks_every_method_not_only_posts(method: str) -> None:
    backlog = Backlog(max_requests=1, max_bytes=1024)
    hostile = Asgi([(b"host", b"evil.example")], method=method)
    assert await hostile.status(HttpAdmission(hostile.app, backlog, 64)) == 421
    local = Asgi([LOCAL], method=method)
    assert await local.status(HttpAdmission(local.app, backlog, 64)) == 299
    assert (hostile.seen, local.seen) == (0, 1)


def test_the_names_a_request_may_use_are_the_loopback_names_and_the_servers_own() -> None:
    def refused(host: bytes, *names: str) -> int | None:
        scope = {"type": "http", "method": "GET", "headers": [(b"host", host)]}
        answer = http_refusal(scope, names) if names else http_refusal(scope)
        return None if answer is None else answer[0]

    for host in (b"localhost", b"localhost:1", b"127.0.0.1:65535", b"[::1]:8000", b"[::1]"):
        assert refused(host) is None, host
    for host in (b"127.0.0.2:80", b"localhost.:80", b"localhost:80:80", b"[::1]x:80",
                 b"localhost:123456", b"localhost: 80", b"local\x00host"):
        assert refused(host) == 421, host
    assert refused(b"127.0.0.2:80", "127.0.0.2") is None


# -- where it listens ---------------------------------------------------------------------------


@pytest.mark.parametrize("host", ["0.0.0.0", "", "::"])
async def test_serve_http_refuses_to_listen_beyond_loopback(host: str) -> None:
    if host == "::" and not socket.has_ipv6:
        pytest.skip("no IPv6")
    def listening(url: str) -> None:
        raise AssertionError(f"listening at {url}")

    async with McpCodeServer(registry(), mode="both", pool_size=0) as server:
        with pytest.raises(ValueError, match="loopback only") as caught:
            await serve_http(server, port=0, host=host, on_ready=listening)
    assert "no TLS" in str(caught.value)


@pytest.mark.parametrize("host", ["127.0.0.2", "LOCALHOST"])
async def test_any_loopback_host_gets_the_same_checks(host: str) -> None:
    # The SDK guards only 127.0.0.1, localhost and ::1, by their exact strings.
    connect_to = "127.0.0.2" if host == "127.0.0.2" else "127.0.0.1"
    async with served_http(registry(), host) as (_, url, port):
        for raw in (request("POST", port, host=f"evil.example:{port}", body=INIT),
                    request("POST", port, headers={"Origin": "http://evil.example"}, body=INIT)):
            assert (await status_of(connect_to, port, raw))[0] in (421, 403)
        own = request("POST", port, host=f"{host.lower()}:{port}", body=INIT)
        assert (await status_of(connect_to, port, own))[0] == 200
        async with Client(url) as client:
            assert (await client.call_tool("echo", {"text": "hi"})).is_error is False


async def test_the_command_refuses_a_page_on_another_name_or_origin() -> None:
    with http_server([*CODEMODE, "serve-mcp", "--tools", SERVED, "--http", "0"]) as url:
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        for raw, expected in (
            (request("POST", port, host=f"evil.example:{port}", body=INIT), 421),
            (request("POST", port, headers={"Origin": "http://evil.example"}, body=INIT), 403),
            (request("POST", port, headers={"Content-Type": "text/plain"}, body=INIT), 415),
            (request("POST", port, body=INIT), 200),
        ):
            with anyio.fail_after(GUARD):
                assert (await status_of("127.0.0.1", port, raw))[0] == expected


# -- how many sessions it holds -----------------------------------------------------------------


async def opened_session(port: int) -> tuple[int, str | None]:
    """``initialize`` on a new connection: the answer's status and the session id it gave."""
    async with await anyio.connect_tcp("127.0.0.1", port) as stream:
        await stream.send(request("POST", port, body=INIT))
        head = await BufferedByteReceiveStream(stream).receive_until(b"\r\n\r\n", 64 * 1024)
    status, *lines = head.decode("latin-1").split("\r\n")
    ids = [line.split(":", 1)[1].strip() for line in lines
           if line.lower().startswith("mcp-session-id:")]
    return int(status.split(" ")[1]), ids[0] if ids else None


async def test_sessions_past_max_sessions_are_refused_and_one_deleted_makes_room() -> None:
    # Each session the SDK holds costs about 40 KB for 30 minutes; its own bound is 10,000.
    async with served_http(registry(), max_sessions=2) as (_, _, port):
        first, second = await opened_session(port), await opened_session(port)
        assert [first[0], second[0]] == [200, 200]
        assert first[1] is not None
        assert second[1] is not None
        assert await opened_session(port) == (503, None)
        ended = request("DELETE", port, headers={
            "Mcp-Session-Id": first[1], "Mcp-Protocol-Version": "2025-06-18",
        })
        assert (await status_of("127.0.0.1", port, ended))[0] == 200
        status, session = await opened_session(port)
        assert status == 200
        assert session not in (None, first[1], second[1])


@pytest.mark.parametrize("max_sessions", [0, -1, 2.0, True, None])
async def test_serve_http_refuses_a_max_sessions_that_is_no_positive_int(
    max_sessions: Any,
) -> None:
    async with McpCodeServer(registry(), mode="both", pool_size=0) as server:
        with pytest.raises(ValueError, match=r"max_sessions=.*expected a positive int"):
            await serve_http(server, port=0, max_sessions=max_sessions)
