"""Provider tool formats: each provider's documented shape, and OpenAI's ``strict`` only where due.

The shapes checked here are the ones the providers document: OpenAI Chat
Completions function tools (``{"type": "function", "function": {...}}``) and the
Responses API's flat form, Anthropic's ``input_schema``, MCP's ``Tool``
(``inputSchema``, and ``outputSchema`` only for an object output) and Gemini's
``FunctionDeclaration`` with its JSON Schema fields.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import jsonschema
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode import RUN_CODE, Agent, RegistrationError, Registry, ToolOutput, define_tool, tool
from codemode._formats import FORMATS, format_tool, openai_strict_problems
from codemode._validate import validate
from codemode.code_mode import CodeMode

from ..strategies import subset_schemas, values_for

if TYPE_CHECKING:
    from codemode._execution import ToolRunContext

CLOSED = {
    "type": "object",
    "properties": {"city": {"type": "string", "description": "A city."}},
    "required": ["city"],
    "additionalProperties": False,
}
OBJECT_OUTPUT = {"type": "object", "properties": {"celsius": {"type": "number"}},
                 "required": ["celsius"]}


async def _reply(args: Any, ctx: ToolRunContext) -> Any:
    return {"celsius": 1.0}


def weather_registry(parameters: dict[str, Any] = CLOSED,
                     output: dict[str, Any] = OBJECT_OUTPUT) -> Registry:
    registry = Registry()
    registry.register(define_tool(
        name="weather", description="Current weather.", parameters=parameters,
        output=ToolOutput(schema=output), execute=_reply,
    ))
    return registry


# -- the documented shapes ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fmt", "expected"),
    [
        ("neutral", {"name": "weather", "description": "Current weather.", "parameters": CLOSED}),
        ("openai", {
            "type": "function",
            "function": {"name": "weather", "description": "Current weather.",
                         "parameters": CLOSED, "strict": True},
        }),
        ("openai-responses", {
            "type": "function", "name": "weather", "description": "Current weather.",
            "parameters": CLOSED, "strict": True,
        }),
        ("anthropic", {"name": "weather", "description": "Current weather.",
                       "input_schema": CLOSED}),
        ("mcp", {"name": "weather", "description": "Current weather.", "inputSchema": CLOSED,
                 "outputSchema": OBJECT_OUTPUT}),
        ("gemini", {"name": "weather", "description": "Current weather.",
                    "parametersJsonSchema": CLOSED, "responseJsonSchema": OBJECT_OUTPUT}),
    ],
)
def test_each_format_has_exactly_the_documented_shape(fmt: Any, expected: dict[str, Any]) -> None:
    assert weather_registry().wire_schemas(format=fmt) == [expected]


def test_neutral_is_the_default_format_and_matches_schemas() -> None:
    registry = weather_registry()
    assert registry.wire_schemas() == registry.wire_schemas(format="neutral") == registry.schemas()


def test_an_mcp_tool_declares_no_output_schema_for_a_non_object_output() -> None:
    # MCP's structured content is an object: a string result has no outputSchema to declare.
    [entry] = weather_registry(output={"type": "string"}).wire_schemas(format="mcp")
    assert entry == {"name": "weather", "description": "Current weather.", "inputSchema": CLOSED}


def test_a_gemini_declaration_declares_any_output_and_keeps_the_schema_as_registered() -> None:
    # Gemini reads part of JSON Schema; nothing is rewritten to fit (the registry enforces all).
    parameters = {"type": "object", "properties": {"unit": {"const": "C", "default": "C"},
                                                   "at": {"oneOf": [{"type": "string"},
                                                                    {"type": "null"}]}}}
    [entry] = weather_registry(parameters, output={"type": "string"}).wire_schemas(
        format="gemini"
    )
    assert entry == {"name": "weather", "description": "Current weather.",
                     "parametersJsonSchema": parameters,
                     "responseJsonSchema": {"type": "string"}}


def test_formatted_schemas_are_fresh_copies() -> None:
    registry = weather_registry()
    [first] = registry.wire_schemas(format="anthropic")
    first["input_schema"]["properties"]["city"]["type"] = "integer"
    [second] = registry.wire_schemas(format="anthropic")
    assert second["input_schema"] == CLOSED


def test_code_mode_lists_exactly_run_code_in_every_format() -> None:
    registry = weather_registry()
    agent = Agent("coder")
    registry.present_as(agent, "code")
    registry.install_run_code(CodeMode(registry).definition)
    [openai] = registry.wire_schemas(agent, format="openai")
    assert openai["function"]["name"] == RUN_CODE
    # run_code accepts extra keys (its object is open), so it cannot be strict.
    assert openai["function"]["strict"] is False
    [mcp] = registry.wire_schemas(agent, format="mcp")
    assert set(mcp) == {"name", "description", "inputSchema", "outputSchema"}
    assert mcp["outputSchema"]["required"] == ["logs"]
    mixed = Agent("mixed")
    registry.present_as(mixed, "both")
    assert [t["name"] for t in registry.wire_schemas(mixed, format="anthropic")] == [
        "weather", RUN_CODE
    ]


def test_a_code_mode_scope_without_run_code_is_refused_in_every_format() -> None:
    registry = weather_registry()
    agent = Agent("coder")
    registry.present_as(agent, "code")
    for fmt in FORMATS:
        with pytest.raises(RegistrationError, match="start Code Mode first"):
            registry.wire_schemas(agent, format=fmt)


def test_an_unknown_format_is_refused_with_the_list_of_formats() -> None:
    with pytest.raises(ValueError, match=r"^format must be one of 'neutral', 'openai', "
                                         r"'openai-responses', 'anthropic', 'mcp', 'gemini', "
                                         r"got format='bedrock'$"):
        weather_registry().wire_schemas(format="bedrock")  # type: ignore[call-overload]


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic"])
def test_a_name_the_provider_refuses_is_an_error_naming_the_tool(fmt: Any) -> None:
    registry = Registry()
    registry.register(define_tool(
        name="files.read", description="Read.", parameters={"type": "object"},
        output=ToolOutput(schema={"type": "string"}), execute=_reply,
    ))
    with pytest.raises(ValueError, match=r"^tool 'files.read' cannot be sent in the"):
        registry.wire_schemas(format=fmt)
    # MCP only recommends a character set: the name goes through.
    assert registry.wire_schemas(format="mcp")[0]["name"] == "files.read"


@pytest.mark.parametrize(
    ("name", "sent"),
    [("files.read", True), ("ns:lookup-2", True), ("_private", True), ("x" * 64, True),
     ("2fa", False), ("-x", False), ("x" * 65, False), ("files/read", False), ("é", False)],
)
def test_gemini_takes_dots_and_colons_and_refuses_a_leading_digit(name: str, sent: bool) -> None:
    registry = Registry()
    registry.register(define_tool(
        name=name, description="Read.", parameters={"type": "object"},
        output=ToolOutput(schema={"type": "string"}), execute=_reply,
    ))
    if sent:
        assert registry.wire_schemas(format="gemini")[0]["name"] == name
    else:
        with pytest.raises(ValueError, match=r"Gemini tool names are 1 to 64 characters of "
                                             r"a-z, A-Z, 0-9, '_', '\.', ':' and '-', the "
                                             r"first a letter or '_'"):
            registry.wire_schemas(format="gemini")


# -- OpenAI strict mode --------------------------------------------------------------------------


def test_a_typed_tool_with_only_required_parameters_is_strict() -> None:
    @tool
    def shout(text: str, times: int) -> str:
        """Shout."""
        return text * times

    registry = Registry()
    registry.register(shout)
    [entry] = registry.wire_schemas(format="openai")
    assert entry["function"]["strict"] is True
    assert entry["function"]["parameters"]["additionalProperties"] is False


def test_an_optional_parameter_with_a_default_is_not_strict_and_is_sent_unchanged() -> None:
    @tool
    def search(query: str, limit: int = 10) -> list[str]:
        """Search."""
        return []

    registry = Registry()
    registry.register(search)
    [entry] = registry.wire_schemas(format="openai")
    assert entry["function"]["strict"] is False
    assert entry["function"]["parameters"] == registry.schemas()[0]["parameters"]
    assert openai_strict_problems(search.parameters) == [
        "$: strict mode needs every property required; optional: limit",
        "$.properties.limit: 'default' is not permitted in strict mode",
    ]


@pytest.mark.parametrize(
    ("parameters", "problem"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
         '$: the object is not closed with "additionalProperties": false'),
        ({"type": "object", "properties": {"a": {"type": "object", "properties": {}}},
          "required": ["a"], "additionalProperties": False},
         '$.properties.a: the object is not closed with "additionalProperties": false'),
        ({"type": "object", "properties": {"a": {}}, "required": ["a"],
          "additionalProperties": False},
         "$.properties.a: the empty schema (any value) has no strict form"),
        ({"type": "object", "properties": {"a": {"enum": ["x", 1]}}, "required": ["a"],
          "additionalProperties": False},
         "$.properties.a: declares no type"),
        ({"type": "object", "properties": {"a": {"type": "array"}}, "required": ["a"],
          "additionalProperties": False},
         "$.properties.a: an array without items has no strict form"),
        ({"type": "object", "properties": {"a": {"type": "string", "examples": ["x"]}},
          "required": ["a"], "additionalProperties": False},
         "$.properties.a: 'examples' is not permitted in strict mode"),
        ({"type": "object", "properties": {"a": {"oneOf": [{"type": "integer"},
                                                           {"type": "number"}]}},
          "required": ["a"], "additionalProperties": False},
         "$.properties.a: oneOf branches may overlap, so it is sent as anyOf, which is not the "
         "same rule"),
    ],
)
def test_each_strict_rule_is_reported_with_its_path(
    parameters: dict[str, Any], problem: str
) -> None:
    assert openai_strict_problems(parameters) == [problem]
    assert format_tool("t", "", parameters, None, "openai")["function"]["strict"] is False


def test_one_of_is_sent_as_any_of_and_disjoint_types_stay_strict() -> None:
    parameters = {
        "type": "object",
        "properties": {"note": {"oneOf": [{"type": "string"}, {"type": "null"}]}},
        "required": ["note"],
        "additionalProperties": False,
    }
    entry = format_tool("t", "", parameters, None, "openai-responses")
    assert entry["strict"] is True
    assert entry["parameters"]["properties"]["note"] == {
        "anyOf": [{"type": "string"}, {"type": "null"}]
    }
    # The other formats keep oneOf as the registry enforces it.
    assert format_tool("t", "", parameters, None, "anthropic")["input_schema"] == parameters


def test_objects_nested_past_ten_levels_are_not_strict() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(11):
        node = {"type": "object", "properties": {"x": node}, "required": ["x"],
                "additionalProperties": False}
    assert openai_strict_problems(node) == [
        "$" + ".properties.x" * 10 + ": objects nested deeper than 10 levels"
    ]
    assert openai_strict_problems(node["properties"]["x"]) == []


def test_too_many_enum_values_are_not_strict() -> None:
    values = {"type": "integer", "enum": list(range(1001))}
    parameters = {"type": "object", "properties": {"k": values},
                  "required": ["k"], "additionalProperties": False}
    assert openai_strict_problems(parameters) == [
        "$: 1001 enum values in all, past strict mode's 1000"
    ]


def _renamed(node: Any, old: str, new: str) -> Any:
    if isinstance(node, list):
        return [_renamed(item, old, new) for item in node]
    if not isinstance(node, dict):
        return node
    out = {}
    for key, value in node.items():
        if key in ("enum", "const", "default", "examples", "required"):
            out[key] = value
        elif key == "properties":
            out[key] = {name: _renamed(sub, old, new) for name, sub in value.items()}
        else:
            out[new if key == old else key] = _renamed(value, old, new)
    return out


def _closed_everywhere(node: Any) -> bool:
    if not isinstance(node, dict):
        return True
    if node.get("type") == "object":
        properties = node.get("properties", {})
        if node.get("additionalProperties") is not False:
            return False
        if set(properties) - set(node.get("required", ())):
            return False
        if not all(_closed_everywhere(sub) for sub in properties.values()):
            return False
    return all(_closed_everywhere(b) for b in node.get("anyOf", [])) and _closed_everywhere(
        node.get("items")
    )


@settings(max_examples=200, deadline=None)
@given(data=st.data(), schema=subset_schemas())
def test_strict_means_the_api_enforces_exactly_what_the_registry_enforces(
    data: st.DataObject, schema: dict[str, Any]
) -> None:
    parameters = {"type": "object", "properties": {"p": schema}, "required": ["p"],
                  "additionalProperties": False}
    entry = format_tool("t", "", parameters, None, "openai")["function"]
    sent = entry["parameters"]
    # Nothing is rewritten but oneOf's name.
    assert _renamed(sent, "anyOf", "oneOf") == parameters
    if not entry["strict"]:
        return
    assert _closed_everywhere(sent)
    # jsonschema plays the API: on every value it agrees with the registry's validator.
    value = data.draw(values_for(parameters))
    api_accepts = jsonschema.Draft202012Validator(sent).is_valid(value)
    assert api_accepts == (not validate(parameters, value))
