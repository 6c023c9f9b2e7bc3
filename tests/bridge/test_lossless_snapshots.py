"""Frozen snapshots are remembered, and the size probe is exact and bounded."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge import lossless
from bridge.lossless import (
    INLINE_CHARS_PER_NODE,
    INLINE_NODES,
    MAX_DEPTH,
    FrozenDict,
    LossyJsonError,
    exceeds_nodes,
    fits_inline,
    is_snapshot,
    materialize,
)
from bridge.protocol import encode_value
from tests.strategies import json_values, wild_values


def count_nodes(value: object) -> int:
    if isinstance(value, dict):
        keys = sum(len(key) // INLINE_CHARS_PER_NODE for key in value if isinstance(key, str))
        return 1 + keys + sum(count_nodes(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(count_nodes(item) for item in value)
    if isinstance(value, (str, bytes, bytearray)):
        return 1 + len(value) // INLINE_CHARS_PER_NODE
    return 1


@given(value=wild_values(), limit=st.integers(min_value=0, max_value=40))
def test_exceeds_nodes_is_exactly_the_count_against_the_limit(value: object, limit: int) -> None:
    assert exceeds_nodes(value, limit) == (count_nodes(value) > limit)


def test_exceeds_nodes_stops_early_on_a_huge_value() -> None:
    class Counting(list[int]):
        reads = 0

        def __iter__(self) -> Any:
            Counting.reads += 1
            return super().__iter__()

    huge = Counting(range(10_000_000))
    assert exceeds_nodes([huge], 100)
    # The length decided it: the big list was never walked (nor its override called).
    assert Counting.reads == 0
    assert exceeds_nodes({"a": list(range(10))}, 10)
    assert not exceeds_nodes({"a": list(range(8))}, 10)  # 1 + 1 + 8 values


@given(
    value=st.recursive(
        st.text(max_size=40) | st.binary(max_size=40) | st.integers(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=40), inner),
        max_leaves=8,
    ),
    limit=st.integers(min_value=0, max_value=40),
)
def test_exceeds_nodes_weighs_strings_and_keys_by_their_length(value: object, limit: int) -> None:
    assert exceeds_nodes(value, limit) == (count_nodes(value) > limit)


def test_one_long_string_does_not_fit_inline_where_many_short_ones_do() -> None:
    chars = INLINE_NODES * INLINE_CHARS_PER_NODE
    assert fits_inline("x" * (chars // 2))
    assert not fits_inline("x" * chars)
    assert not fits_inline(["x" * chars])
    assert not fits_inline({"x" * chars: None})
    assert not fits_inline(b"x" * chars)
    assert fits_inline(["x"] * (INLINE_NODES // 2))
    # A string is weighed by its length alone: a huge one costs no more steps.
    assert not fits_inline("x" * (1 << 24))


@given(value=json_values())
def test_freezing_a_snapshot_again_returns_it_and_encodes_the_same(value: Any) -> None:
    frozen = materialize(value, freeze=True)
    again = materialize(frozen, freeze=True)
    if isinstance(frozen, FrozenDict):
        assert is_snapshot(frozen)
        assert again is frozen
    assert again == frozen
    assert encode_value(frozen, accept_tuples=True) == encode_value(value)


def test_only_what_materialize_froze_is_a_snapshot() -> None:
    # A hand-built FrozenDict may hold mutable lists: it is copied, never trusted.
    inner: Any = [1, 2]
    handmade = FrozenDict({"a": inner})
    assert not is_snapshot(handmade)
    frozen: Any = materialize(handmade, freeze=True)
    assert frozen is not handmade
    assert frozen == {"a": (1, 2)}
    assert is_snapshot(frozen)
    # A plain copy (no freeze) is mutable, so it is not one either.
    assert not is_snapshot(materialize({"a": 1}))
    assert not is_snapshot({"a": 1})
    # Without freeze, a snapshot is still copied into mutable containers.
    thawed = materialize(frozen, accept_tuples=True)
    assert thawed == {"a": [1, 2]}
    assert type(thawed) is dict


def test_a_snapshot_is_forgotten_when_it_dies() -> None:
    frozen = materialize({"k": "v"}, freeze=True)
    ident = id(frozen)
    assert ident in lossless._snapshots
    del frozen
    assert ident not in lossless._snapshots  # the registry holds no dead entries
    # A later dict at the same address is not taken for the dead snapshot.
    for _ in range(1000):
        handmade = FrozenDict({"k": ["v"]})
        if id(handmade) == ident:
            assert not is_snapshot(handmade)
            break


@pytest.mark.parametrize("bad", [float("nan"), -0.0, 2**60 + 1, "\ud800"])
def test_a_snapshot_never_holds_a_lossy_value(bad: object) -> None:
    with pytest.raises(ValueError, match="at `"):
        materialize({"x": [bad]}, freeze=True)


def _shape(value: object) -> object:
    """The value with every container's exact type, for comparing copies."""
    if isinstance(value, dict):
        return (type(value), [(key, _shape(item)) for key, item in dict.items(value)])
    if isinstance(value, (list, tuple)):
        return (type(value), [_shape(item) for item in value])
    return (type(value), value)


