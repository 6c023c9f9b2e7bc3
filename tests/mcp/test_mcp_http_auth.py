"""Authentication over MCP's HTTP: the served side's bearer token, the client's own headers.

``serve_http(token=...)`` (``codemode serve-mcp --http PORT --token-file FILE``)
answers only requests that carry exactly one ``Authorization: Bearer <token>``;
any other is refused with 401 by its headers, like a page's request, before its
body is read and without a place in the backlog. ``McpTools.http(headers=...)``
(``--mcp-header NAME=VAR``) sends the caller's headers with every request, and
no message, log line, repr or session log shows their values.

Requests are raw HTTP over a socket or the SDK's client, to the real server (in
this event loop, so its backlog can be read, or the ``codemode`` process).
Nothing is timed: each step waits for the answer it means.
"""

from __future__ import annotations

import hmac
import json
import logging
import os
import stat
import string
import subprocess
import traceback
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from codemode import AbortSignal, Registry
from codemode._loading import ToolSpecError
from codemode._log import MemoryStore, ModelToolCall, SessionLog
from codemode._turns import run_turn
from codemode.cli import main
from codemode.mcp import McpTools
from codemode.mcp._headers import TRANSPORT_HEADERS, shown_url
from codemode.mcp._server import McpCodeServer, read_token_file, serve_http
from codemode.mcp._server_http import MAKE_TOKEN, HttpAdmission, check_token
from codemode.mcp._server_wire import Backlog
from codemode.mcp._spec import parse_spec

from .processes import CODEMODE, GUARD_SECONDS, REPO, checkout_env, http_server
from .served_http import served_http
from .test_mcp_http_bounds import RawServer, listening, small
from .test_mcp_serve_http_loopback import INIT, Asgi, registry, request, status_of

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator
    from pathlib import Path

    from anyio.abc import SocketStream

pytestmark = pytest.mark.xdist_group("mcp-http-auth")

#: Seconds: a guard against hangs, never a timing assertion.
GUARD = 60
SERVED = str(REPO / "tests" / "mcp" / "served_tools.py") + ":registry"
#: Fixed (the same in every test process), shaped as secrets.token_urlsafe(32) makes them.
TOKEN = "Qm9ndXMtdG9rZW4tZm9yLXRlc3RzLW9ubHktNDNjaGFy"[:43]
#: What the client sends besides the token; neither may show anywhere.
API_KEY = "k3y-5f1d2c9e8b7a6f5e4d3c2b1a0f9e8d7c"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def bearer(token: str = TOKEN) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


async def head_of(stream: SocketStream) -> tuple[int, dict[str, str], bytes]:
    """An answer's status, its headers (names in lower case) and its body."""
    received = BufferedByteReceiveStream(stream)
    head = await received.receive_until(b"\r\n\r\n", 64 * 1024)
    first, *lines = head.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip()
               for name, _, value in (line.partition(":") for line in lines)}
    body = await received.receive_exactly(int(headers.get("content-length", "0")))
    return int(first.split(" ")[1]), headers, body


# -- the token a server requires ----------------------------------------------------------------

BAD_TOKENS = [
    "", "short", "x" * 15, "a b c d e f g h i j", "é" * 20, "abc=def" * 4, "tok\n" * 5,
    "a" * 1025, '"' * 20, "Bearer " + "a" * 20,
]


@pytest.mark.parametrize("bad", BAD_TOKENS, ids=range(len(BAD_TOKENS)))
def test_a_token_that_is_short_or_not_a_b64token_is_refused_saying_how_to_make_one(
    bad: str,
) -> None:
    with pytest.raises(ValueError, match="make one with") as caught:
        check_token(bad)
    message = str(caught.value)
    assert MAKE_TOKEN in message
    assert "secrets.token_urlsafe(32)" in message
    if len(bad) >= 5:
        assert bad not in message  # never shown


@pytest.mark.parametrize("good", [
    TOKEN, "a" * 16, "AZaz09-._~+/abcd==", "0123456789abcdef", "a" * 1024,
], ids=range(5))
def test_a_token_of_at_least_16_b64token_characters_is_accepted(good: str) -> None:
    assert check_token(good) == good


