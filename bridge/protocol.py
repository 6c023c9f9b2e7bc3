"""Wire messages between the host and a sandboxed child, and their framing.

Every message is a frozen, tagged msgspec Struct encoded as MessagePack and sent
as one *frame*: a 4-byte big-endian body length followed by the body. Each
direction has its own union and its own strict decoder
(:class:`ChildMessageDecoder`, :class:`HostMessageDecoder`), so a child can
never make the host decode a host message (or anything else). Frame sizes are
checked from the length prefix, before a single byte of the body is read or
buffered (:class:`FrameBuffer`).

JSON values (tool arguments, tool results, a program's return value) travel as
compact JSON text inside the MessagePack frame: MessagePack cannot carry
integers beyond 64 bits, while lossless JSON allows e.g. ``2**70``.

Conversation, one program per child::

    child -> host   Ready(version, pid)
    host  -> child  Run(code or source, restricted, tool_names, limits...)
    child -> host   Call(id=0, ...), Log(lines), Call(id=1, ...), ...
    host  -> child  Reply(id=1, ...), Reply(id=0, ...), ...   (any order)
    child -> host   Done(value | error)

When the host stops a run (its wall-clock limit), it signals the child, which
answers with ``Where(line)`` before it is killed, if it can in a short grace.
At any point of the run, the child may send ``Tripped(event)`` from the child's tripwire (an
audit hook), after which the child exits.

This module is imported by the child: it must stay cheap to import (no anyio,
nothing from the host side).
"""

from __future__ import annotations

import math
import os
import struct
from typing import TYPE_CHECKING, Annotated, Any, Final, Literal, TypeAlias, final

import msgspec

from bridge.lossless import FrozenDict, is_snapshot, materialize

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "DEFAULT_MAX_FRAME_BYTES",
    "DEFAULT_MAX_PENDING_CALLS",
    "HEADER_BYTES",
    "MAX_EVENT_NAME_CHARS",
    "MAX_LOG_LINES_PER_FRAME",
    "PROTOCOL_VERSION",
    "SHOWN_TEXT_CHARS",
    "Call",
    "ChildMessage",
    "ChildMessageDecoder",
    "Done",
    "Failure",
    "FrameBuffer",
    "FrameTooLarge",
    "HostMessage",
    "HostMessageDecoder",
    "Log",
    "PipeClosed",
    "ProtocolError",
    "Ready",
    "Reply",
    "Run",
    "ToolSignature",
    "Tripped",
    "Where",
    "bounded_repr",
    "bounded_text",
    "encode_frame",
    "encode_value",
    "peek_tag",
    "read_frame",
    "write_all",
]

#: Bumped whenever a message changes incompatibly; the child sends it in
#: :class:`Ready` and the host refuses a child that speaks another version.
PROTOCOL_VERSION: Final = 1

#: The length prefix: 4 bytes, big-endian, unsigned.
HEADER_BYTES: Final = 4
_HEADER: Final = struct.Struct(">I")

#: Frame cap used when the caller does not choose one (16 MiB).
DEFAULT_MAX_FRAME_BYTES: Final = 16 * 1024 * 1024
#: Tool calls a child may have in flight unless the host says otherwise.
DEFAULT_MAX_PENDING_CALLS: Final = 128

#: The most characters of a peer's text (a tool name, a decoder's message that
#: quotes a frame) an error message repeats; the rest is cut.
SHOWN_TEXT_CHARS: Final = 200


def bounded_text(text: str, limit: int = SHOWN_TEXT_CHARS) -> str:
    """``text`` cut to ``limit`` characters, saying how long it was: peer text in a message.

    A message built from what the other side sent must not grow with it: a
    forged frame could otherwise make the host carry megabytes of error text.
    """
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters in all)"


