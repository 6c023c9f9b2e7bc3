"""The enforced JSON Schema subset: checking schemas and validating values."""

from __future__ import annotations

import math
from typing import Any

import jsonschema
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import MAX_DEPTH, JsonValue
from codemode import UnsupportedSchemaError
from codemode._json import freeze
from codemode._schema import SUPPORTED_KEYWORDS, TYPE_NAMES, assert_supported, schema_problems
from codemode._validate import MAX_VIOLATIONS, Violation, _accepts, _violations, validate
from tests.strategies import json_values, subset_schemas, values_for, wild_values

SUPPORTED = (
    "supported: type, oneOf, properties, required, additionalProperties, items, enum, const, "
    "description, title, default, examples"
)


def messages(schema: dict[str, Any], value: object) -> list[str]:
    return [str(v) for v in validate(schema, value)]


# --- agreement with a reference validator ----------------------------------------------------


@given(st.data())
def test_validation_agrees_with_jsonschema_draft_2020_12(data: st.DataObject) -> None:
    schema = data.draw(subset_schemas(), label="schema")
    assert schema_problems(schema) == []
    value = data.draw(st.one_of(values_for(schema), json_values(max_leaves=6)), label="value")
    expected = jsonschema.Draft202012Validator(schema).is_valid(value)
    assert (validate(schema, value) == []) == expected


@given(st.data())
def test_the_quick_acceptance_agrees_with_the_full_walk(data: st.DataObject) -> None:
    # validate() answers a match from _accepts alone: it must never accept what
    # the full walk would find a violation in, nor miss a match it would find.
    schema = data.draw(subset_schemas(), label="schema")
    value = data.draw(
        st.one_of(values_for(schema), json_values(max_leaves=6), wild_values(max_leaves=6)),
        label="value",
    )
    full = _violations(schema, value)
    assert _accepts(schema, value, 32) == (full == [])
    assert validate(schema, value) == full


def _nested_arrays(levels: int, leaf: dict[str, Any]) -> dict[str, Any]:
    schema = leaf
    for _ in range(levels):
        schema = {"type": "array", "items": schema}
    return schema


def _nested_value(levels: int, leaf: object) -> object:
    value = leaf
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("leaf", [1, "one", 1.5])
def test_a_schema_deeper_than_the_quick_check_is_judged_by_the_full_walk(leaf: object) -> None:
    # Inside a oneOf, a branch the quick check gave up on must not count as a
    # mismatch: beside a shallow branch that matches any array, a deep branch
    # that matches too makes two, and the oneOf fails.
    deep = _nested_arrays(40, {"type": "integer"})
    schema = {"oneOf": [{"type": "array"}, deep]}
    value = _nested_value(40, leaf)
    assert validate(schema, value) == _violations(schema, value)
    assert (validate(schema, value) == []) == (leaf != 1)
    assert validate(deep, value) == _violations(deep, value)
    assert (validate(deep, value) == []) == (leaf == 1)


@given(st.data())
def test_validation_of_a_frozen_schema_and_value_matches_the_plain_one(
    data: st.DataObject,
) -> None:
    schema = data.draw(subset_schemas(), label="schema")
    value = data.draw(values_for(schema), label="value")
    frozen_schema = freeze(schema)
    assert isinstance(frozen_schema, dict)
    assert validate(frozen_schema, freeze(value)) == validate(schema, value)


@given(subset_schemas())
def test_every_generated_subset_schema_is_supported(schema: dict[str, Any]) -> None:
    assert_supported(schema)


@given(subset_schemas())
def test_a_frozen_snapshot_of_a_supported_schema_is_supported(schema: dict[str, Any]) -> None:
    assert schema_problems(freeze(schema)) == []


# --- the supported subset --------------------------------------------------------------------


@pytest.mark.parametrize("type_name", TYPE_NAMES)
def test_each_type_name_is_supported_as_a_single_string(type_name: str) -> None:
    assert schema_problems({"type": type_name}) == []


