"""The lossless JSON check: what it accepts survives JSON text, what it refuses would not."""

from __future__ import annotations

import collections
import datetime
import decimal
import enum
import fractions
import itertools
import json
import math
import types
import uuid
from typing import Any

import msgspec
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bridge.lossless import (
    MAX_DEPTH,
    FrozenDict,
    JsonValue,
    LossyJsonError,
    format_path,
    materialize,
)
from bridge.protocol import SHOWN_TEXT_CHARS, bounded_text
from tests.strategies import Opaque, json_values, wild_values

# --- oracles ---------------------------------------------------------------------------------


def same(a: object, b: object) -> bool:
    """Equality that also compares exact types and the sign of zero (``1 == 1.0 == True``)."""
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if type(x) is not type(y):
            return False
        if isinstance(x, float):
            assert isinstance(y, float)
            if not (x == y and math.copysign(1.0, x) == math.copysign(1.0, y)):
                return False
        elif isinstance(x, (list, tuple)):
            assert isinstance(y, (list, tuple))
            if len(x) != len(y):
                return False
            stack.extend(zip(x, y, strict=True))
        elif isinstance(x, dict):
            assert isinstance(y, dict)
            if list(x) != list(y):
                return False
            stack.extend((x[k], y[k]) for k in x)
        elif x != y:
            return False
    return True


def numbers_survive_doubles(value: object) -> bool:
    """Whether every number keeps its value in a reader that holds numbers as IEEE doubles.

    RFC 8259 section 6 names doubles as the interoperable number range, and the
    ECMAScript writer spells negative zero as ``0``.
    """
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, bool):
            continue
        if isinstance(item, int):
            try:
                if float(item) != item:
                    return False
            except OverflowError:
                return False
        elif isinstance(item, float):
            if item == 0.0 and math.copysign(1.0, item) < 0:
                return False
        elif isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            stack.extend(item.values())
    return True


def survives_json(value: object) -> bool:
    """Whether ``value`` comes back identical from UTF-8 JSON text, through ``json`` and msgspec."""
    try:
        text = json.dumps(value, allow_nan=False, ensure_ascii=False)
        back = json.loads(text.encode("utf-8"))
        fast = msgspec.json.decode(msgspec.json.encode(value))
    except (TypeError, ValueError, RecursionError, OverflowError):
        return False
    return same(back, value) and same(fast, value) and numbers_survive_doubles(back)


def accepts(value: object) -> bool:
    try:
        materialize(value)
    except LossyJsonError:
        return False
    return True


def nested_lists(depth: int) -> list[Any]:
    root: list[Any] = []
    node = root
    for _ in range(depth - 1):
        child: list[Any] = []
        node.append(child)
        node = child
    return root


# --- properties ------------------------------------------------------------------------------


@given(json_values())
def test_accepted_values_round_trip_through_json_text_unchanged(value: JsonValue) -> None:
    copy = materialize(value)
    assert same(json.loads(json.dumps(copy, allow_nan=False)), value)
    assert same(msgspec.json.decode(msgspec.json.encode(copy)), value)


@given(wild_values())
@example(2**70)
@example(2**53 + 1)
@example(-0.0)
@example((1,))
@example({1: 1})
@example("\ud800")
@example([{"a": [1.5, None, True, "x"]}])
def test_a_value_is_accepted_exactly_when_json_text_carries_it_unchanged(value: object) -> None:
    assert accepts(value) == survives_json(value)


@given(json_values())
def test_frozen_snapshot_round_trips_and_equals_the_original(value: JsonValue) -> None:
    frozen = materialize(value, freeze=True)
    assert same(materialize(frozen, accept_tuples=True), value)
    assert msgspec.json.decode(msgspec.json.encode(frozen)) == value


@given(json_values())
def test_freezing_is_idempotent(value: JsonValue) -> None:
    once = materialize(value, freeze=True)
    assert same(materialize(once, freeze=True), once)


@given(st.sampled_from([math.nan, -math.nan, math.inf, -math.inf]))
def test_non_finite_floats_are_refused_and_json_cannot_carry_them(value: float) -> None:
    assert not accepts(value)
    with pytest.raises(ValueError, match="Out of range float values"):
        json.dumps(value, allow_nan=False)
    assert msgspec.json.encode(value) == b"null"


