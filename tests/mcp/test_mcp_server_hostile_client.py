"""``serve-mcp``'s client is a hostile peer: what it sends is bounded, and what it is owed is sent.

The client here speaks raw JSON-RPC: over two OS pipes to :func:`serve_stdio`
running in the test's event loop (so the server's own counts can be read), to
the real ``codemode serve-mcp`` process, and as raw HTTP to :func:`serve_http`.
It writes without reading, sends lines that are not JSON, too deep, batched,
longer than the cap, cancels, and goes away. Every assertion is on an answer
or on a count the server keeps (its backlog of requests read and not yet
answered); deadlines are guards against hangs only. Over stdio the server is
known to be stalled when every task in the loop waits
(``wait_all_tasks_blocked``), never after a sleep; over HTTP, where uvicorn's
main loop wakes every 0.1 s and so the loop never goes quiet for good, each test
waits for the condition it means instead (see ``served_http.py``).
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import socket
import subprocess
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.abc
import pytest
from anyio.streams.buffered import BufferedByteReceiveStream
from hypothesis import given
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from codemode import Registry, tool
from codemode.mcp import _server as server_module
from codemode.mcp._server import SERVER_BUSY, McpCodeServer, serve_stdio
from codemode.mcp._server_http import HttpAdmission
from codemode.mcp._server_messages import MAX_MESSAGE_DEPTH, MAX_MESSAGE_VALUES, id_in
from codemode.mcp._server_wire import Backlog, current_ticket, stdio_wire

from .processes import CODEMODE, GUARD_SECONDS, REPO, checkout_env
from .served_http import served_http, slot_freed

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from anyio.abc import SocketStream
    from starlette.types import Message

pytestmark = pytest.mark.xdist_group("mcp-hostile-client")

#: Seconds: a guard against hangs, never a timing assertion.
GUARD = 60
PARSE_ERROR = -32700
INVALID_REQUEST = -32600
SERVED = str(REPO / "tests" / "mcp" / "served_tools.py") + ":registry"


# -- the served tools ---------------------------------------------------------------------------


@dataclass
class Seen:
    """What the tools saw: calls of ``blob``, and ``hold``'s gate."""

    blobs: int = 0
    blob_returned: anyio.Event = field(default_factory=anyio.Event)
    held: list[int] = field(default_factory=list)
    ended: list[int] = field(default_factory=list)
    entered: anyio.Event = field(default_factory=anyio.Event)
    release: anyio.Event = field(default_factory=anyio.Event)


SEEN = Seen()


@pytest.fixture(autouse=True)
def fresh_tools() -> None:
    global SEEN
    SEEN = Seen()


@tool(concurrency_safe=True)
async def blob(size: int) -> str:
    """A text of ``size`` bytes."""
    SEEN.blobs += 1
    SEEN.blob_returned.set()
    return "x" * size


@tool(concurrency_safe=True)
async def hold(k: int) -> int:
    """Wait until the test lets calls finish."""
    SEEN.held.append(k)
    SEEN.entered.set()
    try:
        await SEEN.release.wait()
    finally:
        SEEN.ended.append(k)
    return k


@tool(concurrency_safe=True)
def count(items: list[Any]) -> int:
    """How many items there are."""
    return len(items)


def registry() -> Registry:
    served = Registry(mode="both")
    for each in (blob, hold, count):
        served.register(each)
    return served


# -- a raw client over two pipes ----------------------------------------------------------------


class Pipes:
    """The client's ends of the two pipes the server is served over: raw bytes both ways."""

    def __init__(self) -> None:
        self.server_in, self.to_server = os.pipe()
        self.from_server, self.server_out = os.pipe()
        for fd in (self.to_server, self.from_server):
            os.set_blocking(fd, False)
        self.sent = 0
        self._received = bytearray()
        self._open = [self.server_in, self.to_server, self.from_server, self.server_out]

    async def write(self, data: bytes) -> None:
        """Write all of ``data``, waiting while the pipe is full (the server is not reading)."""
        view = memoryview(data)
        while view:
            try:
                count = os.write(self.to_server, view)
            except BlockingIOError:
                await anyio.wait_writable(self.to_server)
                continue
            view = view[count:]
            self.sent += count

    async def send(self, message: Any) -> None:
        await self.write(json.dumps(message).encode() + b"\n")

    async def line(self) -> bytes | None:
        """The server's next line, ``None`` once it closed its end."""
        while (end := self._received.find(b"\n")) < 0:
            try:
                chunk = os.read(self.from_server, 1 << 16)
            except BlockingIOError:
                await anyio.wait_readable(self.from_server)
                continue
            if not chunk:
                return None
            self._received += chunk
        line = bytes(self._received[:end])
        del self._received[:end + 1]
        return line

    async def answer(self) -> Any:
        line = await self.line()
        assert line is not None, "the server closed the connection"
        return json.loads(line)

    def close(self, fd: int) -> None:
        if fd in self._open:
            self._open.remove(fd)
            os.close(fd)

    def close_all(self) -> None:
        for fd in list(self._open):
            self.close(fd)


