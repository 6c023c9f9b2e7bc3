"""What a child's frame may cost the host: budgets first, then a decode bounded in place.

Every budget (log output, bytes in flight, the value cap) is checked before the
frame's JSON is decoded; JSON text over ``INLINE_DECODE_BYTES`` is decoded in a
worker thread, never on the event loop; and the fast lossless check agrees with
``materialize`` on every value. The tests count decodes and order events; none
times anything.
"""

from __future__ import annotations

import sys
import threading
from typing import TYPE_CHECKING

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

import bridge._decoding
import bridge.host
from bridge._decoding import (
    INLINE_DECODE_BYTES,
    Abandoned,
    decode_lossless,
    host_charge,
    is_lossless_decoded,
    values_bound,
)
from bridge.lossless import MAX_DEPTH, LossyJsonError, materialize
from bridge.protocol import (
    HEADER_BYTES,
    MAX_LOG_LINES_PER_FRAME,
    Call,
    ChildMessageDecoder,
    Done,
    Log,
    Where,
    encode_frame,
    peek_tag,
)
from tests.strategies import json_values

from .test_host_endpoint import Blocked, Echo, FakeChild, done, make_run, serve

if TYPE_CHECKING:
    from bridge.lossless import JsonValue


@pytest.fixture
def decoded(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, bool]]:
    """Every JSON text the host decodes: its length, and whether on the event loop's thread."""
    seen: list[tuple[int, bool]] = []
    loop_thread = threading.get_ident()
    real = bridge._decoding.decode_lossless

    def recording(raw: bytes, stop: threading.Event | None = None) -> JsonValue:
        seen.append((len(raw), threading.get_ident() == loop_thread))
        return real(raw, stop)

    monkeypatch.setattr(bridge._decoding, "decode_lossless", recording)
    return seen


def args_of(size: int) -> bytes:
    """A JSON object of about ``size`` bytes: a list of zeros, the cheapest text per item."""
    return b'{"x":[' + b"0," * max(0, (size - 10) // 2) + b"0]}"


# ------------------------------------------------------------------ budgets before decoding


async def test_a_call_over_the_bytes_in_flight_is_refused_before_its_arguments_are_decoded(
    decoded: list[tuple[int, bool]],
) -> None:
    small, big = args_of(600), args_of(900)

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", small), Call(1, "t", big))
        child.release.wait()

    outcome = await serve(script, Blocked(), max_pending_bytes=1000)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1] == (
        f"the child has {len(small) + len(big)} bytes of tool calls and replies in flight, "
        "over the limit of 1000 bytes (max_pending_bytes; long arguments count about what "
        "the host holds once they are decoded: their text and 64 bytes per list or object, "
        "48 per string and 16 per value); send less data per call, or fewer calls at once"
    )
    assert [size for size, _ in decoded] == [len(small)]


def _count_values(value: JsonValue) -> int:
    if isinstance(value, list):
        return 1 + sum(_count_values(item) for item in value)
    if isinstance(value, dict):
        return 1 + sum(1 + _count_values(item) for item in value.values())  # keys too
    return 1


@given(json_values())
def test_the_values_bound_read_from_the_text_never_undercounts(value: JsonValue) -> None:
    for raw in (msgspec.json.encode(value), msgspec.json.format(msgspec.json.encode(value))):
        assert values_bound(raw) >= _count_values(value)


def _held_bytes(value: object) -> int:
    """What a decoded value holds, by ``sys.getsizeof`` (shared small ints counted too)."""
    size = sys.getsizeof(value)
    if isinstance(value, list):
        size += sum(_held_bytes(item) for item in value)
    elif isinstance(value, dict):
        size += sum(_held_bytes(key) + _held_bytes(item) for key, item in value.items())
    return size


@given(json_values())
def test_the_charge_is_about_what_the_decoded_value_holds(value: JsonValue) -> None:
    # Not less than half, whatever the shape: the budget bounds host memory.
    raw = msgspec.json.encode(value)
    assert host_charge(raw) >= _held_bytes(msgspec.json.decode(raw)) / 2


async def test_long_arguments_are_charged_what_they_decode_to_and_refused_undecoded(
    decoded: list[tuple[int, bool]],
) -> None:
    # Empty lists: 3 bytes of text each, a Python list and a slot each in the host.
    lists = b'{"x":[' + b"[]," * 4000 + b"[]]}"
    budget = 50_000
    assert len(lists) < budget < host_charge(lists)

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", lists))
        child.release.wait()

    outcome = await serve(script, Blocked(), max_pending_bytes=budget)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1].startswith(
        f"the child has {host_charge(lists)} bytes of tool calls and replies in flight, "
        f"over the limit of {budget} bytes (max_pending_bytes; long arguments count about "
    )
    assert decoded == []


async def test_long_arguments_whose_charge_fits_are_decoded_off_the_loop_and_served(
    decoded: list[tuple[int, bool]],
) -> None:
    records = msgspec.json.encode({"rows": [{"name": f"customer {n}"} for n in range(400)]})
    assert len(records) > INLINE_DECODE_BYTES

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", records))
        child.recv_reply()
        child.send(done(1))

    outcome = await serve(script, Echo(), max_pending_bytes=2 * host_charge(records))
    assert outcome.error is None, outcome.error
    assert decoded[0] == (len(records), False)  # decoded, off the loop