def test_negative_zero_is_refused_and_an_ecmascript_writer_drops_its_sign() -> None:
    assert not accepts(-0.0)
    # JSON.stringify(-0) is "0"; reading that text back gives positive zero.
    assert not numbers_survive_doubles(-0.0)
    assert math.copysign(1.0, json.loads("0")) > 0


@given(st.integers(min_value=2**53 + 1) | st.integers(max_value=-(2**53) - 1))
def test_ints_outside_the_exact_double_range_are_refused_exactly_when_a_double_changes_them(
    value: int,
) -> None:
    try:
        exact = float(value) == value
    except OverflowError:
        exact = False
    assert accepts(value) == exact


@given(
    st.tuples(st.text(max_size=5), st.characters(categories=["Cs"]), st.text(max_size=5)).map(
        "".join
    )
)
def test_strings_with_lone_surrogates_are_refused_and_utf8_json_cannot_carry_them(
    value: str,
) -> None:
    assert not accepts(value)
    with pytest.raises(UnicodeEncodeError):
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    with pytest.raises(UnicodeEncodeError):
        msgspec.json.encode(value)


@given(st.dictionaries(st.integers() | st.none() | st.booleans(), st.integers(0, 3), min_size=1))
def test_non_str_keys_are_refused_and_json_turns_them_into_strings(
    value: dict[object, int],
) -> None:
    assert not accepts(value)
    assert all(type(k) is str for k in json.loads(json.dumps(value)))


@given(st.sets(st.integers(-5, 5)) | st.frozensets(st.text(max_size=3)))
def test_sets_are_refused_and_json_cannot_carry_them(value: set[int] | frozenset[str]) -> None:
    assert not accepts(value)
    with pytest.raises(TypeError):
        json.dumps(value)
    assert type(msgspec.json.decode(msgspec.json.encode(value))) is list


@given(st.binary())
def test_bytes_are_refused_and_json_cannot_carry_them(value: bytes) -> None:
    assert not accepts(value)
    with pytest.raises(TypeError):
        json.dumps(value)
    assert type(msgspec.json.decode(msgspec.json.encode(value))) is str


def test_arbitrary_objects_are_refused_and_json_cannot_carry_them() -> None:
    assert not accepts(Opaque())
    with pytest.raises(TypeError):
        json.dumps(Opaque())
    with pytest.raises(TypeError):
        msgspec.json.encode(Opaque())


@given(st.lists(st.integers(0, 3), max_size=3))
def test_tuples_are_refused_and_json_turns_them_into_lists(items: list[int]) -> None:
    value = tuple(items)
    assert not accepts(value)
    assert type(json.loads(json.dumps(value))) is list


def test_cycles_are_refused_and_json_cannot_carry_them() -> None:
    loop: list[object] = []
    loop.append(loop)
    assert not accepts(loop)
    with pytest.raises(ValueError, match="Circular reference"):
        json.dumps(loop)
    with pytest.raises(RecursionError):
        msgspec.json.encode(loop)


# --- messages ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, r"^nan is not a JSON number; send null or a string instead - at `\$`$"),
        (
            {"a": [math.inf]},
            r"^inf is not a JSON number; send null or a string instead - at `\$\.a\[0\]`$",
        ),
        ([-math.inf], r"^-inf is not a JSON number; send null or a string instead - at `\$\[0\]`$"),
    ],
)
def test_non_finite_float_message_names_the_value_and_the_path(
    value: object, message: str
) -> None:
    with pytest.raises(LossyJsonError, match=message):
        materialize(value)


def test_negative_zero_message_says_to_use_zero() -> None:
    with pytest.raises(
        LossyJsonError, match=r"^-0\.0 does not survive JSON; use 0\.0 - at `\$\.x`$"
    ):
        materialize({"x": -0.0})


def test_big_int_message_shows_the_number_and_says_to_send_a_string() -> None:
    with pytest.raises(
        LossyJsonError,
        match=r"^integer 9007199254740993 cannot be represented exactly as a JSON number "
        r"\(beyond 2\*\*53\); send it as a string - at `\$\.items\[3\]\.price`$",
    ):
        materialize({"items": [0, 1, 2, {"price": 2**53 + 1}]})


def test_huge_int_message_gives_its_size_instead_of_its_digits() -> None:
    with pytest.raises(
        LossyJsonError,
        match=r"^integer of about 5001 digits, negative cannot be represented exactly as a JSON "
        r"number \(beyond 2\*\*53\); send it as a string - at `\$`$",
    ):
        materialize(-(10**5000))


