"""Fixtures for the escape tests: the corpus run once per ablation mode per session."""

from __future__ import annotations

import pytest

from .corpus_format import load_cases, load_legit_programs
from .runner import AblationRuns, LegitRuns


@pytest.fixture(scope="session")
def ablation() -> AblationRuns:
    """The corpus results per mode; each mode's pool runs the first time a test asks for it."""
    return AblationRuns(load_cases())


@pytest.fixture(scope="session")
def legit_runs() -> LegitRuns:
    """The legitimate programs' results per mode, run on first use."""
    return LegitRuns(load_legit_programs())
