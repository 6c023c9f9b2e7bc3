"""What a child's reads cost the host: each read is charged, not only each frame.

Every read of the child's pipe wakes the host's event loop. A child that wrote
a frame one byte at a time completed no frame, so no frame budget was spent,
while the loop woke once per byte for the whole wall clock. The host now charges
each small read (fewer than ``SMALL_READ_BYTES``) that completes no frame to a
per-run budget that frames add to in proportion to their bytes (never a fixed
amount per frame: a log frame that cost one byte of output once bought four
reads). The scripted children here write one piece and wait until
the host has read it, so every read brings exactly that piece: the tests count
reads, and time nothing.
"""

from __future__ import annotations

import os
import struct
import threading
from typing import TYPE_CHECKING, TypeVar

import pytest

from bridge._pipe_reader import _ReadBudget
from bridge.host import (
    BYTES_PER_SMALL_READ,
    SMALL_READ_BYTES,
    SMALL_READS_ALLOWED,
    HostEndpoint,
    RunOutcome,
)
from bridge.protocol import (
    FrameBuffer,
    Log,
    ProtocolError,
    Run,
    Where,
    encode_frame,
)

from .test_host_endpoint import Echo, FakeChild, done, make_run
from .test_host_endpoint import with_child as run_with_child

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

T = TypeVar("T")

TINY_PIECES = "the child sent its frames in tiny pieces: "
#: The most small reads a child that completes no frame after Ready gets: the
#: allowance (Ready's few bytes earn none; the read that brought it is paid for).
TRICKLE_READS = SMALL_READS_ALLOWED


class HostReads:
    """Counts the host's reads of the child's pipe; a scripted child waits for each.

    The host feeds its frame buffer exactly what each read brought, so a read
    is counted where the event loop's thread feeds one.
    """

    def __init__(self) -> None:
        self.count = 0
        self.loop_thread = threading.get_ident()
        self._changed = threading.Condition()
        self._over = False

    def fed(self) -> None:
        with self._changed:
            self.count += 1
            self._changed.notify_all()

    def write(self, fd: int, data: bytes) -> bool:
        """Write ``data`` and wait until the host has read it; ``False`` once the host is done."""
        with self._changed:
            before = self.count
        os.write(fd, data)
        with self._changed:
            self._changed.wait_for(lambda: self.count > before or self._over)
            return not self._over

    def trickle(self, fd: int, data: bytes, piece: int = 1) -> bool:
        """Write ``data`` in pieces of ``piece`` bytes, one read each; ``False`` once it is done."""
        return all(self.write(fd, data[at : at + piece]) for at in range(0, len(data), piece))

    def finish(self) -> None:
        with self._changed:
            self._over = True
            self._changed.notify_all()


@pytest.fixture
def host_reads(monkeypatch: pytest.MonkeyPatch) -> HostReads:
    reads = HostReads()
    real = FrameBuffer.feed

    def feed(self: FrameBuffer, data: bytes) -> None:
        real(self, data)
        if threading.get_ident() == reads.loop_thread:  # not the scripted child's own buffer
            reads.fed()

    monkeypatch.setattr(FrameBuffer, "feed", feed)
    return reads


async def with_child(
    script: Callable[[FakeChild], None],
    reads: HostReads,
    host: Callable[[HostEndpoint], Awaitable[T]],
    *,
    max_frame_bytes: int = 1 << 20,
) -> T:
    """Run ``script`` as the child (after it sent Ready) against ``host``; ``host``'s result."""
    return await run_with_child(
        script, host, max_frame_bytes=max_frame_bytes, receive_run=False, finish=reads.finish
    )


async def serve(
    script: Callable[[FakeChild], None],
    reads: HostReads,
    *,
    run: Run | None = None,
    max_frame_bytes: int = 1 << 20,
) -> RunOutcome:
    """Serve one run against ``script``, which starts once it has the run."""

    def after_run(child: FakeChild) -> None:
        child.recv_run()
        script(child)

    async def host(endpoint: HostEndpoint) -> RunOutcome:
        return await endpoint.serve(run or make_run(), Echo())

    return await with_child(after_run, reads, host, max_frame_bytes=max_frame_bytes)


