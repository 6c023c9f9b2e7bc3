"""The child's side of a stop report: a ``Where`` frame never splits another frame.

The report is sent from a signal handler, which runs between two bytecodes of
whatever the child was doing; if that was writing a frame, the report must follow
the frame instead of landing inside it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import pytest

import bridge.child
import bridge.protocol
from bridge.child import ChildChannel
from bridge.protocol import ChildMessageDecoder, FrameBuffer, Log, Where

if TYPE_CHECKING:
    from collections.abc import Iterator


@pytest.fixture
def pipe() -> Iterator[tuple[int, int]]:
    read_fd, write_fd = os.pipe()
    yield read_fd, write_fd
    os.close(read_fd)
    os.close(write_fd)


def frames_in(read_fd: int) -> list[object]:
    os.set_blocking(read_fd, False)
    buffer = FrameBuffer()
    try:
        buffer.feed(os.read(read_fd, 1 << 16))
    except BlockingIOError:
        return []
    decoder = ChildMessageDecoder()
    out: list[object] = []
    while (body := buffer.next_body()) is not None:
        out.append(decoder.decode(body))
    assert buffer.pending == 0
    return out


def test_a_report_outside_a_write_goes_out_at_once(pipe: tuple[int, int]) -> None:
    read_fd, write_fd = pipe
    channel = ChildChannel(read_fd, write_fd)
    channel.report_line(12)
    assert frames_in(read_fd) == [Where(12)]


@pytest.mark.parametrize("during", ["emit_log", "send"])
def test_a_report_asked_for_during_a_write_follows_that_frame(
    pipe: tuple[int, int], monkeypatch: pytest.MonkeyPatch, during: str
) -> None:
    read_fd, write_fd = pipe
    channel = ChildChannel(read_fd, write_fd, log_flush_seconds=10)
    real_write_all = bridge.protocol.write_all
    interrupted: list[bool] = []

    def write_all_then_signal(fd: int, data: bytes) -> None:
        # The "signal" lands in the middle of the frame's write.
        real_write_all(fd, data[:3])
        if not interrupted:
            interrupted.append(True)
            # Sent now, the report would land inside the frame and garble both.
            channel.report_line(4)
        real_write_all(fd, data[3:])

    monkeypatch.setattr(bridge.child, "write_all", write_all_then_signal)
    if during == "emit_log":
        channel.emit_log("first")  # the first line after a quiet spell goes out at once
    else:
        channel.send(Log(("sent",)))
    expected = Log(("first",)) if during == "emit_log" else Log(("sent",))
    assert frames_in(read_fd) == [expected, Where(4)]


def test_pending_log_lines_go_out_before_the_report(pipe: tuple[int, int]) -> None:
    read_fd, write_fd = pipe
    channel = ChildChannel(read_fd, write_fd, log_flush_seconds=10)
    channel.emit_log("a")  # sent at once
    channel.emit_log("b")  # waits for the flush timer
    assert frames_in(read_fd) == [Log(("a",))]
    channel.report_line(None)
    assert frames_in(read_fd) == [Log(("b",)), Where(None)]
