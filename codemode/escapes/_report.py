"""What ``codemode escape-test`` reports: a per-category table, each escape, the pool's health.

A case is *contained* when its run did no harm and ended as its header says;
it *escaped* otherwise (any harm the runner found, a broken expectation
included). A legitimate program is *broken* when it failed or returned (or
printed) something other than its header declares. The pool is *healthy* when
every run had a fresh child, the pool went back to idle, its zygote survived,
and no process, descriptor or directory outlived the runs.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

from .._terminal import one_line
from ._format import LANGUAGE_MODES, LEGIT_NAME

if TYPE_CHECKING:
    from pathlib import Path

    from sandbox import RunResult

    from ._format import LegitProgram, Mode
    from ._runner import CorpusRun

__all__ = ["MODE_TEXT", "Report", "broken_reason", "build_report", "render_report"]

#: What each ablation mode switches on, as the report's first line says it.
MODE_TEXT: Final[dict[str, str]] = {
    "all": "all three layers: language layer, tripwire, OS layer",
    "language": "the language layer alone",
    "tripwire": "the tripwire alone",
    "os": "the OS layer alone",
}


@dataclass
class Report:
    """The judged outcome of one ``escape-test`` run."""

    corpus: str
    mode: Mode
    categories: dict[str, Counter[str]] = field(default_factory=dict)
    escapes: list[dict[str, Any]] = field(default_factory=list)
    legit_run: int = 0
    broken: list[dict[str, str]] = field(default_factory=list)
    pool: list[str] = field(default_factory=list)
    missing_layers: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """No case escaped and the pool stayed healthy (broken programs are reported only)."""
        return not self.escapes and not self.pool

    def as_json(self) -> dict[str, Any]:
        return {
            "ok": self.ok,
            "corpus": self.corpus,
            "mode": self.mode,
            "categories": {
                name: {"cases": sum(c.values()), "contained": c["contained"],
                       "escaped": c["escaped"]}
                for name, c in sorted(self.categories.items())
            },
            "escapes": self.escapes,
            "legitimate": {"run": self.legit_run, "broken": self.broken},
            "pool": self.pool,
            "missing_layers": self.missing_layers,
        }


def broken_reason(program: LegitProgram, result: RunResult, mode: Mode) -> str | None:
    """Why a legitimate program's run is broken, or ``None`` when it did what it declares."""
    if result.error is not None:
        return f"failed ({result.error.kind}): {' '.join(result.error.message.split())[:300]}"
    if result.value != program.value:
        return f"returned {result.value!r:.200}, expected {program.value!r:.200}"
    if program.logs is not None and mode in LANGUAGE_MODES and tuple(result.logs) != program.logs:
        return f"printed {list(result.logs)!r:.200}, expected {list(program.logs)!r:.200}"
    return None


def _pool_problems(run: CorpusRun, size: int) -> list[str]:
    problems = []
    pids = run.pids
    if len(pids) != len(set(pids)):
        problems.append("a child process ran more than one program")
    stats = run.statistics
    if (stats.busy, stats.starting, stats.exiting) != (0, 0, 0) or stats.idle != size:
        problems.append(
            f"the pool did not return to idle: {stats.idle} idle, {stats.busy} busy, "
            f"{stats.starting} starting, {stats.exiting} exiting (expected {size} idle)"
        )
    if stats.zygote_starts != 1:
        problems.append(f"the zygote was started {stats.zygote_starts} times (expected once)")
    if run.leftover_processes:
        problems.append(f"processes outlived their runs: {run.leftover_processes}")
    if run.fds_after != run.fds_before:
        problems.append(f"open descriptors went from {run.fds_before} to {run.fds_after}")
    if run.run_dirs_after > run.run_dirs_before:
        problems.append(
            f"run directories went from {run.run_dirs_before} to {run.run_dirs_after}"
        )
    if run.pool_dirs_left:
        problems.append(f"pool directories left behind: {sorted(run.pool_dirs_left)}")
    return problems


def build_report(
    corpus: Path,
    run: CorpusRun,
    legit: dict[str, tuple[LegitProgram, RunResult]],
    *,
    pool_size: int,
) -> Report:
    """Judge a corpus run (and the legitimate programs' runs) into a :class:`Report`."""
    report = Report(corpus=str(corpus), mode=run.mode)
    for case_id, outcome in sorted(run.outcomes.items()):
        tally = report.categories.setdefault(outcome.case.category, Counter())
        if outcome.harms:
            tally["escaped"] += 1
            report.escapes.append(
                {"id": case_id, "source": outcome.case.source, "harms": list(outcome.harms)}
            )
        else:
            tally["contained"] += 1
        # In the modes with the OS layer on, say what this machine could not give it.
        if run.mode in ("all", "os") and outcome.result is not None and not report.missing_layers:
            report.missing_layers = [
                reason for reason in outcome.result.layers.reasons
                if "switched off" not in reason  # the mode's own choice, not a gap
            ]
    report.legit_run = len(legit)
    for program_id, (program, result) in sorted(legit.items()):
        reason = broken_reason(program, result, run.mode)
        if reason is not None:
            report.broken.append({"id": f"{LEGIT_NAME}/{program_id}", "problem": reason})
    if run.outcomes:
        report.pool = _pool_problems(run, pool_size)
    return report


def render_report(report: Report) -> str:
    """The report as text: the table, then each escape and broken program, then the pool."""
    rows: list[tuple[str, str, str, str, str]] = [
        ("category", "cases", "contained", "escaped", "broken-legitimate")
    ]
    for name, tally in sorted(report.categories.items()):
        rows.append((name, str(sum(tally.values())), str(tally["contained"]),
                     str(tally["escaped"]), "-"))
    if report.legit_run:
        rows.append((LEGIT_NAME, str(report.legit_run), "-", "-", str(len(report.broken))))
    contained = sum(t["contained"] for t in report.categories.values())
    escaped = sum(t["escaped"] for t in report.categories.values())
    total = contained + escaped + report.legit_run
    rows.append(("total", str(total), str(contained), str(escaped), str(len(report.broken))))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]

    def line(row: tuple[str, ...]) -> str:
        first = row[0].ljust(widths[0])
        rest = "  ".join(cell.rjust(width) for cell, width in zip(row[1:], widths[1:], strict=True))
        return f"{first}  {rest}"

    out = [f"escape-test of {report.corpus} with {MODE_TEXT[report.mode]}", ""]
    out += [line(row) for row in rows[:-1]]
    out += ["-" * len(line(rows[0])), line(rows[-1]), ""]
    for escape in report.escapes:
        # One line a case: the id and source come from corpus files, the harms
        # and problems from what a program did, so each field is kept to its line.
        harms = "; ".join(one_line(harm) for harm in escape["harms"])
        out.append(f"ESCAPED {one_line(escape['id'])} ({one_line(escape['source'])}): {harms}")
    for program in report.broken:
        out.append(f"BROKEN {one_line(program['id'])}: {one_line(program['problem'])}")
    if report.pool:
        out += [f"POOL {problem}" for problem in report.pool]
    elif report.categories:
        out.append("pool: healthy (a fresh child per run, idle afterwards, nothing left behind)")
    if report.missing_layers:
        out.append("not in force on this machine: " + "; ".join(report.missing_layers))
    verdict = "every case contained" if report.ok else (
        f"{escaped} case(s) escaped" if escaped else "the pool was harmed"
    )
    out.append(f"result: {verdict}")
    return "\n".join(out)
