"""The cancellation matrix, the timeout wrapper, caller misuse and the phased form."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest

from codemode._execution import (
    Accept,
    CallInput,
    Deny,
    DispatchExecution,
    ExecutionToken,
    PostDecision,
    PreDecision,
    ToolExecution,
    ToolRunContext,
)
from codemode._pipeline import begin, execute
from codemode._registry import Registry
from codemode._results import ContextMessage, TextBlock, ToolResult, ToolSuccess
from codemode._signal import AbortSignal
from codemode.testing import RecordingListener
from tests.codemode.test_pipeline_support import (
    call,
    code_of,
    failed,
    make_tool,
    message_of,
    success,
)

NextResult = Callable[[], Awaitable[ToolResult]]


def gated_registry(**tool: Any) -> tuple[Registry, anyio.Event, anyio.Event, list[ToolRunContext]]:
    """A registry whose ``echo`` body signals ``entered`` and then waits for ``release``.

    The body ignores its signal on purpose.
    """
    entered, release = anyio.Event(), anyio.Event()
    contexts: list[ToolRunContext] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        contexts.append(ctx)
        entered.set()
        await release.wait()
        return "late"

    registry = Registry()
    registry.register(make_tool(body=body, **tool))
    return registry, entered, release, contexts


# --- before dispatch -----------------------------------------------------------------------


async def test_a_pre_aborted_call_gives_aborted_before_dispatch_and_runs_no_policy() -> None:
    registry, entered, _release, _contexts = gated_registry()
    recorder = RecordingListener()
    recorder.install(registry)
    result = await execute(registry, call(signal=AbortSignal.aborted_with("stop")))
    assert code_of(result) == "ABORTED_BEFORE_DISPATCH"
    assert message_of(result) == "tool call aborted before dispatch"
    assert failed(result).error.info is not None
    assert failed(result).error.info.name == "AbortError"  # type: ignore[union-attr]
    assert not entered.is_set()
    assert recorder.kinds() == ["result"]


async def test_a_pre_aborted_call_publishes_exactly_one_result() -> None:
    registry = Registry()
    registry.register(make_tool())
    published: list[ToolResult] = []
    registry.on_result(lambda execution, result: published.append(result))
    result = await execute(registry, call(signal=AbortSignal.aborted_with("stop")))
    assert published == [result]


async def test_cancellation_during_pre_execute_skips_dispatch() -> None:
    registry, entered, _release, _contexts = gated_registry()
    signal = AbortSignal()

    async def pre(execution: ToolExecution, next: Any) -> PreDecision:
        signal.abort("cancelled while deciding")
        decision: PreDecision = await next()
        return decision

    registry.pre_execute(pre)
    result = await execute(registry, call(signal=signal))
    assert code_of(result) == "ABORTED_BEFORE_DISPATCH"
    assert not entered.is_set()


async def test_a_late_denial_is_preserved() -> None:
    registry, _entered, _release, _contexts = gated_registry()
    signal = AbortSignal()

    async def pre(execution: ToolExecution, next: Any) -> PreDecision:
        signal.abort("cancelled while deciding")
        return Deny("denied anyway")

    registry.pre_execute(pre)
    assert message_of(await execute(registry, call(signal=signal))) == "denied anyway"


async def test_a_wrapper_that_aborts_the_caller_before_next_skips_the_body() -> None:
    registry, entered, _release, _contexts = gated_registry()
    signal = AbortSignal()

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        signal.abort("cancelled inside a wrapper")
        return await next()

    registry.around(wrapper)
    result = await execute(registry, call(signal=signal))
    assert code_of(result) == "ABORTED_BEFORE_DISPATCH"
    assert not entered.is_set()


async def test_an_already_aborted_wrapper_signal_skips_dispatch() -> None:
    registry, entered, _release, _contexts = gated_registry()

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        dispatch.signal = AbortSignal.aborted_with("wrapper gave up")
        return await next()

    registry.around(wrapper)
    caller = AbortSignal()
    result = await execute(registry, call(signal=caller))
    assert code_of(result) == "ABORTED_BEFORE_DISPATCH"
    assert not entered.is_set()
    assert not caller.aborted


# --- after dispatch ------------------------------------------------------------------------


async def test_a_late_success_is_replaced_with_aborted() -> None:
    registry, entered, release, _contexts = gated_registry()
    signal = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(signal=signal)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            signal.abort("user left")
            release.set()
    assert code_of(results[0]) == "ABORTED"
    assert message_of(results[0]) == "tool call aborted"


async def test_a_success_made_without_the_body_then_cancelled_is_aborted_before_dispatch() -> None:
    # A wrapper answers from a cache while the caller cancels: the body never
    # ran, so the success becomes ABORTED_BEFORE_DISPATCH, not ABORTED.
    registry, entered, _release, _contexts = gated_registry()
    signal = AbortSignal()

    async def cached(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        signal.abort("user left")
        return ToolSuccess(value="cached", content=(TextBlock(text="cached"),))

    registry.around(cached)
    result = await execute(registry, call(signal=signal))
    assert code_of(result) == "ABORTED_BEFORE_DISPATCH"
    assert message_of(result) == "tool call aborted before dispatch"
    assert not entered.is_set()


async def test_the_pipeline_waits_for_a_body_that_ignores_the_signal() -> None:
    registry, entered, release, _contexts = gated_registry()
    signal = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(signal=signal)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            signal.abort("user left")
            await anyio.wait_all_tasks_blocked()
            assert results == []
            release.set()
    assert code_of(results[0]) == "ABORTED"


async def test_a_late_failure_from_the_tool_is_kept() -> None:
    entered = anyio.Event()

    async def body(args: Any, ctx: ToolRunContext) -> object:
        entered.set()
        await ctx.signal.wait()
        raise RuntimeError(f"stopped: {ctx.signal.reason}")

    registry = Registry()
    registry.register(make_tool(body=body))
    signal = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(signal=signal)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            signal.abort("user left")
    assert message_of(results[0]) == "stopped: user left"
    assert code_of(results[0]) is None


async def test_a_body_can_turn_the_signal_into_anyio_cancellation() -> None:
    entered = anyio.Event()

    async def body(args: Any, ctx: ToolRunContext) -> object:
        with ctx.signal.cancel_scope():
            entered.set()
            await anyio.Event().wait()
        return "stopped early"

    registry = Registry()
    registry.register(make_tool(body=body))
    signal = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(signal=signal)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            signal.abort("user left")
    assert code_of(results[0]) == "ABORTED"


async def test_a_late_post_execute_success_is_replaced_with_aborted() -> None:
    registry = Registry()
    registry.register(make_tool())
    signal = AbortSignal()

    async def listener(execution: ToolExecution, result: ToolResult, next: Any) -> PostDecision:
        signal.abort("cancelled during post-execute")
        return Accept([TextBlock(text="accepted late")])

    registry.post_execute(listener)
    result = await execute(registry, call(signal=signal))
    assert code_of(result) == "ABORTED"


async def test_an_aborted_result_keeps_the_contexts_the_tool_deferred() -> None:
    signal = AbortSignal()

    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.defer_context(ContextMessage(content=(TextBlock(text="kept"),)))
        signal.abort("late")
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    result = await execute(registry, call(signal=signal))
    assert code_of(result) == "ABORTED"
    assert [m.content for m in result.additional_contexts] == [(TextBlock(text="kept"),)]


async def test_the_caller_signal_is_fused_into_a_wrapper_replacement_and_restored() -> None:
    replacement = AbortSignal()
    after_next: list[AbortSignal] = []
    registry, entered, release, contexts = gated_registry()

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        dispatch.signal = replacement
        result = await next()
        after_next.append(dispatch.signal)
        return result

    async def inner(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        dispatch.signal = AbortSignal()  # not restored by this wrapper on purpose
        return await next()

    registry.around(wrapper)
    registry.around(inner)
    caller = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(signal=caller)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            body_signal = contexts[0].signal
            assert body_signal is not caller
            assert body_signal.reason is None
            caller.abort("caller stops")
            assert contexts[0].signal.reason == "caller stops"
            release.set()
    assert after_next == [replacement]
    assert not replacement.aborted
    assert code_of(results[0]) == "ABORTED"


async def test_the_body_sees_an_abort_of_a_wrapper_replacement() -> None:
    replacement = AbortSignal()
    registry, entered, release, contexts = gated_registry()

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        dispatch.signal = replacement
        return await next()

    registry.around(wrapper)
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call()))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            replacement.abort("retry budget exhausted")
            assert contexts[0].signal.reason == "retry budget exhausted"
            release.set()
    # Only the caller's cancellation rewrites a success; the wrapper owns its own.
    assert success(results[0]).value == "late"


# --- timeouts ------------------------------------------------------------------------------


async def test_a_tool_timeout_gives_tool_timeout_after_the_body_settles() -> None:
    settled: list[str | None] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        await ctx.signal.wait()
        settled.append(ctx.signal.reason)
        return "too late"

    registry = Registry()
    registry.register(make_tool(body=body, timeout=0.01))
    with anyio.fail_after(5):
        result = await execute(registry, call())
    assert code_of(result) == "TOOL_TIMEOUT"
    assert message_of(result) == "tool call timed out after 0.01s"
    assert settled == ["tool call timed out after 0.01s"]


async def test_a_tool_timeout_applies_to_nested_calls_too() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        await ctx.signal.wait()
        return None

    registry = Registry(mode="code")
    registry.register(make_tool(body=body, timeout=0.01))
    with anyio.fail_after(5):
        result = await execute(registry, call(parent=ExecutionToken(), root_call_id="outer"))
    assert code_of(result) == "TOOL_TIMEOUT"


async def test_a_timed_out_call_keeps_the_contexts_the_body_deferred() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.defer_context(ContextMessage(content=(TextBlock(text="partial"),)))
        await ctx.signal.wait()
        raise RuntimeError("gave up")

    registry = Registry()
    registry.register(make_tool(body=body, timeout=0.01))
    with anyio.fail_after(5):
        result = await execute(registry, call())
    assert code_of(result) == "TOOL_TIMEOUT"
    assert [m.content for m in result.additional_contexts] == [(TextBlock(text="partial"),)]


async def test_a_call_that_finishes_in_time_is_not_affected_by_its_timeout() -> None:
    registry = Registry()
    registry.register(make_tool(timeout=60))
    assert success(await execute(registry, call()))


async def test_a_caller_abort_before_the_deadline_is_reported_as_aborted() -> None:
    registry, entered, release, _contexts = gated_registry(timeout=60)
    signal = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(signal=signal)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await entered.wait()
            signal.abort("user left")
            release.set()
    assert code_of(results[0]) == "ABORTED"


async def test_the_timeout_wrapper_can_be_left_out() -> None:
    from codemode._hooks import Hooks

    assert len(Hooks()) == 1
    assert len(Hooks(timeouts=False)) == 0


# --- caller misuse -------------------------------------------------------------------------


def test_a_call_without_a_signal_is_refused() -> None:
    with pytest.raises(
        TypeError,
        match=r"^every call needs the caller's AbortSignal; got signal=None for call_id='c1'$",
    ):
        CallInput("c1", "echo", {}, None)  # type: ignore[arg-type]


def test_a_call_with_a_foreign_parent_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^parent must be the enclosing execution's token"):
        CallInput("c1", "echo", {}, AbortSignal(), parent="call-0")  # type: ignore[arg-type]


def test_a_call_with_an_agent_that_is_not_an_agent_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^agent must be an Agent or None, got agent='me'$"):
        CallInput("c1", "echo", {}, AbortSignal(), agent="me")  # type: ignore[arg-type]


def test_a_call_with_an_empty_id_is_refused() -> None:
    with pytest.raises(ValueError, match=r"^call_id must not be empty, got call_id=''$"):
        CallInput("", "echo", {}, AbortSignal())


async def test_execute_refuses_something_that_is_not_a_call_input() -> None:
    with pytest.raises(TypeError, match=r"^execute\(\) takes a CallInput, got call="):
        await execute(Registry(), {"name": "echo"})  # type: ignore[arg-type]


# --- the phased form -----------------------------------------------------------------------


async def test_the_phased_form_gives_the_same_result_as_execute() -> None:
    registry = Registry()
    registry.register(make_tool())
    prepared = begin(registry, call(arguments={"a": 1}))
    assert (prepared.execution, prepared.dispatchable) == (None, False)
    await prepared.start()
    execution = prepared.execution
    assert execution is not None
    assert execution.token is prepared.token
    assert prepared.dispatchable
    await prepared.run()
    result = await prepared.commit()
    assert success(result).value == {"a": 1}


async def test_a_call_settled_at_start_is_not_dispatchable() -> None:
    registry = Registry()
    registry.register(make_tool())
    registry.pre_execute(lambda execution, next: _deny())
    prepared = begin(registry, call())
    await prepared.start()
    assert not prepared.dispatchable
    await prepared.run()
    assert message_of(await prepared.commit()) == "no"


async def _deny() -> PreDecision:
    return Deny("no")


async def test_the_steps_must_run_in_order() -> None:
    prepared = begin(Registry(), call())
    with pytest.raises(
        RuntimeError,
        match=r"^run\(\) called out of order for call_id='call-1'; "
        r"await start\(\), run\(\), commit\(\) once each, in that order$",
    ):
        await prepared.run()
    await prepared.start()
    with pytest.raises(RuntimeError, match=r"^start\(\) called out of order"):
        await prepared.start()


async def test_run_steps_of_several_calls_may_overlap_between_ordered_starts_and_commits() -> None:
    both_inside = anyio.Event()
    inside = 0

    async def body(args: Any, ctx: ToolRunContext) -> object:
        nonlocal inside
        inside += 1
        if inside == 2:
            both_inside.set()
        await both_inside.wait()
        return args

    registry = Registry()
    registry.register(make_tool(body=body))
    prepared = [begin(registry, call(arguments={"n": n}, call_id=f"c{n}")) for n in (1, 2)]
    for step in prepared:
        await step.start()
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            for step in prepared:
                tg.start_soon(step.run)
    results = [await step.commit() for step in prepared]
    assert [success(r).value for r in results] == [{"n": 1}, {"n": 2}]
