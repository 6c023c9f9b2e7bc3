"""A hostile child process feeding random and adversarial frames to the host endpoint.

The fake child is a small Python process: it writes whatever bytes the test
hands it to its protocol pipe, then either exits or stays alive, silent, until
the host closes the pipe. Whatever it sends, the endpoint must return an
outcome (never raise), must not hang while the child misbehaves (every serve is
bounded by ``fail_after``), and the test leaves no process behind.
"""

from __future__ import annotations

import os
import struct
import subprocess
import sys
from typing import TYPE_CHECKING

import anyio
import msgspec
import pytest
from anyio import wait_all_tasks_blocked
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.host import HostEndpoint, RunOutcome
from bridge.protocol import (
    PROTOCOL_VERSION,
    Call,
    Done,
    Failure,
    Log,
    ProtocolError,
    Ready,
    Run,
    encode_frame,
)
from tests.strategies import json_values

if TYPE_CHECKING:
    from anyio.abc import Process

    from bridge.lossless import JsonValue

#: The fake child: argv = [write fd, read fd, "exit" | "hold"]; stdin = bytes to send.
FAKE_CHILD = """
import os, sys
out_fd, in_fd, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
data = memoryview(sys.stdin.buffer.read())
try:
    while data:
        data = data[os.write(out_fd, data):]
except BrokenPipeError:
    pass
if mode == "hold":
    while os.read(in_fd, 65536):
        pass
"""

MAX_FRAME = 64 * 1024
KINDS = {"worker-exit", "output-limit", "invalid-output", "exception"}


class Answers:
    """Answers every call at once."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return {"name": name, "args": args}


def run_message(tool_names: tuple[str, ...] = ("t", "u")) -> Run:
    return Run(
        code=b"\x00" * 16, restricted=True, tool_names=tool_names, max_log_bytes=2000,
        max_value_bytes=2000, max_frame_bytes=MAX_FRAME, cpu_seconds=30,
        memory_bytes=1 << 30, max_open_files=32,
    )


async def start_fake_child(payload: bytes, mode: str) -> tuple[Process, int, int]:
    """Start a fake child that sends ``payload``; return it and the host's two fds."""
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    try:
        process = await anyio.open_process(
            [sys.executable, "-I", "-S", "-c", FAKE_CHILD, str(to_host_w), str(to_child_r), mode],
            stdin=subprocess.PIPE,
            stdout=None,
            stderr=None,
            pass_fds=(to_host_w, to_child_r),
        )
    finally:
        os.close(to_host_w)
        os.close(to_child_r)
    assert process.stdin is not None
    await process.stdin.send(payload)
    await process.stdin.aclose()
    return process, to_host_r, to_child_w


async def stop_fake_child(process: Process, *fds: int) -> None:
    """Close the host's fds, kill the child if it is still alive, and reap it."""
    for fd in fds:
        os.close(fd)
    with anyio.CancelScope(shield=True):
        if process.returncode is None:
            process.kill()
        await process.wait()
    assert process.returncode is not None


async def serve_fake_child(
    payload: bytes, *, mode: str = "exit", max_pending_calls: int = 4,
    ready_first: bool = True,
) -> RunOutcome:
    """Start a fake child that sends ``payload`` and serve one run against it."""
    if ready_first:
        payload = encode_frame(Ready(PROTOCOL_VERSION, 1)) + payload
    process, read_fd, write_fd = await start_fake_child(payload, mode)
    try:
        endpoint = HostEndpoint(read_fd, write_fd, max_frame_bytes=MAX_FRAME)
        with anyio.fail_after(20):
            await endpoint.receive_ready()
            return await endpoint.serve(
                run_message(), Answers(), max_pending_calls=max_pending_calls
            )
    finally:
        await stop_fake_child(process, read_fd, write_fd)


def check(outcome: RunOutcome) -> None:
    """An outcome is either a success or one of the failure kinds, with a message."""
    if outcome.error is not None:
        kind, message = outcome.error
        assert kind in KINDS
        assert message
        assert outcome.value is None


# ---------------------------------------------------------------------- strategies

text = st.text(st.characters(exclude_categories=["Cs"]), max_size=12)


