"""Runs the escape corpus through a real :class:`sandbox.WorkerPool` and judges each run.

One pool per ablation mode runs every case concurrently (the cases with a
victim one at a time, in a second pool whose only uid is the victim's, so that
the child and its victim share a uid); each case gets its own
:class:`~codemode.escapes._stage.Stage` (secret, marker directory, canary, victim),
and every harm is read from outside the child after the run. Harm is judged by
what happened (the kind the run ended with and what the stage observed), never
by the clock. The pool's health is recorded at the end: statistics back to
idle, no process left in any child's process group, as many descriptors and run
directories as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio
import anyio.lowlevel

import sandbox
from bridge.host import tripped_message
from bridge.lossless import JsonValue, LossyJsonError, materialize
from sandbox import Limits, ToolCallFailed, WorkerPool, remove_tree
from sandbox.testing import wait_for_idle, wait_reaped

from . import _host_work as host_work
from ._format import LANGUAGE_MODES
from ._stage import VICTIM_UID, Stage, process_group_members

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sandbox import PoolStatistics, RunResult

    from ._format import Case, LegitProgram, Mode

__all__ = [
    "CORPUS_LIMITS",
    "LEGIT_LIMITS",
    "POOL_SIZE",
    "TOOL_NAMES",
    "AblationRuns",
    "CaseOutcome",
    "CorpusRun",
    "LegitRuns",
    "RecordingHandler",
    "limits_for",
    "run_corpus",
    "run_legit",
]

_KIB: Final = 1024
_MIB: Final = 1024 * _KIB

#: Small limits keep the exhaustion cases short; every case runs under them.
CORPUS_LIMITS: Final = Limits(
    wall_seconds=2.0,
    cpu_seconds=1,
    memory_bytes=256 * _MIB,
    max_log_bytes=16 * _KIB,
    max_value_bytes=256 * _KIB,
    max_frame_bytes=512 * _KIB,
)
#: The tools every case's ``tools`` proxy declares.
TOOL_NAMES: Final = ("echo", "search", "odd-name", "fail")
#: Concurrent runs per pool (and the pool's warm size).
POOL_SIZE: Final = 3

_LIVENESS_PROGRAM: Final = "return 41 + 1"
#: A program that reads back every shared object a ``state`` case tries to poison.
_PROBE_PROGRAM: Final = """\
import asyncio
import collections
import json
import math
probe = {}
probe["json"] = json.dumps([1])
probe["math"] = math.pi == 3.141592653589793
probe["len"] = len([1, 2])
probe["sleep"] = await asyncio.sleep(0, "clean")
probe["echo"] = await tools.echo(value="clean")
probe["counter"] = [list(pair) for pair in collections.Counter("aab").most_common(1)]
return probe
"""
_PROBE_VALUE: Final[JsonValue] = {
    "json": "[1]",
    "math": True,
    "len": 2,
    "sleep": "clean",
    "echo": {"value": "clean"},
    "counter": [["a", 2]],
}


#: Where the host's code lives. With the language layer on, tracebacks keep only
#: ``<model>`` frames, so none of these may appear in anything a run returns.
_HOST_PATHS: Final = tuple(
    sorted({str(Path(sandbox.__file__).resolve().parent.parent), sys.prefix, sys.base_prefix})
)


def limits_for(mode: Mode, base: Limits = CORPUS_LIMITS) -> Limits:
    """``base`` with the testing switches set for one ablation mode."""
    return replace(
        base,
        language_layer=mode in ("all", "language"),
        tripwire=mode in ("all", "tripwire"),
        os_layer=mode in ("all", "os"),
    )


@dataclass
class RecordingHandler:
    """A tool handler that answers simply and records anything it should never see.

    ``echo`` returns its arguments, ``search`` a fixed hit list, ``odd-name`` a
    string and ``fail`` raises :class:`ToolCallFailed`. A call for a name the
    program was not given, or with arguments that are not lossless JSON, is a
    violation: the bridge must never let one through.
    """

    declared: frozenset[str] = frozenset(TOOL_NAMES)
    calls: list[tuple[str, JsonValue]] = field(default_factory=list)
    violations: list[str] = field(default_factory=list)

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.calls.append((name, args))
        if name not in self.declared:
            self.violations.append(f"the handler was called for undeclared tool {name!r}")
        try:
            materialize(args)
        except LossyJsonError as error:
            self.violations.append(f"the handler received lossy arguments: {error}")
        if name == "fail":
            raise ToolCallFailed("the tool failed on purpose", code="E_PURPOSE")
        if name == "search":
            query = args.get("query", "") if isinstance(args, dict) else ""
            return {"hits": [f"{query}-1", f"{query}-2"]}
        if name == "odd-name":
            return "odd"
        return args


@dataclass
class CaseOutcome:
    """What one case did in one mode, and every harm or broken expectation found."""

    case: Case
    mode: Mode
    result: RunResult | None
    harms: list[str]
    pids: list[int]


@dataclass
class CorpusRun:
    """Every outcome of one ablation mode plus the pool's health afterwards."""

    mode: Mode
    outcomes: dict[str, CaseOutcome]
    statistics: PoolStatistics
    leftover_processes: dict[int, list[int]]
    fds_before: int
    fds_after: int
    run_dirs_before: int
    run_dirs_after: int
    pool_dirs_left: set[str]

    @property
    def pids(self) -> list[int]:
        return [pid for outcome in self.outcomes.values() for pid in outcome.pids]


