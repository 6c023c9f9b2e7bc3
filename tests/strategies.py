"""Hypothesis strategies shared by the test suite."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hypothesis import strategies as st

from codemode.code_mode._sdk_names import is_member_name

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

#: Lossless JSON values: what every boundary accepts.
json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**53), max_value=2**53)
    | st.floats(allow_nan=False, allow_infinity=False).filter(
        lambda f: not (f == 0 and str(f)[0] == "-")
    )
    | st.text(st.characters(exclude_categories=["Cs"]), max_size=20)
)


def json_values(max_leaves: int = 30) -> st.SearchStrategy[JsonValue]:
    """Nested lossless JSON values."""
    return st.recursive(
        json_scalars,
        lambda children: st.lists(children, max_size=5)
        | st.dictionaries(
            st.text(st.characters(exclude_categories=["Cs"]), max_size=8), children, max_size=5
        ),
        max_leaves=max_leaves,
    )


# --- Values that may or may not be lossless JSON -------------------------------------------------


class Opaque:
    """An arbitrary object: never JSON."""

    def __repr__(self) -> str:
        return "Opaque()"


#: Scalars across every rejection class as well as the accepted ones.
wild_scalars: st.SearchStrategy[object] = (
    json_scalars
    | st.integers()
    | st.integers(min_value=2**53 - 4, max_value=2**64).map(lambda i: i if i % 3 else -i)
    | st.floats()
    | st.just(-0.0)
    | st.text(max_size=8)  # may hold lone surrogates
    | st.binary(max_size=4)
    | st.builds(Opaque)
)

wild_keys: st.SearchStrategy[object] = (
    st.text(max_size=6) | st.integers(-3, 3) | st.none() | st.booleans() | st.floats(0, 1)
)


def wild_values(max_leaves: int = 20) -> st.SearchStrategy[object]:
    """Nested values mixing JSON with every kind of non-JSON (tuples, sets, odd keys, …)."""
    return st.recursive(
        wild_scalars,
        lambda children: st.lists(children, max_size=4)
        | st.lists(children, max_size=3).map(tuple)
        | st.frozensets(st.integers(-3, 3) | st.text(max_size=3), max_size=3)
        | st.sets(st.integers(-3, 3), max_size=3)
        | st.dictionaries(wild_keys, children, max_size=4),
        max_leaves=max_leaves,
    )


# --- Schemas in the enforced JSON Schema subset, and values biased to match them -------------

_SCHEMA_TYPES = ("string", "number", "integer", "boolean", "null", "object", "array")
_property_names = st.sampled_from(["a", "b", "c", "odd key", "__proto__"])

_typed_scalars: dict[str, st.SearchStrategy[object]] = {
    "string": st.text(max_size=4),
    "number": st.integers(-5, 5) | st.floats(-10, 10, allow_nan=False).filter(bool),
    "integer": st.integers(-5, 5) | st.integers(-5, 5).map(float),
    "boolean": st.booleans(),
    "null": st.none(),
}


def _annotations() -> st.SearchStrategy[dict[str, object]]:
    return st.fixed_dictionaries(
        {},
        optional={
            "description": st.text(max_size=5),
            "title": st.text(max_size=5),
            "default": json_values(max_leaves=3),
            "examples": st.lists(json_values(max_leaves=2), max_size=2),
        },
    )


@st.composite
def _scalar_schema(draw: st.DrawFn) -> dict[str, object]:
    node = draw(_annotations())
    kind = draw(st.sampled_from([*_typed_scalars, None]))
    if kind is not None:
        node["type"] = kind
        values = _typed_scalars[kind]
        choice = draw(st.sampled_from(["plain", "enum", "const"]))
        if choice == "enum":
            node["enum"] = draw(st.lists(values, min_size=1, max_size=3))
        elif choice == "const":
            node["const"] = draw(values)
    elif draw(st.booleans()):
        node["enum"] = draw(st.lists(json_scalars, min_size=1, max_size=3))
    return node


@st.composite
def _object_schema(
    draw: st.DrawFn, children: st.SearchStrategy[dict[str, object]]
) -> dict[str, object]:
    node = draw(_annotations())
    node["type"] = "object"
    if draw(st.booleans()):
        properties = draw(st.dictionaries(_property_names, children, max_size=3))
        node["properties"] = properties
        with_required: bool = draw(st.booleans())
        if properties and with_required:
            node["required"] = draw(
                st.lists(st.sampled_from(sorted(properties)), unique=True, max_size=3)
            )
    if draw(st.booleans()):
        node["additionalProperties"] = draw(st.booleans())
    return node


@st.composite
def _array_schema(
    draw: st.DrawFn, children: st.SearchStrategy[dict[str, object]]
) -> dict[str, object]:
    node = draw(_annotations())
    node["type"] = "array"
    if draw(st.booleans()):
        node["items"] = draw(children)
    return node


@st.composite
def _one_of_schema(
    draw: st.DrawFn, children: st.SearchStrategy[dict[str, object]]
) -> dict[str, object]:
    node = draw(_annotations())
    node["oneOf"] = draw(st.lists(children, min_size=2, max_size=3))
    return node


def subset_schemas(max_leaves: int = 8) -> st.SearchStrategy[dict[str, object]]:
    """Schemas inside the enforced JSON Schema subset."""
    return st.recursive(
        _scalar_schema(),
        lambda children: _object_schema(children)
        | _array_schema(children)
        | _one_of_schema(children),
        max_leaves=max_leaves,
    )


def values_for(schema: dict[str, object]) -> st.SearchStrategy[object]:
    """Values likely (not certain) to match ``schema``, with near misses mixed in."""
    if "enum" in schema:
        return st.sampled_from(list(schema["enum"]))  # type: ignore[call-overload]
    if "const" in schema:
        return st.just(schema["const"])
    if "oneOf" in schema:
        return st.one_of([values_for(b) for b in schema["oneOf"]])  # type: ignore[attr-defined]
    kind = schema.get("type")
    if kind is None:
        return json_values(max_leaves=4)
    assert isinstance(kind, str)
    if kind in _typed_scalars:
        return _typed_scalars[kind]
    if kind == "array":
        items = schema.get("items")
        element = values_for(items) if isinstance(items, dict) else json_values(max_leaves=3)
        return st.lists(element, max_size=3)
    properties = schema.get("properties", {})
    assert isinstance(properties, dict)
    required = set(schema.get("required", []))  # type: ignore[call-overload]
    declared = st.fixed_dictionaries(
        {name: values_for(sub) for name, sub in properties.items() if name in required},
        optional={
            name: values_for(sub) for name, sub in properties.items() if name not in required
        },
    )
    extra = st.dictionaries(st.sampled_from(["x", "a"]), json_scalars, max_size=1)
    return st.tuples(declared, extra).map(lambda pair: {**pair[1], **pair[0]})


# --- The SDK section: awkward names and schemas inside the subset and outside it ---------------

#: Characters that stress identifiers, class names and quoting in the SDK block.
_awkward_chars = st.sampled_from(
    ["a", "b", "Z", "_", "-", ".", "1", " ", "é", "路", "ﬁ", "\u0301", "\u1100", "\u1161",
     "\u200c", "\ud800", "\x00", "\n", "\x85", '"', "\\", "\U00010330", "ƛ"]
)

#: Tool and property names: identifiers, keywords, underscores, exotic and hostile text.
sdk_names = st.one_of(
    st.sampled_from(
        ["search", "class", "match", "type", "_hidden", "__meta__", "__token", "__debug__",
         "self", "extra", "my-tool", "my.tool", "1st-tool", "路径", "ﬁnd", "", "args"]
    ),
    st.text(_awkward_chars, max_size=6),
    st.text(max_size=5),
)

#: Names a tool can be called by as ``tools.name``: the awkward ones of
#: :data:`sdk_names` that pass, and plain identifiers (so that a list of them
#: does not have to filter out most of what it draws).
sdk_member_names = st.one_of(
    sdk_names, st.from_regex(r"\A[a-z][a-z0-9_]{0,7}\Z")
).filter(is_member_name)

#: Descriptions with whitespace runs, controls, quotes, backslashes and surrogates.
sdk_descriptions = st.lists(
    _awkward_chars | st.sampled_from(["\t", "\r", '"""', "\u2028"]), max_size=12
).map("".join)

