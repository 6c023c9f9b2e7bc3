"""Validating values against a supported schema (:mod:`codemode._schema` checks the schema).

Objects are open unless ``additionalProperties`` is false, and ``default`` is
never applied. The walk is iterative, so a deep value cannot exhaust the
interpreter's stack. A value's violations are described for the first
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

A value that matches is told so by a quick check that builds no message; any
other is walked again to find its violations. A frozen schema (every tool's
parameters and output schema) gets a quick check of its own, built from it once
(the second time it is validated with) and kept while it lives: a tree of small
functions making exactly the checks the generic quick check makes, without
looking up the schema's keywords again for every value
(:mod:`codemode._validate_quick`). :func:`verdict` is that quick check alone:
describing a refused value costs many times more per value than telling that
it is refused, so a caller on the event loop walks only a small refused value
there (:data:`INLINE_WALK_NODES`) and a larger one in a worker thread.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Final, TypeAlias, final

import msgspec

from bridge.lossless import FrozenDict, format_path

from ._offload import WorkAbandoned, stop_flag
from ._schema import json_type, matches_type, shown

if TYPE_CHECKING:
    import threading
    from collections.abc import Iterable, Iterator, Mapping, Sequence

_Part: TypeAlias = "str | int"

__all__ = [
    "INLINE_WALK_NODES",
    "MAX_SHOWN_CHOICES",
    "MAX_VIOLATIONS",
    "STOP_CHECK_EVERY",
    "Violation",
    "Violations",
    "validate",
    "verdict",
]


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
    listed = ", ".join(shown(c) for c in choices[:MAX_SHOWN_CHOICES])
    more = len(choices) - MAX_SHOWN_CHOICES
    return listed if more <= 0 else f"{listed} … and {more} more"


def _wrong_type(node: Mapping[str, object], type_name: str, item: object) -> str:
    """The message for a value of the wrong type: the allowed values when the node lists them.

    ``priority=2`` for ``Literal["high", "low", "normal"]`` says which strings
    to write, not only that a string was expected.
    """
    # A scalar is shown as it is; a container (of any size) only by its type.
    got = shown(item) if type(item) in (str, int, float, bool) else f"`{json_type(item)}`"
    choices = node.get("enum")
    if isinstance(choices, (list, tuple)) and choices:
        return f"Expected one of {_one_of_text(choices)}, got {got}"
    if "const" in node:
        return f"Expected {shown(node['const'])}, got {got}"
    return f"Expected `{type_name}`, got `{json_type(item)}`"


_Check: TypeAlias = "tuple[Mapping[str, object], object, list[_Part], _Found]"
_Task: TypeAlias = "_Check | _OneOf | _Items"


class _OneOf:
    """Collects the outcome of each branch of one ``oneOf`` before judging it.

    A branch's own violations are counted, not described, except those of the
    one branch whose ``type`` is the value's when every other branch declares
    another type (``OrderFilter | None`` given an object): when no branch
    matches, that branch's violations are the value's, so they are shown in
    its place (``Expected one of "pending", … - at `$.filters.status[0]```),
    with their own paths. When no branch declares the value's type, the
    violation lists the types (``Expected `object` or `null`, got `string```).
    """

    __slots__ = ("branches", "choices", "got", "path", "sink", "typed", "types")

    def __init__(
        self, sink: _Found, path: list[_Part], branches: list[object] | tuple[object, ...],
        item: object,
    ) -> None:
        self.sink = sink
        self.path = path
        # Each branch's declared type, or None when it declares none.
        declared = [
            b.get("type") if isinstance(b, dict) and type(b.get("type")) is str else None
            for b in branches
        ]
        fitting = [i for i, t in enumerate(declared) if t is not None and matches_type(t, item)]
        self.typed = (
            fitting[0] if len(fitting) == 1 and None not in declared else None
        )
        self.types = (
            [t for t in declared if t is not None] if None not in declared and not fitting
            else None
        )
        self.got = ""
        self.choices: list[object] | None = None
        if self.types:
            self.choices = _branch_choices(branches)
            self.got = (
                shown(item) if self.choices and type(item) in (str, int, float, bool)
                else f"`{json_type(item)}`"
            )
        # The typed branch describes no more than the sink may still show: a
        # violation described there and then dropped would cost its message
        # (values of the schema's choices shown) for every item of an array.
        room = max(0, sink.limit - sink.total)
        self.branches = [
            _Found(room if i == self.typed else 0) for i in range(len(branches))
        ]

    def finish(self) -> None:
        matched = [i for i, found in enumerate(self.branches) if not found.total]
        if len(matched) == 1:
            return
        if not matched and self.typed is not None:
            # The branch of the value's type speaks for it.
            found = self.branches[self.typed]
            for violation in found.listed:
                if self.sink.describes_next():
                    self.sink.listed.append(violation)
            self.sink.total += found.total - len(found.listed)
            return
        if not self.sink.describes_next():
            return
        where = format_path(self.path)
        if not matched and self.choices:
            self.sink.listed.append(Violation(
                where, f"Expected one of {_one_of_text(self.choices)}, got {self.got}"
            ))
        elif not matched and self.types:
            expected = " or ".join(f"`{t}`" for t in dict.fromkeys(self.types))
            self.sink.listed.append(Violation(where, f"Expected {expected}, got {self.got}"))
        elif not matched:
            self.sink.listed.append(Violation(where, "Expected exactly one `oneOf` branch to "
                                                     f"match, got none of {len(self.branches)}"))
        else:
            listed = ", ".join(str(i) for i in matched)
            self.sink.listed.append(Violation(where, "Expected exactly one `oneOf` branch to "
                                                     f"match, got {len(matched)} "
                                                     f"(branches {listed})"))


def _branch_choices(branches: list[object] | tuple[object, ...]) -> list[object] | None:
    """Every value the branches allow, when each is an ``enum``, a ``const`` or ``null``.

    ``Literal["free", "pro"] | None`` given ``3`` then says ``Expected one of
    "free", "pro", null``; ``None`` when a branch allows more than listed values.
    """
    values: list[object] = []
    for branch in branches:
        if not isinstance(branch, dict):
            return None
        choices = branch.get("enum")
        if isinstance(choices, (list, tuple)):
            values.extend(choices[: MAX_SHOWN_CHOICES + 1])
        elif "const" in branch:
            values.append(branch["const"])
        elif branch.get("type") == "null":
            values.append(None)
        else:
            return None
        if len(values) > MAX_SHOWN_CHOICES:
            break
    return values


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
    if stop is None:
        stop = stop_flag()
    matched, run = _quick_verdict(schema, value, stop)
    if matched:
        return Violations()
    # A mismatch, deep nesting, or a check that raised: the walk finds the
    # violations (or raises).
    return _violations(schema, value, run=run if run is not None else _Run(stop))


#: The most values (as :func:`~bridge.lossless.exceeds_nodes` weighs them) whose
#: violations may be walked on the event loop. The quick check that tells whether a
#: value matches costs about as much per value as the host's other linear work, so
#: it follows the loop's rule (:data:`~bridge.lossless.INLINE_NODES`); the walk
#: that describes a refused value costs 15 to 35 times more per value (a refused
#: list of 2,040 items against ``list[Literal[...] | None]`` took 54 ms), so a
#: refused value larger than this is described in a worker thread.
INLINE_WALK_NODES: Final = 64


def verdict(
    schema: Mapping[str, object], value: object, *, stop: threading.Event | None = None
) -> bool | None:
    """Whether ``value`` matches ``schema``, told by the quick check alone; never walks it.

    ``True``: :func:`validate` finds no violation (it trusts this same check).
    ``False``: the quick check refuses it, and :func:`validate` walks it to find
    the violations (for a schema in the subset, it finds at least one). ``None``:
    the quick check cannot tell (a value nested deeper than it follows), only
    the walk can. Linear in the value at the cost of the host's other linear
    work, so it may run wherever a copy of the value may: the walk that
    describes a refused value costs far more (see :data:`INLINE_WALK_NODES`).

    Raises:
        WorkAbandoned: ``stop`` (by default, the worker thread's
            :func:`~codemode._offload.stop_flag`) was set.
    """
    if stop is None:
        stop = stop_flag()
    matched, _ = _quick_verdict(schema, value, stop)
    return matched


def _quick_verdict(
    schema: Mapping[str, object], value: object, stop: threading.Event | None
) -> tuple[bool | None, _Run | None]:
    """The quick check's verdict (``None``: it raised), and the generic check's run, if made."""
    if stop is not None and stop.is_set():
        raise WorkAbandoned
    # A frozen schema (every tool's) has a check of its own, built once it is
    # validated with again.
    accept = _quick.compiled(schema, now=False) if type(schema) is FrozenDict else None
    run = None
    try:
        # Nearly every value matches: a plain recursive check says so at a
        # fraction of the cost of collecting violations with their paths.
        if accept is not None:
            return accept(value, stop), None
        run = _Run(stop)
        return _accepts(schema, value, _ACCEPT_DEPTH, run), run
    except WorkAbandoned:
        raise
    except Exception:
        return None, run


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
    if type(type_name) is str and not matches_type(type_name, item):
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
        if type(type_name) is str and not matches_type(type_name, item):
            if sink.describes_next():
                sink.listed.append(Violation(format_path(path), _wrong_type(node, type_name, item)))
            continue
        choices = node.get("enum")
        if (
            isinstance(choices, (list, tuple))
            and not run.allows(node, choices, item)
            and sink.describes_next()
        ):
            sink.listed.append(Violation(format_path(path),
                                         f"Expected one of {_one_of_text(choices)}, "
                                         f"got {shown(item)}"))
        if "const" in node and not _json_equal(node["const"], item) and sink.describes_next():
            sink.listed.append(Violation(format_path(path),
                                         f"Expected {shown(node['const'])}, got {shown(item)}"))
        if type_name == "object" and isinstance(item, dict):
            later.extend(_object_tasks(node, item, path, sink, run))
        elif type_name == "array" and isinstance(item, (list, tuple)):
            items = node.get("items")
            if isinstance(items, dict):
                later.append(_Items(items, item, path, sink, run))
        branches = node.get("oneOf")
        if isinstance(branches, (list, tuple)):
            group = _OneOf(sink, path, branches, item)
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
                                             f"property {shown(key)} is not allowed "
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
    return Violation(format_path(path), f"missing required property {shown(name)}")


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


# The quick checks of frozen schemas use this module's helpers (looked up when
# called, so that they are the ones a caller sees here): imported last.
from . import _validate_quick as _quick  # noqa: E402
