"""Checking an MCP server's tool schemas against the enforced JSON Schema subset.

An imported tool keeps its server's schemas exactly: a schema the subset cannot
enforce is reported with every offending path, and the caller decides whether
that tool is skipped or the whole import refused. Nothing is dropped to make a
schema fit.

One rewrite is made, because it changes no schema's meaning: ``anyOf`` whose
branches each declare a different single JSON type (what Pydantic writes for
``str | None``) becomes ``oneOf``. Values of different JSON types are disjoint,
so "at least one branch matches" and "exactly one matches" accept the same
values. ``integer`` next to ``number`` is not rewritten (an integer matches
both), nor is any branch with more than a ``type`` and annotations to go on.

The import also passes every ``description`` and ``title`` through the rule
for text shown to the model (``_listing.visible_text``): they are prompt text,
and constrain nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._schema import schema_problems, schema_width

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.lossless import JsonValue

__all__ = ["MAX_IMPORTED_WIDTH", "exact_rewrite", "import_problems"]

#: Keywords a branch may carry next to its ``type`` and still be judged by its type alone.
_ANNOTATIONS: Final = frozenset({"type", "title", "description", "default", "examples"})
#: The MCP spec's JSON Schema dialect marker; it names the dialect, it constrains nothing.
_DIALECT: Final = "$schema"
#: Annotations that are text for the model, never a constraint.
_SHOWN: Final = frozenset({"description", "title"})


def _disjoint_by_type(branches: object) -> bool:
    if not isinstance(branches, list) or len(branches) < 2:
        return False
    seen: set[str] = set()
    for branch in branches:
        if not isinstance(branch, dict) or not set(branch) <= _ANNOTATIONS:
            return False
        kind = branch.get("type")
        if not isinstance(kind, str) or kind in seen:
            return False
        seen.add(kind)
    return not {"integer", "number"} <= seen


def exact_rewrite(schema: JsonValue, *, shown: Callable[[str], str] | None = None) -> JsonValue:
    """``schema`` with type-disjoint ``anyOf`` spelled ``oneOf`` and the root ``$schema`` removed.

    Only schema positions are walked (``properties`` values, ``items``,
    ``additionalProperties``, ``oneOf``/``anyOf`` branches): a property named
    ``anyOf`` or a ``default`` holding one is data and stays as it is. The walk
    is iterative, so a deep schema cannot exhaust the stack; the result is a
    new plain value and ``schema`` is not changed.

    ``shown``, when given, rewrites the text of every ``description`` and
    ``title`` at a schema position (prompt text, not constraints: what a
    schema accepts does not change).
    """
    if not isinstance(schema, dict):
        return schema
    root: dict[str, JsonValue] = {}
    stack: list[tuple[dict[str, JsonValue], dict[str, JsonValue]]] = [
        ({k: v for k, v in schema.items() if k != _DIALECT}, root)
    ]
    while stack:
        node, out = stack.pop()
        for key, value in node.items():
            if key == "anyOf" and "oneOf" not in node and _disjoint_by_type(value):
                key = "oneOf"
            if key in ("oneOf", "anyOf") and isinstance(value, list):
                out[key] = [_schema_copy(v, stack) for v in value]
            elif key == "properties" and isinstance(value, dict):
                out[key] = {name: _schema_copy(v, stack) for name, v in value.items()}
            elif key in ("items", "additionalProperties"):
                out[key] = _schema_copy(value, stack)
            elif shown is not None and key in _SHOWN and isinstance(value, str):
                out[key] = shown(value)
            else:
                out[key] = value  # data or an annotation: kept exactly
    return root


def _schema_copy(
    value: JsonValue, stack: list[tuple[dict[str, JsonValue], dict[str, JsonValue]]]
) -> JsonValue:
    if not isinstance(value, dict):
        return value
    child: dict[str, JsonValue] = {}
    stack.append((value, child))
    return child


#: The most schema nodes of an imported schema that may check one value
#: (:func:`~codemode._schema.schema_width`). Each checks all of the value: a
#: server's 10,000-branch ``oneOf`` against a program's 100,000-item argument
#: was a billion checks of host CPU. Union types of real tools have a handful.
MAX_IMPORTED_WIDTH: Final = 64


def import_problems(input_schema: JsonValue, output_schema: JsonValue | None) -> list[str]:
    """Every reason a tool's schemas cannot be enforced here, each naming its path.

    Input problems read ``input schema: `$.properties.x.format`: ...``; output
    problems ``output schema: ...``. The input schema must also be object-rooted,
    and neither may have more than :data:`MAX_IMPORTED_WIDTH` nodes checking
    one value.
    """
    problems = [f"input schema: {p}" for p in _problems(input_schema)]
    if not problems and isinstance(input_schema, dict) and input_schema.get("type") != "object":
        problems.append('input schema: `$`: the root must declare "type": "object"')
    if output_schema is not None:
        problems.extend(f"output schema: {p}" for p in _problems(output_schema))
    return problems


def _problems(schema: JsonValue) -> list[str]:
    problems = schema_problems(schema)
    if not problems:
        width = schema_width(schema)
        if width > MAX_IMPORTED_WIDTH:
            problems.append(
                f"`$`: more than {MAX_IMPORTED_WIDTH} schema nodes (through `oneOf` branches) "
                "check one value; validating an argument costs its size times that, so an "
                "imported schema may have at most this many"
            )
    return problems
