"""Validating a value costs work linear in the value, whatever the size of an ``enum``.

A typed tool whose parameter is a list of one of E fixed values (``Literal``)
compared every item with every allowed value: 200,000 items against 1,000 values
cost 29 s of host CPU, most of it after the run had ended (the worker thread
outlived it), and each violation listed all E values. The work is counted here,
not timed: the scalar comparisons and key computations per item must not grow
with E. The O(1) membership must give exactly the verdicts of the linear scan,
a message shows a bounded number of allowed values, and a validation in a worker
thread stops once nobody waits for it.
"""

from __future__ import annotations

import json
import threading
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
import pytest
from hypothesis import given
from hypothesis import strategies as st

import codemode._validate as validate_module
from bridge.lossless import FrozenDict, materialize
from codemode._offload import WorkAbandoned, _stoppable, sized, stop_flag
from codemode._schema import schema_problems
from codemode._validate import (
    MAX_SHOWN_CHOICES,
    STOP_CHECK_EVERY,
    _json_equal,
    _Run,
    validate,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Mapping

ENUM_SIZES = (10, 100, 1000)
#: Scalar comparisons and key computations one item may cost, whatever E.
STEPS_PER_ITEM = 4


def enum_schema(size: int, *, frozen: bool) -> Mapping[str, object]:
    values = [f"value-{i:05d}" for i in range(size)]
    schema: dict[str, object] = {
        "type": "object",
        "properties": {"tags": {"type": "array", "items": {"type": "string", "enum": values}}},
    }
    assert schema_problems(schema) == []
    if frozen:
        made = materialize(schema, freeze=True)
        assert isinstance(made, FrozenDict)
        return made
    return schema


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Counts every scalar comparison (``_json_equal``) and key (``_key``) a validation makes."""
    counter = [0]

    def counted(original: Callable[..., object]) -> Callable[..., object]:
        def wrapper(*args: object) -> object:
            counter[0] += 1
            return original(*args)

        return wrapper

    monkeypatch.setattr(validate_module, "_json_equal", counted(validate_module._json_equal))
    if hasattr(validate_module, "_key"):
        monkeypatch.setattr(validate_module, "_key", counted(validate_module._key))
    return counter


def steps_per_item(counter: list[int], schema: Mapping[str, object], item: str) -> float:
    """The steps one more item costs (the difference between n and 2n items)."""
    validate(schema, {"tags": [item]})  # a frozen schema's lookup is built once, here
    counts = []
    for items in (200, 400):
        counter[0] = 0
        validate(schema, {"tags": [item] * items})
        counts.append(counter[0])
    return (counts[1] - counts[0]) / 200


@pytest.mark.parametrize("frozen", [False, True], ids=["plain", "frozen"])
@pytest.mark.parametrize("valid", [False, True], ids=["invalid", "valid"])
def test_work_per_item_does_not_grow_with_the_enum_size(
    steps: list[int], frozen: bool, valid: bool
) -> None:
    per_item = {}
    for size in ENUM_SIZES:
        schema = enum_schema(size, frozen=frozen)
        # The last allowed value: a scan finds it after every other one.
        item = f"value-{size - 1:05d}" if valid else "nope"
        per_item[size] = steps_per_item(steps, schema, item)
    assert max(per_item.values()) <= STEPS_PER_ITEM, per_item
    assert per_item[ENUM_SIZES[-1]] == per_item[ENUM_SIZES[0]], per_item


def test_a_frozen_schema_builds_its_enum_lookup_once(steps: list[int]) -> None:
    schema = enum_schema(1000, frozen=True)
    validate(schema, {"tags": ["nope"]})
    steps[0] = 0
    validate(schema, {"tags": ["nope"]})
    validate(schema, {"tags": ["nope"]})
    # Not 1000 per call: the keys are kept with the frozen node.
    assert steps[0] <= 2 * STEPS_PER_ITEM


# --- objects: linear in the item, however many properties are declared ------------------

PROPERTY_COUNTS = (10, 100, 1000)


class CountedProperties(dict[str, object]):
    """A schema's ``properties`` that counts every lookup and every entry walked."""

    def __init__(self, entries: dict[str, object], counter: list[int]) -> None:
        super().__init__(entries)
        self.counter = counter

    def __contains__(self, key: object) -> bool:
        self.counter[0] += 1
        return super().__contains__(key)

    def __getitem__(self, key: str) -> object:
        self.counter[0] += 1
        return super().__getitem__(key)

    def get(self, key: str, default: object = None) -> object:
        self.counter[0] += 1
        return super().get(key, default)

    def __iter__(self) -> Iterator[str]:
        for key in super().__iter__():
            self.counter[0] += 1
            yield key

    def items(self) -> Iterator[tuple[str, object]]:  # type: ignore[override]
        for entry in super().items():
            self.counter[0] += 1
            yield entry


class CountedNames(list[str]):
    """A schema's ``required`` that counts every name walked."""

    def __init__(self, names: list[str], counter: list[int]) -> None:
        super().__init__(names)
        self.counter = counter

    def __iter__(self) -> Iterator[str]:
        for name in super().__iter__():
            self.counter[0] += 1
            yield name


def wide_object_schema(size: int, counter: list[int], *, required: int) -> dict[str, object]:
    names = [f"p{i:04d}" for i in range(size)]
    return {
        "type": "object",
        "properties": {
            "rows": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": CountedProperties(
                        {name: {"type": "integer"} for name in names}, counter
                    ),
                    "required": CountedNames(names[:required], counter),
                },
            }
        },
    }


