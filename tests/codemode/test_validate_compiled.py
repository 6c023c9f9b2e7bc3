"""A frozen schema's own check gives exactly the verdicts and violations of the schema walk.

A frozen schema (every tool's parameters and output schema, ``run_code``'s own)
is turned once into a tree of small checks, kept while the schema lives, instead
of having its mappings walked again for every value. It must answer exactly as
the walk does: the same verdict, and (since a value it does not accept is judged
by the walk) the same violations, paths, messages and count of unlisted ones,
for any frozen schema, inside the supported subset or not, and any value.
"""

from __future__ import annotations

import gc
import threading
import weakref
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.lossless import FrozenDict, JsonValue, materialize
from codemode._offload import WorkAbandoned
from codemode._schema import schema_problems
from codemode._validate import (
    _ACCEPT_DEPTH,
    MAX_VIOLATIONS,
    STOP_CHECK_EVERY,
    Violations,
    _accepts,
    _Run,
    _TooDeep,
    _violations,
    validate,
)
from codemode._validate import verdict as quick_verdict
from codemode._validate_quick import _COMPILED, _seen_once
from codemode._validate_quick import compiled as _compiled
from codemode.code_mode._wire import RUN_CODE_OUTPUT_SCHEMA, RUN_CODE_PARAMETERS
from tests.strategies import json_scalars, json_values, subset_schemas, values_for, wild_values


def walked(schema: Any, value: object) -> Violations:
    """What :func:`validate` answers by walking the schema: the quick walk, then the full one."""
    run = _Run(None)
    try:
        if _accepts(schema, value, _ACCEPT_DEPTH, run):
            return Violations()
    except Exception:
        pass
    return _violations(schema, value, run=run)


def walk_verdict(schema: Any, value: object) -> bool | None:
    """The quick walk's verdict; ``None`` when it raised (the full walk then judges)."""
    try:
        return _accepts(schema, value, _ACCEPT_DEPTH, _Run(None))
    except Exception:
        return None


def frozen(schema: dict[str, Any]) -> FrozenDict:
    made = materialize(schema, freeze=True)
    assert isinstance(made, FrozenDict)
    return made


def assert_same(schema: FrozenDict, value: object) -> None:
    expected = walked(schema, value)
    check = _compiled(schema)  # built now: validate() builds it on the second sighting
    found = validate(schema, value)
    assert list(found) == list(expected)
    assert found.unlisted == expected.unlisted
    assert found.lines() == expected.lines()
    # The violation walk alone (walked() asks the quick walk first): a quick check
    # that accepts a value the walk refuses would let it through unchecked.
    alone = _violations(schema, value, run=_Run(None))
    verdict = walk_verdict(schema, value)
    if verdict:
        assert not alone
    # verdict() is the quick check's answer: a yes that validate() trusts, or
    # what only validate()'s walk can judge (a no, or None: it could not tell).
    told = quick_verdict(schema, value)
    if told:
        assert not alone
    if not alone and not schema_problems(schema):
        assert told is not False
    if check is not None:
        try:
            accepted: bool | None = check(value, None)
        except Exception:
            accepted = None
        if accepted:
            assert not alone
        # Where the walk raised (a non-JSON value's odd key), the check may say
        # no or raise: either way the full walk judges the value.
        assert accepted is verdict or (verdict is None and not accepted)


# --- random schemas and values -----------------------------------------------------------

_NAMES = st.sampled_from(["a", "b", "c", "odd key"])
_TYPES = st.sampled_from(
    ["string", "number", "integer", "boolean", "null", "object", "array", "bogus"]
)


def _loose_node(children: st.SearchStrategy[Any] | None) -> st.SearchStrategy[dict[str, Any]]:
    """Any keyword with any value: well-formed (mostly) and not, inside the subset and not."""
    optional: dict[str, st.SearchStrategy[Any]] = {
        "type": _TYPES | st.lists(_TYPES, max_size=2),
        "enum": st.lists(json_scalars | json_values(max_leaves=3), max_size=4) | json_scalars,
        "const": json_scalars | json_values(max_leaves=3),
        "description": st.text(max_size=3),
    }
    if children is not None:
        optional.update({
            "properties": st.dictionaries(_NAMES, children | json_scalars, max_size=4)
            | json_scalars,
            "required": st.lists(_NAMES | json_scalars, max_size=3) | json_scalars,
            "additionalProperties": st.booleans() | json_scalars | children,
            "items": children | st.lists(children, max_size=2) | json_scalars,
            "oneOf": st.lists(children | json_scalars, max_size=3) | json_scalars,
        })
    return st.fixed_dictionaries({}, optional=optional)


