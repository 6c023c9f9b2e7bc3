"""The enforced JSON Schema subset: check a schema, then validate values against it.

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

Both walks are iterative, so neither a deep schema nor a deep value can exhaust
the interpreter's stack. A value's violations are described for the first
:data:`MAX_VIOLATIONS` only and counted past them: a program chooses the size of
its arguments, and one line per bad item made a million-item argument into a
55 MB message.

Validation costs time linear in the value, times only the number of schema
nodes that check one value (a ``oneOf``'s branches each do): ``enum`` is
checked by one lookup in a set of the allowed values' JSON keys (built once per
schema node, and kept for a frozen schema), not by comparing the item with each
allowed value, and a message shows at most :data:`MAX_SHOWN_CHOICES` of them;
an object's keys are looked up in the declared properties, or the other way
round, whichever side is smaller.
Validation in a worker thread stops at its :func:`~codemode._offload.stop_flag`
(checked every :data:`STOP_CHECK_EVERY` array items) once nobody waits for it.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Final, TypeAlias, final

import msgspec

from bridge.lossless import MAX_DEPTH, FrozenDict, LossyJsonError, format_path, materialize

from ._errors import UnsupportedSchemaError
from ._offload import WorkAbandoned, stop_flag

if TYPE_CHECKING:
    import threading
    from collections.abc import Iterable, Iterator, Mapping, Sequence

__all__ = [
    "MAX_SHOWN_CHOICES",
    "MAX_VIOLATIONS",
    "STOP_CHECK_EVERY",
    "SUPPORTED_KEYWORDS",
    "TYPE_NAMES",
    "Violation",
    "Violations",
    "assert_supported",
    "schema_problems",
    "validate",
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


def _shown(value: object, *, limit: int = 60) -> str:
    """``value`` as compact JSON text (or its kind when it is not JSON), cut at ``limit``."""
    try:
        text = msgspec.json.encode(materialize(value, accept_tuples=True)).decode()
    except (LossyJsonError, msgspec.EncodeError, ValueError):
        return _kind(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _is_scalar(value: object) -> bool:
    return type(value) in (str, int, float, bool) or value is None


def _matches_type(type_name: str, value: object) -> bool:
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


def _json_type(value: object) -> str:
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
            f"must be one of {_TYPE_TEXT} as a single string, got {_shown(value)}{hint}",
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
                self.report([*at, i], f"property {_shown(name)} is listed twice")
            else:
                seen.add(name)
                if name not in declared:
                    self.report([*at, i], f"required property {_shown(name)} is not declared "
                                          "in `properties`")

    def check_enum(self, value: object, type_name: str | None, at: list[_Part]) -> None:
        if type(value) not in _SEQUENCES or not value:
            self.report(at, f"must be a non-empty list of scalar values, got {_shown(value)}")
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
        if type_name is not None and not _matches_type(type_name, value):
            self.report(at, f'value {_shown(value)} does not match `type: "{type_name}"`')

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


# --- validating a value --------------------------------------------------------------------


@final
class Violation(msgspec.Struct, frozen=True):
    """One way a value fails its schema: where (``$.limit``) and what."""

    path: str
    message: str

    def __str__(self) -> str:
        return f"{self.message} - at `{self.path}`"


#: The most violations :func:`validate` describes; any more are only counted.
MAX_VIOLATIONS: Final = 20


@final
class Violations(list[Violation]):
    """What :func:`validate` found: the first violations in document order, and how many more.

    A list of at most :data:`MAX_VIOLATIONS` described violations (empty when
    the value matches); ``unlisted`` counts those found past them. It compares
    as the list it is.
    """

    __slots__ = ("unlisted",)

    def __init__(self, listed: Iterable[Violation] = (), unlisted: int = 0) -> None:
        super().__init__(listed)
        self.unlisted = unlisted

    def lines(self) -> list[str]:
        """One line per described violation, then one counting the unlisted ones, if any."""
        lines = [str(violation) for violation in self]
        if self.unlisted:
            noun = "violation" if self.unlisted == 1 else "violations"
            lines.append(
                f"and {self.unlisted} more {noun} (only the first {len(self)} are listed)"
            )
        return lines


class _Found:
    """Where a walk puts violations: the first ``limit`` described, the rest only counted.

    Describing one (its path, a value shown in the message) is the costly part,
    and a value of a million bad items would otherwise be described a million
    times.
    """

    __slots__ = ("limit", "listed", "total")

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.listed: list[Violation] = []
        self.total = 0

    def describes_next(self) -> bool:
        """Count one more violation; whether it is among the first ``limit``, to be described."""
        self.total += 1
        return self.total <= self.limit

    def full(self) -> bool:
        """Whether no further violation would be described."""
        return self.total >= self.limit

    def violations(self) -> Violations:
        return Violations(self.listed, self.total - len(self.listed))


def _json_equal(a: object, b: object) -> bool:
    """Scalar equality as JSON Schema sees it: ``1 == 1.0``, but ``true != 1``."""
    if type(a) is bool or type(b) is bool:
        return type(a) is type(b) and a == b
    if type(a) in (int, float) and type(b) in (int, float):
        return a == b
    return type(a) is type(b) and a == b


#: The most allowed values an ``enum`` violation shows; the rest are counted.
MAX_SHOWN_CHOICES: Final = 10

#: Array items walked between two looks at the validation's stop flag.
STOP_CHECK_EVERY: Final = 1024
_STOP_MASK: Final = STOP_CHECK_EVERY - 1

# The keys of the two booleans, which equal no number (Python has True == 1).
_TRUE: Final = object()
_FALSE: Final = object()
# The key of a value no allowed value equals (not a JSON scalar).
_NO_KEY: Final = object()


def _key(value: object) -> object:
    """``value``'s key: two scalars are :func:`_json_equal` exactly when their keys are equal.

    A number is its own key (Python already has ``1 == 1.0``, with equal hashes),
    a string and null too; a boolean has a key of its own, and anything else
    one that no allowed value has.
    """
    kind = type(value)
    if kind is str or kind is int or kind is float or value is None:
        return value
    if kind is bool:
        return _TRUE if value else _FALSE
    return _NO_KEY


def _choice_keys(choices: list[object] | tuple[object, ...]) -> frozenset[object] | None:
    """The keys of an ``enum``'s allowed values; ``None`` when one has no exact key.

    (Only in a schema that did not pass :func:`schema_problems`: such values are
    compared one by one, as before.)
    """
    keys: set[object] = set()
    for choice in choices:
        kind = type(choice)
        if kind is float and math.isnan(choice):  # type: ignore[arg-type]
            return None
        key = _key(choice)
        if key is _NO_KEY:
            return None
        keys.add(key)
    return frozenset(keys)


# id(frozen schema node) -> (a weak reference to it, its enum's keys). A frozen
# node and its tuple of choices never change, so the keys are built once per
# node; the entry goes when the node does.
_FROZEN_KEYS: dict[int, tuple[weakref.ref[FrozenDict], frozenset[object] | None]] = {}


def _forget(ident: int, ref: weakref.ref[FrozenDict]) -> None:
    entry = _FROZEN_KEYS.get(ident)
    if entry is not None and entry[0] is ref:
        _FROZEN_KEYS.pop(ident, None)


def _frozen_keys(
    node: FrozenDict, choices: tuple[object, ...]
) -> frozenset[object] | None:
    ident = id(node)
    entry = _FROZEN_KEYS.get(ident)
    if entry is not None and entry[0]() is node:
        return entry[1]
    keys = _choice_keys(choices)
    ref = weakref.ref(node, lambda dead: _forget(ident, dead))
    _FROZEN_KEYS[ident] = (ref, keys)
    return keys


@final
class _Run:
    """What one :func:`validate` call shares: lookups built from the schema, and the stop flag."""

    __slots__ = ("counts", "keys", "orders", "stop")

    def __init__(self, stop: threading.Event | None) -> None:
        self.stop = stop
        # id(part of the schema) -> (that part, what was built from it): the
        # part is kept alive, so an id is never reused within the call.
        self.keys: dict[int, tuple[object, frozenset[object] | None]] = {}
        self.counts: dict[int, tuple[object, dict[object, int]]] = {}
        self.orders: dict[int, tuple[object, dict[str, int]]] = {}

    def allows(
        self, node: Mapping[str, object], choices: list[object] | tuple[object, ...],
        item: object,
    ) -> bool:
        """Whether ``item`` is :func:`_json_equal` to one of ``choices``, in O(1)."""
        entry = self.keys.get(id(choices))
        if entry is None:
            if type(node) is FrozenDict and type(choices) is tuple:
                keys = _frozen_keys(node, choices)
            else:
                keys = _choice_keys(choices)
            entry = (choices, keys)
            self.keys[id(choices)] = entry
        keys = entry[1]
        if keys is None:
            return any(_json_equal(choice, item) for choice in choices)
        return _key(item) in keys

    def present_count(self, required: Sequence[object], item: dict[str, object]) -> int:
        """How many entries of ``required`` name a key of ``item``, in time linear in the item."""
        entry = self.counts.get(id(required))
        if entry is None:
            counts: dict[object, int] = {}
            for name in required:
                counts[name] = counts.get(name, 0) + 1
            entry = (required, counts)
            self.counts[id(required)] = entry
        counts = entry[1]
        return sum(counts.get(key, 0) for key in item)

    def positions(self, declared: Mapping[str, object]) -> Mapping[str, int]:
        """Each declared property's place in the schema, built once per call."""
        entry = self.orders.get(id(declared))
        if entry is None:
            entry = (declared, {name: i for i, name in enumerate(declared)})
            self.orders[id(declared)] = entry
        return entry[1]

    def check_stop(self) -> None:
        """Raise :class:`~codemode._offload.WorkAbandoned` once the stop flag is set."""
        if self.stop is not None and self.stop.is_set():
            raise WorkAbandoned


