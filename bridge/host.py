"""The host's end of the bridge: serve one program run over a child's pipes.

:class:`HostEndpoint` reads the child's frames from a raw non-blocking fd (a
reader callback on the event loop, kept registered while the run lasts, and
``os.read``) and writes with ``os.write``, waiting with ``anyio.wait_writable``
only when the pipe is full. anyio's stream classes are avoided on purpose: they
add a large cost to every round trip.

The child is hostile. Every frame is decoded strictly against the child's
message union, with the size cap checked from the length prefix before the body
is read; call ids must be consecutive; tool names must be declared; arguments,
logs and the final value are re-checked. A :class:`~bridge.protocol.Tripped`
frame (the child's tripwire fired) ends the run as ``sandbox-violation`` naming
the event. Anything else ends the run with a ``worker-exit`` outcome (or
``output-limit`` / ``invalid-output`` when that is the truthful kind) whose
message says what the child did. The endpoint never raises because of what a
child sent, and never lets a handler's exception out.

Every read of the child's pipe is a wake-up of the event loop, and is charged
where it is spent: a read that completes a frame is paid for by that frame
(which spends a budget of its own kind), and one that brings fewer than
:data:`SMALL_READ_BYTES` and completes none spends one of the run's small
reads, :data:`SMALL_READS_ALLOWED` plus one for every
:data:`BYTES_PER_SMALL_READ` bytes of the frames completed, so a child that
sends its frames in tiny pieces ends its run instead of waking the loop once
per byte, however many small frames it sends.

What a frame may cost the host is bounded before it is decoded. A log frame
is checked against the output budget from its size alone; a call's arguments
against the bytes in flight, and a final value against ``max_value_bytes``,
from the length of their JSON text. Only then is the JSON decoded and checked:
on the event loop when it is at most :data:`INLINE_DECODE_BYTES` long (a
fraction of a millisecond at worst), otherwise in a worker thread. A run whose
wall clock or abort fires meanwhile stops waiting at once; the abandoned decode
stops at its next container and its result is dropped.

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
import contextlib
import logging
import os
import time
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias, final

import anyio
import anyio.to_thread

from bridge._answers import (
    INLINE_ENCODE_NODES,
    CallHandler,
    CallReply,
    ToolCallFailed,
    encode_tool_value,
    failed_reply,
    internal_reply,
    is_delivered_cancellation,
    lossy_value_reply,
    value_frame_off_loop,
)
from bridge._child_frames import (
    ERROR_SLACK_CHARS,
    Violation,
    checked_args,
    checked_done,
    decoded_args,
    pending_bytes_violation,
    tripped_message,
)
from bridge._decoding import INLINE_DECODE_BYTES
from bridge.lossless import JsonValue, LossyJsonError, fits_inline
from bridge.protocol import (
    DEFAULT_MAX_FRAME_BYTES,
    MAX_LOG_LINES_PER_FRAME,
    PROTOCOL_VERSION,
    Call,
    ChildMessage,
    ChildMessageDecoder,
    Done,
    FrameBuffer,
    FrameTooLarge,
    Log,
    PipeClosed,
    ProtocolError,
    Ready,
    Reply,
    Run,
    Tripped,
    Where,
    bounded_repr,
    encode_frame,
    encode_value,
    peek_tag,
)
from bridge.tasks import ParkedCaller, TaskSet

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "BYTES_PER_SMALL_READ",
    "ERROR_SLACK_CHARS",
    "HOST_POLL_SECONDS",
    "INLINE_DECODE_BYTES",
    "INLINE_ENCODE_NODES",
    "LOG_SLACK_BYTES",
    "MAX_WHERE_REPORTS",
    "SMALL_READS_ALLOWED",
    "SMALL_READ_BYTES",
    "CallHandler",
    "CallReply",
    "HostEndpoint",
    "OutputCallback",
    "RunOutcome",
    "ToolCallFailed",
    "encode_tool_value",
    "is_delivered_cancellation",
    "tripped_message",
]

_logger: Final = logging.getLogger(__name__)

#: Log bytes the host accepts beyond ``Run.max_log_bytes``: room for the one
#: marker line a child adds when it cuts a program's output. The child counts
#: a line as the host does (its UTF-8 bytes and a newline), after making it
#: valid text, so nothing else may pass the budget.
LOG_SLACK_BYTES: Final = 128
#: ``Where`` frames a child may send during a run: it sends one, when its CPU
#: limit stops it. Each further frame would be host work for nothing.
MAX_WHERE_REPORTS: Final = 4

#: How long after its last reply the endpoint polls for the child's next frame
#: (see the module docstring): a fast program's next call or ``Done`` comes
#: within about 0.1 ms of the reply on 2-CPU virtual machines (measured).
HOST_POLL_SECONDS: Final = 0.0003

#: The endpoint polling on each event loop, if any: one at a time.
_pollers: Final[weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, HostEndpoint]] = (
    weakref.WeakKeyDictionary()
)

#: A pipe holds 64 KiB unless resized; reading more at once only allocates more.
_READ_CHUNK: Final = 64 * 1024

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
#: Body bytes of a Log frame that are not line text: the array and tag headers,
#: and at most 5 bytes of string header per line less the newline each counts.
_LOG_ENVELOPE_BYTES: Final = 10 + 4 * MAX_LOG_LINES_PER_FRAME

#: Receives each batch of a program's printed lines as it arrives (see :meth:`HostEndpoint.serve`).
OutputCallback: TypeAlias = "Callable[[tuple[str, ...]], None]"


@final
@dataclass(frozen=True, slots=True)
class RunOutcome:
    """How a served run ended.

    Attributes:
        value: the program's return value (``None`` when it failed).
        error: ``(kind, message)`` when the run failed, else ``None``.
        logs: the log lines received, in order.
        tool_wait_seconds: wall-clock time during which at least one tool call
            was in flight.
        child_closed: the child closed its pipe before finishing; the caller can
            replace the message with one naming the child's exit status.
    """

    value: JsonValue
    error: tuple[str, str] | None
    logs: tuple[str, ...]
    tool_wait_seconds: float
    child_closed: bool = False


def _positive(name: str, value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} must be an int; got {name}={value!r}")
    if value < 1:
        raise ValueError(f"{name} must be at least 1; got {name}={value!r}")
    return value


class _FrameTrickle(ProtocolError):
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
            _FrameTrickle: the run's small reads are over the budget.
        """
        completed, self.whole = whole > self.whole, whole
        if completed or size >= SMALL_READ_BYTES:
            return  # paid for by the frame it completed, or by its bytes
        self.small += 1
        allowed = SMALL_READS_ALLOWED + whole // BYTES_PER_SMALL_READ
        if self.small > allowed:
            raise _FrameTrickle(
                f"the child sent its frames in tiny pieces: {self.small} reads of its pipe "
                f"brought fewer than {SMALL_READ_BYTES} bytes each and completed no frame, "
                f"more than the {allowed} allowed for {whole} bytes of whole frames "
                "(a child writes each frame whole)"
            )