# ------------------------------------------------------------------------ the budget


def test_each_small_read_spends_one_and_frames_earn_by_their_bytes() -> None:
    budget = _ReadBudget()
    for _ in range(SMALL_READS_ALLOWED):
        budget.spend(1, 0)
    # A read that completes frames is paid for by them; their bytes earn more.
    budget.spend(1, 3 * BYTES_PER_SMALL_READ)
    for _ in range(3):
        budget.spend(SMALL_READ_BYTES - 1, 3 * BYTES_PER_SMALL_READ)
    with pytest.raises(ProtocolError, match=f"^{TINY_PIECES}{SMALL_READS_ALLOWED + 4} reads"):
        budget.spend(1, 3 * BYTES_PER_SMALL_READ)


def test_a_small_frame_earns_its_own_read_and_nothing_more() -> None:
    # However many tiny frames came, the reads that complete none are held to
    # the allowance and the frames' bytes.
    budget = _ReadBudget()
    whole = 0
    for _ in range(10 * SMALL_READS_ALLOWED):
        whole += len(encode_frame(Log(("",))))
        budget.spend(1, whole)
    assert budget.small == 0
    allowed = SMALL_READS_ALLOWED + whole // BYTES_PER_SMALL_READ
    assert allowed < 2 * SMALL_READS_ALLOWED
    for _ in range(allowed):
        budget.spend(1, whole)
    with pytest.raises(ProtocolError, match=f"^{TINY_PIECES}{allowed + 1} reads"):
        budget.spend(1, whole)


def test_a_read_that_brings_enough_bytes_spends_nothing() -> None:
    budget = _ReadBudget()
    for _ in range(10 * SMALL_READS_ALLOWED):
        budget.spend(SMALL_READ_BYTES, 0)
    assert budget.small == 0


def test_the_frame_buffer_counts_the_bytes_of_whole_frames_as_they_complete() -> None:
    frames = FrameBuffer(max_frame_bytes=1 << 20)
    one, two = encode_frame(Log(("a",))), encode_frame(Where(3))
    frames.feed(one[:3])
    assert frames.whole_bytes == 0
    frames.feed(one[3:] + two[:-1])
    assert frames.whole_bytes == len(one)
    frames.feed(two[-1:])
    assert frames.whole_bytes == len(one) + len(two)
    assert frames.next_body() == one[4:]
    assert frames.next_body() == two[4:]
    assert frames.next_body() is None
    frames.feed(one)
    assert frames.whole_bytes == 2 * len(one) + len(two)
    # A later frame over the cap stops the count; the frame before it is still taken.
    frames.feed(struct.pack(">I", 2 << 20))
    assert frames.whole_bytes == 2 * len(one) + len(two)
    assert frames.next_body() == one[4:]


# ------------------------------------------------------------------------ hostile children


async def test_a_frame_sent_a_byte_at_a_time_ends_the_run(host_reads: HostReads) -> None:
    # It never completes: no frame budget is spent, only reads.
    def script(child: FakeChild) -> None:
        announced = struct.pack(">I", (1 << 20) - 1)
        host_reads.trickle(child.to_host_w, announced + bytes(4 * SMALL_READS_ALLOWED), 1)

    outcome = await serve(script, host_reads)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1].startswith(TINY_PIECES)
    # Ready's read (paid for by Ready), one read a byte until the budget was
    # spent, and the read that was refused.
    assert SMALL_READS_ALLOWED < host_reads.count <= TRICKLE_READS + 2


async def test_whole_frames_sent_a_byte_at_a_time_end_the_run(host_reads: HostReads) -> None:
    # Each frame pays for the read that completes it, but costs one a byte: the budget runs out.
    log = encode_frame(Log(("x",)))

    def script(child: FakeChild) -> None:
        host_reads.trickle(child.to_host_w, log * 400 + encode_frame(done(1)), 1)

    outcome = await serve(script, host_reads)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1].startswith(TINY_PIECES)
    frames = len(outcome.logs) + 1  # Ready too
    earned = frames * len(log) // BYTES_PER_SMALL_READ
    assert host_reads.count <= SMALL_READS_ALLOWED + earned + frames + 1