def test_big_int_that_a_double_holds_exactly_is_accepted() -> None:
    assert materialize([2**60]) == [2**60]


def test_non_str_key_message_shows_the_key_and_the_dict_path() -> None:
    with pytest.raises(
        LossyJsonError,
        match=r"^dict key 1 \(int\) is not allowed; JSON object keys must be str "
        r"\(convert the key with str\(\)\) - at `\$\.outer`$",
    ):
        materialize({"outer": {1: "one"}})


def test_non_scalar_key_message_names_its_type_without_calling_its_repr() -> None:
    class Hostile:
        def __repr__(self) -> str:
            raise RuntimeError("boom")

    with pytest.raises(
        LossyJsonError,
        match=r"^a dict key of type tests\.bridge\.test_lossless\.[\w.<>]*Hostile is not allowed; "
        r"JSON object keys must be str \(convert the key with str\(\)\) - at `\$`$",
    ):
        materialize({Hostile(): 1})


def test_lone_surrogate_message_gives_the_code_point_and_index() -> None:
    with pytest.raises(
        LossyJsonError,
        match=r"^string contains a lone surrogate \(U\+D800\) at index 2, which JSON text cannot "
        r"carry; remove it or pair it - at `\$\[0\]`$",
    ):
        materialize(["ab\ud800"])


def test_lone_surrogate_in_a_key_is_reported_at_the_dict() -> None:
    with pytest.raises(LossyJsonError, match=r"^string contains a lone surrogate .* - at `\$`$"):
        materialize({"\udc00": 1})


@pytest.mark.parametrize(
    ("value", "description"),
    [
        ({1, 2}, r"a set \(use a sorted list\)"),
        (frozenset(), r"a set \(use a sorted list\)"),
        (b"xy", r"bytes \(decode to str, or base64-encode\)"),
        (bytearray(b"xy"), r"bytes \(decode to str, or base64-encode\)"),
        ((1, 2), r"a tuple \(use a list\)"),
        (Opaque(), r"a value of type tests\.strategies\.Opaque"),
        (len, r"a callable \(builtin_function_or_method\)"),
    ],
)
def test_non_json_type_message_names_the_type_and_what_to_use(
    value: object, description: str
) -> None:
    with pytest.raises(LossyJsonError, match=rf"^{description} is not JSON - at `\$\.v\[1\]`$"):
        materialize({"v": [0, value]})


@pytest.mark.parametrize(
    ("value", "description"),
    [
        (decimal.Decimal("1.10"),
         r"a value of type decimal\.Decimal \(send str\(value\) to keep every digit, or "
         r"float\(value\)\)"),
        (fractions.Fraction(1, 3),
         r"a value of type fractions\.Fraction \(send str\(value\), or float\(value\)\)"),
        (datetime.datetime(2024, 6, 15, 9, 30),
         r"a value of type datetime\.datetime \(send value\.isoformat\(\)\)"),
        (datetime.date(2024, 6, 15),
         r"a value of type datetime\.date \(send value\.isoformat\(\)\)"),
        (datetime.timedelta(hours=1),
         r"a value of type datetime\.timedelta \(send value\.total_seconds\(\), or "
         r"str\(value\)\)"),
        (uuid.UUID(int=1), r"a value of type uuid\.UUID \(send str\(value\)\)"),
        (1j, r"a value of type builtins\.complex \(send \[value\.real, value\.imag\]\)"),
        (range(3), r"a value of type builtins\.range \(send list\(value\)\)"),
        ((str(x) for x in range(2)), r"a value of type builtins\.generator \(send list\(value\)\)"),
        ({"a": 1}.keys(), r"a value of type builtins\.dict_keys \(send list\(value\)\)"),
        (map(str, ()), r"a value of type builtins\.map \(send list\(value\)\)"),
        (itertools.chain(), r"a value of type itertools\.chain \(send list\(value\)\)"),
        (collections.deque(), r"a value of type collections\.deque \(send list\(value\)\)"),
        (collections.ChainMap(),
         r"a value of type collections\.ChainMap \(send dict\(value\)\)"),
        (types.SimpleNamespace(a=1),
         r"a value of type types\.SimpleNamespace \(send vars\(value\)\)"),
        (ValueError("x"),
         r"a value of type builtins\.ValueError \(send str\(error\), or "
         r"type\(error\)\.__name__\)"),
    ],
)
def test_a_common_library_value_says_how_to_send_it(value: object, description: str) -> None:
    with pytest.raises(LossyJsonError, match=rf"^{description} is not JSON - at `\$\.v\[1\]`$"):
        materialize({"v": [0, value]})