@dataclass
class Served:
    server: McpCodeServer
    pipes: Pipes
    #: Set once ``serve_stdio`` returned.
    ended: anyio.Event


@asynccontextmanager
async def served(**options: Any) -> AsyncIterator[Served]:
    """``serve_stdio`` over fresh pipes in this loop; on exit the client goes away."""
    pipes = Pipes()
    try:
        async with McpCodeServer(registry(), mode="both", pool_size=0, **options) as server:
            ended = anyio.Event()

            async def serve() -> None:
                try:
                    await serve_stdio(server, stdin=pipes.server_in, stdout=pipes.server_out)
                finally:
                    ended.set()

            with anyio.fail_after(GUARD):
                async with anyio.create_task_group() as group:
                    group.start_soon(serve)
                    try:
                        yield Served(server, pipes, ended)
                    finally:
                        SEEN.release.set()
                        pipes.close(pipes.from_server)
                        pipes.close(pipes.to_server)
                        await ended.wait()
    finally:
        pipes.close_all()


async def handshake(pipes: Pipes) -> None:
    await pipes.send({
        "jsonrpc": "2.0", "id": "init", "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "hostile", "version": "0"}},
    })
    assert (await pipes.answer())["id"] == "init"
    await pipes.send({"jsonrpc": "2.0", "method": "notifications/initialized"})


def call(request_id: Any, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call",
            "params": {"name": name, "arguments": arguments}}


async def answers_until(pipes: Pipes, last: Any) -> list[Any]:
    """Every answer up to and including the one with id ``last``."""
    seen = []
    while True:
        answer = await pipes.answer()
        seen.append(answer)
        if isinstance(answer, dict) and answer.get("id") == last:
            return seen


PING = {"jsonrpc": "2.0", "id": "after", "method": "ping"}
PONG = {"jsonrpc": "2.0", "id": "after", "result": {}}


# -- a client that does not read its answers ----------------------------------------------------

#: Requests are padded so that a few dozen fill the pipe and one read of it.
PAD = "p" * 2048
FLOOD = 2000


def padded(method: str, k: int) -> bytes:
    params: dict[str, Any] = {"cursor": PAD} if method == "tools/list" else {"_meta": {"pad": PAD}}
    return json.dumps({"jsonrpc": "2.0", "id": k, "method": method, "params": params}).encode()


@pytest.mark.parametrize("method", ["tools/list", "ping", "resources/list"])
async def test_a_client_that_never_reads_makes_the_server_stop_reading_not_hold_more(
    method: str,
) -> None:
    async with served(max_pending=4) as run:
        await handshake(run.pipes)
        flood = b"".join(padded(method, k) + b"\n" for k in range(FLOOD))
        backlog = run.server.backlog
        async with anyio.create_task_group() as group:
            group.start_soon(run.pipes.write, flood)
            await backlog.wait_until(lambda b: b.requests == b.max_requests)
            await anyio.wait_all_tasks_blocked()
            # Stalled: four answers wait to be written, and the server reads no further,
            # so the client's own writes are blocked on a full pipe.
            assert (backlog.requests, backlog.most_requests) == (4, 4)
            assert backlog.paused >= 1
            assert run.pipes.sent < len(flood)
            assert backlog.bytes <= 4 * (len(padded(method, FLOOD)) + 1)
            got = [await run.pipes.answer() for _ in range(FLOOD)]
        assert sorted(answer["id"] for answer in got) == list(range(FLOOD))
        if method == "resources/list":
            assert {answer["error"]["code"] for answer in got} == {-32601}
        else:
            assert all("result" in answer for answer in got)
        assert backlog.most_requests == 4
        assert backlog.requests == backlog.bytes == backlog.values == 0