def object_steps_per_item(counter: list[int], schema: dict[str, object], row: object) -> float:
    """Lookups in ``properties`` and ``required`` that one more row costs (n against 2n rows)."""
    counts = []
    for rows in (200, 400):
        counter[0] = 0
        validate(schema, {"rows": [row] * rows})
        counts.append(counter[0])
    return (counts[1] - counts[0]) / 200


@pytest.mark.parametrize(
    ("row", "required"),
    [({}, 0), ({"p0001": 1}, 0), ({"p0001": "x"}, 0), ({"zz": 1}, 0), ({}, 3), ({"p0000": 1}, 2)],
    ids=["empty", "one-declared", "one-wrong", "one-undeclared", "missing-required",
         "one-of-two-required"],
)
def test_work_per_object_does_not_grow_with_the_declared_properties(
    row: dict[str, object], required: int
) -> None:
    # 200,000 empty objects against 1,000 optional properties were 200 million
    # lookups: each object walked every declared name.
    counter = [0]
    per_item = {
        size: object_steps_per_item(
            counter, wide_object_schema(size, counter, required=required), row
        )
        for size in PROPERTY_COUNTS
    }
    # A row of k keys costs a few lookups per key and per required name.
    assert max(per_item.values()) <= 4 * (len(row) + required) + 2, per_item
    assert per_item[PROPERTY_COUNTS[-1]] == per_item[PROPERTY_COUNTS[0]], per_item


def reference_object_violations(
    properties: dict[str, str], required: list[str], closed: bool, item: dict[str, object]
) -> list[str]:
    """Every violation of a flat object, in document order, by walking the whole schema."""
    found = [f"missing required property {json.dumps(name)} - at `$`"
             for name in required if name not in item]
    if closed:
        found += [f"property {json.dumps(key)} is not allowed (additionalProperties is false)"
                  " - at `$`" for key in item if key not in properties]
    for name, type_name in properties.items():
        if name in item and not isinstance(item[name], int if type_name == "integer" else str):
            got = "string" if isinstance(item[name], str) else "integer"
            found.append(f"Expected `{type_name}`, got `{got}` - at `$.{name}`")
    return found


_NAMES = st.sampled_from([f"k{i}" for i in range(40)])


