"""The RayPool tests: a real Ray runtime started here, held by one xdist worker.

Every test in this folder is in the ``ray`` xdist group, so that one worker
starts the runtime (once per module: a single-node ``ray.init`` for most tests,
a two-node ``ray.cluster_utils.Cluster`` for placement and node loss) while
the other worker runs the rest of the suite.
"""

from __future__ import annotations

from pathlib import Path

import pytest

_HERE = Path(__file__).resolve().parent


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.is_relative_to(_HERE):
            item.add_marker(pytest.mark.xdist_group("ray"))