async def test_a_call_keeps_its_slot_until_its_answer_is_written() -> None:
    # One slot, one waiting place: a finished answer the client does not read keeps
    # the slot, so the next call waits and the one after is refused as busy.
    big = 256 * 1024  # far more than a pipe holds
    async with served(max_concurrent=1, max_queued=1, max_pending=3) as run:
        await handshake(run.pipes)
        for k in range(2):
            await run.pipes.send(call(k, "blob", {"size": big}))
        # The first answer is being written (and fills the pipe) before any refusal
        # exists: its result may be measured in a worker thread, and a task waiting
        # for a thread looks blocked to wait_all_tasks_blocked, so without this the
        # refusals could all be written first.
        await anyio.wait_readable(run.pipes.from_server)
        for k in range(2, 10):
            await run.pipes.send(call(k, "blob", {"size": big}))
        backlog = run.server.backlog
        await backlog.wait_until(lambda b: b.requests == 3)
        await anyio.wait_all_tasks_blocked()
        assert SEEN.blobs == 1  # the finished call still holds the slot
        assert (run.server.in_flight, run.server.queued) == (1, 1)
        assert backlog.requests == 3
        got = {answer["id"]: answer for answer in [await run.pipes.answer() for _ in range(10)]}
        assert sorted(got) == list(range(10))
        done = [k for k, answer in got.items() if "result" in answer]
        busy = [k for k, answer in got.items() if "error" in answer]
        assert 0 in done
        assert 2 in busy
        assert SEEN.blobs == len(done)
        for k in done:
            assert len(got[k]["result"]["content"][0]["text"]) == big
        for k in busy:
            assert got[k]["error"]["code"] == SERVER_BUSY
            assert got[k]["error"]["message"].startswith("the server is busy")
        await backlog.wait_until(lambda b: b.requests == 0)
        assert (run.server.in_flight, run.server.queued) == (0, 0)
        assert backlog.most_requests == 3


async def test_a_cancelled_call_gives_back_its_place_and_its_slot() -> None:
    async with served(max_concurrent=1, max_queued=1) as run:
        await handshake(run.pipes)
        await run.pipes.send(call(1, "hold", {"k": 1}))
        await run.pipes.send(call(2, "hold", {"k": 2}))
        await SEEN.entered.wait()
        backlog = run.server.backlog
        await backlog.wait_until(lambda b: b.requests == 2)
        for request_id in (2, 1):  # the waiting one, then the running one
            await run.pipes.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                                  "params": {"requestId": request_id}})
        await backlog.wait_until(lambda b: b.requests == 0)
        assert (run.server.in_flight, run.server.queued) == (0, 0)
        assert SEEN.held == [1]
        # A cancelled request is never answered: the next answer is the ping's.
        await run.pipes.send(PING)
        assert await run.pipes.answer() == PONG


async def test_a_client_that_goes_away_ends_the_connection_and_frees_what_it_held() -> None:
    async with served(max_concurrent=1, max_queued=1) as run:
        await handshake(run.pipes)
        await run.pipes.send(call(1, "blob", {"size": 256 * 1024}))
        await run.pipes.send(call(2, "blob", {"size": 256 * 1024}))
        backlog = run.server.backlog
        await backlog.wait_until(lambda b: b.requests == 2)
        await anyio.wait_all_tasks_blocked()
        assert SEEN.blobs == 1
        # The client stops reading for good (its stdin stays open): the write fails,
        # the server stops serving, and nothing stays held.
        run.pipes.close(run.pipes.from_server)
        await run.ended.wait()
        assert backlog.requests == 0
        assert (run.server.in_flight, run.server.queued) == (0, 0)


# -- every request gets the answer it is owed ---------------------------------------------------

DEEP = b"[" * 5000 + b"]" * 5000


@pytest.mark.parametrize(("line", "expected"), [
    pytest.param(b"{this is not json", (None, PARSE_ERROR), id="not-json"),
    pytest.param(b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":"\xff"}}',
                 (5, PARSE_ERROR), id="not-utf8"),
    pytest.param(b'{"params":{"x":"\xff"},"jsonrpc":"2.0","id":5,"method":"ping"}',
                 (5, PARSE_ERROR), id="not-utf8-id-after-the-fault"),
    pytest.param(b'{"params":{"x":"' + b"y" * 5000 + b'\xff"},"jsonrpc":"2.0","id":5,'
                 b'"method":"ping"}', (None, PARSE_ERROR), id="not-utf8-id-past-the-window"),
    pytest.param(b'{"jsonrpc":"2.0","id":5,"method":"ping","params":{"x":NaN}}',
                 (5, PARSE_ERROR), id="nan"),
    pytest.param(b'{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"count",'
                 b'"arguments":{"items":' + DEEP + b"}}}", (6, PARSE_ERROR), id="too-deep"),
    pytest.param(b'{"jsonrpc":"2.0","id":"s","method":"ping","params":[1]}',
                 ("s", INVALID_REQUEST), id="params-not-object"),
    pytest.param(b'{"jsonrpc":"1.0","id":3,"method":"ping"}', (3, INVALID_REQUEST),
                 id="wrong-version"),
    pytest.param(b'{"id":4}', (4, INVALID_REQUEST), id="no-method"),
    pytest.param(b"5", (None, INVALID_REQUEST), id="not-an-object"),
    pytest.param(b'{"jsonrpc":"2.0","id":true,"method":"ping"}', (None, INVALID_REQUEST),
                 id="id-true"),
    pytest.param(b'{"jsonrpc":"2.0","id":1.5,"method":"ping"}', (1.5, INVALID_REQUEST),
                 id="id-fraction"),
    pytest.param(b'{"jsonrpc":"2.0","id":null,"method":"ping"}', (None, INVALID_REQUEST),
                 id="id-null"),
    pytest.param(b'{"jsonrpc":"2.0","id":9,"method":"ping","params":{"x":['
                 + b"0," * MAX_MESSAGE_VALUES + b"0]}}", (9, INVALID_REQUEST),
                 id="too-many-values"),
])
async def test_a_message_the_server_cannot_read_gets_the_error_it_is_owed(
    line: bytes, expected: tuple[Any, int],
) -> None:
    async with served() as run:
        await handshake(run.pipes)
        await run.pipes.write(line + b"\n")
        await run.pipes.send(PING)
        answer, pong = await answers_until(run.pipes, "after")
    assert pong == PONG
    assert answer["jsonrpc"] == "2.0"
    assert (answer["id"], answer["error"]["code"]) == expected
    assert set(answer) == {"jsonrpc", "id", "error"}


