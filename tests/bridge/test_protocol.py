"""Wire messages, framing and the strict decoders of ``bridge.protocol``."""

from __future__ import annotations

import itertools
import os
import struct
from typing import TYPE_CHECKING, Any

import msgspec
import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from bridge.lossless import FrozenDict, LossyJsonError, materialize
from bridge.protocol import (
    HEADER_BYTES,
    MAX_LOG_LINES_PER_FRAME,
    PROTOCOL_VERSION,
    Call,
    ChildMessage,
    ChildMessageDecoder,
    Done,
    Failure,
    FrameBuffer,
    FrameTooLarge,
    HostMessage,
    HostMessageDecoder,
    Log,
    PipeClosed,
    ProtocolError,
    Ready,
    Reply,
    Run,
    Where,
    encode_frame,
    encode_value,
    read_frame,
)
from tests.strategies import json_values

if TYPE_CHECKING:
    from collections.abc import Callable

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=30)
ids = st.integers(min_value=0, max_value=2**63 - 1)
json_bytes = json_values().map(msgspec.json.encode)

runs = st.builds(
    Run,
    code=st.binary(max_size=200),
    restricted=st.booleans(),
    tool_names=st.lists(text, max_size=5).map(tuple),
    max_log_bytes=st.integers(0, 2**40),
    max_value_bytes=st.integers(0, 2**40),
    max_frame_bytes=st.integers(0, 2**40),
    cpu_seconds=st.integers(0, 10**6),
    memory_bytes=st.integers(0, 2**48),
    max_open_files=st.integers(0, 10**6),
    os_layer=st.booleans(),
)
replies = st.builds(
    Reply,
    id=ids,
    value=json_bytes,
    error=st.none() | text,
    code=st.none() | text,
    exception_type=st.none() | text,
)
readies = st.builds(
    Ready,
    version=st.integers(0, 2**31),
    pid=st.integers(1, 2**31),
    unprotected=st.lists(text, max_size=3).map(tuple),
)
calls = st.builds(Call, id=ids, name=text, args=json_bytes)
logs = st.builds(Log, lines=st.lists(text, min_size=1, max_size=20).map(tuple))
failures = st.builds(
    Failure, kind=st.sampled_from(["exception", "invalid-output", "output-limit"]), message=text
)
dones = st.builds(Done, value=json_bytes, error=st.none() | failures)

host_messages: st.SearchStrategy[HostMessage] = runs | replies
wheres = st.builds(Where, line=st.none() | st.integers(-(2**63), 2**63 - 1))
child_messages: st.SearchStrategy[ChildMessage] = readies | calls | logs | dones | wheres


