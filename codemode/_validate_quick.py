"""A frozen schema's own quick check: the checks of ``_validate._accepts``, built once.

A tool's schemas are frozen once, at registration, and checked again for every
call: walking the schema's mappings each time (its keywords looked up, its
types compared by name) cost more than the value's own checks. A frozen
schema is therefore turned once into a tree of small functions that make the
checks of :func:`codemode._validate._accepts`, and only those, on a value: one
per schema node, each built from that node's keywords. It is kept while the
schema lives. :func:`codemode._validate.validate` asks :func:`compiled` for it;
a value it rejects is walked by the unchanged generic check, which words the
violations.

The scalar comparisons and keys (``_json_equal``, ``_key``) are
:mod:`codemode._validate`'s own, looked up when called.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Final, TypeAlias

from bridge.lossless import FrozenDict

from . import _validate as _v
from ._offload import WorkAbandoned
from ._schema import _MAPPINGS, _SEQUENCES
from ._validate import _ACCEPT_DEPTH, _STOP_MASK, STOP_CHECK_EVERY, _frozen_keys

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Mapping

__all__ = ["compiled"]

_Accept: TypeAlias = "Callable[[object, threading.Event | None], bool]"


class _NotCompiled(Exception):
    """The schema has a part that may change, or is deeper than :func:`_accepts` follows."""


def _accept_all(item: object, stop: threading.Event | None) -> bool:
    return True


def _is_integer(item: object, stop: threading.Event | None) -> bool:
    kind = type(item)
    if kind is int:
        return True
    return kind is float and math.isfinite(item) and item.is_integer()  # type: ignore[arg-type, attr-defined]


def _is_number(item: object, stop: threading.Event | None) -> bool:
    kind = type(item)
    return kind is int or (kind is float and math.isfinite(item))  # type: ignore[arg-type]


def _rejects_all(item: object, stop: threading.Event | None) -> bool:
    return False  # an unknown type name: matches_type accepts nothing


#: The type of the values (exactly: ``type(item) is ...``) each scalar type name
#: accepts, for those that need no more; see :func:`~codemode._schema.matches_type`.
_EXACT_TYPES: Final[Mapping[str, type]] = {
    "string": str,
    "boolean": bool,
    "null": type(None),
}


def _frozen(value: object) -> bool:
    """Whether ``value`` can never change: JSON scalars, and frozen containers of them."""
    kind = type(value)
    if kind is FrozenDict:
        return all(_frozen(v) for v in value.values())  # type: ignore[attr-defined]
    if kind is tuple:
        return all(_frozen(v) for v in value)  # type: ignore[attr-defined]
    return kind in (str, int, float, bool) or value is None


def _type_check(type_name: str) -> tuple[_Accept, frozenset[type] | None]:
    """The check of ``"type": type_name`` alone, and the exact types it accepts, if that is all."""
    only = _EXACT_TYPES.get(type_name)
    if only is not None:

        def one_type(item: object, stop: threading.Event | None) -> bool:
            return type(item) is only

        return one_type, frozenset({only})
    if type_name == "integer":
        return _is_integer, None
    if type_name == "number":
        return _is_number, None
    return _rejects_all, None


#: Each type name's check, made once: ``{"type": "null"}`` is always the same function.
_TYPE_CHECKS: Final = {
    name: _type_check(name) for name in ("string", "boolean", "null", "integer", "number")
}
_NULL_CHECK: Final = _TYPE_CHECKS["null"][0]


def _compile(node: object, depth: int) -> tuple[_Accept | None, frozenset[type] | None]:
    """The check :func:`_accepts` makes with ``node``; ``None`` when it accepts everything.

    Also the exact types it accepts when a type is all it checks. Raises
    :class:`_NotCompiled` for a part that is not frozen, or past ``depth``
    levels (where :func:`_accepts` would give up).
    """
    if type(node) is not FrozenDict:
        raise _NotCompiled
    if depth == 0:
        raise _NotCompiled
    depth -= 1
    checks: list[_Accept] = []
    exact: frozenset[type] | None = None
    type_name: object = node.get("type")
    structure: _Accept | None = None
    if type(type_name) is str:
        if type_name == "object":
            structure = _object_check(node, depth)
        elif type_name == "array":
            structure = _array_check(node, depth)
        if structure is None:
            check, exact = _TYPE_CHECKS.get(type_name) or _type_check(type_name)
            checks.append(check)
        else:
            # It checks the type (object or array) first.
            checks.append(structure)
    choices: object = node.get("enum")
    if isinstance(choices, (list, tuple)):
        if type(choices) is not tuple or not _frozen(choices):
            raise _NotCompiled
        checks.append(_enum_check(node, choices))
    if "const" in node:
        const = node["const"]
        if not _frozen(const):
            raise _NotCompiled

        def const_check(item: object, stop: threading.Event | None) -> bool:
            return _v._json_equal(const, item)

        checks.append(const_check)
    branches: object = node.get("oneOf")
    if isinstance(branches, (list, tuple)):
        if type(branches) is not tuple:
            raise _NotCompiled
        checks.append(_one_of_check(branches, depth))
    if len(checks) != 1 or structure is not None:
        exact = None
    if not checks:
        return None, None
    if len(checks) == 1:
        return checks[0], exact
    if len(checks) == 2:
        first, second = checks

        def both(item: object, stop: threading.Event | None) -> bool:
            return first(item, stop) and second(item, stop)

        return both, None
    every = tuple(checks)

    def each(item: object, stop: threading.Event | None) -> bool:
        return all(check(item, stop) for check in every)

    return each, None


def _enum_check(node: FrozenDict, choices: tuple[object, ...]) -> _Accept:
    keys = _frozen_keys(node, choices)
    if keys is None:

        def scan(item: object, stop: threading.Event | None) -> bool:
            return any(_v._json_equal(choice, item) for choice in choices)

        return scan

    def lookup(item: object, stop: threading.Event | None) -> bool:
        return _v._key(item) in keys

    return lookup


def _object_check(node: FrozenDict, depth: int) -> _Accept:
    properties: object = node.get("properties")
    if not isinstance(properties, dict):
        properties = {}
    elif type(properties) is not FrozenDict:
        raise _NotCompiled
    declared: frozenset[object] = frozenset(properties)
    listed: object = node.get("required")
    required: tuple[object, ...] = ()
    if isinstance(listed, (list, tuple)):
        if type(listed) is not tuple or not all(type(name) is str for name in listed):
            raise _NotCompiled
        required = listed
    closed = node.get("additionalProperties") is False
    # A property whose value needs only a type is checked here; the others by their check.
    typed: dict[str, frozenset[type]] = {}
    checked: dict[str, _Accept] = {}
    for name, sub in properties.items():
        if not isinstance(sub, dict):
            continue
        check, exact = _compile(sub, depth)
        if exact is not None:
            typed[name] = exact
        elif check is not None:
            checked[name] = check
    typed_entries = tuple(typed.items())
    checked_entries = tuple(checked.items())
    walked = len(typed) + len(checked)
    needed = len(required)

    def object_check(item: object, stop: threading.Event | None) -> bool:
        if type(item) not in _MAPPINGS:
            return False
        # As in _accepts: fewer keys than required names means one is missing.
        if len(item) < needed:  # type: ignore[arg-type]
            return False
        for name in required:
            if name not in item:  # type: ignore[operator]
                return False
        if closed:
            for key in item:  # type: ignore[attr-defined]
                if key not in declared:
                    return False
        if not walked:
            return True
        # From the smaller side: the work is linear in the item.
        if len(item) >= walked:  # type: ignore[arg-type]
            for name, types in typed_entries:
                if name in item and type(item[name]) not in types:  # type: ignore[index, operator]
                    return False
            for name, check in checked_entries:
                if name in item and not check(item[name], stop):  # type: ignore[index, operator]
                    return False
            return True
        for key, value in item.items():  # type: ignore[attr-defined]
            exact = typed.get(key)
            if exact is not None:
                if type(value) not in exact:
                    return False
                continue
            value_check = checked.get(key)
            if value_check is not None and not value_check(value, stop):
                return False
        return True

    return object_check


def _array_check(node: FrozenDict, depth: int) -> _Accept:
    items = node.get("items")
    check: _Accept | None = None
    exact: frozenset[type] | None = None
    if isinstance(items, dict):
        check, exact = _compile(items, depth)

    def array_check(item: object, stop: threading.Event | None) -> bool:
        if type(item) not in _SEQUENCES:
            return False
        if not item:
            return True
        # The stop flag is read before items 0, STOP_CHECK_EVERY, … as in _accepts.
        if len(item) > STOP_CHECK_EVERY:  # type: ignore[arg-type]
            sub: object
            for index, sub in enumerate(item):  # type: ignore[arg-type]
                if not index & _STOP_MASK and stop is not None and stop.is_set():
                    raise WorkAbandoned
                if exact is not None:
                    if type(sub) not in exact:
                        return False
                elif check is not None and not check(sub, stop):
                    return False
            return True
        if stop is not None and stop.is_set():
            raise WorkAbandoned
        if exact is not None:
            for sub in item:  # type: ignore[attr-defined]
                if type(sub) not in exact:
                    return False
        elif check is not None:
            for sub in item:  # type: ignore[attr-defined]
                if not check(sub, stop):
                    return False
        return True

    return array_check


def _one_of_check(branches: tuple[object, ...], depth: int) -> _Accept:
    # A branch that is not a schema has nothing to check: it matches.
    checks = tuple(
        _compile(branch, depth)[0] or _accept_all if isinstance(branch, dict) else _accept_all
        for branch in branches
    )
    if len(checks) == 2 and checks[1] is _NULL_CHECK:
        # ``X | None``: exactly one matches when X's verdict is not the null check's.
        first = checks[0]

        def optional(item: object, stop: threading.Event | None) -> bool:
            if item is None:
                return not first(item, stop)
            return first(item, stop)

        return optional

    def one_of(item: object, stop: threading.Event | None) -> bool:
        matched = 0
        for check in checks:
            if check(item, stop):
                matched += 1
        return matched == 1

    return one_of


def _seen_once(item: object, stop: threading.Event | None) -> bool:
    """In place of a check not built yet: its schema was validated with once."""
    raise AssertionError("never called")


# id(frozen schema) -> (a weak reference to it, its check, or None when it has
# none: see _NotCompiled). The entry goes when the schema does.
_COMPILED: dict[int, tuple[weakref.ref[FrozenDict], _Accept | None]] = {}


def _forget_check(ident: int, ref: weakref.ref[FrozenDict]) -> None:
    entry = _COMPILED.get(ident)
    if entry is not None and entry[0] is ref:
        _COMPILED.pop(ident, None)


def compiled(schema: FrozenDict, *, now: bool = True) -> _Accept | None:
    """The frozen ``schema``'s check, kept while it lives; ``None`` if it has none.

    Built at once, or (``now`` false) the second time the schema is seen: a
    schema made for one validation is walked once, which costs less than
    building its check.
    """
    ident = id(schema)
    entry = _COMPILED.get(ident)
    if entry is not None and entry[0]() is schema:
        if entry[1] is not _seen_once:
            return entry[1]
        ref = entry[0]
    else:
        ref = weakref.ref(schema, lambda dead: _forget_check(ident, dead))
        if not now:
            _COMPILED[ident] = (ref, _seen_once)
            return None
    accept: _Accept | None
    try:
        accept = _compile(schema, _ACCEPT_DEPTH)[0] or _accept_all
    except _NotCompiled:
        accept = None
    _COMPILED[ident] = (ref, accept)
    return accept