async def test_a_batch_gets_an_error_for_each_request_in_it() -> None:
    batch = [{"jsonrpc": "2.0", "id": 2, "method": "ping"},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             5, {"jsonrpc": "2.0", "id": "x", "method": "tools/list"}]
    async with served() as run:
        await handshake(run.pipes)
        await run.pipes.send(batch)
        await run.pipes.send([])
        await run.pipes.send(PING)
        answers = await answers_until(run.pipes, "after")
    assert [[(e["id"], e["error"]["code"]) for e in answer] for answer in answers[:2]] == [
        [(2, INVALID_REQUEST), (None, INVALID_REQUEST), ("x", INVALID_REQUEST)],
        [(None, INVALID_REQUEST)],
    ]
    assert "batches are not supported" in answers[0][0]["error"]["message"]
    assert answers[2:] == [PONG]


@pytest.mark.parametrize("line", [
    b'{"jsonrpc":"2.0","method":5}',
    b'{"jsonrpc":"2.0","id":[1],"result":{}}',
    b'[{"jsonrpc":"2.0","method":"notifications/initialized"}]',
])
async def test_what_no_answer_is_owed_for_is_logged(
    line: bytes, caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="codemode.mcp"):
        async with served() as run:
            await handshake(run.pipes)
            await run.pipes.write(line + b"\n")
            await run.pipes.send(PING)
            assert await run.pipes.answer() == PONG
    assert any("no answer is owed" in record.getMessage() for record in caplog.records)


#: The levels around ``items``' elements: the message, params, arguments and items.
_ENVELOPE = 4


@pytest.mark.parametrize("depth", [199, 200, 500, MAX_MESSAGE_DEPTH - _ENVELOPE,
                                   MAX_MESSAGE_DEPTH - _ENVELOPE + 1, 900, 970, 985])
async def test_deeply_nested_arguments_get_an_answer(depth: int) -> None:
    nested = "[" * depth + "]" * depth
    line = ('{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"count",'
            '"arguments":{"items":[' + nested + "]}}}").encode()
    async with served() as run:
        await handshake(run.pipes)
        await run.pipes.write(line + b"\n")
        [answer] = await answers_until(run.pipes, 7)
    assert answer["id"] == 7
    if depth < 500:
        assert answer["result"]["content"] == [{"type": "text", "text": "1"}]
    elif depth + _ENVELOPE <= MAX_MESSAGE_DEPTH:
        assert answer["result"]["isError"] is True
        assert "nested deeper than 500 levels" in answer["result"]["content"][0]["text"]
    else:
        # Refused at the door, never by a recursion limit on the loop's stack (code 0).
        assert answer["error"]["code"] == PARSE_ERROR
        assert f"more deeply than {MAX_MESSAGE_DEPTH} levels" in answer["error"]["message"]


