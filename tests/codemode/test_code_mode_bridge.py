"""The sub-dispatch bridge end to end, through the real sandbox (reference §3, §8 "Bridge")."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode import (
    AbortSignal,
    Accept,
    Block,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ContextMessage,
    ExecutionToken,
    ImageBlock,
    MemoryStore,
    SessionLog,
    TextBlock,
    ToolExecution,
    ToolResult,
    ToolRunContext,
    ToolSuccess,
    model_messages,
    text_of,
)
from codemode._errors import ABORTED, CODE_RUN_FAILED
from sandbox import Limits, WorkerPool

from .test_code_mode_support import (
    AGENT,
    code_mode,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
    run_code_call,
    turn_log,
    value_of,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from codemode.code_mode import CodeRun


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


def dispatches(log: SessionLog) -> list[CodeDispatchEvent]:
    return [e for e in log.events() if isinstance(e, CodeDispatchEvent)]


def starts(log: SessionLog) -> list[CodeDispatchStartEvent]:
    return [e for e in log.events() if isinstance(e, CodeDispatchStartEvent)]


async def test_calls_are_bridged_with_curated_output_and_one_logged_event_per_dispatch(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    registry = registry_with(make_tool("echo"))
    async with code_mode(registry, pool, log=log):
        result = await run_code(
            registry,
            "a = await tools.echo(n=1)\nb = await tools.echo(n=2)\nreturn a['n'] + b['n']",
        )
    assert value_of(result) == {"logs": [], "result": 3}
    assert [(e.sub_call_id, e.root_call_id, e.parent_call_id) for e in dispatches(log)] == [
        ("call-1:code:1", "call-1", "call-1"),
        ("call-1:code:2", "call-1", "call-1"),
    ]
    assert [e.content for e in dispatches(log)] == [
        (TextBlock(text='{"n": 1}'),),
        (TextBlock(text='{"n": 2}'),),
    ]


async def test_sub_call_numbers_start_at_one_for_each_run_code(pool: WorkerPool) -> None:
    seen: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        seen.append(ctx.call_id)
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool):
        await run_code(registry, "await tools.t()\nawait tools.t()", call_id="call-7")
        await run_code(registry, "await tools.t()", call_id="call-8")
    assert seen == ["call-7:code:1", "call-7:code:2", "call-8:code:1"]


async def test_the_root_call_id_and_agent_propagate_to_every_sub_call(pool: WorkerPool) -> None:
    seen: list[tuple[str, object]] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        seen.append((ctx.root_call_id, ctx.agent))
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool):
        await run_code(registry, "await tools.t()", call_id="inner", root_call_id="root-0")
    assert seen == [("root-0", AGENT)]


async def test_nested_result_observers_see_only_the_outer_executions_opaque_token(
    pool: WorkerPool,
) -> None:
    observed: list[ToolExecution] = []
    registry = registry_with(make_tool("t"))
    registry.on_result(lambda execution, result: observed.append(execution))
    async with code_mode(registry, pool):
        await run_code(registry, "await tools.t()")
    [sub, outer] = observed
    assert sub.name == "t"
    assert outer.name == "run_code"
    assert isinstance(sub.parent, ExecutionToken)
    assert sub.parent is outer.token
    assert outer.parent is None


async def test_the_run_signal_is_every_sub_calls_caller_signal_and_settles_with_the_run(
    pool: WorkerPool,
) -> None:
    signals: list[AbortSignal] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        signals.append(ctx.signal)
        assert not ctx.signal.aborted
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool):
        await run_code(registry, "await tools.t()\nawait tools.t()")
    assert all(signal.aborted for signal in signals)
    assert {signal.reason for signal in signals} == {"run_code settled"}


async def test_a_nested_concludes_turn_is_forwarded_to_the_outer_result(pool: WorkerPool) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ctx.conclude_turn()
        return None

    registry = registry_with(make_tool("finish", body=body))
    async with code_mode(registry, pool):
        result = await run_code(registry, "await tools.finish()")
    assert value_of(result) is not None
    assert isinstance(result, ToolSuccess)
    assert result.concludes_turn


async def test_a_tool_error_reaches_the_program_as_tool_call_error_with_message_and_code(
    pool: WorkerPool,
) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        raise RuntimeError("disk full")

    registry = registry_with(make_tool("save", body=body))
    async with code_mode(registry, pool):
        result = await run_code(
            registry,
            "try:\n    await tools.save()\nexcept ToolCallError as e:\n"
            "    return [str(e), e.tool_name, e.code, e.type]",
        )
    assert returned(result) == [
        'tool "save" raised RuntimeError: disk full', "save", None, "RuntimeError"
    ]


async def test_a_throwing_pre_execute_settles_the_sub_call_without_post_execute(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    posts: list[str] = []

    async def pre(execution: ToolExecution, proceed: Callable[[], Awaitable[Any]]) -> Any:
        if execution.name == "t":
            raise RuntimeError("policy crashed")
        return await proceed()

    async def post(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        posts.append(execution.name)
        return await proceed()

    registry = registry_with(make_tool("t"))
    registry.pre_execute(pre)
    registry.post_execute(post)
    async with code_mode(registry, pool, log=log):
        result = await run_code(
            registry, "try:\n    await tools.t()\nexcept ToolCallError as e:\n    return str(e)"
        )
    assert returned(result) == 'tool "t" raised RuntimeError: policy crashed'
    assert "t" not in posts
    [settled] = dispatches(log)
    assert settled.is_error


async def test_a_throwing_dispatch_log_listener_is_contained_and_the_original_is_logged(
    pool: WorkerPool,
) -> None:
    log = turn_log()

    async def broken(dispatch: Any, proceed: Any) -> Any:
        raise RuntimeError("listener bug")

    registry = registry_with(make_tool("t"))
    registry.on_code_dispatch_log(broken)
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, "return await tools.t(a=1)")
    assert returned(result) == {"a": 1}
    assert dispatches(log)[0].content == (TextBlock(text='{"a": 1}'),)


async def test_the_dispatch_log_waterfall_reshapes_only_the_logged_copy(pool: WorkerPool) -> None:
    log = turn_log()

    async def redact(dispatch: Any, proceed: Any) -> Any:
        await proceed()
        return (TextBlock(text="[redacted]"),)

    registry = registry_with(make_tool("t"))
    registry.on_code_dispatch_log(redact)
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, "return await tools.t(secret='s3')")
    assert returned(result) == {"secret": "s3"}
    assert dispatches(log)[0].content == (TextBlock(text="[redacted]"),)


async def test_a_lossy_argument_dispatches_nothing_and_uses_no_number(pool: WorkerPool) -> None:
    log = turn_log()
    registry = registry_with(make_tool("t"))
    async with code_mode(registry, pool, log=log, check_calls=False):
        result = await run_code(
            registry,
            "out = []\n"
            "for bad in (float('nan'), float('inf'), -0.0, {1: 2}, {'s': {1, 2}}, 2**60 + 1):\n"
            "    try:\n        await tools.t(x=bad)\n"
            "    except ToolCallError as e:\n        out.append(str(e).split(':')[0])\n"
            "await tools.t(x=1)\nreturn out",
        )
    assert returned(result) == ['tool "t" was not called'] * 6
    assert [e.sub_call_id for e in dispatches(log)] == ["call-1:code:1"]


async def test_a_lossy_argument_reaches_the_program_with_no_error_code(pool: WorkerPool) -> None:
    # Arguments that are not lossless JSON are refused before any schema sees
    # them: no INVALID_ARGS (a schema's verdict), no code at all, no tool type.
    registry = registry_with(make_tool("t"))
    async with code_mode(registry, pool, check_calls=False):
        result = await run_code(
            registry,
            "try:\n    await tools.t(x=float('nan'))\n"
            "except ToolCallError as e:\n    return [e.tool_name, e.code, e.type, str(e)]",
        )
    assert returned(result) == [
        "t", None, None,
        'tool "t" was not called: its arguments must be lossless JSON: nan is not a JSON '
        "number; send null or a string instead - at `$.x`",
    ]


async def test_arguments_nested_hundreds_deep_are_dispatched_and_logged(pool: WorkerPool) -> None:
    log = turn_log()
    registry = registry_with(make_tool("t"))
    async with code_mode(registry, pool, log=log):
        result = await run_code(
            registry,
            "v = 1\nfor _ in range(300):\n    v = [v]\nawait tools.t(v=v)\nreturn 'ok'",
        )
    assert returned(result) == "ok"
    [settled] = dispatches(log)
    arguments: Any = settled.arguments
    depth, node = 0, arguments["v"]
    while isinstance(node, tuple):
        depth, node = depth + 1, node[0]
    assert depth == 300


async def test_dispatch_and_log_get_equal_independent_snapshots_and_the_tool_gets_a_frozen_one(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    received: list[Any] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        received.append(args)
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool, log=log):
        await run_code(registry, "await tools.t(items=[1, {'k': 'v'}])")
    [args] = received
    with pytest.raises(TypeError):
        args["items"] = []
    [start] = starts(log)
    # The logged copy is frozen too (as result values are), and shares nothing.
    logged: Any = start.arguments
    assert logged == {"items": (1, {"k": "v"})}
    assert logged is not args
    assert logged["items"][1] is not args["items"][1]
    with pytest.raises(TypeError):
        logged["items"] = []


async def test_sub_call_additional_contexts_are_deferred_to_the_outer_result(
    pool: WorkerPool,
) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ctx.defer_context(ContextMessage(content=(TextBlock(text=f"note {args['n']}"),)))
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool):
        result = await run_code(registry, "await tools.t(n=1)\nawait tools.t(n=2)")
    texts = [text_of(c.content) for c in result.additional_contexts]
    assert texts == ["note 1", "note 2"]


def render_image(args: Any, value: Any) -> Any:
    return [TextBlock(text="a chart"), ImageBlock(data="aGk=", mime_type="image/png")]


async def test_image_bearing_sub_results_are_deferred_with_their_whole_content(
    pool: WorkerPool,
) -> None:
    registry = registry_with(make_tool("chart", render=render_image))
    async with code_mode(registry, pool):
        result = await run_code(registry, "await tools.chart()\nreturn 'drawn'")
    [context] = result.additional_contexts
    assert context.content == tuple(render_image(None, None))
    assert result.content == (TextBlock(text="drawn"),)


async def test_an_image_removed_by_a_nested_post_execute_is_not_deferred(pool: WorkerPool) -> None:
    async def strip(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        await proceed()
        return Accept(content=[TextBlock(text="no image")])

    registry = registry_with(make_tool("chart", render=render_image))
    registry.post_execute(strip)
    async with code_mode(registry, pool):
        result = await run_code(registry, "await tools.chart()")
    assert result.additional_contexts == ()


async def test_contexts_are_kept_when_the_run_later_fails(pool: WorkerPool) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ctx.defer_context(ContextMessage(content=(TextBlock(text="kept"),)))
        return None

    registry = registry_with(make_tool("t", body=body), make_tool("chart", render=render_image))
    async with code_mode(registry, pool):
        result = await run_code(
            registry, "await tools.t()\nawait tools.chart()\nraise RuntimeError('late')"
        )
    assert result.is_error
    assert len(result.additional_contexts) == 2


async def test_a_blocked_run_code_drops_what_its_sub_calls_deferred(pool: WorkerPool) -> None:
    # A post-execute block on the outer call exposes only the contexts its own
    # decision attached: neither a sub-call's deferred context nor an image.
    async def note(args: Any, ctx: ToolRunContext) -> Any:
        ctx.defer_context(ContextMessage(content=(TextBlock(text="from a sub-call"),)))
        return None

    async def block_run_code(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        decision = await proceed()
        if execution.name != "run_code":
            return decision
        own = ContextMessage(content=(TextBlock(text="from the block"),))
        return Block([TextBlock(text="withheld")], additional_contexts=[own])

    runs: list[CodeRun] = []
    registry = registry_with(make_tool("note", body=note), make_tool("chart", render=render_image))
    registry.post_execute(block_run_code)
    async with code_mode(registry, pool, on_run=runs.append):
        result = await run_code(registry, "await tools.note()\nawait tools.chart()\nreturn 1")
    assert result.is_error
    assert result.error.message == "withheld"
    assert [text_of(c.content) for c in result.additional_contexts] == ["from the block"]
    # The sub-calls did produce both side channels before the block.
    [run] = runs
    assert [c.name for c in run.calls] == ["note", "chart"]


async def test_without_an_agent_calls_run_and_no_events_are_logged(pool: WorkerPool) -> None:
    log = SessionLog(MemoryStore())
    registry = registry_with(make_tool("t"))
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, "return await tools.t(a=1)", agent=None)
    assert returned(result) == {"a": 1}
    assert log.events() == []


async def test_a_failed_sub_calls_content_is_durable(pool: WorkerPool) -> None:
    log = turn_log()

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        raise RuntimeError("nope")

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool, log=log):
        await run_code(registry, "try:\n    await tools.t()\nexcept ToolCallError:\n    pass")
    [settled] = dispatches(log)
    assert settled.is_error
    assert settled.content == (TextBlock(text="Error: nope"),)


async def test_a_sub_result_is_logged_verbatim_with_non_text_blocks_and_long_text(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    long = "x" * 200_000

    def render(args: Any, value: Any) -> Any:
        return [TextBlock(text=long), ImageBlock(data="aGk=", mime_type="image/png")]

    registry = registry_with(make_tool("t", render=render))
    async with code_mode(registry, pool, log=log):
        await run_code(registry, "await tools.t()")
    assert dispatches(log)[0].content == tuple(render(None, None))


async def test_a_tool_with_an_exotic_name_is_an_ordinary_binding(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("__proto__"), make_tool("odd-name"))
    async with code_mode(registry, pool):
        result = await run_code(
            registry, "a = await tools['__proto__'](x=1)\nb = await tools['odd-name'](y=2)\n"
            "return [a, b]",
        )
    assert returned(result) == [{"x": 1}, {"y": 2}]


async def test_a_pre_execute_deny_reaches_the_program_as_a_rejection(pool: WorkerPool) -> None:
    from codemode import Deny

    async def deny(execution: ToolExecution, proceed: Any) -> Any:
        return Deny("not today") if execution.name == "t" else await proceed()

    registry = registry_with(make_tool("t"))
    registry.pre_execute(deny)
    async with code_mode(registry, pool):
        result = await run_code(
            registry, "try:\n    await tools.t()\nexcept ToolCallError as e:\n    return str(e)"
        )
    assert returned(result) == 'tool "t" failed: not today'


async def test_a_tripwire_violation_is_code_run_failed_with_its_kind() -> None:
    # The language layer off, so that the program can reach a frame at all.
    registry = registry_with(make_tool("t"))
    limits = Limits(language_layer=False, wall_seconds=20)
    async with WorkerPool(limits=limits, size=1) as plain_pool, code_mode(registry, plain_pool):
        result = await run_code(registry, "import sys\nsys._getframe()\nreturn 1")
    assert result.is_error
    assert result.error.info is not None
    assert (result.error.info.code, result.error.info.kind) == (
        CODE_RUN_FAILED, "sandbox-violation"
    )
    assert "the program triggered a sandbox violation: sys._getframe" in result.error.message


async def test_a_failed_run_is_code_run_failed_with_kind_and_logs_and_reported_to_on_run(
    pool: WorkerPool,
) -> None:
    runs: list[CodeRun] = []
    registry = registry_with(make_tool("t"))
    async with code_mode(registry, pool, on_run=runs.append):
        result = await run_code(registry, "await tools.t()\nprint('half')\nreturn 1 / 0")
    assert result.is_error
    assert result.error.info is not None
    assert result.error.info.code == CODE_RUN_FAILED
    assert result.error.info.kind == "exception"
    assert "ZeroDivisionError" in result.error.message
    [run] = runs
    assert run.error is not None
    assert run.error[0] == "exception"
    assert run.logs == ("half",)
    assert [c.name for c in run.calls] == ["t"]


async def test_an_outer_abort_kills_the_program_aborts_in_flight_calls_and_abandons_queued_ones(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    started = anyio.Event()
    seen: list[AbortSignal] = []

    async def slow(args: Any, ctx: ToolRunContext) -> Any:
        seen.append(ctx.signal)
        started.set()
        await ctx.signal.wait()
        return "finished anyway"

    registry = registry_with(make_tool("slow", body=slow), make_tool("later"))
    signal = AbortSignal()
    results: list[ToolResult] = []
    with anyio.fail_after(30):  # a guard against a hang, never a timing assertion
        async with code_mode(registry, pool, log=log), anyio.create_task_group() as tg:

            async def call() -> None:
                results.append(
                    await registry.execute(
                        run_code_call(
                            "import asyncio\n"
                            "await asyncio.gather(tools.slow(), tools.later())",
                            signal=signal,
                        )
                    )
                )

            tg.start_soon(call)
            await started.wait()
            signal.abort("user pressed stop")
    [result] = results
    assert result.is_error
    assert result.error.message.startswith("code run failed (abort): ")
    assert "user pressed stop" in result.error.message
    assert seen[0].aborted
    # The in-flight call settles (as ABORTED); the queued one never started.
    assert [e.sub_call_id for e in starts(log)] == ["call-1:code:1"]
    [settled] = dispatches(log)
    assert settled.is_error
    assert settled.error is not None
    assert settled.error.code == ABORTED


async def test_a_program_that_fails_mid_call_still_settles_and_logs_before_returning(
    pool: WorkerPool,
) -> None:
    log = turn_log()
    started = anyio.Event()

    async def slow(args: Any, ctx: ToolRunContext) -> Any:
        started.set()
        await ctx.signal.wait()
        return None

    registry = registry_with(make_tool("slow", body=slow))
    async with code_mode(registry, pool, log=log):
        result = await run_code(
            registry,
            "import asyncio\ntask = asyncio.create_task(tools.slow())\n"
            "await asyncio.sleep(0)\nraise RuntimeError('gave up')",
        )
    assert result.is_error
    assert started.is_set()
    [settled] = dispatches(log)
    assert settled.is_error


async def test_dispatch_events_never_become_model_messages(pool: WorkerPool) -> None:
    from codemode import ModelToolCall, ModelToolResult, run_turn

    log = SessionLog(MemoryStore())
    registry = registry_with(make_tool("t"))
    async with code_mode(registry, pool, log=log):
        await run_turn(
            registry,
            [ModelToolCall(call_id="call-1", name="run_code",
                           arguments='{"code": "await tools.t()", "description": "Call t"}')],
            agent=AGENT, signal=AbortSignal(), log=log, turn=1,
        )
    messages = model_messages(log.events())
    assert [type(m) for m in messages] == [ModelToolCall, ModelToolResult]
    assert len(dispatches(log)) == 1