def test_the_empty_schema_is_supported_and_accepts_any_json() -> None:
    assert schema_problems({}) == []
    for value in (None, True, 1, 1.5, "x", [1, {"a": []}], {"a": {"b": None}}):
        assert validate({}, value) == []


def test_a_schema_using_every_keyword_is_supported() -> None:
    schema = {
        "type": "object",
        "title": "Search",
        "description": "Search arguments",
        "properties": {
            "query": {"type": "string", "examples": ["cats"]},
            "limit": {"type": "integer", "default": 10},
            "mode": {"type": "string", "enum": ["fast", "deep"]},
            "version": {"const": 2},
            "tags": {"type": "array", "items": {"type": "string"}},
            "filter": {"oneOf": [{"type": "null"}, {"type": "object"}]},
        },
        "required": ["query"],
        "additionalProperties": False,
    }
    assert [k for k in SUPPORTED_KEYWORDS if k not in repr(schema)] == []
    assert schema_problems(schema) == []


def test_a_property_named_proto_is_ordinary_data() -> None:
    schema = {"type": "object", "properties": {"__proto__": {"type": "string"}},
              "required": ["__proto__"]}
    assert schema_problems(schema) == []
    assert messages(schema, {"__proto__": 1}) == [
        "Expected `string`, got `integer` - at `$.__proto__`"
    ]


# --- rejected schemas: one test per rule ----------------------------------------------------


def test_an_unsupported_keyword_is_named_with_its_path_and_the_supported_list() -> None:
    schema = {"type": "object", "properties": {"limit": {"type": "integer", "minimum": 1}}}
    assert schema_problems(schema) == [
        f"`$.properties.limit.minimum`: keyword `minimum` is not supported ({SUPPORTED})"
    ]


def test_every_problem_is_reported_at_once() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "properties": {
            "a": {"type": "string", "pattern": "^x"},
            "b": {"type": "array", "items": {"type": "integer", "maximum": 3}},
        },
        "required": ["a", "missing"],
    }
    assert schema_problems(schema) == [
        f"`$[\"$schema\"]`: keyword `$schema` is not supported ({SUPPORTED})",
        '`$.required[1]`: required property "missing" is not declared in `properties`',
        f"`$.properties.a.pattern`: keyword `pattern` is not supported ({SUPPORTED})",
        f"`$.properties.b.items.maximum`: keyword `maximum` is not supported ({SUPPORTED})",
    ]


def test_a_list_of_types_is_rejected_with_a_hint_to_use_one_of() -> None:
    assert schema_problems({"type": ["string", "null"]}) == [
        '`$.type`: must be one of "array", "boolean", "integer", "null", "number", "object", '
        '"string" as a single string, got ["string","null"] (use oneOf for a union of types)'
    ]


def test_an_unknown_type_name_is_rejected() -> None:
    assert schema_problems({"type": "float"}) == [
        '`$.type`: must be one of "array", "boolean", "integer", "null", "number", "object", '
        '"string" as a single string, got "float"'
    ]


def test_one_of_with_a_single_branch_is_rejected() -> None:
    assert schema_problems({"oneOf": [{"type": "string"}]}) == [
        "`$.oneOf`: must be a list of at least two schemas, got 1"
    ]


def test_one_of_that_is_not_a_list_is_rejected() -> None:
    assert schema_problems({"oneOf": {"type": "string"}}) == [
        "`$.oneOf`: must be a list of at least two schemas, got an object"
    ]


def test_one_of_branches_are_checked_with_their_index() -> None:
    assert schema_problems({"oneOf": [{"type": "string"}, {"not": {}}]}) == [
        f"`$.oneOf[1].not`: keyword `not` is not supported ({SUPPORTED})"
    ]


def test_properties_without_type_object_are_rejected() -> None:
    assert schema_problems({"properties": {"a": {}}}) == [
        '`$.properties`: keyword `properties` needs `type: "object"` on the same schema'
    ]