def bounded_repr(text: str, limit: int = SHOWN_TEXT_CHARS) -> str:
    """``repr(text)`` cut to ``limit`` characters, saying how long ``text`` was.

    ``text`` is cut before its repr is made, never after: repr walks and copies
    every character and makes up to ten of one (``'\\U000e0001'``), so the
    repr of a peer string as long as a frame is work that grows with the peer.
    """
    shown = repr(text[:limit])
    if len(text) <= limit and len(shown) <= limit:
        return shown
    return f"{shown[:limit]}... ({len(text)} characters in all)"


#: A :class:`Log` frame carries at most this many lines. The limit is checked
#: from the array header, so a frame of millions of empty strings is refused
#: before the host allocates a tuple for them.
MAX_LOG_LINES_PER_FRAME: Final = 4096
#: :attr:`Ready.unprotected` holds at most this many lines (checked the same way).
MAX_UNPROTECTED_LINES: Final = 64

_ChildFailureKind: TypeAlias = Literal["exception", "invalid-output", "output-limit", "compile"]


class ProtocolError(Exception):
    """A frame or message broke the protocol (bad length, bad encoding, wrong type)."""


class FrameTooLarge(ProtocolError):
    """A length prefix announced a frame over the cap; nothing of it was read."""

    def __init__(self, size: int, limit: int) -> None:
        self.size = size
        self.limit = limit
        super().__init__(
            f"frame of {size} bytes announced, over the limit of {limit} bytes "
            "(max_frame_bytes); the body was not read"
        )


class PipeClosed(ProtocolError):
    """The other end closed the pipe (EOF), possibly in the middle of a frame."""


# --------------------------------------------------------------------------- messages
# array_like keeps frames small and fast to decode; forbid_unknown_fields makes
# the decoders strict (both sides always run the same version, checked in Ready).
# New fields are appended, with defaults.


@final
class Ready(msgspec.Struct, frozen=True, tag="ready", array_like=True, forbid_unknown_fields=True):
    """child -> host: the child has started and waits for its program.

    Attributes:
        version: the child's :data:`PROTOCOL_VERSION`.
        pid: the child's process id, as the child sees it.
        unprotected: one line per protection the child could not apply at
            start-up, e.g. ``"seccomp: libseccomp is not installed"``.
    """

    version: int
    pid: int
    unprotected: Annotated[tuple[str, ...], msgspec.Meta(max_length=MAX_UNPROTECTED_LINES)] = ()