async def test_cheap_frames_buy_no_trickle(host_reads: HostReads) -> None:
    # Thousands of log frames of one empty line each (one byte of output
    # apiece), in one write, then a frame announced and sent a byte at a time:
    # the log frames earn in proportion to their bytes, not four reads apiece.
    logs = 10_000
    cheap = encode_frame(Log(("",))) * logs

    def script(child: FakeChild) -> None:
        host_reads.write(child.to_host_w, cheap)
        announced = struct.pack(">I", (1 << 20) - 1)
        host_reads.trickle(child.to_host_w, announced + bytes(8 * SMALL_READS_ALLOWED), 1)

    outcome = await serve(script, host_reads, run=make_run(max_log_bytes=2 * logs))
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1].startswith(TINY_PIECES)
    assert len(outcome.logs) == logs
    earned = len(cheap) // BYTES_PER_SMALL_READ
    assert host_reads.count <= SMALL_READS_ALLOWED + earned + 64  # a few reads for the logs
    assert host_reads.count < 2 * SMALL_READS_ALLOWED


async def test_the_stop_report_reader_has_the_same_budget(host_reads: HostReads) -> None:
    # After a stop the host reads on for a Where; a trickle ends that too.
    def script(child: FakeChild) -> None:
        announced = struct.pack(">I", (1 << 20) - 1)
        host_reads.trickle(child.to_host_w, announced + bytes(4 * SMALL_READS_ALLOWED), 1)

    async def host(endpoint: HostEndpoint) -> int | None:
        return await endpoint.read_where()

    line = await with_child(script, host_reads, host)
    assert line is None
    assert SMALL_READS_ALLOWED < host_reads.count <= TRICKLE_READS + 2


# ------------------------------------------------------------------------ legitimate children


async def test_small_frames_each_in_a_read_of_its_own_are_served(host_reads: HostReads) -> None:
    # A small read that completes a frame is paid for by it: three times the
    # allowance of them, each a tiny log frame, are all served.
    frames = 3 * SMALL_READS_ALLOWED
    log = encode_frame(Log(("x",)))

    def script(child: FakeChild) -> None:
        for _ in range(frames):
            host_reads.write(child.to_host_w, log)
        child.send(done(1))

    outcome = await serve(script, host_reads, run=make_run(max_log_bytes=10 * frames))
    assert (outcome.value, outcome.error) == (1, None)
    assert len(outcome.logs) == frames
    assert host_reads.count > 2 * SMALL_READS_ALLOWED


async def test_frames_in_a_few_pieces_each_are_served(host_reads: HostReads) -> None:
    # Writes larger than a pipe's atomic 4 KiB can come in pieces, a small one
    # at each end: frames of a few KiB earn more small reads than that costs.
    frames = 2 * SMALL_READS_ALLOWED
    log = encode_frame(Log(("x" * (2 * BYTES_PER_SMALL_READ),)))

    def script(child: FakeChild) -> None:
        for _ in range(frames):
            host_reads.write(child.to_host_w, log[:10])  # completes nothing
            host_reads.write(child.to_host_w, log[10:])
        child.send(done(1))

    run = make_run(max_log_bytes=2 * frames * len(log))
    outcome = await serve(script, host_reads, run=run, max_frame_bytes=1 << 20)
    assert (outcome.value, outcome.error) == (1, None)
    assert len(outcome.logs) == frames
    assert host_reads.count > 2 * frames


async def test_a_large_frame_read_in_pieces_of_enough_bytes_is_served(
    host_reads: HostReads,
) -> None:
    # Pieces of SMALL_READ_BYTES pay for their reads whatever their number.
    value = "a" * (2 * SMALL_READ_BYTES * SMALL_READS_ALLOWED)
    frame = encode_frame(done(value))
    cap = 4 * len(frame)

    def script(child: FakeChild) -> None:
        host_reads.trickle(child.to_host_w, frame, SMALL_READ_BYTES)

    run = make_run(max_value_bytes=cap)
    outcome = await serve(script, host_reads, run=run, max_frame_bytes=cap)
    assert (outcome.value, outcome.error) == (value, None)
    assert host_reads.count > 2 * SMALL_READS_ALLOWED