async def test_an_answer_that_cannot_be_written_as_json_becomes_an_error_for_its_id() -> None:
    # The SDK already refuses most such results itself; the transport still never
    # leaves a request without its answer when encoding one fails.
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCRequest, JSONRPCResponse

    pipes = Pipes()
    backlog = Backlog(max_requests=4, max_bytes=1 << 20)
    nested: Any = 1
    for _ in range(300):  # past pydantic's serializer depth
        nested = [nested]
    try:
        with anyio.fail_after(GUARD):
            async with stdio_wire(backlog, stdin=pipes.server_in,
                                  stdout=pipes.server_out) as (read, write):
                await pipes.send({"jsonrpc": "2.0", "id": "deep", "method": "ping"})
                request = (await read.receive()).message
                assert isinstance(request, JSONRPCRequest)
                assert backlog.requests == 1
                await write.send(SessionMessage(JSONRPCResponse(
                    jsonrpc="2.0", id=request.id, result={"v": nested}
                )))
                answer = await pipes.answer()
                assert backlog.requests == 0
    finally:
        pipes.close_all()
    assert answer["id"] == "deep"
    assert answer["error"]["code"] == -32603
    assert "could not be written as JSON" in answer["error"]["message"]


request_ids = st.one_of(st.text(max_size=20), st.integers(-(10**17), 10**17))
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner,
                                                                 max_size=3),
    max_leaves=10,
)


@given(request_id=request_ids, params=json_values, note=st.text(), data=st.data())
def test_the_id_read_from_a_messages_first_bytes_is_its_id_or_none(
    request_id: str | int, params: Any, note: str, data: st.DataObject,
) -> None:
    # Never a wrong id, wherever the message is cut: a string cut short (whose
    # text may look like members) or a nested value never passes for the top level.
    members = [("jsonrpc", "2.0"), ("id", request_id), ("method", "tools/call"),
               ("params", {"x": params}), ("note", note)]
    order = data.draw(st.permutations(members))
    text = json.dumps(dict(order)).encode()
    assert id_in(text) == request_id
    cut = data.draw(st.integers(0, len(text)))
    assert id_in(text[:cut]) in (None, request_id)
    # A response (no method) is never answered, cut anywhere.
    response = [member for member in order if member[0] != "method"] + [("result", params)]
    assert id_in(json.dumps(dict(response)).encode()[:cut]) is None


# -- one message is at most max_message_bytes ---------------------------------------------------

CAP = 4096


def listing(request_id: Any, size: int) -> bytes:
    """A ``tools/list`` request of exactly ``size`` bytes (its cursor is padding)."""
    head = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/list",
                       "params": {"cursor": ""}}).encode()
    return head[:-3] + b"c" * (size - len(head)) + head[-3:]


async def test_a_message_up_to_the_cap_is_read_and_one_byte_more_is_refused_by_its_id() -> None:
    async with served(max_message_bytes=CAP) as run:
        await handshake(run.pipes)
        await run.pipes.write(listing("at", CAP) + b"\n" + listing("over", CAP + 1) + b"\n")
        await run.pipes.send(PING)
        answers = {answer["id"]: answer for answer in await answers_until(run.pipes, "after")}
        backlog = run.server.backlog
    assert answers["at"]["result"]["tools"]
    assert answers["over"]["error"]["code"] == INVALID_REQUEST
    assert "longer than max_message_bytes=4096" in answers["over"]["error"]["message"]
    assert answers["after"] == PONG
    assert backlog.most_partial <= CAP


async def test_an_endless_message_is_answered_before_it_ends_and_never_held_past_the_cap() -> None:
    async with served(max_message_bytes=CAP) as run:
        await handshake(run.pipes)
        await run.pipes.write(b'{"jsonrpc":"2.0","id":"endless","method":"ping","params":{"x":"')
        endless = b"A" * (64 * 1024)
        async with anyio.create_task_group() as group:

            async def stream() -> None:
                while True:
                    await run.pipes.write(endless)

            group.start_soon(stream)
            refused = await run.pipes.answer()
            group.cancel_scope.cancel()
        assert refused["id"] == "endless"
        assert refused["error"]["code"] == INVALID_REQUEST
        # The rest of that line is dropped up to its newline; then the server reads on.
        await run.pipes.write(b'"}}\n')
        await run.pipes.send(PING)
        assert await run.pipes.answer() == PONG
        assert run.server.backlog.most_partial <= CAP


async def test_a_message_over_the_cap_without_a_readable_id_closes_the_connection(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="codemode.mcp"):
        async with served(max_message_bytes=CAP) as run:
            await handshake(run.pipes)
            await run.pipes.write(b'{"jsonrpc":"2.0","params":{"x":"' + b"A" * (2 * CAP))
            await run.ended.wait()  # the server stopped before the message ended
            run.pipes.close(run.pipes.server_out)
            assert await run.pipes.line() is None  # and wrote nothing for it
            assert run.server.backlog.most_partial <= CAP
    assert any("whose id could not be read" in record.getMessage() for record in caplog.records)


# -- the real command ---------------------------------------------------------------------------


