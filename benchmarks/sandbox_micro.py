"""Micro-benchmarks of the sandbox pool: latency, round trips, forks, memory, CPU ratio.

Run from the project root::

    python benchmarks/sandbox_micro.py            # default sizes
    python benchmarks/sandbox_micro.py --quick    # fewer repetitions

The frame round trip comes from ``benchmarks/bridge_roundtrip.py``. Every
figure is a median over repetitions (ratios are medians of paired runs).
Nothing here is an assertion: machines are noisy, the numbers go into
BENCHMARKS.md by hand together with the machine they came from.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bridge_roundtrip import bench_frames

from sandbox import Limits, WorkerPool
from sandbox._compile import compile_program
from sandbox.testing import EchoHandler, wait_for_idle

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

# Each program times its own loop, so the ratios compare the loops alone
# (no process, protocol or event-loop overhead on either side).
_ARITHMETIC = """
import time
start = time.perf_counter()
total = 0
for i in range(N):
    total += (i * 7 + 3) % 11 - (i >> 2)
return time.perf_counter() - start
"""

_ATTRIBUTES = """
import time
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
points = [Point(i, i + 1) for i in range(100)]
table = {"a": 1, "b": 2}
values = [0] * 100
start = time.perf_counter()
total = 0
for n in range(N // 100):
    for p in points:
        total += p.x * p.y + table["a"] + values[p.x % 100]
return time.perf_counter() - start
"""


class NoopHandler:
    """Answers every call with ``None``: measures the transport, not a tool."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return None


def _median_ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e3:.3f} ms"


async def warm_trivial_run(pool: WorkerPool, repeat: int) -> list[float]:
    """Median time of ``pool.run("return 1")`` with a warm child waiting."""
    samples = []
    for _ in range(repeat):
        # Every warm child in place: the run does not compete with a refill.
        await wait_for_idle(pool, pool._size)
        start = time.perf_counter()
        result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
        samples.append(time.perf_counter() - start)
        assert result.value == 1, result.error
    return samples


async def call_round_trip(pool: WorkerPool, calls: int, repeat: int) -> list[float]:
    """Per-call cost of ``await tools.noop()``, timed inside the program."""
    source = (
        "import time\n"
        "start = time.perf_counter()\n"
        f"for i in range({calls}):\n"
        "    await tools.noop()\n"
        f"return (time.perf_counter() - start) / {calls}"
    )
    samples = []
    for _ in range(repeat):
        await wait_for_idle(pool, 1)
        result = await pool.run(source, tool_names=["noop"], handler=NoopHandler())
        assert isinstance(result.value, float), result.error
        samples.append(result.value)
    return samples


async def cold_fork(pool: WorkerPool, repeat: int) -> list[float]:
    """Fork from the zygote until READY (what a refill costs)."""
    settings = pool._settings_for(pool._limits)
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        child = await pool._start_child(settings)
        samples.append(time.perf_counter() - start)
        await pool._dispose(child, pool._zygote)
    return samples


async def runs_per_second(limits: Limits, runs: int, concurrency: int) -> float:
    """Fresh-process runs per second, ``concurrency`` runs in flight at a time."""
    async with WorkerPool(limits=limits, size=concurrency) as pool:
        await wait_for_idle(pool, concurrency)
        limiter = anyio.Semaphore(concurrency)

        async def one() -> None:
            async with limiter:
                result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
                assert result.value == 1, result.error

        start = time.perf_counter()
        async with anyio.create_task_group() as tg:
            for _ in range(runs):
                tg.start_soon(one)
        return runs / (time.perf_counter() - start)


def _uss_kib(pid: int) -> int:
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Private_Clean", "Private_Dirty"):
            total += int(rest.split()[0])
    return total


async def idle_child_uss(pool: WorkerPool) -> tuple[float, float]:
    """USS of idle children and of the zygote, in MiB."""
    await wait_for_idle(pool, pool._size)
    zygote = pool._zygote
    assert zygote is not None
    children = [_uss_kib(child.pid) for child in pool._idle]
    return statistics.median(children) / 1024, _uss_kib(zygote.ready.pid) / 1024


async def cpu_ratio(pool: WorkerPool, source: str, n: int, repeat: int) -> tuple[float, float]:
    """(sandboxed / plain exec, sandbox without language layer / plain exec)."""
    program = source.replace("N", str(n))
    plain_code = compile_program(program, restricted=False)
    plain_ratios: list[float] = []
    bare_ratios: list[float] = []
    for _ in range(repeat):
        namespace: dict[str, object] = {}
        exec(plain_code, namespace)  # the floor: the same program, plain CPython
        coroutine = namespace["__codemode_main__"]()  # type: ignore[operator]
        try:
            coroutine.send(None)
        except StopIteration as done:
            plain = float(done.value)
        for limits, ratios in (
            (Limits(wall_seconds=600, cpu_seconds=600), plain_ratios),
            (Limits(wall_seconds=600, cpu_seconds=600, language_layer=False), bare_ratios),
        ):
            result = await pool.run(program, tool_names=[], handler=EchoHandler(), limits=limits)
            assert isinstance(result.value, float), result.error
            ratios.append(result.value / plain)
    return statistics.median(plain_ratios), statistics.median(bare_ratios)


async def main(quick: bool) -> None:
    repeat = 20 if quick else 200
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} CPUs, pid {os.getpid()}")
    async with WorkerPool(size=2) as pool:
        await wait_for_idle(pool, 2)
        trivial = await warm_trivial_run(pool, repeat)
        print(f"warm trivial run (pool.run, return 1): {_median_ms(trivial)} "
              f"(fastest {min(trivial) * 1e3:.3f} ms)")
        per_call = await call_round_trip(pool, 1000, 5 if quick else 15)
        print(f"tool call round trip (no-op handler, 1000 calls): "
              f"{statistics.median(per_call) * 1e6:.1f} us")
        print("cold fork from the zygote until READY:", _median_ms(await cold_fork(pool, repeat)))
        child_mib, zygote_mib = await idle_child_uss(pool)
        print(f"idle child USS: {child_mib:.2f} MiB (zygote: {zygote_mib:.1f} MiB)")
        n = 200_000 if quick else 2_000_000
        for name, source in (("arithmetic", _ARITHMETIC), ("attribute/subscript", _ATTRIBUTES)):
            restricted, bare = await cpu_ratio(pool, source, n, 3 if quick else 5)
            print(f"CPU-bound {name} loop vs plain exec: {restricted:.2f}x sandboxed, "
                  f"{bare:.2f}x with the language layer off")
    for concurrency in (1, 2, 4):
        rate = await runs_per_second(Limits(), 100 if quick else 600, concurrency)
        print(f"fresh-process runs per second, {concurrency} in flight: {rate:.0f}/s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    arguments = parser.parse_args()
    # Before any event loop exists: the helper forks its echo peer.
    frames = bench_frames(500 if arguments.quick else 5000, 100)
    print(f"frame round trip (Call out, Reply back, 100 B, raw pipes): "
          f"{statistics.median(frames) * 1e6:.1f} us")
    anyio.run(main, arguments.quick)
