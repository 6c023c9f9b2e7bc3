"""Scanning a message before it is parsed: the same answers, in bounded steps.

``more_values_than`` (the value count MCP's client and server share) and
serve-mcp's ``deeper_than`` run in a worker thread on text a peer chose; each
regular expression match holds the GIL (and so the event loop) for as long as
it runs, so both skip a string a bounded piece at a time: a 15 MB string of
brackets read as one match held the loop about 0.4 s.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.mcp import _transport
from codemode.mcp._server_messages import deeper_than
from codemode.mcp._transport import MAX_PIECE_BYTES, more_values_than

#: What the count was before it was made piecewise: a whole string, or one
#: token that adds a value, outside strings.
_WHOLE_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*+"|[,\[{]')


#: A whole string, or one bracket, outside strings: the depth read with strings whole.
_WHOLE_BRACKET = re.compile(rb'"(?:[^"\\]|\\.)*+"|[\[\]{}]')


def reference(line: bytes, limit: int) -> bool:
    count = 1
    for match in _WHOLE_TOKEN.finditer(line):
        if match.end() - match.start() == 1:
            count += 1
            if count > limit:
                return True
    return False


def deeper_reference(line: bytes, limit: int) -> bool:
    depth = 0
    for match in _WHOLE_BRACKET.finditer(line):
        token = match.group()
        if token in (b"[", b"{"):
            depth += 1
            if depth > limit:
                return True
        elif token in (b"]", b"}"):
            depth -= 1
    return False


_TEXT = st.text(alphabet=st.sampled_from(list('ab,[]{}:"\\é\n')), max_size=12)
_JSON = st.recursive(
    st.none() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=30,
)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.integers(min_value=0, max_value=40))
def test_the_count_agrees_with_one_that_reads_strings_whole(value: Any, limit: int) -> None:
    line = json.dumps(value).encode()
    assert more_values_than(line, limit) == reference(line, limit)


@settings(max_examples=300, deadline=None)
@given(_JSON, st.integers(min_value=0, max_value=8))
def test_the_depth_agrees_with_one_that_reads_strings_whole(value: Any, limit: int) -> None:
    line = json.dumps(value).encode()
    assert deeper_than(line, limit) == deeper_reference(line, limit)


class _Pieces:
    """Records the length of every match of the string-piece pattern."""

    def __init__(self) -> None:
        self.lengths: list[int] = []
        self.pattern = _transport._STRING_PIECE

    def match(self, line: bytes, position: int) -> Any:
        found = self.pattern.match(line, position)
        assert found is not None
        self.lengths.append(found.end() - found.start())
        return found


@pytest.mark.parametrize(
    "filler", [b"[", b",", b"\\n", b"a"], ids=["brackets", "commas", "escapes", "text"]
)
def test_a_long_string_is_skipped_a_bounded_piece_at_a_time(
    filler: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    pieces = _Pieces()
    monkeypatch.setattr(_transport, "_STRING_PIECE", pieces)
    size = 3 * MAX_PIECE_BYTES
    line = b'{"x":"' + filler * (size // len(filler)) + b'","y":[' + b"1," * 40 + b"1]}"
    assert more_values_than(line, 30)  # the values after the string are still counted
    assert max(pieces.lengths) <= MAX_PIECE_BYTES
    assert sum(pieces.lengths) >= size


@pytest.mark.parametrize("filler", [b"[", b"{", b"\\n"], ids=["brackets", "braces", "escapes"])
def test_the_depth_skips_a_long_string_a_bounded_piece_at_a_time(
    filler: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    pieces = _Pieces()
    monkeypatch.setattr(_transport, "_STRING_PIECE", pieces)
    size = 3 * MAX_PIECE_BYTES
    line = b'{"x":"' + filler * (size // len(filler)) + b'","y":' + b"[" * 12 + b"]" * 12 + b"}"
    assert deeper_than(line, 10)  # the brackets after the string are still counted
    assert not deeper_than(line, 13)
    assert pieces.lengths, "the string was read as one match"
    assert max(pieces.lengths) <= MAX_PIECE_BYTES
    assert sum(pieces.lengths) >= size


@pytest.mark.parametrize(
    "line", [b'{"x":"abc', b'{"x":"abc\\', b'["a\\'], ids=["open", "slash", "end"]
)
def test_text_that_is_not_json_ends_the_count(line: bytes) -> None:
    # What follows an unterminated string is inside it: not counted, and the count ends.
    assert more_values_than(line + b",[" * 8, 3) is False
