"""The pre-flight check: unknown tools and impossible arguments, found before anything runs."""

from __future__ import annotations

import keyword
import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode.code_mode._preflight import PreflightProblem, preflight
from codemode.code_mode._sdk import SdkTool

STRING = {"type": "string"}

SEARCH = SdkTool(
    name="search",
    description="Search.",
    parameters={
        "type": "object",
        "additionalProperties": False,
        "properties": {"query": STRING, "limit": {"type": "integer"}},
        "required": ["query"],
    },
    output=STRING,
)
LOOKUP = SdkTool(
    name="lookup",
    description="Look up one record; extra keys are allowed.",
    parameters={"type": "object", "properties": {"id": STRING}, "required": ["id"]},
    output={},
)
ODD = SdkTool(
    name="web-fetch",
    description="Fetch.",
    parameters={
        "type": "object",
        "additionalProperties": False,
        "properties": {"url": STRING},
        "required": ["url"],
    },
    output=STRING,
)
RAW = SdkTool(
    name="raw",
    description="Parameters outside the checked subset.",
    parameters={"type": "object", "properties": {"a": STRING}, "required": ["a"], "$id": "x"},
    output=STRING,
)
TOOLS = {tool.name: tool for tool in (SEARCH, LOOKUP, ODD, RAW)}


def check(source: str) -> list[str]:
    return [str(problem) for problem in preflight(textwrap.dedent(source), TOOLS)]


def test_problem_text_names_the_line() -> None:
    assert str(PreflightProblem(line=3, message="unknown tool")) == "Line 3: unknown tool"


def test_unknown_tool_by_attribute_is_reported_with_a_suggestion() -> None:
    assert check('\n\nawait tools.serch(query="x")\n') == [
        'Line 3: unknown tool "serch" (did you mean "search"?); '
        "available tools: lookup, raw, search, web-fetch"
    ]


def test_unknown_tool_without_close_names_lists_the_available_ones() -> None:
    assert check("await tools.zzz()") == [
        'Line 1: unknown tool "zzz"; available tools: lookup, raw, search, web-fetch'
    ]


def test_unknown_tool_by_subscript_is_reported() -> None:
    assert check('await tools["web-fetc"](url="u")') == [
        'Line 1: unknown tool "web-fetc" (did you mean "web-fetch"?); '
        "available tools: lookup, raw, search, web-fetch"
    ]


def test_no_tools_at_all_says_so() -> None:
    assert [str(p) for p in preflight("await tools.search()", {})] == [
        'Line 1: unknown tool "search"; available tools: none'
    ]


def test_unknown_keyword_of_a_closed_schema_is_reported() -> None:
    assert check('await tools.search(query="x", limt=3)') == [
        'Line 1: unknown argument "limt" for tool "search" (did you mean "limit"?); '
        "accepted arguments: query, limit"
    ]


def test_unknown_keyword_of_an_open_schema_is_accepted() -> None:
    assert check('await tools.lookup(id="1", verbose=True)') == []


def test_missing_required_keyword_is_reported() -> None:
    assert check("await tools.search(limit=3)") == [
        'Line 1: tool "search" is missing required argument "query"'
    ]


def test_a_call_with_no_arguments_misses_every_required_one() -> None:
    assert check('await tools["web-fetch"]()') == [
        'Line 1: tool "web-fetch" is missing required argument "url"'
    ]


def test_missing_required_is_not_claimed_when_keywords_are_spread() -> None:
    assert check("await tools.search(limit=3, **more)") == []


def test_unknown_keyword_beside_a_spread_is_still_reported() -> None:
    assert check("await tools.search(query='x', colour=1, **more)") == [
        'Line 1: unknown argument "colour" for tool "search"; accepted arguments: query, limit'
    ]


def test_dict_literal_keys_get_the_same_checks() -> None:
    assert check('await tools.search({"qery": "x"})') == [
        'Line 1: unknown key "qery" for tool "search" (did you mean "query"?); '
        "accepted keys: query, limit",
        'Line 1: tool "search" is missing required key "query"',
    ]


def test_complete_dict_literal_passes() -> None:
    assert check('await tools.search({"query": "x", "limit": 2})') == []


