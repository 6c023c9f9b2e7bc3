"""The pipeline's results: the output contract, normalisation, finalize_content, errors."""

from __future__ import annotations

from typing import Any

import anyio
import msgspec
import pytest
from hypothesis import given

from bridge.lossless import FrozenDict, JsonValue
from codemode._errors import ToolError, ToolNotFoundError
from codemode._execution import ExecutionToken, ToolExecution, ToolRunContext
from codemode._json import freeze, thaw
from codemode._pipeline import execute
from codemode._registry import Registry
from codemode._results import (
    ContextMessage,
    ErrorInfo,
    ImageBlock,
    TextBlock,
    ToolResult,
    ToolSuccess,
    failure_from_exception,
)
from codemode._scope import Agent
from codemode._tools import tool
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
from tests.strategies import json_values

# --- results and the output contract -----------------------------------------------------------


async def test_a_call_returns_its_rendered_content() -> None:
    registry = Registry()
    registry.register(make_tool())
    result = success(await execute(registry, call(arguments={"q": 1})))
    assert texts(result) == ["value={'q': 1}"]


async def test_the_value_is_a_frozen_snapshot_of_what_the_body_returned() -> None:
    returned: dict[str, Any] = {"items": [1, 2]}

    async def body(args: Any, ctx: ToolRunContext) -> object:
        return returned

    registry = Registry()
    registry.register(make_tool(body=body))
    result = success(await execute(registry, call()))
    returned["items"].append(3)
    assert result.value == {"items": (1, 2)}  # type: ignore[comparison-overlap]
    assert type(result.value) is FrozenDict


async def test_meta_is_projected_from_the_value_for_a_top_level_call() -> None:
    registry = Registry()
    registry.register(make_tool(presentation_meta=lambda args, value: {"seen": value}))
    result = success(await execute(registry, call(arguments={"a": 1})))
    assert result.meta == {"seen": {"a": 1}}


async def test_meta_is_absent_when_the_tool_has_no_projector() -> None:
    registry = Registry()
    registry.register(make_tool())
    result = success(await execute(registry, call()))
    assert result.meta is msgspec.UNSET


async def test_meta_is_suppressed_for_a_nested_call() -> None:
    projected: list[object] = []

    def projector(args: Any, value: Any) -> object:
        projected.append(value)
        return {"x": 1}

    registry = Registry()
    registry.register(make_tool(presentation_meta=projector))
    result = success(await execute(registry, call(parent=ExecutionToken())))
    assert result.meta is msgspec.UNSET
    assert projected == []


async def test_a_lossy_value_gives_invalid_tool_output_naming_the_path() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        return {"price": float("nan")}

    registry = Registry()
    registry.register(make_tool(body=body))
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert message_of(result) == (
        'tool "echo" returned invalid output: '
        "nan is not a JSON number; send null or a string instead - at `$.price`"
    )
    assert texts(result) == [f"Error: {message_of(result)}"]


async def test_a_value_that_violates_the_output_schema_gives_invalid_tool_output() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        return {"limit": "ten"}

    registry = Registry()
    schema: dict[str, Any] = {"type": "object", "properties": {"limit": {"type": "integer"}}}
    registry.register(make_tool(body=body, schema=schema))
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert message_of(result).startswith('tool "echo" returned invalid output: ')
    assert "$.limit" in message_of(result)


async def test_a_throwing_render_is_contained_to_one_failed_call() -> None:
    def render(args: Any, value: Any) -> list[TextBlock]:
        raise ValueError("cannot draw this")

    registry = Registry()
    registry.register(make_tool(render=render))
    registry.register(make_tool("other"))
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert message_of(result) == 'tool "echo" returned invalid output: ValueError: cannot draw this'
    assert success(await execute(registry, call("other")))


async def test_a_render_that_returns_no_content_blocks_gives_invalid_tool_output() -> None:
    registry = Registry()
    registry.register(make_tool(render=lambda args, value: "plain text"))  # type: ignore[arg-type,return-value]
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert "render must return a sequence of content blocks" in message_of(result)


