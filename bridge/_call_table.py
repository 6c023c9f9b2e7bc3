"""The host's table of a run's calls in flight: their accounting, their answers, the frames out.

:class:`CallTable` is the layer of :class:`~bridge.host.HostEndpoint` between
reading the child's frames (:class:`~bridge._pipe_reader.PipeReader`, which it
extends) and serving a run (the endpoint). It counts the calls in flight and
their bytes (arguments and replies) against ``max_pending_bytes``, measures the
time during which at least one was in flight, runs each call (a caller task
for a handler's ``call_tool``, parked between calls, or an offer to its
``start_call``), makes each reply's frame (a failure instead when the value is
over the frame cap), and writes frames to the child with ``os.write``, whole
and in order, waiting with ``anyio.wait_writable`` only when the pipe is full.
A reply that breaks the run (its bytes over the limit, or a frame that could
not be made) records why and cancels the run's scope.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from typing import TYPE_CHECKING, Any, Final

import anyio

from bridge._answers import (
    CallHandler,
    CallReply,
    ToolCallFailed,
    failed_reply,
    internal_reply,
    is_delivered_cancellation,
    lossy_value_reply,
    value_frame_off_loop,
)
from bridge._child_frames import Violation, pending_bytes_violation
from bridge._pipe_reader import PipeReader
from bridge.lossless import JsonValue, LossyJsonError, fits_inline
from bridge.protocol import Reply, encode_frame, encode_value
from bridge.tasks import ParkedCaller, TaskSet

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["CallTable"]

_logger: Final = logging.getLogger("bridge.host")


class CallTable(PipeReader):
    """A run's calls in flight, their answers, and the frames written to the child.

    The layer of the host endpoint between reading frames and serving a run:
    :class:`~bridge.host.HostEndpoint` starts each call the child sends
    (:meth:`_call_started`, then a caller task or :meth:`_offer`) and writes
    through :meth:`_send`; :class:`~bridge._answers.CallReply` answers a call
    taken in ``start_call`` through :meth:`_answer_value` and :meth:`_answer`.

    Args:
        read_fd: the pipe the child writes to; made non-blocking.
        write_fd: the pipe the child reads from; made non-blocking.
        max_frame_bytes: the largest frame accepted from the child.
    """

    __slots__ = (
        "_busy_since",
        "_callers",
        "_idle_callers",
        "_in_flight",
        "_max_pending_bytes",
        "_pending_bytes",
        "_replies",
        "_scope",
        "_stack",
        "_tasks",
        "_violation",
        "_wait_total",
        "_write_fd",
        "_write_lock",
        "_writers",
    )

    def __init__(self, read_fd: int, write_fd: int, *, max_frame_bytes: int) -> None:
        super().__init__(read_fd, max_frame_bytes=max_frame_bytes)
        self._write_fd = write_fd
        os.set_blocking(write_fd, False)
        self._write_lock = anyio.Lock(fast_acquire=True)
        self._writers = 0  # tasks writing through the lock (the pipe was full)
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
        # Why the run broke, once it has, and the run's cancel scope (serve()
        # sets both; _fail records the one and cancels the other).
        self._violation: Violation | None = None
        self._scope: anyio.CancelScope | None = None
        # Caller tasks parked between calls, each with its task: a call frame
        # wakes one instead of spawning a task, which costs several times more.
        self._idle_callers: list[tuple[ParkedCaller[_PendingCall], asyncio.Task[Any]]] = []

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

    # ------------------------------------------------------------------ calls

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
