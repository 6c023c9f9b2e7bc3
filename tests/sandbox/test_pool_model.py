"""Random sequences of run outcomes leave the pool consistent and leak nothing."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox import Limits, RunResult, WorkerPool
from sandbox.testing import EchoHandler, wait_for_idle

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

pytestmark = pytest.mark.slow

GUARD = 60

#: What a run does, and the error kind it must end with (None: success).
PROGRAMS: dict[str, tuple[str, str | None]] = {
    "ok": ("return 1", None),
    "exception": ("raise ValueError('no')", "exception"),
    "compile": ("return (", "compile"),
    "exit": ("import os\nos._exit(4)", "worker-exit"),
    "timeout": ("await tools.wait()", "timeout"),
    "abort": ("await tools.wait()", "abort"),
    "cancel": ("await tools.wait()", None),
}


class Blocking:
    """Calls block until the run ends; ``entered`` fires on the first."""

    def __init__(self) -> None:
        self.entered = anyio.Event()

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.entered.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def _one(pool: WorkerPool, step: str) -> RunResult | None:
    source, _ = PROGRAMS[step]
    handler = Blocking()
    limits = Limits(language_layer=False) if step == "exit" else None
    if step == "timeout":
        limits = Limits(wall_seconds=0.2)
    if step == "cancel":
        with anyio.CancelScope() as scope:
            async with anyio.create_task_group() as tg:

                async def run() -> None:
                    await pool.run(source, tool_names=["wait"], handler=handler)

                tg.start_soon(run)
                await handler.entered.wait()
                scope.cancel()
        return None

    async def abort() -> str:
        await handler.entered.wait()
        return "stopped"

    return await pool.run(
        source,
        tool_names=["wait"],
        handler=handler if step in ("timeout", "abort") else EchoHandler(),
        abort=abort if step == "abort" else None,
        limits=limits,
    )


@settings(max_examples=12, deadline=None)
@given(st.lists(st.sampled_from(sorted(PROGRAMS)), min_size=1, max_size=6))
async def test_any_sequence_of_outcomes_leaves_the_pool_idle_and_clean(steps: list[str]) -> None:
    fds_before = len(os.listdir("/proc/self/fd"))
    pids: list[int] = []
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            for step in steps:
                result = await _one(pool, step)
                if result is not None:
                    expected = PROGRAMS[step][1]
                    assert (None if result.error is None else result.error.kind) == expected
                    if result.pid is not None:
                        pids.append(result.pid)
                stats = pool.statistics()
                assert stats.busy == 0
            await wait_for_idle(pool, 1)
            stats = pool.statistics()
            ran = sum(1 for step in steps if step != "compile")
            assert stats.runs == len(steps)
            assert stats.started >= ran
            assert len(set(pids)) == len(pids)
        directory = Path(pool._directory)
    assert not any(_alive(pid) for pid in pids)
    assert not directory.exists()  # noqa: ASYNC240 - a test assertion
    assert len(os.listdir("/proc/self/fd")) == fds_before