async def test_a_throwing_presentation_meta_gives_invalid_tool_output() -> None:
    def projector(args: Any, value: Any) -> object:
        raise RuntimeError("no meta")

    registry = Registry()
    registry.register(make_tool(presentation_meta=projector))
    result = await execute(registry, call())
    assert message_of(result) == 'tool "echo" returned invalid output: RuntimeError: no meta'


async def test_a_lossy_presentation_meta_gives_invalid_tool_output() -> None:
    registry = Registry()
    registry.register(make_tool(presentation_meta=lambda args, value: {"when": {1, 2}}))
    result = await execute(registry, call())
    assert code_of(result) == "INVALID_TOOL_OUTPUT"
    assert "a set (use a sorted list) is not JSON - at `$.when`" in message_of(result)


async def test_a_conclusion_marked_by_the_body_is_carried_on_the_result() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.conclude_turn()
        return "done"

    registry = Registry()
    registry.register(make_tool(body=body))
    assert success(await execute(registry, call())).concludes_turn is True


async def test_a_conclusion_has_no_effect_when_the_body_then_fails() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        ctx.conclude_turn()
        raise RuntimeError("broke after concluding")

    registry = Registry()
    registry.register(make_tool(body=body))
    assert message_of(await execute(registry, call())) == "broke after concluding"


async def test_a_context_deferred_after_the_call_settled_is_refused() -> None:
    contexts: list[ToolRunContext] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        contexts.append(ctx)
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    await execute(registry, call())
    with pytest.raises(RuntimeError, match=r"^defer_context\(\) was called after tool 'echo'"):
        contexts[0].defer_context(ContextMessage(content=(TextBlock(text="late"),)))


# --- arguments -----------------------------------------------------------------------------


async def test_a_lossy_argument_dispatches_nothing_and_publishes_nothing() -> None:
    ran: list[object] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        ran.append(args)
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    recorder = RecordingListener()
    recorder.install(registry)
    result = await execute(registry, call(arguments={"when": float("inf")}))
    # No code, as the reference has it: INVALID_ARGS is a schema's verdict on
    # JSON arguments; arguments that are not JSON are refused before any schema.
    assert code_of(result) is None
    assert message_of(result) == (
        "tool arguments must be lossless JSON: "
        "inf is not a JSON number; send null or a string instead - at `$.when`"
    )
    assert ran == []
    assert recorder.calls == []


async def test_changing_the_callers_arguments_after_the_start_changes_nothing() -> None:
    arguments: dict[str, Any] = {"items": [1]}
    seen: list[object] = []

    async def pre(execution: ToolExecution, next: Any) -> Any:
        arguments["items"].append("added by the caller")
        return await next()

    async def body(args: Any, ctx: ToolRunContext) -> object:
        seen.append(args)
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    registry.pre_execute(pre)
    await execute(registry, call(arguments=arguments))
    assert seen == [{"items": (1,)}]


async def test_every_stage_sees_one_token_and_one_argument_snapshot() -> None:
    bodies: list[ToolRunContext] = []
    body_args: list[object] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        bodies.append(ctx)
        body_args.append(args)
        return None

    registry = Registry()
    registry.register(make_tool(body=body))
    recorder = RecordingListener()
    recorder.install(registry)
    await execute(registry, call(arguments={"a": [1]}))
    executions = [c.execution for c in recorder.calls]
    assert recorder.kinds() == ["pre_execute", "guard", "around", "post_execute", "result"]
    assert all(e is executions[0] for e in executions)
    assert bodies[0].token is executions[0].token
    assert all(body_args[0] is e.arguments for e in executions)
    assert bodies[0].arguments is body_args[0]


async def test_the_root_call_id_resolves_to_the_calls_own_id_for_a_root_call() -> None:
    registry = Registry()
    registry.register(make_tool())
    recorder = RecordingListener()
    recorder.install(registry)
    await execute(registry, call(call_id="root-7"))
    await execute(
        registry, call(call_id="root-7:code:1", root_call_id="root-7", parent=ExecutionToken())
    )
    assert [c.execution.root_call_id for c in recorder.of("result")] == ["root-7", "root-7"]


