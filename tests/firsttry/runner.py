"""Run the first-try programs through the real stack and measure how many work the first time.

Every program goes the way a model's program goes: ``registry.execute`` of
``run_code`` on a ``Registry(mode="code")`` holding the tools, one shared
:class:`~codemode.code_mode.CodeMode` (and so one warm pool) for all of them, a
few programs in flight at once. A program *works the first time* when the run
succeeds, returns its expected value and, where its header lists them, prints
its expected lines. Anything else is a failure, reported with the text the model
would have read.

``python -m tests.firsttry.runner`` (from the repository root) prints the rate
and every failure.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

import anyio
import pytest

from codemode import AbortSignal, Agent, CallInput, Registry, text_of
from codemode.code_mode import CodeMode
from sandbox import Limits

from .corpus import Program, load_programs
from .tools import TOOLS

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "CONCURRENCY",
    "REPORT_KEY",
    "Outcome",
    "Report",
    "measure",
    "report",
    "run_programs",
]

#: Programs in flight at once, and warm children kept: enough to overlap one
#: program's tool round trips with another's start-up on two CPUs.
CONCURRENCY: Final = 3
#: A program that hangs fails in seconds instead of the default minute.
LIMITS: Final = Limits(wall_seconds=20.0)


@dataclass(frozen=True, slots=True)
class Outcome:
    """What one ``run_code`` call gave: the value and logs, or the failure the model read."""

    value: object
    logs: tuple[str, ...]
    kind: str | None
    error: str | None

    def problem(self, program: Program) -> str | None:
        """Why this outcome is not the program working the first time, or ``None``."""
        if self.error is not None:
            return f"run failed ({self.kind}): {self.error}"
        if self.value != program.value:
            return f"returned {self.value!r}, expected {program.value!r}"
        if program.logs is not None and self.logs != program.logs:
            return f"printed {list(self.logs)!r}, expected {list(program.logs)!r}"
        return None


#: Run numbers, so that a program run twice in one process gets a fresh call id
#: (the tools keep a run's writes by its root call id).
_runs = itertools.count(1)


def _registry() -> Registry:
    registry = Registry(mode="code")
    for definition in TOOLS:
        registry.register(definition)
    return registry


async def _run_one(registry: Registry, agent: Agent, program: Program) -> Outcome:
    result = await registry.execute(
        CallInput(
            f"first-try-{next(_runs)}-{program.id}",
            "run_code",
            {"code": program.text, "description": program.description},
            AbortSignal(),
            agent=agent,
        )
    )
    if result.is_error:
        info = result.error.info
        return Outcome(None, (), info.kind if info is not None else None, text_of(result.content))
    value = result.value
    assert isinstance(value, dict)
    logs = value.get("logs")
    assert isinstance(logs, list | tuple)
    # The canonical value is deep-frozen (read-only dicts, tuples for lists); thaw it
    # into the plain JSON data the model reads.
    returned = json.loads(json.dumps(value.get("result")))
    return Outcome(returned, tuple(str(line) for line in logs), None, None)


async def run_programs(
    programs: Sequence[Program], *, concurrency: int = CONCURRENCY
) -> dict[str, Outcome]:
    """Run every program through one CodeMode, ``concurrency`` at a time; outcomes by id."""
    registry = _registry()
    agent = Agent("assistant")
    outcomes: dict[str, Outcome] = {}
    slots = anyio.Semaphore(concurrency)
    async with CodeMode(registry, limits=LIMITS, pool_size=concurrency):

        async def one(program: Program) -> None:
            async with slots:
                outcomes[program.id] = await _run_one(registry, agent, program)

        async with anyio.create_task_group() as group:
            for program in programs:
                group.start_soon(one, program)
    return outcomes


@dataclass(frozen=True, slots=True)
class Report:
    """The first-try rate and, for each program that did not work, why."""

    total: int
    failures: dict[str, str]

    @property
    def succeeded(self) -> int:
        return self.total - len(self.failures)

    @property
    def rate(self) -> float:
        return self.succeeded / self.total if self.total else 0.0

    def text(self) -> str:
        lines = [
            f"first-try success: {self.succeeded}/{self.total} programs "
            f"({100 * self.rate:.1f} %)"
        ]
        for program_id, problem in sorted(self.failures.items()):
            lines.append(f"- {program_id}: {problem}")
        return "\n".join(lines)


#: Where the test module leaves its report for the terminal summary (conftest.py).
REPORT_KEY: Final = pytest.StashKey[Report]()


def report(programs: Sequence[Program], outcomes: dict[str, Outcome]) -> Report:
    """Judge every program's outcome against its header."""
    failures: dict[str, str] = {}
    for program in programs:
        outcome = outcomes.get(program.id)
        problem = "did not run" if outcome is None else outcome.problem(program)
        if problem is not None:
            failures[program.id] = problem
    return Report(total=len(programs), failures=failures)


def measure() -> Report:
    """Run every program once and judge the outcomes."""
    programs = load_programs()
    return report(programs, anyio.run(run_programs, programs))


if __name__ == "__main__":
    print(measure().text())
