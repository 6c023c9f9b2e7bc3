"""The SDK section: type mapping, naming, member forms, escaping, limits and the whole text."""

from __future__ import annotations

import ast
import dataclasses
import re
from collections.abc import Iterator, Mapping
from typing import NotRequired, TypedDict

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode import tool
from codemode.code_mode._sdk import SdkTool, python_type, render_sdk, render_stubs
from codemode.code_mode._sdk_names import clean_description, docstring_text
from codemode.code_mode._sdk_types import MAX_UNION_OPERATORS

STRING = {"type": "string"}


def make(
    name: str,
    parameters: Mapping[str, object] | None = None,
    *,
    output: Mapping[str, object] | None = None,
    description: str = "",
) -> SdkTool:
    return SdkTool(
        name=name,
        description=description,
        parameters=parameters if parameters is not None else {"type": "object"},
        output=output if output is not None else STRING,
    )


def closed(
    required: list[str] | None = None,
    fields: Mapping[str, object] | None = None,
    **properties: object,
) -> dict[str, object]:
    node: dict[str, object] = {
        "type": "object",
        "additionalProperties": False,
        "properties": {**(fields or {}), **properties},
    }
    if required is not None:
        node["required"] = required
    return node


def class_names(text: str) -> list[str]:
    return re.findall(r"^class (\S+)\(TypedDict\):$", text, flags=re.MULTILINE)


def stubs(*tools: SdkTool) -> str:
    text = render_stubs(tools)
    ast.parse(text)  # every rendering in this file must be valid Python
    return text


# --- python_type: the context-free mapping -------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "string"}, "str"),
        ({"type": "number"}, "float"),
        ({"type": "integer"}, "int"),
        ({"type": "boolean"}, "bool"),
        ({"type": "null"}, "None"),
        ({"type": "string", "enum": ["a", "b"]}, 'Literal["a", "b"]'),
        ({"type": "array", "items": {"type": "number"}}, "list[float]"),
        ({"type": "array", "items": {"type": "string", "enum": ["x"]}}, 'list[Literal["x"]]'),
        ({"type": "array"}, "list[Any]"),
        ({"type": "object"}, "dict[str, Any]"),
        ({"type": "object", "properties": {}}, "dict[str, Any]"),
        ({"type": "object", "properties": {"x": STRING}}, "dict[str, Any]"),
        ({"type": "string", "const": "fixed"}, 'Literal["fixed"]'),
        ({"type": "boolean", "const": True}, "Literal[True]"),
        ({"type": "boolean", "enum": [False]}, "Literal[False]"),
        ({"type": "number", "const": 1.5}, "Literal[1.5]"),
        ({"oneOf": [STRING, {"type": "null"}]}, "str | None"),
        ({}, "Any"),
        ({"description": "anything"}, "Any"),
    ],
)
def test_python_type_maps_the_subset(schema: dict[str, object], expected: str) -> None:
    assert python_type(schema) == expected


@pytest.mark.parametrize(
    "schema",
    [
        None,
        42,
        "string-schema",
        [],
        {"oneOf": 7},
        {"oneOf": []},
        {"oneOf": [STRING]},
        {"$ref": "#/defs/x"},
        {"type": "object", "properties": 7},
        {"type": "string", "enum": [1, 2]},
        {"type": "string", "enum": []},
        {"type": ["string", "null"]},
        {"type": "json"},
        {"type": "string", "format": "uri"},
        {"type": "string", "description": 42},
        {"type": "integer", "const": 1.5},
        {"type": "integer", "const": True},
        {"type": "number", "const": float("nan")},
        {"type": "number", "const": -0.0},
        {"type": "integer", "const": 2**60 + 1},
        {"type": "string", "enum": ["a"], "const": "a"},
        {"type": "array", "properties": {}},
        {"type": "object", "required": ["missing"], "properties": {}},
        {"type": "object", "required": ["a", "a"], "properties": {"a": STRING}},
        {"type": "object", "additionalProperties": {"type": "string"}},
        {1: "not a string key"},
    ],
)
def test_python_type_degrades_what_is_outside_the_subset_to_any(schema: object) -> None:
    assert python_type(schema) == "Any"


@pytest.mark.parametrize(
    "value", ["a\x00b", "a\ud800b", 'say "hi"\n', "ends\\", "tab\there", "a\u2028b", "a\x85b"]
)
def test_literal_strings_parse_back_to_the_exact_value(value: str) -> None:
    text = python_type({"type": "string", "const": value})
    assert "\x00" not in text
    assert "\ud800" not in text
    literal = ast.parse(text, mode="eval").body
    assert isinstance(literal, ast.Subscript)
    assert ast.literal_eval(literal.slice) == value


@pytest.mark.parametrize(
    ("schema", "expected"),
    [
        ({"type": "integer", "const": 2**60}, "Literal[1152921504606846976]"),
        (
            {"type": "integer", "enum": [2**60, -(2**60)]},
            "Literal[1152921504606846976, -1152921504606846976]",
        ),
        ({"type": "integer", "const": 1e21}, "Literal[1000000000000000000000]"),
        ({"type": "number", "const": 1e21}, "Literal[1000000000000000000000]"),
        ({"type": "integer", "const": 2**53 - 1}, "Literal[9007199254740991]"),
        ({"type": "number", "const": 1e-7}, "Literal[1e-07]"),
    ],
)
def test_integral_literals_are_written_as_exact_digits(
    schema: dict[str, object], expected: str
) -> None:
    assert python_type(schema) == expected


def test_context_free_union_of_objects_degrades_each_object_to_a_dict() -> None:
    obj = closed(["ok"], ok={"type": "boolean"})
    assert python_type({"oneOf": [obj, STRING]}) == "dict[str, Any] | str"
    assert python_type({"oneOf": [obj, obj]}) == "dict[str, Any] | dict[str, Any]"
    assert python_type({"type": "array", "items": {"oneOf": [obj, STRING]}}) == (
        "list[dict[str, Any] | str]"
    )