async def test_a_value_over_the_cap_is_refused_before_it_is_decoded(
    decoded: list[tuple[int, bool]],
) -> None:
    value = args_of(5000)

    def script(child: FakeChild) -> None:
        child.send(Done(value=value))

    outcome = await serve(script, run=make_run(max_value_bytes=len(value) - 1))
    assert outcome.error == (
        "output-limit",
        f"the program's return value is {len(value)} bytes as JSON, over the limit of "
        f"{len(value) - 1} bytes (max_value_bytes)",
    )
    assert decoded == []


async def test_a_value_whose_compact_form_is_over_the_cap_is_still_refused() -> None:
    # Hostile text need not be compact: 1e5 is three bytes, 100000.0 eight.
    def script(child: FakeChild) -> None:
        child.send(Done(value=b"[" + b"1e5," * 200 + b"1e5]"))

    outcome = await serve(script, run=make_run(max_value_bytes=1000))
    assert outcome.error is not None
    assert outcome.error[0] == "output-limit"
    # 201 numbers of eight bytes, 200 commas and two brackets.
    assert outcome.error[1].startswith("the program's return value is 1810 bytes as JSON")


async def test_a_log_frame_over_the_output_budget_is_refused_before_it_is_decoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded_kinds: list[str] = []
    real = ChildMessageDecoder.decode

    def recording(self: object, body: bytes) -> object:
        decoded_kinds.append(peek_tag(body) or "?")
        return real(self, body)  # type: ignore[arg-type]

    monkeypatch.setattr(ChildMessageDecoder, "decode", recording)
    line = "x" * 1000
    run = make_run(max_log_bytes=10_000)

    def script(child: FakeChild) -> None:
        child.send(Log((line,) * 5), Log((line,) * 40))
        child.release.wait()

    outcome = await serve(script, run=run)
    assert outcome.error is not None
    assert outcome.error[0] == "output-limit"
    assert outcome.error[1].startswith("the program's output exceeded 10000 bytes")
    assert decoded_kinds == ["ready", "log"]  # the second log frame never was


@given(st.lists(st.text(max_size=40), max_size=200))
def test_the_log_budget_read_from_a_frames_size_never_overcounts(lines: list[str]) -> None:
    lines = [line.encode("utf-8", "replace").decode() for line in lines]
    counted = sum(len(line.encode()) + 1 for line in lines)
    body = encode_frame(Log(tuple(lines)))[4:]
    assert len(body) - bridge.host._LOG_ENVELOPE_BYTES <= counted


def test_the_log_envelope_bound_covers_a_full_frame_of_empty_lines() -> None:
    lines = ("",) * MAX_LOG_LINES_PER_FRAME
    body = encode_frame(Log(lines))[4:]
    assert len(body) - bridge.host._LOG_ENVELOPE_BYTES <= MAX_LOG_LINES_PER_FRAME


@given(
    sizes=st.lists(st.integers(min_value=2, max_value=3000), min_size=1, max_size=12),
    budget=st.integers(min_value=100, max_value=20_000),
)
async def test_arguments_are_decoded_only_while_they_fit_the_bytes_in_flight(
    sizes: list[int], budget: int
) -> None:
    # Calls never finish, so the bytes in flight only grow: the host decodes the
    # arguments of each call that fits and refuses, undecoded, the first that
    # does not.
    frames = [args_of(size) for size in sizes]
    seen: list[int] = []
    real = bridge._decoding.decode_lossless

    def recording(raw: bytes, stop: threading.Event | None = None) -> JsonValue:
        seen.append(len(raw))
        return real(raw, stop)

    def script(child: FakeChild) -> None:
        child.send(*(Call(n, "t", raw) for n, raw in enumerate(frames)), done(1))
        child.release.wait()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(bridge._decoding, "decode_lossless", recording)
        outcome = await serve(script, Blocked(), max_pending_bytes=budget, max_pending_calls=64)
    fitting, total = [], 0
    for raw in frames:
        if total + len(raw) > budget:
            break
        total += len(raw)
        fitting.append(len(raw))
    if len(fitting) < len(frames):
        assert seen == fitting
        assert outcome.error is not None
        assert f"over the limit of {budget} bytes (max_pending_bytes" in outcome.error[1]
    else:
        assert seen == [*fitting, len(b"1")]  # and the final value
        assert outcome.error is None
        assert outcome.value == 1


# ------------------------------------------------------------------ frames that do nothing


def _frame(body: bytes) -> bytes:
    return len(body).to_bytes(HEADER_BYTES, "big") + body


