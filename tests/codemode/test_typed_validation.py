"""A typed tool validates one call's arguments once, though its classifier reads them too.

The registry's classifier (``execution_mode``) and the tool's body both see the same
frozen snapshot of a call's arguments; the verdict on that snapshot is kept, so the
second look costs nothing. Anything that is not that snapshot is validated afresh.
"""

from __future__ import annotations

from typing import Any

import pytest

from bridge.lossless import materialize
from codemode import AbortSignal, CallInput, Registry, ToolSuccess, _schema, _typed, tool


@tool(concurrency_safe=True)
async def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    seen: list[object] = []
    real = _schema.validate

    def counting(schema: Any, value: Any) -> Any:
        seen.append(value)
        return real(schema, value)

    monkeypatch.setattr(_typed, "validate", counting)
    return seen


def _registry() -> Registry:
    registry = Registry(mode="native")
    registry.register(add)
    return registry


async def test_the_classifier_and_the_body_share_one_validation(validated: list[object]) -> None:
    registry = _registry()
    call = CallInput("c1", "add", materialize({"a": 1, "b": 2}, freeze=True), AbortSignal())
    assert registry.execution_mode(call) == "parallel"
    result = await registry.execute(call)
    assert isinstance(result, ToolSuccess)
    assert result.value == 3
    assert len(validated) == 1


async def test_another_snapshot_with_the_same_content_is_validated_again(
    validated: list[object],
) -> None:
    registry = _registry()
    for call_id in ("c1", "c2"):
        call = CallInput(call_id, "add", materialize({"a": 1, "b": 2}, freeze=True), AbortSignal())
        registry.execution_mode(call)
        result = await registry.execute(call)
        assert isinstance(result, ToolSuccess)
        assert result.value == 3
    assert len(validated) == 2


async def test_a_plain_dict_changed_after_classifying_is_validated_as_it_is_now(
    validated: list[object],
) -> None:
    registry = _registry()
    arguments: dict[str, Any] = {"a": 1, "b": 2}
    assert add.is_concurrency_safe is not None
    assert add.is_concurrency_safe(arguments) is True
    arguments["a"] = "one"
    result = await registry.execute(CallInput("c1", "add", arguments, AbortSignal()))
    assert result.is_error
    assert "$.a" in result.content[0].text  # type: ignore[union-attr]
    assert len(validated) == 2


async def test_invalid_arguments_fail_the_same_with_the_verdict_kept(
    validated: list[object],
) -> None:
    registry = _registry()
    call = CallInput("c1", "add", materialize({"a": 1}, freeze=True), AbortSignal())
    assert registry.execution_mode(call) == "exclusive"
    result = await registry.execute(call)
    assert result.is_error
    assert "b" in result.content[0].text  # type: ignore[union-attr]
    assert len(validated) == 1