_junk_schemas: st.SearchStrategy[object] = st.sampled_from(
    [None, 42, "string-schema", [], {"$ref": "#/x"}, {"oneOf": 7}, {"oneOf": []},
     {"type": ["string", "null"]}, {"type": "string", "enum": []},
     {"type": "string", "enum": [1, 2]}, {"type": "object", "properties": 7},
     {"type": "integer", "const": 2**60}, {"type": "number", "const": float("nan")},
     {"type": "string", "description": 42}, {"type": "json"}, {"format": "uri"}]
)


@st.composite
def _awkward_object(draw: st.DrawFn, children: st.SearchStrategy[object]) -> dict[str, object]:
    properties = draw(st.dictionaries(sdk_names, children, max_size=4))
    node: dict[str, object] = {"type": "object", "properties": properties}
    with_required: bool = draw(st.booleans())
    if properties and with_required:
        node["required"] = draw(st.lists(st.sampled_from(sorted(properties)), unique=True))
    if draw(st.booleans()):
        node["additionalProperties"] = draw(st.booleans())
    if draw(st.booleans()):
        node["description"] = draw(sdk_descriptions)
    if draw(st.booleans()):
        # A few titles, so that equal schemas share a class and unequal ones clash.
        node["title"] = draw(sdk_titles)
    return node


