"""How a ``run_code`` outcome reads to the model (reference §6)."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from codemode.code_mode._dispatch import SubCallRecord
from codemode.code_mode._render import (
    MAX_LISTED_CALLS,
    NO_OUTPUT,
    describe_calls_ran,
    pretty_json,
    render_run_output,
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text()
    | st.floats(allow_nan=False, allow_infinity=False).filter(lambda f: f != 0 or str(f) == "0.0"),
    lambda children: st.lists(children, max_size=4)
    | st.dictionaries(st.text(max_size=5), children, max_size=4),
    max_leaves=30,
)


def test_logs_and_a_result_are_joined_with_the_result_on_its_own_line() -> None:
    assert render_run_output(["one", "two"], {"n": 1}) == 'one\ntwo\n{\n  "n": 1\n}'


def test_logs_alone_render_without_a_result_line() -> None:
    assert render_run_output(["one", "two"], None, has_result=False) == "one\ntwo"


def test_a_result_alone_renders_without_logs() -> None:
    assert render_run_output([], [1, 2]) == "[\n  1,\n  2\n]"


def test_no_logs_and_no_result_render_the_placeholder() -> None:
    assert render_run_output([], None, has_result=False) == NO_OUTPUT
    assert NO_OUTPUT == "(run_code completed with no output)"


def test_a_python_program_returning_nothing_shows_null_not_the_placeholder() -> None:
    assert render_run_output([], None) == "null"


def test_a_string_result_is_shown_raw_without_quotes() -> None:
    assert render_run_output([], 'say "hi"\nthere') == 'say "hi"\nthere'


def test_pretty_json_matches_the_pinned_shapes() -> None:
    assert pretty_json({"n": 42, "ok": True}) == '{\n  "n": 42,\n  "ok": true\n}'
    assert pretty_json({}) == "{}"
    assert pretty_json([]) == "[]"
    assert pretty_json(None) == "null"


def test_indentation_stops_at_five_levels_and_deeper_subtrees_are_compact() -> None:
    value: Any = {"leaf": [1, 2]}
    for _ in range(7):
        value = {"k": value}
    text = pretty_json(value)
    assert max(len(line) - len(line.lstrip(" ")) for line in text.splitlines()) == 10
    assert '{"k":{"leaf":[1,2]}}' in text


def test_deep_json_renders_without_recursion_in_linear_text_size() -> None:
    depth = 100_000
    value: Any = 0
    for _ in range(depth):
        value = [value]
    text = pretty_json(value)
    assert len(text) < 3 * depth
    assert text.replace(" ", "").replace("\n", "") == "[" * depth + "0" + "]" * depth


@given(json_values)
def test_pretty_json_reads_back_as_the_same_value(value: Any) -> None:
    assert json.loads(pretty_json(value)) == value


# -- the tool calls a failed run had already made -------------------------------------------------


def records(*calls: tuple[str, bool]) -> list[SubCallRecord]:
    return [SubCallRecord(f"c:code:{n}", name, failed) for n, (name, failed) in enumerate(calls)]


def test_no_call_means_no_summary() -> None:
    assert describe_calls_ran([]) is None


def test_calls_are_listed_in_order_with_their_outcome() -> None:
    assert describe_calls_ran(
        records(("send_notification", False), ("get_customer", True), ("get_customer", False))
    ) == (
        "3 tool calls already ran: send_notification (ok), get_customer (failed), "
        "get_customer (ok); running the program again repeats them."
    )


def test_repeats_of_one_tool_and_outcome_are_counted() -> None:
    text = describe_calls_ran(records(("a", False), ("a", False), ("a", True), ("a", False)))
    assert text == (
        "4 tool calls already ran: a (ok) x2, a (failed), a (ok); running the program again "
        "repeats them."
    )


def test_past_the_listed_entries_the_rest_is_counted() -> None:
    calls = records(*((f"t{n}", False) for n in range(MAX_LISTED_CALLS + 5)))
    text = describe_calls_ran(calls)
    assert text is not None
    assert f", t{MAX_LISTED_CALLS - 1} (ok), and 5 more; " in text
    assert f"t{MAX_LISTED_CALLS} " not in text


@given(st.lists(st.tuples(st.text(min_size=1, max_size=300), st.booleans()), max_size=300))
def test_the_summary_stays_short_however_many_calls_ran(calls: list[tuple[str, bool]]) -> None:
    text = describe_calls_ran(records(*calls))
    assert (text is None) == (not calls)
    # Each listed entry is a name cut at 60 characters plus its outcome and count.
    assert text is None or len(text) <= 150 + MAX_LISTED_CALLS * 80