async def test_serve_http_refuses_a_bad_token_before_it_listens() -> None:
    def listening(url: str) -> None:
        raise AssertionError(f"listening at {url}")

    async with McpCodeServer(registry(), mode="both", pool_size=0) as server:
        with pytest.raises(ValueError, match="make one with"):
            await serve_http(server, port=0, on_ready=listening, token="too-short")


# -- who may ask: refused 401, unread, without a place --------------------------------------------

#: Authorization headers (one per entry, or several) that do not carry the token.
REFUSED_CREDENTIALS: list[list[str]] = [
    [],
    ["Bearer " + "W" * 43],
    [f"Bearer {TOKEN}", f"Bearer {TOKEN}"],
    [f"Bearer {TOKEN}", "Bearer wrong"],
    [f"Basic {TOKEN}"],
    [TOKEN],
    ["Bearer"],
    ["Bearer "],
    [f"Bearer {TOKEN}x"],
    [f"Bearer {TOKEN[:-1]}"],
    [f"Bearer\t{TOKEN}"],
    [f"Bearer {TOKEN} {TOKEN}"],
    [f"Token {TOKEN}"],
]


def credentials_request(method: str, port: int, values: list[str], *, body: bytes = b"",
                        declared: int | None = None) -> bytes:
    """A raw request with one ``Authorization`` line per value (maybe several)."""
    raw = request(method, port, body=body, declared=declared)
    head, _, rest = raw.partition(b"\r\n\r\n")
    extra = b"".join(b"\r\nAuthorization: " + value.encode() for value in values)
    return head + extra + b"\r\n\r\n" + rest


@pytest.mark.parametrize("method", ["POST", "GET", "DELETE"])
async def test_a_request_without_the_token_is_refused_401_with_a_bearer_challenge(
    method: str,
) -> None:
    async with served_http(registry(), token=TOKEN) as (server, _, port):
        for values in REFUSED_CREDENTIALS:
            raw = credentials_request(method, port, values, body=INIT)
            with anyio.fail_after(GUARD):
                async with await anyio.connect_tcp("127.0.0.1", port) as stream:
                    await stream.send(raw)
                    status, headers, body = await head_of(stream)
            assert status == 401, (values, status, body)
            assert headers["www-authenticate"].startswith("Bearer"), headers
            answer = json.loads(body)
            assert (answer["id"], answer["error"]["code"]) == (None, -32600)
            assert "Unauthorized" in answer["error"]["message"]
            assert TOKEN[:12] not in body.decode()  # nothing sent as a token is repeated
        assert (server.backlog.most_requests, server.backlog.refused) == (0, 0)


async def test_a_refused_request_takes_no_place_and_its_body_is_never_read() -> None:
    # Each declares a body it never sends: a request that was read would wait for
    # it, holding a place in the backlog (max_pending=2) meanwhile.
    async with served_http(
        registry(), token=TOKEN, max_concurrent=1, max_queued=0, max_pending=2
    ) as (server, url, port):
        streams = []
        try:
            for values in REFUSED_CREDENTIALS:
                stream = await anyio.connect_tcp("127.0.0.1", port)
                streams.append(stream)
                await stream.send(credentials_request("POST", port, values, declared=1000))
            with anyio.fail_after(GUARD):
                for stream in streams:
                    status, _, _ = await head_of(stream)
                    assert status == 401
            assert (server.backlog.most_requests, server.backlog.refused) == (0, 0)
            # Every refused connection is still open, and the client with the token is served.
            async with McpTools.http(url, headers=bearer()) as remote:
                imported = Registry(mode="native")
                await remote.register(imported, prefix="remote_")
                assert imported.get("remote_echo") is not None
        finally:
            for stream in streams:
                await stream.aclose()


async def test_the_right_token_is_served_and_the_scheme_may_be_in_any_case() -> None:
    async with served_http(registry(), token=TOKEN) as (_, url, port):
        for value in (f"Bearer {TOKEN}", f"bearer {TOKEN}", f"BEARER   {TOKEN}"):
            raw = credentials_request("POST", port, [value], body=INIT)
            with anyio.fail_after(GUARD):
                assert (await status_of("127.0.0.1", port, raw))[0] == 200, value
        async with McpTools.http(url, headers={"authorization": f"bearer {TOKEN}"}) as remote:
            imported = Registry(mode="native")
            await remote.register(imported, prefix="remote_")
            assert imported.get("remote_echo") is not None
        # ... and only with it.
        raw = credentials_request("POST", port, [], body=INIT)
        with anyio.fail_after(GUARD):
            assert (await status_of("127.0.0.1", port, raw))[0] == 401