#: Type names as tool authors (and msgspec) write them, a reserved one, and junk.
sdk_titles = st.sampled_from(
    ["Customer", "Address", "Tools", "Page[Item]", "order_line", "", "1x", "_x", "ﬁeld"]
) | st.text(_awkward_chars, max_size=4)

#: Defaults a schema may hold: literals a signature can show, and values it cannot.
sdk_defaults = st.one_of(
    json_scalars,
    st.lists(json_scalars, max_size=3),
    st.dictionaries(sdk_names, json_scalars, max_size=2),
    st.sampled_from([float("nan"), 2**60 + 1, "x" * 80, (1, 2), {1: 2}]),
)


_sdk_leaves: st.SearchStrategy[object] = st.one_of(
    st.sampled_from(
        [{"type": name} for name in _SCHEMA_TYPES]
        + [{}, {"type": "object", "additionalProperties": False}]
    ),
    st.builds(
        lambda values: {"enum": values},
        st.lists(json_scalars | st.integers() | st.sampled_from([2**60, 1e21, -0.0]),
                 min_size=1, max_size=3),
    ),
    st.builds(lambda value: {"type": "string", "const": value}, sdk_descriptions),
    st.builds(lambda value: {"type": "integer", "default": value}, sdk_defaults),
    _scalar_schema(),
    _junk_schemas,
)


def sdk_schemas(max_leaves: int = 10) -> st.SearchStrategy[object]:
    """Schemas for the SDK renderer: the subset, awkward names, and plain junk."""
    base = _sdk_leaves
    return st.recursive(
        base,
        lambda children: _awkward_object(children)
        | st.builds(lambda items: {"type": "array", "items": items}, children)
        | st.lists(children, max_size=4).map(lambda branches: {"oneOf": branches}),
        max_leaves=max_leaves,
    )


def _as_mapping(schema: object) -> dict[str, object]:
    assert isinstance(schema, dict)
    return schema


#: Schemas that are mappings at the top (what a tool definition always holds).
sdk_mapping_schemas = sdk_schemas().filter(lambda schema: isinstance(schema, dict)).map(
    _as_mapping
)

#: (name, description, parameters, output) for one tool.
sdk_tool_fields = st.tuples(sdk_names, sdk_descriptions, sdk_mapping_schemas, sdk_mapping_schemas)
