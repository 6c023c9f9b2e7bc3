"""A hostile MCP server's listing and chatter: bounded, converted off the loop, never a crash.

Each test starts a small raw JSON-RPC server over stdio (:data:`SERVER`, written
to a file once per session) in one of its modes, or for HTTP the raw server of
``test_mcp_http_bounds``, and asserts outcomes (which error, naming what) and
counts (pages the server was asked for, pages the listing's budget took,
messages the client read unasked, which thread converted the tools); deadlines
are guards against hangs only. The name and description rules get property
tests of their own.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import threading
import unicodedata
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import anyio
import anyio.to_thread
import mcp_types.methods
import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode import AbortSignal, CallInput, RegistrationError, Registry, ToolFailure, ToolSuccess
from codemode._tools import define_tool
from codemode.code_mode._sdk import SdkTool, render_sdk
from codemode.mcp import MCP_CALL_FAILED, McpCallError, McpTools, _client, _transport
from codemode.mcp._listing import (
    MAX_DESCRIPTION_CHARS,
    MAX_LISTED_SCHEMA_NODES,
    MAX_LISTED_TEXT_CHARS,
    MAX_LISTED_TOOLS,
    MAX_TOOL_NAME_CHARS,
    ListingBudget,
    name_problem,
    one_line,
    shown_name,
    visible_text,
)
from codemode.mcp._transport import MAX_NESTING_DEPTH, MAX_UNSOLICITED_MESSAGES, Guard

from .processes import CODEMODE, GUARD_SECONDS, REPO, checkout_env
from .test_mcp_http_bounds import RawServer, answer_of, listening, send_chunked, small

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

    from anyio.abc import SocketStream
    from mcp.shared.message import SessionMessage

    from codemode import ToolResult

pytestmark = pytest.mark.xdist_group("mcp-hostile-listing")

#: The server: ``python server.py MODE N``. It logs every ``tools/list`` page it
#: is asked for on stderr (``page I``), so a test can count them.
SERVER = r'''
import json, sys

MODE = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 0
PAGES = 5
MAX_NAME = {max_name}
OUT = sys.stdout.buffer


def send(message):
    OUT.write(json.dumps(message).encode() + b"\n")
    OUT.flush()


def tool(name, **extra):
    return {"name": name, "description": "d", "inputSchema": {"type": "object"}, **extra}


def nested(levels):
    value = "x"
    for _ in range(levels):
        value = [value]
    return value


def deep_schema(levels):
    schema = {"type": "object"}
    inner = schema
    for _ in range(levels):
        below = {"type": "object"}
        inner["properties"] = {"a": below}
        inner = below
    return schema


def wide(count):
    return {"type": "object",
            "properties": {f"p{i}": {"type": "string"} for i in range(count)}}


NAMES = ["ok_tool", "a-b", "a.b", "1abc", "print", "__class__", "x" * MAX_NAME,
         "", "with space", "ctl\x1b[2J\x07x", "nl\nname", "bidi\u202eevil", "\x00nul",
         "d\u00e9j\u00e0", "tag\U000e0041", "x" * (MAX_NAME + 1), "x" * 100000, "sl/ash"]
HOSTILE_TEXT = "Look\x1b[2J\x07 here\u202e\u2066\u200b\U000e0041\ud800\x00!\nNext line."


def page(index):
    tools = [tool("echo")]
    last = index == 0
    if MODE == "one_page":
        tools = [tool(f"t{i}") for i in range(N)]
    elif MODE == "pages":
        tools, last = [tool(f"p{index}_{i}") for i in range(N)], index == PAGES - 1
    elif MODE == "wide":
        tools = [tool("wide", inputSchema=wide(N))]
    elif MODE == "wide_pages":
        tools, last = [tool(f"wide{index}", inputSchema=wide(N))], index == PAGES - 1
    elif MODE == "text_pages":
        schema = {"type": "object", "description": "t" * N}
        tools, last = [tool(f"text{index}", inputSchema=schema)], index == PAGES - 1
    elif MODE == "deep_schema":
        tools = [tool("deep", inputSchema=deep_schema(N))]
    elif MODE == "names":
        tools = [tool(name) for name in NAMES]
    elif MODE == "described":
        schema = {"type": "object", "properties": {
            "q": {"type": "string", "description": HOSTILE_TEXT, "title": "T\u202eitle"},
            "long": {"type": "string", "description": "L" * N}}}
        tools = [tool("described", description=HOSTILE_TEXT, inputSchema=schema),
                 tool("long", description="D" * N),
                 tool("odd_keyword", inputSchema={"type": "object", "\x1b[2Jx\u202e": 1})]
    result = {"tools": tools}
    if not last:
        result["nextCursor"] = str(index + 1)
    return result


def before_answer(ident):
    if MODE in ("flood", "flood_each"):
        for _ in range(N):
            send({"jsonrpc": "2.0", "method": "notifications/message",
                  "params": {"level": "info", "data": "x"}})
    elif MODE == "ping_flood":
        for i in range(N):
            send({"jsonrpc": "2.0", "id": f"s{i}", "method": "ping"})
    elif MODE == "stray":
        for i in range(N):
            send({"jsonrpc": "2.0", "id": 10**6 + i, "result": {}})
    elif MODE == "deep_chatter":
        send({"jsonrpc": "2.0", "method": "notifications/message",
              "params": {"level": "info", "data": nested(N)}})
        send({"jsonrpc": "2.0", "id": "deep", "method": "ping", "params": {"x": nested(N)}})


def answer(ident):
    if MODE == "deep_result":
        result = {"content": [{"type": "text", "text": "ok"}],
                  "structuredContent": {"v": nested(N)}}
    elif MODE == "deep_error":
        send({"jsonrpc": "2.0", "id": ident,
              "error": {"code": -32000, "message": "no", "data": nested(N)}})
        return
    else:
        result = {"content": [{"type": "text", "text": "ok"}]}
    send({"jsonrpc": "2.0", "id": ident, "result": result})


calls = 0
for raw in sys.stdin.buffer:
    message = json.loads(raw)
    if "id" not in message or "method" not in message:
        continue
    ident, method = message["id"], message["method"]
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": ident, "result": {
            "protocolVersion": message["params"]["protocolVersion"],
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": "hostile-listing", "version": "1"}}})
    elif method == "tools/list":
        index = int((message.get("params") or {}).get("cursor") or 0)
        sys.stderr.write(f"page {index}\n")
        sys.stderr.flush()
        send({"jsonrpc": "2.0", "id": ident, "result": page(index)})
    elif method == "tools/call":
        calls += 1
        if MODE != "flood" or calls == 1:
            before_answer(ident)
        answer(ident)
    else:
        send({"jsonrpc": "2.0", "id": ident,
              "error": {"code": -32601, "message": f"unknown method {method}"}})
'''


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def raw() -> AsyncIterator[RawServer]:
    """A raw HTTP server (``test_mcp_http_bounds``): ``plans`` answer ``tools/call``."""
    async with listening(RawServer()) as server:
        yield server


@pytest.fixture(scope="session")
def server_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("hostile-listing") / "listing_server.py"
    path.write_text(SERVER.replace("{max_name}", str(MAX_TOOL_NAME_CHARS)))
    return path


@pytest.fixture
def errlog(tmp_path: Path) -> Iterator[TextIO]:
    with (tmp_path / "server.err").open("w") as log:
        yield log


def hostile(server_path: Path, mode: str, errlog: TextIO, n: int = 0) -> McpTools:
    return McpTools.stdio(sys.executable, [str(server_path), mode, str(n)], errlog=errlog)


def pages_asked(errlog: TextIO) -> list[int]:
    errlog.flush()
    text = Path(errlog.name).read_text()
    return [int(index) for index in re.findall(r"^page (\d+)$", text, re.MULTILINE)]


async def call(registry: Registry, name: str = "echo") -> ToolResult:
    return await registry.execute(CallInput("c1", name, {}, AbortSignal()))


def failure_of(result: ToolResult) -> tuple[str, str]:
    assert isinstance(result, ToolFailure), result
    assert result.error.info is not None
    assert result.error.info.code is not None
    return result.error.info.code, result.error.message


@pytest.fixture
def pages_taken(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many tools each page the listing's budget took held (the SDK parsed it first)."""
    taken: list[int] = []
    real = ListingBudget.take

    async def counting(self: ListingBudget, page: Any) -> Any:
        taken.append(len(page))
        return await real(self, page)

    monkeypatch.setattr(ListingBudget, "take", counting)
    return taken


