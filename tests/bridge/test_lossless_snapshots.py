"""Frozen snapshots are remembered, and the size probe is exact and bounded."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import FrozenDict, exceeds_nodes, is_snapshot, materialize
from bridge.protocol import encode_value
from tests.strategies import json_values, wild_values


def count_nodes(value: object) -> int:
    if isinstance(value, dict):
        return 1 + sum(count_nodes(item) for item in value.values())
    if isinstance(value, (list, tuple)):
        return 1 + sum(count_nodes(item) for item in value)
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
    del frozen
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
