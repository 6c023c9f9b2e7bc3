"""The session log's invariants for dispatch events (reference §5.1, the tools invariant companion).

A dispatch event is appended only inside its root call's turn (after the root's
``tool/call``, before its ``tool/result``), with non-empty ids, a stable root per
sub-call, and a parent that is the root or a sub-call already logged under it;
a log opened on a store with history continues checking from that history.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import LossyJsonError
from codemode import LogInvariantError
from codemode._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    JsonlStore,
    MemoryStore,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    replay,
)
from codemode._log._recovery import ABANDONED_ERROR, UNSETTLED_AT_RESULT
from codemode._log._replay import InvariantCheck
from codemode._results import TextBlock

if TYPE_CHECKING:
    from pathlib import Path


def call(call_id: str = "c1") -> ToolCallEvent:
    return ToolCallEvent(turn=1, step=0, call_id=call_id, name="run_code", arguments="{}")


def result(call_id: str = "c1") -> ToolResultEvent:
    return ToolResultEvent(
        turn=1, step=0, call_id=call_id, name="run_code", is_error=False,
        content=(TextBlock(text="done"),),
    )


def start(sub: str, parent: str = "c1", root: str = "c1") -> CodeDispatchStartEvent:
    return CodeDispatchStartEvent(
        root_call_id=root, parent_call_id=parent, sub_call_id=sub, name="t", arguments={}
    )


def settle(sub: str, parent: str = "c1", root: str = "c1") -> CodeDispatchEvent:
    return CodeDispatchEvent(
        root_call_id=root, parent_call_id=parent, sub_call_id=sub, name="t", arguments={},
        is_error=False, content=(),
    )


NOT_OPEN = (
    'its root call "c1" is not open in this log (its tool/call is not logged, or its '
    "tool/result already is), and dispatch events belong inside their root call's turn; "
    "run the call through run_turn(), or append its ToolCallEvent before executing it"
)


def refused(kind: str, problem: str) -> str:
    return f"^{re.escape(f'{kind} event refused: {problem}')}$"


# -- inside an open turn ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("event", "kind"),
    [(start("c1:code:1"), "tool/code-dispatch-start"), (settle("c1:code:1"), "tool/code-dispatch")],
)
def test_a_dispatch_event_outside_any_turn_is_refused_and_not_written(
    event: Event, kind: str
) -> None:
    log = SessionLog(MemoryStore())
    with pytest.raises(LogInvariantError, match=refused(kind, NOT_OPEN)):
        log.append(event)
    assert log.events() == []


def test_a_dispatch_event_after_its_root_calls_result_is_refused() -> None:
    log = SessionLog(MemoryStore())
    log.append(call())
    log.append(start("c1:code:1"))
    log.append(result())  # the log settles c1:code:1 itself first (below)
    with pytest.raises(LogInvariantError, match=refused("tool/code-dispatch", NOT_OPEN)):
        log.append(settle("c1:code:1"))
    assert [type(e).__name__ for e in log.events()] == [
        "ToolCallEvent", "CodeDispatchStartEvent", "CodeDispatchEvent", "ToolResultEvent",
    ]


def test_a_result_appended_over_unsettled_sub_calls_settles_them_first(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # Every started sub-call has one settle, before its root's result, even
    # when the writer answers the root first: the log appends the settles.
    log = SessionLog(MemoryStore())
    log.append(call())
    log.append(start("c1:code:1"))
    log.append(start("c1:code:2", parent="c1:code:1"))
    log.append(start("c1:code:3"))
    log.append(settle("c1:code:3"))
    answered = log.append(result())
    closing = log.events()[5:-1]
    assert [(e.sub_call_id, e.parent_call_id) for e in closing] == [  # type: ignore[union-attr]
        ("c1:code:2", "c1:code:1"), ("c1:code:1", "c1")]  # the latest start first
    for event in closing:
        assert isinstance(event, CodeDispatchEvent)
        assert event.is_error
        assert event.error == ABANDONED_ERROR
        assert event.content == (TextBlock(text=f"Error: {UNSETTLED_AT_RESULT}"),)
    assert log.events()[-1] == answered
    assert "2 sub-call(s) started under it and not settled" in caplog.text
    check = InvariantCheck()
    assert list(check.passing(log.events())) == log.events()
    assert check.problems == 0


def test_a_result_that_cannot_be_logged_leaves_its_sub_calls_open() -> None:
    log = SessionLog(MemoryStore())
    log.append(call())
    log.append(start("c1:code:1"))
    bad = msgspec.structs.replace(result(), name="\ud800")
    with pytest.raises(LossyJsonError, match=r"\$\.name"):
        log.append(bad)
    assert len(log.events()) == 2  # nothing appended: the writer may still settle it
    log.append(settle("c1:code:1"))
    log.append(result())
    assert [type(e).__name__ for e in log.events()] == [
        "ToolCallEvent", "CodeDispatchStartEvent", "CodeDispatchEvent", "ToolResultEvent",
    ]


def test_another_calls_open_turn_does_not_admit_a_dispatch_event() -> None:
    log = SessionLog(MemoryStore())
    log.append(call("c2"))
    with pytest.raises(LogInvariantError, match="is not open in this log"):
        log.append(start("c1:code:1"))


def test_dispatch_events_inside_the_turn_are_appended_in_order() -> None:
    log = SessionLog(MemoryStore())
    events: list[Event] = [
        call(), start("c1:code:1"), settle("c1:code:1"), start("c1:code:2"), settle("c1:code:2"),
        result(),
    ]
    for event in events:
        log.append(event)
    assert [e.seq for e in log.events()] == [1, 2, 3, 4, 5, 6]


# -- non-empty ids ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"sub": ""}, "sub_call_id must not be empty"),
        ({"sub": "c1:code:1", "parent": ""}, "root_call_id and parent_call_id must not be empty"),
        ({"sub": "c1:code:1", "root": ""}, "root_call_id and parent_call_id must not be empty"),
    ],
)
def test_a_dispatch_event_with_an_empty_id_is_refused(fields: dict[str, str], problem: str) -> None:
    log = SessionLog(MemoryStore())
    log.append(call())
    log.append(call(""))  # even an open call with an empty id does not admit one
    with pytest.raises(LogInvariantError, match=refused("tool/code-dispatch-start", problem)):
        log.append(start(**fields))


# -- a stable root and parent chain -----------------------------------------------------------


def test_a_sub_call_keeps_the_root_it_was_first_logged_under() -> None:
    log = SessionLog(MemoryStore())
    log.append(call("c1"))
    log.append(call("c2"))
    log.append(start("c1:code:1"))
    problem = 'sub-call "c1:code:1" was logged under root call "c1" and now names root call "c2"'
    with pytest.raises(LogInvariantError, match=refused("tool/code-dispatch", problem)):
        log.append(settle("c1:code:1", parent="c2", root="c2"))


def test_an_answered_root_call_is_forgotten_with_its_sub_calls() -> None:
    log = SessionLog(MemoryStore())
    for turn in range(1, 51):
        root = f"c{turn}"
        log.append(call(root))
        for n in range(1, 21):
            log.append(start(f"{root}:code:{n}", parent=root, root=root))
            log.append(settle(f"{root}:code:{n}", parent=root, root=root))
        assert len(log._invariants) == 20
        log.append(result(root))
        # What the checks remember does not grow with the session.
        assert len(log._invariants) == 0
    # The old root's id names nothing any more: a sub-call id reused under an
    # open root is a new sub-call there, and the replayed trees keep both.
    log.append(call("c99"))
    log.append(start("c1:code:1", parent="c99", root="c99"))
    log.append(settle("c1:code:1", parent="c99", root="c99"))
    log.append(result("c99"))
    trees = replay(log.events())
    assert [len(tree.children) for tree in trees] == [20] * 50 + [1]
    assert all(child.is_error is False for tree in trees for child in tree.children)


def test_a_sub_call_of_an_answered_turn_is_not_a_parent_when_its_root_opens_again() -> None:
    log = SessionLog(MemoryStore())
    for event in (call(), start("c1:code:1"), settle("c1:code:1"), result(), call()):
        log.append(event)
    with pytest.raises(LogInvariantError, match="neither the root call"):
        log.append(start("c1:code:1:code:1", parent="c1:code:1"))


def test_a_parent_must_be_the_root_or_a_sub_call_logged_under_it() -> None:
    log = SessionLog(MemoryStore())
    log.append(call("c1"))
    log.append(call("c2"))
    log.append(start("c2:code:1", parent="c2", root="c2"))
    for parent in ("ghost", "c2:code:1"):
        problem = (
            f'its parent call "{parent}" is neither the root call "c1" nor a sub-call '
            "logged under it"
        )
        with pytest.raises(LogInvariantError, match=refused("tool/code-dispatch-start", problem)):
            log.append(start("c1:code:1:code:1", parent=parent))


def test_a_sub_call_already_logged_under_the_root_can_be_a_parent() -> None:
    log = SessionLog(MemoryStore())
    for event in (call(), start("c1:code:1"), start("c1:code:1:code:1", parent="c1:code:1"),
                  settle("c1:code:1:code:1", parent="c1:code:1"), settle("c1:code:1"), result()):
        log.append(event)
    assert len(log.events()) == 6


def test_dispatch_problem_answers_before_anything_is_appended() -> None:
    log = SessionLog(MemoryStore())
    assert log.dispatch_problem("c1", "c1") == NOT_OPEN
    log.append(call())
    assert log.dispatch_problem("c1", "c1") is None
    assert log.dispatch_problem("c1", "c1:code:9") is not None
    assert log.events() == [log.events()[0]]


# -- a log opened on a store with history -----------------------------------------------------


def test_a_log_reopened_on_its_file_continues_checking_from_the_history(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    with SessionLog(JsonlStore(path)) as first:
        first.append(call())
        first.append(start("c1:code:1"))
        first.append(settle("c1:code:1"))
        first.append(result())
        first.append(call("c2"))
        first.append(start("c2:code:1", parent="c2", root="c2"))
        first.append(settle("c2:code:1", parent="c2", root="c2"))
    with SessionLog(JsonlStore(path)) as resumed:
        # The history says c1 was answered (its sub-calls are forgotten); c2 was
        # left open by the writer, so reopening closed it as abandoned.
        assert len(resumed.events()) == 8
        for root in ("c1", "c2"):
            with pytest.raises(LogInvariantError, match="is not open in this log"):
                resumed.append(start(f"{root}:code:9", parent=root, root=root))
        # A closed call's id names a new call, whose sub-call ids start afresh.
        resumed.append(call("c2"))
        resumed.append(start("c2:code:1", parent="c2", root="c2"))
        with pytest.raises(LogInvariantError, match="now names root call"):
            resumed.append(settle("c2:code:1", parent="c9", root="c9"))
        resumed.append(settle("c2:code:1", parent="c2", root="c2"))
        resumed.append(result("c2"))


def test_a_store_whose_history_breaks_the_invariants_is_refused_and_closed(
    tmp_path: Path,
) -> None:
    path = tmp_path / "session.jsonl"
    store = JsonlStore(path)
    store.append(call())
    store.append(result())
    store.append(start("c1:code:1"))  # written behind the log's back, after the result
    store.close()
    reopened = JsonlStore(path)
    expected = f"tool/code-dispatch-start event refused (the log's event seq=3): {NOT_OPEN}"
    with pytest.raises(LogInvariantError, match=f"^{re.escape(expected)}$") as caught:
        SessionLog(reopened)
    assert caught.value.seq == 3
    # The refused store was closed, so the file can be opened again.
    JsonlStore(path).close()


# -- against a plain model of the rules --------------------------------------------------------

_IDS = st.sampled_from(["c1", "c2", "c1:code:1", "c1:code:2", "c2:code:1", ""])


@st.composite
def attempts(draw: st.DrawFn) -> list[Event]:
    out: list[Event] = []
    for _ in range(draw(st.integers(0, 25))):
        kind = draw(st.sampled_from(["call", "result", "start", "settle"]))
        if kind == "call":
            out.append(call(draw(_IDS)))
        elif kind == "result":
            out.append(result(draw(_IDS)))
        else:
            build = start if kind == "start" else settle
            out.append(build(draw(_IDS), parent=draw(_IDS), root=draw(_IDS)))
    return out


def open_calls(events: list[Any]) -> set[str]:
    """The ids whose latest tool/call has no tool/result after it."""
    opened: set[str] = set()
    for event in events:
        if isinstance(event, ToolCallEvent):
            opened.add(event.call_id)
        elif isinstance(event, ToolResultEvent):
            opened.discard(event.call_id)
    return opened


def remembered(before: list[Any]) -> list[Any]:
    """The dispatch events whose root has not been answered since (the rest are forgotten)."""
    return [e for at, e in enumerate(before)
            if isinstance(e, CodeDispatchStartEvent | CodeDispatchEvent)
            and not any(isinstance(later, ToolResultEvent) and later.call_id == e.root_call_id
                        for later in before[at:])]


def holds(events: list[Any]) -> bool:
    """Whether a log's events keep the rules, judged from scratch."""
    for index, event in enumerate(events):
        before = events[:index]
        if isinstance(event, ToolCallEvent):
            # An id names one open call at a time: an open root or a remembered sub-call.
            if event.call_id in open_calls(before) or any(
                e.sub_call_id == event.call_id for e in remembered(before)
            ):
                return False
            continue
        if isinstance(event, ToolResultEvent):
            # A tool/result answers an open root call.
            if event.call_id not in open_calls(before):
                return False
            continue
        if not isinstance(event, CodeDispatchStartEvent | CodeDispatchEvent):
            continue
        root, parent, sub = event.root_call_id, event.parent_call_id, event.sub_call_id
        if not (root and parent and sub):
            return False
        if sub in open_calls(before):
            return False
        opened = [i for i, e in enumerate(before) if isinstance(e, ToolCallEvent)
                  and e.call_id == root]
        if not opened or any(isinstance(e, ToolResultEvent) and e.call_id == root
                             for e in before[opened[-1]:]):
            return False
        # What the rules still see: the dispatch events whose root has not
        # been answered since (an answered root's sub-calls are forgotten).
        dispatched = remembered(before)
        if any(e.sub_call_id == sub and e.root_call_id != root for e in dispatched):
            return False
        # A sub-call has one start event, before any other of its events.
        if isinstance(event, CodeDispatchStartEvent) and any(
            e.sub_call_id == sub for e in dispatched
        ):
            return False
        if parent != root and not any(e.sub_call_id == parent and e.root_call_id == root
                                      for e in dispatched):
            return False
    return True


