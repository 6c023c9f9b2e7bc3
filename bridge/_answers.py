"""A call's way back: what a handler is, the failures it raises, and how a call is answered.

The host's side of a tool call, apart from the endpoint that reads the frames:
the :class:`CallHandler` contract, :class:`ToolCallFailed`, the
:class:`CallReply` a handler that takes a call in ``start_call`` answers
through, the replies made for a failure, and the check and encoding of a
tool's value (off the loop when it is large). :mod:`bridge.host` re-exports
the public names.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Final, Protocol, final

import anyio.to_thread

from bridge.lossless import INLINE_NODES, JsonValue, LossyJsonError, fits_inline
from bridge.protocol import Reply, encode_frame, encode_value

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge._call_table import CallTable

__all__ = [
    "INLINE_ENCODE_NODES",
    "CallHandler",
    "CallReply",
    "ToolCallFailed",
    "encode_off_loop",
    "encode_tool_value",
    "failed_reply",
    "internal_reply",
    "is_delivered_cancellation",
    "lossy_value_reply",
    "value_frame",
    "value_frame_off_loop",
]

_logger: Final = logging.getLogger("bridge.host")


class CallHandler(Protocol):
    """Serves the tool calls of a sandboxed program.

    The endpoint starts one ``call_tool`` per call frame, in frame order (each
    runs up to its first ``await`` before the next frame is handled); calls run
    concurrently. Return the tool's value (lossless JSON); raise
    :class:`ToolCallFailed` for a failure the program should see::

        class Handler:
            async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
                if name != "add":
                    raise ToolCallFailed(f"unknown tool {name!r}", code="UNKNOWN_TOOL")
                return args["a"] + args["b"]

    Any other exception is contained: the program sees ``internal error in tool
    "<name>"`` and the exception is logged on the ``bridge.host`` logger. So is a
    ``BaseException`` (``SystemExit``, ``KeyboardInterrupt``, ``GeneratorExit``, a
    ``CancelledError`` nobody delivered to the call), except the cancellation of
    the task serving the call, which ends that task.

    A handler whose class also defines ``start_call(name, args, reply) -> bool``
    is offered each call there first, from the endpoint's own task: it may take
    the call (return ``True``) and answer it later through ``reply`` (a
    :class:`CallReply`) from whichever task has the outcome, so that no task of
    the endpoint's waits on it; returning ``False`` leaves the call to
    ``call_tool``. Code Mode's dispatcher answers from its scheduler's worker
    this way.
    """

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        """Run tool ``name`` with ``args`` (a JSON object) and return its value."""
        ...


class ToolCallFailed(Exception):
    """Raised by a :class:`CallHandler`: the call failed with this message.

    The program gets a ``ToolCallError`` that names the tool and carries the
    message, ``code`` and ``exception_type`` (as its ``type``).

    Args:
        message: what went wrong, written for the program's author.
        code: an optional error code (e.g. ``"DENIED"``) the program can test.
        exception_type: the class name of the exception the tool raised
            (``"LookupError"``), when it raised one.
    """

    def __init__(
        self, message: str, code: str | None = None, *, exception_type: str | None = None
    ) -> None:
        if not isinstance(message, str):
            raise TypeError(f"ToolCallFailed message must be a str; got message={message!r}")
        if code is not None and not isinstance(code, str):
            raise TypeError(f"ToolCallFailed code must be a str or None; got code={code!r}")
        if exception_type is not None and not isinstance(exception_type, str):
            raise TypeError(
                "ToolCallFailed exception_type must be a str or None; got "
                f"exception_type={exception_type!r}"
            )
        super().__init__(message)
        self.message = message
        self.code = code
        self.exception_type = exception_type


@final
class CallReply:
    """The answer to one call frame, for a handler that took it in ``start_call``.

    Answer once, from any task on the endpoint's loop: :meth:`value` or
    :meth:`failure` (or :meth:`crashed` for an unexpected exception, which the
    program sees as ``internal error in tool "<name>"``). The reply is written
    at once when the pipe has room; later answers, and every answer after the
    run has ended, are dropped. A run that ends before the answer calls the
    callback given to :meth:`on_cancel` instead (once, on the loop).
    """

    __slots__ = ("_cancel", "_endpoint", "_id", "_name", "_open", "_size")

    def __init__(self, endpoint: CallTable, call_id: int, name: str, size: int) -> None:
        self._endpoint = endpoint
        self._id = call_id
        self._name = name
        self._size = size
        self._open = True
        self._cancel: Callable[[], object] | None = None

    @property
    def name(self) -> str:
        """The tool the call is for."""
        return self._name

    def value(self, value: JsonValue) -> None:
        """Answer with the tool's value (lossless JSON; checked and encoded here)."""
        if self._close():
            self._endpoint._answer_value(self._id, self._name, self._size, value)

    def failure(self, failure: ToolCallFailed) -> None:
        """Answer with a failure the program sees as ``ToolCallError``."""
        if self._close():
            reply = failed_reply(self._id, failure)
            self._endpoint._answer(self._id, self._name, self._size, reply)

    def crashed(self, exc: BaseException) -> None:
        """Answer for a handler that failed unexpectedly (logged, as ``call_tool``'s would be)."""
        if self._close():
            _logger.error(
                "tool %r raised while serving a sandboxed program", self._name, exc_info=exc
            )
            endpoint, call_id = self._endpoint, self._id
            endpoint._answer(call_id, self._name, self._size, internal_reply(call_id, self._name))

    def on_cancel(self, callback: Callable[[], object]) -> None:
        """Call ``callback()`` if the run ends before this call is answered."""
        self._cancel = callback

    def _close(self) -> bool:
        if not self._open:
            return False
        self._open = False
        self._endpoint._replies.pop(self._id, None)
        return True

    def _cancelled(self) -> None:
        if not self._open:
            return
        self._open = False
        callback, self._cancel = self._cancel, None
        if callback is not None:
            try:
                callback()
            except Exception:
                _logger.exception("the cancel callback of a call to %r raised", self._name)