def test_the_command_answers_what_it_cannot_read_and_caps_messages() -> None:
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "hostile", "version": "0"}}}
    lines = [json.dumps(init).encode(), b"{this is not json",
             b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]', listing(3, 2048)]
    done = subprocess.run(
        [*CODEMODE, "serve-mcp", "--tools", SERVED, "--max-message-bytes", "1024"],
        cwd=REPO, env=checkout_env(), input=b"\n".join(lines) + b"\n", capture_output=True,
        timeout=GUARD_SECONDS, check=False,
    )
    assert done.returncode == 0, done.stderr
    # The reader answers what it refuses at once, the SDK the rest: match by id, not order.
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    [batch] = [answer for answer in answers if isinstance(answer, list)]
    by_id = {answer["id"]: answer for answer in answers if isinstance(answer, dict)}
    assert len(answers) == 4
    assert by_id.keys() == {0, None, 3}
    assert "result" in by_id[0]
    assert by_id[None] == {"jsonrpc": "2.0", "id": None, "error": {
        "code": PARSE_ERROR,
        "message": "Parse error: the message is not JSON (Expecting property name enclosed in "
                   "double quotes at byte 1)",
    }}
    assert [(e["id"], e["error"]["code"]) for e in batch] == [(2, INVALID_REQUEST)]
    assert by_id[3]["error"]["code"] == INVALID_REQUEST
    assert "max_message_bytes=1024" in by_id[3]["error"]["message"]


def test_the_command_documents_and_checks_the_message_cap() -> None:
    from click.testing import CliRunner

    from codemode.cli import main

    shown = CliRunner().invoke(main, ["serve-mcp", "--help"])
    assert "--max-message-bytes" in shown.stdout
    bad = CliRunner().invoke(main, ["serve-mcp", "--tools", SERVED, "--max-message-bytes", "10"])
    assert bad.exit_code == 2
    assert "--max-message-bytes" in bad.stderr


# -- HTTP ---------------------------------------------------------------------------------------


@asynccontextmanager
async def served_over_http(**options: Any) -> AsyncIterator[tuple[McpCodeServer, str]]:
    """The tools served over HTTP in this loop; held calls are let go before it stops."""
    async with served_http(registry(), **options) as (server, url, _):
        try:
            yield server, url
        finally:
            SEEN.release.set()


async def test_over_http_a_request_past_max_pending_is_answered_busy_at_once() -> None:
    async with served_over_http(max_concurrent=2, max_queued=0, max_pending=2) as (server, url), \
            Client(url) as client, anyio.create_task_group() as group:
        for k in (1, 2):
            group.start_soon(client.call_tool, "hold", {"k": k})
        backlog = server.backlog
        await backlog.wait_until(lambda b: b.requests == 2)
        with pytest.raises(MCPError) as caught:
            await client.list_tools()
        assert caught.value.code == SERVER_BUSY
        assert caught.value.message.startswith("the server is busy")
        assert "max_pending=2" in caught.value.message
        assert (backlog.refused, backlog.most_requests) == (1, 2)
        SEEN.release.set()
        await backlog.wait_until(lambda b: b.requests == 0)
        assert [tool.name for tool in (await client.list_tools()).tools][:3] == [
            "blob", "hold", "count"
        ]
    assert sorted(SEEN.held) == [1, 2]


async def raw_post(port: int, session: str, body: bytes, *,
                   small_buffer: bool = False) -> tuple[SocketStream, BufferedByteReceiveStream]:
    """A new connection carrying one raw POST of ``body``; nothing of the answer is read yet."""
    stream = await anyio.connect_tcp("127.0.0.1", port)
    if small_buffer:  # what the client does not read stays with the server
        stream.extra(anyio.abc.SocketAttribute.raw_socket).setsockopt(
            socket.SOL_SOCKET, socket.SO_RCVBUF, 4096
        )
    head = (
        f"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
        "Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n"
        "MCP-Protocol-Version: 2025-06-18\r\n"
        + (f"Mcp-Session-Id: {session}\r\n" if session else "")
        + f"Content-Length: {len(body)}\r\n\r\n"
    )
    await stream.send(head.encode() + body)
    return stream, BufferedByteReceiveStream(stream)


async def read_head(received: BufferedByteReceiveStream) -> tuple[int, dict[str, str]]:
    raw = await received.receive_until(b"\r\n\r\n", 64 * 1024)
    first, *lines = raw.decode("latin-1").split("\r\n")
    headers = {name.strip().lower(): value.strip()
               for name, _, value in (line.partition(":") for line in lines)}
    return int(first.split(" ")[1]), headers


