"""Fixtures for the escape tests: the corpus run once per ablation mode per session."""

from __future__ import annotations

from pathlib import Path
from typing import Final

import pytest

from codemode.escapes._format import load_cases, load_legit_programs
from codemode.escapes._runner import AblationRuns, LegitRuns

_HERE: Final = Path(__file__).parent


@pytest.fixture(scope="session")
def ablation() -> AblationRuns:
    """The corpus results per mode; each mode's pool runs the first time a test asks for it."""
    return AblationRuns(load_cases())


@pytest.fixture(scope="session")
def legit_runs() -> LegitRuns:
    """The legitimate programs' results per mode, run on first use."""
    return LegitRuns(load_legit_programs())


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    # Every escape test reads the one corpus run per mode (session fixtures): under
    # pytest-xdist they share a worker, so the corpus runs once, not once per worker.
    for item in items:
        if item.path.is_relative_to(_HERE):
            item.add_marker(pytest.mark.xdist_group("escape-corpus"))