def _one_of_text(choices: list[object] | tuple[object, ...]) -> str:
    """The allowed values as a message shows them: the first :data:`MAX_SHOWN_CHOICES`."""
    listed = ", ".join(_shown(c) for c in choices[:MAX_SHOWN_CHOICES])
    more = len(choices) - MAX_SHOWN_CHOICES
    return listed if more <= 0 else f"{listed} … and {more} more"


_Check: TypeAlias = "tuple[Mapping[str, object], object, list[_Part], _Found]"
_Task: TypeAlias = "_Check | _OneOf | _Items"


class _OneOf:
    """Collects the outcome of each branch of one ``oneOf`` before judging it.

    A branch's own violations are never shown (only whether it had any), so
    they are counted, not described.
    """

    __slots__ = ("branches", "path", "sink")

    def __init__(self, sink: _Found, path: list[_Part], count: int) -> None:
        self.sink = sink
        self.path = path
        self.branches = [_Found(0) for _ in range(count)]

    def finish(self) -> None:
        matched = [i for i, found in enumerate(self.branches) if not found.total]
        if len(matched) == 1 or not self.sink.describes_next():
            return
        where = format_path(self.path)
        if not matched:
            self.sink.listed.append(Violation(where, "Expected exactly one `oneOf` branch to "
                                                     f"match, got none of {len(self.branches)}"))
        else:
            listed = ", ".join(str(i) for i in matched)
            self.sink.listed.append(Violation(where, "Expected exactly one `oneOf` branch to "
                                                     f"match, got {len(matched)} "
                                                     f"(branches {listed})"))


