"""What the Ray path costs: RayPool against the local WorkerPool, per run and per sub-call.

Run from the project root (needs the ``ray`` extra)::

    python -m benchmarks.ray_overhead            # default sizes
    python -m benchmarks.ray_overhead --quick    # fewer repetitions

It starts a local single-node Ray runtime (``ray.init`` with one CPU), opens a
:class:`~sandbox.RayPool` and a :class:`~sandbox.WorkerPool` with the same
limits and one warm child each, and measures, alternating between the two:

* a trivial run, ``return 1``, end to end from ``pool.run``; a short pause
  between runs lets each pool fork its next warm child off the clock;
* a sub-call: a program making ``CALLS`` sequential calls to a no-op tool,
  its time less the trivial run's, divided by ``CALLS``;
* a Ray actor call round trip (a node actor's ``statistics``), the unit the
  Ray path adds: each run is one streaming actor call, each sub-call one
  streamed item out and one ``reply`` actor call back.

The caller's CPU time is printed next to each wall-clock figure: on a busy
machine it varies far less. Every figure is a median; nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from sandbox import Limits, RayPool, WorkerPool

if TYPE_CHECKING:
    from bridge.lossless import JsonValue
    from sandbox import Pool

CALLS = 200
_TRIVIAL = "return 1"
_LOOP = f"for i in range({CALLS}):\n    await tools.noop(x=i)\nreturn 1\n"
#: Time for a pool to fork its next warm child before the next run is timed.
_REFILL_PAUSE = 0.03


class _NoopHandler:
    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return args["x"] if isinstance(args, dict) else None


async def _timed(pool: Pool, source: str) -> tuple[float, float]:
    """Wall-clock and caller CPU seconds of one run."""
    await anyio.sleep(_REFILL_PAUSE)
    wall, cpu = time.perf_counter(), time.process_time()
    result = await pool.run(source, tool_names=["noop"], handler=_NoopHandler())
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if result.error is not None:
        raise RuntimeError(f"the benchmark program failed: {result.error}")
    return wall, cpu


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e3:.2f} ms (fastest {min(samples) * 1e3:.2f} ms)"


def _us(value: float) -> str:
    return f"{value * 1e6:.0f} µs"


async def _measure(runs: int, loops: int) -> None:
    limits = Limits(wall_seconds=60)
    async with RayPool(limits=limits, size=1) as ray_pool, WorkerPool(
        limits=limits, size=1
    ) as local_pool:
        pools: dict[str, Pool] = {"local": local_pool, "ray": ray_pool}
        for pool in pools.values():  # warm up: compile caches, the actor's first calls
            for _ in range(5):
                await _timed(pool, _TRIVIAL)
            await _timed(pool, _LOOP)
        trivial: dict[str, list[tuple[float, float]]] = {name: [] for name in pools}
        loop: dict[str, list[tuple[float, float]]] = {name: [] for name in pools}
        for _ in range(runs):
            for name, pool in pools.items():
                trivial[name].append(await _timed(pool, _TRIVIAL))
        for _ in range(loops):
            for name, pool in pools.items():
                loop[name].append(await _timed(pool, _LOOP))
        actor = ray_pool._nodes[0].actor  # the one node's actor: a bare Ray round trip
        round_trips: list[float] = []
        for _ in range(runs):
            start = time.perf_counter()
            await actor.statistics.remote()
            round_trips.append(time.perf_counter() - start)

    print(f"trivial run ({runs} runs each), wall / caller CPU:")
    for name in pools:
        walls = [w for w, _ in trivial[name]]
        cpus = [c for _, c in trivial[name]]
        print(f"  {name:5}: {_ms(walls)} / {statistics.median(cpus) * 1e3:.2f} ms")
    extra = statistics.median(w for w, _ in trivial["ray"]) - statistics.median(
        w for w, _ in trivial["local"]
    )
    print(f"  Ray path adds {extra * 1e3:.2f} ms per run")
    print(f"sub-call ({loops} programs of {CALLS} sequential calls each), wall / caller CPU:")
    per_call: dict[str, float] = {}
    for name in pools:
        run_wall = statistics.median(w for w, _ in trivial[name])
        run_cpu = statistics.median(c for _, c in trivial[name])
        wall = (statistics.median(w for w, _ in loop[name]) - run_wall) / CALLS
        cpu = (statistics.median(c for _, c in loop[name]) - run_cpu) / CALLS
        per_call[name] = wall
        print(f"  {name:5}: {_us(wall)} / {_us(cpu)} per call")
    print(f"  Ray path adds {_us(per_call['ray'] - per_call['local'])} per sub-call")
    print(f"Ray actor call round trip (node actor's statistics): {_ms(round_trips)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    options = parser.parse_args()
    import ray

    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        runs, loops = (30, 5) if options.quick else (200, 21)
        asyncio.run(_measure(runs, loops))
    finally:
        ray.shutdown()


if __name__ == "__main__":
    main()
