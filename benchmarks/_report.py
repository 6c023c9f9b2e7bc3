"""Figures of ``python -m benchmarks``: stable names, targets, the table and the JSON file.

Every figure is stored as ``figures[NAME][SYSTEM]`` (``NAME.SYSTEM`` in the
documentation), e.g. ``w1_median_us.codemode_full``, ``w1_median_us.monty``,
``w4_ratio_vs_plain.codemode_full``, ``w7_runs_per_s.monty``. Names end with
their unit: ``_us`` microseconds, ``_per_s`` per second, ``_mib`` mebibytes;
ratios have none. ``wN_host_cpu_us`` is the benchmark process's own CPU time per
run (per call for W3), all threads: what the host spends, which the machine's load
moves far less than the wall clock.
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

Figures = dict[str, dict[str, float]]

CODEMODE: Final = ("codemode_full", "codemode_pool")


def median(samples: Sequence[float]) -> float:
    return statistics.median(samples)


def p90(samples: Sequence[float]) -> float:
    """The 90th percentile (nearest rank)."""
    ordered = sorted(samples)
    return ordered[max(0, math.ceil(0.9 * len(ordered)) - 1)]


@dataclass(frozen=True)
class Target:
    """One target of the table: which figure, and the bound it must meet."""

    row: str
    figure: str
    text: str
    holds: Callable[[Figures, str], bool | None]


def _bound(
    name: str, limit: float, *, at_least: bool = False
) -> Callable[[Figures, str], bool | None]:
    def holds(figures: Figures, system: str) -> bool | None:
        value = figures.get(name, {}).get(system)
        if value is None:
            return None
        return value >= limit if at_least else value <= limit

    return holds


def _w3(figures: Figures, system: str) -> bool | None:
    ratio = _bound("w3_ratio_vs_monty", 0.2)(figures, system)
    absolute = _bound("w3_median_us", 100.0)(figures, system)
    if absolute is None:
        return None
    return absolute and ratio is not False


TARGETS: Final = (
    Target("w1", "w1_ratio_vs_monty", "≤ 0.7× Monty", _bound("w1_ratio_vs_monty", 0.7)),
    Target("w2", "w2_ratio_vs_monty", "≤ 0.7× Monty", _bound("w2_ratio_vs_monty", 0.7)),
    Target("w3", "w3_median_us", "≤ 0.2× Monty and ≤ 100 µs", _w3),
    Target("w4", "w4_ratio_vs_plain", "≤ 1.2× plain", _bound("w4_ratio_vs_plain", 1.2)),
    Target("w5", "w5_ratio_vs_plain", "≤ 2× plain (aim 1.3×)", _bound("w5_ratio_vs_plain", 2.0)),
    Target("w6", "w6_ratio_vs_sleep", "≤ 1.2× one sleep", _bound("w6_ratio_vs_sleep", 1.2)),
    Target("w7", "w7_runs_per_s", "≥ 400/s", _bound("w7_runs_per_s", 400.0, at_least=True)),
    Target("cold", "cold_start_median_us", "—", lambda figures, system: None),
    Target("memory", "idle_uss_mib", "≤ 2 MiB", _bound("idle_uss_mib", 2.0)),
)


@dataclass
class Report:
    """What one ``python -m benchmarks`` run measured, and under which conditions."""

    systems: list[str]
    missing: dict[str, str]
    rounds: int
    command: str
    quiet: str
    load_before: tuple[float, float, float]
    load_after: tuple[float, float, float] = (0.0, 0.0, 0.0)
    figures: Figures = field(default_factory=dict)
    titles: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)

    def put(self, name: str, system: str, value: float) -> None:
        self.figures.setdefault(name, {})[system] = value

    def targets(self) -> dict[str, dict[str, object]]:
        checked: dict[str, dict[str, object]] = {}
        for target in TARGETS:
            met = {system: target.holds(self.figures, system) for system in CODEMODE}
            checked[target.row] = {"target": target.text, "met": met}
        return checked

    def as_json(self) -> dict[str, object]:
        return {
            "machine": machine(),
            "command": self.command,
            "rounds": self.rounds,
            "quiet": self.quiet,
            "load_average_before": list(self.load_before),
            "load_average_after": list(self.load_after),
            "systems": self.systems,
            "missing": self.missing,
            "figures": self.figures,
            "targets": self.targets(),
            "notes": self.notes,
        }

    def write_json(self, path: str) -> None:
        Path(path).write_text(json.dumps(self.as_json(), indent=2, sort_keys=True) + "\n")

    def table(self) -> str:
        """The Markdown table: one row per workload, one column per system."""
        header = ["workload", *self.systems, "target", "met (full / pool)"]
        lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
        for target in TARGETS:
            row = [self.titles.get(target.row, target.row)]
            row.extend(self._cell(target.row, system) for system in self.systems)
            met = self.targets()[target.row]["met"]
            assert isinstance(met, dict)
            row.append(target.text)
            row.append(" / ".join(_yes_no(met[system]) for system in CODEMODE))
            lines.append("| " + " | ".join(row) + " |")
        cpu = ["host CPU per run (W3: per call)", *(
            " / ".join(
                _time(self.figures[f"{key}_host_cpu_us"][system])
                for key in ("w1", "w2", "w3")
                if system in self.figures.get(f"{key}_host_cpu_us", {})
            ) or "—"
            for system in self.systems
        ), "W1 / W2 / W3", ""]
        lines.append("| " + " | ".join(cpu) + " |")
        return "\n".join(lines)

    def _cell(self, row: str, system: str) -> str:
        get = self.figures.get
        if row in ("w4", "w5"):
            ratio = get(f"{row}_ratio_vs_plain", {}).get(system)
            run = get(f"{row}_median_us", {}).get(system)
            if ratio is None or run is None:
                return self.notes.get(f"{row}.{system}", "—")
            note = self.notes.get(f"{row}.{system}")
            return f"{ratio:.2f}× ({_time(run)}{', ' + note if note else ''})"
        if row == "w6":
            run = get("w6_median_us", {}).get(system)
            if run is None:
                return "—"
            note = self.notes.get(f"w6.{system}")
            text = f"{_time(run)} (p90 {_time(get('w6_p90_us', {})[system])})"
            return f"{text}, {note}" if note else text
        if row == "w7":
            rate = get("w7_runs_per_s", {}).get(system)
            return "—" if rate is None else f"{rate:.0f}/s"
        if row == "memory":
            mib = get("idle_uss_mib", {}).get(system)
            return "—" if mib is None else f"{mib:.2f} MiB"
        name = "cold_start" if row == "cold" else row
        run = get(f"{name}_median_us", {}).get(system)
        if run is None:
            return "—"
        text = f"{_time(run)} (p90 {_time(get(f'{name}_p90_us', {})[system])}"
        ratio = get(f"{row}_ratio_vs_monty", {}).get(system)
        if ratio is not None and system != "monty":
            text += f", {ratio:.2f}× Monty"
        return text + ")"


def _yes_no(value: object) -> str:
    if value is None:
        return "—"
    return "yes" if value else "no"


def _time(us: float) -> str:
    if us >= 1e5:
        return f"{us / 1e3:.0f} ms"
    if us >= 1e3:
        return f"{us / 1e3:.2f} ms"
    return f"{us:.0f} µs"


def machine() -> dict[str, object]:
    """The machine the figures came from."""
    model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    return {
        "cpus": os.cpu_count(),
        "cpu_model": model,
        "system": f"{platform.system()} {platform.release()}",
        "python": sys.version.split()[0],
        "root": hasattr(os, "geteuid") and os.geteuid() == 0,
    }


def summarise(
    report: Report, prefix: str, samples: dict[str, list[float]], scale: Callable[[float], float]
) -> None:
    """Put ``PREFIX_median_us`` and ``PREFIX_p90_us`` for every system with samples."""
    for system, values in samples.items():
        if values:
            report.put(f"{prefix}_median_us", system, scale(median(values)))
            report.put(f"{prefix}_p90_us", system, scale(p90(values)))


def ratios_vs(report: Report, name: str, figure: str, reference: str) -> None:
    """``NAME.SYSTEM`` = ``FIGURE.SYSTEM`` over ``FIGURE.REFERENCE``, when both exist."""
    values = report.figures.get(figure, {})
    base = values.get(reference)
    if not base:
        return
    for system, value in values.items():
        report.put(name, system, value / base)
