"""Host helpers over lossless JSON: freeze, thaw, dumps, loads."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given

from bridge.lossless import MAX_DEPTH, FrozenDict, JsonValue, LossyJsonError
from codemode._json import dumps, freeze, loads, thaw
from tests.strategies import json_values


@given(json_values())
def test_dumps_then_loads_gives_the_value_back(value: JsonValue) -> None:
    assert loads(dumps(value)) == value


@given(json_values())
def test_dumps_writes_the_same_value_the_json_module_reads(value: JsonValue) -> None:
    assert json.loads(dumps(value)) == value


@given(json_values())
def test_dumps_accepts_a_frozen_snapshot(value: JsonValue) -> None:
    assert dumps(freeze(value)) == dumps(value)


@given(json_values())
def test_thaw_undoes_freeze(value: JsonValue) -> None:
    assert thaw(freeze(value)) == value


def test_freeze_returns_read_only_containers() -> None:
    frozen: object = freeze({"a": [1, {"b": None}]})
    assert isinstance(frozen, FrozenDict)
    inner: object = frozen["a"]
    assert isinstance(inner, tuple)
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen["c"] = 1


def test_freeze_refuses_a_lossy_value_with_its_path() -> None:
    with pytest.raises(
        LossyJsonError,
        match=r"^nan is not a JSON number; send null or a string instead - at `\$\.a`$",
    ):
        freeze({"a": math.nan})


def test_thaw_returns_plain_mutable_containers() -> None:
    plain: Any = thaw(freeze({"a": [1, {"b": [2]}]}))
    assert type(plain) is dict
    assert type(plain["a"]) is list
    assert type(plain["a"][1]) is dict
    plain["a"].append(3)
    assert plain == {"a": [1, {"b": [2]}, 3]}


def test_thaw_copies_a_plain_value() -> None:
    original: dict[str, Any] = {"a": [1]}
    copy: Any = thaw(original)
    assert copy == original
    assert isinstance(copy, dict)
    assert copy is not original
    assert copy["a"] is not original["a"]


def test_dumps_refuses_nan_instead_of_writing_null() -> None:
    with pytest.raises(LossyJsonError, match=r"^nan is not a JSON number; .* - at `\$\[0\]`$"):
        dumps([math.nan])


def test_dumps_refuses_negative_zero() -> None:
    with pytest.raises(LossyJsonError, match=r"^-0\.0 does not survive JSON; use 0\.0 - at `\$`$"):
        dumps(-0.0)


def test_dumps_writes_compact_text() -> None:
    assert dumps({"a": [1, 2.5, "x", None, True]}) == '{"a":[1,2.5,"x",null,true]}'


def test_loads_refuses_an_integer_a_double_cannot_hold() -> None:
    with pytest.raises(
        LossyJsonError,
        match=r"^integer 9007199254740993 cannot be represented exactly as a JSON number "
        r"\(beyond 2\*\*53\); send it as a string - at `\$\.n`$",
    ):
        loads('{"n": 9007199254740993}')


def test_loads_refuses_negative_zero() -> None:
    with pytest.raises(LossyJsonError, match=r"^-0\.0 does not survive JSON; use 0\.0 - at `\$`$"):
        loads("-0.0")


def test_loads_refuses_nan_as_malformed_text() -> None:
    with pytest.raises(ValueError, match="malformed"):
        loads("[NaN]")


def test_loads_refuses_nesting_past_the_limit() -> None:
    depth = MAX_DEPTH + 1
    with pytest.raises(LossyJsonError, match=rf"^containers are nested deeper than {MAX_DEPTH}"):
        loads("[" * depth + "]" * depth)


def test_loads_of_a_hundred_thousand_levels_raises_the_depth_error() -> None:
    depth = 100_000
    with pytest.raises(
        LossyJsonError,
        match=rf"^containers are nested deeper than {MAX_DEPTH} levels - at `\$`$",
    ):
        loads("[" * depth + "]" * depth)


def test_loads_returns_plain_mutable_containers() -> None:
    value: Any = loads(b'{"a": [1]}')
    assert type(value) is dict
    assert type(value["a"]) is list
