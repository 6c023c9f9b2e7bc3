"""Tool definitions: the raw form, the typed form and their validation at construction."""

from __future__ import annotations

import dataclasses
import datetime  # noqa: TC003 - @tool resolves annotations at run time
import enum
import json
import math
import sys
import threading
from typing import TYPE_CHECKING, Annotated, Any, Literal, NotRequired, TypedDict

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import FrozenDict, JsonValue, materialize
from codemode import (
    ToolArgsError,
    ToolDefinition,
    ToolOutput,
    ToolOutputError,
    UnsupportedSchemaError,
    define_tool,
    tool,
)
from codemode._execution import ExecutionToken, ToolExecution, ToolRunContext
from codemode._results import TextBlock, ToolSuccess
from codemode._signal import AbortSignal
from codemode._tools import (
    _compact_json,
    _fast_pretty_json,
    _layout_json,
    pretty_json,
    render_json,
)
from codemode._validate import validate
from tests.strategies import json_values

if TYPE_CHECKING:
    from types import FrameType

# --- helpers ----------------------------------------------------------------------------------


async def _reply(args: Any, ctx: ToolRunContext) -> JsonValue:
    return "ok"


def raw(name: str = "echo", **overrides: Any) -> ToolDefinition:
    fields: dict[str, Any] = {
        "name": name,
        "description": f"tool {name}",
        "parameters": {"type": "object", "properties": {"text": {"type": "string"}}},
        "output": ToolOutput(schema={"type": "string"}),
        "execute": _reply,
    }
    fields.update(overrides)
    return define_tool(**fields)


def context(name: str = "t", arguments: JsonValue = None) -> ToolRunContext:
    signal = AbortSignal()
    execution = ToolExecution(
        call_id="c1",
        root_call_id="c1",
        name=name,
        arguments=arguments,
        agent=None,
        parent=None,
        token=ExecutionToken(),
        signal=signal,
    )
    return ToolRunContext(execution, signal)


async def run(definition: ToolDefinition, arguments: dict[str, Any]) -> object:
    frozen = materialize(arguments, freeze=True)
    return await definition.execute(frozen, context(definition.name, frozen))


def plain(value: object) -> Any:
    """A thawed copy of a frozen snapshot, for comparing with literals."""
    return materialize(value, accept_tuples=True)


def walk(node: object) -> list[object]:
    """Every dict key and value in a JSON structure (to look for stray keywords)."""
    out: list[object] = []
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            out.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return out


# Types used by the typed-form tests live at module level so that their
# annotations resolve.


class Hit(msgspec.Struct):
    """One search hit."""

    title: str
    score: float = 0.0


class Filters(TypedDict):
    mode: Literal["fast", "slow"]


@dataclasses.dataclass
class Window:
    start: int
    end: int


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


class Cat(msgspec.Struct, tag=True):
    lives: int


class Dog(msgspec.Struct, tag=True):
    name: str


class Tree(msgspec.Struct):
    children: list[Tree]


# --- the raw form -----------------------------------------------------------------------------


def test_raw_definition_keeps_its_parameters_as_written() -> None:
    definition = raw(parameters={"type": "object", "properties": {"path": {"type": "string"}},
                                 "required": ["path"]})
    assert plain(definition.parameters) == {
        "type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]
    }


async def test_raw_tools_are_not_argument_validated() -> None:
    seen: list[object] = []

    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        seen.append(args)
        return "reached"

    definition = raw(
        parameters={"type": "object", "properties": {"path": {"type": "string"}},
                    "required": ["path"]},
        execute=body,
    )
    assert await run(definition, {"path": 5}) == "reached"
    assert seen == [{"path": 5}]


def test_schema_snapshots_do_not_follow_later_changes_to_the_input() -> None:
    properties: dict[str, Any] = {"text": {"type": "string"}}
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    output = {"type": "string"}
    definition = raw(parameters=schema, output=ToolOutput(schema=output))
    properties["text"]["type"] = "integer"
    properties["extra"] = {"type": "string"}
    output["type"] = "null"
    assert plain(definition.parameters) == {
        "type": "object", "properties": {"text": {"type": "string"}}
    }
    assert definition.output.schema == {"type": "string"}