def test_properties_must_map_names_to_schemas() -> None:
    assert schema_problems({"type": "object", "properties": [{"type": "string"}]}) == [
        "`$.properties`: must be an object of property schemas, got an array"
    ]


def test_a_property_schema_must_be_an_object() -> None:
    assert schema_problems({"type": "object", "properties": {"a": "string"}}) == [
        "`$.properties.a`: a schema must be an object, got a string"
    ]


def test_required_without_type_object_is_rejected() -> None:
    assert schema_problems({"type": "array", "required": []}) == [
        '`$.required`: keyword `required` needs `type: "object"` on the same schema'
    ]


def test_required_names_must_be_declared_properties() -> None:
    assert schema_problems({"type": "object", "required": ["a"]}) == [
        '`$.required[0]`: required property "a" is not declared in `properties`'
    ]


def test_a_required_name_listed_twice_is_rejected() -> None:
    schema = {"type": "object", "properties": {"a": {}}, "required": ["a", "a"]}
    assert schema_problems(schema) == ['`$.required[1]`: property "a" is listed twice']


def test_required_must_be_a_list_of_strings() -> None:
    assert schema_problems({"type": "object", "properties": {}, "required": "a"}) == [
        "`$.required`: must be a list of property names, got a string"
    ]
    assert schema_problems({"type": "object", "properties": {}, "required": [1]}) == [
        "`$.required[0]`: must be a property name (a string), got a number"
    ]


def test_additional_properties_must_be_a_boolean() -> None:
    schema = {"type": "object", "additionalProperties": {"type": "string"}}
    assert schema_problems(schema) == [
        "`$.additionalProperties`: must be true or false, got an object "
        "(a schema for additional properties is not supported)"
    ]


def test_additional_properties_without_type_object_is_rejected() -> None:
    assert schema_problems({"additionalProperties": False}) == [
        "`$.additionalProperties`: keyword `additionalProperties` needs `type: \"object\"` "
        "on the same schema"
    ]


def test_items_without_type_array_is_rejected() -> None:
    assert schema_problems({"type": "object", "items": {}}) == [
        '`$.items`: keyword `items` needs `type: "array"` on the same schema'
    ]


def test_items_as_a_list_of_schemas_is_rejected() -> None:
    assert schema_problems({"type": "array", "items": [{}, {}]}) == [
        "`$.items`: must be one schema for every item "
        "(a list of schemas per position is not supported)"
    ]


def test_enum_must_be_a_non_empty_list() -> None:
    assert schema_problems({"enum": []}) == [
        "`$.enum`: must be a non-empty list of scalar values, got []"
    ]
    assert schema_problems({"enum": "a"}) == [
        '`$.enum`: must be a non-empty list of scalar values, got "a"'
    ]


def test_enum_values_must_be_scalars() -> None:
    assert schema_problems({"enum": ["a", ["b"]]}) == [
        "`$.enum[1]`: each `enum` value must be a string, number, boolean or null, got an array"
    ]


def test_enum_values_must_match_the_type() -> None:
    assert schema_problems({"type": "string", "enum": ["a", 1]}) == [
        '`$.enum[1]`: value 1 does not match `type: "string"`'
    ]


def test_enum_values_must_be_lossless() -> None:
    assert schema_problems({"type": "number", "enum": [math.nan]}) == [
        "`$.enum[0]`: nan is not a JSON number; send null or a string instead"
    ]


def test_const_must_be_a_scalar_matching_the_type() -> None:
    assert schema_problems({"const": {"a": 1}}) == [
        "`$.const`: `const` must be a string, number, boolean or null, got an object"
    ]
    assert schema_problems({"type": "boolean", "const": "yes"}) == [
        '`$.const`: value "yes" does not match `type: "boolean"`'
    ]


def test_an_integral_float_const_matches_type_integer() -> None:
    assert schema_problems({"type": "integer", "const": 2.0}) == []


def test_description_and_title_must_be_strings() -> None:
    assert schema_problems({"description": 1, "title": None}) == [
        "`$.description`: must be a string, got a number",
        "`$.title`: must be a string, got null",
    ]


