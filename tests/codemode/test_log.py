"""The durable session log: events, the JSON Lines store, recovery, replay."""

from __future__ import annotations

import logging
import math
import os
import stat
import tempfile
from pathlib import Path
from typing import Any

import anyio
import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import LossyJsonError
from codemode._log import (
    UNASSIGNED,
    CallNode,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    JsonlStore,
    LogFormatError,
    MemoryStore,
    ModelToolCall,
    ModelToolResult,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    model_messages,
    read_events,
    render_tree,
    replay,
    result_event,
)
from codemode._log import _events as events_module
from codemode._results import ErrorInfo, ImageBlock, TextBlock, ToolSuccess, failure
from tests.strategies import json_values

LOGGER = "codemode.log"

# --- builders ----------------------------------------------------------------------------------


def call(call_id: str = "c1", *, time: float = 100.0, name: str = "run_code") -> ToolCallEvent:
    return ToolCallEvent(
        turn=1, step=0, call_id=call_id, name=name, arguments='{"code": "return 1"}', time=time
    )


def result(call_id: str = "c1", *, time: float = 101.0, text: str = "done") -> ToolResultEvent:
    return ToolResultEvent(
        turn=1, step=0, call_id=call_id, name="run_code", is_error=False,
        content=(TextBlock(text=text),), time=time,
    )


def start(sub: str, parent: str, *, time: float, root: str = "c1") -> CodeDispatchStartEvent:
    return CodeDispatchStartEvent(
        root_call_id=root, parent_call_id=parent, sub_call_id=sub, name="search",
        arguments={"q": sub}, time=time,
    )


def settle(
    sub: str, parent: str, *, time: float, root: str = "c1", error: bool = False
) -> CodeDispatchEvent:
    return CodeDispatchEvent(
        root_call_id=root, parent_call_id=parent, sub_call_id=sub, name="search",
        arguments={"q": sub}, is_error=error,
        content=(TextBlock(text=f"Error: {sub} failed" if error else f"hits for {sub}\nmore"),),
        error=ErrorInfo(name="ToolTimeoutError", code="TOOL_TIMEOUT") if error else None,
        time=time,
    )


def every_kind() -> list[Event]:
    """One event of each kind with every field set away from its default."""
    return [
        ToolCallEvent(turn=3, step=2, call_id="call_a", name="run_code",
                      arguments='{"code": "x", "description": "é"}', time=1.25),
        CodeDispatchStartEvent(root_call_id="call_a", parent_call_id="call_a",
                               sub_call_id="call_a:code:1", name="odd-name",
                               arguments={"q": [1, 2.5, None, True, {"k": "v"}]}, time=1.5),
        CodeDispatchEvent(root_call_id="call_a", parent_call_id="call_a",
                          sub_call_id="call_a:code:1", name="odd-name",
                          arguments={"q": [1, 2.5, None, True, {"k": "v"}]}, is_error=True,
                          content=(TextBlock(text="Error: no"),
                                   ImageBlock(data="aGk=", mime_type="image/png")),
                          error=ErrorInfo(name="ToolArgsError", code="INVALID_ARGS"), time=1.75),
        ToolResultEvent(turn=3, step=2, call_id="call_a", name="run_code", is_error=True,
                        content=(TextBlock(text="Error: code run failed"),),
                        error=ErrorInfo(name="CodeRunFailedError", code="CODE_RUN_FAILED"),
                        meta={"rows": 3, "nested": [{"a": None}]}, source_event_seqs=(1, 7),
                        time=2.0),
    ]


def write_log(path: Path, events: list[Event]) -> list[Event]:
    store = JsonlStore(path)
    stamped = [store.append(e) for e in events]
    store.close()
    return stamped


# --- events and stores -------------------------------------------------------------------------


def test_every_field_of_every_event_round_trips_through_the_jsonl_store(tmp_path: Path) -> None:
    path = tmp_path / "session.jsonl"
    stamped = write_log(path, every_kind())
    assert [e.seq for e in stamped] == [1, 2, 3, 4]
    reopened = JsonlStore(path)
    assert list(reopened.read()) == stamped
    reopened.close()
    assert list(read_events(path)) == stamped


@given(
    arguments=json_values(),
    meta=json_values(),
    text=st.text(),
    name=st.text(min_size=1),
    when=st.floats(min_value=0, max_value=2e9),
    seqs=st.lists(st.integers(0, 2**40), max_size=3).map(tuple),
)
def test_arbitrary_field_values_round_trip_through_the_jsonl_store(
    arguments: Any, meta: Any, text: str, name: str, when: float, seqs: tuple[int, ...]
) -> None:
    events: list[Event] = [
        CodeDispatchStartEvent(root_call_id=name, parent_call_id=name, sub_call_id=name + ":1",
                               name=name, arguments=arguments, time=when),
        ToolResultEvent(turn=1, step=0, call_id=name, name=name, is_error=False,
                        content=(TextBlock(text=text),), meta=meta, source_event_seqs=seqs,
                        time=when),
    ]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        stamped = write_log(path, events)
        assert list(read_events(path)) == stamped