def test_stored_schemas_are_read_only() -> None:
    definition = raw()
    assert isinstance(definition.parameters, FrozenDict)
    with pytest.raises(TypeError, match="frozen snapshot"):
        definition.parameters["type"] = "array"


def test_a_deep_schema_is_snapshotted_without_recursion() -> None:
    depth = 200
    nested: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        nested = {"oneOf": [nested, {"type": "null"}]}
    limit = sys.getrecursionlimit()
    # Far fewer frames than the schema has levels: a recursive copy would fail.
    sys.setrecursionlimit(len(_frames()) + 120)
    try:
        definition = raw(parameters={"type": "object", "properties": {"nested": nested}})
    finally:
        sys.setrecursionlimit(limit)
    cursor = plain(definition.parameters)["properties"]["nested"]
    layers = 0
    while "oneOf" in cursor:
        cursor = cursor["oneOf"][0]
        layers += 1
    assert (layers, cursor) == (depth, {"type": "string"})


def _frames() -> list[object]:
    frame: FrameType | None = sys._getframe()
    out: list[object] = []
    while frame is not None:
        out.append(frame)
        frame = frame.f_back
    return out


def test_a_raw_registration_that_is_not_lossless_json_is_rejected() -> None:
    with pytest.raises(UnsupportedSchemaError, match=r"not lossless JSON.*at `\$\.default`"):
        raw(parameters={"type": "object", "default": math.nan})


def test_parameters_outside_the_subset_list_every_problem() -> None:
    schema = {
        "type": "object",
        "properties": {"n": {"type": "integer", "minimum": 0}, "s": {"type": "string",
                                                                      "pattern": "x"}},
    }
    with pytest.raises(UnsupportedSchemaError) as info:
        raw(parameters=schema)
    assert len(info.value.problems) == 2
    assert "tool 'echo' parameters" in str(info.value)


def test_parameters_must_be_object_rooted() -> None:
    with pytest.raises(UnsupportedSchemaError, match=r'root must declare "type": "object"'):
        raw(parameters={"type": "array"})


def test_an_output_schema_outside_the_subset_is_rejected() -> None:
    with pytest.raises(UnsupportedSchemaError, match="output schema"):
        ToolOutput(schema={"type": "string", "format": "uri"})


def test_a_missing_output_declaration_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"must declare output=ToolOutput\(schema=\.\.\., render"):
        raw(output=None)


@pytest.mark.parametrize("timeout", [0, -5, math.inf, math.nan, True, "1"])
def test_a_timeout_that_is_not_positive_and_finite_is_rejected(timeout: object) -> None:
    expected = (
        "tool 'echo': timeout must be a positive finite number of seconds, "
        f"got timeout={timeout!r}"
    )
    with pytest.raises(ValueError, match=f"^{__import__('re').escape(expected)}$"):
        raw(timeout=timeout)


def test_a_positive_finite_timeout_is_kept_and_none_is_the_default() -> None:
    assert (raw(timeout=2.5).timeout, raw().timeout) == (2.5, None)


@pytest.mark.parametrize("name", ["", 7])
def test_a_tool_needs_a_non_empty_string_name(name: object) -> None:
    with pytest.raises((TypeError, ValueError), match=r"tool name must"):
        raw(name=name)  # type: ignore[arg-type]


def test_a_non_callable_callback_is_rejected_naming_it() -> None:
    with pytest.raises(TypeError, match=r"^tool 'echo': present_call must be callable"):
        raw(present_call="card")


def test_definitions_are_frozen() -> None:
    definition = raw()
    with pytest.raises(dataclasses.FrozenInstanceError):
        definition.name = "other"  # type: ignore[misc]


# --- rendering --------------------------------------------------------------------------------


def test_the_default_render_shows_a_string_raw() -> None:
    assert render_json({}, 'say "hi"') == (TextBlock(text='say "hi"'),)


@pytest.mark.parametrize(
    ("value", "text"),
    [({"n": 42, "ok": True}, '{\n  "n": 42,\n  "ok": true\n}'), ({}, "{}"), ([], "[]"),
     (None, "null")],
)
def test_the_default_render_pretty_prints_other_values(value: JsonValue, text: str) -> None:
    assert render_json({}, value) == (TextBlock(text=text),)


