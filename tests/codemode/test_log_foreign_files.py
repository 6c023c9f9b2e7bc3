"""A JSON Lines store never repairs, truncates or appends to a file that is not a session log.

Only what this format's writer can have left is repaired (a last line cut
short after valid events, or as the file's only content); a file with content
but no known event, or with an unterminated last line that does not begin like
a log line, is refused with :class:`LogFormatError` and left byte-for-byte
unchanged. The store opens without following a symlink in the last component,
refuses anything but a regular file, and reads lines at most
:data:`MAX_LINE_BYTES` at a time.

A ``seq`` outside 0 to 2**63-1 is refused naming its line, and a log whose
last ``seq`` is 2**63-1 (which cannot be continued) is refused on open.
"""

from __future__ import annotations

import json
import os
import re
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import codemode._log._jsonl as jsonl
import codemode._log._stores as stores
from bridge.lossless import LossyJsonError
from codemode import (
    JsonlStore,
    LogFormatError,
    MemoryStore,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
)
from codemode._log._jsonl import read_events
from codemode.cli import main

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from codemode import Event


def call(call_id: str = "a", turn: int = 1) -> ToolCallEvent:
    return ToolCallEvent(turn=turn, step=0, call_id=call_id, name="n", arguments="{}")


def result(call_id: str = "a", turn: int = 1) -> ToolResultEvent:
    return ToolResultEvent(
        turn=turn, step=0, call_id=call_id, name="n", is_error=False, content=()
    )


def log_bytes(*events: Event) -> bytes:
    """The lines a store writes for ``events``, stamped ``1, 2, ...``."""
    return b"".join(
        stores._encode_line(stores._stamp(event, seq)) for seq, event in enumerate(events, 1)
    )


#: Two whole events: a closed call, as a log written by this version holds.
LOG = log_bytes(call(), result())


def line(**fields: Any) -> bytes:
    event = {"kind": "tool/call", "seq": 1, "time": 1.0, "turn": 1, "step": 0,
             "call_id": "a", "name": "n", "arguments": "{}", **fields}
    return json.dumps(event, separators=(",", ":")).encode() + b"\n"


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "file"


def refused(path: Path, content: bytes) -> LogFormatError:
    """Write ``content``, check that a store refuses it as not a log and leaves it be."""
    path.write_bytes(content)
    with pytest.raises(LogFormatError) as info:
        JsonlStore(path)
    assert path.read_bytes() == content
    return info.value


# -- files that are not session logs ----------------------------------------------------------

NOT_LOGS = [
    b"s3cr3t-token-value",  # a token written with echo -n
    b"return 42",  # the program itself, no final newline
    b'{"name": "cfg", "debug": true}',  # a one-line JSON object (unknown kind, no newline)
    b'{"name": "cfg", "debug": true}\n',
    b'{"kind":"future/thing","seq":1}\n',  # whole lines, but no event of a known kind
    b"\n",
    b"   ",
    b"x",
    b"\n" + line()[:20],  # a prefix of a line after a complete (blank) line, no event
    b"\x0b" + line(),  # no JSON value: \x0b is no JSON whitespace, though bytes.strip() drops it
    b"\x0c\n" + line(),  # nor is a line of \x0c blank
]


@pytest.mark.parametrize("content", NOT_LOGS)
def test_a_file_that_is_not_a_session_log_is_refused_and_left_unchanged(
    path: Path, content: bytes
) -> None:
    error = refused(path, content)
    assert error.not_a_log
    assert str(error).startswith(f"{path}")
    assert "not a session log" in str(error)
    assert "the file was left unchanged" in str(error)
    with pytest.raises(LogFormatError, match="not a session log"):
        list(read_events(path))


def test_a_text_file_with_lines_is_not_a_session_log_not_a_damaged_one(path: Path) -> None:
    error = refused(path, b"alpha\nbeta\n")
    assert error.not_a_log
    assert error.line == 1
    assert re.match(rf"^{re.escape(str(path))}, line 1: not a session log \(", str(error))


@pytest.mark.parametrize("tail", [b"foo", b"return 42", b" {", b"[1, 2"])
def test_a_tail_no_writer_leaves_after_events_is_refused_not_dropped(
    path: Path, tail: bytes
) -> None:
    # Someone appended to a log (`echo -n foo >> log`): not a write cut short.
    error = refused(path, LOG + tail)
    assert not error.not_a_log  # there are events: the log is damaged at that line
    assert error.line == 3
    assert "does not begin like a log line" in str(error)