def guard_of(server: McpTools) -> Guard:
    guard = server._guard
    assert guard is not None
    return guard


def at(value: object, *keys: str) -> object:
    """``value[k1][k2]…`` through JSON objects."""
    for key in keys:
        assert isinstance(value, dict), value
        value = value[key]
    return value


def printable(text: str, *, kept: str = "") -> bool:
    """No character a terminal or a model would not show as itself (spaces of any kind are fine)."""
    return all(
        ch.isprintable() or ch in kept or unicodedata.category(ch) == "Zs" for ch in text
    )


# -- the listing's budget ----------------------------------------------------------------------


async def test_a_listing_of_exactly_max_listed_tools_is_imported(
    server_path: Path, errlog: TextIO, pages_taken: list[int]
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "one_page", errlog, MAX_LISTED_TOOLS) as server:
            imported = await server.register(registry)
    assert len(imported.names) == MAX_LISTED_TOOLS
    assert pages_taken == [MAX_LISTED_TOOLS]


async def test_one_page_of_more_than_max_listed_tools_is_refused_naming_server_and_bound(
    server_path: Path, errlog: TextIO, pages_taken: list[int]
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "one_page", errlog, MAX_LISTED_TOOLS + 1) as server:
            with pytest.raises(McpCallError) as caught:
                await server.register(registry, unsupported="skip")
    assert caught.value.code == MCP_CALL_FAILED
    assert "listing_server.py one_page" in caught.value.reason
    assert f"more than {MAX_LISTED_TOOLS} tools (MAX_LISTED_TOOLS)" in caught.value.reason
    assert "nothing was imported" in caught.value.reason
    assert "Have the server expose fewer or smaller tools" in caught.value.reason
    assert registry.get("t0") is None
    assert pages_taken == []  # refused as it arrived, before the SDK built its tools


