"""The bounded soak (``python -m benchmarks.soak``), short: every check it makes must pass."""

from __future__ import annotations

import importlib

import pytest

# Imported by name: mypy checks benchmarks/ as scripts, and a static import
# would make it see the same file as two modules.
soak = importlib.import_module("benchmarks.soak").soak

pytestmark = pytest.mark.slow


async def test_a_short_soak_loses_nothing_leaks_nothing_and_every_outcome_is_documented() -> None:
    # 10 s of soak, plus start-up, warm-up and the checks, stays inside 20 s of wall time.
    report = await soak(agents=4, seconds=10)
    assert report.problems == []
    assert report.runs >= 4
    assert report.sub_calls >= 8 * report.runs
