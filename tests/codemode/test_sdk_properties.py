"""Properties of the SDK renderer over generated tool sets and schemas."""

from __future__ import annotations

import ast
import json
import unicodedata
from typing import TYPE_CHECKING

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from codemode.code_mode._sdk import SdkTool, python_type, render_sdk, render_stubs
from codemode.code_mode._sdk_names import (
    MAX_CLASS_NAME_BASE,
    clean_description,
    field_base,
    is_keyword_parameter,
    is_member_name,
    name_stem,
    py_string,
)
from tests.strategies import (
    sdk_defaults,
    sdk_mapping_schemas,
    sdk_member_names,
    sdk_names,
    sdk_schemas,
    sdk_tool_fields,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

# Every code point, lone surrogates included (hypothesis leaves them out by default).
all_characters = st.characters(exclude_categories=())
any_text = st.text(all_characters, max_size=30) | sdk_names
tool_sets = st.lists(sdk_tool_fields.map(lambda fields: SdkTool(*fields)), max_size=5)


def tools_class(text: str) -> ast.ClassDef:
    tree = ast.parse(text)
    return next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tools")


@given(tool_sets)
def test_stub_block_always_parses(tools: list[SdkTool]) -> None:
    ast.parse(render_stubs(tools))


@given(sdk_schemas())
def test_python_type_always_parses_as_an_expression(schema: object) -> None:
    ast.parse(python_type(schema), mode="eval")


@given(tool_sets, st.randoms(use_true_random=False))
def test_rendering_is_deterministic_whatever_the_order(tools: list[SdkTool], rng: object) -> None:
    shuffled = list(tools)
    assert hasattr(rng, "shuffle")
    rng.shuffle(shuffled)
    assert render_sdk(shuffled) == render_sdk(tools) == render_sdk(list(tools))


@given(tool_sets)
def test_every_tool_appears_once_in_its_form(tools: list[SdkTool]) -> None:
    text = render_stubs(tools)
    methods = [n.name for n in tools_class(text).body if isinstance(n, ast.AsyncFunctionDef)]
    names = {tool.name for tool in tools} - {"run_code"}
    members = sorted(name for name in names if is_member_name(name))
    assert sorted(set(methods)) == members
    for name in names - set(members):
        assert f"    # tools[{py_string(name)}](args: " in text


@given(
    sdk_member_names,
    st.dictionaries(sdk_names.filter(is_keyword_parameter), sdk_schemas(), max_size=4),
    st.booleans(),
)
def test_keyword_form_lists_every_parameter(
    name: str, properties: dict[str, object], is_open: bool
) -> None:
    params = {"type": "object", "properties": properties, "additionalProperties": is_open}
    text = render_stubs([SdkTool(name, "", params, {"type": "string"})])
    method = next(n for n in tools_class(text).body if isinstance(n, ast.AsyncFunctionDef))
    assert [arg.arg for arg in method.args.kwonlyargs] == list(properties)
    assert [arg.arg for arg in method.args.args] == ["self"]
    assert (method.args.kwarg is not None) == is_open


def _chain(kind: str, depth: int) -> Mapping[str, object]:
    schema: Mapping[str, object] = {"type": "string"}
    wrap: dict[str, Callable[[Mapping[str, object]], Mapping[str, object]]] = {
        "array": lambda inner: {"type": "array", "items": inner},
        "oneOf": lambda inner: {"oneOf": [inner, {"type": "null"}]},
        "object": lambda inner: {
            "type": "object",
            "additionalProperties": False,
            "properties": {"inner": inner},
            "required": ["inner"],
        },
        "object-union": lambda inner: {
            "oneOf": [inner, {"type": "object", "additionalProperties": False}]
        },
    }
    for level in range(depth):
        kinds = list(wrap) if kind == "mixed" else [kind]
        schema = wrap[kinds[level % len(kinds)]](schema)
    return schema


@pytest.mark.slow
@given(
    st.sampled_from(["array", "oneOf", "object", "object-union", "mixed"]),
    st.integers(min_value=1, max_value=5000),
)
def test_text_is_linear_in_schema_depth(kind: str, depth: int) -> None:
    schema = _chain(kind, depth)
    tool = SdkTool("deep-tool", "", {"type": "object", "properties": {"root": schema}}, schema)
    text = render_stubs([tool])
    # A level costs at most one class (a capped name, a field line, a blank line).
    assert len(text) <= 2000 + 600 * depth
    ast.parse(text)


def _is_class_name(name: str) -> bool:
    return (
        name.isidentifier()
        and unicodedata.normalize("NFKC", name) == name
        and len(name) <= MAX_CLASS_NAME_BASE
    )


@given(any_text)
def test_every_name_stem_is_a_stable_class_name(name: str) -> None:
    assert _is_class_name(name_stem(name))


@given(any_text, any_text)
def test_every_field_class_base_is_a_stable_class_name(parent: str, field: str) -> None:
    assert _is_class_name(field_base(name_stem(parent) + "Args", field))


@given(st.text(all_characters))
def test_string_literals_parse_back_to_the_same_text(text: str) -> None:
    assert ast.literal_eval(py_string(text)) == text


@given(st.text(all_characters))
def test_string_literals_show_no_invisible_or_reordering_character(text: str) -> None:
    # A tool's enum value may come from an MCP server: a bidi override in the
    # prompt would reorder what the model reads around it.
    hidden = {"Cc", "Cf", "Cs", "Zl", "Zp"}
    assert not [c for c in py_string(text) if unicodedata.category(c) in hidden]


@given(st.text(all_characters))
def test_cleaned_descriptions_are_one_encodable_line(text: str) -> None:
    cleaned = clean_description(text)
    cleaned.encode("utf-8")
    assert cleaned == cleaned.strip()
    assert len(cleaned.splitlines()) <= 1
    assert not any(ord(char) < 0x20 or 0x7F <= ord(char) < 0xA0 for char in cleaned)


@given(tool_sets)
def test_every_class_is_declared_once_and_before_it_is_used(tools: list[SdkTool]) -> None:
    tree = ast.parse(render_stubs(tools))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    names = [c.name for c in classes]
    assert len(names) == len(set(names))
    declared: set[str] = {"ToolCallError"}
    for node in classes:
        if node.name == "Tools":
            continue
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        assert used & set(names) <= declared | {node.name}
        declared.add(node.name)


@given(st.lists(st.tuples(sdk_member_names, sdk_mapping_schemas), max_size=4))
def test_equal_schemas_under_one_title_render_as_one_class(
    tools: list[tuple[str, Mapping[str, object]]],
) -> None:
    # A different schema that the arguments title "Customer" too is a real clash
    # (the second gets a suffix), not what this property is about.
    assume(all('"Customer"' not in json.dumps(params) for _, params in tools))
    shared = {
        "title": "Customer",
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
    }
    rendered = render_stubs(
        [SdkTool(name, "", params, {"type": "array", "items": dict(shared)})
         for name, params in tools]
    )
    outputs = [n for n in tools_class(rendered).body if isinstance(n, ast.AsyncFunctionDef)]
    assert {ast.unparse(f.returns) for f in outputs if f.returns is not None} <= {
        "list[Customer]"
    }
    assert rendered.count("class Customer(TypedDict):") == (1 if tools else 0)


@given(
    sdk_member_names,
    st.dictionaries(
        # Plain identifiers beside the awkward names: most awkward ones are no
        # parameter, and filtered alone they failed Hypothesis' filter health check.
        st.one_of(sdk_names, st.from_regex(r"\A[a-z][a-z0-9_]{0,7}\Z")).filter(
            is_keyword_parameter
        ),
        sdk_defaults,
        min_size=1,
        max_size=3,
    ),
)
def test_a_shown_default_is_the_schemas_default(name: str, defaults: dict[str, object]) -> None:
    properties = {key: {"default": value} for key, value in defaults.items()}
    params = {"type": "object", "properties": properties, "additionalProperties": False}
    method = next(
        n
        for n in tools_class(render_stubs([SdkTool(name, "", params, {"type": "string"})])).body
        if isinstance(n, ast.AsyncFunctionDef)
    )
    for arg, default in zip(method.args.kwonlyargs, method.args.kw_defaults, strict=True):
        assert default is not None
        expected = defaults[arg.arg]
        if isinstance(default, ast.Constant) and default.value is Ellipsis:
            continue  # not shown: too long, or no literal for it
        assert ast.literal_eval(default) == expected
        assert type(ast.literal_eval(default)) is type(expected) or isinstance(expected, float)