def test_an_unset_meta_stays_unset(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path, [result()])
    [event] = read_events(path)
    assert isinstance(event, ToolResultEvent)
    assert event.meta is msgspec.UNSET
    assert b"meta" not in path.read_bytes()


def test_append_assigns_consecutive_seqs_and_leaves_the_given_event_alone() -> None:
    store = MemoryStore()
    original = call()
    first = store.append(original)
    second = store.append(call("c2"))
    assert (first.seq, second.seq) == (1, 2)
    assert original.seq == UNASSIGNED
    assert first == msgspec.structs.replace(original, seq=1)


def test_time_defaults_to_the_clock_when_the_event_is_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    readings = iter([1234.5, 1240.25])
    monkeypatch.setattr(events_module, "_clock", lambda: next(readings))
    first = ToolCallEvent(turn=1, step=0, call_id="c", name="n", arguments="{}")
    second = ToolCallEvent(turn=1, step=0, call_id="c", name="n", arguments="{}")
    assert (first.time, second.time) == (1234.5, 1240.25)
    given_time = ToolCallEvent(turn=1, step=0, call_id="c", name="n", arguments="{}", time=7.0)
    assert given_time.time == 7.0


def test_events_are_frozen() -> None:
    event = call()
    with pytest.raises(AttributeError):
        event.name = "other"  # type: ignore[misc]


