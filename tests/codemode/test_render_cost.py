"""Laying out a value as pretty JSON costs text linear in its size, whatever its nesting.

The work is counted, not timed: the bytes every formatting step produces (the
text msgspec lays out, which the writer may discard, and the text returned) are
summed and divided by the size of the value's compact JSON. For each shape of
nesting that ratio must stay below one bound at every depth and must not grow
with the depth. Indenting every level made a value nested 490 levels deep cost
hundreds of times its size (500 MB of text for a 1 MB value) before the writer
noticed and laid it out again.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec
import pytest

from bridge.lossless import JsonValue
from codemode._tools import _fits_fast_layout, pretty_json
from codemode.code_mode._render import render_run_output

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

#: Text bytes per byte of compact JSON that no layout needs: each entry gets at
#: most a newline, 10 columns of indentation and a separator, and the fast
#: layout's text, when used, is produced once more as bytes before decoding.
BYTES_PER_BYTE = 16
#: The ratio may differ this much between the shallowest and deepest value of a shape.
GROWTH = 1.15
#: 490 is about the deepest a program's value can be (the lossless check stops at 500).
DEPTHS = (8, 32, 128, 490)
WIDTH = 20_000


def _chain(depth: int, bottom: JsonValue, key: str | None) -> JsonValue:
    value = bottom
    for _ in range(depth):
        value = [value] if key is None else {key: value}
    return value


def _siblings(depth: int) -> JsonValue:
    # Every level holds a few scalars beside the next level, and the bottom is wide.
    value: JsonValue = list(range(WIDTH))
    for level in range(depth):
        value = {"level": level, "name": "n" * 8, "next": value, "tags": ["a", "b"]}
    return value


def _many_deep(depth: int) -> JsonValue:
    # Many deep values side by side: the compact level is reached again and again.
    return [_chain(depth, [1, 2, 3], "k") for _ in range(WIDTH // 20)]


SHAPES: dict[str, Callable[[int], JsonValue]] = {
    "list-chain-wide-bottom": lambda depth: _chain(depth, [0] * WIDTH, None),
    "object-chain-wide-bottom": lambda depth: _chain(depth, {"k": [7] * WIDTH}, "key"),
    "strings-at-the-bottom": lambda depth: _chain(depth, ["text"] * WIDTH, None),
    "floats-at-the-bottom": lambda depth: _chain(depth, [1e-05, 2e16, 0.5] * (WIDTH // 3), None),
    "siblings-at-every-level": _siblings,
    "many-deep-values": _many_deep,
}


@pytest.fixture
def formatted(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The bytes msgspec's indenting formatter produced, summed over the test."""
    produced = [0]
    real = msgspec.json.format

    def counting(buf: Any, *, indent: int = 2) -> Any:
        text = real(buf, indent=indent)
        produced[0] += len(text)
        return text

    monkeypatch.setattr(msgspec.json, "format", counting)
    return produced


def layout_bytes_per_byte(value: JsonValue, formatted: list[int]) -> float:
    """Bytes produced laying ``value`` out, per byte of its compact JSON."""
    compact = len(msgspec.json.encode(value))
    formatted[0] = 0
    text = render_run_output([], value)
    assert text == pretty_json(value)
    return (formatted[0] + len(text.encode())) / compact


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_layout_text_per_byte_does_not_grow_with_nesting_depth(
    shape: str, formatted: list[int]
) -> None:
    make = SHAPES[shape]
    ratios = {depth: layout_bytes_per_byte(make(depth), formatted) for depth in DEPTHS}
    assert max(ratios.values()) <= BYTES_PER_BYTE, ratios
    assert ratios[DEPTHS[-1]] <= ratios[DEPTHS[0]] * GROWTH, ratios


def test_a_deep_value_is_never_handed_to_the_indenting_formatter(formatted: list[int]) -> None:
    value = _chain(490, [0] * WIDTH, None)
    assert not _fits_fast_layout(value)
    pretty_json(value)
    assert formatted[0] == 0


def test_the_depth_probe_stops_at_the_first_container_past_the_compact_level() -> None:
    # A container with entries at the compact level (the root is level 0) is
    # the answer: its entries, however many, are never looked at.
    class Untouchable(list[JsonValue]):
        def __iter__(self) -> Iterator[JsonValue]:
            raise AssertionError("the probe looked into a container at the compact level")

    assert not _fits_fast_layout(_chain(5, Untouchable([1]), None))
    assert not _fits_fast_layout(_chain(5, [1, 2], None))
    assert _fits_fast_layout(_chain(4, [1, 2], None))
    assert _fits_fast_layout(_chain(5, [], None))


def test_the_counter_sees_indentation_that_grows_with_depth(formatted: list[int]) -> None:
    # The instrument itself: msgspec's layout of a deep value, indented at
    # every level, is counted as growing with the depth.
    def indented(depth: int) -> float:
        value = _chain(depth, [0] * WIDTH, None)
        formatted[0] = 0
        msgspec.json.format(msgspec.json.encode(value), indent=2)
        return formatted[0] / len(msgspec.json.encode(value))

    assert indented(DEPTHS[-1]) > indented(DEPTHS[0]) * 10