def _run_dirs(root: Path) -> int:
    """Children's working directories under ``root``: in a pool's directory, or directly."""
    return len([*root.glob("codemode-pool-*/run-*"), *root.glob("codemode-run-*")])


def _pool_dirs(root: Path) -> set[str]:
    return {path.name for path in root.glob("codemode-pool-*")}


@contextlib.contextmanager
def _private_tempdir() -> Iterator[Path]:
    """Point :mod:`tempfile` at a fresh directory, so that only this run's files land there.

    Other test processes on the machine create pools too; counting their
    directories would make the leak checks flaky.
    """
    root = Path(tempfile.mkdtemp(prefix="codemode-escapes-tmp-"))
    os.chmod(root, 0o755)
    saved = tempfile.tempdir
    tempfile.tempdir = str(root)
    try:
        yield root
    finally:
        tempfile.tempdir = saved
        remove_tree(root)  # a program run without the layers may have shaped it


#: CPU seconds one leak check may take. The corpus's ``leak`` pattern is run
#: on output the case's program chose, and Python's ``re`` backtracks (a
#: pattern like ``(a|aa)+c`` is exponential in the text): it is matched in a
#: child interpreter under this ``RLIMIT_CPU``, killed when it is spent.
LEAK_MATCH_CPU_SECONDS: Final = 2
#: The wall-clock backstop on that child (startup included).
_LEAK_MATCH_WALL_SECONDS: Final = 20
_LEAK_MATCHER: Final = """
import json, re, resource, sys
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_CPU, (limit, limit))
job = json.loads(sys.stdin.buffer.read())
pattern = re.compile(job["pattern"])
for text in job["texts"]:
    match = pattern.search(text)
    if match is not None:
        sys.stdout.write(json.dumps({"match": match.group(0)[:300]}))
        break
else:
    sys.stdout.write(json.dumps({"match": None}))
"""


async def leak_harms(
    pattern: str, texts: tuple[str, ...], *, cpu_seconds: int = LEAK_MATCH_CPU_SECONDS
) -> list[str]:
    """The harm when ``pattern`` matches one of ``texts``, searched in a CPU-limited child.

    A search that does not finish within ``cpu_seconds`` of CPU is itself
    reported (the signal could not be judged): never a silent pass, never an
    unbounded wait.
    """
    job = json.dumps({"pattern": pattern, "texts": list(texts)}, ensure_ascii=True).encode()
    command = [sys.executable, "-I", "-S", "-c", _LEAK_MATCHER, str(cpu_seconds)]
    with anyio.move_on_after(_LEAK_MATCH_WALL_SECONDS) as scope:
        done = await anyio.run_process(command, input=job, check=False)
    if scope.cancelled_caught or done.returncode != 0:
        return [
            f"the leak pattern {pattern[:100]!r} could not be judged: matching it took over "
            f"{cpu_seconds} s of CPU (it backtracks; simplify the pattern)"
            if scope.cancelled_caught or done.returncode < 0
            else f"the leak check failed: {done.stderr.decode(errors='replace')[-300:]}"
        ]
    found = json.loads(done.stdout)["match"]
    return [] if found is None else [f"the output discloses {found!r}"]


