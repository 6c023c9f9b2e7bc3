"""How many violations a check describes: at most the ones it reports, whatever the value.

Describing a violation is the costly part of a check (a message may show the
values a schema's ``enum`` lists, and an imported tool's schema chooses them),
so a value of many bad items must not be described once per item. The branch
of a ``oneOf`` whose type is the value's speaks for it, and describes no more
than the check can still report.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from codemode import _validate
from codemode._validate import MAX_VIOLATIONS, validate

if TYPE_CHECKING:
    import pytest


def _counted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    original = _validate._wrong_type

    def wrong_type(*args: Any) -> str:
        calls.append(1)
        return original(*args)

    monkeypatch.setattr(_validate, "_wrong_type", wrong_type)
    return calls


def test_items_of_a_typed_one_of_branch_are_described_at_most_as_often_as_reported(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counted(monkeypatch)
    big = [f"{i}" + "x" * 1000 for i in range(10)]
    item = {"oneOf": [
        {"type": "object", "properties": {"k": {"type": "string", "enum": big}}},
        {"type": "null"},
    ]}
    schema = {"type": "object", "properties": {"xs": {"type": "array", "items": item}}}
    found = validate(schema, {"xs": [{"k": 3}] * 500})
    assert len(found) == MAX_VIOLATIONS
    assert found.unlisted == 500 - MAX_VIOLATIONS
    assert "Expected one of" in str(found[0])
    assert "$.xs[0].k" in str(found[0])
    assert len(calls) <= MAX_VIOLATIONS


def test_a_typed_branch_still_speaks_for_the_value_after_others_filled_the_report(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    calls = _counted(monkeypatch)
    item = {"oneOf": [
        {"type": "object", "properties": {"k": {"type": "string"}}},
        {"type": "null"},
    ]}
    schema = {"type": "object", "properties": {
        "a": {"type": "array", "items": {"type": "integer"}},
        "xs": {"type": "array", "items": item},
    }}
    found = validate(schema, {"a": ["no"] * MAX_VIOLATIONS, "xs": [{"k": 3}] * 50})
    assert len(found) == MAX_VIOLATIONS
    assert found.unlisted == 50
    assert len(calls) <= MAX_VIOLATIONS
