"""Frame round trips over raw pipes: the floor, the protocol, and the full bridge.

Run with ``python benchmarks/bridge_roundtrip.py [--rounds N]``. Prints medians
(and the 90th percentile) in microseconds for:

* ``bare pipe``: a 100-byte ``os.write``/``os.read`` ping-pong, no framing;
* ``frames``: a :class:`~bridge.protocol.Call` frame out and a
  :class:`~bridge.protocol.Reply` frame back, encoded, framed and strictly
  decoded on both sides, with 100 B and 100 KB payloads (blocking I/O);
* ``bridge``: ``await tools.echo(...)`` in a child's asyncio loop through the
  ``tools`` proxy, served by :class:`~bridge.host.HostEndpoint` in an anyio loop
  (what one sub-call costs the sandbox, without the registry pipeline).

The peer is a forked process, so host and child may run on different CPUs;
figures vary with that placement (see DESIGN.md §8).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from typing import TYPE_CHECKING

import anyio
import msgspec

from bridge.child import ChildChannel, recv_run, send_ready
from bridge.host import HostEndpoint
from bridge.protocol import (
    Call,
    ChildMessageDecoder,
    FrameBuffer,
    HostMessageDecoder,
    Reply,
    Run,
    encode_frame,
    read_frame,
    write_all,
)
from bridge.proxy import make_bindings

if TYPE_CHECKING:
    from bridge.lossless import JsonValue


def pipes() -> tuple[int, int, int, int]:
    """(host reads, child writes, child reads, host writes)."""
    host_read, child_write = os.pipe()
    child_read, host_write = os.pipe()
    return host_read, child_write, child_read, host_write


def fork(child: object, host_fds: tuple[int, int], *args: object) -> int:
    """Run ``child(*args)`` in a forked process that first closes the host's fds."""
    pid = os.fork()
    if pid == 0:
        try:
            for fd in host_fds:
                os.close(fd)
            child(*args)  # type: ignore[operator]
        finally:
            os._exit(0)
    return pid


def summary(label: str, samples: list[float]) -> str:
    samples = sorted(samples)
    median = statistics.median(samples) * 1e6
    p90 = samples[int(len(samples) * 0.9)] * 1e6
    return f"{label:<28} median {median:9.1f} µs   p90 {p90:9.1f} µs   (n={len(samples)})"


# ---------------------------------------------------------------------- bare pipe


def bare_echo(read_fd: int, write_fd: int) -> None:
    while data := os.read(read_fd, 65536):
        os.write(write_fd, data)


def bench_bare(rounds: int) -> list[float]:
    host_read, child_write, child_read, host_write = pipes()
    pid = fork(bare_echo, (host_read, host_write), child_read, child_write)
    os.close(child_read)
    os.close(child_write)
    payload = b"x" * 100
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        os.write(host_write, payload)
        received = 0
        while received < len(payload):
            received += len(os.read(host_read, 65536))
        samples.append(time.perf_counter() - start)
    os.close(host_write)
    os.waitpid(pid, 0)
    os.close(host_read)
    return samples


# ---------------------------------------------------------------------- frames


def frame_echo(read_fd: int, write_fd: int) -> None:
    # The child's side of a call: send Call, wait for Reply. Here reversed so
    # that the parent measures: the "child" answers each Call with a Reply.
    frames = FrameBuffer()
    decoder = ChildMessageDecoder()
    while True:
        try:
            message = decoder.decode(read_frame(read_fd, frames))
        except Exception:
            return
        assert isinstance(message, Call)
        write_all(write_fd, encode_frame(Reply(message.id, value=message.args)))


def bench_frames(rounds: int, size: int) -> list[float]:
    host_read, child_write, child_read, host_write = pipes()
    pid = fork(frame_echo, (host_read, host_write), child_read, child_write)
    os.close(child_read)
    os.close(child_write)
    args = msgspec.json.encode({"data": "x" * (size - 11)})
    frames = FrameBuffer()
    decoder = HostMessageDecoder()
    samples = []
    for n in range(rounds):
        start = time.perf_counter()
        write_all(host_write, encode_frame(Call(n, "echo", args)))
        reply = decoder.decode(read_frame(host_read, frames))
        samples.append(time.perf_counter() - start)
        assert isinstance(reply, Reply)
    os.close(host_write)
    os.waitpid(pid, 0)
    os.close(host_read)
    return samples


# ---------------------------------------------------------------------- full bridge


def bridge_child(read_fd: int, write_fd: int, rounds: int) -> None:
    channel = ChildChannel(read_fd, write_fd)
    send_ready(channel)
    run = recv_run(channel)
    bindings, _on_return, after_run = make_bindings(channel, run.tool_names)
    tools = bindings["tools"]

    async def program() -> list[float]:
        samples = []
        for n in range(rounds):
            start = time.perf_counter()
            await tools.echo(n=n)  # type: ignore[attr-defined]
            samples.append(time.perf_counter() - start)
        return samples

    samples = asyncio.run(program())
    after_run()
    channel.send_done(samples)  # type: ignore[arg-type]


class Echo:
    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return args


async def serve_bridge(host_read: int, host_write: int, rounds: int) -> list[float]:
    endpoint = HostEndpoint(host_read, host_write)
    await endpoint.receive_ready()
    run = Run(
        code=b"", restricted=True, tool_names=("echo",), max_log_bytes=1024,
        max_value_bytes=1 << 22, max_frame_bytes=1 << 24, cpu_seconds=60,
        memory_bytes=1 << 30, max_open_files=64,
    )
    outcome = await endpoint.serve(run, Echo())
    assert outcome.error is None, outcome.error
    assert isinstance(outcome.value, list)
    return [float(x) for x in outcome.value]  # type: ignore[arg-type]


def bench_bridge(rounds: int) -> list[float]:
    host_read, child_write, child_read, host_write = pipes()
    pid = fork(bridge_child, (host_read, host_write), child_read, child_write, rounds)
    os.close(child_read)
    os.close(child_write)
    try:
        return anyio.run(serve_bridge, host_read, host_write, rounds)
    finally:
        os.waitpid(pid, 0)
        os.close(host_read)
        os.close(host_write)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=2000, help="round trips per small case")
    options = parser.parse_args()
    rounds = options.rounds
    print(summary("bare pipe 100 B", bench_bare(rounds)))
    print(summary("frames 100 B", bench_frames(rounds, 100)))
    print(summary("frames 100 KB", bench_frames(max(rounds // 10, 10), 100_000)))
    print(summary("bridge tools.echo() 100 B", bench_bridge(rounds)))


if __name__ == "__main__":
    main()