async def raw_session(url: str) -> tuple[int, str]:
    """A session opened in raw HTTP: the port and the session id."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "hostile", "version": "0"}}}
    stream, received = await raw_post(port, "", json.dumps(init).encode())
    async with stream:
        status, headers = await read_head(received)
        assert status == 200
        session = headers["mcp-session-id"]
        while b"data: " not in await received.receive_until(b"\r\n\r\n", 1 << 20):
            pass
    done = json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}).encode()
    stream, received = await raw_post(port, session, done)
    async with stream:
        assert (await read_head(received))[0] == 202
    return port, session


async def test_over_http_an_answer_nobody_reads_keeps_its_post_until_the_client_goes_away() -> None:
    async with served_over_http(max_concurrent=1) as (server, url):
        port, session = await raw_session(url)
        # The call's 8 MiB answer is far more than the sockets' buffers hold.
        body = json.dumps(call(1, "blob", {"size": 8 << 20})).encode()
        silent, received = await raw_post(port, session, body, small_buffer=True)
        await SEEN.blob_returned.wait()
        # The answer has begun to arrive, and cannot end before the client reads on.
        await read_head(received)
        await received.receive_until(b'"result"', 64 * 1024)
        backlog = server.backlog
        assert (backlog.requests, server.in_flight) == (1, 1)  # answered, not yet sent
        await silent.aclose()  # the client goes away
        await backlog.wait_until(lambda b: b.requests == 0)
        assert server.in_flight == 0
        assert SEEN.blobs == 1


async def test_over_http_a_client_that_leaves_mid_call_does_not_free_the_slot_early() -> None:
    # Its POST ends when it leaves, but the run goes on: the slot stays taken
    # until the run is over too, so leaving cannot start more runs than the bound.
    async with served_over_http(max_concurrent=1, max_queued=0) as (server, url):
        port, session = await raw_session(url)
        body = json.dumps(call(1, "hold", {"k": 1})).encode()
        leaving, _ = await raw_post(port, session, body)
        await SEEN.entered.wait()
        await leaving.aclose()
        backlog = server.backlog
        await backlog.wait_until(lambda b: b.requests == 0)
        assert server.in_flight == 1
        async with Client(url) as client:
            with pytest.raises(MCPError) as caught:
                await client.call_tool("hold", {"k": 2})
            assert caught.value.code == SERVER_BUSY
            SEEN.release.set()
            await slot_freed(server)
            assert server.in_flight == 0
            assert (await client.call_tool("hold", {"k": 3})).is_error is False
    assert SEEN.held == [1, 3]


async def test_over_http_stopping_ends_the_calls_in_progress_and_leaves_nothing_behind(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Cancelled, serve_http shuts uvicorn down (as on SIGTERM) before it returns: no
    # listener, connection, session or call outlives it, and the loop serves again.
    monkeypatch.setattr(server_module, "HTTP_SHUTDOWN_GRACE_SECONDS", 0, raising=False)
    before = {task.id for task in anyio.get_running_tasks()}
    async with served_http(registry(), max_concurrent=1) as (_, url, _):
        port, session = await raw_session(url)
        stuck, _ = await raw_post(port, session, json.dumps(call(1, "hold", {"k": 1})).encode())
        await SEEN.entered.wait()
    try:
        assert SEEN.ended == [1]  # the call never let go was ended, not left running
        assert {task.id for task in anyio.get_running_tasks()} == before
    finally:
        await stuck.aclose()
    async with served_over_http() as (_, url), Client(url) as client:
        assert (await client.call_tool("count", {"items": [1, 2]})).is_error is False


async def test_over_http_stopping_drops_an_answer_a_client_does_not_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(server_module, "HTTP_SHUTDOWN_GRACE_SECONDS", 0, raising=False)
    watched = watched_fds()
    async with served_http(registry(), max_concurrent=1) as (_, url, _):
        port, session = await raw_session(url)
        body = json.dumps(call(1, "blob", {"size": 8 << 20})).encode()
        silent, received = await raw_post(port, session, body, small_buffer=True)
        await read_head(received)
        await received.receive_until(b'"result"', 64 * 1024)  # the rest waits to be read
    await silent.aclose()
    # serve_http has returned: its side of the connection was dropped, not left in the
    # loop writing the rest of the answer for as long as the client stays.
    assert watched_fds() == watched


def watched_fds() -> set[int]:
    """The file descriptors this event loop watches (its selector's map)."""
    loop: Any = asyncio.get_running_loop()
    return set(loop._selector.get_map())


async def test_over_http_a_body_that_is_not_json_or_a_batch_still_gets_an_answer() -> None:
    async with served_over_http() as (_, url):
        port, session = await raw_session(url)
        for body in (b"{this is not json", b'[{"jsonrpc":"2.0","id":2,"method":"ping"}]'):
            stream, received = await raw_post(port, session, body)
            async with stream:
                status, headers = await read_head(received)
                answer = json.loads(await received.receive_exactly(
                    int(headers["content-length"])
                ))
            assert status == 400
            assert answer["error"]["code"] in (PARSE_ERROR, INVALID_REQUEST, -32602)




@dataclass
class Asgi:
    """One ASGI request as a hostile client sends it: what the app saw, what came back."""

    body: list[bytes]
    #: Beyond the Host and Content-Type a local client sends.
    headers: list[tuple[bytes, bytes]] = field(default_factory=list)
    #: The body never ends: after its pieces, the client sends nothing more.
    endless: bool = False
    sent: list[Message] = field(default_factory=list)
    #: What the inner app read of the body, and whether it ran under a ticket.
    seen: list[tuple[bytes, bool]] = field(default_factory=list)
    stall: anyio.Event = field(default_factory=anyio.Event)

    async def receive(self) -> Message:
        if not self.body:
            await self.stall.wait()  # never set
        chunk = self.body.pop(0)
        return {"type": "http.request", "body": chunk,
                "more_body": bool(self.body) or self.endless}

    async def send(self, message: Message) -> None:
        self.sent.append(message)

    async def app(self, scope: Any, receive: Any, send: Any) -> None:
        message = await receive()
        self.seen.append((message["body"], current_ticket() is not None))
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b"{}"})

    async def post(self, admission: HttpAdmission) -> tuple[int, Any]:
        local = [(b"host", b"127.0.0.1:8000"), (b"content-type", b"application/json")]
        scope = {"type": "http", "method": "POST", "path": "/mcp",
                 "headers": [*local, *self.headers]}
        await admission(scope, self.receive, self.send)
        status = self.sent[0]["status"]
        return status, json.loads(self.sent[1]["body"])


