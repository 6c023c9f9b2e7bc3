"""The served calls in the session log: unique root ids per log, and names no log can hold.

``serve-mcp --log F`` numbered its root calls ``mcp-1, mcp-2, ...``
from 1 in every process, so a server started after one that died reused the
dead one's ids; a ``tools/call`` whose name holds a lone surrogate made
``McpCodeServer.call`` raise instead of answering that request.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode._loading import load_registry
from codemode._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    JsonlStore,
    MemoryStore,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    read_events,
)
from codemode.mcp import McpCodeServer
from codemode.mcp._server import UnloggableCallError
from sandbox import Limits

from .test_mcp_serve import SERVED
from .test_mcp_server_hostile_client import call, handshake, served

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

pytestmark = pytest.mark.xdist_group("mcp-serve")

GUARD = 60  # seconds; a guard against hangs, never a timing assertion

PROGRAM = "return await tools.stock(item='apples')"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[McpCodeServer]:
    async with McpCodeServer(
        load_registry(SERVED), mode="both", log=SessionLog(MemoryStore()),
        limits=Limits(wall_seconds=10), pool_size=1,
    ) as served:
        yield served


async def test_a_tool_name_no_log_can_hold_gets_an_invalid_params_error() -> None:
    # A raw client over the stdio wire: the official SDK's client cannot even send such a
    # name (it encodes it into a header), but JSON text can (`"\\ud800"`).
    log = SessionLog(MemoryStore())
    async with served(log=log) as run:
        await handshake(run.pipes)
        await run.pipes.send(call(1, "run_code\ud800", {"code": "return 1"}))
        refused = await run.pipes.answer()
        await run.pipes.send(call(2, "count", {"items": [1, 2]}))
        after = await run.pipes.answer()
    assert refused["id"] == 1
    assert refused["error"]["code"] == -32602
    message = refused["error"]["message"]
    assert message.startswith(
        r"tools/call refused: the tool name 'run_code\ud800' cannot be logged: string "
        r"contains a lone surrogate (U+D800) at index 8"
    ), message
    assert message.isascii()
    # The connection still serves, and the log holds only the call that ran.
    assert after["id"] == 2
    assert after["result"]["isError"] is False
    assert [(type(e), e.name) for e in log.events()] == [
        (ToolCallEvent, "count"), (ToolResultEvent, "count")
    ]


async def test_called_directly_the_refusal_is_an_unloggable_call_error_and_takes_no_slot(
    server: McpCodeServer,
) -> None:
    with pytest.raises(UnloggableCallError, match=r"the tool name 'x\\udfff' cannot be logged"):
        await server.call("x\udfff", {})
    assert server.in_flight == 0
    assert server.queued == 0


async def test_root_call_ids_carry_a_random_part_of_their_server(server: McpCodeServer) -> None:
    assert server._log is not None
    with anyio.fail_after(GUARD):
        await server.call("stock", {"item": "pears"})
        await server.call("stock", {"item": "pears"})
    ids = [e.call_id for e in server._log.events() if isinstance(e, ToolCallEvent)][-2:]
    first, second = (re.fullmatch(r"mcp-([0-9a-f]{8})-(\d+)", i) for i in ids)
    assert first is not None, ids
    assert second is not None, ids
    assert first[1] == second[1]
    assert int(second[2]) == int(first[2]) + 1
    other = McpCodeServer(load_registry(SERVED), mode="both", pool_size=1)
    assert other._id_prefix != server._id_prefix
    assert re.fullmatch(r"mcp-[0-9a-f]{8}-", other._id_prefix)


async def test_a_server_on_a_log_a_dead_server_left_open_serves_and_closes_it(
    tmp_path: Path,
) -> None:
    # The dead server's run_code call and its sub-call were open when it was killed.
    path = tmp_path / "session.jsonl"
    store = JsonlStore(path)
    store.append(ToolCallEvent(turn=1, step=0, call_id="mcp-1", name="run_code",
                               arguments="{}"))
    store.append(CodeDispatchStartEvent(root_call_id="mcp-1", parent_call_id="mcp-1",
                                        sub_call_id="mcp-1:code:1", name="stock",
                                        arguments={"item": "apples"}))
    store.close()
    log = SessionLog(JsonlStore(path))
    with anyio.fail_after(GUARD):
        async with McpCodeServer(
            load_registry(SERVED), mode="code", log=log, limits=Limits(wall_seconds=10),
            pool_size=1,
        ) as served:
            answer = await served.call("run_code", {"code": PROGRAM, "description": "count"})
    log.close()
    assert answer["isError"] is False, answer
    assert answer["structuredContent"]["result"] == 12
    events = list(read_events(path))
    starts = [e.sub_call_id for e in events if isinstance(e, CodeDispatchStartEvent)]
    settles = [e.sub_call_id for e in events if isinstance(e, CodeDispatchEvent)]
    assert sorted(starts) == sorted(settles)
    assert len(starts) == 2
    calls = [e.call_id for e in events if isinstance(e, ToolCallEvent)]
    results = [e.call_id for e in events if isinstance(e, ToolResultEvent)]
    assert calls == results
    assert calls[0] == "mcp-1"
    assert calls[1] != "mcp-1"
    abandoned: Any = events[2:4]
    assert [e.error.code for e in abandoned] == ["ABORTED", "ABORTED"]
