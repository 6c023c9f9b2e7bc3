"""execution_mode(): fail-closed classification of a pending call as parallel or exclusive."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import pytest

import bridge.lossless
import codemode._registry
import codemode._typed
import codemode._validate
from codemode import RUN_CODE, Agent, Registry, ToolDefinition, ToolOutput, define_tool, tool
from codemode._execution import CallInput, ExecutionToken
from codemode._offload import INLINE_NODES
from codemode._signal import AbortSignal

if TYPE_CHECKING:
    from collections.abc import Callable

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


@tool(concurrency_safe=True)
def safe_ids(ids: list[int]) -> int:
    """Count ids; parallel-safe."""
    return len(ids)


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


@pytest.mark.parametrize("tool_name", ["raw-safe", "safe_ids"])
def test_arguments_too_large_to_walk_on_the_loop_are_exclusive_unclassified(
    tool_name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The scheduler classifies on the event loop: arguments a program made
    # large are neither copied, validated nor shown to any classifier there.
    seen: list[object] = []

    def classify(args: object) -> bool:
        seen.append(args)
        return True

    def recording(real: Callable[..., object]) -> Callable[..., object]:
        def walk(value: object, *args: object, **options: object) -> object:
            seen.append(value)
            return real(value, *args, **options)

        return walk

    registry = registry_with(raw("raw-safe", classify), safe_ids)
    large = {"ids": list(range(INLINE_NODES))}
    monkeypatch.setattr(codemode._registry, "materialize", recording(bridge.lossless.materialize))
    monkeypatch.setattr(codemode._typed, "validate", recording(codemode._validate.validate))
    assert registry.execution_mode(tool_name, large) == "exclusive"
    assert seen == []


def test_arguments_of_up_to_the_inline_size_are_still_classified() -> None:
    registry = registry_with(safe_ids)
    # The arguments object and its list count as two of the items.
    assert registry.execution_mode("safe_ids", {"ids": list(range(INLINE_NODES - 2))}) == (
        "parallel"
    )
    assert registry.execution_mode("safe_ids", {"ids": list(range(INLINE_NODES - 1))}) == (
        "exclusive"
    )


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