def test_default_and_examples_must_be_lossless_json() -> None:
    assert schema_problems({"default": {"x": -0.0}, "examples": [1, {2, 3}]}) == [
        "`$.default.x`: -0.0 does not survive JSON; use 0.0",
        "`$.examples[1]`: a set (use a sorted list) is not JSON",
    ]


def test_assert_supported_raises_every_problem_with_the_code() -> None:
    schema = {"type": "object", "properties": {"a": {"format": "date"}}, "minProperties": 1}
    with pytest.raises(UnsupportedSchemaError) as caught:
        assert_supported(schema, what='parameters of tool "x"')
    error = caught.value
    assert error.code == "UNSUPPORTED_SCHEMA"
    assert error.problems == (
        f"`$.minProperties`: keyword `minProperties` is not supported ({SUPPORTED})",
        f"`$.properties.a.format`: keyword `format` is not supported ({SUPPORTED})",
    )
    assert str(error) == (
        'parameters of tool "x" is outside the supported JSON Schema subset (2 problems):\n'
        f"  - {error.problems[0]}\n  - {error.problems[1]}"
    )


def test_assert_supported_accepts_a_supported_schema() -> None:
    assert_supported({"type": "object", "properties": {"a": {"type": "string"}}})


# --- hostile schemas: problems, never exceptions --------------------------------------------


@pytest.mark.parametrize(
    ("schema", "problem"),
    [
        (None, "`$`: a schema must be an object, got null"),
        ("object", "`$`: a schema must be an object, got a string"),
        ([{}], "`$`: a schema must be an object, got an array"),
        (object(), "`$`: a schema must be an object, got a value of type object"),
    ],
)
def test_a_non_object_root_is_a_problem(schema: object, problem: str) -> None:
    assert schema_problems(schema) == [problem]


def test_a_non_string_key_is_a_problem() -> None:
    assert schema_problems({1: "x", "type": "string"}) == [
        "`$`: a key of type int is not allowed; schema keys must be strings"
    ]


def test_a_non_string_property_name_is_a_problem() -> None:
    assert schema_problems({"type": "object", "properties": {None: {}}}) == [
        "`$.properties`: a property name of type NoneType is not allowed; property names must "
        "be strings"
    ]


def test_a_dict_subclass_is_refused_without_running_its_methods() -> None:
    class Hostile(dict[str, object]):
        def __getitem__(self, key: str) -> object:
            raise AssertionError("a getter ran")

        def items(self) -> Any:
            raise AssertionError("a getter ran")

    assert schema_problems(Hostile(type="string")) == [
        "`$`: a schema must be an object, got a value of type "
        "test_a_dict_subclass_is_refused_without_running_its_methods.<locals>.Hostile"
    ]


def test_a_cyclic_schema_is_a_problem() -> None:
    schema: dict[str, Any] = {"type": "array"}
    schema["items"] = schema
    assert schema_problems(schema) == ["`$.items`: the schema contains itself (a cycle)"]


def test_a_shared_subschema_is_not_a_cycle() -> None:
    shared = {"type": "string"}
    schema = {"type": "object", "properties": {"a": shared, "b": shared}}
    assert schema_problems(schema) == []


def test_ten_thousand_levels_of_nesting_give_one_depth_problem() -> None:
    schema: dict[str, Any] = {"type": "array"}
    node = schema
    for _ in range(10_000):
        node["items"] = {"type": "array"}
        node = node["items"]
    problems = schema_problems(schema)
    assert len(problems) == 1
    assert problems[0] == (
        f"`${'.items' * MAX_DEPTH}`: the schema is nested deeper than {MAX_DEPTH} levels"
    )


@given(wild_values())
def test_schema_problems_never_raises(schema: object) -> None:
    assert isinstance(schema_problems(schema), list)
    assert isinstance(schema_problems({"type": "object", "properties": {"a": schema}}), list)


