"""The child's end of the bridge: the protocol channel to the host.

A child process handles exactly one program. Before the program's event loop
exists it speaks the protocol with blocking calls (:func:`send_ready`,
:func:`recv_run`); while the program runs, tool calls go out as :class:`Call`
frames as each call is awaited, and replies come back through a reader on the
running asyncio loop, matched to their call by id. ``print`` output goes out as
batched :class:`Log` frames.

On the loop the channel makes (:meth:`ChildChannel.new_event_loop`), the first
call a program starts in a step of the loop goes out at once, and the others of
the same step together, in one write, when the loop next waits for I/O (or, in
a child that flushes with ``SIGALRM``, after at most :data:`CALL_BATCH_SECONDS`,
should a task go on computing within that step). Ten calls of an
``asyncio.gather`` are then two pipe writes and wake-ups of the host instead of
ten, each of which could put the host on the child's CPU ahead of the child's
next call. A program that awaits its calls one by one pays nothing for it: a
call that goes at once arms no timer (a system call, about 3 µs here).

While a call waits for its reply and the loop has nothing else to do, the
loop polls the pipe for up to :data:`REPLY_POLL_SECONDS` before it blocks: a
process that blocks lets its CPU go idle, and on a virtual machine waking an
idle CPU costs tens to hundreds of microseconds, more than a fast tool's
whole reply. A wait that polled in vain switches polling off until a reply
comes within the window again, so a slow tool costs one window of CPU, not
one per wait.

What the program calls, its ``tools``, is in :mod:`bridge.proxy`; the channel
knows those calls only as a :class:`ReplySink`. The loop and the selector that
ask the channel at each wait are in :mod:`bridge.run_loop`.

Import cost matters here (the zygote imports this module before forking), and
the module must not import anything from the host side.
"""

from __future__ import annotations

import asyncio
import os
import signal
import time
from typing import TYPE_CHECKING, Final, Protocol, final

import msgspec

from bridge.lossless import collection_paused
from bridge.protocol import (
    DEFAULT_MAX_FRAME_BYTES,
    DEFAULT_MAX_PENDING_CALLS,
    MAX_LOG_LINES_PER_FRAME,
    PROTOCOL_VERSION,
    ChildMessage,
    Done,
    Failure,
    FrameBuffer,
    HostMessage,
    HostMessageDecoder,
    Log,
    ProtocolError,
    Ready,
    Reply,
    Run,
    Where,
    encode_frame,
    read_frame,
    write_all,
)
from bridge.run_loop import RunLoop, event_loop_ahead

if TYPE_CHECKING:
    import selectors
    from collections.abc import Sequence
    from types import FrameType

    from bridge.lossless import JsonValue

__all__ = [
    "CALL_BATCH_SECONDS",
    "MESSAGE_CUT_MARKER",
    "REPLY_POLL_SECONDS",
    "ChildChannel",
    "ReplySink",
    "RunLoop",
    "event_loop_ahead",
    "fitted_message",
    "recv_run",
    "send_ready",
]

#: Pending log bytes that trigger an immediate flush.
_LOG_FLUSH_BYTES: Final = 32 * 1024

#: The longest a call waits in a batch when the step that started it goes on
#: computing (only in a child that flushes with ``SIGALRM``).
CALL_BATCH_SECONDS: Final = 0.001
#: The longest the loop polls for a reply before it blocks (see the module docstring).
#: Sized to catch the reply of a fast tool through the full pipeline (about
#: 0.1-0.2 ms on the host), measured on 2-CPU virtual machines.
REPLY_POLL_SECONDS: Final = 0.0005
#: Bytes of call frames a batch holds; a call that would pass it is sent at
#: once, with the batch before it (a large frame is never copied into one).
_CALL_BATCH_BYTES: Final = 64 * 1024

#: Bytes of a Log frame besides its lines' text: header and tag, and per line
#: a MessagePack string header (at most 5 bytes).
_LOG_FRAME_OVERHEAD, _LOG_LINE_OVERHEAD = 64, 5