class _Items:
    """An array's items, checked one at a time so that the walk's stack stays as deep as the value.

    (Pushing a check per item held a million pending checks, with their paths,
    for a million-item array.)
    """

    __slots__ = ("items", "path", "run", "schema", "sink")

    def __init__(
        self, schema: Mapping[str, object], items: list[object] | tuple[object, ...],
        path: list[_Part], sink: _Found, run: _Run,
    ) -> None:
        self.schema = schema
        self.items: Iterator[tuple[int, object]] = enumerate(items)
        self.path = path
        self.sink = sink
        self.run = run

    def next_check(self) -> _Check | None:
        entry = next(self.items, None)
        if entry is None:
            return None
        index, item = entry
        if not index & _STOP_MASK:
            self.run.check_stop()
        return (self.schema, item, [*self.path, index], self.sink)


def validate(
    schema: Mapping[str, object], value: object, *, stop: threading.Event | None = None
) -> Violations:
    """Check ``value`` against a supported ``schema``; return its violations.

    Objects are open unless ``additionalProperties`` is false, and ``default``
    is never applied. The schema must already pass :func:`schema_problems`.
    ``value`` may be any Python object: non-JSON values simply fail their type.
    The work is linear in ``value``, whatever the size of an ``enum`` or the
    number of declared properties; a ``oneOf``'s branches each check the value.

    Args:
        schema: the schema.
        value: the value to check.
        stop: set when nobody waits for the verdict any more: the walk stops
            within :data:`STOP_CHECK_EVERY` array items. By default, the
            :func:`~codemode._offload.stop_flag` of the worker thread it runs
            in, if any.

    Returns:
        The first :data:`MAX_VIOLATIONS` violations in document order, with a
        count of the rest (``unlisted``); empty when ``value`` matches.

    Raises:
        WorkAbandoned: ``stop`` was set.
    """
    run = _Run(stop if stop is not None else stop_flag())
    run.check_stop()
    try:
        # Nearly every value matches: a plain recursive check says so at a
        # fraction of the cost of collecting violations with their paths.
        # Anything else (a mismatch, deep nesting, a check that raised) is
        # judged again below, which finds the violations or raises.
        if _accepts(schema, value, _ACCEPT_DEPTH, run):
            return Violations()
    except WorkAbandoned:
        raise
    except Exception:
        pass
    return _violations(schema, value, run=run)


