"""Around-dispatch wrappers, post-execute decisions, contexts and result observers."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import msgspec
import pytest

from bridge.lossless import FrozenDict
from codemode._execution import (
    Accept,
    Block,
    DispatchExecution,
    PostDecision,
    PreDecision,
    ToolExecution,
    ToolRunContext,
)
from codemode._pipeline import execute
from codemode._registry import Registry
from codemode._results import (
    ContentBlock,
    ContextMessage,
    ImageBlock,
    TextBlock,
    ToolFailure,
    ToolResult,
    ToolSuccess,
    failure,
)
from codemode._scope import Agent
from codemode.testing import RecordingListener
from tests.codemode.test_pipeline_support import (
    call,
    code_of,
    failed,
    make_tool,
    message_of,
    success,
    texts,
)

NextResult = Callable[[], Awaitable[ToolResult]]
NextPost = Callable[[], Awaitable[PostDecision]]


def context(text: str) -> ContextMessage:
    return ContextMessage(content=(TextBlock(text=text),))


def context_texts(result: ToolResult) -> list[str]:
    out: list[str] = []
    for message in result.additional_contexts:
        out.extend(b.text for b in message.content if isinstance(b, TextBlock))
    return out


def post(decision: PostDecision) -> Callable[[ToolExecution, ToolResult, NextPost], Any]:
    async def listener(execution: ToolExecution, result: ToolResult, next: NextPost) -> Any:
        return decision

    return listener


# --- ordering ------------------------------------------------------------------------------


async def test_the_waterfalls_compose_in_registration_order() -> None:
    order: list[str] = []
    registry = Registry()

    async def body(args: Any, ctx: ToolRunContext) -> object:
        order.append("body")
        return None

    registry.register(make_tool(body=body))
    for label in ("1", "2"):

        async def pre(execution: ToolExecution, next: Any, label: str = label) -> PreDecision:
            order.append(f"pre{label}>")
            decision: PreDecision = await next()
            order.append(f"<pre{label}")
            return decision

        async def around(
            dispatch: DispatchExecution, next: NextResult, label: str = label
        ) -> ToolResult:
            order.append(f"around{label}>")
            result = await next()
            order.append(f"<around{label}")
            return result

        async def post_listener(
            execution: ToolExecution, result: ToolResult, next: NextPost, label: str = label
        ) -> PostDecision:
            order.append(f"post{label}>")
            decision = await next()
            order.append(f"<post{label}")
            return decision

        registry.pre_execute(pre)
        registry.around(around)
        registry.post_execute(post_listener)
    registry.guard(lambda execution: order.append("guard"))
    registry.on_result(lambda execution, result: order.append("result"))
    await execute(registry, call())
    assert order == [
        "pre1>", "pre2>", "<pre2", "<pre1", "guard",
        "around1>", "around2>", "body", "<around2", "<around1",
        "post1>", "post2>", "<post2", "<post1", "result",
    ]  # fmt: skip


# --- around-dispatch -----------------------------------------------------------------------


async def test_a_wrapper_can_short_circuit_the_body() -> None:
    ran: list[object] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        ran.append(args)
        return None

    async def cached(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        return ToolSuccess(value={"cached": True}, content=(TextBlock(text="from cache"),))

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.around(cached)
    result = success(await execute(registry, call()))
    assert texts(result) == ["from cache"]
    assert result.value == {"cached": True}
    assert ran == []


async def test_a_cached_canonical_result_is_revalidated_against_the_output_schema() -> None:
    async def cached(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        return ToolSuccess(value="stale", content=(TextBlock(text="from cache"),))

    registry = Registry()
    registry.register(make_tool(schema={"type": "object"}))
    registry.around(cached)
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert message_of(result) == (
        'tool "echo" returned invalid output: Expected `object`, got `string` - at `$`'
    )


async def test_a_thrown_tool_is_normalised_before_a_wrapper_sees_it() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise RuntimeError("body broke")

    seen: list[ToolResult] = []

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        seen.append(await next())
        return seen[-1]

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.around(wrapper)
    await execute(registry, call())
    assert message_of(seen[0]) == "body broke"
    assert texts(seen[0]) == ["Error: body broke"]


async def test_a_throwing_wrapper_gives_an_error_result() -> None:
    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        raise RuntimeError("metrics backend down")

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    assert message_of(await execute(registry, call())) == "metrics backend down"


async def test_a_wrapper_returning_no_result_gives_an_error_result() -> None:
    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> Any:
        await next()
        return {"not": "a result"}

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    assert message_of(await execute(registry, call())) == (
        "an around listener returned {'not': 'a result'}; return a ToolResult or await next()"
    )


async def test_failure_metadata_and_contexts_authored_by_a_wrapper_are_normalised() -> None:
    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        authored: Any = [1, {"k": [2]}]
        return msgspec.structs.replace(
            failure("wrapped failure"), meta=authored, additional_contexts=(context("w"),)
        )

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    result = failed(await execute(registry, call()))
    meta: Any = result.meta
    assert meta == (1, {"k": (2,)})
    assert type(meta[1]) is FrozenDict
    assert context_texts(result) == ["w"]


async def test_a_wrapper_may_not_remove_the_signal() -> None:
    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        dispatch.signal = None  # type: ignore[assignment]
        return await next()

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    assert message_of(await execute(registry, call())).startswith(
        "a wrapper may replace the signal but not remove it; got signal=None"
    )


async def test_a_wrapper_sees_the_calls_identity_read_only() -> None:
    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        dispatch.name = "other"  # type: ignore[misc]
        return await next()

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    assert "has no setter" in message_of(await execute(registry, call()))


async def test_a_scoped_wrapper_wraps_only_its_agents_calls() -> None:
    mine = Agent("mine")
    wrapped: list[Agent | None] = []

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        wrapped.append(dispatch.agent)
        return await next()

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper, mine)
    await execute(registry, call(agent=mine))
    await execute(registry, call(agent=Agent("other")))
    assert wrapped == [mine]


# --- post-execute --------------------------------------------------------------------------


async def test_post_execute_can_accept_new_content_and_keep_the_value() -> None:
    registry = Registry()
    registry.register(make_tool(presentation_meta=lambda args, value: "meta"))
    registry.post_execute(post(Accept([TextBlock(text="redacted")])))
    result = success(await execute(registry, call(arguments={"secret": 1})))
    assert texts(result) == ["redacted"]
    assert result.value == {"secret": 1}
    assert result.meta == "meta"


async def test_post_execute_can_replace_the_value_which_is_re_rendered() -> None:
    registry = Registry()
    registry.register(make_tool(presentation_meta=lambda args, value: {"meta_of": value}))
    registry.post_execute(post(Accept(value={"replaced": True})))
    result = success(await execute(registry, call(arguments={"a": 1})))
    assert result.value == {"replaced": True}
    assert texts(result) == ["value={'replaced': True}"]
    assert result.meta == {"meta_of": {"replaced": True}}


async def test_a_replaced_value_is_revalidated() -> None:
    registry = Registry()
    registry.register(make_tool(schema={"type": "object"}))
    registry.post_execute(post(Accept(value=42)))
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert message_of(result) == (
        'tool "echo" returned invalid output: Expected `object`, got `integer` - at `$`'
    )


async def test_a_value_replacement_on_a_failed_result_gives_an_error_result() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise RuntimeError("failed first")

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.post_execute(post(Accept(value={"fixed": True})))
    assert message_of(await execute(registry, call())) == (
        "a post_execute listener replaced the value of a failed call to 'echo'; "
        "a failed result has no value (use Block or new content)"
    )


def test_an_accept_may_not_replace_both_content_and_value() -> None:
    with pytest.raises(
        TypeError,
        match=r"^Accept replaces the content or the value, never both; "
        r"give only content=\.\.\. or only value=\.\.\.$",
    ):
        Accept([TextBlock(text="x")], value=1)


async def test_an_accept_of_both_inside_a_listener_gives_an_error_result() -> None:
    async def listener(execution: ToolExecution, result: ToolResult, next: NextPost) -> Any:
        return Accept([TextBlock(text="x")], value=1)

    registry = Registry()
    registry.register(make_tool())
    registry.post_execute(listener)
    assert message_of(await execute(registry, call())).startswith(
        "Accept replaces the content or the value, never both"
    )


async def test_a_block_gives_a_failure_carrying_the_feedback_and_no_value() -> None:
    registry = Registry()
    registry.register(make_tool())
    feedback: list[ContentBlock] = [
        TextBlock(text="Do not echo secrets. "),
        ImageBlock(data="AAAA", mime_type="image/png"),
    ]
    registry.post_execute(post(Block(feedback)))
    result = failed(await execute(registry, call()))
    assert result.error.message == "Do not echo secrets. [image content]"
    assert result.error.info is None
    assert result.content == tuple(feedback)
    assert not hasattr(result, "value")


async def test_a_throwing_post_execute_listener_gives_an_error_result() -> None:
    async def listener(execution: ToolExecution, result: ToolResult, next: NextPost) -> Any:
        raise LookupError("post policy broke")

    registry = Registry()
    registry.register(make_tool())
    registry.post_execute(listener)
    assert message_of(await execute(registry, call())) == "post policy broke"


async def test_post_execute_sees_a_thrown_tool_as_an_error_result() -> None:
    seen: list[ToolResult] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise RuntimeError("tool broke")

    async def listener(execution: ToolExecution, result: ToolResult, next: NextPost) -> Any:
        seen.append(result)
        return await next()

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.post_execute(listener)
    await execute(registry, call())
    assert message_of(seen[0]) == "tool broke"


async def test_a_post_execute_listener_returning_no_decision_gives_an_error_result() -> None:
    async def listener(execution: ToolExecution, result: ToolResult, next: NextPost) -> Any:
        return None

    registry = Registry()
    registry.register(make_tool())
    registry.post_execute(listener)
    assert message_of(await execute(registry, call())) == (
        "a post_execute listener returned None; return Accept(...), Block(feedback) or await next()"
    )


# --- contexts ------------------------------------------------------------------------------


async def test_contexts_keep_their_order_tool_then_wrapper_then_post_execute() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.defer_context(context("tool-1"))
        ctx.defer_context(context("tool-2"))
        return None

    async def wrapper(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        result = await next()
        return msgspec.structs.replace(
            result, additional_contexts=(*result.additional_contexts, context("wrapper"))
        )

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.around(wrapper)
    registry.post_execute(post(Accept(additional_contexts=[context("post")])))
    result = await execute(registry, call())
    assert context_texts(result) == ["tool-1", "tool-2", "wrapper", "post"]


async def test_a_throwing_composite_keeps_its_deferred_contexts() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.defer_context(context("from a nested call"))
        raise RuntimeError("composite failed later")

    registry = Registry()
    registry.register(make_tool(body=body))
    result = failed(await execute(registry, call()))
    assert context_texts(result) == ["from a nested call"]


async def test_a_blocked_call_drops_the_contexts_and_keeps_only_its_own() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.defer_context(context("from the tool"))
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.post_execute(
        post(Block([TextBlock(text="blocked")], additional_contexts=[context("from the block")]))
    )
    result = failed(await execute(registry, call()))
    assert context_texts(result) == ["from the block"]


async def test_defer_context_refuses_something_that_is_not_a_context_message() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.defer_context("plain text")  # type: ignore[arg-type]
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    assert message_of(await execute(registry, call())) == (
        "defer_context takes a ContextMessage, got message='plain text'"
    )


# --- result observers ----------------------------------------------------------------------


async def test_result_observers_receive_the_frozen_result_that_is_returned() -> None:
    observed: list[tuple[ToolExecution, ToolResult]] = []
    registry = Registry()
    registry.register(make_tool())
    registry.on_result(lambda execution, result: observed.append((execution, result)))
    result = await execute(registry, call(arguments={"a": [1]}))
    assert len(observed) == 1
    assert observed[0][1] is result
    assert type(success(result).value) is FrozenDict
    with pytest.raises(AttributeError):
        result.content = ()  # type: ignore[misc]
    with pytest.raises(AttributeError):
        observed[0][0].name = "changed"  # type: ignore[misc]


async def test_an_async_result_observer_is_awaited() -> None:
    observed: list[str] = []

    async def observer(execution: ToolExecution, result: ToolResult) -> None:
        observed.append(execution.call_id)

    registry = Registry()
    registry.register(make_tool())
    registry.on_result(observer)
    await execute(registry, call(call_id="c-9"))
    assert observed == ["c-9"]


async def test_a_throwing_result_observer_is_contained_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    observed: list[ToolResult] = []

    def broken(execution: ToolExecution, result: ToolResult) -> None:
        raise RuntimeError("observer bug")

    registry = Registry()
    registry.register(make_tool())
    registry.on_result(broken)
    registry.on_result(lambda execution, result: observed.append(result))
    with caplog.at_level(logging.ERROR, logger="codemode"):
        result = await execute(registry, call())
    assert success(result)
    assert observed == [result]
    assert "a result observer raised for tool 'echo'" in caplog.text


async def test_a_scoped_result_observer_sees_only_its_agents_results() -> None:
    mine = Agent("mine")
    seen: list[Agent | None] = []
    registry = Registry()
    registry.register(make_tool())
    registry.on_result(lambda execution, result: seen.append(execution.agent), mine)
    await execute(registry, call(agent=mine))
    await execute(registry, call(agent=Agent("other")))
    await execute(registry, call())
    assert seen == [mine]


async def test_the_recording_listener_records_the_outcome_each_stage_saw() -> None:
    registry = Registry()
    registry.register(make_tool())
    recorder = RecordingListener()
    dispose = recorder.install(registry)
    result = await execute(registry, call())
    dispose()
    around, posted = recorder.of("around")[0], recorder.of("post_execute")[0]
    final = recorder.of("result")[0]
    assert isinstance(around.result, ToolSuccess)
    assert posted.decision == Accept()
    assert final.result is result
    recorder.clear()
    await execute(registry, call())
    assert recorder.calls == []


async def test_failures_never_carry_a_value() -> None:
    registry = Registry()
    result = await execute(registry, call("missing"))
    assert isinstance(result, ToolFailure)
    assert result.is_error is True


async def test_a_retry_wrapper_may_call_next_again_and_the_body_runs_again() -> None:
    attempts: list[int] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        attempts.append(len(attempts) + 1)
        if len(attempts) == 1:
            raise ConnectionError("flaky")
        return {"attempt": len(attempts)}

    async def retry(dispatch: DispatchExecution, next: NextResult) -> ToolResult:
        result = await next()
        return await next() if result.is_error else result

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.around(retry)
    assert success(await execute(registry, call())).value == {"attempt": 2}
    assert attempts == [1, 2]


class _OddBase(BaseException):
    pass


@pytest.mark.parametrize(
    ("raised", "message", "type_name"),
    [
        (SystemExit(3), "3", "SystemExit"),
        (KeyboardInterrupt(), "KeyboardInterrupt", "KeyboardInterrupt"),
        (_OddBase("odd"), "odd", "_OddBase"),
        (BaseExceptionGroup("two", [SystemExit(1), KeyboardInterrupt()]), None,
         "BaseExceptionGroup"),
    ],
)
async def test_a_body_raising_a_base_exception_is_that_call_s_failure(
    raised: BaseException, message: str | None, type_name: str
) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        raise raised

    registry = Registry()
    registry.register(make_tool(body=body))
    result = await execute(registry, call())
    assert isinstance(result, ToolFailure)
    assert result.error.exception_type == type_name
    if message is not None:
        assert result.error.message == message


async def test_a_cancelled_error_no_one_delivered_to_the_call_is_the_body_s_failure() -> None:
    # Told by the task's state, not the exception's type: the caller was not
    # cancelled, so the body's CancelledError is its own failure.
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        raise anyio.get_cancelled_exc_class()()

    registry = Registry()
    registry.register(make_tool(body=body))
    result = await execute(registry, call())
    assert isinstance(result, ToolFailure)
    assert result.error.exception_type == "CancelledError"


async def test_a_real_cancellation_of_the_caller_still_propagates_through_the_body() -> None:
    started = anyio.Event()

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        started.set()
        await anyio.sleep_forever()

    registry = Registry()
    registry.register(make_tool(body=body))
    outcomes: list[object] = []

    async def caller() -> None:
        outcomes.append(await execute(registry, call()))

    async with anyio.create_task_group() as tg:
        tg.start_soon(caller)
        await started.wait()
        tg.cancel_scope.cancel()
    assert outcomes == []  # cancelled, not turned into a result