@final
class ToolSignature(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """What the pre-flight check of a program's tool calls knows about one tool.

    Attributes:
        name: the tool's name.
        fields: its declared argument names in order, or ``None`` when its
            parameters are not an object the check understands (then only the
            tool's existence is checked).
        required: the required argument names, in declaration order.
        open: whether arguments beyond ``fields`` are accepted.
    """

    name: str
    fields: tuple[str, ...] | None = None
    required: tuple[str, ...] = ()
    open: bool = True


@final
class Run(msgspec.Struct, frozen=True, tag="run", array_like=True, forbid_unknown_fields=True):
    """host -> child: the one program this child runs.

    The host sends either ``code`` (a program it compiled itself) or ``source``
    (a longer program, which the child compiles under its own limits).

    Attributes:
        code: the compiled program, as ``marshal.dumps`` of a code object, or
            empty when ``source`` is to be compiled by the child.
        restricted: whether the language layer applies (``False`` only for the
            ablation tests).
        tool_names: the names the program's ``tools`` proxy declares.
        max_log_bytes: ``print`` output budget in bytes.
        max_value_bytes: cap on the return value as compact JSON.
        max_frame_bytes: the host's frame cap; the child refuses to send a call
            whose frame would exceed it.
        cpu_seconds: CPU time limit (``RLIMIT_CPU``) for the run.
        memory_bytes: address-space limit (``RLIMIT_AS``) for the run.
        max_open_files: ``RLIMIT_NOFILE`` for the run.
        os_layer: whether the OS limits apply (``False`` only for the ablation tests).
        source: the program's source, when ``code`` is empty.
        signatures: check the program's tool calls against these before it runs
            (with ``source`` only; ``None``: no check).
        tripwire: whether the child arms its tripwire (``False`` only for the
            ablation tests).
        max_pending_calls: the calls the host allows in flight; the child holds
            later ones back until a reply frees a place.
    """

    code: bytes
    restricted: bool
    tool_names: tuple[str, ...]
    max_log_bytes: int
    max_value_bytes: int
    max_frame_bytes: int
    cpu_seconds: int
    memory_bytes: int
    max_open_files: int
    os_layer: bool = True
    source: str = ""
    signatures: tuple[ToolSignature, ...] | None = None
    tripwire: bool = True
    max_pending_calls: int = DEFAULT_MAX_PENDING_CALLS


@final
class Reply(msgspec.Struct, frozen=True, tag="reply", array_like=True, forbid_unknown_fields=True):
    """host -> child: the outcome of call ``id``.

    Attributes:
        id: the call's id.
        value: on success, the tool's value as compact JSON text.
        error: on failure, the message the program sees (``value`` is then unused).
        code: on failure, an optional error code the program can test.
        exception_type: on failure, the class name of the exception the tool
            raised (``"LookupError"``), or ``None``.
    """

    id: int
    value: bytes = b"null"
    error: str | None = None
    code: str | None = None
    exception_type: str | None = None


@final
class Call(msgspec.Struct, frozen=True, tag="call", array_like=True, forbid_unknown_fields=True):
    """child -> host: the program called a tool.

    Attributes:
        id: consecutive from 0 within a run, in the order the frames are sent.
        name: one of the run's ``tool_names``.
        args: the arguments object as compact JSON text.
    """

    id: int
    name: str
    args: bytes


@final
class Log(msgspec.Struct, frozen=True, tag="log", array_like=True, forbid_unknown_fields=True):
    """child -> host: completed lines of ``print`` output, in order."""

    # At least one line: every log frame spends some of the run's output budget.
    lines: Annotated[
        tuple[str, ...], msgspec.Meta(min_length=1, max_length=MAX_LOG_LINES_PER_FRAME)
    ]


@final
class Failure(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """Why a program failed, as the child saw it.

    Attributes:
        kind: ``exception``, ``invalid-output``, ``output-limit``, or
            ``compile`` (a program the child compiled was refused).
        message: the text shown to the model (a filtered traceback, or which
            check failed and where).
    """

    kind: _ChildFailureKind
    message: str


@final
class Done(msgspec.Struct, frozen=True, tag="done", array_like=True, forbid_unknown_fields=True):
    """child -> host: the program finished; the last frame of a run.

    Attributes:
        value: the return value as compact JSON text (``null`` when it returned
            nothing); unused when ``error`` is set.
        error: why the program failed, or ``None``.
    """

    value: bytes = b"null"
    error: Failure | None = None


@final
class Where(msgspec.Struct, frozen=True, tag="where", array_like=True, forbid_unknown_fields=True):
    """child -> host: the line the program is on, sent when the host asks (a stop signal).

    Attributes:
        line: the line of the program's source it was running or waiting on, or
            ``None`` when it was in none of its own code. The host checks it
            against the source and never waits long for it.
    """

    line: int | None = None



#: The longest audit event name (or detail) a :class:`Tripped` frame may carry.
MAX_EVENT_NAME_CHARS: Final = 128
_EventName: TypeAlias = Annotated[
    str, msgspec.Meta(max_length=MAX_EVENT_NAME_CHARS, pattern=r"\A[!-~]*\Z")
]


@final
class Tripped(
    msgspec.Struct, frozen=True, tag="tripped", array_like=True, forbid_unknown_fields=True
):
    """child -> host: the child's tripwire ended the run; the child exits next.

    Attributes:
        event: the audit event that tripped it (``sys._getframe``, ``open``,
            ...); ``""`` when the event's name was not fit to show.
        detail: the member read (``object.__getattr__``) or the module
            imported (``import``), else ``""``.

    Both are printable ASCII without spaces, at most
    :data:`MAX_EVENT_NAME_CHARS` characters (the decoder checks it).
    """

    event: _EventName
    detail: _EventName = ""


HostMessage: TypeAlias = Run | Reply
ChildMessage: TypeAlias = Ready | Call | Log | Done | Where | Tripped


# --------------------------------------------------------------------------- values

#: Ints up to this magnitude are exactly representable as JSON numbers (doubles).
_EXACT_INT: Final = 2**53

_json_encode: Final = msgspec.json.encode


def _is_plain_scalar(value: object) -> bool:
    kind = type(value)
    if kind is str:
        return value.isascii()  # type: ignore[attr-defined, no-any-return]
    if kind is int:
        return -_EXACT_INT <= value <= _EXACT_INT  # type: ignore[operator]
    if kind is float:
        return math.isfinite(value) and (value != 0.0 or math.copysign(1.0, value) > 0)  # type: ignore[arg-type]
    return kind is bool or value is None


def encode_value(
    value: Any,
    *,
    accept_tuples: bool = False,
    accept_collections: bool = False,
    describe: Callable[[object], str | None] | None = None,
) -> bytes:
    """Check ``value`` as lossless JSON and encode it as compact JSON text.

    The encoded text is the snapshot, so nothing is copied. Scalars and flat
    objects of ASCII strings, exact ints, finite floats, bools and nulls are
    checked here, and with ``accept_tuples`` a frozen snapshot (already
    checked, see :func:`~bridge.lossless.is_snapshot`) is encoded as it is;
    anything else goes through
    :func:`~bridge.lossless.materialize` (with ``accept_tuples``,
    ``accept_collections`` and ``describe`` as given).

    Raises:
        LossyJsonError: naming the offending path.
    """
    kind = type(value)
    if _is_plain_scalar(value) or (accept_tuples and is_snapshot(value)) or (
        (kind is dict or (accept_tuples and kind is FrozenDict))
        and all(
            type(key) is str and key.isascii() and _is_plain_scalar(item)
            for key, item in value.items()
        )
    ):
        return _json_encode(value)
    return _json_encode(
        materialize(
            value,
            accept_tuples=accept_tuples,
            accept_collections=accept_collections,
            describe=describe,
        )
    )


# --------------------------------------------------------------------------- framing

_encoder: Final = msgspec.msgpack.Encoder()


def encode_frame(message: HostMessage | ChildMessage) -> bytes:
    """Encode ``message`` as one frame: length prefix plus MessagePack body."""
    buffer = bytearray(HEADER_BYTES)
    _encoder.encode_into(message, buffer, HEADER_BYTES)
    _HEADER.pack_into(buffer, 0, len(buffer) - HEADER_BYTES)
    return bytes(buffer)


def _check_cap(max_frame_bytes: int) -> int:
    if isinstance(max_frame_bytes, bool) or not isinstance(max_frame_bytes, int):
        raise TypeError(f"max_frame_bytes must be an int; got max_frame_bytes={max_frame_bytes!r}")
    if max_frame_bytes < 1:
        raise ValueError(
            f"max_frame_bytes must be at least 1; got max_frame_bytes={max_frame_bytes!r}"
        )
    return max_frame_bytes


@final
class FrameBuffer:
    """Splits a byte stream into frame bodies, refusing oversized frames early.

    Feed it whatever ``os.read`` returned; take complete bodies with
    :meth:`next_body`. A length prefix over ``max_frame_bytes`` raises
    :class:`FrameTooLarge` as soon as the four prefix bytes are in, so the body
    is never buffered. :attr:`whole_bytes` counts the bytes of the frames
    completed so far, so a reader can tell whether what it fed completed one.
    """

    __slots__ = ("_buffer", "_limit", "_need", "_scanned", "_whole")

    def __init__(self, *, max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES) -> None:
        self._limit = _check_cap(max_frame_bytes)
        self._buffer = bytearray()
        self._need = -1  # body length of the frame being assembled; -1: header not read yet
        self._scanned = 0  # where, in the buffer, the complete frames counted so far end
        self._whole = 0

    @property
    def whole_bytes(self) -> int:
        """Bytes (prefixes and bodies) of every frame completed so far, taken or not."""
        return self._whole

    @property
    def max_frame_bytes(self) -> int:
        """The cap on a frame body, in bytes."""
        return self._limit

    @property
    def pending(self) -> int:
        """Bytes received that do not form a complete frame yet."""
        return len(self._buffer)

    @property
    def complete(self) -> bool:
        """Whether a whole frame body is buffered (:meth:`next_body` would return one).

        Raises:
            FrameTooLarge: the next frame announces an oversized body.
        """
        if self._need < 0:
            self._check_header()
        return self._need >= 0 and len(self._buffer) >= HEADER_BYTES + self._need

    def feed(self, data: bytes) -> None:
        """Append bytes read from the pipe.

        Raises:
            FrameTooLarge: the next frame's length prefix exceeds the cap.
        """
        self._buffer += data
        if self._need < 0:
            self._check_header()
        self._count_whole()

    def _count_whole(self) -> None:
        # One look at a header per frame completed, and one at the frame
        # still arriving: linear in the frames fed, whatever the pieces. A
        # later frame over the cap is not refused here (the frames before it
        # are taken first); it only stops the count.
        buffer, at, end = self._buffer, self._scanned, len(self._buffer)
        while at + HEADER_BYTES <= end:
            (size,) = _HEADER.unpack_from(buffer, at)
            if size > self._limit or at + HEADER_BYTES + size > end:
                break
            at += HEADER_BYTES + size
            self._whole += HEADER_BYTES + size
        self._scanned = at

    def _check_header(self) -> None:
        # Callers skip the call once the header is read (one per frame, not per look).
        if self._need < 0 and len(self._buffer) >= HEADER_BYTES:
            (size,) = _HEADER.unpack_from(self._buffer)
            if size > self._limit:
                raise FrameTooLarge(size, self._limit)
            self._need = size

    def next_body(self) -> bytes | None:
        """Return the next complete frame body, or ``None`` if none is complete.

        Raises:
            FrameTooLarge: the next frame announces an oversized body.
        """
        if self._need < 0:
            self._check_header()
        need = self._need
        if need < 0 or len(self._buffer) < HEADER_BYTES + need:
            return None
        end = HEADER_BYTES + need
        body = bytes(self._buffer[HEADER_BYTES:end])
        del self._buffer[:end]
        self._scanned -= end  # the frame was counted when its last byte came
        self._need = -1
        return body


def write_all(fd: int, data: bytes) -> None:
    """Write all of ``data`` to a blocking ``fd`` (``os.write`` may write less)."""
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def read_frame(fd: int, buffer: FrameBuffer) -> bytes:
    """Block until ``buffer`` holds a complete frame read from ``fd``; return its body.

    Raises:
        PipeClosed: ``fd`` reached end of file first.
        FrameTooLarge: the frame announces a body over the cap.
    """
    while True:
        body = buffer.next_body()
        if body is not None:
            return body
        data = os.read(fd, 65536)
        if not data:
            where = f" in the middle of a frame ({buffer.pending} bytes pending)"
            raise PipeClosed("the pipe was closed" + (where if buffer.pending else ""))
        buffer.feed(data)


#: MessagePack's header forms, as (the range of its one-byte forms, whose size is
#: the byte less the range's start; the bytes of the size of the longer forms):
#: arrays (``fixarray``, ``array16``, ``array32``), strings (``fixstr``,
#: ``str8``, ``str16``, ``str32``; the decoder takes a tag in each) and binary
#: (``bin8``, ``bin16``, ``bin32``).
_ARRAY: Final = (range(0x90, 0xA0), {0xDC: 2, 0xDD: 4})
_STR: Final = (range(0xA0, 0xC0), {0xD9: 1, 0xDA: 2, 0xDB: 4})
_BIN: Final = (range(0), {0xC4: 1, 0xC5: 2, 0xC6: 4})
#: Longer than every message tag and every failure kind.
_MAX_TAG_CHARS: Final = 16


def _header(
    body: bytes, at: int, form: tuple[range, dict[int, int]]
) -> tuple[int, int] | None:
    """The size and the content's start of the value at ``at``; ``None`` if not of ``form``."""
    if at >= len(body):
        return None
    first = body[at]
    fixed, widths = form
    if first in fixed:
        return first - fixed.start, at + 1
    width = widths.get(first)
    if width is None or at + 1 + width > len(body):
        return None
    return int.from_bytes(body[at + 1 : at + 1 + width], "big"), at + 1 + width


def peek_tag(body: bytes) -> str | None:
    """The tag of the message in a frame body, read from its first bytes only.

    Every message is a MessagePack array whose first element is its tag (a short
    string), so a frame's kind is known before the frame is decoded: the host
    checks a frame against the budget of its kind first. ``None`` when the body
    does not start that way (the strict decoder then says what is wrong).
    """
    array = _header(body, 0, _ARRAY)
    tag = None if array is None else _header(body, array[1], _STR)
    if tag is None:
        return None
    size, start = tag
    if size > _MAX_TAG_CHARS:
        return None  # no message has so long a tag: the decoder refuses the frame
    text = body[start : start + size]
    if len(text) != size or not text.isascii():
        return None
    return text.decode("ascii")


def _overlong_quoted(body: bytes) -> int | None:
    """The size of a string msgspec would quote whole in refusing ``body``, if over the cap.

    msgspec names an unknown tag, and an unknown :attr:`Failure.kind`, by
    quoting all of it in its error, before any of it can be cut: a long one is
    refused here from its header instead. ``None`` when neither is too long.
    """
    array = _header(body, 0, _ARRAY)
    tag = None if array is None else _header(body, array[1], _STR)
    if array is None or tag is None:
        return None
    size, start = tag
    if size > _MAX_TAG_CHARS:
        return size
    if array[0] < 3 or body[start : start + size] != b"done":
        return None
    value = _header(body, start + size, _BIN)
    failure = None if value is None else _header(body, value[1] + value[0], _ARRAY)
    kind = None if failure is None or failure[0] < 1 else _header(body, failure[1], _STR)
    if kind is None or kind[0] <= _MAX_TAG_CHARS:
        return None
    return kind[0]


# --------------------------------------------------------------------------- decoders

# One msgspec decoder per direction, made at import: a decoder holds no state
# between calls, and making one builds the type tree of every message it
# accepts, which a host paid on every run and a child in pages it shares with
# the zygote (about 27 page faults, measured).
_CHILD_MESSAGES: Final = msgspec.msgpack.Decoder(ChildMessage)
_HOST_MESSAGES: Final = msgspec.msgpack.Decoder(HostMessage)


@final
class ChildMessageDecoder:
    """Strict decoder for what a child sends (:data:`ChildMessage`); used by the host."""

    __slots__ = ("_decoder",)

    def __init__(self) -> None:
        self._decoder = _CHILD_MESSAGES

    def decode(self, body: bytes) -> ChildMessage:
        """Decode one frame body.

        Raises:
            ProtocolError: the body is not exactly one valid child message.
        """
        size = _overlong_quoted(body)
        if size is not None:
            raise ProtocolError(
                f"undecodable frame from the child: a string of {size} bytes where its tag "
                f"or failure kind goes (none is longer than {_MAX_TAG_CHARS})"
            )
        try:
            return self._decoder.decode(body)
        except msgspec.DecodeError as exc:
            text = bounded_text(str(exc))
            raise ProtocolError(f"undecodable frame from the child: {text}") from None


@final
class HostMessageDecoder:
    """Strict decoder for what the host sends (:data:`HostMessage`); used by the child."""

    __slots__ = ("_decoder",)

    def __init__(self) -> None:
        self._decoder = _HOST_MESSAGES

    def decode(self, body: bytes) -> HostMessage:
        """Decode one frame body.

        Raises:
            ProtocolError: the body is not exactly one valid host message.
        """
        try:
            return self._decoder.decode(body)
        except msgspec.DecodeError as exc:
            text = bounded_text(str(exc))
            raise ProtocolError(f"undecodable frame from the host: {text}") from None
