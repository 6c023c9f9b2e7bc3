"""Provider tool formats: the registry's neutral tool schema as each model API expects it.

Pure functions from one tool (name, description, parameter schema, output
schema) to the dict a provider documents:

``neutral``
    ``{"name", "description", "parameters"}``: :class:`~codemode.ToolSchema`.
``openai``
    Chat Completions function tools:
    ``{"type": "function", "function": {"name", "description", "parameters", "strict"}}``.
``openai-responses``
    The Responses API's flat function tools:
    ``{"type": "function", "name", "description", "parameters", "strict"}``.
``anthropic``
    Messages API client tools: ``{"name", "description", "input_schema"}``.
``mcp``
    A Model Context Protocol ``Tool``: ``{"name", "description", "inputSchema"}``
    plus ``"outputSchema"`` when the tool's output schema is an object schema
    (MCP's structured content is always an object, so no other root can be declared).
``gemini``
    A Gemini API ``FunctionDeclaration`` with its JSON Schema fields:
    ``{"name", "description", "parametersJsonSchema"}`` plus ``"responseJsonSchema"``
    when the tool declares an output. A request lists them in one tool,
    ``{"functionDeclarations": [...]}``. Gemini reads only part of JSON Schema
    (``const`` and ``default`` are not in its list, ``oneOf`` is read as
    ``anyOf``); the schema is sent as it is and the registry enforces all of it
    when the call arrives.

**OpenAI's ``strict``.** ``strict`` is always written, ``true`` only when the
schema as sent satisfies OpenAI's strict-mode rules (:func:`openai_strict_problems`):
every object closed with ``"additionalProperties": false`` and every property
required, a ``type`` on every schema but an ``anyOf``, only the keywords strict
mode supports (``default`` and ``examples`` are not), no empty ``{}`` schema,
at most 10 levels of object nesting, 5,000 properties and 1,000 enum values.
The schema is never rewritten to qualify: a registry that accepts an omitted
argument must not be advertised as requiring it. ``strict: true`` therefore
means that the schema the API enforces on the model is exactly the one the
registry enforces on the call.

**``oneOf`` for OpenAI.** OpenAI refuses ``oneOf`` in function parameters (strict or
not); it accepts ``anyOf``. The OpenAI formats send every ``oneOf`` as ``anyOf``.
Where the branches declare pairwise different types (``X | None`` is the common
case) exactly-one and at-least-one mean the same, so strict stays possible;
otherwise the schema is sent with ``strict: false`` and the registry still
enforces exactly-one when the call arrives.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias, get_args

from bridge.lossless import materialize

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "FORMATS",
    "ProviderFormat",
    "WireFormat",
    "check_format",
    "format_tool",
    "openai_strict_problems",
]

#: The formats of a model API (every format but the registry's own ``neutral`` one).
ProviderFormat: TypeAlias = Literal["openai", "openai-responses", "anthropic", "mcp", "gemini"]
WireFormat: TypeAlias = Literal["neutral", ProviderFormat]
FORMATS: Final[tuple[WireFormat, ...]] = ("neutral", *get_args(ProviderFormat))

#: OpenAI documents function names as a-z, A-Z, 0-9, underscores and dashes, at most 64
#: characters; Anthropic documents the same pattern for client tools. A name outside it
#: fails the whole request at the API, so it is refused here, naming the tool.
_PROVIDER_NAME: Final = re.compile(r"[a-zA-Z0-9_-]{1,64}")
#: Gemini documents a letter or underscore first, then letters, digits, '_', '.', ':' and
#: '-', at most 64 characters.
_GEMINI_NAME: Final = re.compile(r"[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}")
#: Each provider's name rule: its name, the pattern, and the rule in words.
_NAME_RULES: Final[dict[str, tuple[str, re.Pattern[str], str]]] = {
    "openai": ("OpenAI", _PROVIDER_NAME, "1 to 64 characters of a-z, A-Z, 0-9, '_' and '-'"),
    "openai-responses": (
        "OpenAI", _PROVIDER_NAME, "1 to 64 characters of a-z, A-Z, 0-9, '_' and '-'"
    ),
    "anthropic": (
        "Anthropic", _PROVIDER_NAME, "1 to 64 characters of a-z, A-Z, 0-9, '_' and '-'"
    ),
    "gemini": (
        "Gemini", _GEMINI_NAME,
        "1 to 64 characters of a-z, A-Z, 0-9, '_', '.', ':' and '-', the first a letter or '_'",
    ),
}

#: Keywords OpenAI's strict mode accepts, of those the enforced subset can hold
#: (``oneOf`` arrives here already rewritten as ``anyOf``).
_STRICT_KEYWORDS: Final = frozenset(
    {"type", "properties", "required", "additionalProperties", "items", "enum", "const",
     "anyOf", "description", "title"}
)
_STRICT_MAX_DEPTH: Final = 10
_STRICT_MAX_PROPERTIES: Final = 5000
_STRICT_MAX_ENUM_VALUES: Final = 1000


def check_format(format: object) -> WireFormat:
    """``format`` if it names a format, else a ``ValueError`` listing the formats."""
    if format not in FORMATS:
        expected = ", ".join(map(repr, FORMATS))
        raise ValueError(f"format must be one of {expected}, got format={format!r}")
    return format


def _plain(schema: Mapping[str, Any]) -> dict[str, Any]:
    copied = materialize(schema, accept_tuples=True)
    assert isinstance(copied, dict)
    return copied


def _types_are_disjoint(branches: list[Any]) -> bool:
    """Whether no value can match two branches: each declares a different single type."""
    types = [b.get("type") if isinstance(b, dict) else None for b in branches]
    if any(not isinstance(t, str) for t in types) or len(set(types)) != len(types):
        return False
    # Every integer is also a number.
    return not {"integer", "number"} <= set(types)


def _openai_schema(node: Any, path: str, overlapping: list[str]) -> Any:
    """A copy of ``node`` with every ``oneOf`` written as ``anyOf``; overlapping ones noted."""
    if isinstance(node, list):
        return [_openai_schema(item, path, overlapping) for item in node]
    if not isinstance(node, dict):
        return node
    copied: dict[str, Any] = {}
    for key, value in node.items():
        if key == "oneOf" and isinstance(value, list):
            if not _types_are_disjoint(value):
                overlapping.append(
                    f"{path}: oneOf branches may overlap, so it is sent as anyOf, which is "
                    "not the same rule"
                )
            copied["anyOf"] = [
                _openai_schema(branch, f"{path}.oneOf[{i}]", overlapping)
                for i, branch in enumerate(value)
            ]
        elif key == "properties" and isinstance(value, dict):
            copied[key] = {
                name: _openai_schema(sub, f"{path}.properties.{name}", overlapping)
                for name, sub in value.items()
            }
        elif key == "items":
            copied[key] = _openai_schema(value, f"{path}.items", overlapping)
        else:
            copied[key] = value  # enum, const, required, annotations: data, not schemas
    return copied


def openai_strict_problems(parameters: Mapping[str, Any]) -> list[str]:
    """Why ``parameters`` cannot be sent with OpenAI's ``strict: true`` (empty: it can).

    Each problem names its path (``$.properties.limit``). ``oneOf`` is judged as
    the OpenAI formats send it (see the module docs).
    """
    overlapping: list[str] = []
    schema = _openai_schema(_plain(parameters), "$", overlapping)
    problems = list(overlapping)
    totals = {"properties": 0, "enum": 0}
    _strict_walk(schema, "$", 1, problems, totals)
    if totals["properties"] > _STRICT_MAX_PROPERTIES:
        problems.append(
            f"$: {totals['properties']} properties in all, past strict mode's "
            f"{_STRICT_MAX_PROPERTIES}"
        )
    if totals["enum"] > _STRICT_MAX_ENUM_VALUES:
        problems.append(
            f"$: {totals['enum']} enum values in all, past strict mode's {_STRICT_MAX_ENUM_VALUES}"
        )
    return problems


def _strict_walk(
    node: Any, path: str, depth: int, problems: list[str], totals: dict[str, int]
) -> None:
    if not isinstance(node, dict):
        problems.append(f"{path}: not a schema object")
        return
    if not node:
        problems.append(f"{path}: the empty schema (any value) has no strict form")
        return
    for key in sorted(set(node) - _STRICT_KEYWORDS):
        problems.append(f"{path}: {key!r} is not permitted in strict mode")
    branches = node.get("anyOf")
    if isinstance(branches, list):
        for index, branch in enumerate(branches):
            _strict_walk(branch, f"{path}.anyOf[{index}]", depth, problems, totals)
    elif "type" not in node:
        # Every schema OpenAI documents for strict mode names its type; claim no more.
        problems.append(f"{path}: declares no type")
    enum = node.get("enum")
    if isinstance(enum, list):
        totals["enum"] += len(enum)
    kind = node.get("type")
    if kind == "object":
        if depth > _STRICT_MAX_DEPTH:
            problems.append(f"{path}: objects nested deeper than {_STRICT_MAX_DEPTH} levels")
            return
        if node.get("additionalProperties") is not False:
            problems.append(f'{path}: the object is not closed with "additionalProperties": false')
        properties = node.get("properties", {})
        required = set(node.get("required", ()))
        optional = [name for name in properties if name not in required]
        if optional:
            problems.append(
                f"{path}: strict mode needs every property required; optional: "
                + ", ".join(optional)
            )
        totals["properties"] += len(properties)
        for name, sub in properties.items():
            _strict_walk(sub, f"{path}.properties.{name}", depth + 1, problems, totals)
    elif kind == "array":
        if "items" not in node:
            problems.append(f"{path}: an array without items has no strict form")
        else:
            _strict_walk(node["items"], f"{path}.items", depth, problems, totals)


def _check_name(name: str, format: WireFormat) -> None:
    rule = _NAME_RULES.get(format)
    if rule is None:
        return
    provider, pattern, words = rule
    if pattern.fullmatch(name) is None:
        raise ValueError(
            f"tool {name!r} cannot be sent in the {format!r} format: {provider} tool names "
            f"are {words}; register it under such a name (e.g. @tool(name=...))"
        )


def format_tool(
    name: str,
    description: str,
    parameters: Mapping[str, Any],
    output: Mapping[str, Any] | None,
    format: WireFormat,
) -> dict[str, Any]:
    """One tool in ``format`` (a fresh, plain dict; see the module docs for each shape).

    Raises:
        ValueError: ``format`` is not a format, or the provider cannot take ``name``.
    """
    check_format(format)
    _check_name(name, format)
    if format == "neutral":
        return {"name": name, "description": description, "parameters": _plain(parameters)}
    if format == "anthropic":
        return {"name": name, "description": description, "input_schema": _plain(parameters)}
    if format == "mcp":
        tool: dict[str, Any] = {
            "name": name,
            "description": description,
            "inputSchema": _plain(parameters),
        }
        if output is not None and output.get("type") == "object":
            tool["outputSchema"] = _plain(output)
        return tool
    if format == "gemini":
        declaration: dict[str, Any] = {
            "name": name,
            "description": description,
            "parametersJsonSchema": _plain(parameters),
        }
        if output is not None:
            declaration["responseJsonSchema"] = _plain(output)
        return declaration
    sent = _openai_schema(_plain(parameters), "$", [])
    strict = not openai_strict_problems(parameters)
    if format == "openai":
        return {
            "type": "function",
            "function": {
                "name": name,
                "description": description,
                "parameters": sent,
                "strict": strict,
            },
        }
    return {
        "type": "function",
        "name": name,
        "description": description,
        "parameters": sent,
        "strict": strict,
    }