async def failed_to_enter(remote: McpTools) -> str:
    """Everything the exception ``remote`` fails to enter with says, traceback and all."""
    try:
        async with remote:
            pass
    except Exception as exc:  # the SDK raises a group holding the server's error
        return "".join(traceback.format_exception(exc))
    raise AssertionError(f"{remote!r} was entered")


async def test_the_sdks_client_without_the_token_fails_saying_why() -> None:
    async with served_http(registry(), token=TOKEN) as (_, url, _):
        with anyio.fail_after(GUARD):
            failure = await failed_to_enter(McpTools.http(url))
    assert "Unauthorized: this server needs an Authorization: Bearer token" in failure


async def test_a_secret_in_the_url_shows_in_no_message_label_or_repr() -> None:
    async with served_http(registry(), token=TOKEN) as (_, url, _):
        secret_url = url.replace("http://", f"http://reader:{SECRET}@") + f"?key={API_KEY}&r=eu"
        remote = McpTools.http(secret_url)
        with anyio.fail_after(GUARD):
            failure = await failed_to_enter(remote)
    assert "Unauthorized" in failure
    assert remote.label == f"MCP server at {url.replace('http://', 'http://***@')}?key=***&r=***"
    for text in (failure, repr(remote), remote.label):
        assert SECRET not in text
        assert API_KEY not in text


_URL_TEXT = st.text(string.ascii_letters + string.digits + "-._~%!$'()*+,;", min_size=1)


@given(user=_URL_TEXT, password=_URL_TEXT, value=_URL_TEXT, fragment=_URL_TEXT)
def test_a_shown_url_hides_its_user_information_and_query_values(
    user: str, password: str, value: str, fragment: str
) -> None:
    url = f"https://{user}:{password}@mcp.example.com:8443/v1/mcp?api_key={value}&m={value}"
    shown = "https://***@mcp.example.com:8443/v1/mcp?api_key=***&m=***"
    assert shown_url(url) == shown
    assert shown_url(f"{url}#{fragment}") == shown
    assert shown_url(f"https://{password}@mcp.example.com/mcp") == "https://***@mcp.example.com/mcp"
    assert shown_url("http://127.0.0.1:8000/mcp") == "http://127.0.0.1:8000/mcp"


_KEY_TEXT = st.text(string.ascii_letters + string.digits + "-_", min_size=25, max_size=64)
_WORD = st.text(string.ascii_lowercase + "-_.", min_size=1, max_size=24)


@given(key=_KEY_TEXT, word=_WORD)
def test_a_key_in_the_url_path_is_hidden_and_the_endpoint_names_stay(key: str, word: str) -> None:
    # Hosted servers that put the key in the path: `/mcp/<key>/sse`, `/servers/<uuid>/mcp`.
    assert shown_url(f"https://mcp.example.com/{word}/{key}/sse") == (
        f"https://mcp.example.com/{word}/***/sse"
    )


@pytest.mark.parametrize(("url", "shown"), [
    ("https://h.example/servers/123e4567-e89b-12d3-a456-426614174000/mcp",
     "https://h.example/servers/***/mcp"),
    ("https://h.example/mcp/a1b2c3d4e5/sse", "https://h.example/mcp/***/sse"),
    ("https://h.example/mcp/a%2Fkey/sse", "https://h.example/mcp/***/sse"),
    ("https://h.example/v1/mcp/", "https://h.example/v1/mcp/"),
    ("https://h.example/2025/mcp", "https://h.example/2025/mcp"),
], ids=range(5))
def test_a_path_segment_shows_only_when_it_reads_as_a_word(url: str, shown: str) -> None:
    # A word: at most 24 of `[A-Za-z0-9_.~-]`, at most 4 of them digits.
    assert shown_url(url) == shown


def test_a_url_that_cannot_be_split_shows_its_scheme_alone() -> None:
    assert shown_url(f"http://[::1:{SECRET}/mcp") == "http://***"


