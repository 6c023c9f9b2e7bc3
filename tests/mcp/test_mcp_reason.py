"""How the MCP client names a server's malformed answer: one bounded line, read from the head."""

from __future__ import annotations

import tracemalloc

from hypothesis import given
from hypothesis import strategies as st

from codemode.mcp._client import _reason
from codemode.mcp._listing import one_line


def _whole_text_reason(exc: BaseException) -> str:
    """The definition: the first three stripped lines of the stripped text, joined and cut."""
    lines = [line.strip() for line in str(exc).strip().splitlines()[:3]]
    text = f"{type(exc).__name__}: {'; '.join(lines)}" if lines else type(exc).__name__
    return one_line(text, 500)


@given(st.text(alphabet=st.sampled_from(list("ab \t\n\r\x0b\x1c\u2028\u00a0é")), max_size=300))
def test_the_line_is_the_one_the_whole_text_gives(text: str) -> None:
    exc = ValueError(text)
    assert _reason(exc) == _whole_text_reason(exc)


def test_a_text_of_millions_of_lines_is_not_split_whole() -> None:
    # The server chose the text (up to the transport's message cap): a list of
    # every line would be many times its size, to show three of them.
    exc = ValueError("2 validation errors\n" + "x\n" * 2_000_000)
    tracemalloc.start()
    try:
        reason = _reason(exc)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert reason == "ValueError: 2 validation errors; x; x"
    assert peak < 64 * 1024