async def test_pages_past_max_listed_tools_together_stop_the_listing_where_it_crossed(
    server_path: Path, errlog: TextIO, pages_taken: list[int]
) -> None:
    per_page = MAX_LISTED_TOOLS * 2 // 5  # within budget alone; the third page crosses it
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "pages", errlog, per_page) as server:
            with pytest.raises(McpCallError) as caught:
                await server.register(registry, unsupported="skip")
    assert f"more than {MAX_LISTED_TOOLS} tools (MAX_LISTED_TOOLS)" in caught.value.reason
    assert pages_asked(errlog) == [0, 1, 2]
    assert pages_taken == [per_page] * 3
    assert registry.get("p0_0") is None


async def test_one_schema_past_max_listed_schema_nodes_is_refused(
    server_path: Path, errlog: TextIO, pages_taken: list[int]
) -> None:
    properties = MAX_LISTED_SCHEMA_NODES // 2 + 1  # each a key's schema and its "type"
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "wide", errlog, properties) as server:
            with pytest.raises(McpCallError) as caught:
                await server.definitions(unsupported="skip")
    assert "listing_server.py wide" in caught.value.reason
    assert f"more than {MAX_LISTED_SCHEMA_NODES} JSON values in all" in caught.value.reason
    assert "(MAX_LISTED_SCHEMA_NODES)" in caught.value.reason
    assert pages_taken == []


async def test_schemas_past_max_listed_schema_nodes_together_stop_the_listing(
    server_path: Path, errlog: TextIO
) -> None:
    properties = MAX_LISTED_SCHEMA_NODES // 5  # 2 values each: 40% of the budget a page
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "wide_pages", errlog, properties) as server:
            with pytest.raises(McpCallError) as caught:
                await server.definitions(unsupported="skip")
    assert f"more than {MAX_LISTED_SCHEMA_NODES} JSON values in all" in caught.value.reason
    assert pages_asked(errlog) == [0, 1, 2]


async def test_schema_text_past_max_listed_text_chars_together_stops_the_listing(
    server_path: Path, errlog: TextIO
) -> None:
    chars = MAX_LISTED_TEXT_CHARS * 2 // 5
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "text_pages", errlog, chars) as server:
            with pytest.raises(McpCallError) as caught:
                await server.definitions(unsupported="skip")
    assert f"more than {MAX_LISTED_TEXT_CHARS} characters" in caught.value.reason
    assert "(MAX_LISTED_TEXT_CHARS)" in caught.value.reason
    assert pages_asked(errlog) == [0, 1, 2]