@pytest.mark.parametrize(("url", "shown"), [
    (f"https://mcp.example.com/mcp?{API_KEY}", "https://mcp.example.com/mcp?***"),
    (f"https://mcp.example.com/mcp?r=eu&{API_KEY}", "https://mcp.example.com/mcp?r=***&***"),
    (f"https://mcp.example.com/mcp?{API_KEY}{API_KEY}=1", "https://mcp.example.com/mcp?***"),
    (f"reader:{API_KEY}@mcp.example.com/mcp", "***"),
    (f"mcp.example.com/mcp?key={API_KEY}", "***"),
], ids=range(5))
def test_a_query_part_that_is_no_short_name_and_a_text_that_is_no_url_show_as_stars(
    url: str, shown: str
) -> None:
    # A key given as the whole query (`?KEY`), or a URL written without its scheme.
    assert shown_url(url) == shown


@pytest.mark.parametrize("url", [
    f" https://reader:{API_KEY}@mcp.example.com/mcp",
    f"HTTPS://mcp.example.com/mcp?key={API_KEY}",
    f"reader:{API_KEY}@mcp.example.com/mcp",
], ids=range(3))
def test_a_url_refused_by_its_form_is_not_shown(url: str) -> None:
    with pytest.raises(ValueError, match="url must be an http://") as caught:
        McpTools.http(url)
    assert API_KEY not in "".join(traceback.format_exception(caught.value))
    with pytest.raises(ToolSpecError) as refused:
        parse_spec(f"mcp+http:{url}")
    assert API_KEY not in "".join(traceback.format_exception(refused.value))


def test_a_spec_shows_its_url_as_labels_do() -> None:
    spec = parse_spec(f"mcp+http:https://reader:{SECRET}@mcp.example.com/mcp?key={API_KEY}")
    for text in (repr(spec), str(spec)):
        assert text == "McpSpec(transport='http', url='https://***@mcp.example.com/mcp?key=***')"


async def test_a_secret_in_the_url_is_in_no_log_record(caplog: pytest.LogCaptureFixture) -> None:
    # httpx2 logs every request's URL at INFO, the SDK its endpoint at DEBUG.
    caplog.set_level(logging.DEBUG)
    async with served_http(registry(), token=TOKEN) as (_, url, _):
        secret_url = url.replace("http://", f"http://reader:{SECRET}@") + f"?key={API_KEY}"
        with anyio.fail_after(GUARD):
            failure = await failed_to_enter(McpTools.http(secret_url))
    assert "Unauthorized" in failure
    records = [f"{record.getMessage()} {record.exc_text or ''}" for record in caplog.records]
    assert any("HTTP Request" in record and "?key=***" in record for record in records)
    for text in (*records, caplog.text):
        assert SECRET not in text
        assert API_KEY not in text


LOCAL = (b"host", b"127.0.0.1:8000")
JSON = (b"content-type", b"application/json")
RIGHT = (b"authorization", b"Bearer " + TOKEN.encode())


@pytest.mark.parametrize(("headers", "status"), [
    ([(b"host", b"evil.example:8000"), JSON], 421),  # a page is refused by its Host first,
    ([LOCAL, (b"origin", b"http://evil.example"), JSON], 403),  # or its Origin,
    ([LOCAL, (b"origin", b"http://evil.example"), RIGHT, JSON], 403),  # token or not
    ([LOCAL, JSON], 401),
    ([LOCAL, (b"content-type", b"text/plain")], 401),  # no token: nothing else is said
    ([LOCAL, RIGHT, (b"content-type", b"text/plain")], 415),
    ([LOCAL, RIGHT, RIGHT, JSON], 401),
])
async def test_the_token_is_checked_after_host_and_origin_and_before_the_content_type(
    headers: list[tuple[bytes, bytes]], status: int
) -> None:
    backlog = Backlog(max_requests=1, max_bytes=1024)
    hostile = Asgi(headers)
    admission = HttpAdmission(hostile.app, backlog, 64, body_timeout=0, token=TOKEN)
    assert await hostile.status(admission) == status
    assert (hostile.read, hostile.seen) == (0, 0)
    assert (backlog.most_requests, backlog.refused) == (0, 0)
    sent = dict(hostile.sent[0]["headers"])
    assert (b"www-authenticate" in sent) == (status == 401)