loose_schemas = st.recursive(
    _loose_node(None), lambda children: _loose_node(children), max_leaves=10
)

#: Scalars on the edges of the type and equality rules.
_EDGES: list[JsonValue] = [
    0, 1, -1, 1.0, 1.5, -0.0, 0.0, True, False, None, "", "a", "1", 2**53 + 1, 2.0**53
]
_EDGE_SCALARS: st.SearchStrategy[object] = st.sampled_from(_EDGES)
#: Those a schema may hold (lossless JSON).
_EDGE_SCALARS_LIST: st.SearchStrategy[JsonValue] = st.sampled_from(
    [0, 1, -1, 1.0, 1.5, 0.0, True, False, None, "", "a", "1", 2.0**53]
)
_WILD_SCALARS = st.sampled_from(
    [float("inf"), float("nan"), b"a", (), frozenset(), {1}, object()]
)


_PLAIN_TYPES = st.sampled_from(["string", "number", "integer", "boolean", "null"])
_tool_leaves = st.one_of(
    _PLAIN_TYPES.map(lambda name: {"type": name}),
    _PLAIN_TYPES.map(lambda name: {"type": name, "description": name}),
    st.lists(st.sampled_from(["a", "b", "1", ""]), min_size=1, max_size=3, unique=True).map(
        lambda values: {"type": "string", "enum": values}
    ),
    st.lists(_EDGE_SCALARS_LIST, min_size=1, max_size=3).map(lambda values: {"enum": values}),
    _EDGE_SCALARS_LIST.map(lambda value: {"const": value}),
    st.just({}),
)


@st.composite
def _tool_object(draw: st.DrawFn, children: st.SearchStrategy[dict[str, Any]]) -> dict[str, Any]:
    properties = draw(st.dictionaries(_NAMES, children, min_size=1, max_size=4))
    node: dict[str, Any] = {"type": "object", "properties": properties}
    node["required"] = draw(st.lists(st.sampled_from(sorted(properties)), unique=True))
    if draw(st.booleans()):
        node["additionalProperties"] = draw(st.booleans())
    return node


#: Schemas shaped as tools' are: objects of typed properties, lists of them, ``X | None``.
tool_schemas = st.recursive(
    _tool_leaves,
    lambda children: _tool_object(children)
    | children.map(lambda items: {"type": "array", "items": items})
    | children.map(lambda branch: {"oneOf": [branch, {"type": "null"}]})
    | st.lists(children, min_size=2, max_size=3).map(lambda branches: {"oneOf": branches}),
    max_leaves=16,
)
tool_objects = _tool_object(_tool_leaves | tool_schemas)

#: Values whose keys are the schemas' property names, so that objects often match.
_named_values = st.recursive(
    json_scalars | st.sampled_from(["a", 1, 1.0, 0, True, False, None, "", 2.5]),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(_NAMES, children, max_size=4),
    max_leaves=12,
)


@st.composite
def near_values(draw: st.DrawFn, schema: object, depth: int = 0) -> object:
    """A value made from ``schema``'s own keywords: a likely match, or a near miss."""
    if not isinstance(schema, dict) or depth > 6:
        return draw(_EDGE_SCALARS)
    # The value's shape follows the schema's (mostly), its scalars sit on the edges.
    made: list[st.SearchStrategy[object]] = []
    properties = schema.get("properties")
    if schema.get("type") == "object" or isinstance(properties, dict):
        subs = dict(properties) if isinstance(properties, dict) else {}
        made.append(st.fixed_dictionaries({}, optional={
            name: near_values(subs.get(name), depth + 1) for name in [*subs, "a", "x"]
        }))
    if schema.get("type") == "array" or "items" in schema:
        element = near_values(schema.get("items"), depth + 1)
        made.append(st.lists(element, max_size=4))
        made.append(st.lists(element, max_size=3).map(tuple))
    branches = schema.get("oneOf")
    if isinstance(branches, (list, tuple)) and branches:
        made.append(st.sampled_from(list(branches)).flatmap(
            lambda branch: near_values(branch, depth + 1)
        ))
    choices = schema.get("enum")
    if isinstance(choices, (list, tuple)) and choices:
        made.append(st.sampled_from(list(choices)))
    if "const" in schema:
        made.append(st.just(schema["const"]))
    if not made or draw(st.sampled_from(range(5))) == 0:
        return draw(_EDGE_SCALARS)
    return draw(st.one_of(made))