#: The deepest nesting :func:`_accepts` follows; a deeper value takes the full walk.
_ACCEPT_DEPTH: Final = 32


class _TooDeep(Exception):
    """:func:`_accepts` gave up: the value is nested deeper than it follows."""


def _declared(node: Mapping[str, object]) -> Mapping[str, object]:
    """An object schema's declared properties (none when ``properties`` is not a mapping)."""
    properties = node.get("properties")
    return properties if isinstance(properties, dict) else {}


def _required(node: Mapping[str, object]) -> list[object] | tuple[object, ...]:
    """An object schema's required names (none when ``required`` is not a list)."""
    required = node.get("required")
    return required if isinstance(required, (list, tuple)) else ()


def _accepts(
    node: Mapping[str, object], item: object, depth: int, run: _Run | None = None
) -> bool:
    """Whether :func:`_violations` finds nothing, decided without building any violation.

    The same rules in the same terms; raises :class:`_TooDeep` past ``depth``
    levels, so that a ``oneOf`` branch is never counted as a mismatch it was not.
    """
    if run is None:
        run = _Run(stop_flag())
    if depth == 0:
        raise _TooDeep
    depth -= 1
    type_name = node.get("type")
    if type(type_name) is str and not _matches_type(type_name, item):
        return False
    choices = node.get("enum")
    if isinstance(choices, (list, tuple)) and not run.allows(node, choices, item):
        return False
    if "const" in node and not _json_equal(node["const"], item):
        return False
    if type_name == "object" and isinstance(item, dict):
        declared = _declared(node)
        required = _required(node)
        # The required names are distinct, so fewer keys means one is missing;
        # otherwise the loop is no longer than the item.
        if len(item) < len(required):
            return False
        for name in required:
            if name not in item:
                return False
        if node.get("additionalProperties") is False:
            for key in item:
                if key not in declared:
                    return False
        for name, sub in _present(declared, item):
            if isinstance(sub, dict) and not _accepts(sub, item[name], depth, run):
                return False
    elif type_name == "array" and isinstance(item, (list, tuple)):
        items = node.get("items")
        if isinstance(items, dict):
            for index, sub in enumerate(item):
                if not index & _STOP_MASK:
                    run.check_stop()
                if not _accepts(items, sub, depth, run):
                    return False
    branches = node.get("oneOf")
    if isinstance(branches, (list, tuple)):
        # A branch that is not a schema has nothing to check: it matches.
        matched = sum(
            1 for branch in branches
            if not isinstance(branch, dict) or _accepts(branch, item, depth, run)
        )
        if matched != 1:
            return False
    return True