def test_the_cli_prints_one_error_line_for_a_listing_past_its_budget(server_path: Path) -> None:
    spec = f"mcp+stdio:{sys.executable} {server_path} one_page {MAX_LISTED_TOOLS + 1}"
    done = subprocess.run(
        [*CODEMODE, "sdk", "--tools", spec], cwd=REPO, env=checkout_env(),
        capture_output=True, text=True, timeout=GUARD_SECONDS, check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    [error] = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert "(MAX_LISTED_TOOLS)" in error


# -- converting off the event loop -------------------------------------------------------------


async def test_the_listing_is_converted_in_a_worker_thread(
    server_path: Path, errlog: TextIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[int] = []

    def recording(**kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return define_tool(**kwargs)

    monkeypatch.setattr(_client, "define_tool", recording)
    loop_thread = threading.get_ident()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "one_page", errlog, 50) as server:
            imported = await server.definitions()
    assert len(imported.definitions) == 50
    assert len(threads) == 50
    assert loop_thread not in threads


async def test_a_conversion_nobody_waits_for_stops_at_the_next_tool(
    server_path: Path, errlog: TextIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    started, release, finished = threading.Event(), threading.Event(), threading.Event()
    defined: list[str] = []
    real_converted = McpTools._converted

    def held(**kwargs: Any) -> Any:
        defined.append(kwargs["name"])
        started.set()
        release.wait(GUARD_SECONDS)
        return define_tool(**kwargs)

    def converting(self: McpTools, *args: Any, **kwargs: Any) -> Any:
        try:
            return real_converted(self, *args, **kwargs)
        finally:
            finished.set()

    monkeypatch.setattr(_client, "define_tool", held)
    monkeypatch.setattr(McpTools, "_converted", converting)
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "one_page", errlog, 50) as server:
            async with anyio.create_task_group() as group:
                group.start_soon(server.definitions)
                await anyio.to_thread.run_sync(started.wait, GUARD_SECONDS)
                group.cancel_scope.cancel()
            release.set()
            await anyio.to_thread.run_sync(finished.wait, GUARD_SECONDS)
    assert defined == ["t0"]


# -- nesting the SDK cannot serialize ----------------------------------------------------------

# Levels of schema nesting, each two levels of the message (a property map and a schema),
# for listings nested about 200, 260 and 900 deep: past this client's bound and the SDK's
# serializer (about 255), the last past json's recursion limit.
@pytest.mark.parametrize("levels", [100, 130, 450])
async def test_a_listing_nested_too_deep_fails_as_any_unusable_listing(
    server_path: Path, errlog: TextIO, levels: int
) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "deep_schema", errlog, levels) as server:
            with pytest.raises(McpCallError) as caught:
                await server.register(Registry(), unsupported="skip")
    assert caught.value.code == MCP_CALL_FAILED
    assert "listing_server.py deep_schema" in caught.value.reason


async def test_a_listing_nested_within_the_bound_is_imported(
    server_path: Path, errlog: TextIO
) -> None:
    levels = (MAX_NESTING_DEPTH - 8) // 2
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "deep_schema", errlog, levels) as server:
            imported = await server.definitions()
    assert imported.names == ["deep"]


@pytest.mark.parametrize("depth", [200, 260, 900])
async def test_a_result_nested_too_deep_fails_the_call_naming_the_server(
    server_path: Path, errlog: TextIO, depth: int
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "deep_result", errlog, depth) as server:
            await server.register(registry)
            result = await call(registry)
            after = await call(registry) if depth < 900 else None
    code, message = failure_of(result)
    assert code == MCP_CALL_FAILED
    assert f"listing_server.py deep_result {depth}" in message
    if after is not None:  # refused alone: the connection is still open
        code, message = failure_of(after)
        assert f"nested more than {MAX_NESTING_DEPTH} levels deep" in message


async def test_an_error_answer_nested_too_deep_fails_the_call_naming_the_server(
    server_path: Path, errlog: TextIO
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "deep_error", errlog, 260) as server:
            await server.register(registry)
            result = await call(registry)
    code, message = failure_of(result)
    assert code == MCP_CALL_FAILED
    assert "listing_server.py deep_error 260" in message