def test_type_beside_one_of_keeps_the_union() -> None:
    assert python_type({"type": "string", "oneOf": [STRING, STRING]}) == "str | str"


# --- member forms --------------------------------------------------------------------------------


def test_identifier_tool_with_identifier_parameters_gets_keyword_only_parameters() -> None:
    params = closed(["query"], query=STRING, limit={"type": "integer"})
    text = stubs(make("search", params))
    assert "    async def search(self, *, query: str, limit: int = ...) -> str: ..." in text
    assert "SearchArgs" not in text


def test_open_parameters_accept_extra_keywords() -> None:
    params = {"type": "object", "properties": {"query": STRING}, "required": ["query"]}
    text = stubs(make("search", params))
    assert "async def search(self, *, query: str, **extra: Any) -> str: ..." in text


def test_extra_keywords_take_a_name_no_parameter_uses() -> None:
    params = {"type": "object", "properties": {"extra": STRING, "extra_": STRING}}
    text = stubs(make("search", params))
    assert "(self, *, extra: str = ..., extra_: str = ..., **extra__: Any)" in text


def test_tool_without_parameters_takes_only_self() -> None:
    assert "async def ping(self) -> str: ..." in stubs(make("ping", closed()))


def test_tool_with_open_empty_parameters_takes_any_keywords() -> None:
    assert "async def ping(self, **extra: Any) -> str: ..." in stubs(make("ping"))


def test_parameter_named_self_falls_back_to_the_argument_dict() -> None:
    text = stubs(make("search", closed(["self"], self=STRING)))
    assert "async def search(self, args: SearchArgs) -> str: ..." in text
    assert "class SearchArgs(TypedDict):\n    self: str\n" in text


def test_parameter_descriptions_go_into_the_docstring() -> None:
    params = closed(
        ["query"],
        query={"type": "string", "description": "What to search for."},
        limit={"type": "number", "description": "Max results."},
    )
    text = stubs(make("search", params, description="Search for text."))
    method = ast.parse(text).body[-2]
    assert isinstance(method, ast.ClassDef)
    function = method.body[0]
    assert isinstance(function, ast.AsyncFunctionDef)
    assert ast.get_docstring(function) == (
        "Search for text.\n\nArgs:\n    query: What to search for.\n    limit: Max results."
    )


def test_parameter_descriptions_without_a_tool_description_still_get_a_docstring() -> None:
    params = closed(["q"], q={"type": "string", "description": "Query."})
    function = ast.parse(stubs(make("search", params))).body[-2]
    assert isinstance(function, ast.ClassDef)
    method = function.body[0]
    assert isinstance(method, ast.AsyncFunctionDef)
    assert ast.get_docstring(method) == "Args:\n    q: Query."


def test_long_signatures_are_written_one_parameter_per_line() -> None:
    params = closed(
        ["a_long_parameter_name"],
        a_long_parameter_name=STRING,
        another_long_parameter_name={"type": "integer"},
        yet_another_parameter={"type": "boolean"},
    )
    text = stubs(make("search", params))
    assert (
        "    async def search(\n"
        "        self,\n"
        "        *,\n"
        "        a_long_parameter_name: str,\n"
        "        another_long_parameter_name: int = ...,\n"
        "        yet_another_parameter: bool = ...,\n"
        "    ) -> str: ..."
    ) in text


def test_keyword_form_names_nested_classes_as_the_argument_form_would() -> None:
    params = closed(["meta"], meta=closed(["name"], name=STRING))
    text = stubs(make("workflow", params))
    assert "class WorkflowArgsMeta(TypedDict):\n    name: str\n" in text
    assert "async def workflow(self, *, meta: WorkflowArgsMeta) -> str: ..." in text


def test_exotic_and_reserved_names_are_subscript_comments() -> None:
    text = stubs(
        make("my-mcp.tool", description="Exotic name."),
        make("bash", closed(["command"], command=STRING)),
        make("class", description="Uses a reserved word."),
    )
    assert "async def bash(self, *, command: str) -> str: ..." in text
    assert '    # tools["my-mcp.tool"](args: dict[str, Any]) -> str\n    #   Exotic name.' in text
    assert '    # tools["class"](args: dict[str, Any]) -> str' in text


def test_subscript_tools_reference_their_named_argument_class() -> None:
    text = stubs(make("class", closed(["value"], value=STRING)))
    assert "class ClassArgs(TypedDict):\n    value: str\n" in text
    assert '# tools["class"](args: ClassArgs) -> str' in text


@pytest.mark.parametrize("name", ["_foo", "__meta__", "__token", "__debug__"])
def test_underscore_names_are_reached_by_subscript(name: str) -> None:
    text = stubs(make(name))
    assert f'# tools["{name}"](args: dict[str, Any]) -> str' in text
    assert f"async def {name}(" not in text
    assert "class Tools(Protocol):\n    pass\n" in text


def test_soft_keywords_are_ordinary_names() -> None:
    params = closed(["match"], match=STRING, case={"type": "boolean"}, type=STRING)
    text = stubs(make("match", params))
    assert "async def match(self, *, match: str, case: bool = ..., type: str = ...)" in text


def test_lone_surrogate_in_a_tool_name_is_escaped() -> None:
    text = stubs(make("a\ud800b"))
    assert '# tools["a\\ud800b"](args: dict[str, Any]) -> str' in text
    assert "\ud800" not in text


def test_nfkc_unstable_tool_name_is_a_subscript_while_plain_unicode_is_a_method() -> None:
    params = closed(["q"], q=STRING)
    text = stubs(make("路径", params), make("ﬁnd", params))
    assert "async def 路径(self, *, q: str) -> str: ..." in text
    assert '# tools["ﬁnd"](args: FIndArgs) -> str' in text
    assert "async def find" not in text