def test_pretty_json_writes_containers_deeper_than_five_levels_compactly() -> None:
    value = {"a": {"b": {"c": {"d": {"e": {"f": [1, 2]}}}}}}
    lines = pretty_json(value).splitlines()
    assert lines[5] == '          "e": {"f":[1,2]}'
    assert max(len(line) - len(line.lstrip()) for line in lines) == 10


@given(json_values())
def test_pretty_json_reads_back_as_the_same_value(value: JsonValue) -> None:
    assert json.loads(pretty_json(value)) == value


def _nest(value: JsonValue, depth: int, key: str | None) -> JsonValue:
    for _ in range(depth):
        value = [value] if key is None else {key: value}
    return value


#: Values around the depth where layout turns compact, with floats of every magnitude.
_layout_values = st.builds(
    _nest,
    json_values(max_leaves=12) | st.floats(allow_nan=False, allow_infinity=False, min_value=0),
    st.integers(min_value=0, max_value=7),
    st.none() | st.text(max_size=3),
)


@given(json_values(max_leaves=60) | _layout_values)
def test_the_fast_layout_equals_the_general_writer_or_declines(value: JsonValue) -> None:
    fast = _fast_pretty_json(value)
    assert fast is None or fast == _layout_json(value)


@given(json_values(max_leaves=40) | _layout_values)
def test_a_subtree_past_the_indentation_cap_is_written_as_json_writes_it(
    value: JsonValue,
) -> None:
    # Past the cap a whole subtree is written in one C call (msgspec where its
    # floats agree with json's): it must read exactly as json's compact text.
    assert _compact_json(value) == json.dumps(value, ensure_ascii=False, separators=(",", ":"))


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_pretty_json_writes_every_float_as_json_does(number: float) -> None:
    assert pretty_json(number) == json.dumps(number)


@pytest.mark.parametrize("number", [1e16, 1.5e300, 1e-05, 3.7e-05, 1e-07, 0.0001, 12.5, 1.0])
def test_pretty_json_writes_floats_near_the_exponent_thresholds_as_json_does(
    number: float,
) -> None:
    assert pretty_json({"x": [number]}) == json.dumps({"x": [number]}, indent=2)


@pytest.mark.parametrize(
    "value",
    [{"id": 1, "title": "A book", "tags": ["x", "y"], "price": 12.5, "ok": None}, 42, True,
     [{"a": {"b": {"c": [1]}}}], "line\nbreak \u2028 \x7f"],
)
def test_shallow_values_take_the_fast_layout(value: JsonValue) -> None:
    assert _fast_pretty_json(value) == _layout_json(value)


def test_a_value_nested_deeper_than_five_levels_is_laid_out_by_the_general_writer() -> None:
    value = _nest([1, 2], 5, "k")
    assert _fast_pretty_json(value) is None
    assert pretty_json(value).splitlines()[5] == '          "k": [1,2]'


def test_a_value_nested_past_the_encoders_limit_renders_compactly_without_recursion() -> None:
    value = _nest([], 100_000, None)
    text = pretty_json(value)
    assert text.replace("\n", "").replace(" ", "") == "[" * 100_001 + "]" * 100_001
    assert len(text) < 3 * 100_001


# --- the typed form: schemas ------------------------------------------------------------------


@tool
async def search(query: str, limit: int = 10) -> list[Hit]:
    """Search the catalogue.

    Best matches first; an empty
    query finds nothing.

    Args:
        query: what to look for,
            in a few words.
        limit (int): at most this many hits.
    """
    return [Hit(title=query)] * limit


def test_the_typed_form_derives_required_and_optional_parameters() -> None:
    assert plain(search.parameters) == {
        "type": "object",
        "properties": {
            "query": {"type": "string", "description": "what to look for, in a few words."},
            "limit": {"type": "integer", "description": "at most this many hits.",
                      "default": 10},
        },
        "required": ["query"],
        "additionalProperties": False,
    }