async def test_line_reports_past_their_budget_end_the_run() -> None:
    # A child sends one Where, when its CPU limit stops it; a stream of them
    # would keep the host's loop busy for the whole wall clock.
    reports = bridge.host.MAX_WHERE_REPORTS

    def script(child: FakeChild) -> None:
        child.send(*(Where(n) for n in range(reports + 1)), done(1))
        child.release.wait()

    outcome = await serve(script)
    assert outcome.error == (
        "worker-exit",
        f"the child sent more than {reports} line reports (Where) during its run; "
        "a child sends one, when it is stopped",
    )


async def test_line_reports_within_their_budget_are_kept() -> None:
    def script(child: FakeChild) -> None:
        child.send(*(Where(n) for n in range(bridge.host.MAX_WHERE_REPORTS)), done(1))

    outcome = await serve(script)
    assert outcome.error is None
    assert outcome.value == 1


async def test_a_log_frame_without_lines_is_refused() -> None:
    # Every log frame must spend output budget, or empty ones could flow forever.
    body = msgspec.msgpack.encode(["log", []])

    def script(child: FakeChild) -> None:
        child.send(_frame(body), done(1))
        child.release.wait()

    outcome = await serve(script)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert "length >= 1" in outcome.error[1]


@pytest.mark.parametrize("header", [b"\xd9\x03", b"\xda\x00\x03", b"\xdb\x00\x00\x00\x03"])
async def test_a_log_frame_is_held_to_its_budget_whatever_string_form_its_tag_takes(
    header: bytes, monkeypatch: pytest.MonkeyPatch
) -> None:
    body = encode_frame(Log(("x" * 1000,) * 40))[HEADER_BYTES:]
    assert body[1] == 0xA3  # the tag "log" as a fixstr
    recoded = body[:1] + header + body[2:]
    assert ChildMessageDecoder().decode(recoded) == Log(("x" * 1000,) * 40)
    assert peek_tag(recoded) == "log"
    decodes: list[bytes] = []
    real = ChildMessageDecoder.decode

    def recording(self: object, frame: bytes) -> object:
        decodes.append(frame)
        return real(self, frame)  # type: ignore[arg-type]

    monkeypatch.setattr(ChildMessageDecoder, "decode", recording)

    def script(child: FakeChild) -> None:
        child.send(_frame(recoded))
        child.release.wait()

    outcome = await serve(script, run=make_run(max_log_bytes=10_000))
    assert outcome.error is not None
    assert outcome.error[0] == "output-limit"
    assert recoded not in decodes  # refused from its size, before it was decoded


# ------------------------------------------------------------------ where decoding happens


async def test_long_arguments_and_values_are_decoded_off_the_event_loop(
    decoded: list[tuple[int, bool]],
) -> None:
    short, long = args_of(INLINE_DECODE_BYTES), args_of(INLINE_DECODE_BYTES + 2)
    handler = Echo()

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", short))
        child.recv_reply()
        child.send(Call(1, "t", long))
        child.recv_reply()
        child.send(Done(value=long))

    outcome = await serve(script, handler, run=make_run(max_value_bytes=len(long)))
    assert outcome.error is None, outcome.error
    assert len(handler.calls) == 2
    assert decoded == [(len(short), True), (len(long), False), (len(long), False)]


def test_an_abandoned_decode_stops_at_its_next_container() -> None:
    stop = threading.Event()
    stop.set()
    raw = b"[" + b"[0]," * (MAX_DEPTH + 10) + b"[0]]"
    with pytest.raises(Abandoned):
        decode_lossless(raw, stop)


def test_the_collector_is_back_on_after_a_long_decode_and_left_off_if_it_was() -> None:
    import gc

    raw = args_of(INLINE_DECODE_BYTES * 4)
    assert gc.isenabled()
    decode_lossless(raw)
    assert gc.isenabled()
    gc.disable()
    try:
        decode_lossless(raw)
        assert not gc.isenabled()
    finally:
        gc.enable()


# ------------------------------------------------------------------ the fast lossless check

_LOSSY_SCALARS = st.sampled_from([-0.0, 2**53 + 1, -(2**60) - 1, 10**30]) | st.integers(
    min_value=2**53
)


def _nested(depth: int) -> JsonValue:
    value: JsonValue = 0
    for _ in range(depth):
        value = [value]
    return value


@given(
    json_values()
    | st.lists(json_values() | _LOSSY_SCALARS, max_size=5)
    | st.dictionaries(st.text(max_size=3), _LOSSY_SCALARS | json_values(), max_size=4)
    | st.integers(min_value=MAX_DEPTH - 2, max_value=MAX_DEPTH + 2).map(_nested)
    | _LOSSY_SCALARS
)
def test_the_fast_check_agrees_with_materialize(value: JsonValue) -> None:
    try:
        text = msgspec.json.encode(value)
        decoded_value = msgspec.json.decode(text)
    except (msgspec.EncodeError, msgspec.DecodeError, OverflowError):
        return  # not JSON text at all
    try:
        materialize(decoded_value)
    except LossyJsonError:
        lossless = False
    else:
        lossless = True
    assert is_lossless_decoded(decoded_value, None) == lossless
    if lossless:
        assert decode_lossless(text) == decoded_value
    else:
        with pytest.raises(LossyJsonError):
            decode_lossless(text)