def test_a_subclass_of_a_builtin_type_says_to_convert_it_to_the_base() -> None:
    class Row(dict[str, int]):
        pass

    class Name(str):
        pass

    row = r"^a value of type .*Row \(convert it with dict\(value\)\)"
    with pytest.raises(LossyJsonError, match=row):
        materialize([Row(a=1)], accept_collections=True)
    name = r"^a value of type .*Name \(convert it with str\(value\)\)"
    with pytest.raises(LossyJsonError, match=name):
        materialize([Name("x")])

    class Pair(tuple[int, int]):
        pass

    class Line(collections.namedtuple("Line", "sku qty")):
        pass

    for value in (Pair((1, 2)), Line("KB-01", 2)):
        pattern = rf"^a value of type .*{type(value).__name__} \(convert it with list\(value\)\)"
        with pytest.raises(LossyJsonError, match=pattern):
            materialize({"v": value}, accept_collections=True)
    # An enum member keeps its own advice.
    with pytest.raises(LossyJsonError, match=r"an enum member: use _Plain\.A\.value"):
        materialize(_Plain.A)


def test_a_class_made_from_source_text_is_named_without_its_label_module() -> None:
    made = type("Point", (), {"__module__": "<model>"})
    with pytest.raises(LossyJsonError, match=r"^a value of type Point is not JSON - at `\$`$"):
        materialize(made())
    keyed = type("Key", (), {"__module__": "<model>"})
    with pytest.raises(LossyJsonError, match=r"^a dict key of type Key is not allowed"):
        materialize({keyed(): 1}, accept_collections=True)


def test_odd_keys_are_quoted_in_the_path() -> None:
    with pytest.raises(LossyJsonError, match=r'^.* - at `\$\["odd key"\]\.ok`$'):
        materialize({"odd key": {"ok": math.nan}})


def test_dict_subclass_is_not_json() -> None:
    class Sub(dict[str, int]):
        pass

    with pytest.raises(
        LossyJsonError,
        match=r"^a value of type .*Sub \(convert it with dict\(value\)\) is not JSON - at `\$`$",
    ):
        materialize(Sub(a=1))


def test_frozen_containers_are_refused_unless_tuples_are_accepted() -> None:
    frozen = materialize({"a": [1]}, freeze=True)
    with pytest.raises(LossyJsonError, match=r"^a value of type bridge\.lossless\.FrozenDict"):
        materialize(frozen)
    assert materialize(frozen, accept_tuples=True) == {"a": [1]}


# --- cycles, sharing, depth ---------------------------------------------------------------------


def test_cycle_message_names_where_the_value_repeats() -> None:
    loop: dict[str, object] = {}
    loop["self"] = [loop]
    with pytest.raises(
        LossyJsonError, match=r"^the value contains itself \(a cycle\) - at `\$\.self\[0\]`$"
    ):
        materialize(loop)


def test_shared_sub_structure_is_accepted_and_copied_apart() -> None:
    shared = {"n": 1}
    copy = materialize([shared, shared, {"again": shared}])
    assert copy == [{"n": 1}, {"n": 1}, {"again": {"n": 1}}]
    assert isinstance(copy, list)
    assert copy[0] is not copy[1]
    assert copy[0] is not shared


def test_depth_at_the_limit_is_accepted() -> None:
    assert materialize(nested_lists(MAX_DEPTH)) is not None


def test_depth_past_the_limit_names_the_deepest_path() -> None:
    deepest = r"\[0\]" * MAX_DEPTH
    with pytest.raises(
        LossyJsonError,
        match=rf"^containers are nested deeper than {MAX_DEPTH} levels - at `\${deepest}`$",
    ):
        materialize(nested_lists(MAX_DEPTH + 1))


def test_a_hundred_thousand_levels_raise_the_depth_error_not_recursion_error() -> None:
    with pytest.raises(LossyJsonError, match=r"^containers are nested deeper than"):
        materialize(nested_lists(100_000))
    with pytest.raises(LossyJsonError, match=r"^containers are nested deeper than"):
        materialize(nested_lists(100_000), freeze=True)


def test_deep_cycle_past_the_limit_is_a_depth_error() -> None:
    top = nested_lists(MAX_DEPTH + 10)
    node = top
    while node:
        node = node[0]
    node.append(top)
    with pytest.raises(LossyJsonError, match=r"^containers are nested deeper than"):
        materialize(top)