_FAILURE_KINDS: Final = frozenset({"exception", "invalid-output", "output-limit", "compile"})

#: Bytes of a failure message besides its text in a Done frame: header, tag, kind.
_DONE_FRAME_OVERHEAD: Final = 64

#: Room for the marker line, with its numbers at their longest and two newlines.
_MESSAGE_CUT_MARKER_BYTES: Final = 256

#: The line put where a failure message was cut.
MESSAGE_CUT_MARKER: Final = (
    "[codemode] ... the middle of this message was cut: it had {length} characters, and a "
    "failure message keeps {limit} bytes of its text (Limits.max_value_bytes) ..."
)


_json_encode: Final = msgspec.json.encode


class ReplySink(Protocol):
    """What the channel hands replies to: the calls of the running program."""

    def resolve(self, reply: Reply) -> None:
        """Give ``reply`` to the call it answers (if that call still waits)."""

    def fail_all(self, message: str) -> None:
        """Fail every call still waiting for a reply with ``message``."""

    def awaiting(self) -> bool:
        """Whether a call sent to the host still waits for its reply."""


@final
class ChildChannel:
    """The protocol endpoint inside the child, over two raw pipe fds.

    Before the program runs, :meth:`recv` and :meth:`send` block. While it runs,
    replies are read by a reader on the running event loop, attached when the
    first call is sent. Frames are always written whole with blocking writes;
    the host drains its pipe at all times, so a write never waits long.

    Args:
        read_fd: the pipe the host writes to.
        write_fd: the pipe the host reads from.
        max_frame_bytes: the largest frame accepted from the host.
        log_flush_seconds: the longest a printed line waits before it is sent.
        flush_with_alarm: send pending log lines from a ``SIGALRM`` timer, so a
            line printed just before a long computation still reaches the host
            if the child is then killed. Only for the child process's main
            thread (it installs a signal handler); otherwise pending lines are
            sent by the running loop or the next write.
    """

    __slots__ = (
        "__weakref__",
        "_alarm",
        "_batch",
        "_batch_bytes",
        "_busy",
        "_calls",
        "_decoder",
        "_flush_seconds",
        "_incoming",
        "_last_flush",
        "_lines",
        "_lines_bytes",
        "_loop",
        "_poll",
        "_read_fd",
        "_report",
        "_step_loop",
        "_step_sent",
        "_timer_armed",
        "_write_fd",
        "peer_max_frame_bytes",
        "peer_max_message_bytes",
        "peer_max_pending_calls",
    )

    def __init__(
        self,
        read_fd: int,
        write_fd: int,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        log_flush_seconds: float = 0.01,
        flush_with_alarm: bool = False,
    ) -> None:
        if not (isinstance(log_flush_seconds, int | float) and 0 < log_flush_seconds <= 10):
            raise ValueError(
                "log_flush_seconds must be a number of seconds in (0, 10]; got "
                f"log_flush_seconds={log_flush_seconds!r}"
            )
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._incoming = FrameBuffer(max_frame_bytes=max_frame_bytes)
        self._decoder = HostMessageDecoder()
        self._flush_seconds = float(log_flush_seconds)
        self._lines: list[str] = []
        self._lines_bytes = 0
        self._last_flush = 0.0
        self._timer_armed = False
        self._busy = False  # a write or a change to _lines is in progress (see _on_alarm)
        # A Where report (and the exit status to leave with after it) that a
        # signal asked for while a write was in progress.
        self._report: tuple[Where, int | None] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._calls: ReplySink | None = None
        # The loop made by new_event_loop, on which calls are batched; whether
        # its current step has sent a call; the calls the step holds back.
        self._step_loop: asyncio.AbstractEventLoop | None = None
        self._step_sent = False
        self._batch: list[bytes] = []
        self._batch_bytes = 0
        # Whether the loop's next wait for a reply polls first (see reply_poll_seconds).
        self._poll = True
        #: The host's frame cap, learnt from :class:`Run`.
        self.peer_max_frame_bytes = DEFAULT_MAX_FRAME_BYTES
        #: The calls the host allows in flight, learnt from :class:`Run`.
        self.peer_max_pending_calls = DEFAULT_MAX_PENDING_CALLS
        #: Bytes of a failure message's text kept (:func:`fitted_message`): the
        #: host's value cap, learnt from :class:`Run` (before it, what fits a frame).
        self.peer_max_message_bytes = DEFAULT_MAX_FRAME_BYTES
        self._alarm = flush_with_alarm
        if flush_with_alarm:
            signal.signal(signal.SIGALRM, self._on_alarm)

    # ------------------------------------------------------------------ blocking I/O

    def recv(self) -> HostMessage:
        """Block until the host's next message arrives and return it.

        Raises:
            PipeClosed: the host closed the pipe.
            ProtocolError: the frame is oversized or not a host message.
        """
        return self._decoder.decode(read_frame(self._read_fd, self._incoming))

    def decode_host_frame(self, body: bytes) -> HostMessage:
        """Decode one frame body as :meth:`recv` does, without reading the pipe.

        Raises:
            ProtocolError: the body is not a host message.
        """
        return self._decoder.decode(body)

    def send(self, message: ChildMessage) -> None:
        """Send one message, after any pending log lines (blocking)."""
        self._write(encode_frame(message))

    def _after_held_back(self, frame: bytes) -> bytes:
        # Everything held back goes first, in the order it was made: the
        # batched calls (with the lines printed before each), then the lines
        # printed since.
        if self._lines:
            frame = self._take_log_frame() + frame
        if self._batch:
            frame = self._take_batch() + frame
        return frame

    def _write(self, frame: bytes) -> None:
        busy, self._busy = self._busy, True
        try:
            write_all(self._write_fd, self._after_held_back(frame))
        finally:
            self._busy = busy
            if not busy and self._report is not None:
                self._send_report()

    # ------------------------------------------------------------------ stop reports

    def report_line(self, line: int | None, *, then_exit: int | None = None) -> None:
        """Tell the host which line the program is on; for a signal handler.

        Runs between two bytecodes of whatever the main thread is doing: if
        that is a write, the report follows it, so frames never interleave.

        Args:
            line: the program's current line, or ``None``.
            then_exit: leave the process with this status once the report is out.
        """
        self._report = (Where(line), then_exit)
        if not self._busy:
            self._send_report()

    def _send_report(self) -> None:
        report, self._report = self._report, None
        if report is None:
            return
        where, then_exit = report
        self._busy = True
        try:
            write_all(self._write_fd, self._after_held_back(encode_frame(where)))
        except OSError:
            pass  # the host is gone; nothing is waiting for the report
        finally:
            self._busy = False
        if then_exit is not None:
            os._exit(then_exit)

    # ------------------------------------------------------------------ logs

    def emit_log(self, line: str) -> None:
        """Queue one completed line of program output for the host.

        Lines are batched; a line waits at most ``log_flush_seconds`` (the first
        line after a quiet spell goes out at once), and a batch never exceeds
        the host's frame cap. A lone surrogate is sent as its ``\\udXXX`` escape.
        """
        # No collection inside: a finalizer's print would re-enter the batch
        # being built (a batch sent twice). Restored, not reset: the alarm's
        # flush can still find an outer write in progress.
        busy, self._busy = self._busy, True
        try:
            with collection_paused():
                if line.isascii():
                    size = len(line) + _LOG_LINE_OVERHEAD
                else:
                    try:
                        size = len(line.encode()) + _LOG_LINE_OVERHEAD
                    except UnicodeEncodeError:  # a lone surrogate cannot cross as UTF-8
                        line = line.encode("utf-8", "backslashreplace").decode("utf-8")
                        size = len(line.encode()) + _LOG_LINE_OVERHEAD
                if self._lines and (
                    self._lines_bytes + size + _LOG_FRAME_OVERHEAD > self.peer_max_frame_bytes
                ):
                    # The batch would not fit in one frame the host accepts.
                    self._write(b"")
                self._lines.append(line)
                self._lines_bytes += size
                now = time.monotonic()
                if (
                    now - self._last_flush >= self._flush_seconds
                    or self._lines_bytes >= _LOG_FLUSH_BYTES
                    or len(self._lines) >= MAX_LOG_LINES_PER_FRAME
                ):
                    self._write(b"")
                elif not self._timer_armed:
                    self._arm_timer()
        finally:
            self._busy = busy
            if not busy and self._report is not None:
                self._send_report()

    def flush_logs(self) -> None:
        """Send every pending log line (and batched call) now."""
        if self._lines or self._batch:
            with collection_paused():
                self._write(b"")

    def _take_log_frame(self) -> bytes:
        frame = encode_frame(Log(tuple(self._lines)))
        self._lines = []
        self._lines_bytes = 0
        self._last_flush = time.monotonic()
        return frame

    def _arm_timer(self, seconds: float | None = None) -> None:
        self._timer_armed = True
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, seconds or self._flush_seconds)
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            # No loop: the lines go out with the next write or emit_log.
            self._timer_armed = False
            return
        loop.call_later(self._flush_seconds, self._on_timer)

    def _on_timer(self) -> None:
        self._timer_armed = False
        self.flush_logs()

    def _on_alarm(self, signum: int, frame: FrameType | None) -> None:
        # Runs between two bytecodes of whatever the main thread is doing. If
        # that is a write or a change to the pending lines, try again shortly.
        if self._busy:
            signal.setitimer(signal.ITIMER_REAL, self._flush_seconds / 4)
            return
        self._timer_armed = False
        try:
            self.flush_logs()
        except OSError as exc:
            # The host is gone; the program learns it from its calls (a log
            # line alone has nobody left to reach).
            self.host_gone(exc)

    # ------------------------------------------------------------------ end of run

    def send_done(self, value: JsonValue = None, error: tuple[str, str] | None = None) -> None:
        """Send the run's outcome (after the pending log lines); the last frame of a run.

        Args:
            value: the program's checked return value (ignored when ``error`` is set).
            error: ``(kind, message)`` when the program failed; a kind the
                protocol does not carry from a child is sent as ``exception``.
                The message is sent as the host takes it (:func:`fitted_message`):
                a lone surrogate escaped, and a message longer than
                :attr:`peer_max_message_bytes` cut in its middle.
        """
        if self._alarm and self._timer_armed:
            # Only an armed timer is pending (every setitimer call arms it, and
            # its flag is cleared only as it fires).
            signal.setitimer(signal.ITIMER_REAL, 0)
        if error is not None:
            kind, message = error
            if kind not in _FAILURE_KINDS:
                message = f"{kind}: {message}"
                kind = "exception"
            limit = min(
                self.peer_max_message_bytes,
                self.peer_max_frame_bytes - _DONE_FRAME_OVERHEAD - _MESSAGE_CUT_MARKER_BYTES,
            )
            message = fitted_message(message, limit)
            done = Done(error=Failure(kind, message))  # type: ignore[arg-type]
        else:
            try:
                done = Done(value=_json_encode(value))
            except (TypeError, ValueError) as exc:
                done = Done(error=Failure("invalid-output", f"the value cannot be encoded: {exc}"))
        self.send(done)

    # ------------------------------------------------------------------ calls

    def new_event_loop(self, ahead: RunLoop | None = None) -> asyncio.AbstractEventLoop:
        """The event loop for the run, with the reply reader registered on it.

        On this loop the calls started in one step are batched (see the module
        docstring): its selector sends the batch before the loop waits.

        Args:
            ahead: a loop from :func:`event_loop_ahead`, never given to a
                channel before, to use instead of a new one.

        Raises:
            ValueError: ``ahead`` already belongs to a channel, or has run.
        """
        if ahead is None:
            ahead = event_loop_ahead()
        if ahead.is_closed() or ahead.is_running() or ahead.step_selector.channel is not None:
            raise ValueError(
                "this event loop already served a channel; "
                "make each channel's loop with event_loop_ahead()"
            )
        ahead.step_selector.open(self)
        self.listen_on(ahead)
        self._step_loop = ahead
        return ahead

    def send_call(self, frame: bytes) -> None:
        """Send a call frame at once, or with the later calls of this loop step.

        Raises:
            OSError: the frame could not be written (the host is gone).
        """
        if (
            not self._step_sent
            or self._loop is not self._step_loop
            or self._batch_bytes + len(frame) > _CALL_BATCH_BYTES
        ):
            # The step's first call (or one off the batching loop, or one the
            # batch has no room for) goes at once, with anything held back.
            self._step_sent = True
            self._write(frame)
            return
        busy, self._busy = self._busy, True
        try:
            first = not self._batch
            if self._lines:
                # Printed before this call: it stays ahead of it.
                self._batch.append(self._take_log_frame())
            self._batch.append(frame)
            self._batch_bytes += len(frame)
            if first and self._alarm:
                # Should this step go on computing, the batch still goes out
                # soon (earlier than a log timer already armed would fire).
                self._arm_timer(CALL_BATCH_SECONDS)
        finally:
            self._busy = busy
            if not busy and self._report is not None:
                self._send_report()

    def _take_batch(self) -> bytes:
        frames = b"".join(self._batch)
        self._batch.clear()
        self._batch_bytes = 0
        return frames

    def end_step(self) -> bool:
        """The loop is about to wait: the step is over, and its batch goes out.

        Returns:
            Whether the loop has work again (the batch failed, and so did its
            calls): it must not block in this wait.
        """
        self._step_sent = False
        if self._batch and not self._busy:
            try:
                self._write(b"")
            except OSError as exc:
                self.host_gone(exc)
                return True
        return False

    def reply_poll_seconds(self) -> float | None:
        """How long the loop's coming wait polls before it blocks.

        ``None`` when no call waits for a reply (the wait is for a timer of the
        program's: nothing to poll for), else :data:`REPLY_POLL_SECONDS`, or 0
        after a wait that polled in vain, until a reply comes within the
        window again (:meth:`waited`).
        """
        calls = self._calls
        if calls is None or not calls.awaiting():
            return None
        return REPLY_POLL_SECONDS if self._poll else 0.0

    def waited(self, seconds: float) -> None:
        """A wait for a reply found something after ``seconds``, or polled them in vain."""
        self._poll = seconds < REPLY_POLL_SECONDS

    def host_gone(self, exc: OSError) -> None:
        # A batch that could not be written: its calls, and every other call
        # still waiting for a reply, fail as a call whose frame could not be
        # written does.
        self._batch.clear()
        self._batch_bytes = 0
        if self._calls is not None:
            self._calls.fail_all(f"the host is gone ({exc})")

    # ------------------------------------------------------------------ replies

    def listen_on(self, loop: asyncio.AbstractEventLoop) -> None:
        """Register the reply reader with ``loop`` now, before the run that will use it.

        The first registration with a loop's selector costs about 0.1 ms in a
        fresh fork; a child that knows its run's loop ahead (it prepares it
        before READY) pays that while it waits instead of at the first call.
        Nothing is read until the loop runs.
        """
        if self._loop is loop:
            return
        self.detach()
        loop.add_reader(self._read_fd, self._on_readable)
        self._loop = loop

    def attach(self, calls: ReplySink) -> None:
        """Make sure replies are read on the running loop."""
        loop = asyncio.get_running_loop()
        self._calls = calls
        if self._loop is loop:
            return
        self.detach()
        loop.add_reader(self._read_fd, self._on_readable)
        self._loop = loop

    def detach(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._read_fd)

    def read_replies(
        self, ready: list[tuple[selectors.SelectorKey, int]]
    ) -> list[tuple[selectors.SelectorKey, int]]:
        """A wait found ``ready``: read the host's frames now if the pipe is among them.

        Returns the rest of ``ready``, for the loop. Left to the loop, the
        reader runs as a callback of this iteration and the task a reply wakes
        only in the next; read here, before the loop counts its callbacks, the
        reply wakes its task in this one (one loop iteration less per call).
        An error goes to the loop's exception handler, as a callback's would.
        """
        if not ready:
            return ready
        fd = self._read_fd
        rest = [event for event in ready if event[0].fd != fd]
        if len(rest) == len(ready):
            return ready
        loop = self._loop
        if loop is None or loop is not self._step_loop:
            return ready  # the reader is not this loop's: the loop runs it
        try:
            self._on_readable()
        except Exception as exc:
            loop.call_exception_handler(
                {"message": "reading the host's replies failed", "exception": exc}
            )
        return rest

    def _on_readable(self) -> None:
        calls = self._calls
        try:
            data = os.read(self._read_fd, 65536)
        except (BlockingIOError, InterruptedError):
            return
        try:
            if not data:
                raise ProtocolError("the host closed the pipe")
            self._incoming.feed(data)
            while (body := self._incoming.next_body()) is not None:
                message = self._decoder.decode(body)
                if isinstance(message, Reply) and calls is not None:
                    calls.resolve(message)
        except ProtocolError as exc:
            self.detach()
            if calls is not None:
                calls.fail_all(f"the connection to the host failed: {exc}")


