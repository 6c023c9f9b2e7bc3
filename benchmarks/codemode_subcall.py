"""Code Mode overhead: one sub-call, and a trivial ``run_code``, through the whole stack.

Run from the project root::

    python benchmarks/codemode_subcall.py            # default sizes
    python benchmarks/codemode_subcall.py --quick    # fewer repetitions
    python benchmarks/codemode_subcall.py --profile  # cProfile of the sub-call loop

Both figures go through ``Registry.execute`` of ``run_code`` (the pipeline, the
scheduler, the sub-dispatch bridge, the sandbox pool and the child), with a
warm pool. The per-sub-call figure is the end-to-end time of a program making
1,000 sequential calls to a no-op tool, divided by 1,000; the trivial figure is
one ``return 1`` program. Next to each, the same work through ``pool.run`` alone
shows what Code Mode adds over the sandbox. The host process's CPU time per call
is printed too: on a busy machine it varies far less than the wall clock. Every
figure is a median; nothing here is an assertion (machines are noisy).
"""

from __future__ import annotations

import argparse
import cProfile
import os
import pstats
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from codemode import AbortSignal, Agent, CallInput, Registry, tool
from codemode.code_mode import CodeMode
from sandbox import WorkerPool
from sandbox.testing import wait_for_idle

CALLS = 1000
_LOOP = f"for i in range({CALLS}):\n    await tools.noop(x=i)\nreturn 1\n"


@tool(concurrency_safe=True)
def noop(x: int) -> int:
    """Return ``x`` unchanged."""
    return x


class _NoopHandler:
    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return args["x"] if isinstance(args, dict) else None


def _us(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e6:.1f} us (fastest {min(samples) * 1e6:.1f} us)"


def _ms(samples: list[float]) -> str:
    return f"{statistics.median(samples) * 1e3:.3f} ms (fastest {min(samples) * 1e3:.3f} ms)"


async def _quiet(pool: WorkerPool, idle: int) -> None:
    """Wait until ``idle`` children are warm and no finished child is still being reaped.

    Otherwise the previous run's clean-up (reaping, removing its directory)
    lands in the next measurement.
    """
    await wait_for_idle(pool, idle)
    # The pool has no event for "a child was reaped"; polling is fine here.
    while (stats := pool.statistics()).exiting or stats.starting or stats.idle < idle:  # noqa: ASYNC110
        await anyio.sleep(0.0005)


async def _run_code(registry: Registry, agent: Agent, call_id: str, code: str) -> float:
    start = time.perf_counter()
    result = await registry.execute(
        CallInput(
            call_id, "run_code", {"code": code, "description": "benchmark"}, AbortSignal(),
            agent=agent,
        )
    )
    elapsed = time.perf_counter() - start
    assert not result.is_error, result.content
    return elapsed


async def main(quick: bool, profile: bool) -> None:
    loops = 3 if quick else 9
    trivial_repeat = 30 if quick else 200
    print(f"python {sys.version.split()[0]} on {os.cpu_count()} CPUs, pid {os.getpid()}")
    registry = Registry(mode="code")
    registry.register(noop)
    agent = Agent("bench")
    async with WorkerPool(size=2) as pool, CodeMode(registry, pool=pool) as _:
        await wait_for_idle(pool, 2)
        await _run_code(registry, agent, "warm", _LOOP)  # compile cache, imports
        per_call: list[float] = []
        per_call_cpu: list[float] = []
        bare_per_call: list[float] = []
        bare_per_call_cpu: list[float] = []
        profiler = cProfile.Profile() if profile else None
        for n in range(loops):
            await _quiet(pool, 1)
            if profiler is not None:
                profiler.enable()
            cpu = time.process_time()
            per_call.append(await _run_code(registry, agent, f"loop-{n}", _LOOP) / CALLS)
            per_call_cpu.append((time.process_time() - cpu) / CALLS)
            if profiler is not None:
                profiler.disable()
            await _quiet(pool, 1)
            cpu = time.process_time()
            start = time.perf_counter()
            result = await pool.run(_LOOP, tool_names=["noop"], handler=_NoopHandler())
            bare_per_call.append((time.perf_counter() - start) / CALLS)
            bare_per_call_cpu.append((time.process_time() - cpu) / CALLS)
            assert result.ok, result.error
        print(f"run_code sub-call, end to end ({CALLS} sequential no-op calls): {_us(per_call)}")
        print(f"  host CPU per sub-call: {_us(per_call_cpu)}")
        print(f"  the same program through pool.run alone: {_us(bare_per_call)}")
        print(f"  host CPU per call, pool.run alone: {_us(bare_per_call_cpu)}")
        trivial: list[float] = []
        bare_trivial: list[float] = []
        for n in range(trivial_repeat):
            await _quiet(pool, 2)
            trivial.append(await _run_code(registry, agent, f"trivial-{n}", "return 1"))
            await _quiet(pool, 2)
            start = time.perf_counter()
            result = await pool.run("return 1", tool_names=[], handler=_NoopHandler())
            bare_trivial.append(time.perf_counter() - start)
            assert result.value == 1, result.error
        print(f"trivial run_code (return 1), warm pool: {_ms(trivial)}")
        print(f"  pool.run alone: {_ms(bare_trivial)}")
        if profiler is not None:
            stats = pstats.Stats(profiler)
            stats.sort_stats("cumulative").print_stats(40)
            stats.sort_stats("tottime").print_stats(30)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    parser.add_argument("--profile", action="store_true", help="cProfile the sub-call loops")
    arguments = parser.parse_args()
    anyio.run(main, arguments.quick, arguments.profile)
