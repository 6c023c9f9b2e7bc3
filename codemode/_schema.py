"""The enforced JSON Schema subset: which schemas are supported, and why one is not.

A tool's parameter and output schemas are plain JSON Schema, restricted to what
this module enforces::

    type        one of "object", "array", "string", "number", "integer", "boolean", "null"
    oneOf       two or more schemas; exactly one must match
    properties  property schemas            (only with type "object")
    required    declared property names     (only with type "object")
    additionalProperties  true or false     (only with type "object"; open by default)
    items       one schema for every item   (only with type "array")
    enum        non-empty list of scalars   (each matching the node's type)
    const       one scalar                  (matching the node's type)
    description, title   strings (annotations)
    default, examples    lossless JSON (annotations, never applied)

The empty schema ``{}`` means any JSON value. Anything else is refused rather
than silently ignored: :func:`schema_problems` lists every offending path at
once, and :func:`assert_supported` raises them as one
:class:`~codemode.UnsupportedSchemaError`.

The walk is iterative, so a deep schema cannot exhaust the interpreter's
stack. Values are validated against a supported schema by
:mod:`codemode._validate`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Final, TypeAlias

import msgspec

from bridge.lossless import MAX_DEPTH, FrozenDict, LossyJsonError, format_path, materialize

from ._errors import UnsupportedSchemaError

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "SUPPORTED_KEYWORDS",
    "TYPE_NAMES",
    "assert_supported",
    "json_type",
    "matches_type",
    "schema_problems",
    "schema_width",
    "shown",
]

#: Every keyword the subset understands, in the order messages list them.
SUPPORTED_KEYWORDS: Final = (
    "type",
    "oneOf",
    "properties",
    "required",
    "additionalProperties",
    "items",
    "enum",
    "const",
    "description",
    "title",
    "default",
    "examples",
)
_SUPPORTED: Final = frozenset(SUPPORTED_KEYWORDS)
_SUPPORTED_TEXT: Final = ", ".join(SUPPORTED_KEYWORDS)

#: The seven JSON Schema type names; ``type`` takes exactly one of them.
TYPE_NAMES: Final = ("array", "boolean", "integer", "null", "number", "object", "string")
_TYPE_NAMES: Final = frozenset(TYPE_NAMES)
_TYPE_TEXT: Final = ", ".join(f'"{name}"' for name in TYPE_NAMES)

_Part: TypeAlias = "str | int"
_SEQUENCES: Final = (list, tuple)
_MAPPINGS: Final = (dict, FrozenDict)


# --- checking a schema ---------------------------------------------------------------------


def _kind(value: object) -> str:
    """A short, safe description of a value's JSON kind (never calls its ``repr``)."""
    kind = type(value)
    if kind in _MAPPINGS:
        return "an object"
    if kind in _SEQUENCES:
        return "an array"
    if kind is str:
        return "a string"
    if kind is bool:
        return "a boolean"
    if kind in (int, float):
        return "a number"
    if value is None:
        return "null"
    return f"a value of type {kind.__qualname__}"