def test_the_description_is_the_docstring_but_its_args_section() -> None:
    assert (search.name, search.description) == (
        "search",
        "Search the catalogue.\n\nBest matches first; an empty query finds nothing.",
    )


def test_what_the_docstring_says_after_its_args_section_is_described_too() -> None:
    @tool
    def refund(order_id: str, amount: float) -> str:
        """Refund an order.

        Refunds above 500 go to review.

        Args:
            order_id: the order,
                e.g. "o-1".
            amount: above 0.

        Raises:
            RefundDenied: the order is not paid.
            LookupError: no such order.
        """
        return order_id

    assert refund.description == (
        "Refund an order.\n\nRefunds above 500 go to review.\n\n"
        "Raises: RefundDenied: the order is not paid. LookupError: no such order."
    )
    assert plain(refund.parameters)["properties"]["order_id"]["description"] == (
        'the order, e.g. "o-1".'
    )


def test_the_output_schema_comes_from_the_return_annotation_with_refs_inlined() -> None:
    assert plain(search.output.schema) == {
        "type": "array",
        "items": {
            "title": "Hit", "description": "One search hit.", "type": "object",
            "properties": {"title": {"type": "string"},
                           "score": {"type": "number", "default": 0.0}},
            # A returned Hit always holds its score: to_builtins writes every field.
            "required": ["title", "score"],
        },
    }


def test_a_structs_default_keeps_its_field_optional_in_the_parameters() -> None:
    @tool
    def rank(hit: Hit) -> None:
        """Rank."""

    assert plain(rank.parameters)["properties"]["hit"]["required"] == ["title"]


class Address(TypedDict):
    street: str
    city: str
    zip: NotRequired[str]


class Lean(msgspec.Struct, omit_defaults=True):
    a: int
    b: int = 0


class Sparse(msgspec.Struct):
    a: int
    b: int | msgspec.UnsetType = msgspec.UNSET
    c: list[int] = msgspec.field(default_factory=list)


@dataclasses.dataclass
class Order:
    number: int
    note: str = ""
    tags: list[str] = dataclasses.field(default_factory=list)


class Bundle(TypedDict):
    order: Order
    lean: Lean
    sparse: Sparse
    address: Address


def test_output_fields_a_returned_value_always_holds_are_required() -> None:
    @tool
    def bundle() -> Bundle:
        """Bundle."""
        raise NotImplementedError

    properties = plain(bundle.output.schema)["properties"]
    required = {name: properties[name]["required"] for name in properties}
    assert required == {
        "order": ["number", "note", "tags"],  # a dataclass writes every field
        "lean": ["a"],  # omit_defaults leaves a default value out
        "sparse": ["a", "c"],  # an UNSET field is left out while unset
        "address": ["city", "street"],  # NotRequired may be absent
    }
    value = msgspec.to_builtins(
        {"order": Order(1), "lean": Lean(1), "sparse": Sparse(1), "address": {"street": "s",
                                                                          "city": "c"}}
    )
    assert {name: sorted(value[name]) for name in value} == {
        name: sorted(names) for name, names in required.items()
    }


def test_typeddict_fields_keep_their_declared_order() -> None:
    @tool
    def locate(address: Address) -> Address:
        """Locate."""
        return address

    assert list(plain(locate.parameters)["properties"]["address"]["properties"]) == [
        "street", "city", "zip"
    ]
    assert list(plain(locate.output.schema)["properties"]) == ["street", "city", "zip"]
    assert list(plain(bundle_order.output.schema)["properties"]) == [
        "order", "lean", "sparse", "address"
    ]


@tool
def bundle_order() -> Bundle:
    """Bundle."""
    raise NotImplementedError


def test_name_and_description_can_be_given_explicitly() -> None:
    @tool(name="find", description="Find things.")
    def anything(x: int) -> int:
        """Ignored."""
        return x

    assert (anything.name, anything.description) == ("find", "Find things.")


def test_structs_typeddicts_and_dataclasses_are_inlined() -> None:
    @tool
    def shapes(hit: Hit, filters: Filters, window: Window) -> None:
        """Shapes."""

    keys = walk(shapes.parameters)
    assert "$ref" not in keys
    assert "$defs" not in keys
    properties = plain(shapes.parameters)["properties"]
    assert properties["filters"]["properties"]["mode"] == {"type": "string",
                                                           "enum": ["fast", "slow"]}
    assert properties["window"]["required"] == ["start", "end"]