# ---------------------------------------------------------------------- handshake


def send_ready(channel: ChildChannel, *, unprotected: Sequence[str] = ()) -> None:
    """Tell the host this child is ready for its program (blocking).

    Args:
        channel: the child's channel.
        unprotected: one line per protection that could not be applied.
    """
    channel.send(Ready(PROTOCOL_VERSION, os.getpid(), tuple(unprotected)))


def recv_run(channel: ChildChannel) -> Run:
    """Block until the host sends the program to run, and return it.

    Raises:
        PipeClosed: the host closed the pipe first (the pool is shutting down).
        ProtocolError: the host sent something other than :class:`Run`.
    """
    message = channel.recv()
    if not isinstance(message, Run):
        raise ProtocolError(f"expected a Run message from the host, got {type(message).__name__}")
    channel.peer_max_frame_bytes = message.max_frame_bytes
    channel.peer_max_pending_calls = message.max_pending_calls
    channel.peer_max_message_bytes = message.max_value_bytes
    return message


def fitted_message(message: str, max_bytes: int) -> str:
    """``message`` as the host takes it: valid UTF-8, cut to ``max_bytes`` bytes of its text.

    A failure message is the program's text (its exception's, a traceback of
    its own frames): it may hold a lone surrogate, which has no UTF-8 form and
    is written as its escape (``\\ud800``, as printed text is), and it may be
    of any length. A longer one keeps ``max_bytes`` bytes of it, its beginning
    and its end (where a traceback names the exception), around one line
    (:data:`MESSAGE_CUT_MARKER`, well within the host's ``ERROR_SLACK_CHARS``)
    saying how long it was and which limit cut it. So the host always gets the
    program's own failure: a message over the value cap had ended the run as
    ``output-limit`` with the whole traceback lost, one over the frame cap as
    ``worker-exit``, and a lone surrogate had failed the child's runtime.
    Linear in what is kept: a huge message is never escaped or encoded whole.
    """
    if message.isascii() and len(message) <= max_bytes:
        return message
    room = max(max_bytes, 1)  # a character is at least one byte
    if len(message) > 2 * room:
        head, tail = message[:room], message[-room:]
    else:
        head, tail = message, ""
    data = head.encode("utf-8", "backslashreplace") + tail.encode("utf-8", "backslashreplace")
    if len(data) <= max_bytes:
        return data.decode("utf-8")
    keep = max(max_bytes, 0)
    start = data[: keep // 2].decode("utf-8", "ignore")
    end = data[len(data) - (keep - keep // 2):].decode("utf-8", "ignore") if keep > 1 else ""
    marker = MESSAGE_CUT_MARKER.format(length=len(message), limit=max_bytes)
    return f"{start}\n{marker}\n{end}"
