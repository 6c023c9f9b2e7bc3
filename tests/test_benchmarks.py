"""``python -m benchmarks`` keeps running: one smoke round end to end, and its figure names.

No figure is asserted against a bound here (speed is measured by the command, not the
tests); what is checked is that every system ran every workload with its result checked,
that the JSON file has the stable names, and that a missing peer is reported, not fatal.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import ClassVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from benchmarks import _contenders, _report, _suite, _workloads

REPO = Path(__file__).resolve().parent.parent

#: What every isolated system reports, by figure name (smolagents has no process of
#: its own: no W7 and no worker memory).
_PER_SYSTEM = (
    "w1_median_us", "w1_p90_us", "w2_median_us", "w3_median_us", "w3_p90_us",
    "w4_ratio_vs_plain", "w5_ratio_vs_plain", "w6_median_us", "w6_ratio_vs_sleep",
    "cold_start_median_us",
)
_ISOLATED = ("w7_runs_per_s", "idle_uss_mib")
#: codemode's idle children are not dumpable, so only root reads their memory: under any
#: other uid their memory figure is left out (as for a peer that is not installed).
_MEMORY_READ_AS_ROOT_ONLY = frozenset({"codemode_full", "codemode_pool"})


@pytest.mark.slow
def test_one_smoke_round_measures_every_installed_system(tmp_path: Path) -> None:
    out = tmp_path / "figures.json"
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks", "--smoke", "--json", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=600, check=False,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(out.read_text())
    installed = {
        name for name, (module, _) in _contenders.PEERS.items()
        if importlib.util.find_spec(module) is not None
    }
    expected = ["codemode_full", "codemode_pool", *sorted(installed)]
    assert sorted(data["systems"]) == sorted(expected)
    assert set(data["missing"]) == set(_contenders.PEERS) - installed
    figures = data["figures"]
    for system in expected:
        for name in _PER_SYSTEM:
            assert figures[name][system] > 0, (name, system)
        if system != "smolagents":
            for name in _ISOLATED:
                if (name == "idle_uss_mib" and system in _MEMORY_READ_AS_ROOT_ONLY
                        and os.geteuid() != 0):
                    assert system not in figures.get(name, {}), (name, system)
                    continue
                assert figures[name][system] > 0, (name, system)
    if "monty" in installed:
        assert figures["w1_ratio_vs_monty"]["monty"] == pytest.approx(1.0)
        assert figures["w1_ratio_vs_monty"]["codemode_full"] > 0
    assert set(data["targets"]) == {target.row for target in _report.TARGETS}
    assert data["load_average_before"]
    assert data["machine"]["cpus"]
    # The table: a header, a rule, one row per target and the host CPU row.
    table = [line for line in done.stdout.splitlines() if line.startswith("|")]
    assert len(table) == 3 + len(_report.TARGETS)
    assert all(system in table[0] for system in expected)


def test_a_missing_peer_is_reported_and_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name: str, *args: object) -> object:
        return None if name == "pydantic_monty" else real(name)

    monkeypatch.setattr(importlib.util, "find_spec", find_spec)
    chosen, missing = _contenders.contenders(("codemode_pool", "monty"))
    assert [c.name for c in chosen] == ["codemode_pool"]
    assert "pip install pydantic-monty" in missing["monty"]


class _BrokenPeer(_contenders.Smolagents):
    async def run(self, workload: _workloads.Workload) -> float:
        if workload.key == "w3":
            raise RuntimeError("the peer broke")
        return await super().run(workload)


def _options(systems: tuple[str, ...]) -> _suite.Options:
    return _suite.Options(
        rounds=1, cpu_scale=0.01, sample_scale=0.01, systems=systems, quiet_seconds=0.0,
        quiet_load=0.5, command="python -m benchmarks", log=lambda line: None,
        only=("w1", "w3"),
    )


@pytest.mark.skipif(
    importlib.util.find_spec("smolagents") is None, reason="the bench extra is not installed"
)
async def test_a_peer_that_fails_is_reported_and_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(_contenders._CLASSES, "smolagents", _BrokenPeer)
    report = await _suite.measure(_options(("smolagents",)))
    assert "failed on w3 (RuntimeError: the peer broke)" in report.missing["smolagents"]
    assert "smolagents" not in report.figures.get("w3_median_us", {})


async def test_a_failing_codemode_run_stops_the_benchmark(monkeypatch: pytest.MonkeyPatch) -> None:
    class Broken(_contenders.CodemodePool):
        async def run(self, workload: _workloads.Workload) -> float:
            raise RuntimeError("broken")

    monkeypatch.setitem(_contenders._CLASSES, "codemode_pool", Broken)
    with pytest.raises(_contenders.BenchmarkError, match="codemode_pool failed on w1"):
        await _suite.measure(_options(("codemode_pool",)))


def test_a_wrong_result_stops_the_benchmark() -> None:
    workload = _workloads.workloads(0.01)[0]
    with pytest.raises(_contenders.BenchmarkError, match="returned 2 for w1; expected 1"):
        _contenders._check("codemode_pool", workload, 2)


def test_every_workload_expects_what_its_plain_body_returns() -> None:
    for workload in _workloads.workloads(0.01):
        if workload.kind != "cpu":
            continue
        namespace: dict[str, object] = {}
        exec(_workloads.plain_function(workload.codemode), namespace)
        coroutine = namespace["__plain__"]()  # type: ignore[operator]
        with pytest.raises(StopIteration) as done:
            coroutine.send(None)
        assert done.value.value == workload.expected


@given(st.lists(st.floats(min_value=0, max_value=1e6), min_size=1, max_size=200))
def test_p90_is_a_sample_with_nine_tenths_at_or_below_it(samples: list[float]) -> None:
    value = _report.p90(samples)
    assert value in samples
    at_or_below = sum(1 for sample in samples if sample <= value)
    assert at_or_below >= 0.9 * len(samples)
    assert sum(1 for sample in samples if sample < value) < 0.9 * len(samples)


def test_targets_read_the_figures_they_name() -> None:
    report = _report.Report(
        systems=["codemode_full", "codemode_pool", "monty"], missing={}, rounds=1,
        command="python -m benchmarks", quiet="quiet", load_before=(0.0, 0.0, 0.0),
    )
    report.put("w3_median_us", "codemode_full", 90.0)
    report.put("w3_median_us", "codemode_pool", 120.0)
    report.put("w3_median_us", "monty", 500.0)
    _report.ratios_vs(report, "w3_ratio_vs_monty", "w3_median_us", "monty")
    report.put("w7_runs_per_s", "codemode_full", 401.0)
    report.put("w7_runs_per_s", "codemode_pool", 399.0)
    targets = report.targets()
    assert targets["w3"]["met"] == {"codemode_full": True, "codemode_pool": False}
    assert targets["w7"]["met"] == {"codemode_full": True, "codemode_pool": False}
    assert targets["w1"]["met"] == {"codemode_full": None, "codemode_pool": None}


def test_the_wakeup_floor_script_measures_every_figure(tmp_path: Path) -> None:
    out = tmp_path / "floor.json"
    done = subprocess.run(
        [sys.executable, "benchmarks/wakeup_floor.py", "--rounds", "3", "--json", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    figures = json.loads(out.read_text())
    gaps = ("gap_0us", "gap_300us", "gap_3000us")
    expected = {
        f"{kind}.{placement}.{gap}"
        for kind in ("round_trip_us", "write_us")
        for placement in ("free", "one_cpu")
        for gap in gaps
    } | {f"syscall_us.{gap}" for gap in gaps} | {
        f"{kind}.busy_waker.{gap}" for kind in ("write_us", "wake_us") for gap in gaps
    }
    assert set(figures) == expected
    assert all(value > 0 for value in figures.values())
    assert "| idle gap before the write |" in done.stdout


#: The two fork-server floor scripts, which share their command line (benchmarks/_floor_script.py).
FLOOR_MODULES = ("benchmarks.python_floor", "benchmarks.floor_layers")


def _one_round_of(module: str, tmp_path: Path) -> tuple[dict[str, float], str]:
    """Run a floor script for one round of one sample; its JSON figures and its stdout."""
    out = tmp_path / f"{module}.json"
    done = subprocess.run(
        [sys.executable, "-m", module, "--rounds", "1", "--samples", "1", "--json", str(out)],
        cwd=REPO, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    figures: dict[str, float] = json.loads(out.read_text())
    return figures, done.stdout


@pytest.mark.slow
def test_the_python_floor_script_measures_every_figure(tmp_path: Path) -> None:
    figures, stdout = _one_round_of(FLOOR_MODULES[0], tmp_path)
    floors = {"w1_floor_us", "w3_floor_us", "w7_floor_per_s", "uss_floor_mib"}
    peers = {"w1_monty_us", "w3_monty_us", "w7_monty_per_s", "uss_monty_mib"}
    expected = floors | peers if importlib.util.find_spec("pydantic_monty") else floors
    assert set(figures) == expected
    assert all(value > 0 for value in figures.values())
    assert "| figure | lean CPython floor | Monty | target | the floor meets it |" in stdout


@pytest.mark.parametrize("module", FLOOR_MODULES)
@pytest.mark.parametrize("argument", ["--rounds", "--samples"])
def test_a_floor_script_refuses_a_count_below_one(module: str, argument: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", module, argument, "0"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert f"{argument} must be 1 or more; got 0" in done.stderr


@pytest.mark.slow
def test_the_floor_layers_script_measures_every_rung(tmp_path: Path) -> None:
    from benchmarks.floor_layers import RUNGS

    figures, stdout = _one_round_of(FLOOR_MODULES[1], tmp_path)
    assert set(figures) == {f"w1_us.{rung}" for rung in RUNGS}
    assert all(value > 0 for value in figures.values())
    assert "| rung | W1 | over the rung below |" in stdout


def test_the_floor_layers_script_refuses_a_count_below_one() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "benchmarks.floor_layers", "--samples", "0"],
        cwd=REPO, capture_output=True, text=True, timeout=60, check=False,
    )
    assert done.returncode == 2
    assert "--samples must be 1 or more; got 0" in done.stderr


class _Recorder(_contenders.Contender):
    """A system that records what the suite does with it, in order."""

    name = "codemode_pool"
    #: Replaced by each test with a list of its own.
    events: ClassVar[list[str]] = []

    async def settle(self) -> None:
        self.events.append("settle")

    async def run(self, workload: _workloads.Workload) -> float:
        self.events.append(f"run {workload.key}")
        return 0.001


async def test_every_sample_follows_a_settle_and_the_same_idle_gap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A worker that has just run starts its next run hot: every system, peers
    # included, gets the same gap after settling, before each measured sample.
    events: list[str] = []
    monkeypatch.setattr(_Recorder, "events", events)
    monkeypatch.setitem(_contenders._CLASSES, "codemode_pool", _Recorder)

    async def idle() -> None:
        events.append("idle")

    monkeypatch.setattr(_suite, "_idle", idle)
    await _suite.measure(_options(("codemode_pool",)))
    warm_up = ["settle", "run w1", "settle", "run w3"]
    assert events[:4] == warm_up
    measured = [tuple(events[i:i + 3]) for i in range(4, len(events), 3)]
    assert {sample[:2] for sample in measured} == {("settle", "idle")}
    assert {sample[2] for sample in measured} == {"run w1", "run w3"}