@given(
    st.dictionaries(_NAMES, st.sampled_from(["integer", "string"]), max_size=40),
    st.data(),
    st.booleans(),
    st.dictionaries(_NAMES, st.one_of(st.integers(0, 3), st.sampled_from(["a", "b"])),
                    max_size=6),
)
def test_an_object_s_violations_are_those_of_the_whole_walk(
    properties: dict[str, str], data: st.DataObject, closed: bool, item: dict[str, object]
) -> None:
    # Items with fewer keys than the schema declares (or requires) are looked up
    # from their own keys; the violations, their order and their count stay
    # those of walking every declared name.
    required = data.draw(st.lists(st.sampled_from(sorted(properties)), unique=True)
                         if properties else st.just([]))
    schema: dict[str, object] = {
        "type": "object",
        "properties": {name: {"type": type_name} for name, type_name in properties.items()},
        "required": required,
        "additionalProperties": not closed,
    }
    assert schema_problems(schema) == []
    expected = reference_object_violations(properties, required, closed, item)
    found = validate(schema, item)
    assert found.lines()[: len(found)] == expected[: len(found)]
    assert len(found) + found.unlisted == len(expected)
    assert (found == []) is (expected == [])


def test_missing_names_past_the_described_ones_are_counted() -> None:
    names = [f"k{i:02d}" for i in range(30)]
    schema = {
        "type": "object",
        "properties": {name: {"type": "integer"} for name in names},
        "required": names,
    }
    found = validate(schema, {"k00": 1})
    assert [v.message for v in found] == [
        f'missing required property "{name}"' for name in names[1:21]
    ]
    assert found.unlisted == 9
    # Across several objects too: the second one's are all counted.
    found = validate({"type": "array", "items": schema}, [{"k00": 1}, {}])
    assert len(found) == 20
    assert found.unlisted == 9 + 30


# --- the O(1) membership is the linear scan ---------------------------------------------

