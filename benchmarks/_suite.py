"""The measurement loop of ``python -m benchmarks``: interleaved rounds, checked results.

Each round takes, for every workload, the same number of samples from every
system, in an order rotated from round to round, so that a change in the
machine's load lands on all of them alike. Before each sample a system is let
settle (for codemode: its warm children in place and the last run's child
reaped), then every system alike is left idle for ``IDLE_SECONDS``: a run in an
agent follows a model's turn, not another run, and a worker that has just run
(Monty reuses its workers) would otherwise start hot; W7 is the back-to-back
figure. The CPU workloads pair each run with a run of the same
body as a plain async function on the benchmark's own event loop, just before
it, and report the median of the paired ratios.
"""

from __future__ import annotations

import cProfile
import io
import os
import pstats
import time
from contextlib import AsyncExitStack
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from benchmarks import _report
from benchmarks._contenders import BenchmarkError, contenders
from benchmarks._workloads import (
    IDLE_SECONDS,
    IN_FLIGHT,
    PAUSE_SECONDS,
    THROUGHPUT_RUNS,
    Workload,
    plain_function,
    workloads,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from benchmarks._contenders import Contender

__all__ = ["Options", "measure", "wait_for_quiet"]


@dataclass(frozen=True)
class Options:
    rounds: int
    #: Multiplies the CPU-bound loops' sizes (1 for figures, less for a smoke run).
    cpu_scale: float
    #: Multiplies each workload's samples per round (0 < scale ≤ 1 for a quick run).
    sample_scale: float
    systems: tuple[str, ...]
    quiet_seconds: float
    quiet_load: float
    command: str
    log: Callable[[str], None]
    #: The rows to measure (``w1`` … ``w7``, ``cold``, ``memory``); empty for all.
    only: tuple[str, ...] = ()
    #: cProfile this system's measured runs (host side) and print the top functions.
    profile: str | None = None


def wait_for_quiet(seconds: float, load: float, log: Callable[[str], None]) -> str:
    """Wait up to ``seconds`` for the 1-minute load average to drop below ``load``.

    Returns what happened, for the report: the load once quiet, or that the
    machine did not quiet down in time (the run goes on; its figures say so).
    """
    deadline = time.monotonic() + seconds
    announced = False
    while True:
        current = os.getloadavg()[0]
        if current < load:
            return f"quiet: 1-minute load average {current:.2f} (< {load:g})"
        if time.monotonic() >= deadline:
            return (
                f"not quiet: 1-minute load average still {current:.2f} after waiting "
                f"{seconds:g} s for < {load:g}; figures that cross processes are inflated"
            )
        if not announced:
            log(f"waiting up to {seconds:g} s for a load average below {load:g} "
                f"(now {current:.2f}) ...")
            announced = True
        time.sleep(min(2.0, max(0.0, deadline - time.monotonic())))


class _Plain:
    """The CPU workloads' bodies as plain async functions, in this process."""

    def __init__(self) -> None:
        self.functions: dict[str, Callable[[], Awaitable[object]]] = {}

    async def run(self, workload: Workload) -> float:
        if workload.codemode not in self.functions:
            namespace: dict[str, object] = {}
            exec(plain_function(workload.codemode), namespace)  # the benchmark's own code
            self.functions[workload.codemode] = namespace["__plain__"]  # type: ignore[assignment]
        function = self.functions[workload.codemode]
        start = time.perf_counter()
        value = await function()
        elapsed = time.perf_counter() - start
        if value != workload.expected:
            raise BenchmarkError(f"the plain body of {workload.key} returned {value!r}")
        return elapsed


def _samples(workload: Workload, scale: float) -> int:
    return max(1, round(workload.samples * scale))


async def measure(options: Options) -> _report.Report:
    """Run every workload on every installed system and return the figures."""
    chosen, missing = contenders(options.systems)
    for name, why in missing.items():
        options.log(f"{name}: {why}; left out")
    quiet = wait_for_quiet(options.quiet_seconds, options.quiet_load, options.log)
    options.log(quiet)
    report = _report.Report(
        systems=[c.name for c in chosen],
        missing=missing,
        rounds=options.rounds,
        command=options.command,
        quiet=quiet,
        load_before=os.getloadavg(),
    )
    chosen_workloads = tuple(
        w for w in workloads(options.cpu_scale) if not options.only or w.key in options.only
    )
    report.titles.update({w.key: w.title for w in chosen_workloads})
    report.titles["w7"] = f"W7 fresh-process runs/s, {IN_FLIGHT} in flight"
    report.titles["cold"] = "cold start (create to first result)"
    report.titles["memory"] = "idle warm worker, USS"
    plain = _Plain()
    # A system slower than the CPU-bound loops allow runs them smaller, against
    # the plain body of the same size.
    variants = {
        c.cpu_scale: {w.key: w for w in workloads(options.cpu_scale * c.cpu_scale)}
        for c in chosen
    }
    profiler = cProfile.Profile()
    runs: dict[str, dict[str, list[float]]] = {
        w.key: {c.name: [] for c in chosen} for w in chosen_workloads
    }
    # The benchmark process's CPU time per run (all its threads): moves far less
    # with the machine's load than the wall clock.
    host: dict[str, dict[str, list[float]]] = {
        w.key: {c.name: [] for c in chosen} for w in chosen_workloads
    }
    paired: dict[str, dict[str, list[float]]] = {
        w.key: {c.name: [] for c in chosen} for w in chosen_workloads if w.kind == "cpu"
    }
    floor: dict[str, list[float]] = {key: [] for key in paired}
    rates: dict[str, list[float]] = {c.name: [] for c in chosen if c.isolated}
    cold: dict[str, list[float]] = {c.name: [] for c in chosen}
    memory: dict[str, list[float]] = {c.name: [] for c in chosen if c.isolated}
    failed: dict[str, str] = {}
    async with AsyncExitStack() as stack:
        for contender in chosen:
            await contender.open()
            stack.push_async_callback(contender.close)
        # Warm-up: imports, caches, the first compile of each program; not recorded.
        for contender in chosen:
            for workload in chosen_workloads:
                await contender.settle()
                await _run(contender, variants[contender.cpu_scale][workload.key], failed)
        for round_index in range(options.rounds):
            shift = round_index % len(chosen)
            order = chosen[shift:] + chosen[:shift]
            for listed in chosen_workloads:
                for contender in order:
                    workload = variants[contender.cpu_scale][listed.key]
                    for _ in range(_samples(workload, options.sample_scale)):
                        if contender.name in failed:
                            break
                        if workload.kind == "cpu":
                            base = await plain.run(workload)
                            if contender.cpu_scale == 1:
                                floor[workload.key].append(base)
                        await contender.settle()
                        await _idle()
                        if contender.name == options.profile:
                            profiler.enable()
                        cpu = time.process_time()
                        elapsed = await _run(contender, workload, failed)
                        cpu = time.process_time() - cpu
                        if contender.name == options.profile:
                            profiler.disable()
                        if elapsed is None:
                            break
                        runs[workload.key][contender.name].append(elapsed)
                        host[workload.key][contender.name].append(cpu)
                        if workload.kind == "cpu":
                            paired[workload.key][contender.name].append(elapsed / base)
            for contender in order:
                if contender.name in failed:
                    continue
                await _once_a_round(
                    contender, options, rates, cold, memory,
                    max(IN_FLIGHT, round(THROUGHPUT_RUNS * options.sample_scale)),
                )
            options.log(f"round {round_index + 1}/{options.rounds} done "
                        f"(load average {os.getloadavg()[0]:.2f})")
    report.load_after = os.getloadavg()
    for name, why in failed.items():
        report.missing[name] = why
        options.log(f"{name}: {why}")
    if options.profile is not None:
        stream = io.StringIO()
        stats = pstats.Stats(profiler, stream=stream)
        stats.sort_stats("tottime").print_stats(40)
        stats.sort_stats("cumulative").print_stats(40)
        options.log(stream.getvalue())
    _figures(report, chosen_workloads, runs, host, paired, floor, rates, cold, memory)
    return report


async def _idle() -> None:
    """The gap before a sample, the same for every system (see ``IDLE_SECONDS``)."""
    await anyio.sleep(IDLE_SECONDS)


async def _run(contender: Contender, workload: Workload, failed: dict[str, str]) -> float | None:
    """One run; a peer that raises is left out from then on (codemode's failures stop the run).

    A wrong result is a :class:`BenchmarkError` for every system: it stops the run.
    """
    if contender.name in failed:
        return None
    try:
        return await contender.run(workload)
    except BenchmarkError:
        raise
    except Exception as exc:
        if contender.name in _report.CODEMODE:
            raise BenchmarkError(
                f"{contender.name} failed on {workload.key}: {type(exc).__name__}: {exc}"
            ) from exc
        failed[contender.name] = (
            f"failed on {workload.key} ({type(exc).__name__}: {exc}); left out from then on"
        )
        return None


async def _once_a_round(
    contender: Contender,
    options: Options,
    rates: dict[str, list[float]],
    cold: dict[str, list[float]],
    memory: dict[str, list[float]],
    runs: int,
) -> None:
    """W7, the cold start and the memory figure: one sample of each a round."""
    wanted = options.only or ("w7", "cold", "memory")
    if "w7" in wanted:
        await contender.settle()
        rate = await contender.throughput(runs)
        if rate is not None:
            rates[contender.name].append(rate)
    if "cold" in wanted:
        await contender.settle()
        started = await contender.cold_start()
        if started is not None:
            cold[contender.name].append(started)
    if "memory" in wanted:
        await contender.settle()
        uss = await contender.idle_uss_kib()
        if uss is not None:
            memory[contender.name].append(uss)


def _figures(
    report: _report.Report,
    chosen_workloads: tuple[Workload, ...],
    runs: dict[str, dict[str, list[float]]],
    host: dict[str, dict[str, list[float]]],
    paired: dict[str, dict[str, list[float]]],
    floor: dict[str, list[float]],
    rates: dict[str, list[float]],
    cold: dict[str, list[float]],
    memory: dict[str, list[float]],
) -> None:
    for workload in chosen_workloads:
        per = workload.calls if workload.kind == "per_call" else 1

        def micro(seconds: float, per: int = per) -> float:
            return seconds * 1e6 / per

        _report.summarise(report, workload.key, runs[workload.key], micro)
        for system, values in host[workload.key].items():
            if values:
                report.put(f"{workload.key}_host_cpu_us", system, micro(_report.median(values)))
        if workload.kind in ("latency", "per_call"):
            _report.ratios_vs(
                report, f"{workload.key}_ratio_vs_monty", f"{workload.key}_median_us", "monty"
            )
        elif workload.kind == "cpu":
            base = _report.median(floor[workload.key])
            report.put(f"{workload.key}_median_us", "plain", micro(base))
            for system, ratios in paired[workload.key].items():
                if ratios:
                    report.put(f"{workload.key}_ratio_vs_plain", system, _report.median(ratios))
        else:
            for system, values in runs[workload.key].items():
                if values:
                    report.put(
                        f"{workload.key}_ratio_vs_sleep", system,
                        _report.median(values) / PAUSE_SECONDS,
                    )
    for key in ("w4", "w5"):
        if "smolagents" in runs.get(key, {}):
            report.notes[f"{key}.smolagents"] = "at a tenth of the size"
    if "smolagents" in runs.get("w6", {}):
        report.notes["w6.smolagents"] = "calls in turn (no async)"
    for system, values in rates.items():
        if values:
            report.put("w7_runs_per_s", system, _report.median(values))
    _report.ratios_vs(report, "w7_ratio_vs_monty", "w7_runs_per_s", "monty")
    _report.summarise(report, "cold_start", cold, lambda seconds: seconds * 1e6)
    for system, values in memory.items():
        if values:
            report.put("idle_uss_mib", system, _report.median(values) / 1024)


def run(options: Options) -> _report.Report:
    """:func:`measure` on a fresh event loop (asyncio: pydantic-monty needs it)."""
    async def main() -> _report.Report:
        return await measure(options)

    return anyio.run(main)
