"""Decoding a child's JSON text on the host: checked, bounded, and off the loop when long.

Tool arguments and a program's final value arrive as JSON text inside a frame.
:func:`decode_payload` decodes and checks it (lossless JSON, nesting at most
``MAX_DEPTH``): on the event loop when it is at most :data:`INLINE_DECODE_BYTES`
long, otherwise in a worker thread. Its caller checks every budget from the
text's length first. Cancelling the caller returns at once; the thread is told
to stop, stops at its next container, and its result is dropped.

The host endpoint (:mod:`bridge.host`) is the only user; the child never
imports this module.
"""

from __future__ import annotations

import contextlib
import gc
import math
import threading
from typing import TYPE_CHECKING, Any, Final, Literal, overload

import anyio.to_thread
import msgspec

from bridge.lossless import (
    INLINE_TEXT_BYTES,
    MAX_DEPTH,
    JsonValue,
    LossyJsonError,
    materialize,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

__all__ = [
    "CONTAINER_CHARGE",
    "INLINE_DECODE_BYTES",
    "STRING_CHARGE",
    "VALUE_CHARGE",
    "Abandoned",
    "decode_charged",
    "decode_lossless",
    "decode_payload",
    "host_charge",
    "is_lossless_decoded",
    "values_bound",
]

#: JSON text (tool arguments, the final value) up to this many bytes is decoded
#: and checked on the event loop; its worst case costs a fraction of a
#: millisecond (BENCHMARKS.md). Longer text is decoded in a worker thread. The
#: host's one inline rule (:data:`~bridge.lossless.INLINE_NODES`), for text.
INLINE_DECODE_BYTES: Final = INLINE_TEXT_BYTES

_json_encode: Final = msgspec.json.encode
_json_decode: Final = msgspec.json.decode

# msgspec decodes JSON text to exact dicts (str keys), lists, valid str (it
# refuses lone surrogates), bool, None, finite floats (it refuses 1e400) and
# ints. Of those only -0.0, ints beyond 2**53 and nesting deeper than MAX_DEPTH
# are lossy. The first two leave a mark in the text: "-0" or "e-" (a negative
# zero, possibly by underflow), or sixteen digits in a row (an int that large);
# and text can only nest as deep as it has brackets, or half its length. Text
# with no mark and few enough brackets needs no walk at all. The marks are
# found with byte searches (a regular expression took half a second over the
# largest frame); a mark inside a string only costs the walk.
_DIGITS_AS_NINES: Final = bytes(0x39 if 0x30 <= byte <= 0x39 else 0x20 for byte in range(256))
_SIXTEEN_DIGITS: Final = b"9" * 16
_FAST_PATH_BYTES: Final = 2 * MAX_DEPTH
_EXACT_INT: Final = 2**53


class Abandoned(Exception):
    """A decode in a worker thread stopped because its run no longer waits for it."""


def decode_lossless(raw: bytes, stop: threading.Event | None = None) -> JsonValue:
    """Decode JSON text from the child and check that the value is lossless JSON.

    Args:
        raw: the JSON text.
        stop: set when nobody waits for the result any more (a decode in a
            worker thread): the work stops before the decoder starts, after it
            returns, and at each container the check walks.

    Raises:
        msgspec.DecodeError: ``raw`` is not JSON text.
        LossyJsonError: the value is not lossless (including nesting too deep
            for the decoder).
        Abandoned: ``stop`` was set.
    """
    if stop is not None:
        _check_stop(stop)
    try:
        if len(raw) > INLINE_DECODE_BYTES:
            with _gc_paused():
                value: JsonValue = _json_decode(raw)
        else:
            value = _json_decode(raw)
    except RecursionError:
        # msgspec's decoder recurses per level: text nested past the
        # interpreter's limit must end the run, never escape into the host.
        raise LossyJsonError(
            f"containers are nested deeper than {MAX_DEPTH} levels", "$"
        ) from None
    if stop is not None:
        _check_stop(stop)
    if not _has_lossy_mark(raw) and (
        len(raw) <= _FAST_PATH_BYTES or raw.count(b"[") + raw.count(b"{") <= MAX_DEPTH
    ):
        return value
    if is_lossless_decoded(value, stop):
        return value
    # materialize() is the one authority on lossless JSON and names the path.
    return materialize(value)


def _has_lossy_mark(raw: bytes) -> bool:
    return (
        b"-0" in raw
        or b"e-" in raw
        or b"E-" in raw
        or _SIXTEEN_DIGITS in raw.translate(_DIGITS_AS_NINES)
    )


def _check_stop(stop: threading.Event | None) -> None:
    if stop is not None and stop.is_set():
        raise Abandoned


def is_lossless_decoded(value: JsonValue, stop: threading.Event | None) -> bool:
    """Whether a value msgspec decoded from JSON text is lossless, without copying it.

    Such a value can only break the rules with -0.0, an int beyond 2**53 whose
    float is not exact, or nesting deeper than ``MAX_DEPTH`` (see above); this
    walk looks for exactly those, several times faster than ``materialize``.
    """
    if type(value) is not list and type(value) is not dict:
        return _is_lossless_scalar(value)
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        container, depth = stack.pop()
        if depth > MAX_DEPTH:
            return False
        _check_stop(stop)
        items: Iterable[Any] = container.values() if type(container) is dict else container
        for item in items:
            kind = type(item)
            if kind is list or kind is dict:
                stack.append((item, depth + 1))
            elif (kind is int or kind is float) and not _is_lossless_scalar(item):
                return False
    return True


def _is_lossless_scalar(value: Any) -> bool:
    kind = type(value)
    if kind is int:
        if -_EXACT_INT <= value <= _EXACT_INT:
            return True
        try:
            return bool(int(float(value)) == value)
        except OverflowError:
            return False
    if kind is float:
        return value != 0.0 or math.copysign(1.0, value) > 0
    return True


_gc_lock: Final = threading.Lock()
_gc_pausers = 0
_gc_was_enabled = False


@contextlib.contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while a large JSON text is decoded.

    msgspec builds the value in C, holding the GIL throughout; every few hundred
    containers it allocates trigger a collection that walks the whole heap, which
    made decoding a frame of millions of empty lists five times slower (seconds
    during which no thread, the event loop's included, could run). The pause is
    shared by concurrent decodes and ends with the last; the collector is only
    turned back on if it was on before.
    """
    global _gc_pausers, _gc_was_enabled
    with _gc_lock:
        if _gc_pausers == 0:
            _gc_was_enabled = gc.isenabled()
            gc.disable()
        _gc_pausers += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_pausers -= 1
            if _gc_pausers == 0 and _gc_was_enabled:
                gc.enable()


#: About what the host holds per JSON value once text is decoded, beyond the
#: text itself: a list or dict (an empty one is 56 or 64 bytes of Python
#: object), a str (49 bytes besides its characters), and the slot any value
#: takes in its container with a typical scalar behind it (a float is 24 bytes;
#: small ints are shared).
CONTAINER_CHARGE: Final = 64
STRING_CHARGE: Final = 48
VALUE_CHARGE: Final = 16


def values_bound(raw: bytes) -> int:
    """At most how many JSON values ``raw`` holds, found without decoding it.

    Every value but the outermost follows its container's opening bracket, a
    comma, or a colon (a dict's value; its key follows the brace or a comma):
    counting those characters (inside strings too) bounds the count from above.
    """
    return raw.count(b"[") + raw.count(b"{") + raw.count(b",") + raw.count(b":") + 1


def host_charge(raw: bytes) -> int:
    """About what JSON text from the child costs the host once decoded: its budget's unit.

    The text's length plus, for each container, string and value it can hold
    (counted from brackets, quotes, commas and colons, so never fewer than it
    holds), what a decoded one costs (:data:`CONTAINER_CHARGE`, ...). The
    budget for calls in flight bounds what the host holds, not what crossed
    the pipe: a text of empty lists decodes to twenty times its length.
    """
    return (
        len(raw)
        + CONTAINER_CHARGE * (raw.count(b"[") + raw.count(b"{"))
        + STRING_CHARGE * (raw.count(b'"') // 2)
        + VALUE_CHARGE * values_bound(raw)
    )


async def decode_charged(raw: bytes, room: int) -> tuple[JsonValue | None, int]:
    """``raw``'s value and charge (:func:`host_charge`), off the loop; no value if over ``room``.

    The charge is counted before anything is decoded, so text whose value
    would not fit the budget is never decoded at all.
    """
    stop = threading.Event()
    try:
        return await anyio.to_thread.run_sync(
            _decode_within, raw, room, stop, abandon_on_cancel=True
        )
    finally:
        stop.set()


def _decode_within(
    raw: bytes, room: int, stop: threading.Event
) -> tuple[JsonValue | None, int]:
    charge = host_charge(raw)
    if charge > room:
        return None, charge
    return decode_lossless(raw, stop), charge


@overload
async def decode_payload(raw: bytes) -> JsonValue: ...
@overload
async def decode_payload(raw: bytes, *, measure: Literal[True]) -> tuple[JsonValue, int]: ...
async def decode_payload(raw: bytes, *, measure: bool = False) -> object:
    """:func:`decode_lossless`, off the event loop when ``raw`` is long.

    With ``measure``, also the value's size as compact JSON. Cancelling the
    caller (the run's wall clock, its abort, the caller's own cancellation)
    returns at once; the thread is told to stop and its result, whatever it
    is, is dropped.
    """
    decode = _decode_measured if measure else decode_lossless
    if len(raw) <= INLINE_DECODE_BYTES:
        return decode(raw)
    stop = threading.Event()
    try:
        return await anyio.to_thread.run_sync(decode, raw, stop, abandon_on_cancel=True)
    finally:
        stop.set()


def _decode_measured(raw: bytes, stop: threading.Event | None = None) -> tuple[JsonValue, int]:
    value = decode_lossless(raw, stop)
    return value, len(_json_encode(value))
