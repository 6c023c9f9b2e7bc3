"""The child's end of the bridge: the protocol channel and the program's ``tools`` proxy.

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

What the program sees (:func:`make_bindings`):

* ``tools.name(...)`` / ``tools["odd-name"](...)``: keyword arguments or one
  positional dict. The arguments are checked and copied as lossless JSON at the
  call; awaiting the returned object sends the frame and gives the tool's value.
* ``ToolCallError``: raised by a failed call, with ``tool_name`` and ``code``.

The proxy holds nothing reachable through a public attribute: a restricted
program can only reach names without a leading underscore, and every such name
on ``tools`` is a tool. Internals live in ``__slots__`` with underscore names.

Import cost matters here (the zygote imports this module before forking), and
the module must not import anything from the host side.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import signal
import sys
import time
from typing import TYPE_CHECKING, Any, Final, final

import msgspec

from bridge.lossless import JsonValue, LossyJsonError
from bridge.protocol import (
    DEFAULT_MAX_FRAME_BYTES,
    MAX_LOG_LINES_PER_FRAME,
    PROTOCOL_VERSION,
    Call,
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
    encode_value,
    read_frame,
    write_all,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Sequence
    from types import FrameType

__all__ = [
    "CALL_BATCH_SECONDS",
    "ChildChannel",
    "ToolCallError",
    "make_bindings",
    "recv_run",
    "send_ready",
]

#: Pending log bytes that trigger an immediate flush.
_LOG_FLUSH_BYTES: Final = 32 * 1024

#: The longest a call waits in a batch when the step that started it goes on
#: computing (only in a child that flushes with ``SIGALRM``).
CALL_BATCH_SECONDS: Final = 0.001
#: Bytes of call frames a batch holds; a call that would pass it is sent at
#: once, with the batch before it (a large frame is never copied into one).
_CALL_BATCH_BYTES: Final = 64 * 1024

#: Bytes of a Log frame besides its lines' text: header and tag, and per line
#: a MessagePack string header (at most 5 bytes).
_LOG_FRAME_OVERHEAD, _LOG_LINE_OVERHEAD = 64, 5

_FAILURE_KINDS: Final = frozenset({"exception", "invalid-output", "output-limit", "compile"})


_json_encode: Final = msgspec.json.encode
_json_decode: Final = msgspec.json.decode


class ToolCallError(Exception):
    """A tool call made by the program failed.

    The message names the tool and says why: ``tool "get_customer" raised
    LookupError: no customer 7`` for an exception the tool raised,
    ``tool "search" failed (INVALID_ARGS): invalid arguments: ...`` for a
    failure with a code, or the reason the call was refused before it was sent.

    Attributes:
        tool_name: the tool that was called.
        code: an error code the host attached, or ``None``; lets a program tell
            a denial from a crash.
        type: the class name of the exception the tool raised (``"LookupError"``),
            or ``None`` when the call failed otherwise.
    """

    def __init__(
        self,
        message: str = "",
        tool_name: str = "",
        code: str | None = None,
        type: str | None = None,
    ) -> None:
        super().__init__(message)
        self.tool_name = tool_name
        self.code = code
        self.type = type


# Programs see the class as a builtin: tracebacks and reprs say `ToolCallError`,
# never the module path of the child's internals.
ToolCallError.__module__ = "builtins"


def _failure_text(name: str, reply: Reply) -> str:
    """The message of the ToolCallError for a failed reply: it names the tool and the cause."""
    detail = reply.error or ""
    kind = reply.exception_type
    where = f"tool {_quoted(name)}"
    if kind is not None:
        # A bare `raise RuntimeError()` has no message of its own: the host sent the type name.
        detail = kind if detail in ("", kind) else f"{kind}: {detail}"
        if reply.code is None:
            return f"{where} raised {detail}"
    elif reply.code is None and detail.startswith(f"{where} "):
        return detail  # the host's own text already names the tool
    head = f"{where} failed" + (f" ({reply.code})" if reply.code is not None else "")
    return f"{head}: {detail}" if detail else head


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


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
        "_read_fd",
        "_report",
        "_step_loop",
        "_step_sent",
        "_timer_armed",
        "_write_fd",
        "peer_max_frame_bytes",
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
        self._calls: _Calls | None = None
        # The loop made by new_event_loop, on which calls are batched; whether
        # its current step has sent a call; the calls the step holds back.
        self._step_loop: asyncio.AbstractEventLoop | None = None
        self._step_sent = False
        self._batch: list[bytes] = []
        self._batch_bytes = 0
        #: The host's frame cap, learnt from :class:`Run`.
        self.peer_max_frame_bytes = DEFAULT_MAX_FRAME_BYTES
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
        self._busy = True
        try:
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
            self._busy = False
            if self._report is not None:
                self._send_report()

    def flush_logs(self) -> None:
        """Send every pending log line (and batched call) now."""
        if self._lines or self._batch:
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
            self._host_gone(exc)

    # ------------------------------------------------------------------ end of run

    def send_done(self, value: JsonValue = None, error: tuple[str, str] | None = None) -> None:
        """Send the run's outcome (after the pending log lines); the last frame of a run.

        Args:
            value: the program's checked return value (ignored when ``error`` is set).
            error: ``(kind, message)`` when the program failed; a kind the
                protocol does not carry from a child is sent as ``exception``.
        """
        if self._alarm:
            signal.setitimer(signal.ITIMER_REAL, 0)
        if error is not None:
            kind, message = error
            if kind not in _FAILURE_KINDS:
                message = f"{kind}: {message}"
                kind = "exception"
            done = Done(error=Failure(kind, message))  # type: ignore[arg-type]
        else:
            try:
                done = Done(value=_json_encode(value))
            except (TypeError, ValueError) as exc:
                done = Done(error=Failure("invalid-output", f"the value cannot be encoded: {exc}"))
        self.send(done)

    # ------------------------------------------------------------------ calls

    def new_event_loop(self) -> asyncio.AbstractEventLoop:
        """A new event loop for the run, with the reply reader registered on it.

        On this loop the calls started in one step are batched (see the module
        docstring): its selector sends the batch before the loop waits.
        """
        loop = asyncio.SelectorEventLoop(_StepSelector(self._end_step))
        self.listen_on(loop)
        self._step_loop = loop
        return loop

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

    def _end_step(self) -> bool:
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
                self._host_gone(exc)
                return True
        return False

    def _host_gone(self, exc: OSError) -> None:
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
        self._detach()
        loop.add_reader(self._read_fd, self._on_readable)
        self._loop = loop

    def _attach(self, calls: _Calls) -> None:
        """Make sure replies are read on the running loop."""
        loop = asyncio.get_running_loop()
        self._calls = calls
        if self._loop is loop:
            return
        self._detach()
        loop.add_reader(self._read_fd, self._on_readable)
        self._loop = loop

    def _detach(self) -> None:
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            loop.remove_reader(self._read_fd)

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
            self._detach()
            if calls is not None:
                calls.fail_all(f"the connection to the host failed: {exc}")


class _StepSelector(selectors.DefaultSelector):
    """The selector of :meth:`ChildChannel.new_event_loop`: ends each step before the wait.

    asyncio's loop calls ``select`` at the start of each iteration, once the
    callbacks of the one before (a step of every ready task) have run: the
    calls those steps held back go out here, in one write, before the loop may
    block.
    """

    def __init__(self, end_step: Callable[[], bool]) -> None:
        super().__init__()
        self._end_step = end_step

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        # The loop chose the timeout before this call: should ending the step
        # schedule callbacks (failed calls), it must only poll.
        if self._end_step():
            timeout = 0
        return super().select(timeout)


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
    return message


# ---------------------------------------------------------------------- tools proxy

def _display(name: str) -> str:
    return f"tools.{name}" if name.isidentifier() else f"tools[{name!r}]"


@final
class _Calls:
    """The calls of one run: ids, futures waiting for replies, unawaited calls."""

    __slots__ = (
        "channel", "futures", "names", "next_id", "over", "serial", "tools", "unawaited"
    )

    def __init__(self, channel: ChildChannel, names: frozenset[str]) -> None:
        self.channel = channel
        self.names = names
        self.tools: object = None  # the program's ``tools``, set by make_bindings
        self.next_id = 0
        self.serial = 0
        self.futures: dict[int, tuple[asyncio.Future[JsonValue], str]] = {}
        self.unawaited: dict[int, _ToolCall] = {}
        self.over = False

    def start(self, call: _ToolCall) -> asyncio.Future[JsonValue]:
        if call._started:
            raise RuntimeError(f"cannot await the same {_display(call._name)}(...) call twice")
        call._started = True
        self.unawaited.pop(call._serial, None)
        name = call._name
        if self.over:
            raise ToolCallError(
                f"the program has finished; {_display(name)}(...) was not called", name
            )
        if call._error is not None:
            raise ToolCallError(call._error, name)
        frame = encode_frame(Call(self.next_id, name, call._args))
        limit = self.channel.peer_max_frame_bytes
        if len(frame) > limit:
            raise ToolCallError(
                f"tool {_quoted(name)} was not called: its arguments are {len(call._args)} "
                f"bytes as JSON, over the limit of {limit} bytes per call frame "
                "(max_frame_bytes); send less data per call",
                name,
            )
        self.channel._attach(self)
        future: asyncio.Future[JsonValue] = asyncio.get_running_loop().create_future()
        self.futures[self.next_id] = (future, name)
        self.next_id += 1
        try:
            self.channel.send_call(frame)
        except OSError as exc:
            self.futures.pop(self.next_id - 1, None)
            # Calls batched before it went down with the write.
            self.channel._host_gone(exc)
            raise ToolCallError(
                f"{_display(name)}(...) could not be sent: the host is gone ({exc})", name
            ) from None
        return future

    def resolve(self, reply: Reply) -> None:
        entry = self.futures.pop(reply.id, None)
        if entry is None:
            return
        future, name = entry
        if future.done():  # the program cancelled the call
            return
        if reply.error is not None:
            future.set_exception(
                ToolCallError(_failure_text(name, reply), name, reply.code, reply.exception_type)
            )
            return
        try:
            future.set_result(_json_decode(reply.value))
        except msgspec.DecodeError as exc:
            future.set_exception(
                ToolCallError(f"the host sent an undecodable value for {name!r}: {exc}", name)
            )

    def fail_all(self, message: str) -> None:
        futures, self.futures = self.futures, {}
        for future, name in futures.values():
            if not future.done():
                future.set_exception(ToolCallError(f"tool {_quoted(name)} failed: {message}", name))

    def finish(self) -> str | None:
        self.over = True
        self.channel._detach()
        if not self.unawaited:
            return None
        calls = sorted(
            self.unawaited.values(), key=lambda c: (c._line is None, c._line or 0, c._serial)
        )
        self.unawaited.clear()
        where = [
            f"{_display(c._name)}(...) at "
            + ("an unknown line" if c._line is None else f"line {c._line}")
            for c in calls
        ]
        if len(where) == 1:
            head = f"tool call {where[0]} was never awaited"
        else:
            head = f"{len(where)} tool calls were never awaited: {', '.join(where)}"
        return (
            f"{head}; a tool call does nothing until it is awaited: write "
            "`await tools.name(...)` or pass the calls to `asyncio.gather(...)`"
        )


@final
class _ToolCall:
    """What ``tools.name(...)`` returns: awaiting it sends the call and gives the value.

    Not a coroutine (it has no ``cr_frame``); its state is in underscore slots.
    """

    __slots__ = ("_args", "_calls", "_error", "_line", "_name", "_serial", "_started")

    def __init__(
        self, calls: _Calls, name: str, args: bytes, error: str | None, line: int | None
    ) -> None:
        self._calls = calls
        self._name = name
        self._args = args
        self._error = error
        self._line = line
        self._started = False
        self._serial = calls.serial
        calls.serial += 1
        calls.unawaited[self._serial] = self

    def __await__(self) -> Generator[Any, None, JsonValue]:
        return self._calls.start(self).__await__()

    def __repr__(self) -> str:
        return f"<pending call {_display(self._name)}(...)>"


@final
class _ToolStub:
    """``tools.name``: a callable that builds a :class:`_ToolCall`."""

    __slots__ = ("_calls", "_name")

    def __init__(self, calls: _Calls, name: str) -> None:
        self._calls = calls
        self._name = name

    def __call__(self, *args: object, **kwargs: object) -> _ToolCall:
        name = self._name
        payload = args[0] if args else kwargs
        if args:
            problem = (
                f"not {len(args)} positional arguments" if len(args) > 1
                else "not both" if kwargs
                else None if isinstance(payload, dict)
                else f"not a positional {type(payload).__name__}"
            )
            if problem is not None:
                raise TypeError(
                    f"{_display(name)}() takes keyword arguments or one dict of arguments, "
                    + problem
                )
        error: str | None = None
        try:
            # As json.dumps would: a tuple is an array, a Counter an object.
            encoded = encode_value(payload, accept_collections=True)
        except LossyJsonError as exc:
            encoded = b""
            error = (
                f"tool {_quoted(name)} was not called: its arguments must be lossless JSON: {exc}"
            )
        calls = self._calls
        # The line of the call, for "never awaited" messages. The program's
        # frame is the caller, or a few frames up when a guard (e.g.
        # RestrictedPython's ``_apply_`` for ``**kwargs``) sits in between: the
        # frame whose globals hold the program's ``tools``. The walk stays in
        # this function and uses only attribute reads: the child's tripwire
        # exempts this function's sys._getframe, so the frame must reach no
        # other function (a module global or builtin a program could replace).
        frame: FrameType | None = sys._getframe(1)
        line: int | None = None
        depth = 0
        while frame is not None and depth < 8:
            if frame.f_globals.get("tools") is calls.tools:
                line = frame.f_lineno
                break
            frame = frame.f_back
            depth += 1
        frame = None
        return _ToolCall(calls, name, encoded, error, line)

    def __repr__(self) -> str:
        return f"<tool {_display(self._name)}>"


@final
class _Tools:
    """The program's ``tools``: every public attribute is a declared tool."""

    __slots__ = ("_calls",)

    def __init__(self, calls: _Calls) -> None:
        object.__setattr__(self, "_calls", calls)

    def __getattribute__(self, name: str) -> Any:
        calls: _Calls = object.__getattribute__(self, "_calls")
        if name in calls.names:
            return _ToolStub(calls, name)
        if name[:1] == "_":
            return object.__getattribute__(self, name)
        raise AttributeError(f"no tool named {name!r}; {_declared(calls.names)}")

    def __getitem__(self, name: object) -> _ToolStub:
        calls: _Calls = object.__getattribute__(self, "_calls")
        if isinstance(name, str) and name in calls.names:
            return _ToolStub(calls, name)
        raise KeyError(f"no tool named {name!r}; {_declared(calls.names)}")

    def __contains__(self, name: object) -> bool:
        return name in object.__getattribute__(self, "_calls").names

    def __iter__(self) -> Any:
        raise TypeError(
            "tools is not iterable; call a tool as tools.name(...) or tools['name'](...)"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tools is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("tools is read-only")

    def __dir__(self) -> list[str]:
        return sorted(object.__getattribute__(self, "_calls").names)

    def __repr__(self) -> str:
        names = object.__getattribute__(self, "_calls").names
        return f"<tools: {', '.join(sorted(names))}>"


def _declared(names: frozenset[str]) -> str:
    if not names:
        return "this program has no tools"
    return "declared tools: " + ", ".join(sorted(map(repr, names)))


def make_bindings(
    channel: ChildChannel, tool_names: Sequence[str]
) -> tuple[dict[str, object], Callable[[], str | None]]:
    """Build the names a program gets for its tools, and the end-of-run check.

    Args:
        channel: the child's channel (after :func:`recv_run`).
        tool_names: the tools the program may call.

    Returns:
        ``(bindings, after_run)``: ``bindings`` maps ``tools`` and
        ``ToolCallError``; ``after_run()``, called once the program has
        finished, refuses further calls and returns a message naming every call
        that was never awaited (with its line), or ``None``.
    """
    calls = _Calls(channel, frozenset(tool_names))
    calls.tools = tools = _Tools(calls)
    return {"tools": tools, "ToolCallError": ToolCallError}, calls.finish