@pytest.mark.parametrize("method", ["GET", "DELETE", "OPTIONS", "PUT"])
async def test_with_the_token_every_method_reaches_the_app(method: str) -> None:
    backlog = Backlog(max_requests=1, max_bytes=1024)
    local = Asgi([LOCAL, RIGHT], method=method)
    admission = HttpAdmission(local.app, backlog, 64, token=TOKEN)
    assert await local.status(admission) == 299
    assert local.seen == 1
    # ... and without it, none does.
    anonymous = Asgi([LOCAL], method=method)
    assert await anonymous.status(admission) == 401
    assert anonymous.seen == 0


async def test_the_token_is_compared_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    compared: list[tuple[Any, Any]] = []
    real = hmac.compare_digest

    def recording(a: Any, b: Any) -> bool:
        compared.append((a, b))
        return real(a, b)

    monkeypatch.setattr(hmac, "compare_digest", recording)
    wrong = "W" * 43
    for value, status in ((f"Bearer {TOKEN}", 299), (f"Bearer {wrong}", 401)):
        probe = Asgi([LOCAL, (b"authorization", value.encode())], method="GET")
        admission = HttpAdmission(probe.app, Backlog(max_requests=1, max_bytes=64), 64,
                                  token=TOKEN)
        assert await probe.status(admission) == status
    assert compared == [(TOKEN.encode(), TOKEN.encode()), (wrong.encode(), TOKEN.encode())]
    # The comparison decides: were it to say no, the right token would be refused too.
    monkeypatch.setattr(hmac, "compare_digest", lambda a, b: False)
    probe = Asgi([LOCAL, RIGHT], method="GET")
    admission = HttpAdmission(probe.app, Backlog(max_requests=1, max_bytes=64), 64, token=TOKEN)
    assert await probe.status(admission) == 401


async def test_a_connection_that_is_not_http_is_closed_unanswered() -> None:
    # No WebSocket is served: none may reach the app past the checks.
    seen: list[Any] = []
    sent: list[Any] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        seen.append(scope)

    async def send(message: Any) -> None:
        sent.append(message)

    async def receive() -> Any:
        return {"type": "websocket.connect"}

    admission = HttpAdmission(app, Backlog(max_requests=1, max_bytes=64), 64, token=TOKEN)
    scope = {"type": "websocket", "path": "/mcp", "headers": [LOCAL]}
    await admission(scope, receive, send)
    assert seen == []
    assert sent == [{"type": "websocket.close", "code": 1008}]
    assert TOKEN not in repr(admission)


# -- the client's headers -------------------------------------------------------------------------


@pytest.fixture
async def recorder() -> AsyncIterator[RawServer]:
    """A raw MCP server that records every request's headers (and ends sessions on DELETE)."""

    async def deleted(stream: SocketStream) -> None:
        await stream.send(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")

    server = RawServer(plans={"ping": small}, session=True, on_delete=deleted)
    async with listening(server):
        yield server


async def test_the_clients_headers_go_with_every_request(recorder: RawServer) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}", "X-Api-Key": API_KEY}
    with anyio.fail_after(GUARD):
        async with McpTools.http(recorder.url, headers=headers) as remote:
            imported = Registry(mode="native")
            await remote.register(imported)
            result = await run_turn(
                imported, [ModelToolCall(call_id="c1", name="ping", arguments="{}")],
                agent=None, signal=AbortSignal(), log=None, turn=1,
            )
            assert result[0].is_error is False
    methods = [method for method, _ in recorder.requests]
    assert methods.count("POST") >= 3, methods
    assert "DELETE" in methods, methods
    for method, sent in recorder.requests:
        assert sent.get("authorization") == f"Bearer {TOKEN}", method
        assert sent.get("x-api-key") == API_KEY, method
        assert sent.get("accept-encoding") == "identity", method


