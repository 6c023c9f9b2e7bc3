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

What a frame may cost the host is bounded before it is decoded. A log frame
is checked against the output budget from its size alone; a call's arguments
against the bytes in flight, and a final value against ``max_value_bytes``,
from the length of their JSON text. Only then is the JSON decoded and checked:
on the event loop when it is at most :data:`INLINE_DECODE_BYTES` long (a
fraction of a millisecond at worst), otherwise in a worker thread. A run whose
wall clock or abort fires meanwhile stops waiting at once; the abandoned decode
stops at its next container and its result is dropped.

The endpoint is built in layers, each a module, each extending the one below:

* :class:`~bridge._pipe_reader.PipeReader` reads the child's frames, charges
  every read of its pipe to the run's budget of small reads, and polls for
  the child's next frame when it is near (:mod:`bridge._pipe_reader`);
* :class:`~bridge._call_table.CallTable` keeps the calls in flight (their
  bytes, the time they take, the tasks that serve them), makes their replies
  and writes frames to the child (:mod:`bridge._call_table`);
* :class:`HostEndpoint`, here, is a run's life: the handshake, the ``Run``
  frame, the frame loop that checks each frame against its budget and hands
  each call on, the run's outcome, and the child's line report after a stop.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias, final

import anyio

from bridge._answers import (
    INLINE_ENCODE_NODES,
    CallHandler,
    CallReply,
    ToolCallFailed,
    encode_tool_value,
    is_delivered_cancellation,
)
from bridge._call_table import CallTable
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
from bridge._pipe_reader import (
    BYTES_PER_SMALL_READ,
    HOST_POLL_SECONDS,
    READ_CHUNK,
    SMALL_READ_BYTES,
    SMALL_READS_ALLOWED,
    FrameTrickle,
)
from bridge.protocol import (
    DEFAULT_MAX_FRAME_BYTES,
    MAX_LOG_LINES_PER_FRAME,
    PROTOCOL_VERSION,
    Call,
    Done,
    FrameTooLarge,
    Log,
    PipeClosed,
    ProtocolError,
    Ready,
    Run,
    Tripped,
    Where,
    bounded_repr,
    encode_frame,
    peek_tag,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.lossless import JsonValue

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


def _undeclared_tool(name: str) -> Violation:
    # bounded_repr cuts the name before it makes its repr: a forged name can
    # be as long as a frame, ten characters of repr per character.
    return Violation(
        "worker-exit",
        f"the child called tool {bounded_repr(name)}, which its program was not given",
    )


@final
class HostEndpoint(CallTable):
    """Speaks the protocol with one child over its two pipe fds.

    The caller owns the fds (and closes them); the endpoint makes them
    non-blocking. A child serves one run: call :meth:`receive_ready`, then
    :meth:`serve` once. :attr:`logs` and :attr:`tool_wait_seconds` are readable
    at any time, so a caller that cancels :meth:`serve` (a timeout) still has
    the output received so far.

    Its reading (:class:`~bridge._pipe_reader.PipeReader`) and its calls in
    flight (:class:`~bridge._call_table.CallTable`) are the layers it extends;
    this class is the run's life, from the handshake to the outcome.

    Args:
        read_fd: the pipe the child writes to.
        write_fd: the pipe the child reads from.
        max_frame_bytes: the largest frame accepted from the child.
    """

    __slots__ = (
        "_early",
        "_log_bytes",
        "_logs",
        "_on_output",
        "_served",
        "_where",
    )

    def __init__(
        self, read_fd: int, write_fd: int, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES
    ) -> None:
        _positive("max_frame_bytes", max_frame_bytes)
        super().__init__(read_fd, write_fd, max_frame_bytes=max_frame_bytes)
        self._logs: list[str] = []
        self._on_output: OutputCallback | None = None
        self._log_bytes = 0
        self._served = False
        # The run sent ahead of serve() (see send_run): the run, and what of its
        # frame the pipe did not take or why the write failed.
        self._early: tuple[Run, bytes | OSError] | None = None
        self._where: int | None = None

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
                    except FrameTrickle as exc:
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
            # is bounded by the read-ahead (READ_CHUNK) and max_pending_calls.
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

    async def read_where(self, *, max_bytes: int = 1 << 20) -> int | None:
        """After a stopped :meth:`serve`: read the child's frames until it reports its line.

        The caller has asked the child (a signal) and bounds the wait with a
        deadline; this reads at most ``max_bytes`` more, and no more small
        reads than the run's budget leaves (see
        :class:`~bridge._pipe_reader._ReadBudget`), skips every other message
        (no call is served any more), and returns ``None`` when the child
        closes its pipe or breaks the protocol instead. The line is the
        child's word: check it against the program's source.
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
                    data = os.read(self._read_fd, READ_CHUNK)
                except BlockingIOError:
                    continue
                if not data:
                    return None
                read += len(data)
                self._take(data)
        except (ProtocolError, OSError):
            return None