def _fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def _texts(result: RunResult) -> tuple[str, str, str]:
    value = json.dumps(result.value)
    logs = "\n".join(result.logs)
    message = result.error.message if result.error is not None else ""
    return value, logs, message


def _leaf_errors(error: BaseException) -> list[str]:
    """The innermost exceptions of a (possibly nested) exception group, as reprs."""
    if isinstance(error, BaseExceptionGroup):
        return [leaf for inner in error.exceptions for leaf in _leaf_errors(inner)]
    return [repr(error)[:300]]


def _lossless_harm(value: JsonValue) -> list[str]:
    """A run's value must be lossless JSON whatever the child sent."""
    try:
        materialize(value)
    except LossyJsonError as error:
        return [f"the run's value is not lossless JSON: {error}"]
    return []


def _judge(case: Case, mode: Mode, stage: Stage, result: RunResult, limits: Limits) -> list[str]:
    """Every harm and broken expectation of one run, as sentences."""
    value, logs, message = _texts(result)
    harms = _lossless_harm(result.value)
    try:
        # Lines and messages go on to logs and JSON writers on the host: they must be text.
        logs.encode("utf-8")
        message.encode("utf-8")
    except UnicodeEncodeError as error:
        harms.append(f"the run's logs or message are not valid text: {error}")
    harms += [
        *stage.secret_harm(value, logs, message),
        *stage.marker_harm(),
        *stage.canary_harm(),
        *stage.victim_harm(),
        *stage.ipc_harm(),
    ]
    if mode in LANGUAGE_MODES:
        for path in _HOST_PATHS:
            if any(path in text for text in (value, logs, message)):
                harms.append(f"the output shows the host path {path!r}")
    kinds = case.expected_kinds(mode)
    if kinds is not None:
        got = result.error.kind if result.error is not None else "ok"
        if got not in kinds:
            harms.append(
                f"the run ended as {got!r}, expected one of {sorted(kinds)}: {message[:300]}"
            )
    if mode == "tripwire" and case.tripwire_event is not None and case.stopped_by_tripwire:
        expected = tripped_message(case.tripwire_event, case.tripwire_detail)
        if result.error is not None and message != expected:
            where = f"{case.tripwire_event} {case.tripwire_detail}".strip()
            harms.append(f"the tripwire did not stop it at {where}: {message[:300]}")
    log_bytes = sum(len(line.encode()) + 1 for line in result.logs)
    if log_bytes > limits.max_log_bytes + 256:
        harms.append(f"the logs hold {log_bytes} bytes, past max_log_bytes={limits.max_log_bytes}")
    if len(value.encode()) > limits.max_value_bytes:
        harms.append(f"the value holds {len(value)} bytes, past max_value_bytes")
    if len(message.encode()) > limits.max_frame_bytes:
        harms.append(f"the error message holds {len(message)} bytes, past max_frame_bytes")
    return harms


async def _left_in_group(pool: WorkerPool, pid: int) -> list[int]:
    """Processes still in child ``pid``'s process group once the child itself is reaped."""
    await wait_reaped(pool, pid)
    return process_group_members(pid)