async def test_invalid_arguments_to_a_typed_tool_give_invalid_args() -> None:
    @tool
    async def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    registry = Registry()
    registry.register(add)
    result = await execute(registry, call("add", {"a": 1}))
    assert code_of(result) == "INVALID_ARGS"
    assert message_of(result).startswith("invalid arguments: ")
    assert '"b"' in message_of(result)
    assert success(await execute(registry, call("add", {"a": 1, "b": 2}))).value == 3


# --- unknown tools and thrown values -------------------------------------------------------


async def test_an_unknown_tool_gives_unknown_tool() -> None:
    result = await execute(Registry(), call("nowhere"))
    assert code_of(result) == "UNKNOWN_TOOL"
    assert message_of(result) == 'unknown tool "nowhere"'
    assert failed(result).error.info == ErrorInfo(name="ToolNotFoundError", code="UNKNOWN_TOOL")


def test_tool_not_found_error_has_a_fixed_message_and_code() -> None:
    error = ToolNotFoundError("x")
    assert str(error) == 'unknown tool "x"'
    assert error.code == "UNKNOWN_TOOL"


async def test_a_throwing_tool_gives_an_error_result_with_its_message() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise KeyError("missing")

    registry = Registry()
    registry.register(make_tool(body=body))
    result = await execute(registry, call())
    assert message_of(result) == "'missing'"
    assert failed(result).error.info is None
    assert texts(result) == ["Error: 'missing'"]


async def test_a_thrown_exception_keeps_its_type_name_beside_the_message() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise LookupError("no such row")

    registry = Registry()
    registry.register(make_tool(body=body))
    error = failed(await execute(registry, call())).error
    # The type is for run_code programs (ToolCallError.type); the text stays as it was.
    assert (error.message, error.exception_type) == ("no such row", "LookupError")


def test_a_codemode_error_has_a_code_and_no_exception_type() -> None:
    error = failure_from_exception(ToolNotFoundError("x")).error
    assert error.exception_type is None
    assert error.info == ErrorInfo(name="ToolNotFoundError", code="UNKNOWN_TOOL")


async def test_a_codemode_error_from_a_tool_keeps_its_name_and_code() -> None:
    class QuotaGone(ToolError):
        code = "QUOTA_GONE"

    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise QuotaGone("no quota left")

    registry = Registry()
    registry.register(make_tool(body=body))
    result = await execute(registry, call())
    assert failed(result).error.info == ErrorInfo(name="QuotaGone", code="QUOTA_GONE")
    assert message_of(result) == "no quota left"


async def test_a_hostile_thrown_value_is_normalised() -> None:
    class Hostile(Exception):
        def __str__(self) -> str:
            raise RuntimeError("no text for you")

    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise Hostile()

    registry = Registry()
    registry.register(make_tool(body=body))
    assert message_of(await execute(registry, call())) == "<unprintable thrown value>"


# --- normalisation and finalize_content ----------------------------------------------------


async def test_a_result_that_is_not_lossless_json_is_normalised_before_observers() -> None:
    async def wrapper(dispatch: Any, next: Any) -> ToolResult:
        bad: Any = {"bad": object()}
        return ToolSuccess(value=None, content=(TextBlock(text="ok"),), meta=bad)

    observed: list[ToolResult] = []
    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    registry.on_result(lambda execution, result: observed.append(result))
    result = await execute(registry, call())
    assert message_of(result).startswith(
        "tool 'echo' produced a result that is not lossless JSON: a value of type builtins.object"
    )
    assert observed == [result]


async def test_an_image_block_with_a_lone_surrogate_is_normalised_into_a_failure() -> None:
    async def wrapper(dispatch: Any, next: Any) -> ToolResult:
        return ToolSuccess(value=None, content=(ImageBlock(data="\ud800", mime_type="image/png"),))

    registry = Registry()
    registry.register(make_tool())
    registry.around(wrapper)
    assert "lone surrogate" in message_of(await execute(registry, call()))