def _maybe_frozen(value: JsonValue, freeze: bool) -> object:
    return materialize(value, freeze=True) if freeze else value


@given(st.data())
def test_a_frozen_subset_schema_is_judged_as_by_the_walk(data: st.DataObject) -> None:
    schema = data.draw(subset_schemas(max_leaves=12), label="schema")
    value = data.draw(
        st.one_of(values_for(schema), json_values(max_leaves=6), _named_values), label="value"
    )
    made = frozen(schema)
    # A supported schema no deeper than the quick walk follows has its own check.
    assert _compiled(made) is not None
    assert_same(made, _maybe_frozen(value, data.draw(st.booleans(), label="frozen value")))


@given(subset_schemas(max_leaves=12), wild_values(max_leaves=8))
def test_any_value_against_a_frozen_subset_schema_is_judged_as_by_the_walk(
    schema: dict[str, Any], value: object
) -> None:
    assert_same(frozen(schema), value)


@settings(max_examples=300)
@given(loose_schemas, st.one_of(_named_values, json_values(max_leaves=6), wild_values(6)))
def test_any_frozen_schema_is_judged_as_by_the_walk(
    schema: dict[str, Any], value: object
) -> None:
    assert_same(frozen(schema), value)


@settings(max_examples=500)
@given(st.data())
def test_near_misses_are_judged_as_by_the_walk(data: st.DataObject) -> None:
    schema = data.draw(st.one_of(
        loose_schemas, subset_schemas(max_leaves=12), tool_schemas, tool_objects, tool_objects
    ), label="schema")
    value = data.draw(near_values(schema), label="value")
    assert_same(frozen(schema), value)
    if data.draw(st.booleans(), label="frozen value"):
        try:
            value = materialize(value, freeze=True, accept_tuples=True)
        except Exception:
            return  # not JSON
        assert_same(frozen(schema), value)


@settings(max_examples=200)
@given(st.data())
def test_odd_values_near_a_schema_are_judged_as_by_the_walk(data: st.DataObject) -> None:
    schema = data.draw(st.one_of(
        loose_schemas, subset_schemas(max_leaves=12), tool_schemas, tool_objects, tool_objects
    ), label="schema")
    value = data.draw(near_values(schema), label="value")
    odd = data.draw(_WILD_SCALARS, label="odd")
    # The odd scalar in place of the value, of one of its items, or as a key.
    if isinstance(value, dict) and value:
        value = {**value, next(iter(value)): odd}
        if data.draw(st.booleans(), label="as a key"):
            value = {**value, odd if type(odd).__hash__ is not None else 1.5: 1}
    elif isinstance(value, list) and value:
        value = [*value[:-1], odd]
    else:
        value = odd
    assert_same(frozen(schema), value)


@settings(max_examples=300)
@given(st.data())
def test_a_flat_object_is_judged_as_by_the_walk(data: st.DataObject) -> None:
    # Objects of typed properties, against items with fewer, as many or more keys.
    properties = data.draw(
        st.dictionaries(_NAMES, _tool_leaves | tool_schemas, min_size=1, max_size=4),
        label="properties",
    )
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    schema["required"] = data.draw(
        st.lists(st.sampled_from(sorted(properties)), unique=True), label="required"
    )
    schema["additionalProperties"] = data.draw(st.booleans(), label="open")
    names = st.sampled_from([*properties, "x"])
    value = data.draw(st.dictionaries(names, _EDGE_SCALARS, max_size=5), label="value")
    assert_same(frozen(schema), value)
    assert_same(frozen({"type": "array", "items": schema}), [value, value])


_LONG = 2 * STOP_CHECK_EVERY