@given(attempts())
def test_the_log_admits_exactly_the_events_that_keep_the_rules(events: list[Event]) -> None:
    log = SessionLog(MemoryStore())
    accepted: list[Event] = []
    for event in events:
        try:
            log.append(event)
        except LogInvariantError:
            assert not holds([*accepted, event])
        else:
            # What the log holds now: the event, after the settles it appended
            # itself for a result's unsettled sub-calls.
            accepted = log.events()
            assert holds(accepted)
            assert settled_before_results(accepted)


def settled_before_results(events: list[Any]) -> bool:
    """Whether every sub-call started under a root has its settle before the root's result."""
    unsettled: dict[str, set[str]] = {}
    for event in events:
        if isinstance(event, CodeDispatchStartEvent):
            unsettled.setdefault(event.root_call_id, set()).add(event.sub_call_id)
        elif isinstance(event, CodeDispatchEvent):
            unsettled.get(event.root_call_id, set()).discard(event.sub_call_id)
        elif isinstance(event, ToolResultEvent) and unsettled.pop(event.call_id, set()):
            return False
    return True


@pytest.mark.parametrize("second", [start, settle])
def test_a_sub_call_has_one_start_event(second: Any) -> None:
    # Two root calls sharing an id would log their sub-calls under one id.
    log = SessionLog(MemoryStore())
    log.append(call("c1"))
    log.append(start("c1:code:1"))
    if second is settle:
        log.append(settle("c1:code:1"))
    problem = (
        'sub-call "c1:code:1" already has its start event: sub-call ids must be unique (is the '
        'id of its root call "c1" used by two calls?)'
    )
    with pytest.raises(LogInvariantError, match=refused("tool/code-dispatch-start", problem)):
        log.append(start("c1:code:1"))


def test_a_refusal_quotes_a_long_id_cut() -> None:
    # Ids are a model's text: a refusal quoting a 4-million-character id whole
    # was a 40-million-character message.
    long_id = "x" * 4_000_000
    log = SessionLog(MemoryStore())
    log.append(call(long_id))
    with pytest.raises(LogInvariantError) as refused_call:
        log.append(call(long_id))
    message = str(refused_call.value)
    assert len(message) < 1_000
    assert "(4000000 characters)" in message
    assert log.call_problem(long_id) is not None
    assert len(log.call_problem(long_id) or "") < 1_000
