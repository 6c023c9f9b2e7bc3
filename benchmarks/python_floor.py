"""The least a fresh-CPython-process design can take on this machine, beside Monty.

Run with ``python -m benchmarks.python_floor [--rounds N] [--samples N] [--json FILE]``. A lean fork
server (an isolated interpreter that imported ``os``, ``marshal``, ``struct`` and
``asyncio``, nothing of codemode) forks the children, and each child does only what any
design that runs an async Python program in a fresh process must do, none of what a
sandbox adds (no language layer, no OS limits, no tripwire, no protocol decoding, no
output capture, no checks on the value):

* **W1 floor**: a child forked ahead runs a warm-up program, says it is ready and
  waits on a pipe; the host (an asyncio loop, as in ``python -m benchmarks``) writes
  the marshalled code of ``return 1``; the child loads it, runs it on the event loop
  it made before, writes the result and exits; the sample ends when the host's reader
  has it. Each sample finds its child idle for a few milliseconds, as a warm child is.
* **W3 floor**: 1,000 sequential calls, each the child writing 9 bytes and blocking
  on the 9-byte answer, which the host writes from its reader callback (no task, no
  decoding, no schema); per call.
* **W7 floor**: the fork server alone forks children that run ``return 1`` on a fresh
  loop, report and exit, two in flight, and reaps them: runs per second with no host
  work at all.
* **memory floor**: the USS of a child that has run its warm-up program and waits.

Monty's W1, W3, W7 and worker memory are measured in the same run, its W1 and W3
samples taken as ``python -m benchmarks`` takes them (a system's samples in a row, the
order alternating by round, each after the same idle gap), so that each floor can be
read against its target in ``BENCHMARKS.md`` (W1 ≤ 0.7× Monty, W3 ≤ 0.2× Monty and
≤ 100 µs, W7 ≥ 400/s, idle memory ≤ 2 MiB): a floor that misses its target shows that
no design built of fresh CPython processes meets it here, whatever it leaves out.
"""

from __future__ import annotations

import asyncio
import importlib.util
import marshal
import os
import statistics
import struct
import sys
import time
from typing import TYPE_CHECKING, Final

import anyio

from benchmarks._contenders import BenchmarkError, Monty, uss_kib
from benchmarks._floor_script import ForkServer, run_floor_script
from benchmarks._workloads import IDLE_SECONDS, IN_FLIGHT, THROUGHPUT_RUNS, workloads

if TYPE_CHECKING:
    import types

__all__ = ["measure"]

#: Sequential calls in the W3 floor (as in W3).
_CALLS: Final = 1000
#: The fork server. Messages between host and child are 9 bytes: a tag (``r`` ready,
#: ``c`` call, ``d`` done) and a signed 64-bit int.
_SERVER: Final = r'''
import asyncio, marshal, os, socket, struct, sys

WARM_UP = compile("async def main():\n    return 1\n", "<warm-up>", "exec")


def child(read_fd, write_fd):
    def call(value):
        os.write(write_fd, struct.pack("=cq", b"c", value))
        return struct.unpack("=cq", os.read(read_fd, 9))[1]

    loop = asyncio.new_event_loop()
    namespace = {"call": call}
    exec(WARM_UP, namespace)
    loop.run_until_complete(namespace["main"]())
    os.write(write_fd, struct.pack("=cq", b"r", os.getpid()))
    code = marshal.loads(os.read(read_fd, 65536))
    namespace = {"call": call}
    exec(code, namespace)
    value = loop.run_until_complete(namespace["main"]())
    os.write(write_fd, struct.pack("=cq", b"d", value))
    os._exit(0)


def fresh_run():
    # W7: fork, run, report, exit; the parent reads the report and reaps.
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:
        loop = asyncio.new_event_loop()
        namespace = {}
        exec(WARM_UP, namespace)
        os.write(write_fd, struct.pack("=cq", b"d", loop.run_until_complete(namespace["main"]())))
        os._exit(0)
    os.close(write_fd)
    return pid, read_fd


def throughput(runs):
    running = {}
    started = 0
    while started < min(runs, 2):
        pid, fd = fresh_run()
        running[pid] = fd
        started += 1
    while running:
        pid, _ = os.wait()
        fd = running.pop(pid)
        if os.read(fd, 9) != struct.pack("=cq", b"d", 1):
            raise SystemExit("a W7 floor child did not return 1")
        os.close(fd)
        if started < runs:
            pid, fd = fresh_run()
            running[pid] = fd
            started += 1


sock = socket.socket(fileno=int(sys.argv[1]))
while True:
    request = sock.recv(64)
    if not request:
        break
    while True:  # reap the children of earlier samples
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            break
    if request == b"child":
        to_child, from_host = os.pipe()
        to_host, from_child = os.pipe()
        pid = os.fork()
        if pid == 0:
            sock.close()
            os.close(from_host)
            os.close(to_host)
            child(to_child, from_child)
        os.close(to_child)
        os.close(from_child)
        socket.send_fds(sock, [b"child"], [from_host, to_host])
        os.close(from_host)
        os.close(to_host)
    else:
        throughput(int(request.split()[1]))
        sock.sendall(b"ran")
'''

