"""Opening a log again: what a writer that stopped left open is closed, and whole lines are kept.

A writer killed mid-run left its root call's ``tool/call``
without a ``tool/result`` and sub-call starts without settles; the next writer
replayed that history into its checks, so the dead run stayed ``pending`` for
ever and a new run that reused its root id had its sub-calls refused. The log
also took a second ``tool/call`` for an id that was still open. Now opening a
log closes each such record with an ``ABORTED`` "abandoned" event, and an id
names one open call at a time.

A last line that lacks only its newline (another program wrote it) was cut
away as if a crash had torn it. Now it is kept and its newline added.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode import LogInvariantError
from codemode._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    JsonlStore,
    LogFormatError,
    MemoryStore,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    read_events,
    render_tree,
    replay,
)
from codemode._log._recovery import ABANDONED
from codemode._results import ErrorInfo, TextBlock

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

LOGGER = "codemode.log"
REPO = Path(__file__).resolve().parents[2]
ABANDONED_CONTENT = (TextBlock(text="Error: abandoned: the writer stopped before it finished"),)
ABANDONED_ERROR = ErrorInfo(name="AbortError", code="ABORTED")
TIME = 1.25  # events of a fixed length: a drawn cut stays within the same line


def call(call_id: str, *, turn: int = 1, step: int = 0) -> ToolCallEvent:
    return ToolCallEvent(turn=turn, step=step, call_id=call_id, name="run_code",
                         arguments='{"code": "..."}', time=TIME)


def result(call_id: str) -> ToolResultEvent:
    return ToolResultEvent(turn=1, step=0, call_id=call_id, name="run_code", is_error=False,
                           content=(TextBlock(text="done"),), time=TIME)


def start(sub: str, parent: str, root: str) -> CodeDispatchStartEvent:
    return CodeDispatchStartEvent(root_call_id=root, parent_call_id=parent, sub_call_id=sub,
                                  name="t", arguments={"sub": sub}, time=TIME)


def settle(sub: str, parent: str, root: str) -> CodeDispatchEvent:
    return CodeDispatchEvent(root_call_id=root, parent_call_id=parent, sub_call_id=sub,
                             name="t", arguments={"sub": sub}, is_error=False,
                             content=(TextBlock(text="ok"),), time=TIME)


def write(path: Path, events: list[Event]) -> list[Event]:
    store = JsonlStore(path)
    stamped = [store.append(event) for event in events]
    store.close()
    return stamped


def assert_closed_and_paired(events: list[Event]) -> None:
    """Every tool/call has its tool/result after it; every start one settle after it."""
    open_calls: set[str] = set()
    unsettled: set[str] = set()
    settled: set[str] = set()
    for event in events:
        if isinstance(event, ToolCallEvent):
            assert event.call_id not in open_calls, event
            open_calls.add(event.call_id)
        elif isinstance(event, ToolResultEvent):
            open_calls.discard(event.call_id)
        elif isinstance(event, CodeDispatchStartEvent):
            unsettled.add(event.sub_call_id)
            settled.discard(event.sub_call_id)
        else:
            assert event.sub_call_id in unsettled, event
            unsettled.remove(event.sub_call_id)
            settled.add(event.sub_call_id)
    assert open_calls == set()
    assert unsettled == set()


def pending(nodes: Any) -> list[str]:
    stack = list(nodes)
    out: list[str] = []
    while stack:
        node = stack.pop()
        if node.is_error is None:
            out.append(node.call_id)
        stack.extend(node.children)
    return out


# -- closing what a stopped writer left open ----------------------------------------------------


def test_reopening_closes_the_open_calls_and_their_unsettled_sub_calls(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "session.jsonl"
    history = write(path, [
        call("done"), start("done:code:1", "done", "done"), settle("done:code:1", "done", "done"),
        result("done"),
        call("run", turn=4, step=2),
        start("run:code:1", "run", "run"), settle("run:code:1", "run", "run"),
        start("run:code:2", "run", "run"),
        start("run:code:2:code:1", "run:code:2", "run"),  # nested, under a sub-call
        call("other", turn=4, step=2),
        start("run:code:3", "run", "run"),
    ])
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        log = SessionLog(JsonlStore(path))
    assert [r.getMessage() for r in caplog.records] == [
        "the session log held 2 call(s) and 3 sub-call(s) left open by a writer that stopped; "
        "closing them as 'abandoned: the writer stopped before it finished' (ABORTED)"
    ]
    closing = log.events()[len(history):]
    log.close()
    # The latest start first (a nested call settles before the call it runs under), then the
    # root's result; roots in the order they opened.
    assert [(type(e).__name__, getattr(e, "sub_call_id", getattr(e, "call_id", None)))
            for e in closing] == [
        ("CodeDispatchEvent", "run:code:3"),
        ("CodeDispatchEvent", "run:code:2:code:1"),
        ("CodeDispatchEvent", "run:code:2"),
        ("ToolResultEvent", "run"),
        ("ToolResultEvent", "other"),
    ]
    for event in closing:
        assert isinstance(event, CodeDispatchEvent | ToolResultEvent)
        assert event.is_error is True
        assert event.content == ABANDONED_CONTENT
        assert event.error == ABANDONED_ERROR
    nested = closing[1]
    assert isinstance(nested, CodeDispatchEvent)
    assert (nested.root_call_id, nested.parent_call_id) == ("run", "run:code:2")
    assert nested.arguments == {"sub": "run:code:2:code:1"}
    run_result = closing[3]
    assert isinstance(run_result, ToolResultEvent)
    assert (run_result.turn, run_result.step, run_result.name) == (4, 2, "run_code")
    assert run_result.source_event_seqs == (history[4].seq,)
    events = list(read_events(path))
    assert events[: len(history)] == history  # the history is left as it was
    assert_closed_and_paired(events)
    # The dead run now reads back as what happened: nothing pending, each abandoned call ABORTED.
    trees = replay(events)
    assert pending(trees) == []
    assert [(tree.call_id, tree.error) for tree in trees] == [
        ("done", None), ("run", ABANDONED_ERROR), ("other", ABANDONED_ERROR)]
    assert ABANDONED in render_tree(trees)


def test_a_log_with_nothing_open_is_opened_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "session.jsonl"
    write(path, [call("c1"), start("c1:code:1", "c1", "c1"),
                 settle("c1:code:1", "c1", "c1"), result("c1")])
    before = path.read_bytes()
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        SessionLog(JsonlStore(path)).close()
    assert caplog.records == []
    assert path.read_bytes() == before


def test_after_the_crash_a_new_run_may_use_the_dead_runs_root_id(tmp_path: Path) -> None:
    # The finding: `codemode run --log F` killed mid-run, then run again on F: every sub-call
    # of the new run "run" was refused (LOG_WRITE_FAILED), its start already being logged.
    path = tmp_path / "session.jsonl"
    write(path, [call("run"), start("run:code:1", "run", "run"),
                 start("run:code:2", "run", "run"), settle("run:code:1", "run", "run")])
    with SessionLog(JsonlStore(path)) as log:
        log.append(call("run"))
        for n in (1, 2, 3):
            log.append(start(f"run:code:{n}", "run", "run"))
            log.append(settle(f"run:code:{n}", "run", "run"))
        log.append(result("run"))
    events = list(read_events(path))
    assert_closed_and_paired(events)
    old, new = replay(events)
    assert [(c.call_id, c.error) for c in old.children] == [
        ("run:code:1", None), ("run:code:2", ABANDONED_ERROR)]
    assert old.error == ABANDONED_ERROR
    assert [(c.call_id, c.is_error) for c in new.children] == [
        (f"run:code:{n}", False) for n in (1, 2, 3)]
    assert new.is_error is False


def test_a_history_an_older_version_wrote_with_an_open_id_repeated_still_opens(
    tmp_path: Path,
) -> None:
    # What the finding's second run left (written before an id could name only one open
    # call): the dead run, then a second `run` opened over it, its sub-call refused, answered.
    path = tmp_path / "session.jsonl"
    history = write(path, [call("run"), start("run:code:1", "run", "run"), call("run"),
                           result("run"), call("next"), start("next:code:1", "next", "next")])
    with SessionLog(JsonlStore(path)) as log:
        closing = log.events()[len(history):]
    # The first `run`'s start was left unsettled when `run` was answered: it is
    # closed too (every started sub-call has one settle event), first.
    assert [(type(e).__name__, e.error) for e in closing] == [  # type: ignore[union-attr]
        ("CodeDispatchEvent", ABANDONED_ERROR), ("CodeDispatchEvent", ABANDONED_ERROR),
        ("ToolResultEvent", ABANDONED_ERROR)]
    assert [getattr(e, "sub_call_id", getattr(e, "call_id", None)) for e in closing] == [
        "run:code:1", "next:code:1", "next"]


def test_a_history_with_a_sub_call_named_like_an_open_call_still_opens(tmp_path: Path) -> None:
    # Also written before the rule: a model call "c1:code:1" open while c1's sub-call of
    # that id ran. The history is read as it is; what it left open is closed.
    path = tmp_path / "session.jsonl"
    history = write(path, [call("c1"), call("c1:code:1"), start("c1:code:1", "c1", "c1")])
    with SessionLog(JsonlStore(path)) as log:
        closing = log.events()[len(history):]
    assert [(type(e).__name__, e.error) for e in closing] == [  # type: ignore[union-attr]
        ("CodeDispatchEvent", ABANDONED_ERROR), ("ToolResultEvent", ABANDONED_ERROR),
        ("ToolResultEvent", ABANDONED_ERROR)]


def test_reopening_a_memory_store_closes_what_it_holds_open_too() -> None:
    store = MemoryStore()
    first = SessionLog(store)
    first.append(call("c1"))
    first.append(start("c1:code:1", "c1", "c1"))
    second = SessionLog(store)  # as if the first writer had stopped
    assert_closed_and_paired(second.events())
    assert len(second.events()) == 4


def test_a_start_whose_arguments_cannot_be_logged_again_is_closed_without_them(
    tmp_path: Path,
) -> None:
    # Lines another program wrote: this version never logs -0.0 (or an int past 2**53).
    path = tmp_path / "session.jsonl"
    write(path, [call("c1")])
    with path.open("ab") as file:
        file.write(b'{"kind":"tool/code-dispatch-start","seq":2,"time":1.0,"root_call_id":"c1",'
                   b'"parent_call_id":"c1","sub_call_id":"c1:code:1","name":"t",'
                   b'"arguments":{"x":-0.0,"n":9007199254740993}}\n')
    with SessionLog(JsonlStore(path)) as log:
        events = log.events()
    assert_closed_and_paired(events)
    settled = events[2]
    assert isinstance(settled, CodeDispatchEvent)
    assert settled.arguments is None
    assert settled.error == ABANDONED_ERROR


class FailingStore:
    """A store with history whose appends fail (a full disk)."""

    def __init__(self, events: list[Event]) -> None:
        self.inner = MemoryStore()
        for event in events:
            self.inner.append(event)
        self.closed = False

    def append(self, event: Event) -> Event:
        raise OSError(28, "No space left on device")

    def sync(self) -> None:
        pass

    def close(self) -> None:
        self.closed = True

    def read(self) -> Iterator[Event]:
        return self.inner.read()


def test_a_store_that_cannot_take_the_closing_events_is_refused_and_closed() -> None:
    store = FailingStore([call("c1")])
    with pytest.raises(OSError, match="No space left on device"):
        SessionLog(store)
    assert store.closed


# -- a writer process killed for real -----------------------------------------------------------

WRITER = r"""
import os, signal, sys
from codemode._log import (CodeDispatchEvent, CodeDispatchStartEvent, JsonlStore, SessionLog,
                           ToolCallEvent, ToolResultEvent)