async def test_the_clients_token_is_what_a_served_token_needs() -> None:
    async with served_http(registry(), token=TOKEN) as (_, url, _):
        with anyio.fail_after(GUARD):
            async with McpTools.http(url, headers=bearer()) as remote:
                imported = Registry(mode="native")
                await remote.register(imported, prefix="remote_")
                [result] = await run_turn(
                    imported,
                    [ModelToolCall(call_id="c1", name="remote_echo", arguments='{"text": "hi"}')],
                    agent=None, signal=AbortSignal(), log=None, turn=1,
                )
    assert result.is_error is False
    assert "hi" in str(result.content)
    # ... which a client without it, or with another, does not have.
    async with served_http(registry(), token=TOKEN) as (_, url, _):
        with anyio.fail_after(GUARD):
            for headers in ({}, bearer("W" * 43), {"X-Api-Key": TOKEN}):
                assert "Unauthorized" in await failed_to_enter(McpTools.http(url, headers=headers))


@pytest.mark.parametrize("name", sorted(TRANSPORT_HEADERS | {"HOST", "Content-Length",
                                                               "Mcp-Session-Id"}))
def test_a_header_the_transport_sets_cannot_be_given(name: str) -> None:
    with pytest.raises(ValueError, match="set by the MCP HTTP transport"):
        McpTools.http("http://127.0.0.1:1/mcp", headers={name: "x"})


SECRET = "s3cr3t-9a8b7c6d5e4f3a2b1c0d9e8f"


@pytest.mark.parametrize("headers", [
    {"X-Api-Key": f"{SECRET}\r\nX-Injected: 1"},
    {"X-Api-Key": f"{SECRET}\n"},
    {"X-Api-Key": f"{SECRET}\x00"},
    {"X-Api-Key": f" {SECRET}"},
    {"X-Api-Key": f"{SECRET}é"},
    {"X-Api-Key": ""},
    {f"Authorization: Bearer {SECRET}": "x"},
    {f"X-Api-Key {SECRET}": "x"},
    {"": SECRET},
    {"X-Api-Key": SECRET, "x-api-key": SECRET},
], ids=range(10))
def test_a_malformed_header_is_refused_without_showing_its_value(
    headers: dict[str, str],
) -> None:
    with pytest.raises(ValueError, match="headers") as caught:
        McpTools.http("http://127.0.0.1:1/mcp", headers=headers)
    shown = "".join(traceback.format_exception(caught.value))
    assert SECRET not in shown


@pytest.mark.parametrize("headers", [[("X-Api-Key", SECRET)], {"X-Api-Key": 1}, {1: SECRET}],
                         ids=range(3))
def test_headers_must_be_a_mapping_of_str_to_str(headers: Any) -> None:
    with pytest.raises((TypeError, ValueError)) as caught:
        McpTools.http("http://127.0.0.1:1/mcp", headers=headers)
    assert SECRET not in "".join(traceback.format_exception(caught.value))


async def test_a_header_value_never_shows_in_an_error_a_log_line_a_repr_or_a_session_log(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch,
) -> None:
    caplog.set_level(logging.DEBUG)
    sent = {"Authorization": f"Bearer {SECRET}", "X-Api-Key": API_KEY}
    shown: list[str] = []
    log = SessionLog(MemoryStore())
    async with served_http(registry(), token=TOKEN) as (_, url, _):
        with anyio.fail_after(GUARD):
            refused = McpTools.http(url, headers=sent)  # the wrong token
            shown.append(repr(refused))
            shown.append(await failed_to_enter(refused))
            assert "Unauthorized" in shown[-1]
            served = McpTools.http(url, headers={**sent, "Authorization": f"Bearer {TOKEN}"})
            async with served as remote:
                imported = Registry(mode="native")
                await remote.register(imported, prefix="remote_")
                for name, arguments in (("remote_echo", '{"text": "hi"}'),
                                        ("remote_echo", '{"text": 1}'),
                                        ("remote_run_code", '{"code": "return 1"}')):
                    await run_turn(
                        imported, [ModelToolCall(call_id=f"c{len(shown)}", name=name,
                                                 arguments=arguments)],
                        agent=None, signal=AbortSignal(), log=log, turn=len(shown),
                    )
                    shown.append(name)
    monkeypatch.setenv("CODEMODE_TEST_AUTH", f"Bearer {SECRET}")
    spec = parse_spec(f"mcp+http:{url}", ("Authorization=CODEMODE_TEST_AUTH",))
    assert dict(spec.headers) == {"Authorization": f"Bearer {SECRET}"}
    shown += [repr(spec), str(spec), repr(spec.connection())]
    events = [repr(event) for event in log.store.read()]
    assert len(events) >= 6
    records = [f"{record.getMessage()} {record.exc_text or ''}" for record in caplog.records]
    assert any("HTTP Request" in record for record in records)  # the client's log was seen
    for text in (*shown, *events, *records, caplog.text):
        assert SECRET not in text
        assert API_KEY not in text
        assert TOKEN not in text


