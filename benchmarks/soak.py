"""A bounded soak: many agents at once, each a stream of ``run_code`` calls with sub-calls.

Run from the project root::

    python -m benchmarks.soak --agents 8 --seconds 600
    python -m benchmarks.soak --agents 4 --seconds 20 --json    # the figures as one JSON object

``--agents`` agents share one registry, one sandbox pool and one session log
(a JSON Lines file in a private temporary directory). Each agent runs programs
back to back; every program makes sub-calls of each kind: parallel ones that
succeed, one denied by policy, one whose tool raises, one over its tool's
timeout, one over quota, and every fourth run is cancelled by its caller while
a sub-call is in flight. When the time is up the soak checks, and exits 1 if
any check fails:

* no event lost or duplicated: every ``run_code`` has its ``tool/call`` and
  ``tool/result``, every started sub-call exactly one settle event, sub-call
  numbers run 1..n per run, ``seq`` is strictly increasing, and the file read
  back holds exactly what was appended;
* each run's events form a well-formed tree (replay puts every sub-call under
  its own run, and nothing else anywhere);
* every outcome is the documented one (each sub-call's error code, each run's);
* nothing leaked: no process, descriptor or pool directory left once the pool
  has closed;
* the host's resident memory grew less than ``--memory-mib`` (default 64 MiB)
  between the end of the warm-up and the end of the soak.

It prints runs/s and the p50/p99 latency of a ``run_code`` call. Figures are
of this machine at that moment; nothing here is a timed assertion.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from codemode import (
    AbortSignal,
    Agent,
    CallInput,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Deny,
    JsonlStore,
    Registry,
    SessionLog,
    ToolCallEvent,
    ToolFailure,
    ToolOutput,
    ToolResultEvent,
    define_tool,
    read_events,
    replay,
)
from codemode.code_mode import CodeMode, Quotas
from sandbox import Limits
from sandbox._reclaim import POOL_PREFIX, pool_folder

if TYPE_CHECKING:
    from collections.abc import Sequence

    from codemode import Event, JsonValue, ToolExecution, ToolResult, ToolRunContext

__all__ = ["SoakReport", "main", "soak"]

#: What one program does: sub-calls of every kind, each caught so the run goes on.
PROGRAM = """
import asyncio
outcomes = []
values = await asyncio.gather(*(tools.ok(n=n) for n in range(4)))
outcomes.append(sum(v["n"] for v in values))
for name in ("denied", "broken", "slow", "limited", "limited"):
    try:
        await tools[name]()
        outcomes.append("ok")
    except ToolCallError as error:
        outcomes.append(error.code or error.type or "denied")
if CANCELLED:
    await tools.hold()
return outcomes
"""
#: The program's outcomes when it is not cancelled.
EXPECTED = [6, "denied", "RuntimeError", "TOOL_TIMEOUT", "ok", "QUOTA_EXCEEDED"]
#: The error code each started sub-call settles with (None: a success, a denial or a
#: raising tool). The call over quota is refused before it starts: it has no number.
EXPECTED_SETTLES = [None, None, None, None, None, None, "TOOL_TIMEOUT", None]
#: Every how-many-th run of an agent is cancelled by its caller.
CANCEL_EVERY = 4


@dataclass
class SoakReport:
    """What a soak measured and found."""

    agents: int
    seconds: float
    runs: int = 0
    cancelled_runs: int = 0
    sub_calls: int = 0
    events: int = 0
    latencies: list[float] = field(default_factory=list)
    rss_after_warm_up: int = 0
    rss_at_end: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def runs_per_second(self) -> float:
        """Completed ``run_code`` calls per second of soak."""
        return self.runs / self.seconds if self.seconds else 0.0

    def percentile(self, fraction: float) -> float:
        """A latency percentile in seconds (0 without runs)."""
        if not self.latencies:
            return 0.0
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]

    def figures(self) -> dict[str, Any]:
        """The report as plain JSON."""
        return {
            "agents": self.agents,
            "seconds": round(self.seconds, 1),
            "runs": self.runs,
            "cancelled_runs": self.cancelled_runs,
            "sub_calls": self.sub_calls,
            "events": self.events,
            "runs_per_second": round(self.runs_per_second, 2),
            "p50_ms": round(self.percentile(0.50) * 1000, 1),
            "p99_ms": round(self.percentile(0.99) * 1000, 1),
            "median_ms": round(statistics.median(self.latencies) * 1000, 1)
            if self.latencies
            else 0.0,
            "rss_growth_mib": round((self.rss_at_end - self.rss_after_warm_up) / 2**20, 1),
            "problems": self.problems,
        }


def _rss() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


def _descendants() -> set[int]:
    """Every live process below this one."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                data = file.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2 :].split()
        if fields[0] != b"Z":
            parents[int(entry)] = int(fields[1])
    found: set[int] = set()
    frontier = {os.getpid()}
    while frontier:
        frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
        found |= frontier
    return found