# --- frozen snapshots and independence ---------------------------------------------------------


def test_frozen_snapshot_cannot_be_changed() -> None:
    frozen: Any = materialize({"a": [1, {"b": 2}]}, freeze=True)
    assert isinstance(frozen, FrozenDict)
    inner: object = frozen["a"]
    assert isinstance(inner, tuple)
    with pytest.raises(TypeError, match=r"^this value is a frozen snapshot and cannot be changed"):
        frozen["a"] = 1
    with pytest.raises(TypeError, match="frozen snapshot"):
        del frozen["a"]
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen.update({"c": 3})
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen.setdefault("c", 3)
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen.pop("a")
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen.popitem()
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen.clear()
    with pytest.raises(TypeError, match="frozen snapshot"):
        frozen.__ior__({"c": 3})
    nested = inner[1]
    assert isinstance(nested, FrozenDict)
    with pytest.raises(TypeError, match="frozen snapshot"):
        nested["b"] = 3


def test_frozen_snapshot_is_not_hashable() -> None:
    with pytest.raises(TypeError, match="unhashable"):
        hash(materialize({}, freeze=True))


def test_copies_do_not_share_containers_with_the_original() -> None:
    original: dict[str, Any] = {"a": [1, {"b": [2]}]}
    copy = materialize(original)
    original["a"][1]["b"].append(3)
    original["a"].append(4)
    assert copy == {"a": [1, {"b": [2]}]}


def test_two_snapshots_of_one_value_are_independent() -> None:
    original: dict[str, Any] = {"a": [1]}
    first: Any = materialize(original)
    second = materialize(original)
    first["a"].append(2)
    assert second == {"a": [1]}


def test_scalars_are_returned_as_they_are() -> None:
    for value in (None, True, 0, 1.5, "text", 2**53):
        assert materialize(value) is value


# --- subclasses, as json.dumps accepts them ------------------------------------------------------


def _as_tuples(value: JsonValue) -> object:
    """The same value with every list turned into a tuple."""
    if isinstance(value, list):
        return tuple(_as_tuples(item) for item in value)
    if isinstance(value, dict):
        return {key: _as_tuples(item) for key, item in value.items()}
    return value


@given(json_values())
def test_with_subclasses_accepted_tuples_come_back_as_json_dumps_writes_them(
    value: JsonValue,
) -> None:
    shaped = _as_tuples(value)
    assert same(materialize(shaped, accept_collections=True), json.loads(json.dumps(shaped)))


def test_the_standard_librarys_containers_are_read_as_json_dumps_writes_them() -> None:
    from collections import Counter, OrderedDict, defaultdict, namedtuple

    point = namedtuple("point", "x y")
    value = {
        "counts": Counter("abb"),
        "ordered": OrderedDict(a=1),
        "grouped": defaultdict(list, {"k": [1]}),
        "point": point(1, (2, 3)),
    }
    assert materialize(value, accept_collections=True) == {
        "counts": {"a": 1, "b": 2},
        "ordered": {"a": 1},
        "grouped": {"k": [1]},
        "point": [1, [2, 3]],
    }


class LyingDict(dict[str, int]):
    def items(self) -> Any:
        return [("x", 1)]


class LyingList(list[int]):
    def __iter__(self) -> Any:
        return iter(["not", "the", "items"])


class LookAlike(tuple[int, ...]):
    """A tuple subclass posing as a namedtuple, whose iteration lies."""

    _fields = ("a",)

    @classmethod
    def _make(cls, items: Any) -> LookAlike:
        return cls(items)

    def __iter__(self) -> Any:
        return iter(["not", "the", "items"])


@pytest.mark.parametrize(
    "value", [LyingDict(y=2), LyingList([1]), str.__new__(type("S", (str,), {}))]
)
def test_any_other_subclass_is_still_refused(value: object) -> None:
    with pytest.raises(LossyJsonError, match=r"^a value of type .* is not JSON - at `\$\[0\]`$"):
        materialize([value], accept_collections=True)


def test_a_namedtuple_look_alike_is_read_through_the_tuple_never_its_own_iteration() -> None:
    assert materialize(LookAlike((1, 2)), accept_collections=True) == [1, 2]


def test_an_ordered_dict_keeps_its_own_order() -> None:
    from collections import OrderedDict

    ordered = OrderedDict(a=1, b=2)
    ordered.move_to_end("a")
    assert list(materialize(ordered, accept_collections=True)) == ["b", "a"]  # type: ignore[arg-type]