# --- argument classes (argument form) ------------------------------------------------------------


def test_required_fields_are_plain_and_optional_ones_not_required_with_comments() -> None:
    params = closed(
        ["query"],
        query={"type": "string", "description": "What to search for."},
        limit={"type": "number", "description": "Max results."},
    )
    text = stubs(make("web-search", params))
    assert (
        "class WebSearchArgs(TypedDict):\n"
        "    # What to search for.\n"
        "    query: str\n"
        "    # Max results.\n"
        "    limit: NotRequired[float]\n"
    ) in text
    assert text.startswith("from typing import NotRequired, Protocol, TypedDict\n")


def test_every_field_is_optional_without_a_required_list() -> None:
    text = stubs(make("x-y", {"type": "object", "properties": {"flag": {"type": "boolean"}}}))
    assert "    flag: NotRequired[bool]\n" in text


def test_enum_field_is_a_literal_and_imports_literal() -> None:
    text = stubs(make("mode-tool", closed(["mode"], mode={"type": "string", "enum": ["a", "b"]})))
    assert '    mode: Literal["a", "b"]\n' in text
    assert text.startswith("from typing import Literal, Protocol, TypedDict\n")


def test_nested_classes_are_declared_before_the_classes_using_them() -> None:
    phase = closed(["title"], title=STRING)
    meta = closed(["name"], name=STRING, phases={"type": "array", "items": phase})
    text = stubs(make("work-flow", closed(["meta"], meta=meta)))
    assert "    meta: WorkFlowArgsMeta\n" in text
    assert "    phases: NotRequired[list[WorkFlowArgsMetaPhases]]\n" in text
    order = [
        text.index("class WorkFlowArgsMetaPhases("),
        text.index("class WorkFlowArgsMeta("),
        text.index("class WorkFlowArgs("),
        text.index("class Tools("),
    ]
    assert order == sorted(order)


def test_union_of_objects_names_each_branch() -> None:
    output = {
        "oneOf": [
            closed(["ok"], ok={"type": "boolean"}),
            closed(["err"], err=STRING),
        ]
    }
    text = stubs(make("act", closed(), output=output))
    assert "class ActOutput1(TypedDict):\n    ok: bool\n" in text
    assert "class ActOutput2(TypedDict):\n    err: str\n" in text
    assert "async def act(self) -> ActOutput1 | ActOutput2: ..." in text


def test_union_parameters_use_the_argument_form_with_named_branches() -> None:
    params = {"oneOf": [closed(["a"], a=STRING), closed(["b"], b={"type": "number"})]}
    text = stubs(make("x", params))
    assert "async def x(self, args: XArgs1 | XArgs2) -> str: ..." in text


def test_unsupported_field_becomes_any_and_tool_prefix_starts_a_digit_name() -> None:
    params = {"type": "object", "properties": {"field": {"type": "string", "description": 42}}}
    output = closed(["ok"], ok={"type": "boolean"})
    text = stubs(make("1st-tool", params, output=output))
    assert '# tools["1st-tool"](args: Tool1stToolArgs) -> Tool1stToolOutput' in text
    assert "    field: NotRequired[Any]\n" in text
    assert "class Tool1stToolOutput(TypedDict):\n    ok: bool\n" in text


# `a\u200cb` is an identifier only where CPython's Unicode tables are 15.1 or newer.
_ZWNJ_FIELD = "a\u200cb" if not "a\u200cb".isidentifier() else "a-b"


@pytest.mark.parametrize("field", ["a-b", "__token", "__debug__", "class", "ﬁeld", _ZWNJ_FIELD])
def test_object_with_an_undeclarable_field_name_degrades_to_a_dict(field: str) -> None:
    params = closed([field], {field: STRING})
    text = stubs(make("tool", params))
    assert "async def tool(self, args: dict[str, Any]) -> str: ..." in text
    assert "ToolArgs" not in text


def test_dunder_field_names_stay_declarable() -> None:
    text = stubs(make("a-b", closed(["__meta__"], __meta__=STRING)))
    assert "    __meta__: str\n" in text


def test_non_ascii_fields_keep_their_names_and_name_classes() -> None:
    params = closed(["路径"], 路径=STRING, opts=closed(深度={"type": "number"}))
    text = stubs(make("搜索", params))
    assert "async def 搜索(self, *, 路径: str, opts: 搜索ArgsOpts = ...) -> str: ..." in text
    assert "class 搜索ArgsOpts(TypedDict):\n    深度: NotRequired[float]\n" in text


def test_closed_empty_object_is_an_empty_class() -> None:
    params = closed(["inner"], inner={"type": "object", "additionalProperties": False})
    text = stubs(make("closed", params))
    assert "class ClosedArgsInner(TypedDict):\n    pass\n" in text
    assert "inner: ClosedArgsInner" in text
    assert "dict[str, Any]" not in text


def test_open_object_says_undeclared_keys_may_be_passed() -> None:
    opened = {"type": "object", "properties": {"x": STRING}, "required": ["x"]}
    text = stubs(make("open-ness", closed(["open"], open=opened)))
    assert (
        "class OpenNessArgsOpen(TypedDict):\n"
        "    x: str\n"
        "    # Keys not declared above may be passed too.\n"
    ) in text
    assert "class OpenNessArgs(TypedDict):\n    open: OpenNessArgsOpen\n\n" in text


# --- class names ---------------------------------------------------------------------------------


def test_colliding_class_bases_get_counters() -> None:
    text = stubs(make("my-tool", closed(["x"], x=STRING)), make("my.tool", closed(["y"], y=STRING)))
    assert class_names(text) == ["MyToolArgs", "MyToolArgs2"]


