"""The one rewrite made to an imported schema changes what it accepts for no value."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jsonschema
from hypothesis import given
from hypothesis import strategies as st

from codemode import schema_problems, validate
from codemode._schema import schema_width
from codemode.mcp._schemas import MAX_IMPORTED_WIDTH, exact_rewrite, import_problems

from ..strategies import json_values, subset_schemas

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

TYPES = ["array", "boolean", "integer", "null", "number", "object", "string"]


@st.composite
def type_unions(draw: st.DrawFn) -> dict[str, Any]:
    """``anyOf`` over distinct JSON types, as Pydantic writes ``X | None``, maybe nested."""
    kinds = draw(st.lists(st.sampled_from(TYPES), min_size=2, max_size=4, unique=True))
    branches: list[dict[str, Any]] = [{"type": kind} for kind in kinds]
    if draw(st.booleans()):
        branches[0]["title"] = "annotated"
    union: dict[str, Any] = {"anyOf": branches, "description": "a union"}
    if draw(st.booleans()):
        return {"type": "object", "properties": {"anyOf": union}, "required": ["anyOf"]}
    return union


@given(type_unions(), json_values())
def test_a_type_union_rewritten_accepts_exactly_what_the_server_schema_accepts(
    schema: dict[str, Any], value: object
) -> None:
    rewritten = exact_rewrite(schema)
    kinds = {b["type"] for b in (schema.get("anyOf") or schema["properties"]["anyOf"]["anyOf"])}
    if {"integer", "number"} <= kinds:
        # An integer matches both branches: not rewritten, so refused as the server wrote it.
        assert rewritten == schema
        assert schema_problems(rewritten)
        return
    assert schema_problems(rewritten) == []
    assert isinstance(rewritten, dict)
    ours = not validate(rewritten, value)
    theirs = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert ours == theirs


@given(subset_schemas())
def test_a_schema_inside_the_subset_is_imported_unchanged(schema: dict[str, object]) -> None:
    assert exact_rewrite(schema) == schema  # type: ignore[arg-type]


def test_a_property_named_anyof_and_data_holding_anyof_are_not_touched() -> None:
    schema: dict[str, Any] = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {"anyOf": {"type": "string", "default": {"anyOf": [{"type": "a"}]}}},
        "examples": [{"anyOf": [{"type": "string"}, {"type": "null"}]}],
    }
    assert exact_rewrite(schema) == {k: v for k, v in schema.items() if k != "$schema"}


def test_import_problems_names_each_schema_and_path() -> None:
    assert import_problems({"type": "string"}, {"type": "object", "minProperties": 1}) == [
        'input schema: `$`: the root must declare "type": "object"',
        "output schema: `$.minProperties`: keyword `minProperties` is not supported (supported: "
        "type, oneOf, properties, required, additionalProperties, items, enum, const, "
        "description, title, default, examples)",
    ]


def _branches(count: int) -> list[JsonValue]:
    return [{"type": "object", "properties": {"k": {"const": i}}, "required": ["k"]}
            for i in range(count)]


def test_an_imported_schema_may_not_fan_one_value_out_to_many_nodes() -> None:
    # Each oneOf branch checks the whole value: a server's wide union times a
    # program's long argument was host CPU the server chose.
    wide: JsonValue = {"type": "object", "properties": {"rows": {"type": "array", "items": {
        "oneOf": _branches(MAX_IMPORTED_WIDTH)}}}}
    assert schema_width(wide) == MAX_IMPORTED_WIDTH + 1  # the oneOf node and its branches
    [problem] = import_problems(wide, None)
    assert problem.startswith(f"input schema: `$`: more than {MAX_IMPORTED_WIDTH} schema nodes")
    assert import_problems({"type": "object"}, wide) == [problem.replace("input", "output", 1)]
    narrow: JsonValue = {"type": "object", "properties": {"rows": {"type": "array", "items": {
        "oneOf": _branches(MAX_IMPORTED_WIDTH - 1)}}}}
    assert import_problems(narrow, None) == []


def test_the_width_counts_the_nodes_that_check_the_same_value_only() -> None:
    # Many properties are many values, each checked by one node: narrow.
    many = {"type": "object", "properties": {f"p{i}": {"type": "string"} for i in range(5000)}}
    assert schema_width(many) == 1
    # Branches nested in branches all check the same value; a property named
    # in two branches is checked by both.
    nested = {"oneOf": [
        {"oneOf": [{"type": "string"}, {"type": "null"}]},
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}, {"type": "null"}]}}},
    ]}
    assert schema_width(nested) == 6
    # The parts under one value's nodes: "a" is checked by 1 + (1 + 2) nodes.
    assert schema_width({"type": "object", "properties": {"a": nested}}) == 6