@pytest.mark.parametrize("cut", [1, 5, 9, 30])
def test_the_first_write_cut_short_is_still_dropped(path: Path, cut: int) -> None:
    path.write_bytes(LOG[:cut])
    JsonlStore(path).close()
    assert path.read_bytes() == b""


def test_a_torn_tail_after_events_and_a_whole_unterminated_event_still_open(path: Path) -> None:
    path.write_bytes(LOG + LOG[:40])  # a write cut short
    JsonlStore(path).close()
    assert path.read_bytes() == LOG
    path.write_bytes(LOG[:-1])  # a whole last event without its newline
    JsonlStore(path).close()
    assert path.read_bytes() == LOG


# -- what is opened ---------------------------------------------------------------------------


def test_a_symlink_is_not_followed(tmp_path: Path) -> None:
    target = tmp_path / "token.txt"
    target.write_bytes(b"s3cr3t")
    link = tmp_path / "log.jsonl"
    link.symlink_to(target)
    with pytest.raises(OSError, match=r"is a symbolic link.*pass the path of the log file itself"):
        JsonlStore(link)
    assert target.read_bytes() == b"s3cr3t"
    # Even to a valid log, and a dangling link creates nothing.
    target.write_bytes(LOG)
    with pytest.raises(OSError, match="symbolic link"):
        JsonlStore(link)
    assert target.read_bytes() == LOG
    dangling = tmp_path / "dangling.jsonl"
    dangling.symlink_to(tmp_path / "nowhere")
    with pytest.raises(OSError, match="symbolic link"):
        JsonlStore(dangling)
    assert not (tmp_path / "nowhere").exists()


def test_a_fifo_is_refused_without_blocking(tmp_path: Path) -> None:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError, match="not a regular file \\(it is a FIFO\\); pass the path"):
        JsonlStore(fifo)


def test_a_device_is_refused(tmp_path: Path) -> None:
    if not os.path.exists("/dev/null"):  # pragma: no cover - not POSIX
        pytest.skip("no /dev/null")
    with pytest.raises(OSError, match="not a regular file \\(it is a character device\\)"):
        JsonlStore("/dev/null")


def test_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(OSError, match="is a directory"):
        JsonlStore(tmp_path)


# -- bounded lines ----------------------------------------------------------------------------


@pytest.mark.parametrize("newline", [b"", b"\n"], ids=["unterminated", "terminated"])
@pytest.mark.parametrize("before", [b"", LOG], ids=["alone", "after-events"])
def test_a_line_longer_than_the_cap_is_damaged_and_never_read_whole(
    monkeypatch: pytest.MonkeyPatch, path: Path, before: bytes, newline: bytes
) -> None:
    monkeypatch.setattr(stores, "MAX_LINE_BYTES", 4096)
    read: list[int] = []
    real_events = jsonl._Scan.events

    def counting(self: jsonl._Scan, file: Any) -> Iterator[Event]:
        class Counted:
            def readline(self, size: int = -1) -> bytes:
                assert 0 < size <= 4096  # never an unbounded read
                data: bytes = file.readline(size)
                read.append(len(data))
                return data

        return real_events(self, Counted())  # type: ignore[arg-type]

    monkeypatch.setattr(jsonl._Scan, "events", counting)
    content = before + b'{"kind":"' + b"a" * 20_000 + newline
    error = refused(path, content)
    assert error.line == before.count(b"\n") + 1
    assert "a line longer than 4096 bytes" in str(error)
    assert max(read) <= 4096


def test_a_line_of_exactly_the_cap_is_read(monkeypatch: pytest.MonkeyPatch, path: Path) -> None:
    first = line()
    monkeypatch.setattr(stores, "MAX_LINE_BYTES", len(first))
    path.write_bytes(first)
    store = JsonlStore(path)
    store.close()
    assert path.read_bytes() == first


def test_the_cap_is_above_what_the_default_quotas_let_a_run_persist() -> None:
    from codemode.code_mode._quotas import DEFAULT_MAX_PERSISTED_BYTES

    assert stores.MAX_LINE_BYTES >= 4 * DEFAULT_MAX_PERSISTED_BYTES


# -- any bytes --------------------------------------------------------------------------------

