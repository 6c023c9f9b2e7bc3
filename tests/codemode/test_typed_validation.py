"""A typed tool validates one call's arguments once, and says what was wrong in bounded text.

The registry's classifier (``execution_mode``) and the tool's body both see the same
frozen snapshot of a call's arguments; the verdict on that snapshot is kept, so the
second look costs nothing. Anything that is not that snapshot is validated afresh.
A call with invalid arguments is told each violation with its path, up to
``MAX_VIOLATIONS``, and how many more there were.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import materialize
from codemode import (
    AbortSignal,
    CallInput,
    Registry,
    ToolFailure,
    ToolSuccess,
    _typed,
    _validate,
    tool,
)
from codemode._validate import MAX_VIOLATIONS


@tool(concurrency_safe=True)
async def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@pytest.fixture
def validated(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, object]]:
    """Each check of a typed tool's arguments: a quick verdict, or a validation with its walk."""
    seen: list[tuple[str, object]] = []
    real_validate = _validate.validate
    real_verdict = _validate.verdict

    def validating(schema: Any, value: Any) -> Any:
        seen.append(("validate", value))
        return real_validate(schema, value)

    def telling(schema: Any, value: Any) -> Any:
        seen.append(("verdict", value))
        return real_verdict(schema, value)

    monkeypatch.setattr(_typed, "validate", validating)
    monkeypatch.setattr(_typed, "verdict", telling)
    return seen


def _registry() -> Registry:
    registry = Registry(mode="native")
    registry.register(add)
    return registry


async def test_the_classifier_and_the_body_share_one_validation(
    validated: list[tuple[str, object]],
) -> None:
    registry = _registry()
    call = CallInput("c1", "add", materialize({"a": 1, "b": 2}, freeze=True), AbortSignal())
    assert registry.execution_mode(call) == "parallel"
    result = await registry.execute(call)
    assert isinstance(result, ToolSuccess)
    assert result.value == 3
    assert validated == [("verdict", call.arguments)]


async def test_another_snapshot_with_the_same_content_is_validated_again(
    validated: list[tuple[str, object]],
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
    validated: list[tuple[str, object]],
) -> None:
    registry = _registry()
    arguments: dict[str, Any] = {"a": 1, "b": 2}
    assert add.is_concurrency_safe is not None
    assert add.is_concurrency_safe(arguments) is True
    assert validated == [("verdict", {"a": 1, "b": 2})]
    arguments["a"] = "one"
    result = await registry.execute(CallInput("c1", "add", arguments, AbortSignal()))
    assert result.is_error
    assert "$.a" in result.content[0].text  # type: ignore[union-attr]
    # Checked again, as it is now (nothing of a plain dict's verdict is kept).
    assert [kind for kind, _ in validated] == ["verdict", "verdict", "validate"]
    assert all(value == {"a": "one", "b": 2} for _, value in validated[1:])


async def test_invalid_arguments_fail_the_same_with_the_verdict_kept(
    validated: list[tuple[str, object]],
) -> None:
    registry = _registry()
    call = CallInput("c1", "add", materialize({"a": 1}, freeze=True), AbortSignal())
    assert registry.execution_mode(call) == "exclusive"
    result = await registry.execute(call)
    assert result.is_error
    assert "b" in result.content[0].text  # type: ignore[union-attr]
    # The classifier's quick verdict is kept; the body describes the refusal once.
    assert validated == [("verdict", call.arguments), ("validate", call.arguments)]


# --- what a call with invalid arguments is told ----------------------------------------------


@tool
def count(ids: list[int]) -> int:
    """Count ids."""
    return len(ids)


async def _count_error(ids: list[object]) -> str:
    registry = Registry(mode="native")
    registry.register(count)
    result = await registry.execute(CallInput("c1", "count", {"ids": ids}, AbortSignal()))
    assert isinstance(result, ToolFailure), result
    assert result.error.info is not None
    assert result.error.info.code == "INVALID_ARGS"
    return result.error.message


async def test_a_few_invalid_arguments_get_every_violation_with_its_path() -> None:
    assert await _count_error([1, "a", 3, None]) == (
        "invalid arguments: Expected `integer`, got `string` - at `$.ids[1]`; "
        "Expected `integer`, got `null` - at `$.ids[3]`"
    )


@given(st.integers(min_value=1, max_value=4 * MAX_VIOLATIONS))
async def test_the_message_lists_the_first_violations_and_counts_the_rest(bad: int) -> None:
    message = await _count_error([0] + ["a"] * bad)
    listed = min(bad, MAX_VIOLATIONS)
    assert message.count(" - at `$.ids[") == listed
    assert f"- at `$.ids[{listed}]`" in message  # the first ones, in order
    if bad > MAX_VIOLATIONS:
        more = bad - MAX_VIOLATIONS
        assert message.endswith(
            f"; and {more} more violation{'s' if more > 1 else ''} "
            f"(only the first {MAX_VIOLATIONS} are listed)"
        )
    else:
        assert "more violation" not in message
    # Bounded whatever the number of bad items: one short line per listed violation.
    assert len(message) <= 100 * (MAX_VIOLATIONS + 1)


async def test_a_million_invalid_items_give_a_short_message() -> None:
    message = await _count_error(["a"] * 1_000_000)
    assert message.endswith(
        f"; and {1_000_000 - MAX_VIOLATIONS} more violations "
        f"(only the first {MAX_VIOLATIONS} are listed)"
    )
    assert len(message) <= 100 * (MAX_VIOLATIONS + 1)
