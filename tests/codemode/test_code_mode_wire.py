"""What the model is shown: modes, the ``run_code`` schema and card, the rule and the SDK.

Ports reference §8 ``code-mode.spec.ts`` "Wire contribution" and "Per-agent
presentation"; the items about prompt-assembly listeners, shadowing a prompt
section, ``toolOrder`` and runtime languages have no counterpart here (there is
one runtime language and no prompt assembler).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

import pytest

from codemode import (
    RUN_CODE,
    AbortSignal,
    Agent,
    CallInput,
    RegistrationError,
    Registry,
    ToolExecution,
    text_of,
)
from codemode._errors import ABORTED_BEFORE_DISPATCH, CODE_RUN_FAILED, INVALID_ARGS, UNKNOWN_TOOL
from codemode.code_mode import CodeMode, SdkTool, render_sdk
from codemode.code_mode._wire import CODE_ONLY_RULE, present_run_code_call

from .test_code_mode_support import (
    AGENT,
    code_mode,
    code_of,
    failure_of,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
    run_code_call,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from sandbox import WorkerPool


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


def installed(registry: Registry) -> CodeMode:
    """A CodeMode whose run_code is installed without a sandbox (enough for what is shown)."""
    mode = CodeMode(registry)
    registry.install_run_code(mode.definition)
    return mode


def names(registry: Registry, agent: Agent | None = AGENT) -> list[str]:
    return [schema["name"] for schema in registry.wire_schemas(agent)]


# -- wire contribution -------------------------------------------------------------------------


def test_native_mode_sends_every_tool_and_no_run_code_or_sdk() -> None:
    registry = registry_with(make_tool("a"), make_tool("b"), mode="native")
    mode = installed(registry)
    assert names(registry) == ["a", "b"]
    assert mode.system_prompt(AGENT) == ""
    assert mode.sdk(AGENT) == ""


def test_code_mode_sends_exactly_run_code_and_an_sdk_declaring_the_other_tools() -> None:
    registry = registry_with(make_tool("alpha"), make_tool("beta"))
    mode = installed(registry)
    assert names(registry) == [RUN_CODE]
    sdk = mode.sdk(AGENT)
    assert "async def alpha(" in sdk
    assert "async def beta(" in sdk


def test_the_code_only_rule_comes_before_the_sdk() -> None:
    registry = registry_with(make_tool("alpha"))
    prompt = installed(registry).system_prompt(AGENT)
    assert prompt.startswith(CODE_ONLY_RULE)
    assert prompt.index(CODE_ONLY_RULE) < prompt.index("async def alpha(")


def test_both_mode_sends_every_tool_then_run_code_last_with_the_sdk_and_no_rule() -> None:
    registry = registry_with(make_tool("a"), make_tool("b"), mode="both")
    mode = installed(registry)
    assert names(registry) == ["a", "b", RUN_CODE]
    prompt = mode.system_prompt(AGENT)
    assert CODE_ONLY_RULE not in prompt
    assert "async def a(" in prompt


def test_a_5000_deep_one_of_output_schema_renders_without_recursion() -> None:
    # Tool definitions cap nesting at 500 levels; the renderer itself must not care.
    schema: dict[str, object] = {"type": "string"}
    for _ in range(5000):
        schema = {"oneOf": [schema, {"type": "null"}]}
    deep = SdkTool(
        name="deep", description="Deep.", parameters={"type": "object"}, output=schema
    )
    assert "async def deep(" in render_sdk([deep])


def test_run_code_is_unaffected_by_scoped_allow_and_deny_lists_and_the_sdk_follows_them() -> None:
    registry = registry_with(make_tool("kept"), make_tool("hidden"))
    mode = installed(registry)
    registry.restrict(AGENT, deny=["hidden"])
    assert names(registry) == [RUN_CODE]
    assert [tool.name for tool in mode.sdk_tools(AGENT)] == ["kept"]
    registry.restrict(AGENT, allow=["kept"])
    assert names(registry) == [RUN_CODE]


def test_run_code_cannot_be_registered_globally_or_scoped_or_restricted() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    impostor = make_tool(RUN_CODE)
    with pytest.raises(RegistrationError):
        registry.register(impostor)
    with pytest.raises(RegistrationError):
        registry.register(impostor, agent=AGENT)
    with pytest.raises(RegistrationError):
        registry.restrict(AGENT, deny=[RUN_CODE])
    with pytest.raises(RegistrationError):
        registry.restrict(AGENT, allow=["a", RUN_CODE])


def test_the_catalog_includes_run_code_only_where_the_scope_is_not_native() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    native = Agent("native")
    registry.present_as(native, "native")
    assert [s["name"] for s in registry.schemas(AGENT)] == ["a", RUN_CODE]
    assert [s["name"] for s in registry.schemas(native)] == ["a"]


def test_run_code_is_never_offered_to_programs_even_under_both() -> None:
    registry = registry_with(make_tool("a"), mode="both")
    mode = installed(registry)
    assert [tool.name for tool in mode.sdk_tools(AGENT)] == ["a"]
    assert "def run_code" not in mode.sdk(AGENT)


def test_the_sdk_text_is_byte_identical_across_assemblies() -> None:
    registry = registry_with(make_tool("b"), make_tool("a"), make_tool("c"))
    mode = installed(registry)
    first = mode.system_prompt(AGENT)
    assert all(mode.system_prompt(AGENT) == first for _ in range(3))
    assert CodeMode(registry).system_prompt(AGENT) == first


def test_the_sdk_is_python_with_a_tools_protocol_and_tool_call_error() -> None:
    sdk = installed(registry_with(make_tool("a"))).sdk(AGENT)
    assert "class Tools(Protocol)" in sdk
    assert "class ToolCallError(Exception)" in sdk
    assert "tools: Tools" in sdk


def test_the_run_code_schema_has_python_wording_and_requires_code_and_description() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    [schema] = registry.wire_schemas(AGENT)
    parameters = schema["parameters"]
    assert parameters["required"] == ["code", "description"]
    assert set(parameters["properties"]) == {"code", "description"}
    assert "Python" in schema["description"]
    assert "async Python function" in parameters["properties"]["code"]["description"]


async def test_leaving_code_mode_removes_run_code_and_the_sdk_stays_a_pure_function(
    pool: WorkerPool,
) -> None:
    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool):
        assert names(registry) == [RUN_CODE]
    # The model's list cannot be built any more, while the catalogue stays readable.
    with pytest.raises(RegistrationError, match=r"start Code Mode first"):
        names(registry)
    assert registry.get(RUN_CODE, AGENT) is None
    assert [s["name"] for s in registry.schemas(AGENT)] == ["a"]


async def test_run_code_without_a_running_code_mode_is_an_error_result() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    result = await run_code(registry, "return 1")
    assert result.is_error
    assert "async with CodeMode" in result.error.message


# -- modes and the collapse ----------------------------------------------------------------------


def test_native_is_the_default_mode_and_ten_the_default_parallelism() -> None:
    registry = Registry()
    assert registry.mode_of(AGENT) == "native"
    assert registry.max_parallel_sub_calls == 10


def test_zero_max_parallel_sub_calls_is_rejected() -> None:
    with pytest.raises(ValueError, match="max_parallel_sub_calls=0"):
        Registry(max_parallel_sub_calls=0)


async def test_a_direct_native_call_under_code_is_unknown_tool_before_any_policy() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    seen: list[str] = []

    async def pre(execution: ToolExecution, proceed: object) -> object:
        seen.append(execution.name)
        return await proceed()  # type: ignore[operator]

    registry.pre_execute(pre)
    result = await registry.execute(CallInput("c1", "a", {}, AbortSignal(), agent=AGENT))
    assert result.is_error
    assert result.error.info is not None
    assert result.error.info.code == UNKNOWN_TOOL
    assert "call `a` from inside a `run_code` program" in result.error.message
    assert seen == []


async def test_a_pre_aborted_direct_native_call_under_code_is_aborted_before_dispatch() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    signal = AbortSignal.aborted_with("stop")
    result = await registry.execute(CallInput("c1", "a", {}, signal, agent=AGENT))
    assert code_of(result) == ABORTED_BEFORE_DISPATCH


def test_a_direct_native_call_under_code_is_classified_exclusive() -> None:
    registry = registry_with(make_tool("a", parallel=True))
    installed(registry)
    assert registry.execution_mode("a", {}, AGENT) == "exclusive"
    assert registry.execution_mode("a", {}, AGENT, parent=None) == "exclusive"


async def test_a_pre_aborted_run_code_call_never_reaches_the_sandbox(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("a"))
    runs: list[object] = []
    async with code_mode(registry, pool, on_run=runs.append):
        result = await registry.execute(
            run_code_call("return 1", signal=AbortSignal.aborted_with("stop"))
        )
    assert code_of(result) == ABORTED_BEFORE_DISPATCH
    assert runs == []


# -- run_code's own arguments, card and failures -------------------------------------------------


def test_present_call_is_a_generic_card_titled_by_the_description_with_the_code() -> None:
    card = present_run_code_call({"code": "return 1", "description": "Add one and one"})
    assert isinstance(card, Mapping)
    assert dict(card) == {
        "card": "generic",
        "title": "Add one and one",
        "kind": "execute",
        "rawInput": "return 1",
    }


async def test_a_whitespace_only_description_is_an_error_result(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool):
        result = await run_code(registry, "return 1", description="   ")
    assert result.is_error
    assert result.error.message == "invalid description: expected a non-empty string"


@pytest.mark.parametrize("label", ["", "\t\n", "\ufeff", " \ufeff\u3000", "\u2028\x85", "\x1c\x1f"])
async def test_a_label_that_shows_nothing_is_an_invalid_description_without_a_code(
    pool: WorkerPool, label: str
) -> None:
    # Blank is empty once trimmed, by either notion of whitespace: a byte order
    # mark alone is blank too, though `str.strip` keeps it.
    registry = registry_with(make_tool("a"))
    runs: list[object] = []
    async with code_mode(registry, pool, on_run=runs.append):
        result = await run_code(registry, "return 1", description=label)
    assert failure_of(result).message == "invalid description: expected a non-empty string"
    assert code_of(result) is None
    assert runs == []
    card = present_run_code_call({"code": "return 1", "description": label})
    assert isinstance(card, Mapping)
    assert card["title"] == RUN_CODE


async def test_a_failed_program_is_code_run_failed_with_kind_message_and_captured_output(
    pool: WorkerPool,
) -> None:
    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool):
        result = await run_code(registry, "print('step 1')\nraise ValueError('boom')")
    assert result.is_error
    info = result.error.info
    assert info is not None
    assert info.code == CODE_RUN_FAILED
    assert info.kind == "exception"
    assert result.error.message.startswith("code run failed (exception): ")
    assert "ValueError: boom" in result.error.message
    assert result.error.message.endswith("\nCaptured output:\nstep 1")
    assert text_of(result.content).startswith("Error: code run failed (exception)")


# -- per-agent presentation -----------------------------------------------------------------------


def test_one_agent_uses_code_while_the_deployment_stays_native() -> None:
    registry = registry_with(make_tool("a"), mode="native")
    mode = installed(registry)
    coder = Agent("coder")
    registry.present_as(coder, "code")
    assert names(registry, coder) == [RUN_CODE]
    assert names(registry, AGENT) == ["a"]
    assert mode.system_prompt(coder).startswith(CODE_ONLY_RULE)
    assert mode.system_prompt(AGENT) == ""


def test_a_preset_scopes_mode_is_inherited_down_the_chain_and_neighbours_are_unaffected() -> None:
    registry = registry_with(make_tool("a"), mode="native")
    installed(registry)
    preset = Agent("preset")
    child = Agent("c", parent=preset)
    grandchild = Agent("g", parent=Agent("c2", parent=preset))
    neighbour = Agent("n")
    registry.present_as(preset, "code")
    assert names(registry, child) == [RUN_CODE]
    assert names(registry, grandchild) == [RUN_CODE]
    assert names(registry, neighbour) == ["a"]


async def test_a_native_agent_cannot_call_run_code_even_when_another_agent_uses_it() -> None:
    registry = registry_with(make_tool("a"), mode="native")
    installed(registry)
    registry.present_as(Agent("coder"), "code")
    result = await run_code(registry, "return 1", agent=AGENT)
    assert code_of(result) == UNKNOWN_TOOL


def test_an_agent_can_opt_out_of_a_code_mode_deployment() -> None:
    registry = registry_with(make_tool("a"))
    installed(registry)
    registry.present_as(AGENT, "native")
    assert names(registry, AGENT) == ["a"]
    assert names(registry, Agent("other")) == [RUN_CODE]


def test_the_default_is_restored_when_the_agent_unloads() -> None:
    registry = registry_with(make_tool("a"), mode="native")
    installed(registry)
    dispose = registry.present_as(AGENT, "code")
    dispose()
    assert names(registry, AGENT) == ["a"]
    dispose()  # idempotent
    assert registry.mode_of(AGENT) == "native"


def test_a_second_declaration_and_an_unscoped_declaration_are_refused() -> None:
    registry = registry_with(make_tool("a"))
    registry.present_as(AGENT, "both")
    with pytest.raises(RegistrationError, match="already presents"):
        registry.present_as(AGENT, "code")
    with pytest.raises(RegistrationError, match="needs an agent scope"):
        registry.present_as(None, "code")


def test_run_code_is_reserved_even_when_nobody_presents_it() -> None:
    registry = registry_with(make_tool("a"), mode="native")
    with pytest.raises(RegistrationError):
        registry.register(make_tool(RUN_CODE))


@pytest.mark.parametrize(
    ("arguments", "violation"),
    [
        ("return 1", "Expected `object`, got `string` - at `$`"),
        ([1], "Expected `object`, got `array` - at `$`"),
        ({"code": 1, "description": "d"}, "Expected `string`, got `integer` - at `$.code`"),
        ({"description": "d"}, 'missing required property "code" - at `$`'),
        ({"code": "return 1"}, 'missing required property "description" - at `$`'),
    ],
)
async def test_malformed_run_code_arguments_are_invalid_args_naming_the_problem(
    pool: WorkerPool, arguments: object, violation: str
) -> None:
    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool):
        result = await registry.execute(
            CallInput("c1", RUN_CODE, arguments, AbortSignal(), agent=AGENT)
        )
    assert code_of(result) == INVALID_ARGS
    assert failure_of(result).message == f"invalid arguments: {violation}"


async def test_extra_run_code_arguments_are_accepted(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool):
        result = await registry.execute(
            CallInput("c1", RUN_CODE, {"code": "return 2", "description": "Two", "why": "x"},
                      AbortSignal(), agent=AGENT)
        )
    assert returned(result) == 2


async def test_a_code_mode_can_be_entered_again_after_it_closed_its_own_pool() -> None:
    registry = registry_with(make_tool("a"))
    mode = CodeMode(registry, pool_size=0)
    for expected in (1, 2):
        async with mode:
            assert returned(await run_code(registry, f"return {expected}")) == expected


async def test_a_failing_on_run_callback_does_not_change_the_outcome(pool: WorkerPool) -> None:
    def broken(run: object) -> None:
        raise RuntimeError("observer bug")

    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool, on_run=broken):
        assert returned(await run_code(registry, "return 'fine'")) == "fine"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"pool_size": -1}, "pool_size=-1"),
        ({"pool_size": 1.5}, "pool_size=1.5"),
        ({"pool": object()}, "pool=<object"),
        ({"quotas": {"max_calls": 1}}, "quotas={'max_calls': 1}"),
    ],
)
def test_code_mode_checks_its_options_when_built(options: dict[str, object], message: str) -> None:
    with pytest.raises((TypeError, ValueError), match=re.escape(message)):
        CodeMode(Registry(), **options)  # type: ignore[arg-type]


async def test_under_both_a_direct_native_call_runs() -> None:
    registry = registry_with(make_tool("a"), mode="both")
    installed(registry)
    result = await registry.execute(CallInput("c1", "a", {"k": 1}, AbortSignal(), agent=AGENT))
    assert not result.is_error


def test_a_sub_call_of_a_concurrency_safe_tool_is_classified_parallel_under_code() -> None:
    from codemode import ExecutionToken

    registry = registry_with(make_tool("a", parallel=True))
    installed(registry)
    assert registry.execution_mode("a", {}, AGENT, parent=ExecutionToken()) == "parallel"
