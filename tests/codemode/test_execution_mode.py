"""execution_mode(): fail-closed classification of a pending call as parallel or exclusive."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pytest

from codemode import RUN_CODE, Agent, Registry, ToolDefinition, ToolOutput, define_tool, tool
from codemode._execution import CallInput, ExecutionToken
from codemode._signal import AbortSignal

if TYPE_CHECKING:
    from bridge.lossless import JsonValue
    from codemode._execution import ToolRunContext


async def _reply(args: Any, ctx: ToolRunContext) -> JsonValue:
    return []


def raw(name: str, classifier: Any = None) -> ToolDefinition:
    return define_tool(
        name=name,
        description=f"tool {name}",
        parameters={"type": "object", "properties": {}},
        output=ToolOutput(schema={}),
        execute=_reply,
        is_concurrency_safe=classifier,
    )


def registry_with(*definitions: ToolDefinition, mode: Any = "native") -> Registry:
    registry = Registry(mode=mode)
    for definition in definitions:
        registry.register(definition)
    return registry


@tool(concurrency_safe=True)
def safe() -> None:
    """Parallel-safe."""


@tool(concurrency_safe=lambda args: args["mode"] == "read")
def rw(mode: str) -> None:
    """Read or write."""


@tool(concurrency_safe=True)
def needs_mode(mode: str) -> None:
    """Requires mode."""


def test_an_explicit_true_is_parallel() -> None:
    assert registry_with(safe).execution_mode("safe", {}) == "parallel"


def test_a_tool_without_a_classifier_is_exclusive() -> None:
    assert registry_with(raw("plain")).execution_mode("plain", {}) == "exclusive"


def test_an_unknown_tool_is_exclusive() -> None:
    assert Registry().execution_mode("nonexistent", {}) == "exclusive"


def test_a_tool_hidden_from_the_scope_is_exclusive() -> None:
    registry = registry_with(safe, raw("other"))
    agent = Agent("a")
    registry.restrict(agent, deny=["safe"])
    assert registry.execution_mode("safe", {}, agent) == "exclusive"


def test_a_classifier_decides_per_call_from_the_arguments() -> None:
    registry = registry_with(rw)
    assert registry.execution_mode("rw", {"mode": "read"}) == "parallel"
    assert registry.execution_mode("rw", {"mode": "write"}) == "exclusive"


def test_invalid_typed_arguments_are_exclusive_without_raising() -> None:
    assert registry_with(needs_mode).execution_mode("needs_mode", {}) == "exclusive"


def test_a_throwing_classifier_is_exclusive() -> None:
    def boom(args: object) -> bool:
        raise RuntimeError("boom")

    assert registry_with(raw("thrower", boom)).execution_mode("thrower", {}) == "exclusive"


@pytest.mark.parametrize("verdict", ["yes", 1, [True], False, None])
def test_anything_but_an_exact_true_is_exclusive(verdict: object) -> None:
    registry = registry_with(raw("truthy", lambda args: verdict))
    assert registry.execution_mode("truthy", {}) == "exclusive"


def test_a_raw_classifier_receives_the_parsed_arguments() -> None:
    seen: list[object] = []

    def classify(args: object) -> bool:
        seen.append(args)
        return True

    registry = registry_with(raw("raw-safe", classify))
    assert registry.execution_mode("raw-safe", {"anything": [1]}) == "parallel"
    assert seen == [{"anything": (1,)}]


def test_arguments_that_are_not_lossless_json_are_exclusive() -> None:
    registry = registry_with(raw("raw-safe", lambda args: True))
    assert registry.execution_mode("raw-safe", {"x": math.nan}) == "exclusive"


def test_the_classifier_never_reaches_the_schemas() -> None:
    (schema,) = registry_with(safe).schemas()
    assert sorted(schema) == ["description", "name", "parameters"]


def test_a_model_direct_call_refused_by_code_mode_is_exclusive() -> None:
    registry = registry_with(safe, mode="code")
    assert registry.execution_mode("safe", {}) == "exclusive"


def test_a_sub_call_from_inside_run_code_keeps_its_classification() -> None:
    registry = registry_with(safe, mode="code")
    assert registry.execution_mode("safe", {}, parent=ExecutionToken()) == "parallel"


def test_run_code_itself_is_classified_by_its_own_classifier() -> None:
    registry = Registry(mode="code")
    registry.install_run_code(raw(RUN_CODE, lambda args: True))
    assert registry.execution_mode(RUN_CODE, {}) == "parallel"


def test_a_call_input_can_be_classified_directly() -> None:
    registry = registry_with(rw)
    call = CallInput("c1", "rw", {"mode": "read"}, AbortSignal())
    assert registry.execution_mode(call) == "parallel"