def test_a_counter_taken_by_a_sibling_is_skipped() -> None:
    params = closed(
        ["phase", "phase2", "Phase"],
        phase=closed(a=STRING),
        phase2=closed(b=STRING),
        Phase=closed(c=STRING),
    )
    text = stubs(make("foo-bar", params))
    assert {"FooBarArgsPhase", "FooBarArgsPhase2", "FooBarArgsPhase3"} <= set(class_names(text))


def test_tool_prefix_seam_is_normalised() -> None:
    text = stubs(make("\u0301abc", closed(["q"], q=STRING)))
    assert "class Too\u013aabcArgs(TypedDict):" in text
    assert "Tool\u0301" not in text


def test_class_name_join_is_normalised_where_jamo_compose() -> None:
    inner = closed(["\u1161x"], {"\u1161x": closed(q=STRING)})
    text = stubs(make("x-", closed(["\uac00\u1100"], {"\uac00\u1100": inner})))
    assert "class XArgs\uac00\uac00x(TypedDict):" in text
    assert "class XArgs\uac00\u1100(TypedDict):" in text
    assert "\u1100\u1161" not in text


def test_names_that_collide_only_after_normalisation_get_counters() -> None:
    inner = closed(["\u1161"], {"\u1161": closed(["q"], q=STRING)})
    params = closed(["\uac00", "\u1100"], {"\uac00": closed(["q"], q=STRING), "\u1100": inner})
    text = stubs(make("x-", params))
    assert "class XArgs\uac00(TypedDict):" in text
    assert "    \u1161: XArgs\uac002\n" in text


def test_class_names_follow_the_interpreters_case_mapping() -> None:
    text = stubs(make("ƛ-", closed(["q"], q=STRING)))
    assert f"class {'ƛ'.upper()}Args(TypedDict):" in text


def test_long_names_are_capped_per_code_point() -> None:
    ahsa = "\U00010330"
    text = stubs(make(ahsa * 200 + "-", closed(a=STRING)))
    assert class_names(text) == [ahsa * 120]


def test_long_tool_name_class_is_capped() -> None:
    text = stubs(make("x-" + "a" * 200, closed(["f"], f=STRING)))
    assert [len(name) for name in class_names(text)] == [120]


def test_deep_object_chain_keeps_class_names_bounded_and_text_linear() -> None:
    depth = 4000
    schema: Mapping[str, object] = STRING
    for _ in range(depth):
        schema = closed(["inner"], inner=schema)
    text = stubs(make("deep-", schema))
    assert max(len(name) for name in class_names(text)) <= 140
    assert len(text) < depth * 400


# --- nesting limits ------------------------------------------------------------------------------


def nested_arrays(depth: int, leaf: Mapping[str, object] = STRING) -> Mapping[str, object]:
    schema = leaf
    for _ in range(depth):
        schema = {"type": "array", "items": schema}
    return schema


def test_deep_arrays_are_capped_at_180_lists() -> None:
    assert python_type(nested_arrays(20000)) == "list[" * 180 + "Any" + "]" * 180


def test_arrays_just_under_the_cap_stay_exact() -> None:
    assert python_type(nested_arrays(179)) == "list[" * 179 + "str" + "]" * 179


def test_a_field_annotation_starts_one_level_in() -> None:
    exact = stubs(make("deep-field", closed(["rows"], rows=nested_arrays(179))))
    assert "    rows: " + "list[" * 179 + "str" + "]" * 179 + "\n" in exact
    capped = stubs(make("deep-field", closed(["rows"], rows=nested_arrays(180))))
    assert "    rows: " + "list[" * 179 + "Any" + "]" * 179 + "\n" in capped


def test_argument_annotation_reaches_the_cap_and_still_parses() -> None:
    leaf = {"type": "string", "const": "x"}
    text = stubs(make("rooted", nested_arrays(180, leaf)))
    chain = "list[" * 180 + 'Literal["x"]' + "]" * 180
    assert f"\n        args: {chain},\n    ) -> str: ..." in text
    deeper = stubs(make("rooted", nested_arrays(181, leaf)))
    assert "\n        args: " + "list[" * 180 + "Any" + "]" * 180 + ",\n" in deeper


def test_unions_keep_the_depth_of_their_parent() -> None:
    spine: Mapping[str, object] = nested_arrays(180, {"type": "string", "const": "x"})
    for _ in range(3):
        spine = {"oneOf": [spine, STRING]}
    text = stubs(make("rooted", spine))
    chain = "list[" * 180 + 'Literal["x"]' + "]" * 180
    assert f"\n        args: {chain} | str | str | str,\n    ) -> str" in text


def test_deep_union_chain_renders_exactly_up_to_the_operator_cap() -> None:
    depth = MAX_UNION_OPERATORS
    schema: Mapping[str, object] = STRING
    for _ in range(depth):
        schema = {"oneOf": [schema, {"type": "null"}]}
    text = python_type(schema)
    assert text == "str" + " | None" * depth
    ast.parse(text, mode="eval")


def test_deeper_union_chain_becomes_any_without_recursion() -> None:
    schema: Mapping[str, object] = STRING
    for _ in range(100_000):
        schema = {"oneOf": [schema, {"type": "null"}]}
    assert python_type(schema) == "Any"


def test_union_cap_leaves_no_classes_behind() -> None:
    schema: Mapping[str, object] = closed()
    for _ in range(MAX_UNION_OPERATORS + 1):
        schema = {"oneOf": [schema, closed()]}
    text = stubs(make("deep-", closed(["root"], root=schema)))
    assert "    root: Any\n" in text
    assert class_names(text) == ["DeepArgs"]


def test_deep_union_of_objects_keeps_class_names_bounded() -> None:
    schema: Mapping[str, object] = closed()
    for _ in range(900):
        schema = {"oneOf": [schema, closed()]}
    text = stubs(make("deep-", closed(["root"], root=schema)))
    names = class_names(text)
    assert len(names) == 902
    assert max(len(name) for name in names) <= 140