@pytest.mark.parametrize(
    "argument",
    ["payload", "{**base}", '{key: "x"}', "{k: v for k, v in pairs}", "make_args()", "*arguments"],
)
def test_arguments_that_are_computed_are_not_flagged(argument: str) -> None:
    assert check(f"await tools.search({argument})") == []


@pytest.mark.parametrize(
    ("argument", "given", "written"),
    [
        ('"query"', "a str", '"query"'),
        ("3", "a number", "3"),
        ("None", "None", "None"),
        ("True", "a bool", "True"),
        ('["x"]', "a list", "..."),
        ('("x",)', "a tuple", "..."),
        ('{"x"}', "a set", "..."),
        ('f"{q}"', "a str", "..."),
        ("[q for q in qs]", "a list", "..."),
        ("(q for q in qs)", "a generator", "..."),
        ("lambda: 1", "a function", "..."),
        ('"' + "x" * 50 + '"', "a str", "..."),
        ('"a\\nb"', "a str", '"a\\nb"'),
    ],
)
def test_a_positional_value_that_is_not_a_dict_is_reported(
    argument: str, given: str, written: str
) -> None:
    # The message writes the call with the SDK's parameter names.
    assert check(f"await tools.search({argument})") == [
        f'Line 1: tool "search" was given {given}; pass keyword arguments or one dict: '
        f"write await tools.search(query={written})"
    ]


def test_several_positional_arguments_are_reported() -> None:
    assert check("await tools.search(a, b)") == [
        'Line 1: tool "search" was given 2 positional arguments; pass keyword arguments or '
        "one dict: write await tools.search(query=a, limit=b)"
    ]


def test_positional_arguments_take_the_names_not_passed_by_keyword() -> None:
    assert check('await tools.search(5, query="x")') == [
        'Line 1: tool "search" was given 1 positional argument and 1 keyword argument; '
        'pass keyword arguments or one dict: write await tools.search(limit=5, query="x")'
    ]


@pytest.mark.parametrize(
    "call",
    [
        "await tools.search(a, b, c)",  # more positional arguments than names
        "await tools.search(a, b, **more)",  # the spread may hold anything
        'await tools["web-fetch"]("u", "v")',  # not an identifier: no `tools.name`
        "await tools.raw(1, 2)",  # names outside the checked subset are unknown
    ],
)
def test_no_keyword_form_is_suggested_when_it_is_not_certain(call: str) -> None:
    (problem,) = check(call)
    assert problem.endswith("pass keyword arguments or one dict"), problem


def test_a_dict_mixed_with_keywords_is_reported() -> None:
    assert check('await tools.search({"query": "x"}, limit=2)') == [
        'Line 1: tool "search" was given 1 positional argument and 1 keyword argument; '
        "pass keyword arguments or one dict: write await tools.search(query=..., limit=2)"
    ]


def test_parameters_outside_the_subset_are_not_checked() -> None:
    assert check("await tools.raw(b=1)") == []


def test_every_problem_is_listed_in_source_order() -> None:
    source = """
        import asyncio
        first = await tools.serch(query="x")
        both = await asyncio.gather(
            tools.search(limit=1),
            tools.lookup(),
        )
        last = await tools.search(query="x", extra=1)
    """
    assert check(source) == [
        'Line 3: unknown tool "serch" (did you mean "search"?); '
        "available tools: lookup, raw, search, web-fetch",
        'Line 5: tool "search" is missing required argument "query"',
        'Line 6: tool "lookup" is missing required argument "id"',
        'Line 8: unknown argument "extra" for tool "search"; accepted arguments: query, limit',
    ]


def test_problem_lines_point_at_the_keyword() -> None:
    source = """
        result = await tools.search(
            query="x",
            limt=2,
        )
    """
    assert check(source) == [
        'Line 4: unknown argument "limt" for tool "search" (did you mean "limit"?); '
        "accepted arguments: query, limit"
    ]


def test_calls_inside_nested_functions_are_checked() -> None:
    source = """
        async def fetch(q):
            return await tools.serch(query=q)
        return [await fetch(q) for q in ["a", "b"]]
    """
    assert len(check(source)) == 1