def split_at(data: bytes, cuts: list[int]) -> list[bytes]:
    """Cut ``data`` at the given offsets (clamped and sorted)."""
    points = sorted({min(c, len(data)) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def decode_stream(chunks: list[bytes], limit: int = 1 << 20) -> list[bytes]:
    frames = FrameBuffer(max_frame_bytes=limit)
    bodies = []
    for chunk in chunks:
        frames.feed(chunk)
        while (body := frames.next_body()) is not None:
            bodies.append(body)
    assert frames.pending == 0
    return bodies


@given(st.lists(host_messages, max_size=5), st.lists(st.integers(0, 4000), max_size=10))
def test_host_messages_round_trip_through_frames_cut_anywhere(
    messages: list[HostMessage], cuts: list[int]
) -> None:
    stream = b"".join(encode_frame(m) for m in messages)
    decoder = HostMessageDecoder()
    bodies = decode_stream(split_at(stream, cuts))
    assert [decoder.decode(b) for b in bodies] == messages


@given(st.lists(child_messages, max_size=5), st.lists(st.integers(0, 4000), max_size=10))
def test_child_messages_round_trip_through_frames_cut_anywhere(
    messages: list[ChildMessage], cuts: list[int]
) -> None:
    stream = b"".join(encode_frame(m) for m in messages)
    decoder = ChildMessageDecoder()
    bodies = decode_stream(split_at(stream, cuts))
    assert [decoder.decode(b) for b in bodies] == messages


@given(json_values())
def test_json_values_survive_a_call_frame(value: object) -> None:
    frame = encode_frame(Call(0, "t", msgspec.json.encode(value)))
    decoded = ChildMessageDecoder().decode(frame[4:])
    assert isinstance(decoded, Call)
    assert msgspec.json.decode(decoded.args) == value


def test_integers_beyond_64_bits_survive_a_reply_frame() -> None:
    frame = encode_frame(Reply(3, value=msgspec.json.encode({"n": 2**70})))
    decoded = HostMessageDecoder().decode(frame[4:])
    assert isinstance(decoded, Reply)
    assert msgspec.json.decode(decoded.value) == {"n": 2**70}


def test_a_reply_without_the_exception_type_field_still_decodes() -> None:
    # The field was appended with a default: a frame written before it existed
    # (four array items) decodes with no exception type.
    body = msgspec.msgpack.encode(["reply", 5, b"null", "it failed", "E_X"])
    decoded = HostMessageDecoder().decode(body)
    assert decoded == Reply(5, error="it failed", code="E_X", exception_type=None)


def test_frames_start_with_a_big_endian_body_length() -> None:
    frame = encode_frame(Ready(PROTOCOL_VERSION, 42))
    (length,) = struct.unpack(">I", frame[:4])
    assert length == len(frame) - 4


@given(host_messages)
def test_the_child_decoder_refuses_host_messages(message: HostMessage) -> None:
    with pytest.raises(ProtocolError, match=r"^undecodable frame from the child: "):
        ChildMessageDecoder().decode(encode_frame(message)[4:])


@given(child_messages)
def test_the_host_decoder_refuses_child_messages(message: ChildMessage) -> None:
    with pytest.raises(ProtocolError, match=r"^undecodable frame from the host: "):
        HostMessageDecoder().decode(encode_frame(message)[4:])


@pytest.mark.parametrize(
    "body",
    [
        msgspec.msgpack.encode(["nope", 1]),  # unknown tag
        msgspec.msgpack.encode(["call", 0, "t", b"{}", "extra"]),  # extra field
        msgspec.msgpack.encode(["call", "0", "t", b"{}"]),  # wrong field type
        msgspec.msgpack.encode(["call", 0, "t"]),  # missing field
        msgspec.msgpack.encode({"type": "call"}),  # not an array
        msgspec.msgpack.encode(["log", ["\u00e9"]])[:-1] + b"\xff",  # invalid UTF-8
        msgspec.msgpack.encode(["done", b"1", ["timeout", "x"]]),  # kind a child cannot send
        msgspec.msgpack.encode(["ready", 1, 2]) + b"\x00",  # trailing bytes
        b"",
    ],
)
def test_the_child_decoder_refuses_malformed_bodies(body: bytes) -> None:
    with pytest.raises(ProtocolError):
        ChildMessageDecoder().decode(body)


def test_a_log_frame_with_too_many_lines_is_refused() -> None:
    body = msgspec.msgpack.encode(["log", [""] * (MAX_LOG_LINES_PER_FRAME + 1)])
    with pytest.raises(ProtocolError, match=r"length <= 4096"):
        ChildMessageDecoder().decode(body)


@given(st.lists(child_messages, max_size=5), st.lists(st.integers(0, 4000), max_size=10))
def test_complete_says_whether_next_body_has_a_frame(
    messages: list[ChildMessage], cuts: list[int]
) -> None:
    # The host's reader wakes the waiting task only when `complete` says a
    # frame is whole: it must agree with next_body at every point of a stream.
    stream = b"".join(encode_frame(m) for m in messages)
    frames = FrameBuffer(max_frame_bytes=1 << 20)
    bodies = []
    for chunk in split_at(stream, cuts):
        frames.feed(chunk)
        while True:
            complete = frames.complete
            body = frames.next_body()
            assert complete == (body is not None)
            if body is None:
                break
            bodies.append(body)
    assert bodies == [encode_frame(m)[HEADER_BYTES:] for m in messages]


def test_an_oversized_length_prefix_is_refused_before_any_body_arrives() -> None:
    frames = FrameBuffer(max_frame_bytes=1000)
    with pytest.raises(
        FrameTooLarge,
        match=r"^frame of 4294967295 bytes announced, over the limit of 1000 bytes "
        r"\(max_frame_bytes\); the body was not read$",
    ):
        frames.feed(b"\xff\xff\xff\xff")


def test_an_oversized_frame_after_a_good_one_is_refused_only_after_the_good_one() -> None:
    good = encode_frame(Log(("a",)))
    frames = FrameBuffer(max_frame_bytes=100)
    frames.feed(good + struct.pack(">I", 101))
    assert frames.next_body() == good[4:]
    with pytest.raises(FrameTooLarge):
        frames.next_body()


def test_a_frame_exactly_at_the_cap_is_accepted() -> None:
    frames = FrameBuffer(max_frame_bytes=5)
    frames.feed(struct.pack(">I", 5) + b"12345")
    assert frames.next_body() == b"12345"


@pytest.mark.parametrize("limit", [0, -1, True, 1.5])
def test_a_frame_buffer_rejects_a_bad_cap(limit: object) -> None:
    with pytest.raises((ValueError, TypeError), match=r"max_frame_bytes="):
        FrameBuffer(max_frame_bytes=limit)  # type: ignore[arg-type]


def test_read_frame_reports_a_pipe_closed_in_the_middle_of_a_frame() -> None:
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, encode_frame(Ready(1, 1))[:-2])
        os.close(write_fd)
        with pytest.raises(PipeClosed, match=r"^the pipe was closed in the middle of a frame"):
            read_frame(read_fd, FrameBuffer())
    finally:
        os.close(read_fd)


def test_read_frame_returns_frames_one_by_one() -> None:
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, encode_frame(Log(("a",))) + encode_frame(Log(("b",))))
        frames = FrameBuffer()
        decoder = ChildMessageDecoder()
        assert decoder.decode(read_frame(read_fd, frames)) == Log(("a",))
        assert decoder.decode(read_frame(read_fd, frames)) == Log(("b",))
    finally:
        os.close(read_fd)
        os.close(write_fd)