def _violations(
    schema: Mapping[str, object], value: object, limit: int = MAX_VIOLATIONS,
    *, run: _Run | None = None,
) -> Violations:
    """The first ``limit`` violations of ``value`` against ``schema``, in document order.

    Every violation is found and counted; only the first ``limit`` are described.
    """
    if run is None:
        run = _Run(stop_flag())
    found = _Found(limit)
    stack: list[_Task] = [(schema, value, [], found)]
    while stack:
        task = stack.pop()
        if isinstance(task, _OneOf):
            task.finish()
            continue
        if isinstance(task, _Items):
            check = task.next_check()
            if check is not None:
                stack.append(task)
                stack.append(check)
            continue
        node, item, path, sink = task
        later: list[_Task] = []
        type_name = node.get("type")
        if type(type_name) is str and not _matches_type(type_name, item):
            if sink.describes_next():
                sink.listed.append(Violation(format_path(path),
                                             f"Expected `{type_name}`, got `{_json_type(item)}`"))
            continue
        choices = node.get("enum")
        if (
            isinstance(choices, (list, tuple))
            and not run.allows(node, choices, item)
            and sink.describes_next()
        ):
            sink.listed.append(Violation(format_path(path),
                                         f"Expected one of {_one_of_text(choices)}, "
                                         f"got {_shown(item)}"))
        if "const" in node and not _json_equal(node["const"], item) and sink.describes_next():
            sink.listed.append(Violation(format_path(path),
                                         f"Expected {_shown(node['const'])}, got {_shown(item)}"))
        if type_name == "object" and isinstance(item, dict):
            later.extend(_object_tasks(node, item, path, sink, run))
        elif type_name == "array" and isinstance(item, (list, tuple)):
            items = node.get("items")
            if isinstance(items, dict):
                later.append(_Items(items, item, path, sink, run))
        branches = node.get("oneOf")
        if isinstance(branches, (list, tuple)):
            group = _OneOf(sink, path, len(branches))
            later.append(group)
            later.extend(
                (branch, item, path, group.branches[i])
                for i, branch in enumerate(branches)
                if isinstance(branch, dict)
            )
        # Run the node's subtasks in document order (the stack is LIFO); a
        # oneOf group is judged after all of its branches have run.
        if later:
            group_tasks = [t for t in later if not isinstance(t, _OneOf)]
            groups = [t for t in later if isinstance(t, _OneOf)]
            stack.extend(groups)
            stack.extend(reversed(group_tasks))
    return found.violations()


def _object_tasks(
    node: Mapping[str, object], item: dict[str, object], path: list[_Part], sink: _Found,
    run: _Run,
) -> list[_Check]:
    """Check required and undeclared keys; return the declared properties to walk.

    The work is linear in the item, however many properties the schema
    declares: a missing name is looked for in the schema only while violations
    are still described, and the rest are counted.
    """
    declared = _declared(node)
    required = _required(node)
    if len(item) >= len(required):
        for name in required:
            if name not in item and sink.describes_next():
                sink.listed.append(_missing(path, name))
    else:
        missing = len(required) - run.present_count(required, item)
        for name in required:
            if not missing or sink.full():
                break
            if name not in item:
                missing -= 1
                sink.describes_next()
                sink.listed.append(_missing(path, name))
        sink.total += missing
    if node.get("additionalProperties") is False:
        for key in item:
            if key not in declared and sink.describes_next():
                sink.listed.append(Violation(format_path(path),
                                             f"property {_shown(key)} is not allowed "
                                             "(additionalProperties is false)"))
    present = _present(declared, item)
    if len(item) < len(declared) and len(present) > 1:
        # Looked up in the item's order: walk them in the schema's, the order
        # violations are listed in.
        position = run.positions(declared)
        present.sort(key=lambda entry: position[entry[0]])
    return [
        (sub, item[name], [*path, name], sink)
        for name, sub in present
        if isinstance(sub, dict)
    ]


def _missing(path: list[_Part], name: object) -> Violation:
    return Violation(format_path(path), f"missing required property {_shown(name)}")


def _present(
    declared: Mapping[str, object], item: dict[str, object]
) -> list[tuple[str, object]]:
    """The declared properties that ``item`` has, as ``(name, schema)`` pairs.

    Looked up from the smaller side: an item with few keys against a schema
    that declares many costs its own size (200,000 empty objects against 1,000
    optional properties were 200 million lookups).
    """
    if len(item) >= len(declared):
        return [(name, sub) for name, sub in declared.items() if name in item]
    return [(key, declared[key]) for key in item if key in declared]
