"""Policy parity: every sub-call of a program goes through the whole pipeline (issue items 5, 6).

Each test is one leak class: something a direct call could not do must not be
possible from inside a ``run_code`` program either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode import (
    AbortSignal,
    Accept,
    Agent,
    Block,
    ContentBlock,
    Deny,
    DispatchExecution,
    ImageBlock,
    TextBlock,
    ToolExecution,
    ToolResult,
    ToolRunContext,
    tool,
)
from codemode._errors import INVALID_ARGS, QUOTA_EXCEEDED, TOOL_TIMEOUT
from codemode.code_mode import CodeRun, Quotas
from codemode.code_mode._quotas import QuotaCounter

from .test_code_mode_support import (
    AGENT,
    code_mode,
    failure_of,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
    run_code_call,
    turn_log,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable

    from sandbox import WorkerPool

#: A program that calls ``tools.<name>()`` and returns ``[code, message]`` of its failure.
CATCH = (
    "try:\n    return await tools.{call}\n"
    "except ToolCallError as e:\n    return [e.code, str(e)]"
)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


# -- visibility --------------------------------------------------------------------------------


async def test_a_tool_restricted_away_from_the_scope_is_not_callable_from_the_program(
    pool: WorkerPool,
) -> None:
    ran: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ran.append("secret")
        return None

    registry = registry_with(make_tool("secret", body=body), make_tool("open"))
    registry.restrict(AGENT, deny=["secret"])
    async with code_mode(registry, pool, check_calls=False):
        result = await run_code(
            registry,
            "try:\n    await tools['secret']()\nexcept Exception as e:\n"
            "    return type(e).__name__",
        )
    assert returned(result) == "KeyError"
    assert ran == []


async def test_a_tool_registered_for_another_agent_is_not_callable_from_the_program(
    pool: WorkerPool,
) -> None:
    registry = registry_with(make_tool("open"))
    registry.register(make_tool("theirs"), agent=Agent("other"))
    async with code_mode(registry, pool):
        result = await run_code(registry, "return await tools.theirs()")
    assert 'unknown tool "theirs"' in failure_of(result).message


async def test_a_scoped_registration_is_callable_from_that_scopes_programs(
    pool: WorkerPool,
) -> None:
    registry = registry_with(make_tool("open"))
    registry.register(make_tool("mine"), agent=AGENT)
    async with code_mode(registry, pool):
        result = await run_code(registry, "return await tools.mine(k=1)")
    assert returned(result) == {"k": 1}


async def test_a_tool_registered_during_a_run_is_not_bound_into_it(pool: WorkerPool) -> None:
    ran: list[str] = []

    async def late(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        return None

    async def register_late(args: Any, ctx: ToolRunContext) -> Any:
        registry.register(make_tool("late", body=late))
        return None

    registry = registry_with(make_tool("register_late", body=register_late))
    async with code_mode(registry, pool, check_calls=False):
        result = await run_code(
            registry,
            "await tools.register_late()\n"
            "try:\n    await tools['late']()\nexcept Exception as e:\n"
            "    return type(e).__name__",
        )
        # The next program sees it: the binding set is taken when a run starts.
        again = await run_code(registry, "return await tools.late()", call_id="call-2")
    assert returned(result) == "KeyError"
    assert returned(again) is None
    assert ran == ["call-2:code:1"]


# -- the pipeline stages --------------------------------------------------------------------------


async def test_a_guard_denies_a_sub_call_with_its_reason(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("rm"))
    registry.guard(lambda execution: "rm is guarded" if execution.name == "rm" else None)
    async with code_mode(registry, pool):
        result = await run_code(registry, CATCH.format(call="rm()"))
        # Neither a code nor an exception type: `.type` tells a denial from a tool that raised.
        kinds = await run_code(
            registry,
            "try:\n    await tools.rm()\nexcept ToolCallError as e:\n    return [e.code, e.type]",
            call_id="call-2",
        )
    assert returned(result) == [None, 'tool "rm" failed: rm is guarded']
    assert returned(kinds) == [None, None]


async def test_policy_sees_each_sub_call_with_the_agents_context(pool: WorkerPool) -> None:
    seen: list[tuple[str, Agent | None, bool]] = []

    async def pre(execution: ToolExecution, proceed: Callable[[], Awaitable[Any]]) -> Any:
        seen.append((execution.call_id, execution.agent, execution.parent is not None))
        return await proceed()

    registry = registry_with(make_tool("t"))
    registry.pre_execute(pre)
    async with code_mode(registry, pool):
        await run_code(registry, "await tools.t()")
    assert seen == [("call-1", AGENT, False), ("call-1:code:1", AGENT, True)]


class Approvals:
    """An approver that answers with a fixed outcome and records what it was asked."""

    def __init__(self, outcome: str) -> None:
        self.outcome = outcome
        self.asked: list[tuple[str, Agent | None, str | None]] = []

    async def __call__(self, execution: ToolExecution, reason: str | None) -> Any:
        self.asked.append((execution.call_id, execution.agent, reason))
        return self.outcome


async def ask_for(name: str, execution: ToolExecution, proceed: Any) -> Any:
    from codemode import Ask

    return Ask("needs a human") if execution.name == name else await proceed()


async def test_an_ask_on_a_sub_call_is_routed_to_the_approver_with_the_agent(
    pool: WorkerPool,
) -> None:
    approvals = Approvals("allowed-once")
    registry = registry_with(make_tool("pay"), approver=approvals)
    registry.pre_execute(lambda execution, proceed: ask_for("pay", execution, proceed))
    async with code_mode(registry, pool):
        result = await run_code(registry, "return await tools.pay(eur=5)")
    assert returned(result) == {"eur": 5}
    assert approvals.asked == [("call-1:code:1", AGENT, "needs a human")]


async def test_a_rejected_approval_reaches_the_program_as_a_rejection(pool: WorkerPool) -> None:
    approvals = Approvals("rejected")
    ran: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ran.append("pay")
        return None

    registry = registry_with(make_tool("pay", body=body), approver=approvals)
    registry.pre_execute(lambda execution, proceed: ask_for("pay", execution, proceed))
    async with code_mode(registry, pool):
        result = await run_code(registry, CATCH.format(call="pay()"))
    assert returned(result) == [None, 'tool "pay" failed: the user rejected tool "pay"']
    assert ran == []


async def test_a_sub_call_times_out_with_tool_timeout(pool: WorkerPool) -> None:
    async def hang(args: Any, ctx: ToolRunContext) -> Any:
        await ctx.signal.wait()
        return None

    registry = registry_with(make_tool("hang", body=hang, timeout=0.05))
    async with code_mode(registry, pool):
        result = await run_code(registry, CATCH.format(call="hang()"))
    assert returned(result) == [
        TOOL_TIMEOUT, 'tool "hang" failed (TOOL_TIMEOUT): tool call timed out after 0.05s'
    ]


async def test_a_post_execute_block_reaches_the_program_with_its_feedback(
    pool: WorkerPool,
) -> None:
    async def block(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        if execution.name == "leak":
            feedback: list[ContentBlock] = [
                TextBlock(text="output contained a secret: "),
                ImageBlock(data="aGk=", mime_type="image/png"),
            ]
            return Block(feedback)
        return await proceed()

    registry = registry_with(make_tool("leak"))
    registry.post_execute(block)
    async with code_mode(registry, pool):
        result = await run_code(registry, CATCH.format(call="leak(key='k')"))
    # A non-text block of the feedback reads as its type in the message.
    assert returned(result) == [
        None, 'tool "leak" failed: output contained a secret: [image content]'
    ]


async def test_a_post_execute_value_replacement_changes_what_the_program_receives(
    pool: WorkerPool,
) -> None:
    async def replace(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        await proceed()
        if execution.name == "v":
            return Accept(value={"replaced": True})
        if execution.name == "c":
            return Accept(content=[TextBlock(text="only the text changes")])
        return await proceed()

    registry = registry_with(make_tool("v"), make_tool("c"))
    registry.post_execute(replace)
    async with code_mode(registry, pool):
        result = await run_code(registry, "return [await tools.v(a=1), await tools.c(b=2)]")
    assert returned(result) == [{"replaced": True}, {"b": 2}]


async def test_invalid_arguments_reach_the_program_with_invalid_args(pool: WorkerPool) -> None:
    @tool
    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    registry = registry_with(add)
    async with code_mode(registry, pool, check_calls=False):
        result = await run_code(registry, CATCH.format(call="add(a='x', b=1)"))
    code, message = returned(result)
    assert code == INVALID_ARGS
    assert message.startswith('tool "add" failed (INVALID_ARGS): invalid arguments: ')


async def test_a_wrapper_cannot_detach_a_sub_call_from_the_runs_cancellation(
    pool: WorkerPool,
) -> None:
    started = anyio.Event()
    observed: list[AbortSignal] = []

    async def detach(dispatch: DispatchExecution, proceed: Callable[[], Awaitable[Any]]) -> Any:
        dispatch.signal = AbortSignal()  # an attempt to escape the caller's cancellation
        return await proceed()

    async def hang(args: Any, ctx: ToolRunContext) -> Any:
        observed.append(ctx.signal)
        started.set()
        await ctx.signal.wait()
        return None

    registry = registry_with(make_tool("hang", body=hang))
    registry.around(detach)
    signal = AbortSignal()
    results: list[ToolResult] = []
    with anyio.fail_after(30):
        async with code_mode(registry, pool), anyio.create_task_group() as tg:

            async def call() -> None:
                results.append(
                    await registry.execute(run_code_call("await tools.hang()", signal=signal))
                )

            tg.start_soon(call)
            await started.wait()
            signal.abort("stop")
    assert observed[0].aborted
    assert failure_of(results[0]).message.startswith("code run failed (abort)")


# -- pre-flight and quotas -----------------------------------------------------------------------


async def test_preflight_lists_every_problem_and_dispatches_nothing(pool: WorkerPool) -> None:
    log = turn_log()
    runs: list[CodeRun] = []
    ran: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ran.append("t")
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool, log=log, on_run=runs.append):
        result = await run_code(
            registry, "await tools.t()\nawait tools.nope()\nawait tools.t(1, 2)\nawait tools.gone()"
        )
    detail = failure_of(result)
    assert detail.info is not None
    assert detail.info.kind == "compile"
    assert detail.message.count("\nLine ") == 3
    assert 'unknown tool "nope"' in detail.message
    assert 'unknown tool "gone"' in detail.message
    assert ran == []
    assert len(log.events()) == 1  # only the turn's own tool/call: nothing was dispatched
    assert [run.error[0] if run.error else None for run in runs] == ["compile"]


async def test_preflight_of_a_long_program_runs_in_its_child_and_dispatches_nothing(
    pool: WorkerPool,
) -> None:
    ran: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ran.append("t")
        return None

    registry = registry_with(make_tool("t", body=body))
    padding = "# a long program is compiled and checked by the child that runs it\n" * 40
    async with code_mode(registry, pool):
        result = await run_code(registry, padding + "await tools.t()\nawait tools.nope()")
    detail = failure_of(result)
    assert detail.info is not None
    assert detail.info.kind == "compile"
    assert detail.message.endswith('Line 42: unknown tool "nope"; available tools: t')
    assert ran == []


async def test_the_total_quota_refuses_further_calls_with_quota_exceeded_and_no_number(
    pool: WorkerPool,
) -> None:
    seen: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        seen.append(ctx.call_id)
        return None

    registry = registry_with(make_tool("t", body=body))
    async with code_mode(registry, pool, quotas=Quotas(max_calls=2)):
        result = await run_code(
            registry,
            "codes = []\nfor _ in range(4):\n    try:\n        await tools.t()\n"
            "    except ToolCallError as e:\n        codes.append(e.code)\nreturn codes",
        )
    assert returned(result) == [QUOTA_EXCEEDED, QUOTA_EXCEEDED]
    assert seen == ["call-1:code:1", "call-1:code:2"]


async def test_a_per_tool_quota_limits_only_that_tool(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("send"), make_tool("read"))
    quotas = Quotas(per_tool={"send": 1}, default_per_tool=3)
    async with code_mode(registry, pool, quotas=quotas):
        result = await run_code(
            registry,
            "out = []\nfor name in ['send', 'send', 'read', 'read', 'read', 'read']:\n"
            "    try:\n        await tools[name]()\n        out.append('ok')\n"
            "    except ToolCallError as e:\n        out.append(e.code)\nreturn out",
        )
    assert returned(result) == ["ok", QUOTA_EXCEEDED, "ok", "ok", "ok", QUOTA_EXCEEDED]


def test_a_quota_refusal_says_what_to_write_instead() -> None:
    counter = QuotaCounter(Quotas(max_calls=3, per_tool={"send": 1, "mail": 2}))
    assert counter.admit("send") is None
    assert counter.admit("send") == (
        'quota exceeded: this run may call "send" at most 1 time; the call was not '
        'dispatched. Make at most 1 "send" call in one program, and return the rest '
        "as still to do."
    )
    assert counter.admit("mail") is None
    assert counter.admit("mail") is None
    assert counter.admit("mail") == (
        'quota exceeded: this run may make at most 3 tool calls; "mail" was not '
        "dispatched. Batch the work into fewer calls."
    )


@pytest.mark.parametrize(
    "options",
    [{"max_calls": -1}, {"default_per_tool": 1.5}, {"per_tool": {"t": -2}}, {"max_calls": True}],
)
def test_quotas_reject_a_limit_that_is_not_a_non_negative_int(options: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match="expected a non-negative int"):
        Quotas(**options)


def test_quotas_keep_a_private_copy_of_the_per_tool_limits() -> None:
    limits = {"t": 1}
    quotas = Quotas(per_tool=limits)
    limits["t"] = 100
    assert quotas.per_tool["t"] == 1


async def test_deny_in_pre_execute_leaves_later_sub_calls_numbered_consecutively(
    pool: WorkerPool,
) -> None:
    seen: list[str] = []

    async def pre(execution: ToolExecution, proceed: Any) -> Any:
        seen.append(execution.call_id)
        return Deny("no") if execution.name == "bad" else await proceed()

    registry = registry_with(make_tool("bad"), make_tool("good"))
    registry.pre_execute(pre)
    async with code_mode(registry, pool):
        await run_code(
            registry,
            "try:\n    await tools.bad()\nexcept ToolCallError:\n    pass\nawait tools.good()",
        )
    assert seen == ["call-1", "call-1:code:1", "call-1:code:2"]


async def test_a_restriction_added_mid_run_applies_to_the_next_sub_call(pool: WorkerPool) -> None:
    async def lock(args: Any, ctx: ToolRunContext) -> Any:
        registry.restrict(AGENT, deny=["open"])
        return None

    registry = registry_with(make_tool("lock", body=lock), make_tool("open"))
    async with code_mode(registry, pool):
        result = await run_code(
            registry, "await tools.lock()\n" + CATCH.format(call="open()")
        )
    assert returned(result) == [
        "UNKNOWN_TOOL", 'tool "open" failed (UNKNOWN_TOOL): unknown tool "open"'
    ]