# --- validation ------------------------------------------------------------------------------


def test_a_violation_prints_its_message_and_path() -> None:
    violation = Violation("$.limit", "Expected `integer`, got `string`")
    assert str(violation) == "Expected `integer`, got `string` - at `$.limit`"


def test_a_violation_is_frozen() -> None:
    violation = Violation("$", "x")
    with pytest.raises(AttributeError):
        violation.path = "$.y"  # type: ignore[misc]


def test_a_wrong_type_names_both_types_and_the_path() -> None:
    schema = {"type": "object", "properties": {"limit": {"type": "integer"}}}
    assert messages(schema, {"limit": "10"}) == ["Expected `integer`, got `string` - at `$.limit`"]


def test_integer_accepts_a_float_with_an_integral_value() -> None:
    assert validate({"type": "integer"}, 1.0) == []


def test_integer_rejects_a_fractional_float() -> None:
    assert messages({"type": "integer"}, 1.5) == ["Expected `integer`, got `number` - at `$`"]


def test_a_boolean_is_neither_a_number_nor_an_integer() -> None:
    assert messages({"type": "number"}, True) == ["Expected `number`, got `boolean` - at `$`"]
    assert messages({"type": "integer"}, False) == ["Expected `integer`, got `boolean` - at `$`"]


def test_number_accepts_an_int() -> None:
    assert validate({"type": "number"}, 3) == []


def test_a_missing_required_property_is_reported_at_the_object() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "object", "properties": {
        "text": {"type": "string"}}, "required": ["text"]}}}
    assert messages(schema, {"q": {}}) == ['missing required property "text" - at `$.q`']


def test_extra_keys_are_allowed_by_default() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}}}
    assert validate(schema, {"a": "x", "b": 2}) == []


def test_an_undeclared_property_is_reported_when_additional_properties_is_false() -> None:
    schema = {"type": "object", "properties": {"a": {}}, "additionalProperties": False}
    assert messages(schema, {"a": 1, "b": 2}) == [
        'property "b" is not allowed (additionalProperties is false) - at `$`'
    ]


def test_no_default_is_applied() -> None:
    schema = {"type": "object", "properties": {"limit": {"type": "integer", "default": 10}}}
    value: dict[str, Any] = {}
    assert validate(schema, value) == []
    assert value == {}


def test_an_enum_mismatch_lists_the_allowed_values() -> None:
    assert messages({"type": "string", "enum": ["fast", "deep"]}, "slow") == [
        'Expected one of "fast", "deep", got "slow" - at `$`'
    ]


def test_enum_treats_one_and_one_point_zero_as_equal_but_not_true() -> None:
    assert validate({"enum": [1]}, 1.0) == []
    assert messages({"enum": [1]}, True) == ["Expected one of 1, got true - at `$`"]


def test_a_const_mismatch_shows_the_expected_value() -> None:
    assert messages({"const": "v2"}, "v1") == ['Expected "v2", got "v1" - at `$`']


def test_one_of_accepts_a_value_matching_exactly_one_branch() -> None:
    schema = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    assert validate(schema, "x") == []
    assert validate(schema, 3) == []


def test_one_of_matching_no_branch_is_a_violation() -> None:
    # Two branches of the value's type: neither speaks for it.
    schema = {"oneOf": [{"type": "object", "required": ["a"]},
                        {"type": "object", "required": ["b"]}]}
    assert messages(schema, {}) == [
        "Expected exactly one `oneOf` branch to match, got none of 2 - at `$`"
    ]


def test_one_of_of_another_type_lists_the_types_it_takes() -> None:
    schema = {"oneOf": [{"type": "string"}, {"type": "integer"}]}
    assert messages(schema, None) == ["Expected `string` or `integer`, got `null` - at `$`"]
    assert messages({"oneOf": [{"type": "object"}, {"type": "null"}]}, [1] * 10**5) == [
        "Expected `object` or `null`, got `array` - at `$`"
    ]


