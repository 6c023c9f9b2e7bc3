"""Crash-safe log across processes: a writer SIGKILLed at points hypothesis chooses.

The writer is a real process appending ``tool/call`` events to a
:class:`~codemode.JsonlStore` in a loop; it reports each ``seq`` once its
append has returned. Its writes go to the kernel a few bytes per system call,
so that a kill lands inside a line as often as between lines. After the kill,
every event whose append returned is read back, in order, the torn tail (if
any) is dropped with a warning, and a new writer appends cleanly after it.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codemode import JsonlStore, ToolCallEvent, read_events

pytestmark = pytest.mark.slow

WRITER = r"""
import os, sys
from codemode import JsonlStore, ToolCallEvent
from codemode._log import _jsonl

class FewBytesAtATime:
    # Real writes, a few bytes per system call: a kill can land inside a line.
    def __getattr__(self, name):
        return getattr(os, name)
    def write(self, fd, data):
        return os.write(fd, bytes(data[:7]))

_jsonl.os = FewBytesAtATime()
store = JsonlStore(sys.argv[1])
padding = "x" * int(sys.argv[2])
n = 0
while True:
    n += 1
    event = store.append(ToolCallEvent(turn=n, step=0, call_id=f"c{n}", name="t",
                                       arguments=padding))
    print(event.seq, os.fstat(store._fd).st_size, flush=True)
"""

#: A deadline guard for waiting on the writer: only a wedged process reaches it.
DEADLOCK_SECONDS = 60.0


def _size(path: Path) -> int:
    try:
        return os.path.getsize(path)
    except FileNotFoundError:  # the writer has not created it yet
        return 0


def _kill_writer(path: Path, acked: int, extra: int, padding: int) -> list[int]:
    """Run the writer until ``acked`` appends returned and ``extra`` more bytes; SIGKILL it.

    Returns the seqs whose append returned before the kill.
    """
    with subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path), str(padding)],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    ) as writer:
        assert writer.stdout is not None
        seqs: list[int] = []
        size = 0
        try:
            while len(seqs) < acked:
                line = writer.stdout.readline()
                assert line, "the writer exited"
                seq, size_text = line.split()
                seqs.append(int(seq))
                size = int(size_text)
            # Wait (for a process, polling its file) until the next write is `extra` bytes in.
            deadline = time.monotonic() + DEADLOCK_SECONDS
            while _size(path) < size + extra:
                assert time.monotonic() < deadline, "the writer stopped writing"
                time.sleep(0.0005)
            writer.send_signal(signal.SIGKILL)
            writer.wait(timeout=DEADLOCK_SECONDS)
            # Acknowledgements written before the kill count too.
            for line in writer.stdout.read().splitlines():
                seqs.append(int(line.split()[0]))
        finally:
            if writer.poll() is None:
                writer.kill()
                writer.wait()
    return seqs


def _whole_object(line: bytes) -> bool:
    try:
        return isinstance(json.loads(line), dict)
    except ValueError:
        return False


# caplog is cleared before each read it judges.
@settings(max_examples=12, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    acked=st.integers(min_value=0, max_value=20),
    extra=st.integers(min_value=0, max_value=3000),
    padding=st.sampled_from([10, 500, 2000]),
)
def test_a_writer_killed_anywhere_loses_no_returned_event_and_a_new_writer_appends_cleanly(
    acked: int, extra: int, padding: int, caplog: pytest.LogCaptureFixture
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path = Path(directory) / "session.jsonl"
        returned = _kill_writer(path, acked, extra, padding)
        data = path.read_bytes() if path.exists() else b""
        # Torn: the kill cut the last line short. A kill between a line's last
        # brace and its newline leaves a whole event, which is kept, not torn.
        torn = bool(data) and not data.endswith(b"\n") and not _whole_object(
            data.rpartition(b"\n")[2]
        )

        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="codemode.log"):
            events = list(read_events(path)) if path.exists() else []
        seqs = [e.seq for e in events]
        assert seqs == list(range(1, len(seqs) + 1))
        assert set(returned) <= set(seqs)
        assert len(seqs) <= len(returned) + 1  # at most the one whose append had not returned
        for event in events:
            assert isinstance(event, ToolCallEvent)
            assert event.arguments == "x" * padding
        warned = [r for r in caplog.records if "incomplete" in r.getMessage()]
        assert len(warned) == (1 if torn else 0)

        # A new writer drops the torn tail (with a warning) and appends after the last event.
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="codemode.log"):
            store = JsonlStore(path)
            appended = store.append(ToolCallEvent(turn=0, step=0, call_id="after", name="t",
                                                  arguments="{}"))
            store.close()
        assert appended.seq == len(seqs) + 1
        dropped = [r for r in caplog.records if "dropping an incomplete" in r.getMessage()]
        assert len(dropped) == (1 if torn else 0)
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="codemode.log"):
            again = list(read_events(path))
        assert [e.seq for e in again] == [*seqs, appended.seq]
        assert caplog.records == []