def test_an_optional_type_becomes_an_exactly_one_oneof() -> None:
    @tool
    def maybe(x: int | None = None) -> None:
        """Maybe."""

    assert plain(maybe.parameters)["properties"] == {
        "x": {"oneOf": [{"type": "integer"}, {"type": "null"}], "default": None}
    }


def test_a_union_of_tagged_structs_becomes_a_oneof() -> None:
    @tool
    def pet(p: Cat | Dog) -> None:
        """Pet."""

    node = plain(pet.parameters)["properties"]["p"]
    assert [b["title"] for b in node["oneOf"]] == ["Cat", "Dog"]
    assert "discriminator" not in walk(pet.parameters)


def test_a_dict_of_any_is_an_open_object() -> None:
    @tool
    def bag(data: dict[str, Any]) -> dict[str, Any]:
        """Bag."""
        return data

    assert plain(bag.parameters)["properties"] == {"data": {"type": "object"}}


def test_a_none_return_is_a_null_output() -> None:
    @tool
    def nothing() -> None:
        """Nothing."""

    assert nothing.output.schema == {"type": "null"}


def test_a_run_context_parameter_is_not_part_of_the_schema() -> None:
    @tool
    def with_ctx(ctx: ToolRunContext, x: int) -> int:
        """With context."""
        return x

    assert list(plain(with_ctx.parameters)["properties"]) == ["x"]


def test_an_overlapping_union_is_rejected() -> None:
    with pytest.raises(UnsupportedSchemaError, match=r"parameter 'x' \(int \| float\): union"):

        @tool
        def overlap(x: int | float) -> None:
            """Overlap."""


def test_a_constraint_the_subset_cannot_express_is_rejected_not_dropped() -> None:
    with pytest.raises(UnsupportedSchemaError) as info:

        @tool
        def bounded(count: Annotated[int, msgspec.Meta(ge=0)]) -> None:
            """Bounded."""

    assert str(info.value) == (
        "@tool test_a_constraint_the_subset_cannot_express_is_rejected_not_dropped.<locals>."
        "bounded is outside the supported JSON Schema subset (1 problem):\n"
        "  - parameter 'count' (Annotated[int, msgspec.Meta(ge=0)]): `minimum` (0) cannot be "
        "expressed in the supported subset; drop it from the type and check it in the body"
        " - at `$.count`"
    )


def test_a_tuple_is_rejected_as_one_problem() -> None:
    with pytest.raises(UnsupportedSchemaError) as info:

        @tool
        def pair(p: tuple[int, str]) -> None:
            """Pair."""

    assert len(info.value.problems) == 1
    assert "tuple's positional items" in info.value.problems[0]


def test_a_dict_with_typed_values_is_rejected_with_advice() -> None:
    with pytest.raises(UnsupportedSchemaError, match=r"use dict\[str, Any\] or a Struct"):

        @tool
        def counts(c: dict[str, int]) -> None:
            """Counts."""


def test_a_recursive_type_is_rejected_naming_the_type() -> None:
    with pytest.raises(UnsupportedSchemaError, match=r"type Tree refers to itself"):

        @tool
        def grow(tree: Tree) -> None:
            """Grow."""


def test_a_return_type_outside_the_subset_is_rejected() -> None:
    with pytest.raises(UnsupportedSchemaError, match=r"return type \(tuple\[int, int\]\)"):

        @tool
        def span() -> tuple[int, int]:
            """Span."""
            return (1, 2)


def test_star_args_are_rejected() -> None:
    with pytest.raises(TypeError, match=r"\*items cannot be described to a model"):

        @tool
        def many(*items: int) -> None:
            """Many."""


def test_star_star_kwargs_are_rejected() -> None:
    with pytest.raises(TypeError, match=r"\*\*options cannot be described to a model"):

        @tool
        def loose(**options: int) -> None:
            """Loose."""


def test_a_missing_parameter_annotation_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"parameter 'x' has no type annotation; annotate it"):

        @tool
        def bare(x) -> None:  # type: ignore[no-untyped-def]
            """Bare."""