#: Scalars on both sides of the lossless line.
edge_scalars = st.sampled_from(
    [0.0, -0.0, float("nan"), float("inf"), 2**53, 2**53 + 1, -(2**53) - 1, 2**70, True, None,
     "", "ascii", "é", "\ud800", 1.5, b"bytes", (1,), [1], {"a": 1}]
)
scalars = (
    edge_scalars
    | st.integers(-(2**60), 2**60)
    | st.floats()
    | st.text("ab", max_size=3)
    | st.text(max_size=3)
)
# Mostly ASCII keys, so that most objects are candidates for the quick check.
keys = st.text("xyz", max_size=2) | st.sampled_from(["\udfff", "é"])
flat_args = st.dictionaries(keys, scalars, max_size=4)


@example({"a": -0.0}, False)
@example({"a": 2**53 + 1}, False)
@example({"a": "\ud800"}, False)
@example(FrozenDict({"a": -0.0}), True)
@given(
    flat_args | st.dictionaries(st.integers(), scalars, max_size=2) | scalars
    | flat_args.map(lambda d: FrozenDict(d))  # type: ignore[arg-type]
    | st.tuples(scalars),
    st.booleans(),
)
def test_encode_value_agrees_with_materialize(args: Any, accept_tuples: bool) -> None:
    def verdict(encode: Callable[[], bytes]) -> tuple[str, object]:
        try:
            return ("ok", encode())
        except LossyJsonError as exc:
            return ("lossy", str(exc))

    assert verdict(lambda: encode_value(args, accept_tuples=accept_tuples)) == verdict(
        lambda: msgspec.json.encode(materialize(args, accept_tuples=accept_tuples))
    )
