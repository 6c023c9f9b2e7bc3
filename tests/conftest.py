"""Shared pytest configuration: the anyio backend and hypothesis profiles."""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100
)
settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=100,
    derandomize=True, print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