def test_a_missing_return_annotation_is_rejected() -> None:
    with pytest.raises(TypeError, match=r"the return type is not annotated"):

        @tool
        def unreturned(x: int):  # type: ignore[no-untyped-def]
            """Unreturned."""


def test_blocking_is_refused_for_an_async_function() -> None:
    with pytest.raises(TypeError, match=r"blocking=True is for sync functions"):

        @tool(blocking=True)
        async def spin() -> None:
            """Spin."""


# --- the typed form: calls --------------------------------------------------------------------


async def test_a_typed_call_converts_arguments_and_returns_builtins() -> None:
    assert await run(search, {"query": "owl", "limit": 2}) == [
        {"title": "owl", "score": 0.0}, {"title": "owl", "score": 0.0}
    ]


async def test_an_omitted_optional_argument_takes_the_python_default() -> None:
    assert len(await run(search, {"query": "owl"})) == 10  # type: ignore[arg-type]


async def test_arguments_are_converted_to_the_annotated_types() -> None:
    seen: list[object] = []

    @tool
    def shapes(hit: Hit, window: Window) -> None:
        """Shapes."""
        seen.extend([hit, window])

    await run(shapes, {"hit": {"title": "a"}, "window": {"start": 1, "end": 2}})
    assert seen == [Hit(title="a"), Window(start=1, end=2)]


async def test_invalid_arguments_raise_invalid_args_listing_every_violation() -> None:
    with pytest.raises(ToolArgsError) as info:
        await run(search, {"limit": "ten"})
    assert info.value.code == "INVALID_ARGS"
    assert len(info.value.violations) == 2
    assert any("$.limit" in v for v in info.value.violations)


async def test_an_argument_the_function_does_not_declare_is_invalid() -> None:
    with pytest.raises(ToolArgsError):
        await run(search, {"query": "owl", "qeury": "owl"})


async def test_a_conversion_failure_is_invalid_args_naming_the_path() -> None:
    @tool
    def when(at: datetime.datetime) -> None:
        """When."""

    with pytest.raises(ToolArgsError, match=r"at `\$\.at`"):
        await run(when, {"at": "not a date"})


async def test_a_run_context_parameter_receives_the_context() -> None:
    seen: list[object] = []

    @tool
    async def with_ctx(x: int, ctx: ToolRunContext) -> int:
        """With context."""
        seen.append(ctx)
        return x

    ctx = context("with_ctx", materialize({"x": 1}, freeze=True))
    assert await with_ctx.execute(ctx.arguments, ctx) == 1
    assert seen == [ctx]


async def test_a_sync_function_runs_inline_on_the_event_loop() -> None:
    @tool
    def where() -> int:
        """Where."""
        return threading.get_ident()

    assert await run(where, {}) == threading.get_ident()


async def test_a_blocking_sync_function_runs_in_a_worker_thread() -> None:
    @tool(blocking=True)
    def where() -> int:
        """Where."""
        return threading.get_ident()

    assert await run(where, {}) != threading.get_ident()


async def test_a_return_value_msgspec_cannot_convert_is_invalid_tool_output() -> None:
    @tool
    def odd() -> Any:
        """Odd."""
        return object()

    with pytest.raises(ToolOutputError, match=r'^tool "odd" returned invalid output: the return'):
        await run(odd, {})


def test_typed_presenters_return_none_for_invalid_arguments() -> None:
    @tool(present_call=lambda args: {"card": "generic", "title": args["path"]})
    def read(path: str) -> str:
        """Read."""
        return path

    assert read.present_call is not None
    assert read.present_call(materialize({"path": "/a"}, freeze=True)) == {
        "card": "generic", "title": "/a"
    }
    assert read.present_call(materialize({}, freeze=True)) is None


def test_the_decorator_works_with_and_without_arguments() -> None:
    def body(x: int) -> int:
        """Body."""
        return x

    assert tool(body).parameters == tool()(body).parameters


def test_a_list_parameter_becomes_an_array_of_its_item_type() -> None:
    @tool
    def tag(tags: list[str]) -> None:
        """Tag."""

    assert plain(tag.parameters)["properties"] == {
        "tags": {"type": "array", "items": {"type": "string"}}
    }