from codemode._results import TextBlock

log = SessionLog(JsonlStore(sys.argv[1]))
runs = int(sys.argv[2])
for n in range(1, runs + 1):
    log.append(ToolCallEvent(turn=n, step=0, call_id="run", name="run_code", arguments="{}"))
    for k in (1, 2):
        sub = f"run:code:{k}"
        log.append(CodeDispatchStartEvent(root_call_id="run", parent_call_id="run",
                                          sub_call_id=sub, name="t", arguments={"n": n}))
    log.append(CodeDispatchEvent(root_call_id="run", parent_call_id="run",
                                 sub_call_id="run:code:1", name="t", arguments={"n": n},
                                 is_error=False, content=(TextBlock(text="ok"),)))
    if n < runs:
        log.append(CodeDispatchEvent(root_call_id="run", parent_call_id="run",
                                     sub_call_id="run:code:2", name="t", arguments={"n": n},
                                     is_error=False, content=(TextBlock(text="ok"),)))
        log.append(ToolResultEvent(turn=n, step=0, call_id="run", name="run_code",
                                   is_error=False, content=(TextBlock(text="done"),)))
os.kill(os.getpid(), signal.SIGKILL)  # mid-run: `run` and run:code:2 are open
"""


@pytest.mark.parametrize("runs", [1, 3])
def test_a_writer_killed_mid_run_leaves_a_log_the_next_writer_closes_and_continues(
    runs: int, tmp_path: Path
) -> None:
    path = tmp_path / "session.jsonl"
    env = dict(os.environ, PYTHONPATH=str(REPO))
    for attempt in (1, 2):  # the second writer reopens the first one's log, and is killed too
        done = subprocess.run([sys.executable, "-c", WRITER, str(path), str(runs)], env=env,
                              capture_output=True, timeout=120, check=False)
        assert done.returncode == -signal.SIGKILL, done.stderr.decode()
        events = list(read_events(path))
        assert isinstance(events[-1], CodeDispatchEvent)  # killed with `run` open
        assert sum(isinstance(e, ToolCallEvent) for e in events) == runs * attempt
    with SessionLog(JsonlStore(path)) as log:
        events = log.events()
    assert_closed_and_paired(events)
    trees = replay(events)
    assert pending(trees) == []
    assert [tree.call_id for tree in trees] == ["run"] * (2 * runs)
    assert [tree.error for tree in trees].count(ABANDONED_ERROR) == 2


# -- against a model of a writer, stopped anywhere ----------------------------------------------


@st.composite
def writer_runs(draw: st.DrawFn) -> list[Event]:
    """What a writer appends: interleaved root calls, nested sub-calls, settles, results.

    Root ids come from a small set, so a closed root's id is often used again.
    """
    events: list[Event] = []
    open_roots: dict[str, list[str]] = {}  # root -> its sub-calls that are unsettled
    known: dict[str, int] = {}  # root -> how many sub-calls it numbered
    for _ in range(draw(st.integers(1, 30))):
        choices = ["call"]
        if open_roots:
            choices += ["start", "settle", "result"]
        action = draw(st.sampled_from(choices))
        if action == "call":
            root = draw(st.sampled_from(["a", "b", "c", "run"]))
            if root in open_roots:
                continue
            open_roots[root] = []
            known[root] = 0
            events.append(call(root))
            continue
        root = draw(st.sampled_from(sorted(open_roots)))
        unsettled = open_roots[root]
        if action == "start":
            parent = draw(st.sampled_from([root, *unsettled]))
            known[root] += 1
            sub = f"{parent}:code:{known[root]}"
            unsettled.append(sub)
            events.append(start(sub, parent, root))
        elif action == "settle" and unsettled:
            sub = unsettled.pop()  # the latest first, as a nested run settles
            parent = sub.rsplit(":code:", 1)[0]
            events.append(settle(sub, parent, root))
        elif action == "result" and not unsettled:
            del open_roots[root]
            events.append(result(root))
    return events


@given(writer_runs(), st.data())
def test_a_writer_stopped_after_any_event_leaves_a_log_that_reopens_whole(
    events: list[Event], data: st.DataObject
) -> None:
    stopped_after = data.draw(st.integers(0, len(events)), label="stopped_after")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "session.jsonl"
        with SessionLog(JsonlStore(path)) as writer:
            for event in events[:stopped_after]:
                writer.append(event)
            history = writer.events()
        # The writer stopped there: whatever it left open is closed when the log reopens.
        with SessionLog(JsonlStore(path)) as reopened:
            after = reopened.events()
        assert after[: len(history)] == history
        assert_closed_and_paired(after)
        assert pending(replay(after)) == []
        closing = after[len(history):]
        assert all(e.error == ABANDONED_ERROR for e in closing)  # type: ignore[union-attr]
        # Closing is done once: a third open finds nothing to close.
        with SessionLog(JsonlStore(path)) as again:
            assert again.events() == after
            # And the same writer can run it all again on the same ids.
            for event in events:
                again.append(event)


# -- one open call per id -----------------------------------------------------------------------


def test_a_tool_call_whose_id_is_open_is_refused() -> None:
    log = SessionLog(MemoryStore())
    log.append(call("c1"))
    with pytest.raises(
        LogInvariantError,
        match=r'^tool/call event refused: call "c1" is already open in this log \(its '
        r"tool/call is logged and its tool/result is not\): an id names one open call at a "
        r"time, since its sub-calls' ids are made of it; give the new call an id of its own, "
        r"or log the open call's tool/result first$",
    ):
        log.append(call("c1"))
    assert log.call_problem("c1") is not None
    assert log.call_problem("c2") is None
    log.append(result("c1"))
    assert log.call_problem("c1") is None
    log.append(call("c1"))  # a closed call's id names a new call
    assert len(log.events()) == 3


def test_a_tool_call_with_the_id_of_an_open_calls_sub_call_is_refused() -> None:
    log = SessionLog(MemoryStore())
    log.append(call("c1"))
    log.append(start("c1:code:1", "c1", "c1"))
    with pytest.raises(
        LogInvariantError,
        match=r'^tool/call event refused: "c1:code:1" is the id of a sub-call logged under the '
        r'open call "c1": an id names one open call at a time; give the new call an id of its '
        r"own$",
    ):
        log.append(call("c1:code:1"))


def test_a_sub_call_with_the_id_of_an_open_call_is_refused() -> None:
    log = SessionLog(MemoryStore())
    log.append(call("c1"))
    log.append(call("c1:code:1"))  # a model call given the form of a sub-call id
    with pytest.raises(
        LogInvariantError,
        match=r'^tool/code-dispatch-start event refused: sub-call id "c1:code:1" is the id of '
        r"an open call",
    ):
        log.append(start("c1:code:1", "c1", "c1"))


def test_replay_keeps_apart_the_calls_that_used_one_id_in_turn() -> None:
    # The decision: a closed call's id may name a new call. Replay attaches each dispatch event
    # to the latest call of its id, which the rules make the only open one.
    log = SessionLog(MemoryStore())
    for n in (1, 2, 3):
        log.append(call("c1"))
        log.append(start("c1:code:1", "c1", "c1"))
        log.append(start("c1:code:1:code:1", "c1:code:1", "c1"))
        log.append(settle("c1:code:1:code:1", "c1:code:1", "c1"))
        log.append(settle("c1:code:1", "c1", "c1"))
        if n == 2:
            log.append(start("c1:code:2", "c1", "c1"))
            log.append(settle("c1:code:2", "c1", "c1"))
        log.append(result("c1"))
    trees = replay(log.events())
    assert [len(tree.children) for tree in trees] == [1, 2, 1]
    assert [len(tree.children[0].children) for tree in trees] == [1, 1, 1]
    assert pending(trees) == []


# -- a last line without its newline ------------------------------------------------------------


def test_a_whole_last_line_without_its_newline_is_kept_and_completed(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "log.jsonl"
    stamped = write(path, [call("a"), result("a")])
    whole = path.read_bytes()
    path.write_bytes(whole[:-1])  # written by another program, without the final newline
    caplog.clear()
    assert list(read_events(path)) == stamped  # a reader takes it as it is
    assert caplog.records == []
    assert path.read_bytes() == whole[:-1]
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        store = JsonlStore(path)
    assert [r.getMessage() for r in caplog.records] == [
        f"{path}: the last line is a whole event without its newline; adding the newline"
    ]
    assert path.read_bytes() == whole
    later = store.append(call("b"))
    store.close()
    assert later.seq == 3
    assert list(read_events(path)) == [*stamped, later]


def test_a_whole_last_line_of_an_unknown_kind_is_kept_too(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    stamped = write(path, [call("a")])
    with path.open("ab") as file:
        file.write(b'{"kind":"tool/from-the-future","seq":7}')
    store = JsonlStore(path)
    later = store.append(result("a"))
    store.close()
    assert later.seq == 8
    assert path.read_bytes().count(b"tool/from-the-future") == 1
    assert list(read_events(path)) == [*stamped, later]


def test_a_whole_last_line_that_is_not_a_valid_event_is_a_damaged_line_not_cut(
    tmp_path: Path,
) -> None:
    path = tmp_path / "log.jsonl"
    write(path, [call("a")])
    with path.open("ab") as file:
        file.write(b'{"kind":"tool/call","seq":2,"turn":"one"}')
    damaged = path.read_bytes()
    with pytest.raises(LogFormatError, match="line 2: not a valid event"):
        JsonlStore(path)
    with pytest.raises(LogFormatError, match="line 2: not a valid event"):
        list(read_events(path))
    assert path.read_bytes() == damaged


@given(st.lists(st.sampled_from(["call", "result", "start", "settle"]), min_size=1, max_size=5),
       st.data())
def test_a_log_cut_anywhere_keeps_exactly_its_whole_events(
    kinds: list[str], data: st.DataObject
) -> None:
    build: dict[str, Callable[[], Event]] = {
        "call": lambda: call("a"), "result": lambda: result("a"),
        "start": lambda: start("a:code:1", "a", "a"),
        "settle": lambda: settle("a:code:1", "a", "a"),
    }
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        stamped = write(path, [build[kind]() for kind in kinds])
        whole = path.read_bytes()
        ends = [i for i, byte in enumerate(whole) if byte == ord("\n")]
        # Anywhere, or where only a newline is missing, or just before or after one.
        near = st.sampled_from(ends).flatmap(lambda end: st.sampled_from([end - 1, end, end + 1]))
        cut = data.draw(st.integers(0, len(whole)) | near, label="cut")
        path.write_bytes(whole[:cut])
        # An event is kept when its line is there but for, at most, its newline.
        kept = [event for event, end in zip(stamped, ends, strict=True) if end <= cut]
        assert list(read_events(path)) == kept
        store = JsonlStore(path)
        assert list(store.read()) == kept
        store.close()
        data_after = path.read_bytes()
        assert data_after == whole[: ends[len(kept) - 1] + 1] if kept else data_after == b""