async def test_deep_notifications_and_requests_harm_nothing_and_are_counted(
    server_path: Path, errlog: TextIO
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "deep_chatter", errlog, 260) as server:
            await server.register(registry)
            result = await call(registry)
            unsolicited = guard_of(server).unsolicited
    assert isinstance(result, ToolSuccess), result
    assert unsolicited == 2


async def test_whatever_the_sdk_raises_on_an_answer_becomes_mcp_call_failed(
    server_path: Path, errlog: TextIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The class of failure the depth bound prevents for one cause: any exception of
    # the SDK's on what a server sent is that server's failure, never a bare one.
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "echo", errlog) as server:
            await server.register(registry)

            def failing(*args: object, **kwargs: object) -> None:
                raise ValueError("Maximum serialization depth exceeded")

            monkeypatch.setattr(mcp_types.methods, "validate_server_result", failing)
            result = await call(registry)
            with pytest.raises(McpCallError) as caught:
                await server.definitions()
    code, message = failure_of(result)
    assert code == MCP_CALL_FAILED
    assert "listing_server.py echo" in message
    assert "ValueError: Maximum serialization depth exceeded" in message
    assert "listing_server.py echo" in caught.value.reason
    assert "ValueError: Maximum serialization depth exceeded" in caught.value.reason