async def test_finalize_content_replaces_the_content_of_the_normalised_result() -> None:
    seen: list[tuple[ToolExecution, ToolResult]] = []

    def finalize(execution: ToolExecution, result: ToolResult) -> list[TextBlock]:
        seen.append((execution, result))
        return [TextBlock(text="final")]

    registry = Registry()
    registry.register(make_tool(finalize_content=finalize))
    result = success(await execute(registry, call(arguments={"a": 1})))
    assert texts(result) == ["final"]
    assert result.value == {"a": 1}
    assert type(success(seen[0][1]).value) is FrozenDict


async def test_finalize_content_runs_exactly_once_for_a_failed_call_too() -> None:
    calls: list[bool] = []

    def finalize(execution: ToolExecution, result: ToolResult) -> None:
        calls.append(result.is_error)

    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise RuntimeError("fail")

    registry = Registry()
    registry.register(make_tool(body=body, finalize_content=finalize))
    await execute(registry, call())
    assert calls == [True]


async def test_finalize_content_is_the_one_the_tool_had_when_the_call_started() -> None:
    # The callback is captured at the start: replacing the tool while its body
    # runs changes nothing for this call.
    registry = Registry()
    disposers: list[Any] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        disposers.pop()()
        registry.register(
            make_tool(finalize_content=lambda execution, result: [TextBlock(text="replacement")])
        )
        return "ran"

    disposers.append(
        registry.register(
            make_tool(body=body, finalize_content=lambda e, r: [TextBlock(text="original")])
        )
    )
    result = success(await execute(registry, call()))
    assert texts(result) == ["original"]
    assert texts(success(await execute(registry, call()))) == ["replacement"]


async def test_finalize_content_returning_none_keeps_the_content() -> None:
    registry = Registry()
    registry.register(make_tool(finalize_content=lambda execution, result: None))
    assert texts(await execute(registry, call())) == ["value={}"]


async def test_a_throwing_finalize_content_is_not_called_again() -> None:
    calls: list[ToolResult] = []

    def finalize(execution: ToolExecution, result: ToolResult) -> list[TextBlock]:
        calls.append(result)
        raise RuntimeError("finalizer broke")

    registry = Registry()
    registry.register(make_tool(finalize_content=finalize))
    result = await execute(registry, call())
    assert message_of(result) == "finalizer broke"
    assert len(calls) == 1


async def test_finalize_content_with_invalid_blocks_gives_an_error_result() -> None:
    registry = Registry()
    registry.register(make_tool(finalize_content=lambda execution, result: ["text"]))  # type: ignore[list-item]
    result = await execute(registry, call())
    assert "finalize_content must return TextBlock or ImageBlock items" in message_of(result)


async def test_a_scoped_tool_resolves_for_its_agent_only() -> None:
    agent = Agent("worker")
    registry = Registry()
    registry.register(make_tool("private"), agent=agent)
    assert success(await execute(registry, call("private", agent=agent)))
    assert code_of(await execute(registry, call("private"))) == "UNKNOWN_TOOL"


# --- properties ----------------------------------------------------------------------------


@given(json_values())
def test_any_lossless_value_comes_back_equal_and_frozen(value: JsonValue) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        return value

    async def main() -> ToolResult:
        registry = Registry()
        registry.register(make_tool(body=body))
        return await execute(registry, call())

    result = success(anyio.run(main))
    assert thaw(result.value) == value
    assert freeze(result.value) == result.value


@given(json_values())
def test_any_lossless_argument_reaches_the_body_as_one_frozen_snapshot(value: JsonValue) -> None:
    seen: list[object] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        seen.append(args)
        return None

    async def main() -> None:
        registry = Registry()
        registry.register(make_tool(body=body))
        success(await execute(registry, call(arguments={"x": value})))

    anyio.run(main)
    assert thaw(seen[0]) == {"x": value}
    assert type(seen[0]) is FrozenDict
