"""Micro-benchmarks of the sandbox pool: latency, round trips, forks, memory, CPU ratio.

Run from the project root::

    python benchmarks/sandbox_micro.py            # default sizes
    python benchmarks/sandbox_micro.py --quick    # fewer repetitions
    python benchmarks/sandbox_micro.py --tripwire # the tripwire's cost, side by side

The frame round trip comes from ``benchmarks/bridge_roundtrip.py``. Every
figure is a median over repetitions (ratios are medians of paired runs).
Nothing here is an assertion: machines are noisy, the numbers go into
BENCHMARKS.md by hand together with the machine they came from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from benchmarks._contenders import uss_kib
from benchmarks.bridge_roundtrip import bench_frames
from sandbox import Limits, WorkerPool
from sandbox._compile import compile_program
from sandbox.testing import EchoHandler, wait_for_idle

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

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


async def idle_child_uss(pool: WorkerPool) -> tuple[float, float]:
    """USS of idle children and of the zygote, in MiB."""
    await wait_for_idle(pool, pool._size)
    zygote = pool._zygote
    assert zygote is not None
    children = [uss_kib(child.pid) for child in pool._idle]
    return statistics.median(children) / 1024, uss_kib(zygote.ready.pid) / 1024


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


async def _cpu_per_call(pool: WorkerPool, calls: int) -> float:
    """The child's own CPU time per ``await tools.noop()`` (language layer off, for the clock)."""
    source = (
        "import time\n"
        "start = time.process_time()\n"
        f"for i in range({calls}):\n"
        "    await tools.noop()\n"
        f"return (time.process_time() - start) / {calls}"
    )
    await wait_for_idle(pool, 1)
    result = await pool.run(source, tool_names=["noop"], handler=NoopHandler())
    assert isinstance(result.value, float), result.error
    return result.value


def _hook_costs(armed: bool, repeat: int) -> dict[str, float]:
    """In a forked child: seconds per tool-stub call and per unwatched audited event.

    The same calls with the tripwire armed or not: what the hook itself adds,
    with no pipe, no host and no event loop (the best of ``repeat`` loops).
    """
    import bridge.proxy
    from sandbox._tripwire import make_tripwire

    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        try:
            calls = bridge.proxy._Calls(_Channel(), frozenset({"noop"}))  # type: ignore[arg-type]
            stub = bridge.proxy._ToolStub(calls, "noop")
            calls.tools = tools = object()
            namespace = {"stub": stub, "calls": calls, "tools": tools}
            exec(  # a program frame: its globals hold `tools`, as the stub expects
                compile("def call():\n    stub()\n    calls.unawaited.clear()", "<model>", "exec"),
                namespace,
            )
            call = namespace["call"]
            if armed:
                sys.addaudithook(make_tripwire(write_fd))
            measured = {}
            for name, step in (("stub call", call), ("id()", lambda: id(calls))):
                best = float("inf")
                for _ in range(repeat):
                    start = time.perf_counter()
                    for _ in range(1000):
                        step()  # type: ignore[operator]
                    best = min(best, (time.perf_counter() - start) / 1000)
                measured[name] = best
            os.write(write_fd, json.dumps(measured).encode())
        finally:
            os._exit(0)
    os.close(write_fd)
    data = b""
    while chunk := os.read(read_fd, 65536):
        data += chunk
    os.close(read_fd)
    os.waitpid(pid, 0)
    costs: dict[str, float] = json.loads(data)
    return costs


class _Channel:
    peer_max_frame_bytes = 1 << 20


async def tripwire_cost(quick: bool) -> None:
    """The warm trivial run and the call round trip with and without the tripwire.

    Two pools of each kind, one with the tripwire and one without, measured in
    pairs: each round takes one sample from each, in alternating order, so a
    change in the machine's load hits both sides alike. Reported: the median
    of each side and the median of the per-round ratios. The child's CPU time
    per call (``time.process_time`` inside the program, language layer off so
    that the program can read that clock) is the figure least moved by load.
    """
    rounds = 20 if quick else 150
    samples: dict[str, tuple[list[float], list[float]]] = {}

    async def paired(name: str, measure: Callable[[WorkerPool], Awaitable[float]]) -> None:
        armed_samples, bare_samples = samples.setdefault(name, ([], []))
        for index in range(rounds):
            order = ((armed, armed_samples), (bare, bare_samples))
            for pool, into in order if index % 2 == 0 else reversed(order):
                into.append(await measure(pool))

    async def trivial(pool: WorkerPool) -> float:
        return (await warm_trivial_run(pool, 1))[0]

    async def round_trip(pool: WorkerPool) -> float:
        return (await call_round_trip(pool, 200, 1))[0]

    async def cpu(pool: WorkerPool) -> float:
        return await _cpu_per_call(pool, 200)

    for language_layer in (True, False):
        with_it = Limits(language_layer=language_layer)
        without = Limits(language_layer=language_layer, tripwire=False)
        async with WorkerPool(limits=with_it, size=2) as armed, WorkerPool(
            limits=without, size=2
        ) as bare:
            for pool in (armed, bare):
                await wait_for_idle(pool, 2)
            if language_layer:
                await paired("warm trivial run (pool.run, return 1)", trivial)
                await paired("tool call round trip (no-op handler, 200 calls a run)", round_trip)
            else:
                await paired("child CPU time per tool call (language layer off)", cpu)
    for name, (armed_samples, bare_samples) in samples.items():
        ratios = [a / b for a, b in zip(armed_samples, bare_samples, strict=True) if b > 0]
        unit, scale = ("ms", 1e3) if name.startswith("warm") else ("us", 1e6)
        print(
            f"{name}: {statistics.median(armed_samples) * scale:.3f} {unit} with the tripwire, "
            f"{statistics.median(bare_samples) * scale:.3f} {unit} without; paired ratio "
            f"{statistics.median(ratios):.3f}x ({len(ratios)} pairs)"
        )


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
    parser.add_argument(
        "--tripwire", action="store_true", help="only the tripwire's cost, with and without it"
    )
    arguments = parser.parse_args()
    if arguments.tripwire:
        # Before any event loop exists: the in-process figures fork.
        with_hook, without_hook = (_hook_costs(armed, 50) for armed in (True, False))
        for step in with_hook:
            print(
                f"in-process {step}: {with_hook[step] * 1e6:.2f} us with the tripwire, "
                f"{without_hook[step] * 1e6:.2f} us without (best of 50 x 1000)"
            )
        anyio.run(tripwire_cost, arguments.quick)
        sys.exit(0)
    # Before any event loop exists: the helper forks its echo peer.
    frames = bench_frames(500 if arguments.quick else 5000, 100)
    print(f"frame round trip (Call out, Reply back, 100 B, raw pipes): "
          f"{statistics.median(frames) * 1e6:.1f} us")
    anyio.run(main, arguments.quick)