CHUNKS = st.one_of(
    st.sampled_from([LOG, line(), line(seq=2), b'{"kind":"future/x","seq":3}\n', b"\n",
                     b'{"kind":"', b"{", b"}", b"foo", b'{"a":1}']),
    st.sampled_from([LOG, line()]).flatmap(
        lambda whole: st.integers(0, len(whole)).map(lambda cut: whole[:cut])
    ),
    st.binary(max_size=12),
)


def _events_in(content: bytes) -> int:
    count = 0
    for raw in content.splitlines():
        if not raw.strip():
            continue
        try:
            header = json.loads(raw)
        except ValueError:
            return -1
        if isinstance(header, dict) and header.get("kind") in ("tool/call", "tool/result"):
            count += 1
    return count


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(CHUNKS, max_size=5).map(b"".join))
def test_any_file_is_opened_as_a_log_or_refused_and_left_unchanged(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "any"
    path.write_bytes(content)
    try:
        store = JsonlStore(path)
    except (LogFormatError, OSError):
        assert path.read_bytes() == content
        return
    store.close()
    after = path.read_bytes()
    if after == content or (after == content + b"\n" and not content.endswith(b"\n")):
        if content.strip():
            assert list(read_events(path)), "a file with content but no event was accepted"
        return
    # Only a torn tail is dropped: no newline in it, it begins like a log line, and it
    # follows whole events (or is all there was).
    assert content.startswith(after)
    dropped = content[len(after):]
    assert b"\n" not in dropped
    assert b'{"kind":"'.startswith(dropped[:9])
    assert after == b"" or (after.endswith(b"\n") and _events_in(after) > 0)


# -- seq a store cannot continue --------------------------------------------------------------


@pytest.mark.parametrize(
    "seq", [2**63, 10**4299 * 9, -5, -1], ids=["2**63", "4300-digits", "-5", "-1"]
)
def test_a_seq_outside_int64_is_refused_naming_its_line(path: Path, seq: int) -> None:
    content = LOG + line(seq=seq)
    path.write_bytes(content)
    with pytest.raises(LogFormatError, match=r"line 3: not a valid event \(seq .* outside 0"):
        JsonlStore(path)
    assert path.read_bytes() == content
    with pytest.raises(LogFormatError, match="line 3"):
        list(read_events(path))
    # On a line of an unknown kind too: it would still set the next seq.
    content = LOG + b'{"kind":"future/x","seq":%d}\n' % seq
    path.write_bytes(content)
    with pytest.raises(LogFormatError, match="line 3"):
        JsonlStore(path)


def test_a_first_line_meant_as_an_event_is_damaged_not_a_foreign_file(path: Path) -> None:
    error = refused(path, line(seq=2**63))
    assert not error.not_a_log
    assert "line 1: not a valid event (seq 9223372036854775808 is outside" in str(error)
    error = refused(path, line(turn="x"))
    assert not error.not_a_log


def test_a_log_at_the_last_seq_is_refused_on_open(path: Path) -> None:
    content = line(seq=2**63 - 1) + line(seq=7, call_id="b")
    path.write_bytes(content)
    with pytest.raises(LogFormatError, match=r"line 1: .*cannot be continued"):
        JsonlStore(path)
    assert path.read_bytes() == content
    path.write_bytes(line(seq=2**63 - 2))
    store = JsonlStore(path)
    log = SessionLog(store)  # the open call is closed with seq 2**63-1
    log.close()
    assert [event.seq for event in read_events(path)] == [2**63 - 2, 2**63 - 1]


@pytest.mark.parametrize("seq", [10**4299 * 9, 2**63 - 1], ids=["4300-digits", "2**63-1"])
@pytest.mark.parametrize("as_json", [False, True])
def test_run_with_a_log_it_cannot_continue_is_one_usage_error(
    tmp_path: Path, seq: int, as_json: bool
) -> None:
    tools = tmp_path / "my_tools.py"
    tools.write_text('def shout(text: str) -> str:\n    """Shout."""\n    return text.upper()\n')
    program = tmp_path / "program.py"
    program.write_text("return 1\n")
    log = tmp_path / "log.jsonl"
    log.write_bytes(line(seq=seq))
    before = log.read_bytes()
    args = ["run", str(program), "--tools", str(tools), "--log", str(log)]
    outcome = CliRunner().invoke(main, [*args, "--json"] if as_json else args)
    assert outcome.exit_code == 2, outcome.output
    errors = [text for text in outcome.stderr.splitlines() if text.startswith("Error: ")]
    assert len(errors) == 1
    assert "line 1" in errors[0]
    assert "Traceback" not in outcome.output
    assert log.read_bytes() == before


def test_run_with_a_token_file_as_log_is_one_usage_error(tmp_path: Path) -> None:
    tools = tmp_path / "my_tools.py"
    tools.write_text('def shout(text: str) -> str:\n    """Shout."""\n    return text.upper()\n')
    program = tmp_path / "program.py"
    program.write_bytes(b"return 42")
    for target in (tmp_path / "token.txt", program):
        if target != program:
            target.write_bytes(b"s3cr3t-token-value")
        before = target.read_bytes()
        outcome = CliRunner().invoke(
            main, ["run", str(program), "--tools", str(tools), "--log", str(target)]
        )
        assert outcome.exit_code == 2, outcome.output
        [error] = [text for text in outcome.stderr.splitlines() if text.startswith("Error: ")]
        assert "not a session log" in error
        assert target.read_bytes() == before


def test_the_writer_refuses_a_line_no_reader_would_read_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Regression: the readers cap a line, the writer did not: with persistence
    # unbounded, an event past the cap was written and the log could not be
    # opened again.
    path = tmp_path / "session.jsonl"
    store = JsonlStore(path)
    store.append(ToolCallEvent(turn=1, step=0, call_id="a", name="n", arguments="{}"))
    before = path.read_bytes()
    monkeypatch.setattr(stores, "MAX_LINE_BYTES", len(before) + 10)
    with pytest.raises(LossyJsonError, match=r"over the \d+ bytes a log line may hold"):
        store.append(ToolCallEvent(turn=2, step=0, call_id="b", name="n", arguments="x" * 200))
    store.close()
    assert path.read_bytes() == before
    assert [event.seq for event in read_events(path)] == [1]


def test_memory_refuses_the_line_a_file_would_refuse(monkeypatch: pytest.MonkeyPatch) -> None:
    # The stores agree: a session tested on memory does not first fail on a file.
    store = MemoryStore()
    first = store.append(call("a"))
    monkeypatch.setattr(stores, "MAX_LINE_BYTES", len(stores._encode_line(first)) + 10)
    with pytest.raises(LossyJsonError, match=r"over the \d+ bytes a log line may hold"):
        store.append(ToolCallEvent(turn=2, step=0, call_id="b", name="n", arguments="x" * 200))
    assert list(store.read()) == [first]
    assert store.append(call("c")).seq == 2  # nothing was kept, no seq was spent


# -- what is read -----------------------------------------------------------------------------


def test_a_store_reads_the_file_it_holds_not_what_the_name_points_to(tmp_path: Path) -> None:
    # The name can be replaced after the store opened it; reading it again by
    # name followed a symlink there to any file (a token, another log).
    path = tmp_path / "session.jsonl"
    store = JsonlStore(path)
    held = store.append(call("held"))
    other = tmp_path / "other.jsonl"
    other.write_bytes(log_bytes(call("other")))
    path.rename(tmp_path / "moved.jsonl")
    path.symlink_to(other)
    assert [event.call_id for event in store.read()] == ["held"]  # type: ignore[union-attr]
    store.close()
    # Closed, it reads its path again, still without following a symlink there.
    with pytest.raises(OSError, match="symbolic link"):
        list(store.read())
    assert held.seq == 1


def test_reads_and_appends_do_not_move_each_other(path: Path) -> None:
    store = JsonlStore(path)
    store.append(call("a"))
    store.append(result("a"))
    first, second = store.read(), store.read()
    assert next(first).call_id == "a"  # type: ignore[union-attr]
    store.append(call("b"))  # between two lines of a read under way
    assert [event.call_id for event in second] == ["a", "a", "b"]  # type: ignore[union-attr]
    assert [event.call_id for event in first] == ["a", "b"]  # type: ignore[union-attr]
    store.append(result("b"))
    store.close()
    assert [event.seq for event in read_events(path)] == [1, 2, 3, 4]


def test_a_read_never_iterated_holds_no_descriptor(path: Path) -> None:
    store = JsonlStore(path)
    store.append(call("a"))
    before = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None
    reads = [store.read() for _ in range(50)]
    if before is not None:
        assert len(os.listdir("/proc/self/fd")) == before
    del reads
    store.close()