def test_the_cli_prints_one_error_line_for_a_listing_nested_too_deep(server_path: Path) -> None:
    spec = f"mcp+stdio:{sys.executable} {server_path} deep_schema 150"
    done = subprocess.run(
        [*CODEMODE, "sdk", "--tools", spec], cwd=REPO, env=checkout_env(),
        capture_output=True, text=True, timeout=GUARD_SECONDS, check=False,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    [error] = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert "listing_server.py deep_schema 150" in error


# -- what the server sends unasked -------------------------------------------------------------


@pytest.fixture
def small_allowance(monkeypatch: pytest.MonkeyPatch) -> int:
    """An allowance of 200 unsolicited messages, and none regained with time."""
    monkeypatch.setattr(_transport, "MAX_UNSOLICITED_MESSAGES", 200)
    monkeypatch.setattr(_transport, "UNSOLICITED_PER_SECOND", 0.0)
    return 200


@pytest.mark.parametrize("mode", ["flood", "ping_flood", "stray"])
async def test_a_server_sending_past_its_allowance_unasked_closes_the_connection(
    server_path: Path, errlog: TextIO, small_allowance: int, mode: str
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        # A flood that fits the pipe, so the server is never left blocked writing it.
        async with hostile(server_path, mode, errlog, small_allowance + 50) as server:
            await server.register(registry)
            flooded = await call(registry)
            after = await call(registry)
            unsolicited = guard_of(server).unsolicited
    assert unsolicited == small_allowance + 1
    for result in (flooded, after):
        code, message = failure_of(result)
        assert code == MCP_CALL_FAILED
        assert f"listing_server.py {mode}" in message
        assert (f"sent more than {small_allowance} notifications and requests without "
                "answering this client (MAX_UNSOLICITED_MESSAGES)") in message


async def test_every_answer_restores_the_allowance(
    server_path: Path, errlog: TextIO, small_allowance: int
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "flood_each", errlog, small_allowance) as server:
            await server.register(registry)
            results = [await call(registry) for _ in range(3)]
            unsolicited = guard_of(server).unsolicited
    assert all(isinstance(r, ToolSuccess) for r in results), results
    assert unsolicited == 3 * small_allowance


async def test_the_default_allowance_closes_a_real_flood(
    server_path: Path, errlog: TextIO
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "flood", errlog, 2 * MAX_UNSOLICITED_MESSAGES) as server:
            await server.register(registry)
            flooded = await call(registry)
            unsolicited = guard_of(server).unsolicited
    code, message = failure_of(flooded)
    assert code == MCP_CALL_FAILED
    assert f"sent more than {MAX_UNSOLICITED_MESSAGES} notifications" in message
    # Time regains a few while the flood is read; never the flood.
    assert MAX_UNSOLICITED_MESSAGES < unsolicited < 2 * MAX_UNSOLICITED_MESSAGES


def chatter(count: int) -> Callable[[SocketStream, int], Awaitable[None]]:
    """An answer as an event stream: ``count`` log notifications, then the result."""

    async def plan(stream: SocketStream, ident: int) -> None:
        note = json.dumps({"jsonrpc": "2.0", "method": "notifications/message",
                           "params": {"level": "info", "data": "x"}}).encode()
        events = [b"data: %s\n\n" % note] * count + [b"data: %s\n\n" % answer_of(ident, "ok")]
        await send_chunked(stream, events, kind=b"text/event-stream")

    return plan


async def test_over_http_chatter_past_the_allowance_closes_the_session(
    raw: RawServer, small_allowance: int
) -> None:
    raw.plans.update(within=chatter(small_allowance), flood=chatter(small_allowance + 50))
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            await server.register(registry)
            within = await call(registry, "within")
            counted = guard_of(server).unsolicited
            flooded = await call(registry, "flood")
            unsolicited = guard_of(server).unsolicited
    assert isinstance(within, ToolSuccess), within
    assert counted == small_allowance
    assert unsolicited == 2 * small_allowance + 1
    code, message = failure_of(flooded)
    assert code == MCP_CALL_FAILED
    assert f"MCP server at {raw.url} sent more than {small_allowance} notifications" in message


async def test_over_http_one_page_past_max_listed_tools_is_refused_as_it_arrives(
    raw: RawServer, pages_taken: list[int]
) -> None:
    raw.plans.update({f"t{i}": small for i in range(MAX_LISTED_TOOLS + 1)})
    with anyio.fail_after(GUARD_SECONDS):
        async with McpTools.http(raw.url) as server:
            with pytest.raises(McpCallError) as caught:
                await server.definitions()
    assert f"MCP server at {raw.url} lists more than {MAX_LISTED_TOOLS} tools" in (
        caught.value.reason
    )
    assert pages_taken == []


def _notification() -> SessionMessage:
    from mcp.shared.message import SessionMessage
    from mcp_types import JSONRPCNotification

    return SessionMessage(JSONRPCNotification(jsonrpc="2.0", method="notifications/message"))


def test_time_regains_the_allowance_at_its_rate() -> None:
    now = [0.0]
    guard = Guard("a server", clock=lambda: now[0])
    for _ in range(MAX_UNSOLICITED_MESSAGES):
        assert guard.admitted(_notification())
    now[0] += 1.0  # regains UNSOLICITED_PER_SECOND
    for _ in range(int(_transport.UNSOLICITED_PER_SECOND)):
        assert guard.admitted(_notification())
    assert not guard.admitted(_notification())
    assert guard.failure is not None
    assert "MAX_UNSOLICITED_MESSAGES" in guard.failure


# -- names and descriptions --------------------------------------------------------------------

LISTED_NAMES = [
    "ok_tool", "a-b", "a.b", "1abc", "print", "__class__", "x" * MAX_TOOL_NAME_CHARS,
    "", "with space", "ctl\x1b[2J\x07x", "nl\nname", "bidi\u202eevil", "\x00nul",
    "d\u00e9j\u00e0", "tag\U000e0041", "x" * (MAX_TOOL_NAME_CHARS + 1), "x" * 100000, "sl/ash",
]
PLAIN = LISTED_NAMES[:7]


async def test_only_plain_names_are_imported_and_the_rest_reported_escaped(
    server_path: Path, errlog: TextIO
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "names", errlog) as server:
            with warnings.catch_warnings(record=True) as warned:
                warnings.simplefilter("always")
                imported = await server.register(registry, unsupported="skip")
    assert imported.names == PLAIN
    assert [s.name for s in imported.skipped] == [shown_name(n) for n in LISTED_NAMES[7:]]
    assert len(warned) == len(LISTED_NAMES) - len(PLAIN)
    for skipped in imported.skipped:
        assert printable(skipped.name)
        assert len(skipped.name) <= 200 + len("… (cut)")
        assert all(printable(p) for p in skipped.problems)
    for warning in warned:
        assert printable(str(warning.message))
    assert "MCP's rule for tool names" in imported.skipped[1].problems[0]


async def test_a_badly_named_tool_refuses_the_import_under_refuse(
    server_path: Path, errlog: TextIO
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "names", errlog) as server:
            with pytest.raises(RegistrationError) as caught:
                await server.register(registry)
    assert 'tool "bidi\\u202eevil"' in str(caught.value)
    assert printable(str(caught.value))
    assert registry.get("ok_tool") is None


async def test_descriptions_reach_the_model_escaped_and_cut(
    server_path: Path, errlog: TextIO
) -> None:
    long = 3 * MAX_DESCRIPTION_CHARS
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "described", errlog, long) as server:
            with warnings.catch_warnings(record=True):
                warnings.simplefilter("always")
                imported = await server.definitions(unsupported="skip")
    described, cut = imported.definitions
    # Compared as ascii(): a raw lone surrogate could not even be reported.
    assert ascii(described.description) == ascii(
        "Look\\x1b[2J\\x07 here\\u202e\\u2066\\u200b\\U000e0041\\ud800\\x00!\nNext line."
    )
    assert cut.description == "D" * MAX_DESCRIPTION_CHARS + "… (cut)"
    parameters = described.parameters
    assert ascii(at(parameters, "properties", "q", "description")) == ascii(described.description)
    assert ascii(at(parameters, "properties", "q", "title")) == ascii("T\\u202eitle")
    assert at(parameters, "properties", "long", "description") == (
        "L" * MAX_DESCRIPTION_CHARS + "… (cut)"
    )
    sdk = render_sdk(
        SdkTool(d.name, d.description, d.parameters, d.output.schema)
        for d in imported.definitions
    )
    assert printable(sdk, kept="\n")
    [odd] = imported.skipped
    assert odd.name == "odd_keyword"
    assert all(printable(p) for p in odd.problems)


async def test_a_prefix_must_be_made_of_name_characters(
    server_path: Path, errlog: TextIO
) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(server_path, "echo", errlog) as server:
            with pytest.raises(ValueError, match=r"^prefix must be made of"):
                await server.definitions(prefix="my tools\u202e_")
            imported = await server.definitions(prefix="w.")
    assert imported.names == ["w.echo"]


#: MCP's rule, written independently of the implementation's.
def _plain(name: str) -> bool:
    return 1 <= len(name) <= MAX_TOOL_NAME_CHARS and all(
        ch.isascii() and (ch.isalnum() or ch in "_-.") for ch in name
    )


names = st.text(max_size=MAX_TOOL_NAME_CHARS + 4) | st.from_regex(
    r"[A-Za-z0-9_.\-]{1,140}", fullmatch=True
)


@given(names)
def test_a_name_is_imported_exactly_when_it_follows_mcps_rule(name: str) -> None:
    assert (name_problem(name) is None) == _plain(name)


@given(st.text(st.characters(exclude_categories=()), max_size=400))
def test_a_refused_name_is_shown_on_one_printable_bounded_line(name: str) -> None:
    shown = shown_name(name)
    assert printable(shown)
    assert len(shown) <= 200 + len("… (cut)")
    shown.encode("utf-8")  # no lone surrogate: a terminal and a log can take it


#: Any text, lone surrogates and unassigned code points included.
texts = st.text(st.characters(exclude_categories=()), max_size=300)


@given(texts, st.integers(min_value=1, max_value=200))
def test_visible_text_is_printable_bounded_and_keeps_what_was_printable(
    text: str, limit: int
) -> None:
    shown = visible_text(text, limit)
    assert printable(shown, kept="\n\t")
    assert len(shown) <= limit + len("… (cut)")
    shown.encode("utf-8")
    if len(text) <= limit and printable(text, kept="\n\t"):
        assert shown == text
    else:
        assert shown != text
    line = one_line(text, limit)
    assert printable(line)
    assert "\n" not in line
    assert "\t" not in line


@given(texts)
def test_visible_text_escapes_each_character_it_cannot_show(text: str) -> None:
    shown = visible_text(text, 10 * len(text) + 10)  # room for every escape
    decoded = re.sub(
        r"\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|\\U([0-9a-f]{8})",
        lambda m: chr(int(m.group(1) or m.group(2) or m.group(3), 16)),
        shown,
    )
    if "\\" not in text:  # a backslash of the text's own would read as an escape
        assert decoded == text