def shown(value: object, *, limit: int = 60) -> str:
    """``value`` as compact JSON text (or its kind when it is not JSON), cut at ``limit``."""
    try:
        text = msgspec.json.encode(materialize(value, accept_tuples=True)).decode()
    except (LossyJsonError, msgspec.EncodeError, ValueError):
        return _kind(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_scalar(value: object) -> bool:
    return type(value) in (str, int, float, bool) or value is None


def matches_type(type_name: str, value: object) -> bool:
    """Whether ``value`` has JSON type ``type_name`` (JSON Schema's rules)."""
    kind = type(value)
    if type_name == "string":
        return kind is str
    if type_name == "integer":
        if kind is int:
            return True
        # JSON Schema counts a number with a zero fractional part as an integer.
        return kind is float and math.isfinite(value) and value.is_integer()  # type: ignore[arg-type, attr-defined]
    if type_name == "number":
        return kind is int or (kind is float and math.isfinite(value))  # type: ignore[arg-type]
    if type_name == "boolean":
        return kind is bool
    if type_name == "null":
        return value is None
    if type_name == "object":
        return kind in _MAPPINGS
    if type_name == "array":
        return kind in _SEQUENCES
    return False


def json_type(value: object) -> str:
    """The JSON type name of ``value`` for messages (ints are ``integer``, floats ``number``)."""
    kind = type(value)
    if kind is bool:
        return "boolean"
    if kind is int:
        return "integer"
    if kind is float:
        return "number"
    if kind is str:
        return "string"
    if value is None:
        return "null"
    if kind in _MAPPINGS:
        return "object"
    if kind in _SEQUENCES:
        return "array"
    return kind.__qualname__


class _SchemaWalk:
    """One pass of :func:`schema_problems` over a schema."""

    def __init__(self) -> None:
        self.problems: list[str] = []

    def report(self, path: list[_Part], message: str) -> None:
        self.problems.append(f"`{format_path(path)}`: {message}")

    def run(self, schema: object) -> list[str]:
        # Frames: ("node", value, path, json depth) or ("leave", id) to keep the
        # set of nodes on the current path exact (a shared subschema is fine,
        # a node that contains itself is not).
        on_path: set[int] = set()
        stack: list[tuple[object, list[_Part], int] | int] = [(schema, [], 1)]
        while stack:
            frame = stack.pop()
            if isinstance(frame, int):
                on_path.discard(frame)
                continue
            node, path, depth = frame
            children = self.check_node(node, path, depth, on_path)
            if children is None:
                continue
            on_path.add(id(node))
            stack.append(id(node))
            stack.extend(reversed(children))
        return self.problems

    def check_node(
        self, node: object, path: list[_Part], depth: int, on_path: set[int]
    ) -> list[tuple[object, list[_Part], int]] | None:
        """Report the node's own problems; return its subschemas to walk next."""
        if type(node) not in _MAPPINGS:
            self.report(path, f"a schema must be an object, got {_kind(node)}")
            return None
        if id(node) in on_path:
            self.report(path, "the schema contains itself (a cycle)")
            return None
        if depth > MAX_DEPTH:
            self.report(path, f"the schema is nested deeper than {MAX_DEPTH} levels")
            return None
        assert isinstance(node, dict)
        children: list[tuple[object, list[_Part], int]] = []
        keys: list[str] = []
        for key in node:
            if type(key) is not str:
                self.report(path, f"a key of type {type(key).__qualname__} is not allowed; "
                                  "schema keys must be strings")
            elif key not in _SUPPORTED:
                self.report([*path, key], f"keyword `{key}` is not supported "
                                          f"(supported: {_SUPPORTED_TEXT})")
            else:
                keys.append(key)
        type_name = self.check_type(node, path)
        for key in keys:
            value = node[key]
            at = [*path, key]
            if key == "oneOf":
                children.extend(self.check_one_of(value, at, depth))
            elif key == "properties":
                self.need_type(type_name, "object", at, key)
                children.extend(self.check_properties(value, at, depth))
            elif key == "required":
                self.need_type(type_name, "object", at, key)
                self.check_required(value, node.get("properties"), at)
            elif key == "additionalProperties":
                self.need_type(type_name, "object", at, key)
                if type(value) is not bool:
                    self.report(at, f"must be true or false, got {_kind(value)} "
                                    "(a schema for additional properties is not supported)")
            elif key == "items":
                self.need_type(type_name, "array", at, key)
                if type(value) in _SEQUENCES:
                    self.report(at, "must be one schema for every item "
                                    "(a list of schemas per position is not supported)")
                else:
                    children.append((value, at, depth + 1))
            elif key == "enum":
                self.check_enum(value, type_name, at)
            elif key == "const":
                self.check_scalar(value, type_name, at, "`const`")
            elif key in ("description", "title"):
                if type(value) is not str:
                    self.report(at, f"must be a string, got {_kind(value)}")
            elif key in ("default", "examples"):
                self.check_lossless(value, at)
        return children

    def check_type(self, node: Mapping[str, object], path: list[_Part]) -> str | None:
        if "type" not in node:
            return None
        value = node["type"]
        if type(value) is str and value in _TYPE_NAMES:
            return value
        hint = " (use oneOf for a union of types)" if type(value) in _SEQUENCES else ""
        self.report(
            [*path, "type"],
            f"must be one of {_TYPE_TEXT} as a single string, got {shown(value)}{hint}",
        )
        return None

    def need_type(self, type_name: str | None, needed: str, at: list[_Part], key: str) -> None:
        if type_name != needed:
            self.report(at, f'keyword `{key}` needs `type: "{needed}"` on the same schema')

    def check_one_of(
        self, value: object, at: list[_Part], depth: int
    ) -> list[tuple[object, list[_Part], int]]:
        if type(value) not in _SEQUENCES:
            self.report(at, f"must be a list of at least two schemas, got {_kind(value)}")
            return []
        assert isinstance(value, (list, tuple))
        if len(value) < 2:
            self.report(at, f"must be a list of at least two schemas, got {len(value)}")
        return [(branch, [*at, i], depth + 2) for i, branch in enumerate(value)]

    def check_properties(
        self, value: object, at: list[_Part], depth: int
    ) -> list[tuple[object, list[_Part], int]]:
        if type(value) not in _MAPPINGS:
            self.report(at, f"must be an object of property schemas, got {_kind(value)}")
            return []
        assert isinstance(value, dict)
        children: list[tuple[object, list[_Part], int]] = []
        for name, sub in value.items():
            if type(name) is not str:
                self.report(at, f"a property name of type {type(name).__qualname__} is not "
                                "allowed; property names must be strings")
                continue
            children.append((sub, [*at, name], depth + 2))
        return children

    def check_required(self, value: object, properties: object, at: list[_Part]) -> None:
        if type(value) not in _SEQUENCES:
            self.report(at, f"must be a list of property names, got {_kind(value)}")
            return
        assert isinstance(value, (list, tuple))
        declared = properties if type(properties) in _MAPPINGS else {}
        assert isinstance(declared, dict)
        seen: set[str] = set()
        for i, name in enumerate(value):
            if type(name) is not str:
                self.report([*at, i], f"must be a property name (a string), got {_kind(name)}")
            elif name in seen:
                self.report([*at, i], f"property {shown(name)} is listed twice")
            else:
                seen.add(name)
                if name not in declared:
                    self.report([*at, i], f"required property {shown(name)} is not declared "
                                          "in `properties`")

    def check_enum(self, value: object, type_name: str | None, at: list[_Part]) -> None:
        if type(value) not in _SEQUENCES or not value:
            self.report(at, f"must be a non-empty list of scalar values, got {shown(value)}")
            return
        assert isinstance(value, (list, tuple))
        for i, item in enumerate(value):
            self.check_scalar(item, type_name, [*at, i], "each `enum` value")

    def check_scalar(
        self, value: object, type_name: str | None, at: list[_Part], what: str
    ) -> None:
        if not _is_scalar(value):
            self.report(at, f"{what} must be a string, number, boolean or null, "
                            f"got {_kind(value)}")
            return
        try:
            materialize(value)
        except LossyJsonError as exc:
            self.report(at, exc.reason)
            return
        if type_name is not None and not matches_type(type_name, value):
            self.report(at, f'value {shown(value)} does not match `type: "{type_name}"`')

    def check_lossless(self, value: object, at: list[_Part]) -> None:
        try:
            materialize(value, accept_tuples=True)
        except LossyJsonError as exc:
            inner = exc.path[1:]  # the offending value's path below the annotation
            self.problems.append(f"`{format_path(at)}{inner}`: {exc.reason}")


def schema_problems(schema: object) -> list[str]:
    """List every way ``schema`` falls outside the enforced subset.

    Each problem names its path, for example
    ``` `$.properties.limit.minimum`: keyword `minimum` is not supported (...) ```.
    The check is total: any Python object (non-dict nodes, non-str keys,
    cycles, very deep nesting) gives problems, never an exception.

    Returns:
        The problems in document order; empty when the schema is supported.
    """
    return _SchemaWalk().run(schema)


def schema_width(schema: object, *, limit: int = 1_000_000) -> int:
    """The most schema nodes that check one value of ``schema``: its ``oneOf`` fan-out.

    Validation checks a value against every node that applies to it, so a
    value costs its size times this. Nodes apply to the same value through
    ``oneOf`` branches (each checks the whole value); the properties of that
    name and the ``items`` of every such node apply to the value's parts. The
    walk is iterative and looks at each node once; past ``limit`` nodes
    (shared subschemas make a walk longer than the schema) it stops and
    answers ``limit``.
    """
    widest = 0
    visited = 0
    groups: list[list[object]] = [[schema]]
    while groups:
        pending = groups.pop()
        nodes: list[Mapping[str, object]] = []
        while pending:
            node = pending.pop()
            if type(node) not in _MAPPINGS:
                continue
            assert isinstance(node, dict)
            visited += 1
            if visited > limit:
                return limit
            nodes.append(node)
            branches = node.get("oneOf")
            if type(branches) in _SEQUENCES:
                assert isinstance(branches, (list, tuple))
                pending.extend(branches)
        widest = max(widest, len(nodes))
        by_name: dict[object, list[object]] = {}
        items: list[object] = []
        for node in nodes:
            properties = node.get("properties")
            if type(properties) in _MAPPINGS:
                assert isinstance(properties, dict)
                for name, sub in properties.items():
                    by_name.setdefault(name, []).append(sub)
            if "items" in node:
                items.append(node["items"])
        groups.extend(by_name.values())
        if items:
            groups.append(items)
    return widest


def assert_supported(schema: object, *, what: str = "schema") -> None:
    """Raise unless ``schema`` is inside the enforced subset.

    Args:
        schema: the JSON Schema to check.
        what: how the message names the schema (``"parameters of tool \\"x\\""``).

    Raises:
        UnsupportedSchemaError: listing every problem (code ``UNSUPPORTED_SCHEMA``).
    """
    problems = schema_problems(schema)
    if problems:
        raise UnsupportedSchemaError(problems, what=what)
