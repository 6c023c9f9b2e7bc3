"""Replay checks the session log's invariants as it reads, and says what breaks them.

``SessionLog`` refuses to open a store whose history breaks its invariants;
a reader still shows such a log, and ``InvariantCheck`` counts the events that
break them, exactly those ``SessionLog`` would refuse, without changing what
is read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    LogInvariantError,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
)
from codemode._log._replay import InvariantCheck, replay

if TYPE_CHECKING:
    from collections.abc import Iterator

    from codemode._log._events import Event

IDS = ["a", "b", "a:code:1", "b:code:1", "x\ny"]


def event_of(kind: int, first: str, second: str, seq: int) -> Event:
    if kind == 0:
        return ToolCallEvent(turn=1, step=0, call_id=first, name="run_code", arguments="{}",
                             seq=seq, time=1.0)
    if kind == 1:
        return ToolResultEvent(turn=1, step=0, call_id=first, name="run_code", is_error=False,
                               content=(), seq=seq, time=1.0)
    if kind == 2:
        return CodeDispatchStartEvent(root_call_id=first, parent_call_id=first,
                                      sub_call_id=second, name="t", arguments={}, seq=seq,
                                      time=1.0)
    return CodeDispatchEvent(root_call_id=first, parent_call_id=first, sub_call_id=second,
                             name="t", arguments={}, is_error=False, content=(), seq=seq,
                             time=1.0)


histories = st.lists(
    st.tuples(st.integers(0, 3), st.sampled_from(IDS), st.sampled_from(IDS)), max_size=12
).map(lambda raw: [event_of(kind, a, b, seq) for seq, (kind, a, b) in enumerate(raw, 1)])


class _History:
    """A store that already holds ``events``, as one read back from a file would."""

    def __init__(self, events: list[Event]) -> None:
        self.events = list(events)

    def append(self, event: Event) -> Event:
        stamped = msgspec.structs.replace(event, seq=len(self.events) + 1)
        self.events.append(stamped)
        return stamped

    def sync(self) -> None:
        pass

    def close(self) -> None:
        pass

    def read(self) -> Iterator[Event]:
        return iter(list(self.events))


@settings(max_examples=300, deadline=None)
@given(histories)
def test_the_check_finds_a_problem_exactly_when_a_session_log_refuses_the_history(
    events: list[Event],
) -> None:
    check = InvariantCheck()
    assert list(check.passing(events)) == events
    refused: LogInvariantError | None = None
    try:
        SessionLog(_History(events)).close()
    except LogInvariantError as exc:
        refused = exc
    if refused is None:
        # A root answered with sub-calls unsettled is reported, and opening closes them.
        assert (check.problems, check.first) == (check.unsettled, None)
        assert (check.first_unsettled is None) == (check.unsettled == 0)
    else:
        assert check.first == (refused.seq, refused.kind, refused.problem)


def test_a_stray_dispatch_pair_is_counted_and_summarised_on_one_line() -> None:
    events = [event_of(2, "x\ny", "x\ny:code:1", 1), event_of(3, "x\ny", "x\ny:code:1", 2)]
    check = InvariantCheck()
    nodes = replay(check.passing(events))
    assert [node.call_id for node in nodes] == ["x\ny:code:1"]
    assert check.problems == 2
    summary = check.summary()
    assert summary.startswith("2 events break the session log's invariants")
    assert "the tool/code-dispatch-start event seq=1" in summary
    assert 'root call "x\\u000ay" is not open' in summary
    assert len(summary.splitlines()) == 1


def test_a_log_that_keeps_the_invariants_has_no_problem() -> None:
    events = [event_of(0, "a", "", 1), event_of(2, "a", "a:code:1", 2),
              event_of(3, "a", "a:code:1", 3), event_of(1, "a", "", 4)]
    check = InvariantCheck()
    assert len(replay(check.passing(events))) == 1
    assert (check.problems, check.first) == (0, None)
    assert check.summary() == "the log keeps the session log's invariants"