@st.composite
def adversarial_streams(draw: st.DrawFn) -> bytes:
    """Mostly well-formed frames, with wrong ids, unknown tags, garbage, lies about sizes."""
    pieces: list[bytes] = []
    next_id = 0
    for _ in range(draw(st.integers(0, 12))):
        kind = draw(st.sampled_from(
            ["call", "call", "bad-id", "log", "done", "bad-done", "ready", "garbage",
             "unknown-tag", "huge", "truncated", "bad-args", "bad-utf8"]
        ))
        if kind == "call":
            args = draw(st.dictionaries(text, json_values(max_leaves=5), max_size=3))
            name = draw(st.sampled_from(["t", "u", "undeclared"]))
            pieces.append(encode_frame(Call(next_id, name, msgspec.json.encode(args))))
            next_id += 1
        elif kind == "bad-id":
            pieces.append(encode_frame(Call(draw(st.integers(0, 2**63 - 1)), "t", b"{}")))
        elif kind == "log":
            pieces.append(encode_frame(Log(tuple(draw(st.lists(text, max_size=50))))))
        elif kind == "done":
            value = draw(json_values(max_leaves=10))
            pieces.append(encode_frame(Done(value=msgspec.json.encode(value))))
        elif kind == "bad-done":
            raw = draw(st.sampled_from([b"-0.0", b"1e999", b"[1,", b"NaN", b'"\\ud800"',
                                        b"12345678901234567890123"]))
            error = draw(st.none() | st.builds(Failure, st.just("exception"), text))
            pieces.append(encode_frame(Done(value=raw, error=error)))
        elif kind == "ready":
            pieces.append(encode_frame(Ready(PROTOCOL_VERSION, 1)))
        elif kind == "garbage":
            body = draw(st.binary(max_size=40))
            pieces.append(struct.pack(">I", len(body)) + body)
        elif kind == "unknown-tag":
            body = msgspec.msgpack.encode([draw(text), draw(st.integers(-(2**63), 2**63))])
            pieces.append(struct.pack(">I", len(body)) + body)
        elif kind == "huge":
            pieces.append(struct.pack(">I", draw(st.integers(MAX_FRAME + 1, 2**32 - 1))))
        elif kind == "truncated":
            frame = encode_frame(Log(("cut short",)))
            pieces.append(frame[: draw(st.integers(1, len(frame) - 1))])
        elif kind == "bad-args":
            raw = draw(st.sampled_from([b"[]", b"1", b"{", b'{"a":-0.0}', b'{"a":1e999}']))
            pieces.append(encode_frame(Call(next_id, "t", raw)))
            next_id += 1
        else:  # bad-utf8: a log line whose bytes are not UTF-8
            body = msgspec.msgpack.encode(["log", ["ab"]])[:-1] + b"\xff"
            pieces.append(struct.pack(">I", len(body)) + body)
    return b"".join(pieces)


# ---------------------------------------------------------------------- properties


@pytest.mark.slow
@settings(max_examples=60)
@given(st.binary(max_size=300))
async def test_random_bytes_never_crash_or_hang_the_host(payload: bytes) -> None:
    check(await serve_fake_child(payload))


@pytest.mark.slow
@settings(max_examples=100)
@given(adversarial_streams())
async def test_adversarial_frames_never_crash_or_hang_the_host(payload: bytes) -> None:
    check(await serve_fake_child(payload))


@pytest.mark.slow
@settings(max_examples=30)
@given(adversarial_streams())
async def test_a_child_that_stays_alive_after_misbehaving_is_not_waited_for(
    payload: bytes,
) -> None:
    # Whatever frame the stream stopped in, these bytes complete it and then
    # announce an oversized frame, so the host must finish while the child is
    # still alive and silent.
    closing = b"\xff" * (MAX_FRAME + 2 * 4)
    check(await serve_fake_child(payload + closing, mode="hold"))


# ---------------------------------------------------------------------- scenarios


async def test_garbage_instead_of_ready_fails_the_handshake() -> None:
    with pytest.raises(ProtocolError):
        await serve_fake_child(b"\x00\x00\x00\x01\xc1", ready_first=False)


async def test_silence_then_exit_is_a_worker_exit() -> None:
    outcome = await serve_fake_child(b"")
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.child_closed


async def test_a_flood_of_calls_from_a_live_child_ends_the_run() -> None:
    # The child never reads its replies: once the pipe is full, calls stay in flight.
    flood = b"".join(encode_frame(Call(n, "t", b"{}")) for n in range(10_000))
    outcome = await serve_fake_child(flood, mode="hold", max_pending_calls=4)
    assert outcome.error == (
        "worker-exit", "the child has more than 4 tool calls in flight (max_pending_calls)"
    )


async def test_a_log_flood_from_a_live_child_ends_the_run_as_output_limit() -> None:
    flood = encode_frame(Log(("z" * 1000,))) * 100
    outcome = await serve_fake_child(flood, mode="hold")
    assert outcome.error is not None
    assert outcome.error[0] == "output-limit"


async def test_a_silent_live_child_leaves_serve_cancellable() -> None:
    payload = encode_frame(Ready(PROTOCOL_VERSION, 1))
    process, read_fd, write_fd = await start_fake_child(payload, "hold")
    try:
        endpoint = HostEndpoint(read_fd, write_fd)
        with anyio.fail_after(20):
            await endpoint.receive_ready()
            async with anyio.create_task_group() as tg:
                tg.start_soon(endpoint.serve, run_message(), Answers())
                await wait_all_tasks_blocked()
                tg.cancel_scope.cancel()
        assert process.returncode is None  # still alive: the pool's wall clock deals with it
    finally:
        await stop_fake_child(process, read_fd, write_fd)
