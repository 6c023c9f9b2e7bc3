"""Peer text in the host's messages is cut before it is transformed, never after.

A message that quotes what a child sent must cost the host a bounded amount of
work, whatever the child sent: ``bounded_text(repr(name))`` cut its result, but
``repr`` had already walked and copied a name as long as a frame (ten
characters of repr for each of its characters). Each message builder is fed a
peer string as long as the frame cap, and the tests count the characters it
produces and the characters it hands to ``repr`` or to msgspec's quoting
decoder; none times anything.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any, cast

import msgspec
import pytest

import bridge._child_frames
import bridge._decoding
import bridge.host
import bridge.lossless
import bridge.protocol
from bridge._child_frames import Violation, checked_args, checked_done, decoded_args
from bridge._decoding import decode_lossless
from bridge.lossless import LossyJsonError
from bridge.protocol import (
    DEFAULT_MAX_FRAME_BYTES,
    SHOWN_TEXT_CHARS,
    Call,
    ChildMessageDecoder,
    Done,
    Failure,
    ProtocolError,
    bounded_repr,
    bounded_text,
)

from .test_host_endpoint import FakeChild, serve

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

#: An astral character that repr shows as ten characters: 4 bytes of UTF-8.
ASTRAL = "\U000e0001"
#: A peer string as long as the default frame cap allows, in characters.
CAP_CHARS = (DEFAULT_MAX_FRAME_BYTES - 64) // 4
#: The longest message any builder may make of it.
MESSAGE_CHARS = 1000


@pytest.fixture
def repr_inputs(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The length of every string the bridge's host modules hand to ``repr``."""
    seen: list[int] = []

    def counted(value: object) -> str:
        if isinstance(value, str):
            seen.append(len(value))
        return builtins.repr(value)

    for module in (
        bridge.host, bridge.protocol, bridge._child_frames, bridge._decoding, bridge.lossless
    ):
        monkeypatch.setattr(module, "repr", counted, raising=False)
    return seen