# --- descriptions and escaping -------------------------------------------------------------------


def described(description: str) -> SdkTool:
    params = closed(["field"], field={"type": "string", "description": description})
    return make("weird-", params, description=description)


def described_method(description: str) -> str:
    return stubs(make("weird", description=description))


def test_descriptions_become_docstrings_as_the_first_statement() -> None:
    text = stubs(
        make("bash", description="Run a shell command."),
        make("zzz", description="Second by name."),
    )
    tree = ast.parse(text)
    tools = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Tools")
    docs = {
        f.name: ast.get_docstring(f) for f in tools.body if isinstance(f, ast.AsyncFunctionDef)
    }
    assert docs == {"bash": "Run a shell command.", "zzz": "Second by name."}


def test_missing_or_blank_descriptions_leave_no_docstring_or_comment() -> None:
    empty = stubs(make("plain"), make("weird-name"))
    blank = stubs(make("plain", description=" \t\n "), make("weird-name", description="   "))
    assert blank == empty
    assert "async def plain(self, **extra: Any) -> str: ..." in empty
    assert '"""' not in empty
    assert "#   " not in empty


@pytest.mark.parametrize(
    ("description", "docstring"),
    [
        ('ends in a quote"', '"""ends in a quote\\""""'),
        ("ends in a backslash\\", '"""ends in a backslash\\\\"""'),
        ('contains """ triple', '"""contains \\"\\"" triple"""'),
        ('an id (e.g. "c1").', '"""an id (e.g. "c1")."""'),
        ('two "" quotes', '"""two \\"" quotes"""'),
        ('slash before quote \\" x', '"""slash before quote \\\\" x"""'),
        ("tab\tnewline\ncr\r", '"""tab newline cr"""'),
        ("nb\u00a0sp", '"""nb sp"""'),
        ("zero\u200bwidth", '"""zero\\\\u200bwidth"""'),
        ("bidi \u202eoverride", '"""bidi \\\\u202eoverride"""'),
        ("emoji \U0001f600 ok", '"""emoji \U0001f600 ok"""'),
        ("before\x00after", '"""before\\\\x00after"""'),
        ("a\ud800b", '"""a\\\\ud800b"""'),
    ],
)
def test_docstrings_are_escaped_and_parse(description: str, docstring: str) -> None:
    assert docstring in described_method(description)


@given(st.text(alphabet='ab"\\ ', max_size=12))
def test_a_docstring_reads_back_as_its_description(text: str) -> None:
    # Only the quotes that could close the docstring are escaped; any run of
    # quotes and backslashes still reads back as written.
    cleaned = clean_description(text)
    assert ast.literal_eval('"""' + docstring_text(cleaned) + '"""') == cleaned


@pytest.mark.parametrize(
    ("description", "comment"),
    [
        ("before\x00after", "# before\\x00after"),
        ("bell\x07esc\x1bdel\x7f", "# bell\\x07esc\\x1bdel\\x7f"),
        ("csi\x9bst\x9cend\x9f", "# csi\\x9bst\\x9cend\\x9f"),
        ("a\ud800b", "# a\\ud800b"),
        ("a\udfffb", "# a\\udfffb"),
        ("a\x85b", "# a b"),
    ],
)
def test_comments_show_controls_and_surrogates_as_escapes(description: str, comment: str) -> None:
    text = stubs(described(description))
    assert f"    {comment}\n" in text
    assert not any(char in text for char in "\x00\x07\x1b\x7f\x85\x9b\ud800\udfff")


# --- the whole block -----------------------------------------------------------------------------


def test_members_are_sorted_by_name_whatever_their_form() -> None:
    text = stubs(make("z", description="Last."), make("a-tool", description="First."))
    assert text.index('# tools["a-tool"]') < text.index("async def z")
    assert "    pass\n" not in text


def test_members_are_sorted_by_code_point() -> None:
    text = stubs(make("b"), make("B"), make("é"), make("a"))
    positions = [text.index(f"async def {name}(") for name in ["B", "a", "b", "é"]]
    assert positions == sorted(positions)


def test_output_is_identical_whatever_the_input_order_or_repetition() -> None:
    bash = make("bash", closed(["command"], command=STRING), description="Run.")
    exotic = make("my-mcp.tool", description="Exotic.")
    assert stubs(bash, exotic) == stubs(exotic, bash) == stubs(exotic, bash, bash)


def test_two_definitions_under_one_name_are_ordered_by_content() -> None:
    one = make("same", description="One.")
    two = make("same", description="Two.")
    assert stubs(one, two) == stubs(two, one)


def test_empty_tool_set_renders_pass_and_imports_only_protocol() -> None:
    text = stubs()
    assert text.startswith("from typing import Protocol\n")
    assert "class Tools(Protocol):\n    pass\n" in text
    assert text.endswith("\ntools: Tools\n")


def test_subscript_only_tool_set_puts_pass_before_the_comments() -> None:
    assert 'class Tools(Protocol):\n    pass\n    # tools["my-exotic.tool"]' in stubs(
        make("my-exotic.tool")
    )


def test_tool_call_error_declares_tool_name_and_code() -> None:
    tree = ast.parse(stubs())
    error = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "ToolCallError")
    fields = {
        n.target.id: ast.unparse(n.annotation)
        for n in error.body
        if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    }
    assert fields == {"tool_name": "str", "code": "str | None", "type": "str | None"}


def test_run_code_itself_is_never_listed() -> None:
    assert "run_code" not in stubs(make("run_code"), make("other"))


def test_output_schema_gives_the_return_type() -> None:
    output = closed(["matches"], matches={"type": "array", "items": STRING})
    text = stubs(make("grep", closed(), output=output))
    assert "async def grep(self) -> GrepOutput: ..." in text
    assert "class GrepOutput(TypedDict):\n    matches: list[str]\n" in text


