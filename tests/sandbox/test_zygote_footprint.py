"""What the zygote leaves its children, and what a child does before READY.

Every page a child writes before READY is a page copied from the zygote: memory
the idle child holds and a page fault its fork pays. These tests pin the
mechanisms that keep that work out of the child (BENCHMARKS.md, "The child's
pages before READY"), not any figure.
"""

from __future__ import annotations

import os
from pathlib import Path

import anyio
import pytest

from sandbox import WorkerPool
from sandbox.testing import wait_for_idle, zygote_pid

pytestmark = pytest.mark.slow

GUARD = 30


@pytest.mark.skipif(os.geteuid() != 0, reason="the uid drop happens only as root")
async def test_the_zygote_empties_the_bounding_set_its_children_inherit() -> None:
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
        pid = zygote_pid(pool)
        assert pid is not None
        status = Path(f"/proc/{pid}/status").read_text()  # noqa: ASYNC240 - a test
    (line,) = [line for line in status.splitlines() if line.startswith("CapBnd:")]
    assert int(line.split()[1], 16) == 0
    # The zygote keeps what it needs to make each child's uid switch.
    (line,) = [line for line in status.splitlines() if line.startswith("CapEff:")]
    assert int(line.split()[1], 16) != 0


def test_a_zygote_that_cannot_empty_its_bounding_set_leaves_it_to_each_child(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sandbox import _limits

    def refuse(option: int, *args: object, **kwargs: object) -> int:
        raise _limits.ProtectionError("uid_drop", f"prctl({option}) refused")

    plan = _limits.PlatformPlan(
        linux=True, uid_drop=True, last_capability=40, seccomp_program=None,
        ceilings=(-1, -1, -1), reasons=(),
    )
    monkeypatch.setattr(_limits, "_prctl", refuse)
    assert _limits.empty_bounding_set(plan) is plan
    assert not plan.bounding_set_empty
