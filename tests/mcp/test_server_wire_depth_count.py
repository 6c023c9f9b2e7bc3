"""Measuring a served message's depth before it is parsed: the same answer, in bounded steps.

``_deeper_than`` runs in a worker thread on text the client chose; each regular
expression match holds the GIL (and so the event loop) for as long as it runs,
so a string is skipped a bounded piece at a time, as the value count does: a
15 MB string of brackets read as one match held the loop about 0.4 s.
"""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.mcp import _transport
from codemode.mcp._server_wire import _deeper_than
from codemode.mcp._transport import MAX_PIECE_BYTES

#: A whole string, or one bracket, outside strings: the depth read with strings whole.
_WHOLE_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*+"|[\[\]{}]')


def reference(line: bytes, limit: int) -> bool:
    depth = 0
    for match in _WHOLE_TOKEN.finditer(line):
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
@given(_JSON, st.integers(min_value=0, max_value=8))
def test_the_depth_agrees_with_one_that_reads_strings_whole(value: Any, limit: int) -> None:
    line = json.dumps(value).encode()
    assert _deeper_than(line, limit) == reference(line, limit)


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


@pytest.mark.parametrize("filler", [b"[", b"{", b"\\n"], ids=["brackets", "braces", "escapes"])
def test_a_long_string_is_skipped_a_bounded_piece_at_a_time(
    filler: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    pieces = _Pieces()
    monkeypatch.setattr(_transport, "_STRING_PIECE", pieces)
    size = 3 * MAX_PIECE_BYTES
    line = b'{"x":"' + filler * (size // len(filler)) + b'","y":' + b"[" * 12 + b"]" * 12 + b"}"
    assert _deeper_than(line, 10)  # the brackets after the string are still counted
    assert not _deeper_than(line, 13)
    assert pieces.lengths, "the string was read as one match"
    assert max(pieces.lengths) <= MAX_PIECE_BYTES
    assert sum(pieces.lengths) >= size