# --- totality ------------------------------------------------------------------------------------


class HostileMapping(Mapping[str, object]):
    """A mapping that claims keys and then fails to produce them."""

    def __getitem__(self, key: str) -> object:
        raise RuntimeError("boom")

    def __iter__(self) -> Iterator[str]:
        return iter(["type", "properties"])

    def __len__(self) -> int:
        return 2


def test_a_tool_whose_schemas_cannot_be_read_still_appears() -> None:
    tool = SdkTool(name="hostile", description="", parameters=HostileMapping(),
                   output=HostileMapping())
    text = stubs(tool, make("fine"))
    assert "async def hostile(self, args: dict[str, Any]) -> Any: ..." in text
    assert "async def fine(self, **extra: Any) -> str: ..." in text
    assert python_type(HostileMapping()) == "Any"


def test_a_schema_that_contains_itself_renders_and_parses() -> None:
    params: dict[str, object] = {"type": "object", "additionalProperties": False}
    params["properties"] = {"child": params}
    looping: dict[str, object] = {"oneOf": [STRING]}
    looping["oneOf"] = [looping, STRING]
    text = stubs(make("loop", params, output=looping))
    assert "class LoopArgsChild(TypedDict):\n    child: NotRequired[dict[str, Any]]\n" in text
    assert "-> Any: ..." in text


def test_a_schema_that_shares_one_node_exponentially_degrades_to_any() -> None:
    shared: Mapping[str, object] = closed(["v"], v=STRING)
    for _ in range(40):
        shared = closed(["a", "b"], a=shared, b=shared)
    text = stubs(make("wide", {"type": "object", "properties": {"x-": STRING}}, output=shared))
    assert "-> Any: ..." in text
    assert "WideOutput" not in text


@pytest.mark.parametrize(
    ("field", "value"),
    [("name", 1), ("description", None), ("parameters", []), ("output", "x")],
)
def test_sdk_tool_rejects_fields_of_the_wrong_type(field: str, value: object) -> None:
    fields: dict[str, object] = {
        "name": "x", "description": "", "parameters": {}, "output": {}, field: value
    }
    with pytest.raises(TypeError, match=rf"^SdkTool {field} must be .*, got {field}="):
        SdkTool(**fields)  # type: ignore[arg-type]


# --- the section around the block ----------------------------------------------------------------


def test_section_has_heading_instructions_and_the_fenced_block() -> None:
    tool = make("search", closed(["query"], query=STRING))
    text = render_sdk([tool])
    assert text.startswith("## ")
    assert text.endswith("```python\n" + render_stubs([tool]) + "```\n")


@pytest.mark.parametrize(
    "phrase",
    [
        "top-level `await`",
        "`code`",
        "`description`",
        "only `tools`, `ToolCallError`, the allowed builtins and these modules",
        "never call `asyncio.run(...)`",
        "Tuples become lists",
        "`dataclasses.asdict(obj)`",
        "starting with `_` work on the program's own functions, classes and objects",
        "but not on library objects",
        "`open`, `eval` and `exec` do not exist",
        "`type` the exception the tool raised",
        "lists the tool calls that already ran",
        "do not exist at run time",
        "`NameError`",
        "await tools.name(key=value, ...)",
        "await tools.name({\"key\": value})",
        'tools["my-tool"]',
        "lossless JSON",
        "`tool_name`",
        "`code` the error code",
        "`TOOL_TIMEOUT`",
        "any other name raises `AttributeError`",
        "`hasattr(tools, \"name\")`",
        "stops the whole program before it runs",
        '`await getattr(tools, "name")(...)`',
        "as `(self, args: ...)` its arguments as that one dict",
        "`INVALID_ARGS`",
        "`QUOTA_EXCEEDED`",
        "`asyncio.gather(...)`",
        "print(...)",
        "return <value>",
    ],
)
def test_instructions_say_what_the_program_can_rely_on(phrase: str) -> None:
    assert phrase in render_sdk([])


def test_awkward_names_render_the_whole_block_exactly() -> None:
    tools = [
        make(
            "web-fetch",
            {"type": "object", "properties": {"url": STRING}, "required": ["url"]},
            output={"oneOf": [STRING, {"type": "null"}]},
            description="Fetch a URL.",
        ),
        make("class", {"type": "object", "properties": {}}, output={}, description="Reserved."),
        make(
            "read",
            {"type": "object", "properties": {"weird-key": STRING}},
            output={
                "oneOf": [
                    closed(["text"], text=STRING),
                    {"type": "object", "properties": {"image": STRING}, "required": ["image"]},
                ]
            },
            description='Read "a" file\\path',
        ),
    ]
    assert stubs(*tools) == (
        "from typing import Any, Protocol, TypedDict\n"
        "\n"
        "class ToolCallError(Exception):\n"
        "    # The tool whose call failed.\n"
        "    tool_name: str\n"
        '    # Why, e.g. "INVALID_ARGS", "TOOL_TIMEOUT", "QUOTA_EXCEEDED"; None when unknown.\n'
        "    code: str | None\n"
        '    # The exception the tool raised, e.g. "LookupError"; None when it raised none.\n'
        "    type: str | None\n"
        "\n"
        "class ReadOutput1(TypedDict):\n"
        "    text: str\n"
        "\n"
        "class ReadOutput2(TypedDict):\n"
        "    image: str\n"
        "    # Values that come back may hold keys not declared above.\n"
        "\n"
        "class WebFetchArgs(TypedDict):\n"
        "    url: str\n"
        "    # Keys not declared above may be passed too.\n"
        "\n"
        "class Tools(Protocol):\n"
        '    # tools["class"](args: dict[str, Any]) -> Any\n'
        "    #   Reserved.\n"
        "    async def read(self, args: dict[str, Any]) -> ReadOutput1 | ReadOutput2:\n"
        '        """Read "a" file\\\\path"""\n'
        '    # tools["web-fetch"](args: WebFetchArgs) -> str | None\n'
        "    #   Fetch a URL.\n"
        "\n"
        "tools: Tools\n"
    )