def test_a_new_log_file_is_private(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    JsonlStore(path).close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


def test_reopening_a_log_continues_its_seq_numbering(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path, [call("a"), call("b")])
    store = JsonlStore(path)
    assert store.append(call("c")).seq == 3
    store.close()
    assert [e.seq for e in read_events(path)] == [1, 2, 3]


def test_each_event_is_on_disk_as_soon_as_it_is_appended(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    store = JsonlStore(path)
    store.append(call())
    assert path.read_bytes().count(b"\n") == 1
    store.close()


def test_sync_and_close_fsync_the_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        calls.append(fd)
        real_fsync(fd)

    store = JsonlStore(tmp_path / "log.jsonl")
    monkeypatch.setattr(os, "fsync", counting_fsync)
    log = SessionLog(store)
    log.append(call())
    log.append(result())
    assert calls == []
    log.sync()
    assert len(calls) == 1
    log.close()
    assert len(calls) == 2
    log.close()
    assert len(calls) == 2


def test_creating_a_log_file_syncs_its_directory_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    synced: list[int] = []
    real_fsync = os.fsync

    def counting_fsync(fd: int) -> None:
        synced.append(fd)
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", counting_fsync)
    store = JsonlStore(tmp_path / "log.jsonl")
    assert len(synced) == 1
    store.close()
    synced.clear()
    JsonlStore(tmp_path / "log.jsonl").close()
    assert len(synced) == 1  # the close only; reopening creates nothing


def test_appending_to_a_closed_log_is_refused(tmp_path: Path) -> None:
    log = SessionLog(JsonlStore(tmp_path / "log.jsonl"))
    log.close()
    with pytest.raises(ValueError, match=r"^cannot append: the session log is closed$"):
        log.append(call())


def test_appending_to_a_closed_store_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    store = JsonlStore(path)
    store.close()
    with pytest.raises(
        ValueError, match=rf"^cannot append to {path}: the log store is closed$"
    ):
        store.append(call())


def test_a_second_store_on_the_same_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    first = JsonlStore(path)
    with pytest.raises(
        OSError, match=rf"^{path} is already open for appending by another log store$"
    ):
        JsonlStore(path)
    first.close()
    JsonlStore(path).close()


def test_lossy_arguments_are_refused_before_anything_is_written(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    store = JsonlStore(path)
    event = CodeDispatchStartEvent(root_call_id="c", parent_call_id="c", sub_call_id="c:code:1",
                                   name="n", arguments={"x": math.nan})
    with pytest.raises(LossyJsonError, match=r" - at `\$\.arguments\.x`$"):
        store.append(event)
    store.close()
    assert path.read_bytes() == b""


def test_the_canonical_value_is_never_persisted(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    success = ToolSuccess(
        value={"secret": "canonical-only-7f3a"}, content=(TextBlock(text="rendered"),),
        meta={"shown": 1},
    )
    with SessionLog(JsonlStore(path)) as log:
        # A tool/result answers an open call.
        log.append(call("c1", name="search"))
        log.append(call("c2", name="search"))
        log.append(result_event(success, turn=1, step=0, call_id="c1", name="search",
                                source_event_seqs=(1,)))
        log.append(result_event(failure("boom"), turn=1, step=0, call_id="c2", name="search"))
    data = path.read_bytes()
    assert b"canonical-only-7f3a" not in data
    assert b"value" not in data
    _call1, _call2, first, second = read_events(path)
    assert isinstance(first, ToolResultEvent)
    assert isinstance(second, ToolResultEvent)
    assert (first.content, first.meta, first.source_event_seqs) == (
        (TextBlock(text="rendered"),), {"shown": 1}, (1,))
    assert (second.is_error, second.content) == (True, (TextBlock(text="Error: boom"),))


# --- recovery ----------------------------------------------------------------------------------


def test_a_torn_last_line_is_dropped_at_every_byte_offset(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "log.jsonl"
    stamped = write_log(path, every_kind())
    whole = path.read_bytes()
    last_start = whole.rstrip(b"\n").rfind(b"\n") + 1
    assert last_start > 0
    # Every cut inside the last line; the line without only its newline is whole and is
    # kept (tests/codemode/test_log_reopen.py).
    for cut in range(last_start + 1, len(whole) - 1):
        path.write_bytes(whole[:cut])
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger=LOGGER):
            store = JsonlStore(path)
        assert [r.levelname for r in caplog.records] == ["WARNING"], cut
        assert "dropping an incomplete last line" in caplog.records[0].getMessage()
        assert list(store.read()) == stamped[:-1], cut
        appended = store.append(call("after"))
        store.close()
        assert appended.seq == stamped[-2].seq + 1
        caplog.clear()
        assert list(read_events(path)) == [*stamped[:-1], appended], cut
        assert caplog.records == []


def test_a_log_that_ends_cleanly_opens_without_a_warning(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path, [call()])
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        JsonlStore(path).close()
    assert caplog.records == []


def test_reading_a_torn_log_warns_and_leaves_the_file_as_it_is(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    path = tmp_path / "log.jsonl"
    stamped = write_log(path, [call(), result()])
    torn = path.read_bytes()[:-5]
    path.write_bytes(torn)
    with caplog.at_level(logging.WARNING, logger=LOGGER):
        assert list(read_events(path)) == stamped[:1]
    assert "the last line is incomplete" in caplog.text
    assert path.read_bytes() == torn


def test_an_unknown_event_kind_is_skipped(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    stamped = write_log(path, [call()])
    with path.open("ab") as file:
        file.write(b'{"kind":"tool/from-the-future","seq":9,"time":1.0,"extra":[1]}\n')
        file.write(b'{"no_kind":true}\n')
    store = JsonlStore(path)
    later = store.append(result())
    store.close()
    assert list(read_events(path)) == [*stamped, later]
    assert later.seq == 10


def test_a_damaged_line_inside_the_log_is_an_error_naming_the_line(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    write_log(path, [call()])
    with path.open("ab") as file:
        file.write(b'{"kind":"tool/call","seq":2,"turn":"one"}\n')
    with pytest.raises(
        LogFormatError,
        match=rf"^{path}, line 2: not a valid event \(.*\); the log is damaged - restore it "
        r"from a copy or remove that line$",
    ):
        list(read_events(path))
    with pytest.raises(LogFormatError, match="line 2"):
        JsonlStore(path)


@pytest.mark.parametrize("where", ["header", "event"])
def test_a_line_nested_too_deeply_to_decode_is_a_damaged_line(tmp_path: Path, where: str) -> None:
    # msgspec raises RecursionError past its depth limit: a reader of an untrusted log
    # must get the same named error as for any other damaged line.
    deep = "[" * 100_000 + "]" * 100_000
    path = tmp_path / "log.jsonl"
    write_log(path, [call()])
    line = (
        f'{{"kind":"tool/call","seq":2,"extra":{deep}}}'
        if where == "header"
        else f'{{"kind":"tool/code-dispatch-start","seq":2,"time":1.0,"root_call_id":"r",'
        f'"parent_call_id":"r","sub_call_id":"c","name":"t","arguments":{deep}}}'
    )
    with path.open("a") as file:
        file.write(line + "\n")
    too_deep = r"line 2: not a valid event \(a value nested too deeply"
    with pytest.raises(LogFormatError, match=too_deep):
        list(read_events(path))
    with pytest.raises(LogFormatError, match="line 2"):
        JsonlStore(path)


# --- the session log ---------------------------------------------------------------------------


async def test_many_concurrent_appenders_get_unique_seqs_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    log = SessionLog(JsonlStore(path))
    returned: list[int] = []

    async def appender(n: int) -> None:
        for i in range(10):
            returned.append(log.append(call(f"t{n}-{i}")).seq)
            await anyio.lowlevel.checkpoint()

    async with anyio.create_task_group() as tg:
        for n in range(30):
            tg.start_soon(appender, n)
    await log.aclose()
    assert sorted(returned) == list(range(1, 301))
    assert [e.seq for e in read_events(path)] == list(range(1, 301))


def test_a_session_log_defaults_to_memory() -> None:
    log = SessionLog()
    stamped = log.append(call())
    assert isinstance(log.store, MemoryStore)
    assert log.events() == [stamped]
    assert isinstance(stamped, ToolCallEvent)


# --- replay ------------------------------------------------------------------------------------


def session_with_sub_calls() -> list[Event]:
    return [
        call("c1", time=100.0),
        start("c1:code:1", "c1", time=100.5),
        start("c1:code:1:code:1", "c1:code:1", time=100.75),
        settle("c1:code:1:code:1", "c1:code:1", time=101.0),
        settle("c1:code:1", "c1", time=101.5),
        # a settle whose start was never logged (an older log)
        settle("c1:code:2", "c1", time=102.0, error=True),
        result("c1", time=103.0, text="answer: 42\nsecond line"),
        call("c2", time=104.0, name="search"),
    ]


def test_replay_rebuilds_nested_sub_calls_under_their_parents() -> None:
    [root, pending] = replay(session_with_sub_calls())
    assert (root.call_id, root.started, root.finished, root.is_error) == ("c1", 100.0, 103.0,
                                                                            False)
    assert [c.call_id for c in root.children] == ["c1:code:1", "c1:code:2"]
    nested = root.children[0].children
    assert [c.call_id for c in nested] == ["c1:code:1:code:1"]
    assert nested[0].duration == 0.25
    assert nested[0].arguments == {"q": "c1:code:1:code:1"}
    assert (pending.call_id, pending.is_error, pending.finished) == ("c2", None, None)


def test_replay_shows_a_settle_without_a_start() -> None:
    [root, _] = replay(session_with_sub_calls())
    orphan = root.children[1]
    assert orphan == CallNode(
        call_id="c1:code:2", name="search", arguments={"q": "c1:code:2"}, started=None,
        finished=102.0, is_error=True,
        content=(TextBlock(text="Error: c1:code:2 failed"),),
        error=ErrorInfo(name="ToolTimeoutError", code="TOOL_TIMEOUT"),
    )
    assert orphan.duration is None


def test_replay_orders_siblings_by_start() -> None:
    events: list[Event] = [
        call("c1"), start("c1:code:1", "c1", time=1), start("c1:code:2", "c1", time=2),
        settle("c1:code:2", "c1", time=3), settle("c1:code:1", "c1", time=4),
    ]
    [root] = replay(events)
    assert [c.call_id for c in root.children] == ["c1:code:1", "c1:code:2"]


def test_a_sub_call_whose_parent_is_unknown_hangs_under_its_root() -> None:
    [root] = replay([call("c1"), start("c1:code:9", "gone", time=1)])
    assert [c.call_id for c in root.children] == ["c1:code:9"]


def test_render_tree_prints_one_indented_line_per_call() -> None:
    assert render_tree(replay(session_with_sub_calls())) == "\n".join([
        "c1 run_code ok 3.00 s: answer: 42",
        "  c1:code:1 search ok 1.00 s: hits for c1:code:1",
        "    c1:code:1:code:1 search ok 250.0 ms: hits for c1:code:1:code:1",
        "  c1:code:2 search error (TOOL_TIMEOUT) ?: Error: c1:code:2 failed",
        "c2 search pending ?",
    ])


def test_render_tree_handles_very_deep_trees() -> None:
    events: list[Event] = [call("c")]
    parent = "c"
    for i in range(5000):
        sub = f"s{i}"
        events.append(start(sub, parent, time=float(i), root="c"))
        parent = sub
    text = render_tree(replay(events))
    assert text.count("\n") == 5000


def test_model_messages_come_only_from_tool_call_and_tool_result() -> None:
    assert model_messages(session_with_sub_calls()) == [
        ModelToolCall(call_id="c1", name="run_code", arguments='{"code": "return 1"}'),
        ModelToolResult(call_id="c1", name="run_code",
                        content=(TextBlock(text="answer: 42\nsecond line"),), is_error=False),
        ModelToolCall(call_id="c2", name="search", arguments='{"code": "return 1"}'),
    ]


def test_a_dispatch_event_never_becomes_a_model_message() -> None:
    assert model_messages([start("x:code:1", "x", time=1), settle("x:code:1", "x", time=2)]) == []


def test_the_call_tree_encodes_as_json() -> None:
    [root, _] = replay(session_with_sub_calls())
    decoded = msgspec.json.decode(msgspec.json.encode(root))
    assert decoded["children"][0]["children"][0]["call_id"] == "c1:code:1:code:1"