def _registry(holding: dict[str, anyio.Event]) -> Registry:
    registry = Registry(mode="code")

    async def ok(args: Any, ctx: ToolRunContext) -> JsonValue:
        await anyio.sleep(0.001)
        return {"n": args["n"]}

    async def fails(args: Any, ctx: ToolRunContext) -> JsonValue:
        raise RuntimeError("the backend is down")

    async def slow(args: Any, ctx: ToolRunContext) -> JsonValue:
        await ctx.signal.wait()  # released by its timeout
        return None

    async def plain(args: Any, ctx: ToolRunContext) -> JsonValue:
        return "done"

    async def hold(args: Any, ctx: ToolRunContext) -> JsonValue:
        holding[ctx.root_call_id].set()  # the caller cancels now
        await ctx.signal.wait()
        return None

    def tool(name: str, body: Any, **options: Any) -> None:
        registry.register(
            define_tool(
                name=name,
                description=f"The {name} tool.",
                parameters={"type": "object"},
                output=ToolOutput(schema={}),
                execute=body,
                **options,
            )
        )

    tool("ok", ok, is_concurrency_safe=lambda args: True)
    tool("denied", plain)
    tool("broken", fails)
    tool("slow", slow, timeout=0.05)
    tool("limited", plain)
    tool("hold", hold)

    async def no_denied(execution: ToolExecution, proceed: Any) -> Any:
        if execution.name == "denied":
            return Deny("denied by the soak's policy")
        return await proceed()

    registry.pre_execute(no_denied)
    return registry


async def _agent(
    name: str,
    registry: Registry,
    log: SessionLog,
    holding: dict[str, anyio.Event],
    deadline: float,
    report: SoakReport,
    outcomes: dict[str, tuple[bool, Any]],
) -> None:
    agent = Agent(name)
    run = 0
    while run == 0 or time.monotonic() < deadline:  # at least one run (the warm-up's)
        run += 1
        call_id = f"{name}-r{run}"
        cancelled = run % CANCEL_EVERY == 0
        code = PROGRAM.replace("CANCELLED", "True" if cancelled else "False")
        signal = AbortSignal()
        holding[call_id] = anyio.Event()
        log.append(ToolCallEvent(turn=run, step=0, call_id=call_id, name="run_code",
                                 arguments="{}"))
        started = time.perf_counter()
        async with anyio.create_task_group() as tg:
            if cancelled:

                async def cancel(call_id: str = call_id, signal: AbortSignal = signal) -> None:
                    await holding[call_id].wait()
                    signal.abort("cancelled by the soak")

                tg.start_soon(cancel)
            result: ToolResult = await registry.execute(
                CallInput(call_id, "run_code", {"code": code, "description": "soak"}, signal,
                          agent=agent)
            )
            tg.cancel_scope.cancel()
        report.latencies.append(time.perf_counter() - started)
        del holding[call_id]
        log.append(ToolResultEvent(turn=run, step=0, call_id=call_id, name="run_code",
                                   is_error=result.is_error, content=result.content,
                                   error=result.error.info if isinstance(result, ToolFailure)
                                   else None))
        report.runs += 1
        report.cancelled_runs += cancelled
        outcomes[call_id] = (cancelled, result)