def failed_reply(call_id: int, exc: ToolCallFailed) -> Reply:
    return Reply(call_id, error=exc.message, code=exc.code, exception_type=exc.exception_type)


def internal_reply(call_id: int, name: str) -> Reply:
    return Reply(call_id, error=f'internal error in tool "{name}"')


def lossy_value_reply(call_id: int, name: str, exc: LossyJsonError) -> Reply:
    return Reply(call_id, error=f'tool "{name}" returned a value that is not lossless JSON: {exc}')


def is_delivered_cancellation(exc: BaseException) -> bool:
    """Whether ``exc`` is the running task's own cancellation, which the host asked for.

    A ``CancelledError`` a handler raised or let through from a future cancelled
    elsewhere, while nobody cancelled its task, is that handler's failure.
    """
    if not isinstance(exc, asyncio.CancelledError):
        return False
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


#: The most a tool's value may weigh to be checked and encoded on the event loop:
#: the host's one inline rule (:func:`~bridge.lossless.fits_inline`), which
#: counts the characters of its strings as well as its values.
INLINE_ENCODE_NODES: Final = INLINE_NODES


async def encode_tool_value(value: JsonValue) -> bytes:
    """A tool's value as JSON text; checked and encoded off the loop when it is large.

    A tool may return (or echo back) a value as large as a frame: checking it is
    linear and in Python, so a large one would hold every run on this loop.
    Large means many values or long strings (:func:`~bridge.lossless.fits_inline`).
    """
    if fits_inline(value):
        return encode_value(value, accept_tuples=True)
    return await encode_off_loop(value)


async def encode_off_loop(value: JsonValue) -> bytes:
    """A large value as JSON text, checked and encoded in a worker thread."""
    return await anyio.to_thread.run_sync(
        lambda: encode_value(value, accept_tuples=True), abandon_on_cancel=True
    )


def value_frame(call_id: int, value: JsonValue) -> bytes:
    """The frame of the reply that answers call ``call_id`` with ``value``, checked and encoded.

    Raises:
        LossyJsonError: ``value`` is not lossless JSON.
    """
    return encode_frame(Reply(call_id, value=encode_value(value, accept_tuples=True)))


async def value_frame_off_loop(call_id: int, value: JsonValue) -> bytes:
    """:func:`value_frame` in a worker thread: for a value that does not fit inline.

    The whole frame is made there, so a long value is not copied into it on the loop.
    """
    return await anyio.to_thread.run_sync(value_frame, call_id, value, abandon_on_cancel=True)
