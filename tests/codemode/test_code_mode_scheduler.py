"""Scheduling of a program's sub-calls, through the real sandbox (reference §3.5, §8 "Scheduler").

Tool bodies run on the host, so they synchronise on ``anyio.Event`` objects the
test controls; ``fail_after`` only turns a scheduling bug (a deadlock) into a
failure instead of a hang.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
import pytest

from codemode import (
    AbortSignal,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ContextMessage,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    TextBlock,
    ToolDefinition,
    ToolExecution,
    ToolResult,
    ToolResultEvent,
    ToolRunContext,
    run_turn,
    text_of,
)
from codemode._errors import QUOTA_EXCEEDED, UNKNOWN_TOOL
from codemode.code_mode import Quotas

from .test_code_mode_support import (
    AGENT,
    code_mode,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
    turn_log,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from sandbox import WorkerPool

#: Turns a scheduling deadlock into a failure; no assertion depends on it.
DEADLOCK_GUARD = 30


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


class Trace:
    """Records what the tool bodies and hooks did, in order."""

    def __init__(self) -> None:
        self.entries: list[str] = []
        self.running = 0
        self.peak = 0

    def tool(
        self, name: str, *, parallel: bool, wait: Callable[[], Awaitable[None]] | None = None
    ) -> ToolDefinition:
        async def body(args: Any, ctx: ToolRunContext) -> Any:
            self.running += 1
            self.peak = max(self.peak, self.running)
            self.entries.append(f"start {name}")
            try:
                if wait is not None:
                    await wait()
            finally:
                self.running -= 1
                self.entries.append(f"end {name}")
            return name

        return make_tool(name, body=body, parallel=parallel)


def both_started(count: int) -> tuple[Callable[[], Awaitable[None]], anyio.Event]:
    """A wait that returns once ``count`` bodies are inside it together."""
    arrived = [0]
    together = anyio.Event()

    async def wait() -> None:
        arrived[0] += 1
        if arrived[0] == count:
            together.set()
        await together.wait()

    return wait, together


async def test_concurrency_safe_calls_overlap_under_gather_with_one_start_event_each(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    trace = Trace()
    wait, _ = both_started(3)
    registry = registry_with(*(trace.tool(n, parallel=True, wait=wait) for n in "abc"))
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool, log=log):
            result = await run_code(
                registry,
                "import asyncio\nreturn await asyncio.gather(tools.a(), tools.b(), tools.c())",
            )
    assert returned(result) == ["a", "b", "c"]
    assert trace.peak == 3
    started = [e.sub_call_id for e in log.events() if isinstance(e, CodeDispatchStartEvent)]
    assert started == ["call-1:code:1", "call-1:code:2", "call-1:code:3"]


async def test_without_concurrency_safe_tools_gather_runs_serially_in_submission_order(
    pool: WorkerPool,
) -> None:
    trace = Trace()
    registry = registry_with(*(trace.tool(n, parallel=False) for n in "abc"))
    async with code_mode(registry, pool):
        await run_code(
            registry, "import asyncio\nawait asyncio.gather(tools.c(), tools.a(), tools.b())"
        )
    assert trace.entries == ["start c", "end c", "start a", "end a", "start b", "end b"]


async def test_an_exclusive_call_is_a_barrier_held_through_its_post_execute(
    pool: WorkerPool,
) -> None:
    trace = Trace()
    wait, _ = both_started(2)

    async def post(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        decision = await proceed()
        if execution.name == "x":
            await anyio.lowlevel.checkpoint()
            trace.entries.append("post x")
        return decision

    registry = registry_with(
        trace.tool("p1", parallel=True, wait=wait),
        trace.tool("p2", parallel=True, wait=wait),
        trace.tool("x", parallel=False),
        trace.tool("p3", parallel=True),
    )
    registry.post_execute(post)
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool):
            await run_code(
                registry,
                "import asyncio\n"
                "await asyncio.gather(tools.p1(), tools.p2(), tools.x(), tools.p3())",
            )
    entries = trace.entries
    assert entries.index("start x") > max(entries.index("end p1"), entries.index("end p2"))
    assert entries[entries.index("start x") : entries.index("start x") + 3] == [
        "start x", "end x", "post x",
    ]
    assert entries.index("start p3") > entries.index("post x")


async def test_max_parallel_sub_calls_caps_the_overlap(pool: WorkerPool) -> None:
    trace = Trace()
    pair, _ = both_started(2)

    async def wait() -> None:
        # The first two calls meet (so the cap is reached); every call then
        # yields a while, giving a third call every chance to start if it could.
        if trace.running <= 2 and len(trace.entries) <= 2:
            await pair()
        for _ in range(20):
            await anyio.lowlevel.checkpoint()

    registry = registry_with(
        *(trace.tool(f"t{i}", parallel=True, wait=wait) for i in range(6)),
        max_parallel_sub_calls=2,
    )
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool):
            await run_code(
                registry,
                "import asyncio\nawait asyncio.gather("
                + ", ".join(f"tools.t{i}()" for i in range(6))
                + ")",
            )
    assert trace.peak == 2


async def test_a_tool_unregistered_after_enumeration_fails_as_an_unknown_tool(
    pool: WorkerPool,
) -> None:
    disposers: list[Callable[[], None]] = []

    async def remove_b(args: Any, ctx: ToolRunContext) -> Any:
        disposers[0]()
        return None

    registry = registry_with(make_tool("a", body=remove_b))
    disposers.append(registry.register(make_tool("b")))
    async with code_mode(registry, pool):
        result = await run_code(
            registry,
            "await tools.a()\ntry:\n    await tools.b()\n"
            "except ToolCallError as e:\n    return [e.code, str(e)]",
        )
    assert returned(result) == [UNKNOWN_TOOL, 'tool "b" failed (UNKNOWN_TOOL): unknown tool "b"']


async def test_ordered_pre_execute_stages_never_overlap(pool: WorkerPool) -> None:
    entries: list[str] = []

    async def pre(execution: ToolExecution, proceed: Any) -> Any:
        entries.append(f"enter {execution.call_id}")
        for _ in range(5):
            await anyio.lowlevel.checkpoint()
        entries.append(f"leave {execution.call_id}")
        return await proceed()

    registry = registry_with(*(make_tool(n, parallel=True) for n in "abc"))
    registry.pre_execute(pre)
    async with code_mode(registry, pool):
        await run_code(
            registry, "import asyncio\nawait asyncio.gather(tools.a(), tools.b(), tools.c())"
        )
    subs = [e for e in entries if ":code:" in e]
    assert subs == [
        f"{step} call-1:code:{n}" for n in (1, 2, 3) for step in ("enter", "leave")
    ]


async def test_commits_and_contexts_follow_submission_order_when_bodies_finish_out_of_order(
    pool: WorkerPool,
) -> None:
    b_done = anyio.Event()
    posts: list[str] = []

    async def slow(args: Any, ctx: ToolRunContext) -> Any:
        await b_done.wait()
        ctx.defer_context(ContextMessage(content=(TextBlock(text="from a"),)))
        return "a"

    async def fast(args: Any, ctx: ToolRunContext) -> Any:
        ctx.defer_context(ContextMessage(content=(TextBlock(text="from b"),)))
        b_done.set()
        return "b"

    async def post(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        posts.append(execution.name)
        return await proceed()

    registry = registry_with(
        make_tool("a", body=slow, parallel=True), make_tool("b", body=fast, parallel=True)
    )
    registry.post_execute(post)
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool):
            result = await run_code(
                registry, "import asyncio\nreturn await asyncio.gather(tools.a(), tools.b())"
            )
    assert returned(result) == ["a", "b"]
    assert posts == ["a", "b", "run_code"]
    assert [text_of(c.content) for c in result.additional_contexts] == ["from a", "from b"]


async def test_run_settlement_drains_a_commit_in_progress_and_logs_it_inside_the_turn(
    pool: WorkerPool,
) -> None:
    log = SessionLog(MemoryStore())
    in_commit = anyio.Event()
    release = anyio.Event()

    async def post(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        if execution.name == "t":
            in_commit.set()
            await release.wait()
        return await proceed()

    registry = registry_with(make_tool("t"))
    registry.post_execute(post)
    results: list[ToolResult] = []
    call = ModelToolCall(
        call_id="call-1",
        name="run_code",
        arguments='{"code": "import asyncio\\nasyncio.create_task(tools.t())\\n'
        'await asyncio.sleep(0)\\nreturn 1", "description": "Start t and leave"}',
    )
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool, log=log), anyio.create_task_group() as tg:

            async def turn() -> None:
                results.extend(
                    await run_turn(registry, [call], agent=AGENT, signal=AbortSignal(),
                                   log=log, turn=1)
                )

            tg.start_soon(turn)
            await in_commit.wait()
            release.set()
    kinds = [type(e).__name__ for e in log.events()]
    assert kinds == [
        "ToolCallEvent", "CodeDispatchStartEvent", "CodeDispatchEvent", "ToolResultEvent",
    ]
    assert isinstance(log.events()[-1], ToolResultEvent)
    assert len(results) == 1


async def test_a_queued_call_abandoned_at_settlement_logs_no_start_event(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    started = anyio.Event()

    async def hold(args: Any, ctx: ToolRunContext) -> Any:
        started.set()
        await ctx.signal.wait()
        return None

    registry = registry_with(make_tool("hold", body=hold), make_tool("queued"))
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool, log=log):
            result = await run_code(
                registry,
                "import asyncio\nasyncio.create_task(tools.hold())\n"
                "asyncio.create_task(tools.queued())\nawait asyncio.sleep(0)\n"
                "raise RuntimeError('leaving early')",
            )
    assert result.is_error
    assert started.is_set()
    assert [e.sub_call_id for e in log.events() if isinstance(e, CodeDispatchStartEvent)] == [
        "call-1:code:1"
    ]
    settled = [e for e in log.events() if isinstance(e, CodeDispatchEvent)]
    assert [e.sub_call_id for e in settled] == ["call-1:code:1"]


async def test_the_default_cap_lets_ten_calls_overlap_and_no_more(pool: WorkerPool) -> None:
    trace = Trace()
    ten, _ = both_started(10)

    async def wait() -> None:
        if len([e for e in trace.entries if e.startswith("start")]) <= 10:
            await ten()
        for _ in range(20):
            await anyio.lowlevel.checkpoint()

    registry = registry_with(*(trace.tool(f"t{i}", parallel=True, wait=wait) for i in range(11)))
    with anyio.fail_after(DEADLOCK_GUARD):
        async with code_mode(registry, pool):
            await run_code(
                registry,
                "import asyncio\nawait asyncio.gather("
                + ", ".join(f"tools.t{i}()" for i in range(11))
                + ")",
            )
    assert trace.peak == 10


#: A call with arguments large enough to be copied in a worker thread, made
#: before a small one: the order the program made them in is the order they get.
LARGE_THEN_SMALL = """
import asyncio
big = "x" * 2_000_000
results = await asyncio.gather(tools.large(data=big), tools.small(), return_exceptions=True)
return [r if isinstance(r, str) else r.code for r in results]
"""


async def test_a_call_copied_off_the_loop_keeps_its_place_in_call_order(pool: WorkerPool) -> None:
    trace = Trace()
    registry = registry_with(
        trace.tool("large", parallel=False), trace.tool("small", parallel=False)
    )
    log = turn_log()
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, LARGE_THEN_SMALL)
    assert returned(result) == ["large", "small"]
    assert trace.entries == ["start large", "end large", "start small", "end small"]
    starts = [e for e in log.events() if isinstance(e, CodeDispatchStartEvent)]
    assert [(e.name, e.sub_call_id) for e in starts] == [
        ("large", "call-1:code:1"), ("small", "call-1:code:2")
    ]


async def test_a_quota_admits_calls_in_the_order_the_program_made_them(pool: WorkerPool) -> None:
    trace = Trace()
    registry = registry_with(
        trace.tool("large", parallel=False), trace.tool("small", parallel=False)
    )
    async with code_mode(registry, pool, log=turn_log(), quotas=Quotas(max_calls=1)):
        result = await run_code(registry, LARGE_THEN_SMALL)
    assert returned(result) == ["large", QUOTA_EXCEEDED]
    assert trace.entries == ["start large", "end large"]