# -- the command line -----------------------------------------------------------------------------


def token_file(tmp_path: Path, text: str, mode: int = 0o600, name: str = "token") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="latin-1")
    path.chmod(mode)
    return path


def test_a_token_file_holds_the_token_and_one_trailing_newline(tmp_path: Path) -> None:
    assert read_token_file(token_file(tmp_path, TOKEN)) == TOKEN
    assert read_token_file(token_file(tmp_path, TOKEN + "\n")) == TOKEN
    assert read_token_file(token_file(tmp_path, TOKEN + "\r\n")) == TOKEN
    assert read_token_file(token_file(tmp_path, TOKEN + "\n", mode=0o400)) == TOKEN
    # A pipe, as `--token-file <(pass show mcp)` gives, is read too.
    read_end, write_end = os.pipe()
    try:
        os.write(write_end, (TOKEN + "\n").encode())
        os.close(write_end)
        assert read_token_file(f"/dev/fd/{read_end}") == TOKEN
    finally:
        os.close(read_end)


@pytest.mark.parametrize(("text", "mode", "message"), [
    (TOKEN, 0o640, "chmod 600"),
    (TOKEN, 0o604, "chmod 600"),
    (TOKEN, 0o620, "chmod 600"),
    (TOKEN, 0o606, "chmod 600"),
    (TOKEN + "\n\n", 0o600, "make one with"),
    (" " + TOKEN, 0o600, "make one with"),
    (TOKEN[:15], 0o600, "make one with"),
    ("", 0o600, "make one with"),
    (TOKEN + "é", 0o600, "not ASCII"),
    (TOKEN * 200, 0o600, "longer than 4096 bytes"),
], ids=range(10))
def test_a_token_file_others_may_read_or_that_holds_no_token_is_a_usage_error(
    tmp_path: Path, text: str, mode: int, message: str,
) -> None:
    path = token_file(tmp_path, text, mode)
    done = CliRunner().invoke(
        main, ["serve-mcp", "--tools", SERVED, "--http", "0", "--token-file", str(path)]
    )
    assert done.exit_code == 2, done.output
    assert message in done.stderr
    assert str(path) in done.stderr
    assert TOKEN[:15] not in done.stderr  # what the file holds is never shown
    assert stat.S_IMODE(path.stat().st_mode) == mode  # nothing was changed either


def test_a_token_file_or_max_sessions_that_is_missing_or_for_stdio_is_a_usage_error(
    tmp_path: Path,
) -> None:
    good = token_file(tmp_path, TOKEN)
    for args, message in (
        (["--http", "0", "--token-file", str(tmp_path / "absent")], "cannot open"),
        (["--http", "0", "--token-file", str(good), "--token-file", str(tmp_path)],
         "is a directory"),
        (["--token-file", str(good)], "--token-file is for --http"),
        (["--max-sessions", "8"], "--max-sessions is for --http"),
        (["--http", "0", "--max-sessions", "0"], "--max-sessions"),
    ):
        done = CliRunner().invoke(main, ["serve-mcp", "--tools", SERVED, *args])
        assert done.exit_code == 2, (args, done.output)
        assert message in done.stderr, (args, done.stderr)


@pytest.fixture
def protected(tmp_path: Path) -> Iterator[str]:
    """``codemode serve-mcp --http 0 --token-file FILE`` running; its URL."""
    path = token_file(tmp_path, TOKEN + "\n", name="served-token")
    argv = [*CODEMODE, "serve-mcp", "--tools", SERVED, "--mode", "both", "--http", "0",
            "--token-file", str(path)]
    with http_server(argv) as url:
        yield url


async def test_the_command_with_a_token_file_refuses_requests_without_the_token(
    protected: str,
) -> None:
    port = int(protected.rsplit(":", 1)[1].split("/")[0])
    for values, expected in (([], 401), (["Bearer " + "x" * 43], 401),
                             ([f"Bearer {TOKEN}", f"Bearer {TOKEN}"], 401),
                             ([f"Bearer {TOKEN}"], 200)):
        raw = credentials_request("POST", port, values, body=INIT)
        with anyio.fail_after(GUARD):
            assert (await status_of("127.0.0.1", port, raw))[0] == expected, values


