"""Host helpers over lossless JSON: freezing, thawing, encoding and decoding.

Every helper goes through :func:`bridge.lossless.materialize`, so what one of
them accepts is exactly what every boundary accepts, and each rejection names
the path of the offending value (``$.items[3].price``).
"""

from __future__ import annotations

from typing import Final

import msgspec

from bridge.lossless import MAX_DEPTH, JsonValue, LossyJsonError, materialize

__all__ = ["dumps", "freeze", "loads", "thaw"]

_encoder: Final = msgspec.json.Encoder()
_decoder: Final = msgspec.json.Decoder()


def freeze(value: object) -> JsonValue:
    """Return a read-only deep snapshot of ``value``.

    Dicts become :class:`~bridge.lossless.FrozenDict` and lists become tuples;
    the snapshot shares no container with ``value``. Freezing a frozen value
    again is allowed and returns an equal snapshot.

    Raises:
        LossyJsonError: ``value`` is not lossless JSON; the message names the path.
    """
    return materialize(value, freeze=True)


def thaw(value: object) -> JsonValue:
    """Return a plain, mutable deep copy of a frozen or plain lossless JSON value.

    Raises:
        LossyJsonError: ``value`` is not lossless JSON; the message names the path.
    """
    return materialize(value, accept_tuples=True)


def dumps(value: object) -> str:
    """Encode a lossless JSON value (plain or frozen) as compact JSON text.

    The value is checked first: msgspec on its own would write ``NaN`` as
    ``null`` and ``-0.0`` as ``-0.0``, both of which change the value.

    Raises:
        LossyJsonError: ``value`` is not lossless JSON; the message names the path.
    """
    checked = materialize(value, accept_tuples=True)
    return _encoder.encode(checked).decode("utf-8")


def loads(text: str | bytes) -> JsonValue:
    """Decode JSON text into a plain lossless JSON value.

    Text that parses but does not hold lossless JSON is refused the same way
    :func:`~bridge.lossless.materialize` refuses a Python value: an integer the
    float type cannot hold exactly, ``-0.0``, or nesting deeper than
    :data:`~bridge.lossless.MAX_DEPTH`.

    Raises:
        LossyJsonError: the decoded value is not lossless JSON.
        msgspec.DecodeError: ``text`` is not JSON (a ``ValueError``).
    """
    try:
        decoded = _decoder.decode(text)
    except RecursionError:
        # msgspec recurses once per container; anything it cannot decode is
        # far past the depth every boundary allows.
        raise LossyJsonError(f"containers are nested deeper than {MAX_DEPTH} levels") from None
    return materialize(decoded)