def test_one_of_of_listed_values_lists_them() -> None:
    # Literal["free", "pro"] | None given an int: the values to write, not the types.
    schema = {"oneOf": [{"type": "string", "enum": ["free", "pro"]}, {"type": "null"}]}
    assert messages(schema, 3) == ['Expected one of "free", "pro", null, got 3 - at `$`']
    assert messages(schema, {"x": 1}) == [
        'Expected one of "free", "pro", null, got `object` - at `$`'
    ]


def test_one_of_speaks_through_the_one_branch_of_the_values_type() -> None:
    # OrderFilter | None given an object: the object branch's own violations, at
    # their own paths, instead of "no branch matched".
    schema = {"oneOf": [
        {"type": "object", "properties": {
            "status": {"type": "array", "items": {"type": "string", "enum": ["a", "b"]}},
            "min": {"type": "number"},
        }},
        {"type": "null"},
    ]}
    assert messages(schema, {"status": ["a", "c"], "min": "1"}) == [
        'Expected one of "a", "b", got "c" - at `$.status[1]`',
        "Expected `number`, got `string` - at `$.min`",
    ]
    assert messages(schema, None) == []
    # Nested: the path runs through every level.
    nested = {"type": "object", "properties": {"f": schema}}
    assert messages(nested, {"f": {"status": ["z"]}}) == [
        'Expected one of "a", "b", got "z" - at `$.f.status[0]`'
    ]
    # The branch's violations are counted against the limit like any others.
    many = validate(schema, {"status": ["z"] * 50})
    assert len(many) == MAX_VIOLATIONS
    assert many.unlisted == 50 - MAX_VIOLATIONS


def test_a_value_of_the_wrong_type_for_listed_values_is_told_the_values() -> None:
    schema = {"type": "object", "properties": {
        "priority": {"type": "string", "enum": ["high", "low", "normal"]},
        "severity": {"type": "integer", "enum": [1, 2, 3, 4]},
        "kind": {"type": "string", "const": "v2"},
    }}
    assert messages(schema, {"priority": 2, "severity": "HIGH", "kind": 2, }) == [
        'Expected one of "high", "low", "normal", got 2 - at `$.priority`',
        'Expected one of 1, 2, 3, 4, got "HIGH" - at `$.severity`',
        'Expected "v2", got 2 - at `$.kind`',
    ]
    assert messages(schema, {"priority": ["high"]}) == [
        'Expected one of "high", "low", "normal", got `array` - at `$.priority`'
    ]


def test_one_of_matching_several_branches_is_a_violation() -> None:
    schema = {"oneOf": [{"type": "number"}, {"type": "integer"}, {"type": "string"}]}
    assert messages(schema, 2) == [
        "Expected exactly one `oneOf` branch to match, got 2 (branches 0, 1) - at `$`"
    ]


def test_nested_values_are_checked_with_their_full_path() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "object", "properties": {
        "b": {"type": "array", "items": {"type": "boolean"}}}}}}
    assert messages(schema, {"a": {"b": [True, "no", False, 0]}}) == [
        "Expected `boolean`, got `string` - at `$.a.b[1]`",
        "Expected `boolean`, got `integer` - at `$.a.b[3]`",
    ]


def test_every_violation_is_reported_not_just_the_first() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "null"}},
              "required": ["a", "b"]}
    assert messages(schema, {"a": 1, "b": 2}) == [
        "Expected `string`, got `integer` - at `$.a`",
        "Expected `null`, got `integer` - at `$.b`",
    ]


IDS: dict[str, Any] = {"type": "array", "items": {"type": "integer"}}