_W1_PROGRAM: Final = compile("async def main():\n    return 1\n", "<w1>", "exec")
_W3_PROGRAM: Final = compile(
    f"async def main():\n    total = 0\n    for i in range({_CALLS}):\n"
    "        total += call(i)\n    return total\n",
    "<w3>",
    "exec",
)
_W3_VALUE: Final = sum(range(_CALLS))
_MESSAGE: Final = struct.Struct("=cq")


def _throughput(server: ForkServer, runs: int) -> float:
    """W7's floor: the server forks, runs and reaps ``runs`` children, two in flight."""
    start = time.perf_counter()
    if server.ask(b"runs %d" % runs) != b"ran":
        raise BenchmarkError("the fork server's W7 floor run failed")
    return runs / (time.perf_counter() - start)


class _Child:
    """A floor child seen from the host's event loop: its messages arrive on a reader."""

    def __init__(self, write_fd: int, read_fd: int) -> None:
        self.write_fd, self.read_fd = write_fd, read_fd
        self._loop = asyncio.get_running_loop()
        self._waiter: asyncio.Future[tuple[bytes, int]] | None = None
        self._exited = self._loop.create_future()
        self._loop.add_reader(read_fd, self._on_readable)

    def _on_readable(self) -> None:
        data = os.read(self.read_fd, 4096)
        if not data:
            self._loop.remove_reader(self.read_fd)
            self._exited.set_result(None)
            if self._waiter is not None and not self._waiter.done():
                self._waiter.set_exception(BenchmarkError("a floor child exited early"))
            return
        for offset in range(0, len(data), _MESSAGE.size):
            tag, value = _MESSAGE.unpack_from(data, offset)
            if tag == b"c":  # a call: answered at once, as the leanest host would
                os.write(self.write_fd, _MESSAGE.pack(b"a", value))
            elif self._waiter is not None and not self._waiter.done():
                self._waiter.set_result((tag, value))

    async def next(self) -> tuple[bytes, int]:
        self._waiter = self._loop.create_future()
        return await self._waiter

    async def exited(self) -> None:
        """Wait until the child has closed its end (it is exiting)."""
        await self._exited

    def close(self) -> None:
        self._loop.remove_reader(self.read_fd)
        os.close(self.write_fd)
        os.close(self.read_fd)


async def _ready_child(server: ForkServer) -> tuple[_Child, int]:
    child = _Child(*server.child())
    tag, pid = await child.next()
    if tag != b"r":
        raise BenchmarkError(f"a floor child said {tag!r} instead of ready")
    return child, pid


async def _floor_run(server: ForkServer, code: types.CodeType, expected: int) -> float:
    child, _ = await _ready_child(server)
    try:
        await anyio.sleep(IDLE_SECONDS)
        message = marshal.dumps(code)
        start = time.perf_counter()
        os.write(child.write_fd, message)
        tag, value = await child.next()
        elapsed = time.perf_counter() - start
        # As the benchmark lets a system settle: the next sample, ours or
        # Monty's, does not share the CPUs with this child's exit.
        await child.exited()
        await anyio.sleep(IDLE_SECONDS)
    finally:
        child.close()
    if (tag, value) != (b"d", expected):
        raise BenchmarkError(f"a floor child returned {tag!r} {value!r}, not {expected}")
    return elapsed


async def _floor_uss_kib(server: ForkServer) -> float:
    child, pid = await _ready_child(server)
    try:
        await anyio.sleep(0.05)  # let it settle into its read
        return float(uss_kib(pid))
    finally:
        os.write(child.write_fd, marshal.dumps(_W1_PROGRAM))
        await child.next()
        child.close()


