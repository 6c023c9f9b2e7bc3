"""``fitted_message``: a failure message as the host takes it, for any text and any cap."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bridge.child import MESSAGE_CUT_MARKER, fitted_message

# Any code point, lone surrogates included, with runs of one character to make long texts.
TEXT = st.text(st.characters(min_codepoint=0, max_codepoint=0x10FFFF), max_size=200)
LONG = st.builds(lambda part, times: part * times, TEXT, st.integers(1, 300))


def _escaped(text: str) -> str:
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


@given(message=st.one_of(TEXT, LONG), cap=st.integers(1, 5000))
def test_the_result_is_valid_text_within_the_cap_and_its_marker(message: str, cap: int) -> None:
    fitted = fitted_message(message, cap)
    data = fitted.encode("utf-8")  # never raises: no lone surrogate is left
    whole = _escaped(message)
    if len(whole.encode("utf-8")) <= cap:
        assert fitted == whole  # nothing cut, only escaped
        return
    marker = MESSAGE_CUT_MARKER.format(length=len(message), limit=cap)
    assert f"\n{marker}\n" in fitted
    assert len(data) <= cap + len(marker) + 2
    head, _, tail = fitted.partition(f"\n{marker}\n")
    # The beginning and the end are the message's own, cut at character boundaries.
    assert whole.startswith(head)
    assert whole.endswith(tail)
    assert len(head.encode("utf-8")) + len(tail.encode("utf-8")) <= cap


def test_a_huge_message_keeps_both_ends_and_says_how_long_it_was() -> None:
    message = "Traceback: start\n" + "x" * 10_000_000 + "\nValueError: the end"
    fitted = fitted_message(message, 1000)
    assert fitted.startswith("Traceback: start\n")
    assert fitted.endswith("\nValueError: the end")
    assert MESSAGE_CUT_MARKER.format(length=len(message), limit=1000) in fitted


def test_a_short_plain_message_is_the_same_object() -> None:
    message = "ValueError: bad"
    assert fitted_message(message, 1000) is message
