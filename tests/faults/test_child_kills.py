"""Fault matrix, processes: the child SIGKILLed at three points, and a host SIGKILLed mid-run.

The child is killed (a) after its fork, before the host has read its READY,
(b) while one of its tool calls is in flight on the host, and (c) after it has
written its result, before the host has read it. A host killed outright leaves
its pool directory behind; the next pool that opens reclaims it.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from bridge.host import HostEndpoint
from codemode._errors import CODE_RUN_FAILED
from sandbox import WorkerPool
from sandbox._reclaim import POOL_PREFIX, make_pool_directory
from tests.codemode.test_code_mode_support import make_tool, registry_with, returned
from tests.faults.support import (
    DEADLOCK_SECONDS,
    assert_next_run_is_served,
    assert_one_settle_each,
    code_and_kind,
    open_cell,
)

if TYPE_CHECKING:
    from codemode import JsonValue, ToolRunContext
    from sandbox._children import Child

pytestmark = pytest.mark.slow


def _child_of(pool: WorkerPool, endpoint: HostEndpoint) -> Child | None:
    zygote = pool._zygote
    assert zygote is not None
    return next((c for c in zygote.children.values() if c.endpoint is endpoint), None)


async def _kill(pool: WorkerPool, child: Child) -> None:
    # Through the zygote, the child's parent: it kills only a child it has not
    # reaped (no pid-reuse race), and the child may have exited by itself.
    zygote = pool._zygote
    assert zygote is not None
    await zygote.kill(child)
    await child.exited.wait()


async def test_a_child_killed_before_ready_is_a_worker_exit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = HostEndpoint.receive_ready
    killed: list[int] = []

    async def killed_first(self: HostEndpoint) -> Any:
        child = _child_of(pool, self)
        if child is not None and not killed:
            killed.append(child.pid)
            await _kill(pool, child)  # reaped before the host reads a byte from it
        return await original(self)

    # size=0: the run forks its own child, so the kill lands on the run's start.
    async with open_cell(registry_with(make_tool("t")), size=0) as cell:
        pool = cell.pool
        monkeypatch.setattr(HostEndpoint, "receive_ready", killed_first)
        result = await cell.run("return await tools.t(n=1)")
        monkeypatch.undo()
        assert killed
        assert code_and_kind(result) == (CODE_RUN_FAILED, "worker-exit")
        assert "signal 9" in result.content[0].text  # type: ignore[union-attr]
        assert cell.started() == []
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell, size=0)


async def test_a_child_killed_while_its_call_is_in_flight_is_a_worker_exit() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        zygote = pool._zygote
        assert zygote is not None
        (busy,) = [c for c in zygote.children.values() if c.state == "busy"]
        await _kill(pool, busy)
        return {"n": 1}

    async with open_cell(registry_with(make_tool("t", body=body))) as cell:
        pool = cell.pool
        result = await cell.run("return await tools.t(n=1)")
        assert code_and_kind(result) == (CODE_RUN_FAILED, "worker-exit")
        assert "signal 9" in result.content[0].text  # type: ignore[union-attr]
        assert cell.started() == ["call-1:code:1"]
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell)


async def test_a_child_killed_after_sending_its_result_still_delivers_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    original = HostEndpoint._next_body
    killed: list[int] = []

    async def killed_after_done(self: HostEndpoint) -> bytes:
        child = _child_of(pool, self)
        if child is not None and child.state == "busy" and not killed:
            # The result frame is in the pipe: kill the child before reading it.
            await anyio.wait_readable(self._read_fd)
            killed.append(child.pid)
            await _kill(pool, child)
        return await original(self)

    async with open_cell(registry_with(make_tool("t"))) as cell:
        pool = cell.pool
        monkeypatch.setattr(HostEndpoint, "_next_body", killed_after_done)
        result = await cell.run("return 7")
        monkeypatch.undo()
        assert killed
        assert returned(result) == 7
        await assert_next_run_is_served(cell)


TOOLS = '''
import sys

def started() -> str:
    """Tell the supervisor that the program runs."""
    print("started", file=sys.stderr, flush=True)
    return "ok"
'''

PROGRAM = """
import asyncio
await tools.started()
await asyncio.sleep(3600)
"""


def _kill_host_mid_run(tmp_path: Path, folder: Path) -> None:
    """Run ``codemode run`` with ``folder`` as its temporary folder; SIGKILL it mid-run."""
    (tmp_path / "tools.py").write_text(TOOLS)
    (tmp_path / "program.py").write_text(PROGRAM)
    script = "import sys; from codemode.cli import main; sys.argv[0] = 'codemode'; main()"
    command = [
        sys.executable, "-c", script, "run", str(tmp_path / "program.py"),
        "--tools", str(tmp_path / "tools.py"),
    ]
    environment = {**os.environ, "TMPDIR": str(folder)}
    with subprocess.Popen(
        command, cwd=tmp_path, env=environment, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL
    ) as host:
        try:
            assert host.stderr is not None
            line = host.stderr.readline()  # the deadline guard: faulthandler_timeout
            assert line.strip() == b"started", line
            # What a supervisor's timeout does: no chance to clean up.
            host.send_signal(signal.SIGKILL)
            host.wait(timeout=DEADLOCK_SECONDS)
        finally:
            if host.poll() is None:
                host.kill()
                host.wait()
    return


def test_the_next_pool_reclaims_the_directory_of_a_host_killed_mid_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "tmp"
    folder.mkdir()
    _kill_host_mid_run(tmp_path, folder)
    (left,) = [p for p in folder.iterdir() if p.name.startswith(POOL_PREFIX)]
    assert [p.name for p in left.iterdir() if p.name.startswith("run-")]

    monkeypatch.setattr(tempfile, "tempdir", str(folder))
    # A directory whose owner still runs (this process) is kept.
    alive = Path(make_pool_directory())

    async def open_a_pool() -> str:
        with anyio.fail_after(DEADLOCK_SECONDS):
            async with WorkerPool(size=0) as pool:
                return pool._directory

    opened = anyio.run(open_a_pool)
    assert not left.exists()
    assert alive.exists()
    assert not Path(opened).exists()  # closed normally: removed by its own pool