async def measure(rounds: int, *, samples: int = 20) -> dict[str, float]:
    """Every figure, under a stable name (``w1_floor_us``, ``w1_monty_us``, ...).

    Monty's figures are left out when pydantic-monty is not installed.
    """
    by_key = {workload.key: workload for workload in workloads(0.01)}
    w1, w3 = by_key["w1"], by_key["w3"]
    monty = Monty() if importlib.util.find_spec("pydantic_monty") is not None else None
    server = ForkServer(_SERVER)
    lists: dict[str, list[float]] = {"w1_floor_us": [], "w3_floor_us": []}
    if monty is not None:
        lists |= {"w1_monty_us": [], "w3_monty_us": []}
        await monty.open()
    try:
        for round_index in range(rounds):
            # As python -m benchmarks takes them: each system's samples of a
            # workload in a row, the systems' order alternating by round.
            floor_first = round_index % 2 == 0
            for first in (floor_first, not floor_first):
                if first:
                    for _ in range(samples):
                        lists["w1_floor_us"].append(
                            await _floor_run(server, _W1_PROGRAM, 1) * 1e6
                        )
                    lists["w3_floor_us"].append(
                        await _floor_run(server, _W3_PROGRAM, _W3_VALUE) * 1e6 / _CALLS
                    )
                elif monty is not None:
                    # The same idle gap before each sample as the floor's child
                    # (and as python -m benchmarks gives every system).
                    for _ in range(samples):
                        await anyio.sleep(IDLE_SECONDS)
                        lists["w1_monty_us"].append(await monty.run(w1) * 1e6)
                    await anyio.sleep(IDLE_SECONDS)
                    lists["w3_monty_us"].append(await monty.run(w3) * 1e6 / w3.calls)
        figures = {name: statistics.median(values) for name, values in lists.items()}
        figures["w7_floor_per_s"] = statistics.median(
            _throughput(server, THROUGHPUT_RUNS) for _ in range(rounds)
        )
        figures["uss_floor_mib"] = statistics.median(
            [await _floor_uss_kib(server) for _ in range(IN_FLIGHT)]
        ) / 1024
        if monty is not None:
            monty_w7 = await monty.throughput(THROUGHPUT_RUNS)
            if monty_w7 is not None:
                figures["w7_monty_per_s"] = monty_w7
            monty_uss = await monty.idle_uss_kib()
            if monty_uss is not None:
                figures["uss_monty_mib"] = monty_uss / 1024
    finally:
        if monty is not None:
            await monty.close()
        server.close()
    return figures


def _table(figures: dict[str, float]) -> str:
    monty_w1, monty_w3 = figures.get("w1_monty_us"), figures.get("w3_monty_us")
    w1_target = None if monty_w1 is None else 0.7 * monty_w1
    w3_target = 100.0 if monty_w3 is None else min(0.2 * monty_w3, 100.0)
    rows = [
        ("W1 trivial run", "w1_floor_us", "w1_monty_us", "µs",
         "≤ 0.7× Monty" + ("" if w1_target is None else f" = {w1_target:.0f} µs"),
         None if w1_target is None else figures["w1_floor_us"] <= w1_target),
        ("W3 per sub-call", "w3_floor_us", "w3_monty_us", "µs",
         f"≤ 0.2× Monty and ≤ 100 µs = {w3_target:.0f} µs",
         figures["w3_floor_us"] <= w3_target),
        ("W7 fresh-process runs/s", "w7_floor_per_s", "w7_monty_per_s", "/s", "≥ 400/s",
         figures["w7_floor_per_s"] >= 400),
        ("idle worker, USS", "uss_floor_mib", "uss_monty_mib", "MiB", "≤ 2 MiB",
         figures["uss_floor_mib"] <= 2),
    ]
    lines = [
        "| figure | lean CPython floor | Monty | target | the floor meets it |",
        "|---|---|---|---|---|",
    ]
    for name, floor_key, peer_key, unit, target, met in rows:
        digits = 2 if unit == "MiB" else 0 if unit == "/s" else 1
        peer = figures.get(peer_key)
        shown = "not installed" if peer is None else f"{peer:.{digits}f} {unit}"
        verdict = "unknown (no Monty)" if met is None else "yes" if met else "no"
        lines.append(
            f"| {name} | {figures[floor_key]:.{digits}f} {unit} | {shown} | {target} | {verdict} |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    return run_floor_script(
        __doc__, measure, _table, argv, samples_help="W1 samples per round and system (default 20)"
    )


if __name__ == "__main__":
    sys.exit(main())
