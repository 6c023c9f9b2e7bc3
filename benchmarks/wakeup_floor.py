"""What waking another process costs on this machine: the floor under every cross-process figure.

Run with ``python benchmarks/wakeup_floor.py [--rounds N] [--json FILE]``. Two plain
processes (a fork, no event loop, no codemode) ping-pong 100 bytes over two pipes, the
way a run's ``Run``/``Done`` and a sub-call's ``Call``/``Reply`` cross between host and
child. Printed, as medians in microseconds:

* ``round trip``: write, then block in ``read`` until the answer arrives;
* ``write``: the writer's own time in ``write`` (waking a reader that sleeps on an idle
  CPU is paid here, by the waker);
* each after an idle gap of 0 (back to back), 0.3 ms and 3 ms before the write (a warm
  child waits idle for its ``Run``; a host waits for the child's answer), with the two
  processes free to run on any CPU, and pinned to one CPU together;
* ``syscall after idle``: one ``getppid`` right after the same gaps (caches and TLB
  gone cold while the CPU slept);
* ``busy waker``: the writer goes on computing for 200 µs after its write, as a host goes
  on with its own work after sending ``Run`` or a ``Reply``, instead of blocking at once:
  its time in ``write``, and the time from the start of the write until the reader's
  ``read`` has returned (the reader notes the time; both read the same monotonic clock).

Nothing here depends on codemode: run it on a machine to learn how much of ``W1`` and
``W3`` the machine itself takes before any Python work is done.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import struct
import sys
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

_GAPS = (0.0, 0.0003, 0.003)
_PAYLOAD = b"x" * 100
#: How long the busy waker computes after its write.
_BUSY_SECONDS = 0.0002


def _echo(read_fd: int, write_fd: int) -> None:
    while True:
        data = os.read(read_fd, 4096)
        if not data:
            os._exit(0)
        os.write(write_fd, data)


def _stamp(read_fd: int, write_fd: int) -> None:
    # Answers with the time its read returned, on the clock the writer reads too.
    while True:
        data = os.read(read_fd, 4096)
        woken = time.monotonic()
        if not data:
            os._exit(0)
        os.write(write_fd, struct.pack("d", woken))


def _peer(serve: Callable[[int, int], None], cpus: set[int] | None) -> tuple[int, int, int]:
    """Fork a process running ``serve`` over two pipes: its pid, and our write and read ends."""
    to_child, from_host = os.pipe()
    to_host, from_child = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(from_host)
        os.close(to_host)
        if cpus is not None:
            os.sched_setaffinity(0, cpus)
        serve(to_child, from_child)
    os.close(to_child)
    os.close(from_child)
    return pid, from_host, to_host


def _end_peer(pid: int, write_fd: int, read_fd: int) -> None:
    os.close(write_fd)  # the peer reads the end of the pipe and exits
    os.waitpid(pid, 0)
    os.close(read_fd)


def _ping_pong(rounds: int, gap: float, cpus: set[int] | None) -> tuple[float, float]:
    """Median round trip and median write time, in microseconds."""
    pid, write_fd, read_fd = _peer(_echo, cpus)
    before = os.sched_getaffinity(0)
    if cpus is not None:
        os.sched_setaffinity(0, cpus)
    trips: list[float] = []
    writes: list[float] = []
    try:
        for _ in range(rounds):
            if gap:
                time.sleep(gap)
            start = time.perf_counter()
            os.write(write_fd, _PAYLOAD)
            written = time.perf_counter()
            os.read(read_fd, 4096)
            done = time.perf_counter()
            writes.append(written - start)
            trips.append(done - start)
    finally:
        os.sched_setaffinity(0, before)
        _end_peer(pid, write_fd, read_fd)
    return statistics.median(trips) * 1e6, statistics.median(writes) * 1e6


def _busy_waker(rounds: int, gap: float) -> tuple[float, float]:
    """Median time in ``write`` and until the reader has the data, the writer busy after."""
    pid, write_fd, read_fd = _peer(_stamp, None)
    writes: list[float] = []
    wakes: list[float] = []
    try:
        for _ in range(rounds):
            if gap:
                time.sleep(gap)
            start = time.monotonic()
            os.write(write_fd, _PAYLOAD)
            written = time.monotonic()
            while time.monotonic() - written < _BUSY_SECONDS:
                pass
            (woken,) = struct.unpack("d", os.read(read_fd, 8))
            writes.append(written - start)
            wakes.append(woken - start)
    finally:
        _end_peer(pid, write_fd, read_fd)
    return statistics.median(writes) * 1e6, statistics.median(wakes) * 1e6


def _syscall_after(rounds: int, gap: float) -> float:
    times = []
    for _ in range(rounds):
        if gap:
            time.sleep(gap)
        start = time.perf_counter()
        os.getppid()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e6


def measure(rounds: int) -> dict[str, float]:
    """Every figure, under a stable name (``round_trip_us.free.gap_300us``, ...)."""
    one_cpu = {min(os.sched_getaffinity(0))}
    figures: dict[str, float] = {}
    for gap in _GAPS:
        gap_name = f"gap_{round(gap * 1e6)}us"
        for placement, cpus in (("free", None), ("one_cpu", one_cpu)):
            trip, write = _ping_pong(rounds, gap, cpus)
            figures[f"round_trip_us.{placement}.{gap_name}"] = trip
            figures[f"write_us.{placement}.{gap_name}"] = write
        figures[f"syscall_us.{gap_name}"] = _syscall_after(rounds, gap)
        write, wake = _busy_waker(rounds, gap)
        figures[f"write_us.busy_waker.{gap_name}"] = write
        figures[f"wake_us.busy_waker.{gap_name}"] = wake
    return figures


def _table(figures: dict[str, float]) -> str:
    lines = [
        "| idle gap before the write | round trip, any CPU | write, any CPU "
        "| round trip, one CPU | write, one CPU | getppid after the gap "
        "| write, busy waker | until the reader has it, busy waker |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for gap in _GAPS:
        name = f"gap_{round(gap * 1e6)}us"
        lines.append(
            f"| {gap * 1e3:g} ms | {figures[f'round_trip_us.free.{name}']:.1f} µs "
            f"| {figures[f'write_us.free.{name}']:.1f} µs "
            f"| {figures[f'round_trip_us.one_cpu.{name}']:.1f} µs "
            f"| {figures[f'write_us.one_cpu.{name}']:.1f} µs "
            f"| {figures[f'syscall_us.{name}']:.2f} µs "
            f"| {figures[f'write_us.busy_waker.{name}']:.1f} µs "
            f"| {figures[f'wake_us.busy_waker.{name}']:.1f} µs |"
        )
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=2000, help="samples per figure")
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    if args.rounds < 1:
        parser.error(f"--rounds must be 1 or more; got {args.rounds}")
    if not hasattr(os, "sched_setaffinity"):
        print("this benchmark needs os.sched_setaffinity (Linux)", file=sys.stderr)
        return 2
    figures = measure(args.rounds)
    print(_table(figures))
    print(f"\n{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(figures, file, indent=2, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