class SpyDecoder:
    """Stands in for msgspec's decoder of child messages; records what reaches it."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.bodies: list[int] = []

    def decode(self, body: bytes) -> Any:
        self.bodies.append(len(body))
        return self.real.decode(body)


def spied_decoder() -> tuple[ChildMessageDecoder, SpyDecoder]:
    decoder = ChildMessageDecoder()
    spy = SpyDecoder(decoder._decoder)
    decoder._decoder = cast("Any", spy)
    return decoder, spy


# ------------------------------------------------------------------------ tool names


async def test_an_undeclared_tool_name_is_cut_before_it_is_quoted(
    repr_inputs: list[int],
) -> None:
    name = ASTRAL * CAP_CHARS

    def script(child: FakeChild) -> None:
        child.send(Call(0, name, b"{}"))
        child.release.wait()

    outcome = await serve(script, max_frame_bytes=DEFAULT_MAX_FRAME_BYTES)
    assert outcome.error is not None
    kind, message = outcome.error
    assert kind == "worker-exit"
    assert message.startswith("the child called tool '\\U000e0001\\U000e0001")
    assert message.endswith(
        f"... ({CAP_CHARS} characters in all), which its program was not given"
    )
    assert len(message) < 2 * SHOWN_TEXT_CHARS
    assert max(repr_inputs) <= SHOWN_TEXT_CHARS


async def test_a_refused_name_is_named_cut_with_its_length_in_characters() -> None:
    # Its repr is four times as long: the length given is the name's own.
    def script(child: FakeChild) -> None:
        child.send(Call(0, "\x01" * 300, b"{}"))
        child.release.wait()

    outcome = await serve(script)
    assert outcome.error is not None
    message = outcome.error[1]
    assert message.startswith("the child called tool '" + "\\x01" * 49)
    assert message.endswith("... (300 characters in all), which its program was not given")


def test_bounded_repr_quotes_short_text_whole_and_cuts_long_text_first(
    repr_inputs: list[int],
) -> None:
    assert bounded_repr("t") == "'t'"
    assert bounded_repr("a\nb") == "'a\\nb'"
    long = ASTRAL * CAP_CHARS
    shown = bounded_repr(long)
    assert shown.startswith("'\\U000e0001")
    assert shown.endswith(f"... ({CAP_CHARS} characters in all)")
    assert len(shown) < SHOWN_TEXT_CHARS + 60
    assert max(repr_inputs) <= SHOWN_TEXT_CHARS


# ------------------------------------------------------------------------ what the decoder quotes


@pytest.mark.parametrize(
    "message",
    [
        pytest.param(["x" * (DEFAULT_MAX_FRAME_BYTES - 64), 1], id="tag"),
        pytest.param(
            ["done", b"null", ["x" * (DEFAULT_MAX_FRAME_BYTES - 64), "boom"]], id="failure-kind"
        ),
    ],
)
def test_a_string_the_decoder_would_quote_whole_is_refused_from_its_header(
    message: list[object],
) -> None:
    # msgspec names an unknown tag or failure kind by quoting all of it, before
    # anything can cut it: such a frame must not reach it.
    decoder, spy = spied_decoder()
    body = msgspec.msgpack.encode(message)
    with pytest.raises(ProtocolError) as caught:
        decoder.decode(body)
    assert str(caught.value).startswith("undecodable frame from the child: a string of ")
    assert len(str(caught.value)) < SHOWN_TEXT_CHARS
    assert spy.bodies == []


@pytest.mark.parametrize(
    ("message", "decoded"),
    [
        pytest.param(["nope", 1], 1, id="tag"),
        pytest.param(["x" * 16, 1], 1, id="tag-16"),
        pytest.param(["x" * 17, 1], 0, id="tag-17"),
        pytest.param(["done", b"null", ["oops", "boom"]], 1, id="failure-kind"),
        pytest.param(["done", b"null", ["x" * 17, "boom"]], 0, id="failure-kind-17"),
        pytest.param(["done", b"null", []], 1, id="no-kind"),
        pytest.param(["done", "null", ["x" * 17, "boom"]], 1, id="value-not-bin"),
    ],
)
def test_short_unknown_strings_are_still_named_by_the_decoder(
    message: list[object], decoded: int
) -> None:
    decoder, spy = spied_decoder()
    with pytest.raises(ProtocolError, match=r"^undecodable frame from the child: "):
        decoder.decode(msgspec.msgpack.encode(message))
    assert len(spy.bodies) == decoded


def test_frames_the_header_check_passes_still_decode() -> None:
    decoder, spy = spied_decoder()
    done = Done(error=Failure("invalid-output", "x" * 100_000))
    assert decoder.decode(msgspec.msgpack.encode(done)) == done
    assert decoder.decode(msgspec.msgpack.encode(Done())) == Done()
    assert len(spy.bodies) == 2


# ------------------------------------------------------------------------ every builder


def _huge_key_json() -> bytes:
    return b'{"' + (ASTRAL * (CAP_CHARS - 8)).encode() + b'":-0.0}'


def _huge_text() -> str:
    return ASTRAL * CAP_CHARS


async def _undeclared() -> str:
    return bridge.host._undeclared_tool(_huge_text()).message


async def _bounded_text() -> str:
    return bounded_text(_huge_text())


async def _bounded_repr() -> str:
    return bounded_repr(_huge_text())


async def _decoder_tag() -> str:
    ChildMessageDecoder().decode(msgspec.msgpack.encode([_huge_text(), 1]))
    raise AssertionError("decoded")


async def _decoder_kind() -> str:
    ChildMessageDecoder().decode(msgspec.msgpack.encode(["done", b"null", [_huge_text(), ""]]))
    raise AssertionError("decoded")


async def _decoder_wrong_type() -> str:
    ChildMessageDecoder().decode(msgspec.msgpack.encode(["call", _huge_text(), "t", b"{}"]))
    raise AssertionError("decoded")


async def _decoder_bad_event() -> str:
    ChildMessageDecoder().decode(msgspec.msgpack.encode(["tripped", _huge_text(), ""]))
    raise AssertionError("decoded")


async def _lossy_key_inline() -> str:
    decode_lossless(_huge_key_json())
    raise AssertionError("decoded")


async def _lossy_args() -> str:
    call = Call(0, "t", _huge_key_json())
    await checked_args(call, 0, 1 << 40)
    raise AssertionError("decoded")


async def _lossy_short_args() -> str:
    decoded_args(Call(0, "t", b'{"' + b"\\u0001" * 600 + b'":-0.0}'))
    raise AssertionError("decoded")


async def _bad_json_args() -> str:
    await checked_args(Call(0, "t", b'{"a":"' + _huge_text().encode() + b'\\q"}'), 0, 1 << 40)
    raise AssertionError("decoded")


async def _long_error_message() -> str:
    await checked_done(Done(error=Failure("exception", _huge_text())), 1000)
    raise AssertionError("accepted")


async def _value_not_json() -> str:
    value = b'"' + _huge_text().encode() + b"\\q"
    await checked_done(Done(value=value), len(value))
    raise AssertionError("accepted")


BUILDERS: dict[str, Callable[[], Awaitable[str]]] = {
    "undeclared tool": _undeclared,
    "bounded_text": _bounded_text,
    "bounded_repr": _bounded_repr,
    "decoder: tag": _decoder_tag,
    "decoder: failure kind": _decoder_kind,
    "decoder: wrong type": _decoder_wrong_type,
    "decoder: tripwire event": _decoder_bad_event,
    "decode_lossless: lossy value under a long key": _lossy_key_inline,
    "long arguments: lossy value under a long key": _lossy_args,
    "short arguments: lossy value under a long key": _lossy_short_args,
    "long arguments: not JSON": _bad_json_args,
    "Done: error message over the cap": _long_error_message,
    "Done: value not JSON": _value_not_json,
}


@pytest.mark.parametrize("build", BUILDERS.values(), ids=BUILDERS.keys())
async def test_every_message_of_a_frame_sized_peer_string_is_short(
    build: Callable[[], Awaitable[str]], repr_inputs: list[int]
) -> None:
    try:
        message = await build()
    except (Violation, ProtocolError, LossyJsonError, msgspec.DecodeError) as exc:
        message = str(exc)
    assert len(message) <= MESSAGE_CHARS
    assert max(repr_inputs, default=0) <= SHOWN_TEXT_CHARS