async def test_http_admission_refuses_what_it_cannot_hold_before_the_app_sees_it() -> None:
    backlog = Backlog(max_requests=2, max_bytes=100)
    # Fits: the app gets the body whole, under a ticket, which is settled afterwards.
    fine = Asgi([b'{"a":', b"1}"])
    assert await fine.post(HttpAdmission(fine.app, backlog, 64)) == (200, {})
    assert fine.seen == [(b'{"a":1}', True)]
    assert backlog.requests == 0
    # Over the cap (declared, or counted as it arrives), too many values, too slow.
    declared = Asgi([b"{}"], headers=[(b"content-length", b"65")])
    status, answer = await declared.post(HttpAdmission(declared.app, backlog, 64))
    assert (status, answer["error"]["code"]) == (413, INVALID_REQUEST)
    counted = Asgi([b"[" + b"0," * 40, b"0]"])
    status, answer = await counted.post(HttpAdmission(counted.app, backlog, 64))
    assert (status, answer["error"]["code"]) == (413, INVALID_REQUEST)
    many = Asgi([b"[" + b"0," * MAX_MESSAGE_VALUES + b"0]"])
    status, answer = await many.post(HttpAdmission(many.app, backlog, 1 << 22))
    assert (status, answer["error"]["code"]) == (400, INVALID_REQUEST)
    slow = Asgi([b"{"], endless=True)
    with anyio.fail_after(GUARD):
        status, answer = await slow.post(HttpAdmission(slow.app, backlog, 64, body_timeout=0))
    assert (status, answer["error"]["code"]) == (408, INVALID_REQUEST)
    assert (fine.seen, declared.seen, counted.seen, many.seen, slow.seen) == (
        [(b'{"a":1}', True)], [], [], [], []
    )
    assert backlog.requests == 0
    # Full: two requests held, the third is refused at once, its body never read.
    held = [backlog.enter(None, 0, 0) for _ in range(2)]
    refused = Asgi([b"{}"])
    status, answer = await refused.post(HttpAdmission(refused.app, backlog, 64))
    assert (status, answer["id"], answer["error"]["code"]) == (503, None, SERVER_BUSY)
    assert answer["error"]["message"].startswith("the server is busy")
    assert refused.body == [b"{}"]
    for ticket in held:
        ticket.settle()
    # Bytes: with another request holding 90 of 100 bytes, a 20-byte body does not fit.
    other = backlog.enter(None, 90, 1)
    big = Asgi([b'{"x":"' + b"y" * 12 + b'"}'])
    status, answer = await big.post(HttpAdmission(big.app, backlog, 64))
    assert (status, answer["error"]["code"]) == (503, SERVER_BUSY)
    other.settle()
    again = Asgi([b'{"x":"' + b"y" * 12 + b'"}'])
    assert await again.post(HttpAdmission(again.app, backlog, 64)) == (200, {})
    assert (backlog.requests, backlog.bytes, backlog.refused) == (0, 0, 2)
