"""Dispatch events in the session log and replaying them (reference §5.1, §5.4; issue item 7)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest

from bridge.lossless import materialize
from codemode import (
    AbortSignal,
    CallInput,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ErrorInfo,
    JsonlStore,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    TextBlock,
    ToolCallEvent,
    ToolResultEvent,
    ToolRunContext,
    ToolSuccess,
    read_events,
    render_tree,
    replay,
    run_turn,
)

from .test_code_mode_support import (
    AGENT,
    code_mode,
    make_tool,
    module_pool,
    registry_with,
    run_code,
    turn_log,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator
    from pathlib import Path

    from codemode import Registry
    from sandbox import WorkerPool


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


async def failing(args: Any, ctx: ToolRunContext) -> Any:
    raise LookupError("no such page")


PROGRAM = (
    "a = await tools.fetch(page=1)\n"
    "try:\n    await tools.broken()\nexcept ToolCallError:\n    pass\n"
    "b = await tools.fetch(page=2)\nreturn [a['page'], b['page']]"
)


async def one_turn(registry: Registry, log: SessionLog, code: str = PROGRAM) -> None:
    arguments = json.dumps({"code": code, "description": "Fetch two pages"})
    await run_turn(
        registry,
        [ModelToolCall(call_id="call-1", name="run_code", arguments=arguments)],
        agent=AGENT, signal=AbortSignal(), log=log, turn=1,
    )


def tools_registry() -> Registry:
    return registry_with(make_tool("fetch"), make_tool("broken", body=failing))


async def test_the_session_log_orders_call_starts_settles_and_result(pool: WorkerPool) -> None:
    log = SessionLog(MemoryStore())
    registry = tools_registry()
    async with code_mode(registry, pool, log=log):
        await one_turn(registry, log)
    shape = [
        (type(e).__struct_config__.tag, getattr(e, "sub_call_id", getattr(e, "call_id", None)))
        for e in log.events()
    ]
    assert shape == [
        ("tool/call", "call-1"),
        ("tool/code-dispatch-start", "call-1:code:1"),
        ("tool/code-dispatch", "call-1:code:1"),
        ("tool/code-dispatch-start", "call-1:code:2"),
        ("tool/code-dispatch", "call-1:code:2"),
        ("tool/code-dispatch-start", "call-1:code:3"),
        ("tool/code-dispatch", "call-1:code:3"),
        ("tool/result", "call-1"),
    ]


async def test_dispatch_events_carry_every_reference_field(pool: WorkerPool) -> None:
    log = SessionLog(MemoryStore())
    registry = tools_registry()
    async with code_mode(registry, pool, log=log):
        await one_turn(registry, log)
    events = log.events()
    start = events[1]
    assert start == CodeDispatchStartEvent(
        seq=start.seq, time=start.time, root_call_id="call-1", parent_call_id="call-1",
        sub_call_id="call-1:code:1", name="fetch", arguments={"page": 1},
    )
    failed = events[4]
    assert failed == CodeDispatchEvent(
        seq=failed.seq, time=failed.time, root_call_id="call-1", parent_call_id="call-1",
        sub_call_id="call-1:code:2", name="broken", arguments={}, is_error=True,
        content=(TextBlock(text="Error: no such page"),), error=None,
    )
    settled = events[2]
    assert isinstance(settled, CodeDispatchEvent)
    assert settled.content == (TextBlock(text='{"page": 1}'),)
    # Order is judged by seq, never by comparing wall-clock times.
    assert [e.seq for e in events] == sorted(e.seq for e in events)


async def test_a_failed_sub_calls_event_keeps_its_error_identity(pool: WorkerPool) -> None:
    async def hang(args: Any, ctx: ToolRunContext) -> Any:
        await ctx.signal.wait()

    log = turn_log()
    registry = registry_with(make_tool("hang", body=hang, timeout=0.01))
    async with code_mode(registry, pool, log=log):
        await run_code(registry, "try:\n    await tools.hang()\nexcept ToolCallError:\n    pass")
    settled = log.events()[-1]
    assert isinstance(settled, CodeDispatchEvent)
    assert settled.error == ErrorInfo(name="ToolTimeoutError", code="TOOL_TIMEOUT")


async def test_a_nested_run_code_logs_under_its_root_with_its_own_call_as_parent(
    pool: WorkerPool,
) -> None:
    # A composite tool runs a program on its own behalf, as its own call: the
    # nested sub-calls keep the root and name the composite's call as parent.
    registry = tools_registry()

    async def delegate(args: Any, ctx: ToolRunContext) -> Any:
        nested = await registry.execute(
            CallInput(
                ctx.call_id, "run_code",
                {"code": "return await tools.fetch(page=7)", "description": "Fetch page 7"},
                ctx.signal, agent=ctx.agent, parent=ctx.token, root_call_id=ctx.root_call_id,
            )
        )
        assert isinstance(nested, ToolSuccess), nested.content
        return materialize(nested.value, accept_tuples=True)

    registry.register(make_tool("delegate", body=delegate))
    log = SessionLog(MemoryStore())
    async with code_mode(registry, pool, log=log):
        await one_turn(registry, log, code="return await tools.delegate()")
    dispatch = [
        (type(e).__name__, e.root_call_id, e.parent_call_id, e.sub_call_id)
        for e in log.events()
        if isinstance(e, CodeDispatchStartEvent | CodeDispatchEvent)
    ]
    assert dispatch == [
        ("CodeDispatchStartEvent", "call-1", "call-1", "call-1:code:1"),
        ("CodeDispatchStartEvent", "call-1", "call-1:code:1", "call-1:code:1:code:1"),
        ("CodeDispatchEvent", "call-1", "call-1:code:1", "call-1:code:1:code:1"),
        ("CodeDispatchEvent", "call-1", "call-1", "call-1:code:1"),
    ]
    [root] = replay(log.events())
    [composite] = root.children
    assert [c.call_id for c in composite.children] == ["call-1:code:1:code:1"]


async def test_run_code_outside_its_turn_in_the_log_fails_before_any_sub_call(
    pool: WorkerPool,
) -> None:
    ran: list[str] = []

    async def fetch(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        return None

    log = SessionLog(MemoryStore())  # no tool/call for "call-1": no open turn
    registry = registry_with(make_tool("fetch", body=fetch))
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, "await tools.fetch()")
    assert result.is_error
    assert result.error.message == (
        "run_code was not run: the session log cannot take its dispatch events: its root "
        'call "call-1" is not open in this log (its tool/call is not logged, or its '
        "tool/result already is), and dispatch events belong inside their root call's "
        "turn; run the call through run_turn(), or append its ToolCallEvent before "
        "executing it"
    )
    assert ran == []
    assert log.events() == []


async def test_replay_rebuilds_the_call_tree_from_a_jsonl_log(
    pool: WorkerPool, tmp_path: Path
) -> None:
    path = tmp_path / "session.jsonl"
    log = SessionLog(JsonlStore(path))
    registry = tools_registry()
    async with code_mode(registry, pool, log=log):
        await one_turn(registry, log)
    log.close()
    [root] = replay(read_events(path))
    assert (root.call_id, root.name, root.is_error) == ("call-1", "run_code", False)
    assert root.content == (TextBlock(text="[\n  1,\n  2\n]"),)
    assert [(c.call_id, c.name, c.is_error) for c in root.children] == [
        ("call-1:code:1", "fetch", False),
        ("call-1:code:2", "broken", True),
        ("call-1:code:3", "fetch", False),
    ]
    assert root.children[1].content == (TextBlock(text="Error: no such page"),)
    assert root.children[0].arguments == {"page": 1}
    for node in (root, *root.children):
        assert node.duration is not None  # both events of the pair were found
    tree = render_tree([root])
    assert "run_code" in tree
    assert "call-1:code:2" in tree or "broken" in tree


async def test_a_model_call_and_its_result_are_the_only_model_facing_events(
    pool: WorkerPool,
) -> None:
    from codemode import model_messages

    log = SessionLog(MemoryStore())
    registry = tools_registry()
    async with code_mode(registry, pool, log=log):
        await one_turn(registry, log)
    kinds = [type(m).__name__ for m in model_messages(log.events())]
    assert kinds == ["ModelToolCall", "ModelToolResult"]
    result = log.events()[-1]
    assert isinstance(result, ToolResultEvent)
    assert isinstance(log.events()[0], ToolCallEvent)
    assert result.error is None


async def test_a_failed_run_code_result_event_names_code_run_failed(pool: WorkerPool) -> None:
    log = SessionLog(MemoryStore())
    registry = tools_registry()
    async with code_mode(registry, pool, log=log):
        await one_turn(registry, log, code="raise KeyError('x')")
    result = log.events()[-1]
    assert isinstance(result, ToolResultEvent)
    assert result.error == ErrorInfo(
        name="CodeRunFailedError", code="CODE_RUN_FAILED", kind="exception"
    )