def _check_outcomes(outcomes: dict[str, tuple[bool, Any]], problems: list[str]) -> None:
    for call_id, (cancelled, result) in outcomes.items():
        if cancelled:
            info = result.error.info if isinstance(result, ToolFailure) else None
            if info is None or (info.code, info.kind) != ("CODE_RUN_FAILED", "abort"):
                problems.append(f"{call_id}: a cancelled run ended as {result!r}")
        elif result.is_error or list(result.value["result"]) != EXPECTED:
            problems.append(f"{call_id}: expected {EXPECTED}, got {result!r}")


def _check_events(
    events: Sequence[Event], outcomes: dict[str, tuple[bool, Any]], problems: list[str]
) -> int:
    """Check the log's events against the runs; return the number of sub-calls."""
    seqs = [e.seq for e in events]
    if seqs != sorted(set(seqs)):
        problems.append("seq is not strictly increasing")
    calls = collections.Counter(e.call_id for e in events if isinstance(e, ToolCallEvent))
    results = collections.Counter(e.call_id for e in events if isinstance(e, ToolResultEvent))
    for call_id in outcomes:
        if calls[call_id] != 1 or results[call_id] != 1:
            problems.append(
                f"{call_id}: {calls[call_id]} tool/call, {results[call_id]} tool/result"
            )
    starts: dict[str, list[str]] = collections.defaultdict(list)
    settles: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
    codes: dict[str, str | None] = {}
    for event in events:
        if isinstance(event, CodeDispatchStartEvent):
            starts[event.parent_call_id].append(event.sub_call_id)
        elif isinstance(event, CodeDispatchEvent):
            settles[event.parent_call_id][event.sub_call_id] += 1
            codes[event.sub_call_id] = event.error.code if event.error else None
    sub_calls = 0
    for call_id, (cancelled, _result) in outcomes.items():
        started = starts.get(call_id, [])
        sub_calls += len(started)
        numbers = [int(s.rsplit(":", 1)[1]) for s in started]
        if numbers != list(range(1, len(numbers) + 1)):
            problems.append(f"{call_id}: sub-call numbers {numbers}")
        if set(settles[call_id]) != set(started) or any(
            n != 1 for n in settles[call_id].values()
        ):
            problems.append(f"{call_id}: starts {started}, settles {dict(settles[call_id])}")
        expected = len(EXPECTED_SETTLES) + (1 if cancelled else 0)
        if len(started) != expected:
            problems.append(f"{call_id}: {len(started)} sub-calls started, expected {expected}")
        for position, code in enumerate(EXPECTED_SETTLES, start=1):
            got = codes.get(f"{call_id}:code:{position}", "missing")
            if got != code:
                problems.append(f"{call_id}:code:{position}: settled with {got}, expected {code}")
    roots = {node.call_id: node for node in replay(events)}
    for call_id in outcomes:
        node = roots.get(call_id)
        children = [] if node is None else [child.call_id for child in node.children]
        if node is None or sorted(children) != sorted(starts.get(call_id, [])) or any(
            child.children for child in node.children
        ):
            problems.append(f"{call_id}: the replayed tree is {node!r}")
    if set(roots) != set(outcomes):
        problems.append(f"replay found roots that are not runs: {set(roots) - set(outcomes)}")
    return sub_calls