#: Values on the edges of each rule, each against the schema it tests.
EDGE_CASES: list[tuple[dict[str, Any], object]] = [
    # ``X | None`` where X allows null too: two branches match.
    *[({"oneOf": [branch, {"type": "null"}]}, value)
      for branch in ({}, {"enum": [None, 1]}, {"const": None}, {"type": "null"},
                     {"type": "string"}, {"oneOf": [{"type": "null"}, {"type": "integer"}]})
      for value in (None, 1, "a", 1.0, True)],
    # Repeated required names: the walk counts them.
    ({"type": "object", "required": ["a", "a"]}, {"a": 1}),
    ({"type": "object", "required": ["a", "a"]}, {"a": 1, "b": 2}),
    ({"type": "object", "properties": {"a": {}}, "required": ["a", "b"]}, {"a": 1, "c": 2}),
    # Allowed values that are containers, or numbers and booleans side by side.
    *[({"enum": [[1, 2], {"a": 1}, 1, "x"]}, value)
      for value in ([1, 2], (1, 2), [1.0, 2], {"a": 1}, {"a": True}, 1.0, True, "x", None)],
    *[({"enum": [True, 0, None]}, value) for value in (1, False, 0.0, -0.0, None, True)],
    *[({"const": value}, other)
      for value in (1, True, 0, False, None, "1", [1], {"a": 1})
      for other in (1, 1.0, True, 0, False, None, "1", [1], [True], {"a": 1})],
    # Integers and numbers: integral floats are integers, infinities are neither.
    *[({"type": name}, value)
      for name in ("integer", "number")
      for value in (1, 1.0, 1.5, True, float("inf"), float("nan"), 2**64, "1")],
    # Closed objects, and properties of the value's side or of the schema's.
    ({"type": "object", "properties": {"a": {}}, "additionalProperties": False}, {"b": 1}),
    ({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                                       "c": {"type": "integer"}}}, {"a": 1}),
    ({"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "string"},
                                       "c": {"type": "integer"}}}, {"c": "x"}),
    # Long arrays, with the bad item past the first stop check.
    *[({"type": "array", "items": items}, [good] * 1500 + [bad] + [good] * 600)
      for items, good, bad in (({"type": "string"}, "a", 1), ({"type": "integer"}, 1, 1.5),
                               ({"enum": ["a", "b"]}, "a", "c"))],
    ({"type": "array", "items": {"type": "string"}}, ["a"] * _LONG),
]


@pytest.mark.parametrize(("schema", "value"), EDGE_CASES)
def test_values_on_the_edges_of_each_rule_are_judged_as_by_the_walk(
    schema: dict[str, Any], value: object
) -> None:
    made = frozen(schema)
    assert _compiled(made) is not None
    assert_same(made, value)
    assert_same(frozen({"type": "object", "properties": {"k": schema}}), {"k": value})


# --- what the walk's bounds and limits become ---------------------------------------------

ORDER = frozen({
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "status": {"type": "string", "enum": ["pending", "shipped"]},
        "items": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {
                    "price": {"type": "number"},
                    "note": {"oneOf": [{"type": "string"}, {"type": "null"}]},
                },
                "required": ["price"],
                "additionalProperties": False,
            },
        },
    },
    "required": ["id", "items"],
})


def _order(items: list[object]) -> JsonValue:
    return {"id": "o1", "status": "shipped", "items": items}  # type: ignore[dict-item]


@pytest.mark.parametrize(
    ("bad_at", "count"),
    [(None, 3000), (3, 10), (STOP_CHECK_EVERY + 5, 3000), (2999, 3000)],
    ids=["all-good", "short", "past-first-stop-check", "last"],
)
def test_a_long_array_against_a_frozen_schema(bad_at: int | None, count: int) -> None:
    items: list[object] = [{"price": 1.5, "note": None} for _ in range(count)]
    if bad_at is not None:
        items[bad_at] = {"price": "1.5", "extra": 1}
    value = _order(items)
    assert_same(ORDER, value)
    found = validate(ORDER, value)
    if bad_at is None:
        assert found == []
    else:
        assert [str(v) for v in found] == [
            'property "extra" is not allowed (additionalProperties is false)'
            f" - at `$.items[{bad_at}]`",
            f"Expected `number`, got `string` - at `$.items[{bad_at}].price`",
        ]