def test_subclasses_keep_the_checks_of_their_items() -> None:
    from collections import Counter

    with pytest.raises(LossyJsonError, match=r"^dict key 1 \(int\) is not allowed.* - at `\$\.c`$"):
        materialize({"c": Counter([1])}, accept_collections=True)
    with pytest.raises(
        LossyJsonError, match=r"^a set \(use a sorted list\) is not JSON - at `\$\[1\]`$"
    ):
        materialize((1, {2}), accept_collections=True)


def test_a_dataclass_instance_suggests_asdict() -> None:
    import dataclasses

    @dataclasses.dataclass
    class Point:
        x: int

    with pytest.raises(
        LossyJsonError,
        match=r"^a dataclass instance of type .*Point \(convert it with dataclasses\.asdict\(\)\) "
        r"is not JSON - at `\$\[0\]`$",
    ):
        materialize([Point(1)], accept_collections=True)


# -- a path names where a value sits, and stays short whatever the keys ---------------------


@given(
    st.lists(
        st.one_of(st.integers(0, 10**6), st.text(max_size=3000)), max_size=MAX_DEPTH
    )
)
def test_a_path_is_bounded_whatever_its_keys(parts: list[int | str]) -> None:
    # Each key is shown escaped (up to ten characters each): a peer's keys
    # must not make an error message grow with them.
    assert len(format_path(parts)) <= 4096 + 3


def test_a_lossy_value_under_a_huge_key_is_named_by_a_short_path() -> None:
    with pytest.raises(LossyJsonError) as caught:
        materialize({"\U0001f600" * 100_000: -0.0})
    assert len(str(caught.value)) < 2000
    assert caught.value.path.startswith('$["\\U0001f600')
    assert caught.value.path.endswith('..."]')


@given(st.text(max_size=5000))
def test_bounded_text_keeps_short_text_and_cuts_long_text(text: str) -> None:
    shown = bounded_text(text)
    if len(text) <= SHOWN_TEXT_CHARS:
        assert shown == text
    else:
        assert shown.startswith(text[:SHOWN_TEXT_CHARS])
        assert f"({len(text)} characters in all)" in shown
        assert len(shown) < SHOWN_TEXT_CHARS + 60


class _Status(str, enum.Enum):  # noqa: UP042 - the form models write
    PENDING = "pending"

    def __str__(self) -> str:  # never read: the member's value is read by str's own method
        return "not the value"


class _Level(enum.IntEnum):
    HIGH = 3


class _Ratio(float, enum.Enum):
    HALF = 0.5


class _Plain(enum.Enum):
    A = 1


def test_str_int_and_float_enum_members_are_written_as_their_values_like_json_dumps() -> None:
    value = {
        "status": _Status.PENDING, "level": _Level.HIGH, "ratio": [_Ratio.HALF],
        _Status.PENDING: "as a key",
    }
    copied = materialize(value, accept_collections=True)
    assert copied == json.loads(json.dumps(value))
    assert copied == {"status": "pending", "level": 3, "ratio": [0.5], "pending": "as a key"}
    assert isinstance(copied, dict)
    assert [type(copied["status"]), type(copied["level"])] == [str, int]
    assert materialize(_Level.HIGH, accept_collections=True) == 3


def test_enum_members_without_a_scalar_mixin_or_without_collections_are_refused() -> None:
    with pytest.raises(LossyJsonError, match=r"an enum member: use _Plain\.A\.value"):
        materialize({"a": _Plain.A}, accept_collections=True)
    with pytest.raises(LossyJsonError, match=r"an enum member: use _Status\.PENDING\.value"):
        materialize({"a": _Status.PENDING})


class _Colliding(str, enum.Enum):  # noqa: UP042 - the form models write
    A = "x"

    def __hash__(self) -> int:
        return 12345

    def __eq__(self, other: object) -> bool:
        return other is self


def test_a_key_written_as_its_value_never_replaces_another_entry() -> None:
    # Two entries in the program's dict; written as text they would be one.
    with pytest.raises(LossyJsonError, match=r"^dict key 'x' appears twice .* - at `\$`$"):
        materialize({_Colliding.A: "member", "x": "plain"}, accept_collections=True)
    with pytest.raises(LossyJsonError, match="appears twice"):
        materialize({"x": "plain", _Colliding.A: "member"}, accept_collections=True)