def test_the_typed_form_attaches_a_timeout_and_checks_it() -> None:
    def body() -> None:
        """Body."""

    assert tool(timeout=30)(body).timeout == 30
    with pytest.raises(ValueError, match=r"got timeout=0$"):
        tool(timeout=0)(body)


def test_a_typed_result_presenter_returns_none_for_invalid_arguments() -> None:
    @tool(present_result=lambda args, result: {"card": "generic", "title": args["path"]})
    def read(path: str) -> str:
        """Read."""
        return path

    assert read.present_result is not None
    result = ToolSuccess(value="x", content=(TextBlock(text="x"),))
    assert read.present_result(materialize({"path": 3}, freeze=True), result) is None
    assert read.present_result(materialize({"path": "/a"}, freeze=True), result) == {
        "card": "generic", "title": "/a"
    }


def test_an_enum_class_becomes_a_typed_enum() -> None:
    @tool
    def paint(color: Color) -> None:
        """Paint."""

    assert plain(paint.parameters)["properties"]["color"] == {
        "type": "string", "title": "Color", "enum": ["blue", "red"]
    }


def test_replace_makes_a_checked_copy_of_a_definition() -> None:
    original = raw()
    renamed = dataclasses.replace(original, name="shout")
    assert (renamed.name, renamed.execute, renamed.parameters) == (
        "shout", original.execute, original.parameters
    )
    with pytest.raises(ValueError, match=r"got timeout=-1$"):
        dataclasses.replace(original, timeout=-1)


def test_definitions_compare_and_hash_by_identity() -> None:
    first, second = raw(), raw()
    assert first != second
    assert len({first, second, first}) == 2


# --- the typed form: derived schemas agree with the types -------------------------------------


@dataclasses.dataclass
class Record:
    name: str
    tags: list[str]
    level: Literal["low", "high"]
    score: float | None
    window: Window
    hit: Hit
    pet: Cat | Dog


_finite = st.floats(allow_nan=False, allow_infinity=False).filter(
    lambda f: f != 0 or str(f)[0] != "-"
)
_records = st.builds(
    Record,
    name=st.text(st.characters(exclude_categories=["Cs"])),
    tags=st.lists(st.text(st.characters(exclude_categories=["Cs"]), max_size=5), max_size=3),
    level=st.sampled_from(["low", "high"]),
    score=st.none() | _finite,
    window=st.builds(Window, start=st.integers(-(2**53), 2**53), end=st.integers(0, 10)),
    hit=st.builds(Hit, title=st.text(st.characters(exclude_categories=["Cs"])), score=_finite),
    pet=st.builds(Cat, lives=st.integers(0, 9)) | st.builds(Dog, name=st.just("rex")),
)


@tool
def echo_record(record: Record) -> Record:
    """Echo a record."""
    assert type(record) is Record  # converted, not handed over as a dict
    assert type(record.pet) in (Cat, Dog)
    return record


@given(_records)
def test_every_value_of_the_return_type_satisfies_the_derived_output_schema(
    record: Record,
) -> None:
    assert validate(echo_record.output.schema, msgspec.to_builtins(record)) == []


@given(_records)
async def test_a_value_sent_as_json_arguments_arrives_as_the_same_typed_value(
    record: Record,
) -> None:
    args = {"record": msgspec.to_builtins(record)}
    assert validate(echo_record.parameters, args) == []
    assert await run(echo_record, args) == msgspec.to_builtins(record)


async def test_an_optional_run_context_parameter_also_receives_the_context() -> None:
    @tool
    async def with_ctx(x: int, ctx: ToolRunContext | None = None) -> bool:
        """With an optional context."""
        return ctx is not None

    assert list(plain(with_ctx.parameters)["properties"]) == ["x"]
    assert await run(with_ctx, {"x": 1}) is True


def test_a_keyword_only_parameter_without_a_default_is_required() -> None:
    @tool
    def flagged(*, flag: bool, level: int = 1) -> None:
        """Flagged."""

    assert plain(flagged.parameters)["required"] == ["flag"]