async def _run_case(
    pool: WorkerPool,
    case: Case,
    mode: Mode,
    parent: Path,
    limits: Limits,
    work: host_work.HostWork,
) -> CaseOutcome:
    stage = Stage.create(
        parent, case.id.replace("/", "__"),
        canary="canary" in case.signals, victim="victim" in case.signals,
    )
    try:
        handler = RecordingHandler()
        # A case that must succeed gets the legitimate programs' wall clock: the
        # corpus's short one keeps the exhaustion cases short, but on a busy
        # machine a legitimate program can need longer (found under a CPU hog).
        own = limits
        if case.expected_kinds(mode) == frozenset({"ok"}):
            own = replace(limits, wall_seconds=LEGIT_LIMITS.wall_seconds)
        try:
            with work.case(case.id):
                result = await pool.run(
                    case.program(stage.substitutions()), tool_names=TOOL_NAMES, handler=handler,
                    limits=own,
                )
        except Exception as error:  # the contract: a child never makes run() raise
            return CaseOutcome(
                case=case, mode=mode, result=None, pids=[],
                harms=[f"pool.run raised instead of returning a result: {error!r}"
                       f" {_leaf_errors(error)}"],
            )
        harms = _judge(case, mode, stage, result, limits)
        if case.leak is not None and mode in LANGUAGE_MODES:
            harms.extend(await leak_harms(case.leak.pattern, _texts(result)))
        harms.extend(handler.violations)
        if "host" in case.signals:
            harms.extend(work.harms(case.id))
        pids = [result.pid] if result.pid is not None else []
        left = await _left_in_group(pool, result.pid) if result.pid is not None else []
        if left:
            harms.append(f"processes {left} outlived the run in the child's process group")
        if "liveness" in case.signals or "limit" in case.signals:
            after = await pool.run(_LIVENESS_PROGRAM, tool_names=(), handler=RecordingHandler())
            if after.value != 42 or after.error is not None:
                harms.append(f"the next run failed: {after.error}")
            if after.pid is not None:
                pids.append(after.pid)
                await wait_reaped(pool, after.pid)
        if "state" in case.signals:
            probe = await pool.run(
                _PROBE_PROGRAM, tool_names=TOOL_NAMES, handler=RecordingHandler()
            )
            if probe.value != _PROBE_VALUE:
                harms.append(f"a later program saw poisoned state: {probe.value!r} {probe.error}")
            if probe.pid is not None:
                pids.append(probe.pid)
                await wait_reaped(pool, probe.pid)
        return CaseOutcome(case=case, mode=mode, result=result, harms=harms, pids=pids)
    finally:
        stage.close()


#: Scheduler rounds ``_settled`` gives the pool's own tasks: once every child is
#: reaped, releasing them takes one or two; more means something is left over.
_SETTLE_ROUNDS: Final = 100


async def _settled(pool: WorkerPool, size: int) -> PoolStatistics:
    """The pool's statistics once ``size`` warm children wait again.

    Called after every run has returned and every child of the runs was reaped:
    the pool then only has to release them (a step of its own tasks, counted
    in scheduler rounds, not seconds) and refill. What is still busy, starting
    or exiting after that is left over, not late.
    """
    await wait_for_idle(pool, size)
    for _ in range(_SETTLE_ROUNDS):
        statistics = pool.statistics()
        if (statistics.busy, statistics.starting, statistics.exiting) == (0, 0, 0):
            break
        await anyio.lowlevel.checkpoint()
    return pool.statistics()