_NUMBERS = st.one_of(
    st.integers(min_value=-(2**60), max_value=2**60),
    st.sampled_from([0, 1, -1, 2**53, 2**53 + 1, 0.0, -0.0, 1.0, -1.0, 0.5, 2.0**53]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.integers(min_value=-3, max_value=3).map(float),
)
_SCALARS = st.one_of(
    _NUMBERS,
    st.booleans(),
    st.none(),
    st.text(max_size=3),
    st.sampled_from(["", "1", "true", "null", "0"]),
)
_ITEMS = st.one_of(
    _SCALARS,
    st.lists(_SCALARS, max_size=2),
    st.dictionaries(st.text(max_size=2), _SCALARS, max_size=2),
)


def scan(choices: list[object], item: object) -> bool:
    """The verdict of the linear scan the lookup replaces."""
    return any(_json_equal(choice, item) for choice in choices)


@given(st.lists(_SCALARS, min_size=1, max_size=8), _ITEMS)
def test_membership_gives_the_linear_scans_verdict(choices: list[object], item: object) -> None:
    plain = {"enum": choices}
    frozen = FrozenDict({"enum": tuple(choices)})  # type: ignore[dict-item]
    expected = scan(choices, item)
    assert _Run(None).allows(plain, choices, item) is expected
    assert _Run(None).allows(frozen, frozen["enum"], item) is expected  # type: ignore[arg-type]


@given(st.lists(_SCALARS, min_size=1, max_size=8), _SCALARS)
def test_membership_of_an_allowed_value_and_its_json_twins(
    choices: list[object], pick: object
) -> None:
    # An item equal to an allowed value, and its int/float twin, as JSON sees it.
    for item in (choices[0], pick):
        twins = [item]
        if type(item) is int and abs(item) <= 2**53:
            twins.append(float(item))
        if type(item) is float and item == item and item.is_integer():
            twins.append(int(item))
        for twin in twins:
            assert _Run(None).allows({}, choices, twin) is scan(choices, twin)


@given(st.lists(_SCALARS, min_size=1, max_size=6), _ITEMS)
def test_validate_judges_enum_as_the_scan(choices: list[object], item: object) -> None:
    schema = {"enum": choices}
    if schema_problems(schema):
        return  # NaN, infinities: not a supported schema
    assert (validate(schema, item) == []) is scan(choices, item)
    frozen = materialize(schema, freeze=True)
    assert isinstance(frozen, FrozenDict)
    assert (validate(frozen, item) == []) is scan(choices, item)


def test_booleans_are_not_numbers_and_ints_are_floats() -> None:
    run = _Run(None)
    assert not run.allows({}, [1, 0], True)
    assert not run.allows({}, [1, 0], False)
    assert not run.allows({}, [True], 1)
    assert not run.allows({}, [False], 0.0)
    assert run.allows({}, [1], 1.0)
    assert run.allows({}, [-0.0], 0)
    assert not run.allows({}, [2**53 + 1], 2.0**53)
    assert not run.allows({}, ["1"], 1)
    assert not run.allows({}, [None], 0)
    assert not run.allows({}, [1.0], float("nan"))


# --- messages ---------------------------------------------------------------------------


def test_a_violation_shows_a_bounded_number_of_allowed_values() -> None:
    schema = enum_schema(10_000, frozen=False)
    found = validate(schema, {"tags": ["nope"]})
    assert len(found) == 1
    message = found[0].message
    assert len(message) < 60 * (MAX_SHOWN_CHOICES + 2), len(message)
    assert '"value-00000"' in message
    assert f'"value-{MAX_SHOWN_CHOICES - 1:05d}"' in message
    assert f'"value-{MAX_SHOWN_CHOICES:05d}"' not in message
    assert f"and {10_000 - MAX_SHOWN_CHOICES} more" in message
    assert message.endswith('got "nope"')


def test_a_small_enum_is_listed_whole() -> None:
    found = validate({"enum": ["a", "b"]}, "c")
    assert [v.message for v in found] == ['Expected one of "a", "b", got "c"']


def test_the_whole_message_of_many_bad_items_is_bounded() -> None:
    schema = enum_schema(10_000, frozen=True)
    found = validate(schema, {"tags": ["nope"] * 1000})
    assert found.unlisted == 1000 - len(found)
    assert sum(len(line) for line in found.lines()) < 20_000


# --- stopping ---------------------------------------------------------------------------


def test_a_set_stop_flag_ends_a_validation_mid_way(monkeypatch: pytest.MonkeyPatch) -> None:
    stop = threading.Event()
    seen = [0]
    original = validate_module._key
    set_after = 5 * STOP_CHECK_EVERY

    def key(value: object) -> object:
        # The run ends while the walk is in the middle of the items.
        seen[0] += 1
        if seen[0] == set_after:
            stop.set()
        return original(value)

    monkeypatch.setattr(validate_module, "_key", key)
    schema = enum_schema(100, frozen=True)
    items = 200 * STOP_CHECK_EVERY
    with pytest.raises(WorkAbandoned):
        validate(schema, {"tags": ["value-00001"] * items}, stop=stop)
    # Stopped within one check interval of the flag, far from the end.
    assert seen[0] <= set_after + STOP_CHECK_EVERY + 1

    # The violations walk (after a mismatch) stops too.
    stop.clear()
    seen[0] = 0
    with pytest.raises(WorkAbandoned):
        validate(schema, {"tags": ["nope"] * items}, stop=stop)
    assert seen[0] <= set_after + 2 * STOP_CHECK_EVERY + 2


def test_a_validation_in_offloaded_work_reads_the_work_s_stop_flag() -> None:
    schema = enum_schema(10, frozen=True)
    stop = threading.Event()
    assert _stoppable(stop, lambda: validate(schema, {"tags": ["nope"]})) != []
    stop.set()
    with pytest.raises(WorkAbandoned):
        _stoppable(stop, lambda: validate(schema, {"tags": ["nope"]}))
    assert stop_flag() is None  # the flag belonged to that work only


@pytest.mark.anyio
async def test_cancelling_sized_work_sets_its_stop_flag() -> None:
    started = threading.Event()
    flags: list[threading.Event | None] = []
    finished = threading.Event()

    def work() -> bool:
        flag = stop_flag()
        flags.append(flag)
        started.set()
        try:
            return flag is not None and flag.wait(30)
        finally:
            finished.set()

    large = list(range(10_000))  # past INLINE_NODES: runs in a worker thread
    with anyio.move_on_after(30):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(sized, large, work)
            assert await anyio.to_thread.run_sync(started.wait, 30)
            tasks.cancel_scope.cancel()
    assert await anyio.to_thread.run_sync(finished.wait, 30)
    assert flags
    assert flags[0] is not None
    assert flags[0].is_set()