PROGRAM = 'return await tools.stock(item="apples")\n'


def codemode(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CODEMODE, *args], cwd=REPO, env={**checkout_env(), **(env or {})},
        capture_output=True, text=True, timeout=GUARD_SECONDS, check=False,
    )


def test_run_sends_a_header_from_the_environment_to_a_served_token(
    protected: str, tmp_path: Path,
) -> None:
    program = tmp_path / "stock.py"
    program.write_text(PROGRAM)
    spec = f"mcp+http:{protected}"
    done = codemode("run", str(program), "--tools", spec, "--json",
                    "--mcp-header", "Authorization=MCP_AUTH",
                    env={"MCP_AUTH": f"Bearer {TOKEN}"})
    assert done.returncode == 0, done.stderr
    assert str(json.loads(done.stdout)["result"]) == "12"
    wrong = codemode("run", str(program), "--tools", spec, "--mcp-header",
                     "Authorization=MCP_AUTH", env={"MCP_AUTH": f"Bearer {SECRET}"})
    assert wrong.returncode == 2
    assert "Unauthorized" in wrong.stderr
    without = codemode("run", str(program), "--tools", spec)
    assert without.returncode == 2
    assert "Unauthorized" in without.stderr
    for text in (done.stdout, done.stderr, wrong.stdout, wrong.stderr, without.stderr):
        assert TOKEN not in text
        assert SECRET not in text


@pytest.mark.parametrize(("tools", "option", "env", "message"), [
    ("mcp+http:http://127.0.0.1:1/mcp", f"Authorization=Bearer {SECRET}", {}, "NAME=VAR"),
    ("mcp+http:http://127.0.0.1:1/mcp", f"Authorization: Bearer {SECRET}", {}, "NAME=VAR"),
    ("mcp+http:http://127.0.0.1:1/mcp", SECRET, {}, "NAME=VAR"),
    ("mcp+http:http://127.0.0.1:1/mcp", "Authorization=CODEMODE_TEST_UNSET", {},
     "the environment variable named for 'Authorization' is not set"),
    ("mcp+http:http://127.0.0.1:1/mcp", f"X-Api-Key={SECRET.replace('-', '_')}", {},
     "the environment variable named for 'X-Api-Key' is not set"),
    ("mcp+http:http://127.0.0.1:1/mcp", "Host=MCP_AUTH", {"MCP_AUTH": SECRET},
     "set by the MCP HTTP transport"),
    ("mcp+http:http://127.0.0.1:1/mcp", "X-Api-Key=MCP_AUTH", {"MCP_AUTH": f"{SECRET}\n1"},
     "its text is not shown"),
    ("mcp+stdio:python server.py", "X-Api-Key=MCP_AUTH", {"MCP_AUTH": SECRET},
     "for an HTTP server"),
    (SERVED, "X-Api-Key=MCP_AUTH", {"MCP_AUTH": SECRET}, "for an HTTP MCP server"),
], ids=range(9))
def test_a_bad_mcp_header_is_a_usage_error_that_never_shows_a_secret(
    tools: str, option: str, env: dict[str, str], message: str,
) -> None:
    for command in ("sdk", "schemas"):
        done = CliRunner().invoke(main, [command, "--tools", tools, "--mcp-header", option],
                                  env=env)
        assert done.exit_code == 2, done.output
        assert message in done.stderr, done.stderr
        for secret in (SECRET, SECRET.replace("-", "_")):
            assert secret not in done.output + done.stderr


def test_the_commands_document_the_token_file_and_the_headers() -> None:
    run_help = CliRunner().invoke(main, ["run", "--help"]).stdout
    assert "--mcp-header NAME=VAR" in run_help
    assert "mcp+http:" in run_help
    serve_help = CliRunner().invoke(main, ["serve-mcp", "--help"]).stdout
    assert "--token-file FILE" in serve_help
    assert "Authorization: Bearer" in serve_help
    assert "secrets.token_urlsafe(32)" in serve_help