async def run_corpus(
    mode: Mode,
    cases: tuple[Case, ...],
    *,
    size: int = POOL_SIZE,
    on_outcome: Callable[[CaseOutcome], object] | None = None,
) -> CorpusRun:
    """Run every case that applies to ``mode`` through one pool and judge each run.

    ``on_outcome`` is called with each case's outcome as soon as it is judged
    (a progress display), on the event loop's thread.
    """
    limits = limits_for(mode)
    selected = [case for case in cases if mode in case.applies]
    outcomes: dict[str, CaseOutcome] = {}
    with _private_tempdir() as root, contextlib.ExitStack() as stack:
        parent = root / "stages"
        parent.mkdir()
        # Unprivileged children must be able to traverse to the world-writable marker dirs.
        os.chmod(parent, 0o755)
        # Cases with a victim run one at a time in a pool whose only uid is the
        # victim's: the child then shares its uid with the victim, as every child
        # did before each got its own.
        siblings = WorkerPool(limits=limits, size=0, uid_range=range(VICTIM_UID, VICTIM_UID + 1))
        async with WorkerPool(limits=limits, size=size) as pool, siblings:
            await _settled(pool, size)
            fds_before, dirs_before = _fds(), _run_dirs(root)
            slots = anyio.Semaphore(size)
            work = stack.enter_context(host_work.recording())

            def record(outcome: CaseOutcome) -> None:
                outcomes[outcome.case.id] = outcome
                if on_outcome is not None:
                    on_outcome(outcome)

            async def one(case: Case) -> None:
                async with slots:
                    record(await _run_case(pool, case, mode, parent, limits, work))

            async def with_victims(cases: list[Case]) -> None:
                for case in cases:
                    record(await _run_case(siblings, case, mode, parent, limits, work))

            async with anyio.create_task_group() as group:
                group.start_soon(
                    with_victims, [case for case in selected if "victim" in case.signals]
                )
                for case in selected:
                    if case.repeat == 1 and "victim" not in case.signals:
                        group.start_soon(one, case)
            # Oversized programs may load the host itself: run them alone, so that
            # what they do cannot be mistaken for a failure of another case.
            for case in selected:
                if case.repeat > 1 and "victim" not in case.signals:
                    await one(case)
            statistics = await _settled(pool, size)
            leftover = {
                pid: members
                for outcome in outcomes.values()
                for pid in outcome.pids
                if (members := process_group_members(pid))
            }
            fds_after, dirs_after = _fds(), _run_dirs(root)
        pool_dirs_left = _pool_dirs(root)
    return CorpusRun(
        mode=mode,
        outcomes=outcomes,
        statistics=statistics,
        leftover_processes=leftover,
        fds_before=fds_before,
        fds_after=fds_after,
        run_dirs_before=dirs_before,
        run_dirs_after=dirs_after,
        pool_dirs_left=pool_dirs_left,
    )


class AblationRuns:
    """Runs the corpus at most once per mode per test session and keeps the results."""

    def __init__(self, cases: tuple[Case, ...]) -> None:
        self.cases = cases
        self._runs: dict[Mode, CorpusRun] = {}

    def get(self, mode: Mode) -> CorpusRun:
        """The corpus run for ``mode``, running it on first use."""
        if mode not in self._runs:
            self._runs[mode] = anyio.run(run_corpus, mode, self.cases)
        return self._runs[mode]


#: Legitimate programs run under the defaults except a shorter wall clock.
LEGIT_LIMITS: Final = Limits(wall_seconds=20.0)


async def run_legit(
    mode: Mode,
    programs: tuple[LegitProgram, ...],
    *,
    on_result: Callable[[LegitProgram, RunResult], object] | None = None,
) -> dict[str, RunResult]:
    """Run every legitimate program through one pool in ``mode``; return the results by id."""
    results: dict[str, RunResult] = {}
    async with WorkerPool(limits=limits_for(mode, LEGIT_LIMITS), size=POOL_SIZE) as pool:
        slots = anyio.Semaphore(POOL_SIZE)

        async def one(program: LegitProgram) -> None:
            async with slots:
                result = await pool.run(
                    program.text, tool_names=TOOL_NAMES, handler=RecordingHandler()
                )
                results[program.id] = result
                if on_result is not None:
                    on_result(program, result)

        async with anyio.create_task_group() as group:
            for program in programs:
                group.start_soon(one, program)
    return results


class LegitRuns:
    """Runs the legitimate programs at most once per mode per test session."""

    def __init__(self, programs: tuple[LegitProgram, ...]) -> None:
        self.programs = programs
        self._runs: dict[Mode, dict[str, RunResult]] = {}

    def get(self, mode: Mode) -> dict[str, RunResult]:
        """The results for ``mode``, running the programs on first use."""
        if mode not in self._runs:
            self._runs[mode] = anyio.run(run_legit, mode, self.programs)
        return self._runs[mode]