def _undeclared_tool(name: str) -> Violation:
    # bounded_repr cuts the name before it makes its repr: a forged name can
    # be as long as a frame, ten characters of repr per character.
    return Violation(
        "worker-exit",
        f"the child called tool {bounded_repr(name)}, which its program was not given",
    )


@final
class HostEndpoint:
    """Speaks the protocol with one child over its two pipe fds.

    The caller owns the fds (and closes them); the endpoint makes them
    non-blocking. A child serves one run: call :meth:`receive_ready`, then
    :meth:`serve` once. :attr:`logs` and :attr:`tool_wait_seconds` are readable
    at any time, so a caller that cancels :meth:`serve` (a timeout) still has
    the output received so far.

    Args:
        read_fd: the pipe the child writes to.
        write_fd: the pipe the child reads from.
        max_frame_bytes: the largest frame accepted from the child.
    """

    __slots__ = (
        "_busy_since",
        "_callers",
        "_decoder",
        "_early",
        "_frames",
        "_idle_callers",
        "_in_flight",
        "_log_bytes",
        "_logs",
        "_max_pending_bytes",
        "_on_output",
        "_pending_bytes",
        "_poll",
        "_poll_loop",
        "_read_ended",
        "_read_failure",
        "_read_fd",
        "_read_first",
        "_reader_loop",
        "_reads",
        "_replied_at",
        "_replies",
        "_scope",
        "_served",
        "_stack",
        "_tasks",
        "_violation",
        "_wait_total",
        "_waiter",
        "_where",
        "_write_fd",
        "_write_lock",
        "_writers",
    )

    def __init__(
        self, read_fd: int, write_fd: int, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
    ) -> None:
        _positive("max_frame_bytes", max_frame_bytes)
        self._read_fd = read_fd
        self._write_fd = write_fd
        os.set_blocking(read_fd, False)
        os.set_blocking(write_fd, False)
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
        self._write_lock = anyio.Lock(fast_acquire=True)
        self._writers = 0  # tasks writing through the lock (the pipe was full)
        self._logs: list[str] = []
        self._on_output: OutputCallback | None = None
        self._log_bytes = 0
        self._in_flight = 0
        # Tasks started: callers (each parks until released or cancelled) and
        # writers of replies the pipe did not take at once.
        self._callers = 0
        self._tasks: TaskSet | None = None  # those tasks, from the first that is needed
        self._stack: contextlib.AsyncExitStack | None = None  # where serve() leaves them
        # Calls a handler took in start_call and has not answered, by id.
        self._replies: dict[int, CallReply] = {}
        self._pending_bytes = 0
        self._max_pending_bytes = 0
        self._busy_since = 0.0
        self._wait_total = 0.0
        self._violation: Violation | None = None
        self._scope: anyio.CancelScope | None = None
        self._served = False
        # The run sent ahead of serve() (see send_run): the run, and what of its
        # frame the pipe did not take or why the write failed.
        self._early: tuple[Run, bytes | OSError] | None = None
        self._where: int | None = None
        # Caller tasks parked between calls, each with its task: a call frame
        # wakes one instead of spawning a task, which costs several times more.
        self._idle_callers: list[tuple[ParkedCaller[_PendingCall], asyncio.Task[Any]]] = []

    @property
    def logs(self) -> tuple[str, ...]:
        """The log lines received so far."""
        return tuple(self._logs)

    @property
    def reported_line(self) -> int | None:
        """The last line the child said its program was on (``Where``), unchecked."""
        return self._where

    @property
    def tool_wait_seconds(self) -> float:
        """Time so far during which at least one tool call was in flight."""
        if self._in_flight:
            return self._wait_total + (time.monotonic() - self._busy_since)
        return self._wait_total

    # ------------------------------------------------------------------ reading

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
        reads ahead by at most one chunk past :data:`_READ_CHUNK` buffered bytes
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
            if frames.pending >= _READ_CHUNK:
                self._stop_reading()
            return
        elif not frames.complete:
            return  # a frame still arriving: wake the reader once it is whole
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def _read_chunk(self) -> bool:
        """Read at most one chunk from the pipe; ``False`` if it held nothing yet."""
        try:
            data = os.read(self._read_fd, _READ_CHUNK)
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

    async def receive_ready(self) -> Ready:
        """Wait for the child's :class:`Ready` and check its protocol version.

        Put a time limit around this call (``anyio.fail_after``).

        Raises:
            ProtocolError: the child sent something else, an oversized or
                undecodable frame, another protocol version, or closed its pipe.
        """
        try:
            message = await self._next_message()
        finally:
            # Nothing is read while the child waits for its run.
            self._stop_reading()
        if not isinstance(message, Ready):
            raise ProtocolError(
                f"expected Ready from the child, got {type(message).__name__}"
            )
        if message.version != PROTOCOL_VERSION:
            raise ProtocolError(
                f"the child speaks protocol version {message.version}, the host "
                f"{PROTOCOL_VERSION}; both sides must come from the same installation"
            )
        return message

    # ------------------------------------------------------------------ writing

    async def _send(self, frame: bytes) -> None:
        # Frames go out whole and in order; a caller returns only once its
        # frame is in the pipe, so a child that stops reading keeps its calls
        # in flight (and runs into max_pending_calls) instead of growing a
        # backlog here. The common case, a pipe with room and no other writer
        # waiting, writes at once without touching the lock.
        rest = self._write_now(frame)
        if not rest:
            return
        # No await since the partial write: nobody can have slipped in, and
        # the lock is free (only waiting writers take it).
        self._writers += 1
        await self._write_rest(rest)

    def _write_now(self, frame: bytes) -> bytes | memoryview:
        """Write what the pipe takes now, unless a writer waits; return what is left.

        What is left is a view of ``frame``, not a copy (a frame can be 16 MiB).

        Raises:
            OSError: the write failed (the child is gone).
        """
        if self._writers:
            return frame
        try:
            written = os.write(self._write_fd, frame)
        except BlockingIOError:
            return frame
        return memoryview(frame)[written:] if written < len(frame) else b""

    async def _write_rest(self, rest: bytes | memoryview) -> None:
        """Write ``rest`` once the writers before it are done; for a writer counted already."""
        try:
            async with self._write_lock:
                view = memoryview(rest)
                while view:
                    try:
                        written = os.write(self._write_fd, view)
                    except BlockingIOError:
                        written = 0
                    view = view[written:]
                    if view:
                        await anyio.wait_writable(self._write_fd)
        finally:
            self._writers -= 1

    # ------------------------------------------------------------------ serving

    def send_run(self, run: Run) -> None:
        """Write ``run``'s frame now, ahead of :meth:`serve` with the same ``run``.

        The child can start on its program while the caller finishes its own
        preparations, instead of after them (when the scheduler runs the woken
        child on the caller's CPU first, the two do not overlap and nothing is
        lost either). What the pipe does not take at once, and a failed write,
        are left to :meth:`serve`, which sends the rest or reports the failure
        as it would its own.

        Raises:
            RuntimeError: a run was already sent or served.
        """
        if self._served or self._early is not None:
            raise RuntimeError("this endpoint has already been sent a run")
        frame = encode_frame(run)
        try:
            written = os.write(self._write_fd, frame)
        except BlockingIOError:
            written = 0
        except OSError as exc:
            self._early = (run, exc)
            return
        self._early = (run, frame[written:])

    async def serve(
        self,
        run: Run,
        handler: CallHandler,
        *,
        max_pending_calls: int = 128,
        max_pending_bytes: int = 64 * 1024 * 1024,
        on_output: OutputCallback | None = None,
    ) -> RunOutcome:
        """Send ``run`` to the child and serve its calls until it is done.

        Args:
            run: the program and its limits; ``run.max_log_bytes`` and
                ``run.max_value_bytes`` are enforced again here.
            handler: serves the tool calls.
            max_pending_calls: calls the child may have in flight (a call is in
                flight until its reply is in the pipe).
            max_pending_bytes: bytes of arguments and replies of the calls in flight.
            on_output: called on the event loop with each batch of printed
                lines as it arrives (the child batches them for at most a few
                milliseconds), in order, and only with lines within the output
                cap. It must not block. If it raises, the error is logged and it
                is not called again for this run; the lines are still in the
                outcome's ``logs``.

        Returns:
            The outcome. Handler tasks still running when the child finishes
            (or breaks the protocol) are cancelled before this returns.

        Raises:
            RuntimeError: the endpoint has already served a run, or was sent
                another run by :meth:`send_run`.

        Nothing the child sends makes this raise: a misbehaving child is
        reported in the outcome. Cancellation propagates as is.
        """
        _positive("max_pending_calls", max_pending_calls)
        _positive("max_pending_bytes", max_pending_bytes)
        if self._served:
            raise RuntimeError(
                "this endpoint has already served a run; a child runs one program, "
                "so start a new child for the next one"
            )
        early = self._early
        if early is not None and early[0] is not run:
            raise RuntimeError("serve() was given another run than the one send_run() sent")
        self._served = True
        self._read_first = True
        self._on_output = on_output
        value: JsonValue = None
        error: tuple[str, str] | None = None
        closed = False
        try:
            with anyio.CancelScope() as scope:
                self._scope = scope
                # The caller tasks are made at the first call (a run with none
                # needs none); leaving waits for all of them to end.
                async with contextlib.AsyncExitStack() as callers:
                    self._stack = callers
                    try:
                        if early is None:
                            await self._send(encode_frame(run))
                        elif isinstance(early[1], OSError):
                            raise early[1]
                        elif early[1]:
                            await self._send(early[1])
                        value, error = await self._serve(
                            run, handler, max_pending_calls, max_pending_bytes
                        )
                    except Violation as exc:
                        self._violation = exc
                    except _FrameTrickle as exc:
                        self._violation = Violation("worker-exit", str(exc))
                    except FrameTooLarge as exc:
                        self._violation = Violation(
                            "worker-exit",
                            f"the child announced a frame of {exc.size} bytes, over the "
                            f"limit of {exc.limit} bytes (max_frame_bytes)",
                        )
                    except PipeClosed as exc:
                        self._violation = Violation(
                            "worker-exit",
                            f"the child exited or closed its pipe before finishing the run "
                            f"({exc})",
                            closed=True,
                        )
                    except ProtocolError as exc:
                        self._violation = Violation(
                            "worker-exit", f"the child broke the protocol: {exc}"
                        )
                    except OSError as exc:
                        self._violation = Violation(
                            "worker-exit",
                            f"the child's pipe failed before the run finished ({exc})",
                            closed=True,
                        )
                    self._let_callers_go()
        finally:
            # A call a handler took and has not answered is cancelled, however
            # the run ended: the handler hears of it, and its answer is dropped
            # (the caller closes the pipes once this returns).
            self._end_calls()
            self._stack = None
            self._stop_reading()
            self._scope = None
            self._settle_clock()
            self._replied_at = 0.0
            self._stop_polling()
        violation = self._violation
        if violation is not None:
            value, error, closed = None, (violation.kind, violation.message), violation.closed
        return RunOutcome(value, error, tuple(self._logs), self._wait_total, closed)

    def _let_callers_go(self) -> None:
        # Parked callers wait for a call that will not come: they are let go,
        # and the tasks are cancelled only when a handler (or a reply's
        # writer) is still running (anyio's cancel costs a wake-up per task, a
        # noticeable part of a run with one call). A caller let go has nothing
        # left to do but return at its next step: serve does not wait for it
        # (ten of them took a loop iteration and a fifth of a millisecond to
        # end).
        tasks = self._tasks
        for parked, task in self._idle_callers:
            parked.release()
            if tasks is not None:
                tasks.forget(task)
        if tasks is not None and self._callers > len(self._idle_callers):
            tasks.cancel()
        self._idle_callers.clear()

    async def _serve(
        self,
        run: Run,
        handler: CallHandler,
        max_pending_calls: int,
        max_pending_bytes: int,
    ) -> tuple[JsonValue, tuple[str, str] | None]:
        names = frozenset(run.tool_names)
        # A name longer than every declared one is refused by its length,
        # without hashing it (a forged name can be as long as a frame).
        longest = max(map(len, names), default=0)
        start_call = getattr(handler, "start_call", None)
        log_cap = run.max_log_bytes + LOG_SLACK_BYTES
        next_id = 0
        where_reports = 0
        while True:
            # Frames already read are handled without a loop iteration between
            # them: the handlers of calls that arrived together (a child sends
            # the calls of one step in one write) start together, in the
            # order of their ids, on the next iteration. What one pass handles
            # is bounded by the read-ahead (_READ_CHUNK) and max_pending_calls.
            body = await self._next_body()
            # A log frame's budget is checked from its size, before it is decoded.
            if (
                peek_tag(body) == "log"
                and self._log_bytes + len(body) - _LOG_ENVELOPE_BYTES > log_cap
            ):
                raise self._log_violation(run)
            message = self._decoder.decode(body)
            if isinstance(message, Call):
                if message.id != next_id:
                    raise Violation(
                        "worker-exit",
                        f"the child sent call id {message.id} where id {next_id} was expected",
                    )
                next_id += 1
                if len(message.name) > longest or message.name not in names:
                    raise _undeclared_tool(message.name)
                if self._in_flight >= max_pending_calls:
                    raise Violation(
                        "worker-exit",
                        f"the child has more than {max_pending_calls} tool calls in flight "
                        "(max_pending_calls)",
                    )
                # The bytes in flight are checked before the arguments are decoded.
                size = len(message.args)
                if self._pending_bytes + size > max_pending_bytes:
                    raise pending_bytes_violation(self._pending_bytes + size, max_pending_bytes)
                if size <= INLINE_DECODE_BYTES:
                    # Short arguments (nearly all) are decoded here, without a
                    # coroutine, charged their length: max_pending_calls of them
                    # hold little whatever they decode to.
                    args = decoded_args(message)
                else:
                    # Long ones are charged what they decode to as well (a text of
                    # empty lists is twenty times its length in the host), and
                    # not decoded at all if that is over the budget.
                    args, size = await checked_args(
                        message, self._pending_bytes, max_pending_bytes
                    )
                self._call_started(size, max_pending_bytes)
                if start_call is not None and self._offer(
                    start_call, message.id, message.name, args, size
                ):
                    continue
                call = (message.id, message.name, args, size)
                if self._idle_callers:
                    self._idle_callers.pop()[0].serve(call)
                else:
                    self._callers += 1
                    self._task_set().start(self._caller(handler, call))
            elif isinstance(message, Log):
                added = sum(
                    (len(line) if line.isascii() else len(line.encode())) + 1
                    for line in message.lines
                )
                self._log_bytes += added
                if self._log_bytes > log_cap:
                    raise self._log_violation(run)
                self._logs.extend(message.lines)
                if self._on_output is not None:
                    self._deliver(message.lines)
            elif isinstance(message, Done):
                if self._replies:
                    # Calls a handler took and has not answered: its own tasks
                    # get a step with them first, as a caller task does with
                    # call_tool, so a call that came just before Done starts
                    # as it would have a moment earlier.
                    await asyncio.sleep(0)
                return await checked_done(message, run.max_value_bytes)
            elif isinstance(message, Where):
                self._where = message.line  # a CPU-limited child's last words
                where_reports += 1
                if where_reports > MAX_WHERE_REPORTS:
                    raise Violation(
                        "worker-exit",
                        f"the child sent more than {MAX_WHERE_REPORTS} line reports (Where) "
                        "during its run; a child sends one, when it is stopped",
                    )
            elif isinstance(message, Tripped):
                return None, ("sandbox-violation", tripped_message(message.event, message.detail))
            else:
                raise Violation(
                    "worker-exit", f"the child sent {type(message).__name__} during its run"
                )

    def _deliver(self, lines: tuple[str, ...]) -> None:
        callback = self._on_output
        assert callback is not None
        try:
            callback(lines)
        except Exception:
            # The listener is the caller's; its bug must not end the run.
            self._on_output = None
            _logger.exception("the output callback raised; it gets no more lines of this run")

    @staticmethod
    def _log_violation(run: Run) -> Violation:
        return Violation(
            "output-limit",
            f"the program's output exceeded {run.max_log_bytes} bytes "
            f"(max_log_bytes, plus {LOG_SLACK_BYTES} bytes of slack)",
        )

    async def _caller(self, handler: CallHandler, call: _PendingCall) -> None:
        """Serve ``call``, then park and serve whichever call wakes this task next.

        A parked caller returns when the run is over and it is released.
        """
        parked: ParkedCaller[_PendingCall] = ParkedCaller()
        task = asyncio.current_task()
        assert task is not None
        next_call: _PendingCall | None = call
        while next_call is not None:
            await self._handle_call(handler, *next_call)
            self._idle_callers.append((parked, task))
            next_call = await parked.next_call()

    def _task_set(self) -> TaskSet:
        """The run's tasks (callers, reply writers), made at the first; serve waits for them."""
        tasks = self._tasks
        if tasks is None:
            stack = self._stack
            assert stack is not None, "tasks are started only while serve() runs"
            tasks = self._tasks = TaskSet()
            stack.push_async_exit(tasks.__aexit__)
            # Left first (a stack unwinds in reverse), however the run ends:
            # an answer that comes while the tasks wind down starts none that
            # the wait would not cancel (a writer to a child that stopped
            # reading would hold the run forever).
            stack.callback(self._end_calls)
        return tasks

    def _end_calls(self) -> None:
        """Cancel the calls a handler took and has not answered; their answers are dropped."""
        replies, self._replies = self._replies, {}
        for reply in replies.values():
            reply._cancelled()

    def _offer(
        self,
        start_call: Callable[[str, JsonValue, CallReply], bool],
        call_id: int,
        name: str,
        args: JsonValue,
        size: int,
    ) -> bool:
        """Offer a call to the handler's ``start_call``; whether it took it."""
        reply = self._replies[call_id] = CallReply(self, call_id, name, size)
        try:
            taken = start_call(name, args, reply)
        except Exception as exc:
            reply.crashed(exc)
            return True
        if taken is not True and reply._open:
            del self._replies[call_id]
            return False
        return True

    async def _handle_call(
        self, handler: CallHandler, call_id: int, name: str, args: JsonValue, size: int
    ) -> None:
        reply_size = 0
        reply: Reply | bytes
        try:
            try:
                result = await handler.call_tool(name, args)
            except ToolCallFailed as exc:
                reply = failed_reply(call_id, exc)
            except BaseException as exc:
                if is_delivered_cancellation(exc):
                    raise
                _logger.exception("tool %r raised while serving a sandboxed program", name)
                reply = internal_reply(call_id, name)
            else:
                try:
                    # A large value (many values or long strings) is checked,
                    # encoded and made into its frame in a worker thread.
                    if fits_inline(result):
                        reply = Reply(call_id, value=encode_value(result, accept_tuples=True))
                    else:
                        reply = await value_frame_off_loop(call_id, result)
                except LossyJsonError as exc:
                    reply = lossy_value_reply(call_id, name, exc)
            frame, reply_size = self._reply_frame(call_id, name, reply)
            if frame is not None:
                await self._send(frame)
        except OSError:
            pass  # the child is gone; the read loop sees the end of the pipe
        except Exception:  # never let a reply crash the host
            self._cannot_reply(call_id, name)
        finally:
            self._call_finished(size + reply_size)

    def _answer_value(self, call_id: int, name: str, size: int, value: JsonValue) -> None:
        """Answer a call with a handler's value; a large one is checked off the loop, in a task."""
        if not fits_inline(value):
            self._callers += 1
            self._task_set().start(self._answer_later(call_id, name, size, value))
            return
        try:
            reply = Reply(call_id, value=encode_value(value, accept_tuples=True))
        except LossyJsonError as exc:
            reply = lossy_value_reply(call_id, name, exc)
        except Exception:  # never let a reply crash the host
            self._cannot_reply(call_id, name)
            self._call_finished(size)
            return
        self._answer(call_id, name, size, reply)

    async def _answer_later(self, call_id: int, name: str, size: int, value: JsonValue) -> None:
        reply: Reply | bytes
        try:
            # Only a value that does not fit inline comes here: no need to weigh it again.
            reply = await value_frame_off_loop(call_id, value)
        except LossyJsonError as exc:
            reply = lossy_value_reply(call_id, name, exc)
        except Exception:
            self._cannot_reply(call_id, name)
            self._call_finished(size)
            return
        except BaseException:
            self._call_finished(size)
            raise
        self._answer(call_id, name, size, reply)

    def _answer(self, call_id: int, name: str, size: int, reply: Reply | bytes) -> None:
        """Write ``reply`` from the task that has it; a task of ours writes what the pipe left."""
        frame, reply_size = self._reply_frame(call_id, name, reply)
        rest: bytes | memoryview = b""
        # A failed write: the child is gone, and the read loop sees the end of the pipe.
        if frame is not None:
            with contextlib.suppress(OSError):
                rest = self._write_now(frame)
        if not rest:
            self._call_finished(size + reply_size)
            return
        self._writers += 1  # from now on, no later frame may overtake this one
        self._callers += 1
        self._task_set().start(self._write_reply_rest(rest, size + reply_size))

    async def _write_reply_rest(self, rest: bytes | memoryview, accounted: int) -> None:
        try:
            await self._write_rest(rest)
        except OSError:
            pass  # the child is gone; the read loop sees the end of the pipe
        finally:
            self._call_finished(accounted)

    def _cannot_reply(self, call_id: int, name: str) -> None:
        """A reply could not be made (a bug, or a value the encoder chokes on): the run breaks."""
        _logger.exception("replying to call %d of tool %r failed", call_id, name)
        self._fail(Violation("worker-exit", f"the reply to call {call_id} could not be sent"))

    def _reply_frame(
        self, call_id: int, name: str, reply: Reply | bytes
    ) -> tuple[bytes | None, int]:
        """``reply``'s frame (a failure instead if it is over the frame cap), and its size.

        ``reply`` may be its frame already (made in a worker thread).

        The frame's bytes count as in flight from here. ``None`` when the run
        breaks instead: the bytes in flight are over their limit, or the frame
        could not be made.
        """
        try:
            frame = reply if isinstance(reply, bytes) else encode_frame(reply)
            if len(frame) > self._frames_limit:
                frame = encode_frame(
                    Reply(
                        call_id,
                        error=f'the value of tool "{name}" is {len(frame)} bytes, over the '
                        f"limit of {self._frames_limit} bytes per frame (max_frame_bytes)",
                    )
                )
        except Exception:  # never let a reply crash the host
            self._cannot_reply(call_id, name)
            return None, 0
        reply_size = len(frame)
        self._pending_bytes += reply_size
        violation = self._pending_bytes_violation()
        if violation is not None:
            self._fail(violation)
            return None, reply_size
        return frame, reply_size

    async def read_where(self, *, max_bytes: int = 1 << 20) -> int | None:
        """After a stopped :meth:`serve`: read the child's frames until it reports its line.

        The caller has asked the child (a signal) and bounds the wait with a
        deadline; this reads at most ``max_bytes`` more, and no more small
        reads than the run's budget leaves (see :class:`_ReadBudget`), skips
        every other message (no call is served any more), and returns ``None``
        when the child closes its pipe or breaks the protocol instead. The line
        is the child's word: check it against the program's source.
        """
        read = 0
        frames = self._frames
        try:
            while True:
                body = frames.next_body()
                if body is not None:
                    message = self._decoder.decode(body)
                    if isinstance(message, Where):
                        self._where = message.line
                        return message.line
                    continue
                if read >= max_bytes:
                    return None
                await anyio.wait_readable(self._read_fd)
                try:
                    data = os.read(self._read_fd, _READ_CHUNK)
                except BlockingIOError:
                    continue
                if not data:
                    return None
                read += len(data)
                self._take(data)
        except (ProtocolError, OSError):
            return None

    @property
    def _frames_limit(self) -> int:
        return self._frames.max_frame_bytes

    def _fail(self, violation: Violation) -> None:
        # A handler task found the run broken: record why and stop the read loop.
        if self._violation is None:
            self._violation = violation
        if self._scope is not None:
            self._scope.cancel()

    # ------------------------------------------------------------------ accounting

    def _call_started(self, size: int, max_pending_bytes: int) -> None:
        if self._in_flight == 0:
            self._busy_since = time.monotonic()
        self._in_flight += 1
        self._pending_bytes += size
        self._max_pending_bytes = max_pending_bytes
        violation = self._pending_bytes_violation()
        if violation is not None:
            raise violation

    def _pending_bytes_violation(self) -> Violation | None:
        if self._pending_bytes <= self._max_pending_bytes:
            return None
        return pending_bytes_violation(self._pending_bytes, self._max_pending_bytes)

    def _call_finished(self, size: int) -> None:
        self._pending_bytes -= size
        self._in_flight -= 1
        if self._in_flight == 0:
            now = time.monotonic()
            self._wait_total += now - self._busy_since
            # Every call is answered: the child's next frame is near. The
            # waiting reader is woken to poll for it (see _poll_once).
            self._replied_at = now
            waiter = self._waiter
            if self._poll and waiter is not None and not waiter.done():
                waiter.set_result(None)

    def _settle_clock(self) -> None:
        if self._in_flight:
            now = time.monotonic()
            self._wait_total += now - self._busy_since
            self._busy_since = now


#: A call frame handed to a caller task: id, tool name, checked arguments, frame size.
_PendingCall = tuple[int, str, JsonValue, int]