def test_a_node_shared_by_an_abandoned_schema_and_a_later_one_still_declares() -> None:
    class FailsOnce(Mapping[str, object]):
        """Reads as `{"type": "string"}`, except that the first read fails."""

        failed = False

        def __getitem__(self, key: str) -> object:
            if not FailsOnce.failed:
                FailsOnce.failed = True
                raise RuntimeError("first read")
            return {"type": "string"}[key]

        def __iter__(self) -> Iterator[str]:
            return iter(["type"])

        def __len__(self) -> int:
            return 1

    shared = closed(["v"], v=FailsOnce())
    params = {"type": "object", "properties": {"x-": STRING}}
    text = stubs(make("a-first", params, output=shared), make("b-second", params, output=shared))
    assert '# tools["a-first"](args: dict[str, Any]) -> Any' in text
    assert "class BSecondOutput(TypedDict):\n    v: str\n" in text


def test_an_unexpected_failure_still_lists_the_tool_untyped(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from codemode.code_mode import _sdk

    def broken(name: str) -> str:
        raise RuntimeError(name)

    monkeypatch.setattr(_sdk, "name_stem", broken)
    text = stubs(make("search", closed(["q"], q=STRING)))
    assert '    # tools["search"](args: dict[str, Any]) -> Any\n' in text
    assert text.startswith("from typing import Any, Protocol\n")


# --- the rules a program must know -----------------------------------------------------


def test_instructions_list_every_module_a_program_may_import() -> None:
    from sandbox import ALLOWED_MODULES

    text = render_sdk([])
    listed = re.search(r"these modules, imported as usual \(.*?\): (.*?)\. The rest", text)
    assert listed is not None
    assert listed.group(1) == ", ".join(f"`{name}`" for name in ALLOWED_MODULES)
    assert {"asyncio", "json", "re", "collections", "datetime"} <= set(ALLOWED_MODULES)


# --- defaults from the schema --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("schema", "shown"),
    [
        ({"type": "integer", "default": 3}, "days: int = 3"),
        ({"type": "string", "default": "metric"}, 'days: str = "metric"'),
        ({"type": "boolean", "default": False}, "days: bool = False"),
        ({"oneOf": [STRING, {"type": "null"}], "default": None}, "days: str | None = None"),
        ({"type": "array", "items": STRING, "default": []}, "days: list[str] = []"),
        ({"type": "object", "default": {"a": [1.5]}}, 'days: dict[str, Any] = {"a": [1.5]}'),
        ({"type": "number", "default": 1e21}, "days: float = 1000000000000000000000"),
        ({"type": "integer"}, "days: int = ..."),
        ({"type": "string", "default": "x" * 80}, "days: str = ..."),
        ({"type": "number", "default": float("nan")}, "days: float = ..."),
        ({"type": "array", "default": (1, 2)}, "days: list[Any] = ..."),
    ],
)
def test_keyword_parameters_show_the_schemas_default(
    schema: dict[str, object], shown: str
) -> None:
    # Regression: every optional parameter read `= ...`.
    text = stubs(make("forecast", closed([], days=schema)))
    assert f"async def forecast(self, *, {shown}) -> str: ..." in text


def test_a_required_parameter_never_shows_a_default() -> None:
    text = stubs(make("forecast", closed(["days"], days={"type": "integer", "default": 3})))
    assert "async def forecast(self, *, days: int) -> str: ..." in text


def test_an_optional_argument_field_with_a_default_says_so_in_a_comment() -> None:
    params = closed(
        ["city"],
        city=STRING,
        units={"type": "string", "default": "metric", "description": "Unit system."},
    )
    text = stubs(make("weather-now", params))
    assert (
        "class WeatherNowArgs(TypedDict):\n"
        "    city: str\n"
        "    # Unit system.\n"
        '    # Default: "metric"\n'
        "    units: NotRequired[str]\n"
    ) in text


# --- the tool author's type names ----------------------------------------------------------------


ADDRESS = {**closed(["city"], city=STRING, zip=STRING), "title": "Address"}
CUSTOMER = {
    **closed(["name", "address"], name=STRING, address=ADDRESS),
    "title": "Customer",
}


def test_titled_objects_are_named_after_their_title() -> None:
    text = stubs(make("get_customer", closed(["id"], id=STRING), output=CUSTOMER))
    assert "async def get_customer(self, *, id: str) -> Customer: ..." in text
    assert "class Customer(TypedDict):\n    name: str\n    address: Address\n" in text
    assert "class Address(TypedDict):\n    city: str\n    zip: NotRequired[str]\n" in text
    assert "GetCustomerOutput" not in text


def test_equal_titled_schemas_share_one_class_across_tools() -> None:
    # Regression: GetCustomerOutput, ListCustomersOutput, FindPersonOutput1Address, ...
    text = stubs(
        make("get_customer", closed(["id"], id=STRING), output=CUSTOMER),
        make("list_customers", closed(), output={"type": "array", "items": CUSTOMER}),
        make("find_person", closed(), output={"oneOf": [CUSTOMER, {"type": "null"}]}),
        make("move", closed(["to"], to=ADDRESS)),
    )
    assert class_names(text) == ["Address", "Customer"]
    assert "async def list_customers(self) -> list[Customer]: ..." in text
    assert "async def find_person(self) -> Customer | None: ..." in text
    assert "async def move(self, *, to: Address) -> str: ..." in text