async def soak(*, agents: int, seconds: float, memory_bytes: int = 64 * 2**20) -> SoakReport:
    """Run the soak and its checks; the report's ``problems`` lists every check that failed."""
    report = SoakReport(agents=agents, seconds=seconds)
    directory = tempfile.mkdtemp(prefix="codemode-soak-")
    path = Path(directory) / "session.jsonl"
    fds_before = len(os.listdir("/proc/self/fd"))
    processes_before = _descendants()
    pool_dirs_before = _pool_directories()
    holding: dict[str, anyio.Event] = {}
    outcomes: dict[str, tuple[bool, Any]] = {}
    registry = _registry(holding)
    log = SessionLog(JsonlStore(path))
    try:
        async with CodeMode(
            registry,
            limits=Limits(wall_seconds=60),
            pool_size=2,
            log=log,
            quotas=Quotas(per_tool={"limited": 1}),
        ):
            # Warm-up: one run per agent, not counted; memory is measured from here.
            warm = SoakReport(agents=agents, seconds=0)
            warm_outcomes: dict[str, tuple[bool, Any]] = {}
            async with anyio.create_task_group() as tg:
                for index in range(agents):
                    tg.start_soon(_agent, f"warm{index}", registry, log, holding, 0.0, warm,
                                  warm_outcomes)
            report.rss_after_warm_up = _rss()
            started = time.monotonic()
            deadline = started + seconds
            async with anyio.create_task_group() as tg:
                for index in range(agents):
                    tg.start_soon(_agent, f"agent{index}", registry, log, holding, deadline,
                                  report, outcomes)
            report.seconds = time.monotonic() - started
            report.rss_at_end = _rss()
        log.close()
        written = list(read_events(path))
        appended = log.events()
        report.events = len(written)
        if written != appended:
            report.problems.append("the file read back differs from what was appended")
        soaked = [e for e in written if not _is_warm_up(e)]
        _check_outcomes(outcomes, report.problems)
        report.sub_calls = _check_events(soaked, outcomes, report.problems)
    finally:
        log.close()
        shutil.rmtree(directory, ignore_errors=True)
    growth = report.rss_at_end - report.rss_after_warm_up
    if growth > memory_bytes:
        report.problems.append(
            f"host memory grew {growth / 2**20:.1f} MiB, over {memory_bytes / 2**20:.0f} MiB"
        )
    fds_after = len(os.listdir("/proc/self/fd"))
    if fds_after != fds_before:
        report.problems.append(f"descriptors: {fds_before} before, {fds_after} after")
    leaked = _descendants() - processes_before
    if leaked:
        report.problems.append(f"processes left running: {sorted(leaked)}")
    mine = {p for p in _pool_directories() - pool_dirs_before if _owned_by_me(p)}
    if mine:
        report.problems.append(f"pool directories left behind: {sorted(mine)}")
    return report


def _pool_directories() -> set[str]:
    return {p for p in os.listdir(pool_folder()) if p.startswith(POOL_PREFIX)}


def _is_warm_up(event: Event) -> bool:
    for name in ("call_id", "parent_call_id"):
        value = getattr(event, name, None)
        if isinstance(value, str):
            return value.startswith("warm")
    return False


def _owned_by_me(name: str) -> bool:
    try:
        owner = (Path(pool_folder()) / name / "owner").read_text().split()
    except OSError:
        return False
    return bool(owner) and owner[0] == str(os.getpid())


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: run the soak, print its figures, exit 1 if a check failed."""
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.soak", description=(__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--agents", type=int, default=4, help="concurrent agents (default 4)")
    parser.add_argument("--seconds", type=float, default=20.0, help="soak length (default 20)")
    parser.add_argument("--memory-mib", type=int, default=64,
                        help="allowed host memory growth after warm-up (default 64)")
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    args = parser.parse_args(argv)
    if args.agents < 1 or args.seconds <= 0:
        parser.error("--agents must be at least 1 and --seconds positive")
    report = anyio.run(
        lambda: soak(agents=args.agents, seconds=args.seconds, memory_bytes=args.memory_mib * 2**20)
    )
    figures = report.figures()
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['agents']} agents, {figures['seconds']} s: {figures['runs']} runs "
            f"({figures['cancelled_runs']} cancelled), {figures['sub_calls']} sub-calls, "
            f"{figures['events']} events\n"
            f"{figures['runs_per_second']} runs/s; run_code latency p50 {figures['p50_ms']} ms, "
            f"p99 {figures['p99_ms']} ms; host memory growth {figures['rss_growth_mib']} MiB"
        )
        for problem in report.problems:
            print(f"PROBLEM: {problem}")
        print("all checks passed" if not report.problems else f"{len(report.problems)} problems")
    return 0 if not report.problems else 1


if __name__ == "__main__":
    sys.exit(main())