def _outcome(value: object, **options: bool) -> tuple[str, object]:
    try:
        copied = materialize(
            value,
            freeze=options.get("freeze", False),
            accept_tuples=options.get("accept_tuples", False),
            accept_collections=options.get("accept_collections", False),
        )
        return "copy", _shape(copied)
    except LossyJsonError as exc:
        return "refused", str(exc)


def _general(value: object, **options: bool) -> tuple[str, object]:
    """What materialize does without its plain-value shortcut."""
    with mock.patch.object(lossless, "_plain_copy", side_effect=lossless._NotPlain):
        return _outcome(value, **options)


_OPTIONS = st.fixed_dictionaries(
    {"freeze": st.booleans(), "accept_tuples": st.booleans(), "accept_collections": st.booleans()}
)


@given(value=wild_values(max_leaves=12) | json_values(max_leaves=20), options=_OPTIONS)
def test_the_plain_value_shortcut_copies_and_refuses_as_the_general_walk(
    value: object, options: dict[str, bool]
) -> None:
    assert _outcome(value, **options) == _general(value, **options)


_REFUSED_OR_ODD: list[object] = [
    "lone \ud800 surrogate",
    ["lone \ud800 surrogate"],
    {"s": "\udfff"},
    {"key \udc00": 1},
    ["é ok", {"ключ": "значение"}],
    float("nan"),
    [float("inf")],
    {"z": -0.0},
    [0.0, 2**53, -(2**53)],
    [2**53 + 1],
    [2**60],
    [True, None, False],
    (1, 2),
    {"t": (1,)},
    FrozenDict({"f": 1}),
    [FrozenDict({"f": 1})],
    {1: "int key"},
    [{None: 1}],
    [{1, 2}],
    [b"bytes"],
]


@pytest.mark.parametrize("value", _REFUSED_OR_ODD, ids=repr)
@pytest.mark.parametrize("freeze", [False, True])
def test_each_rejection_class_is_left_to_the_general_walk(value: object, freeze: bool) -> None:
    for options in ({"freeze": freeze}, {"freeze": freeze, "accept_tuples": True}):
        assert _outcome(value, **options) == _general(value, **options)


@pytest.mark.parametrize("levels", [15, 16, 17, 40, MAX_DEPTH + 1])
def test_deep_values_are_copied_or_refused_as_the_general_walk_does(levels: int) -> None:
    value: object = {"leaf": 1}
    for index in range(levels):
        value = [value] if index % 2 else {"k": value}
    assert _outcome(value, freeze=True) == _general(value, freeze=True)
    assert _outcome(value) == _general(value)


def test_a_cycle_is_refused_with_the_general_walks_message() -> None:
    cycle: list[object] = [1]
    cycle.append({"again": cycle})
    assert _outcome(cycle)[0] == "refused"
    assert _outcome(cycle) == _general(cycle)


def test_the_shortcuts_frozen_copy_is_a_snapshot_and_shares_nothing() -> None:
    inner = {"b": [1, 2]}
    value = {"a": inner, "c": [inner]}
    frozen = materialize(value, freeze=True)
    assert is_snapshot(frozen)
    assert materialize(frozen, freeze=True) is frozen
    inner["b"].append(3)
    assert frozen == {"a": {"b": (1, 2)}, "c": ({"b": (1, 2)},)}
    plain = materialize(value)
    assert isinstance(plain, dict)
    assert plain == value
    assert plain["a"] is not inner
    copied = plain["c"]
    assert isinstance(copied, list)
    assert copied[0] is not inner


def test_a_caller_out_of_stack_for_the_shortcut_gets_the_general_walk() -> None:
    # A program deep in its own recursion calls a tool: the shortcut's frames
    # may not fit, the walk's do.
    value = {"a": [1, {"b": "c"}]}
    with mock.patch.object(lossless, "_plain_copy", side_effect=RecursionError):
        assert _outcome(value, freeze=True) == _general(value, freeze=True)
        assert _outcome(value) == ("copy", _shape(value))


@given(value=wild_values())
def test_fits_inline_is_exactly_the_count_against_the_bound(value: object) -> None:
    # The scalar shortcut and the snapshots' kept verdicts answer as the walk does.
    assert fits_inline(value) == (count_nodes(value) <= INLINE_NODES)


@given(value=json_values())
def test_a_snapshot_keeps_the_verdict_of_its_own_weight(value: Any) -> None:
    frozen = materialize(value, freeze=True)
    expected = count_nodes(frozen) <= INLINE_NODES
    assert fits_inline(frozen) == expected
    assert fits_inline(frozen) == expected  # asked again: the kept verdict


def test_a_kept_verdict_dies_with_its_snapshot() -> None:
    chars = INLINE_NODES * INLINE_CHARS_PER_NODE
    small: Any = materialize({"a": 1}, freeze=True)
    assert fits_inline(small)
    key = id(small)
    assert lossless._snapshot_fits.get(key) is True
    del small
    assert key not in lossless._snapshot_fits
    # Whatever snapshot is made next, at that address or any other, is weighed anew.
    for _ in range(50):
        large: Any = materialize({"a": "x" * chars}, freeze=True)
        assert not fits_inline(large)
        del large
    # A hand-built FrozenDict is not a snapshot: weighed every time, never kept.
    handmade = FrozenDict({"a": "x" * chars})
    assert not fits_inline(handmade)
    assert id(handmade) not in lossless._snapshot_fits