def test_many_violations_are_listed_and_counted_as_by_the_walk() -> None:
    value = _order([{"price": "x"}] * 500)
    found = validate(ORDER, value)
    assert len(found) == MAX_VIOLATIONS
    assert found.unlisted == 500 - MAX_VIOLATIONS
    assert found.lines() == walked(ORDER, value).lines()


def test_a_stop_flag_set_before_a_long_array_stops_the_check() -> None:
    stop = threading.Event()
    stop.set()
    with pytest.raises(WorkAbandoned):
        validate(ORDER, _order([{"price": 1}] * 10), stop=stop)
    check = _compiled(ORDER)
    assert check is not None
    # Checked before items 0, STOP_CHECK_EVERY, ..., as the walk does.
    for count in (1, STOP_CHECK_EVERY + 1):
        with pytest.raises(WorkAbandoned):
            check(_order([{"price": 1}] * count), stop)


def _nested(levels: int, leaf: Any, *, wrap: str) -> Any:
    node = leaf
    for _ in range(levels):
        node = {"type": "array", "items": node} if wrap == "schema" else [node]
    return node


@pytest.mark.parametrize("levels", [_ACCEPT_DEPTH - 1, _ACCEPT_DEPTH, _ACCEPT_DEPTH + 8])
@pytest.mark.parametrize("leaf", [1, "one"])
def test_a_schema_deeper_than_the_quick_walk_follows_is_judged_by_the_walk(
    levels: int, leaf: object
) -> None:
    deep = _nested(levels, {"type": "integer"}, wrap="schema")
    schema = frozen({"oneOf": [{"type": "array"}, deep]})
    value = _nested(levels, leaf, wrap="value")
    assert_same(schema, value)
    # Past the depth the walk follows, there is no check of its own.
    assert (_compiled(frozen(deep)) is None) is (levels >= _ACCEPT_DEPTH)
    with pytest.raises(_TooDeep):
        _accepts(schema, value, _ACCEPT_DEPTH)
    # The quick verdict cannot tell: only the walk can.
    assert quick_verdict(schema, value) is None
    assert_same(frozen(deep), value)


# --- which schemas have a check, and for how long ------------------------------------------


def test_run_code_s_own_schemas_have_their_checks() -> None:
    assert _compiled(RUN_CODE_PARAMETERS) is not None  # type: ignore[arg-type]
    assert validate(RUN_CODE_PARAMETERS, {"code": "return 1", "description": "Add"}) == []
    assert [str(v) for v in validate(RUN_CODE_PARAMETERS, {"code": 1})] == [
        'missing required property "description" - at `$`',
        "Expected `string`, got `integer` - at `$.code`",
    ]
    output = frozen(dict(RUN_CODE_OUTPUT_SCHEMA))
    assert _compiled(output) is not None
    assert validate(output, {"logs": ["a"], "result": {"x": [1]}}) == []


def test_a_schema_with_a_part_that_may_change_is_walked_each_time() -> None:
    # Only the top is frozen: its properties may still change, so no check is kept.
    properties: dict[str, JsonValue] = {"n": {"type": "integer"}}
    schema = FrozenDict({"type": "object", "properties": properties})
    assert _compiled(schema) is None
    assert validate(schema, {"n": "x"}) != []
    properties["n"] = {"type": "string"}
    assert validate(schema, {"n": "x"}) == []
    # A plain schema is always walked.
    assert validate({"type": "object", "properties": properties}, {"n": 1}) != []


def test_a_schema_s_check_is_built_once_and_goes_with_the_schema() -> None:
    schema = frozen({"type": "object", "properties": {"n": {"type": "integer"}}})
    # A schema validated with once is walked; its check is built the second time.
    assert validate(schema, {"n": 1}) == []
    assert _COMPILED[id(schema)][1] is _seen_once
    assert validate(schema, {"n": 1}) == []
    check = _COMPILED[id(schema)][1]
    assert check is not None
    assert check is not _seen_once
    assert check is not None
    assert _compiled(schema) is check
    # An equal schema is another schema: it has a check of its own.
    assert _compiled(frozen(dict(schema))) is not check
    collected = weakref.ref(check)
    del schema, check
    gc.collect()
    assert collected() is None