def test_a_syntax_error_gives_no_problems() -> None:
    assert check("await tools.serch(query=") == []


def test_null_bytes_give_no_problems() -> None:
    assert check("await tools.serch()\x00") == []


@pytest.mark.parametrize(
    "rebinding",
    [
        "tools = {}",
        "tools += 1",
        "tools: dict = {}",
        "for tools in []: pass",
        "with open() as tools: pass",
        "import tools",
        "from x import y as tools",
        "def tools(): pass",
        "class tools: pass",
        "try:\n    pass\nexcept E as tools:\n    pass",
        "(tools := 1)",
        "del tools",
        "def f(tools): return tools.serch()",
        "lambda tools: tools.serch()",
        "[1 for tools in []]",
        "match x:\n    case tools: pass",
        "match x:\n    case {**tools}: pass",
        "def f():\n    global tools",
    ],
)
def test_a_program_that_binds_tools_is_not_analysed(rebinding: str) -> None:
    assert check(rebinding + "\nawait tools.serch()\n") == []


LEGITIMATE = [
    'return await tools.search(query="python", limit=5)',
    'return await tools.search({"query": "python"})',
    'hits = await tools.search(query="a")\nfor hit in hits:\n    print(hit)',
    'r = await tools["web-fetch"](url="https://example.com")\nreturn r',
    'r = await tools["web-fetch"]({"url": "https://example.com"})',
    "import asyncio\nrs = await asyncio.gather(*[tools.search(query=q) for q in qs])",
    'try:\n    await tools.lookup(id="1")\nexcept ToolCallError as e:\n    print(e.code)',
    'await tools.lookup(id="1", anything_else=[1, 2])',
    "args = {'query': 'x'}\nawait tools.search(**args)",
    "args = {'query': 'x'}\nawait tools.search(args)",
    "name = 'search'\nawait getattr(tools, name)(query='x')",
    "await tools[name](query='x')",
    "f = tools.search\nawait f(query='x')",
    "print(len(tools.__doc__ or ''))",
    "result = other.serch(query=1)",
    "await tools.raw(a='x', b=2)",
    "x = {'tools': 1}\nprint(x['tools'])",
]


@pytest.mark.parametrize("source", LEGITIMATE)
def test_legitimate_programs_get_no_problems(source: str) -> None:
    assert check(source) == []


_identifiers = st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True).filter(
    lambda name: not keyword.iskeyword(name) and name != "self"
)


@st.composite
def declared_calls(draw: st.DrawFn) -> tuple[dict[str, SdkTool], str]:
    """A tool set and a program that calls only declared tools with valid arguments."""
    tools: dict[str, SdkTool] = {}
    for name in draw(st.lists(_identifiers, min_size=1, max_size=4, unique=True)):
        fields = draw(st.lists(_identifiers, max_size=4, unique=True))
        required = draw(st.lists(st.sampled_from(fields), unique=True)) if fields else []
        parameters = {
            "type": "object",
            "properties": dict.fromkeys(fields, STRING),
            "required": required,
            "additionalProperties": draw(st.booleans()),
        }
        tools[name] = SdkTool(name, "", parameters, STRING)
    lines: list[str] = []
    for _ in range(draw(st.integers(1, 6))):
        name = draw(st.sampled_from(sorted(tools)))
        shape = tools[name].parameters
        fields = list(shape["properties"])  # type: ignore[call-overload]
        required = list(shape["required"])  # type: ignore[call-overload]
        chosen = required + [f for f in fields if f not in required and draw(st.booleans())]
        pairs = [(field, '"v"') for field in chosen]
        callee = draw(st.sampled_from([f"tools.{name}", f'tools["{name}"]']))
        if draw(st.booleans()):
            arguments = ", ".join(f"{field}={value}" for field, value in pairs)
        else:
            arguments = "{" + ", ".join(f'"{field}": {value}' for field, value in pairs) + "}"
        lines.append(f"r{len(lines)} = await {callee}({arguments})")
    return tools, "\n".join(lines)


@given(declared_calls())
def test_programs_calling_declared_tools_correctly_get_no_problems(
    case: tuple[dict[str, SdkTool], str],
) -> None:
    tools, source = case
    assert preflight(source, tools) == []
