"""The host reading a child's frames: strictly, charged per read, polling when an answer is near.

:class:`PipeReader` is the reading layer of :class:`~bridge.host.HostEndpoint`.
It reads the child's frames from a raw non-blocking fd (a reader callback on
the event loop, kept registered while the run lasts, and ``os.read``), with the
size cap checked from the length prefix before the body is read, and decodes
each strictly against the child's message union.

Every read of the child's pipe is a wake-up of the event loop, and is charged
where it is spent: a read that completes a frame is paid for by that frame
(which spends a budget of its own kind), and one that brings fewer than
:data:`SMALL_READ_BYTES` and completes none spends one of the run's small
reads, :data:`SMALL_READS_ALLOWED` plus one for every
:data:`BYTES_PER_SMALL_READ` bytes of the frames completed, so a child that
sends its frames in tiny pieces ends its run instead of waking the loop once
per byte, however many small frames it sends.

Once every call is answered, the child's next frame is usually a few tens of
microseconds away (its next call, or ``Done``). For up to
:data:`HOST_POLL_SECONDS` after the last reply, the endpoint then polls the
pipe between the loop's other work (a read, then ``asyncio.sleep(0)``)
instead of letting the loop block: a blocked loop lets its CPU go idle, and on
a virtual machine waking it again costs more than the child's answer takes.
The endpoint polls only once the child has answered a reply within the window
(a run's first answer is waited for, and measured), a window that passes
without a frame switches polling off until the child answers within one again,
and one endpoint per loop polls at a time, so a slow program, a program that
makes one call, or many runs at once cost no CPU for it.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
import os
import time
import weakref
from typing import Final, final

from bridge.protocol import (
    ChildMessage,
    ChildMessageDecoder,
    FrameBuffer,
    PipeClosed,
    ProtocolError,
)

__all__ = [
    "BYTES_PER_SMALL_READ",
    "HOST_POLL_SECONDS",
    "READ_CHUNK",
    "SMALL_READS_ALLOWED",
    "SMALL_READ_BYTES",
    "FrameTrickle",
    "PipeReader",
]

#: How long after its last reply the endpoint polls for the child's next frame
#: (see the module docstring): a fast program's next call or ``Done`` comes
#: within about 0.1 ms of the reply on 2-CPU virtual machines (measured).
HOST_POLL_SECONDS: Final = 0.0003

#: The endpoint polling on each event loop, if any: one at a time.
_pollers: Final[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, PipeReader]] = (
    weakref.WeakKeyDictionary()
)

#: A pipe holds 64 KiB unless resized; reading more at once only allocates more.
READ_CHUNK: Final = 64 * 1024

#: A read of a child's pipe that brings fewer bytes than this is *small*: its
#: bytes do not pay for the wake-up of the event loop that it cost. A child
#: writes each frame whole (one ``write`` for one or more frames), so the host
#: reads a frame in one piece, or in pieces of up to a pipeful when it is large.
SMALL_READ_BYTES: Final = 4096
#: Small reads that complete no frame a run may make whatever it sends: the
#: budget of a child that completes no frame. A legitimate child makes almost
#: none: its frames come whole, and a write of more than a pipe's atomic 4 KiB
#: comes in at most a few pieces.
SMALL_READS_ALLOWED: Final = 1024
#: Bytes of completed frames that add one small read to the budget. Frames earn
#: in proportion to their bytes, never per frame: a frame's bytes are spent
#: from a budget of its kind (the output budget, the bytes in flight, the value
#: cap), while a fixed amount per frame let a log frame that cost one byte of
#: output buy four wake-ups of the loop.
BYTES_PER_SMALL_READ: Final = 1024


class FrameTrickle(ProtocolError):
    """The child sent its frames in more small pieces than its frames pay for."""


@final
class _ReadBudget:
    """Charges the host's reads of a child's pipe where they are spent: per read, not per frame.

    Every read is a wake-up of the event loop. A frame spends a budget of its
    kind once it is whole, but the bytes of a frame still arriving spend
    nothing: a child that wrote a frame one byte at a time woke the loop once
    per byte for the whole wall clock. So a read pays for itself by completing
    a frame (at most one such read a frame, each frame spent from its own
    budget) or by bringing :data:`SMALL_READ_BYTES`; any other read spends one
    small read, of :data:`SMALL_READS_ALLOWED` plus one for every
    :data:`BYTES_PER_SMALL_READ` bytes of frames completed. What frames earn is
    in proportion to their bytes, so the small reads of a run stay within a
    small multiple of the bytes its budgets account for.
    """

    __slots__ = ("small", "whole")

    def __init__(self) -> None:
        self.small = 0
        self.whole = 0  # bytes of the frames completed so far

    def spend(self, size: int, whole: int) -> None:
        """Charge a read that brought ``size`` bytes; ``whole``: bytes of frames complete after it.

        Raises:
            FrameTrickle: the run's small reads are over the budget.
        """
        completed, self.whole = whole > self.whole, whole
        if completed or size >= SMALL_READ_BYTES:
            return  # paid for by the frame it completed, or by its bytes
        self.small += 1
        allowed = SMALL_READS_ALLOWED + whole // BYTES_PER_SMALL_READ
        if self.small > allowed:
            raise FrameTrickle(
                f"the child sent its frames in tiny pieces: {self.small} reads of its pipe "
                f"brought fewer than {SMALL_READ_BYTES} bytes each and completed no frame, "
                f"more than the {allowed} allowed for {whole} bytes of whole frames "
                "(a child writes each frame whole)"
            )


class PipeReader:
    """Reads one child's frames from its pipe fd: the reading layer of the host endpoint.

    The endpoint's layers above it (:class:`~bridge._call_table.CallTable`,
    :class:`~bridge.host.HostEndpoint`) wait for frames with :meth:`_next_body`
    and :meth:`_next_message`; answering the last call in flight sets
    ``_replied_at``, which starts the polling window (see the module docstring).

    Args:
        read_fd: the pipe the child writes to; made non-blocking.
        max_frame_bytes: the largest frame accepted from the child.
    """

    __slots__ = (
        "_decoder",
        "_frames",
        "_poll",
        "_poll_loop",
        "_read_ended",
        "_read_failure",
        "_read_fd",
        "_read_first",
        "_reader_loop",
        "_reads",
        "_replied_at",
        "_waiter",
    )

    def __init__(self, read_fd: int, *, max_frame_bytes: int) -> None:
        self._read_fd = read_fd
        os.set_blocking(read_fd, False)
        self._frames = FrameBuffer(max_frame_bytes=max_frame_bytes)
        self._reads = _ReadBudget()
        self._decoder = ChildMessageDecoder()
        # The reader (see _on_readable): the loop it is registered with, the
        # task waiting for a frame, and how reading ended, if it has.
        self._reader_loop: asyncio.AbstractEventLoop | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._read_ended = False
        self._read_failure: OSError | ProtocolError | None = None
        # Whether the next wait tries one read before registering the reader
        # (once per run, see _next_body).
        self._read_first = False
        # When the last call in flight was answered, while the child's next
        # frame has not come (0.0 otherwise), and whether waits after a reply
        # poll (see _poll_once): the child's last answer came within the
        # window. Off until one has: a run's first answer is measured, not
        # polled for (a program that makes one call is often slower to answer
        # its reply, with Done, than one in a loop of calls is with its next).
        self._replied_at = 0.0
        self._poll = False
        self._poll_loop: asyncio.AbstractEventLoop | None = None  # holding its polling slot

    async def _next_message(self) -> ChildMessage:
        return self._decoder.decode(await self._next_body())

    async def _next_body(self) -> bytes:
        frames = self._frames
        while True:
            body = frames.next_body()
            if body is not None:
                return body
            failure = self._read_failure
            if failure is not None:
                raise failure
            if self._read_ended:
                where = f" in the middle of a frame ({frames.pending} bytes)"
                raise PipeClosed("the child closed its pipe" + (where if frames.pending else ""))
            loop = asyncio.get_running_loop()
            if self._replied_at and await self._poll_once(loop):
                continue
            if self._reader_loop is not loop:
                if self._read_first:
                    # The child may have answered already: its wake-up often
                    # runs it on this CPU before the host goes on, so its first
                    # frames are in the pipe by the run's first wait. One read
                    # spares registering the reader and a trip through the
                    # loop; one per run, so a child that keeps the pipe full
                    # still meets the registered reader and its bound.
                    self._read_first = False
                    if self._read_chunk():
                        continue
                self._stop_reading()
                loop.add_reader(self._read_fd, self._on_readable)
                self._reader_loop = loop
            waiter = self._waiter = loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None

    async def _poll_once(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Within the window after the last reply: one read, else one pass of the loop.

        Returns:
            ``True`` to look for a frame again, ``False`` to wait for one (the
            window is over, polling is off, or another endpoint polls).
        """
        poller = _pollers.get(loop)
        if (
            self._poll
            and (poller is None or poller is self)
            and time.monotonic() - self._replied_at < HOST_POLL_SECONDS
        ):
            _pollers[loop] = self
            self._poll_loop = loop
            if not self._read_chunk():
                # The child may be waiting for this CPU (a pipe write wakes
                # the reader onto the writer's CPU): let it run first.
                os.sched_yield()
                await asyncio.sleep(0)
            return True
        self._stop_polling()
        return False

    def _stop_polling(self) -> None:
        """Give up this loop's polling slot, if this endpoint holds it."""
        loop, self._poll_loop = self._poll_loop, None
        if loop is not None and _pollers.get(loop) is self:
            del _pollers[loop]

    def _on_readable(self) -> None:
        """The reader callback: read what the child wrote and wake the waiting reader.

        It stays registered from one frame to the next (registering a reader
        per wait costs two ``epoll_ctl`` calls and a future each time), and
        reads ahead by at most one chunk past :data:`READ_CHUNK` buffered bytes
        while nobody waits; then it stops until the next wait, so a child that
        floods the pipe is held back by the pipe, not buffered here.
        """
        if not self._read_chunk():
            return
        frames = self._frames
        waiter = self._waiter
        if self._read_ended or self._read_failure is not None:
            self._stop_reading()
        elif waiter is None or waiter.done():
            if frames.pending >= READ_CHUNK:
                self._stop_reading()
            return
        elif not frames.complete:
            return  # a frame still arriving: wake the reader once it is whole
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _read_chunk(self) -> bool:
        """Read at most one chunk from the pipe; ``False`` if it held nothing yet."""
        try:
            data = os.read(self._read_fd, READ_CHUNK)
        except BlockingIOError:
            return False
        except OSError as exc:
            self._read_failure = exc
            return True
        if self._replied_at:
            # The child answered the last reply: polling pays while it does
            # so within the window.
            self._poll = time.monotonic() - self._replied_at < HOST_POLL_SECONDS
            self._replied_at = 0.0
            self._stop_polling()
        try:
            if data:
                self._take(data)
            else:
                self._read_ended = True
        except ProtocolError as exc:
            self._read_failure = exc
        return True

    def _take(self, data: bytes) -> None:
        """Charge the read that brought ``data`` (see :class:`_ReadBudget`), then buffer it.

        Raises:
            ProtocolError: the read is over the run's budget, or the frame it
                starts is over the cap.
        """
        frames = self._frames
        frames.feed(data)
        self._reads.spend(len(data), frames.whole_bytes)

    def _stop_reading(self) -> None:
        loop, self._reader_loop = self._reader_loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._read_fd)

    @property
    def _frames_limit(self) -> int:
        return self._frames.max_frame_bytes