@given(st.lists(st.booleans(), max_size=3 * MAX_VIOLATIONS))
def test_the_violations_described_are_the_first_ones_and_the_rest_are_counted(
    bad: list[bool],
) -> None:
    value = ["a" if is_bad else i for i, is_bad in enumerate(bad)]
    bad_at = [i for i, is_bad in enumerate(bad) if is_bad]
    found = validate(IDS, value)
    assert [v.path for v in found] == [f"$[{i}]" for i in bad_at[:MAX_VIOLATIONS]]
    assert found.unlisted == len(bad_at) - len(found)
    lines = found.lines()
    if found.unlisted:
        assert lines[-1] == (
            f"and {found.unlisted} more violation{'s' if found.unlisted > 1 else ''} "
            f"(only the first {MAX_VIOLATIONS} are listed)"
        )
    assert len(lines) == len(found) + (1 if found.unlisted else 0) <= MAX_VIOLATIONS + 1


def test_a_million_bad_items_give_a_bounded_list_and_a_count() -> None:
    found = validate(IDS, ["a"] * 1_000_000)
    assert len(found) == MAX_VIOLATIONS
    assert found.unlisted == 1_000_000 - MAX_VIOLATIONS
    assert len("; ".join(found.lines())) < 100 * (MAX_VIOLATIONS + 1)


@given(st.data())
def test_a_capped_walk_finds_the_first_violations_of_the_full_walk(data: st.DataObject) -> None:
    schema = data.draw(subset_schemas(), label="schema")
    value = data.draw(st.one_of(values_for(schema), wild_values(max_leaves=12)), label="value")
    limit = data.draw(st.integers(min_value=0, max_value=4), label="limit")
    every = _violations(schema, value, limit=10**9)
    capped = _violations(schema, value, limit=limit)
    assert capped == every[:limit]
    assert capped.unlisted == len(every) - len(capped)


def test_arguments_that_are_not_an_object_fail_the_root_type() -> None:
    assert messages({"type": "object"}, "[1]") == ["Expected `object`, got `string` - at `$`"]


def test_non_json_values_fail_their_type_without_raising() -> None:
    assert messages({"type": "array"}, (1, 2)) == []  # a frozen array is an array
    assert messages({"type": "array"}, {1, 2}) == ["Expected `array`, got `set` - at `$`"]
    assert messages({"type": "string"}, b"x") == ["Expected `string`, got `bytes` - at `$`"]


@given(subset_schemas(), wild_values())
def test_validate_is_total(schema: dict[str, Any], value: object) -> None:
    assert isinstance(validate(schema, value), list)


def test_validate_survives_a_cyclic_value() -> None:
    loop: dict[str, Any] = {}
    loop["a"] = loop
    schema = {"type": "object", "properties": {"a": {"type": "object", "properties": {
        "a": {"type": "string"}}}}}
    assert messages(schema, loop) == ["Expected `string`, got `object` - at `$.a.a`"]


def test_validate_walks_the_deepest_supported_schema_without_recursion() -> None:
    # Each level is `items` (one JSON level) holding `oneOf` (two more).
    levels = MAX_DEPTH // 3 - 1
    schema: dict[str, Any] = {"type": "array"}
    value: list[Any] = []
    node, item = schema, value
    for _ in range(levels):
        node["items"] = {"oneOf": [{"type": "null"}, {"type": "array"}]}
        node = node["items"]["oneOf"][1]
        inner: list[Any] = []
        item.append(inner)
        item = inner
    node["items"] = {"type": "integer"}
    item.append("leaf")
    assert schema_problems(schema) == []
    # Each level's array branch speaks for the value, down to the leaf.
    assert validate(schema, value) == [
        Violation("$" + "[0]" * (levels + 1), "Expected `integer`, got `string`")
    ]


def test_validate_does_not_descend_into_a_deep_value_the_schema_does_not_describe() -> None:
    value: list[Any] = []
    node = value
    for _ in range(100_000):
        node.append([])
        node = node[0]
    assert validate({"type": "array"}, value) == []


@given(json_values())
def test_the_empty_schema_accepts_every_json_value(value: JsonValue) -> None:
    assert validate({}, value) == []


def test_violations_encode_as_json() -> None:
    found = validate({"type": "string"}, 1)
    assert msgspec.json.encode(found) == (
        b'[{"path":"$","message":"Expected `string`, got `integer`"}]'
    )