def test_a_real_clash_of_titles_gets_a_counter_in_tool_order() -> None:
    other = {**closed(["id"], id={"type": "integer"}), "title": "Customer"}
    tools = [
        make("b_tool", closed(), output=other),
        make("a_tool", closed(), output=CUSTOMER),
    ]
    text = stubs(*tools)
    assert "async def a_tool(self) -> Customer: ..." in text
    assert "async def b_tool(self) -> Customer2: ..." in text
    assert "class Customer2(TypedDict):\n    id: int\n" in text
    assert stubs(*reversed(tools)) == text


def test_schemas_that_differ_only_in_keyword_order_are_equal() -> None:
    reordered = {"title": "Address", **{key: ADDRESS[key] for key in reversed(list(ADDRESS))}}
    text = stubs(make("a", closed(), output=ADDRESS), make("b", closed(), output=reordered))
    assert class_names(text) == ["Address"]


def test_schemas_whose_fields_come_in_another_order_are_different_classes() -> None:
    swapped = {**closed(["city"], zip=STRING, city=STRING), "title": "Address"}
    text = stubs(make("a", closed(), output=ADDRESS), make("b", closed(), output=swapped))
    assert class_names(text) == ["Address", "Address2"]
    assert "class Address2(TypedDict):\n    zip: NotRequired[str]\n    city: str\n" in text


@pytest.mark.parametrize(
    ("title", "name"),
    [("Page[Item]", "PageItem"), ("order_line", "OrderLine"), ("_Row", "Row"),
     ("Tools", "Tools2"), ("Any", "Any2"), ("1st", "AOutput"), ("", "AOutput")],
)
def test_titles_become_class_names_or_fall_back_to_generated_ones(title: str, name: str) -> None:
    text = stubs(make("a", closed(), output={**closed(["x"], x=STRING), "title": title}))
    assert class_names(text) == [name]


def test_a_tool_abandoned_while_rendering_leaves_no_shared_class_behind() -> None:
    class Fails(Mapping[str, object]):
        def __getitem__(self, key: str) -> object:
            raise RuntimeError("unreadable")

        def __iter__(self) -> Iterator[str]:
            return iter(["type"])

        def __len__(self) -> int:
            return 1

    broken = {**closed(["x", "y"], x=STRING, y=Fails()), "title": "Customer"}
    text = stubs(
        make("a_broken", closed(), output={"type": "array", "items": broken}),
        make("b_fine", closed(), output=CUSTOMER),
    )
    assert "async def b_fine(self) -> Customer: ..." in text
    assert class_names(text) == ["Address", "Customer"]


# --- which way undeclared keys travel ------------------------------------------------------------


OPEN_POINT = {"type": "object", "properties": {"x": STRING}, "required": ["x"], "title": "Point"}


@pytest.mark.parametrize(
    ("tools", "note"),
    [
        ([make("put", closed(["p"], p=OPEN_POINT))], "Keys not declared above may be passed too."),
        (
            [make("get", closed(), output=OPEN_POINT)],
            "Values that come back may hold keys not declared above.",
        ),
        (
            [make("get", closed(), output=OPEN_POINT), make("put", closed(["p"], p=OPEN_POINT))],
            "Keys not declared above may be passed too, and may come back in values.",
        ),
    ],
)
def test_the_open_object_note_says_which_way_the_values_travel(
    tools: list[SdkTool], note: str
) -> None:
    # Regression: "accepted too" on an output type read as if it were about input.
    text = stubs(*tools)
    assert f"class Point(TypedDict):\n    x: str\n    # {note}\n" in text


def test_a_class_reused_the_other_way_carries_its_nested_classes_along() -> None:
    holder = {**closed(["point"], point=OPEN_POINT), "title": "Holder"}
    text = stubs(make("a_get", closed(), output=holder), make("b_put", closed(["h"], h=holder)))
    assert (
        "class Point(TypedDict):\n    x: str\n"
        "    # Keys not declared above may be passed too, and may come back in values.\n"
    ) in text


# --- typed tools: the author's names, order and required fields ----------------------------------


class Address(TypedDict):
    street: str
    city: str
    zip: NotRequired[str]


@dataclasses.dataclass
class Customer:
    name: str
    address: Address
    tier: str = "basic"


class Filters(msgspec.Struct):
    city: str
    limit: int = 10


@tool
def get_customer(customer_id: int, verbose: bool = False) -> Customer:
    """Look a customer up."""
    raise NotImplementedError


@tool
def find_customers(filters: Filters, days: int = 3) -> list[Customer]:
    """Find customers."""
    raise NotImplementedError


def test_a_typed_tools_sdk_uses_its_classes_in_declared_order() -> None:
    text = stubs(
        *(SdkTool(d.name, d.description, d.parameters, d.output.schema)
          for d in (get_customer, find_customers))
    )
    assert (
        "async def get_customer(self, *, customer_id: int, verbose: bool = False) -> Customer:"
    ) in text
    assert (
        "async def find_customers(self, *, filters: Filters, days: int = 3) -> list[Customer]:"
    ) in text
    assert (
        "class Address(TypedDict):\n    street: str\n    city: str\n    zip: NotRequired[str]\n"
    ) in text
    # A dataclass field with a default is always returned, so it is not NotRequired.
    assert (
        "class Customer(TypedDict):\n    name: str\n    address: Address\n    tier: str\n"
    ) in text
    # An argument field with a default is optional, and says its default.
    assert (
        "class Filters(TypedDict):\n    city: str\n    # Default: 10\n    limit: NotRequired[int]\n"
    ) in text
    assert class_names(text) == ["Filters", "Address", "Customer"]


def test_a_shared_class_first_met_deeper_down_is_still_declared_before_its_users() -> None:
    holder = {**closed(["c"], c=dict(CUSTOMER)), "title": "Holder"}
    text = stubs(make("t", closed(), output=closed(["b", "a"], b=holder, a=dict(CUSTOMER))))
    assert class_names(text) == ["Address", "Customer", "Holder", "TOutput"]
