"""Checks of what a child sends during a run: call arguments, the final frame, violations.

A child is hostile: each check here either returns what was checked or
raises :class:`Violation`, which ends the run with a kind and a message
saying what the child did (:mod:`bridge.host` turns it into the run's outcome).

This module is host-only: the child never imports it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

from bridge import _decoding
from bridge._decoding import (
    CONTAINER_CHARGE,
    STRING_CHARGE,
    VALUE_CHARGE,
    decode_charged,
    decode_payload,
)
from bridge.lossless import JsonValue, LossyJsonError

if TYPE_CHECKING:
    from bridge.protocol import Call, Done

__all__ = [
    "ERROR_SLACK_CHARS",
    "Violation",
    "checked_args",
    "checked_done",
    "decoded_args",
    "pending_bytes_violation",
    "tripped_message",
]

#: Characters a program's error message may have beyond ``Run.max_value_bytes``:
#: the child's note that it cut the message (``bridge.child.fitted_message``
#: keeps ``max_value_bytes`` bytes of its text and adds one line).
ERROR_SLACK_CHARS: Final = 4096


class Violation(Exception):
    """The child broke the protocol or a limit: the run ends as ``kind`` with ``message``."""

    def __init__(self, kind: str, message: str, *, closed: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.closed = closed



def pending_bytes_violation(pending: int, limit: int) -> Violation:
    return Violation(
        "worker-exit",
        f"the child has {pending} bytes of tool calls and replies in "
        f"flight, over the limit of {limit} bytes (max_pending_bytes; long arguments "
        "count about what the host holds once they are decoded: their text and "
        f"{CONTAINER_CHARGE} bytes per list or object, {STRING_CHARGE} per string and "
        f"{VALUE_CHARGE} per value); send less data per call, or fewer calls at once",
    )


async def checked_args(call: Call, pending: int, limit: int) -> tuple[JsonValue, int]:
    """Long arguments, charged, decoded off the loop and checked; with their charge.

    ``pending`` is what the calls in flight hold of the budget ``limit``: if
    these arguments' charge (:func:`bridge._decoding.host_charge`) does not fit
    beside it, they are not decoded and the run ends.
    """
    try:
        args, charge = await decode_charged(call.args, limit - pending)
    except (msgspec.DecodeError, LossyJsonError) as exc:
        raise _not_lossless(call, exc) from None
    if args is None:
        raise pending_bytes_violation(pending + charge, limit)
    return _object_args(call, args), charge


def decoded_args(call: Call) -> JsonValue:
    """Short arguments (at most ``INLINE_DECODE_BYTES``), decoded here, and checked."""
    try:
        args = _decoding.decode_lossless(call.args)
    except (msgspec.DecodeError, LossyJsonError) as exc:
        raise _not_lossless(call, exc) from None
    return _object_args(call, args)


def _object_args(call: Call, args: JsonValue) -> JsonValue:
    if not isinstance(args, dict):
        raise Violation(
            "worker-exit",
            f"the child sent arguments for call {call.id} that are not a JSON object",
        )
    return args


def _not_lossless(call: Call, exc: Exception) -> Violation:
    return Violation(
        "worker-exit",
        f"the child sent arguments for call {call.id} that are not lossless JSON: {exc}",
    )


def tripped_message(event: str, detail: str = "") -> str:
    """The message of a run the child's tripwire ended at audit event ``event``.

    ``event`` and ``detail`` (the member read or the module imported) come from
    the child and were checked by the decoder (printable ASCII, no spaces,
    bounded); an empty ``event`` stands for a name that was not shown.
    """
    named = event or "an audit event whose name is not shown"
    if event and detail:
        named = f"{event} ({detail})"
    return (
        f"the program triggered a sandbox violation: {named}. The run was ended there: "
        "a program may not reach interpreter frames or code objects, compile code, "
        "open files, import modules that are not allowed, or use os, subprocess, "
        "socket or ctypes"
    )


async def checked_done(
    done: Done, max_value_bytes: int
) -> tuple[JsonValue, tuple[str, str] | None]:
    if done.error is not None:
        message = done.error.message
        if len(message) > max_value_bytes + ERROR_SLACK_CHARS:
            raise Violation(
                "output-limit",
                f"the program's error message is {len(message)} characters, over the limit of "
                f"{max_value_bytes} bytes (max_value_bytes)",
            )
        if not message.strip():
            message = "the program failed, and the child sent no message saying why"
        return None, (done.error.kind, message)
    # The child sends the value as compact JSON, so its text is checked against
    # the cap before it is decoded; the compact size of what was decoded is
    # checked again after (hostile text need not be compact).
    size = len(done.value)
    if size <= max_value_bytes:
        try:
            value, size = await decode_payload(done.value, measure=True)
        except msgspec.DecodeError as exc:
            raise Violation(
                "worker-exit", f"the child sent a return value that is not JSON text: {exc}"
            ) from None
        except LossyJsonError as exc:
            raise Violation(
                "invalid-output", f"program completion must be lossless JSON ({exc})"
            ) from None
    if size > max_value_bytes:
        raise Violation(
            "output-limit",
            f"the program's return value is {size} bytes as JSON, over the limit of "
            f"{max_value_bytes} bytes (max_value_bytes)",
        )
    return value, None
