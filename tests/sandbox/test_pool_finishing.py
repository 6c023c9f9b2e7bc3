"""After a run ends well: who reaps its child, and what happens when the child lingers."""

from __future__ import annotations

import os
import platform
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
import pytest

import sandbox._pool as pool_module
import sandbox._pool_children as children_module
from sandbox import Limits, WorkerPool
from sandbox._children import Child
from sandbox.testing import EchoHandler, wait_for_idle

if TYPE_CHECKING:
    from sandbox._children import Zygote

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


def _spy_on_finish(monkeypatch: pytest.MonkeyPatch) -> list[Child]:
    finished: list[Child] = []
    original = WorkerPool._finish

    async def finish(self: WorkerPool, child: Child) -> None:
        finished.append(child)
        await original(self, child)

    monkeypatch.setattr(WorkerPool, "_finish", finish)
    return finished


async def _until_released(child: Child) -> None:
    # The pool has no event for a release; each step lets its tasks run.
    while child.state != "done":
        await anyio.lowlevel.checkpoint()


@pytest.mark.slow
async def test_a_warm_childs_watcher_reaps_it_after_its_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    finished = _spy_on_finish(monkeypatch)
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            (child,) = pool._idle
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert (result.value, result.pid) == (1, child.pid)
            assert child.state == "finishing"
            await _until_released(child)
            stats = pool.statistics()
    assert finished == []  # no task was spawned for it at the end of the run
    assert child.exited.is_set()
    assert child.watch is None
    assert not Path(child.cwd).exists()  # noqa: ASYNC240 - a test assertion
    assert (stats.exiting, stats.killed) == (0, 0)


@pytest.mark.slow
async def test_a_childs_directory_is_removed_while_the_child_is_still_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Removed once the process is gone, the directory is also freed by that
    # removal, on the host's event loop (0.1 to 1.5 ms here); removed while it
    # is still the child's working directory, it is only unlinked, and the
    # child's exit frees it.
    removals: list[tuple[str, bool]] = []
    real_rmdir = os.rmdir
    children: list[Child] = []

    def rmdir(path: str, **options: Any) -> None:
        for child in children:
            if path == child.cwd:
                removals.append((path, child.exited.is_set()))
        real_rmdir(path, **options)

    monkeypatch.setattr(os, "rmdir", rmdir)
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            (child,) = pool._idle
            children.append(child)
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert result.value == 1
            await _until_released(child)
            assert not Path(child.cwd).exists()  # noqa: ASYNC240 - a test assertion
    assert removals == [(child.cwd, False)]  # once, before the host knew it had exited


@pytest.mark.slow
async def test_a_childs_directory_goes_even_when_the_child_wrote_in_it() -> None:
    # With every layer off (an ablation mode) a program can write files in
    # its working directory; the pool removes the directory all the same.
    limits = Limits(os_layer=False, language_layer=False, tripwire=False)
    async with WorkerPool(size=1, limits=limits) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            (child,) = pool._idle
            result = await pool.run(
                "with open('left-behind', 'w') as f:\n    f.write('x')\n"
                "import os\nreturn os.listdir('.')",
                tool_names=[],
                handler=EchoHandler(),
            )
            assert result.value == ["left-behind"], result.error
            await _until_released(child)
            # A directory that is not empty is removed in a worker thread.
            while not child.cwd_removed:
                await anyio.lowlevel.checkpoint()
            # Checked before the pool closes, which removes its whole directory.
            assert not Path(child.cwd).exists()  # noqa: ASYNC240 - a test assertion


async def test_each_child_gets_a_directory_of_its_own() -> None:
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            first, second = pool._idle
            assert first.cwd != second.cwd
            assert Path(first.cwd).parent == Path(second.cwd).parent
            assert Path(first.cwd).stat().st_mode & 0o777 == 0o700  # noqa: ASYNC240


@pytest.mark.slow
async def test_a_child_forked_for_its_run_gets_a_reaper_of_its_own(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    finished = _spy_on_finish(monkeypatch)
    async with WorkerPool(size=0) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert result.value == 1
            while not finished:  # the reaper task starts soon
                await anyio.lowlevel.checkpoint()
            (child,) = finished
            await _until_released(child)
            stats = pool.statistics()
    assert child.pid == result.pid
    assert (stats.exiting, stats.killed) == (0, 0)


#: The number of ``read`` in ``/proc/<pid>/syscall``, per machine.
_READ_SYSCALL = {"x86_64": 0, "aarch64": 63}.get(platform.machine())


def _blocked_in_read(pid: int) -> bool:
    """Whether ``pid`` sits in a ``read`` system call (``/proc/<pid>/syscall``)."""
    try:
        with open(f"/proc/{pid}/syscall") as file:
            return file.read().split()[0] == str(_READ_SYSCALL)
    except (OSError, IndexError):
        return False


@pytest.mark.slow
@pytest.mark.skipif(
    _READ_SYSCALL is None or not os.path.exists("/proc/self/syscall"),
    reason="needs /proc/<pid>/syscall on x86_64 or aarch64",
)
@pytest.mark.skipif(
    os.geteuid() != 0, reason="a child is not dumpable: only root reads its /proc entries"
)
async def test_a_finished_child_waits_for_its_release_before_it_exits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The child's exit (an address space torn down) must not come while the
    # host reads Done: it waits until the pool closes its input pipe, which
    # the pool does a little after the run returned.
    release = children_module._close_to_child  # the run reads it from pool_module
    scheduled: list[Child] = []
    asked = anyio.Event()

    def hold(child: Child) -> None:
        scheduled.append(child)
        asked.set()

    monkeypatch.setattr(pool_module, "_close_to_child", hold)
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            (child,) = pool._idle
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert result.value == 1
            await asked.wait()  # the run scheduled the release
            assert scheduled == [child]
            # Done is sent and the run is over, yet the child is still there,
            # reading its input pipe until it closes.
            while not _blocked_in_read(child.pid):
                assert not child.exited.is_set(), "the child exited before its release"
                await anyio.sleep(0.001)
            assert not child.exited.is_set()
            release(child)
            await child.exited.wait()
            await _until_released(child)
            stats = pool.statistics()
    assert child.status == 0  # it exited by itself, not killed at the grace's end
    assert (stats.exiting, stats.killed) == (0, 0)


class _Disposals:
    """Stands in for ``WorkerPool._dispose``: records the child and releases it."""

    def __init__(self) -> None:
        self.children: list[Child] = []

    async def __call__(self, child: Child, zygote: Zygote | None) -> None:
        self.children.append(child)
        child.state = "done"


def _pool_with_a_warm_child() -> tuple[WorkerPool, _Disposals, Child]:
    """A pool (never opened) whose disposals are recorded, and a warm child of it."""
    pool = WorkerPool(size=0)
    disposals = _Disposals()
    pool._dispose = disposals  # type: ignore[method-assign]
    child = Child(pool._settings_for(pool._limits), "/nonexistent", -1, -1)
    child.state = "idle"
    return pool, disposals, child


async def _watched(pool: WorkerPool, child: Child, tg: anyio.abc.TaskGroup) -> anyio.CancelScope:
    """Start the pool's watcher of ``child`` in ``tg``; its scope once it waits."""
    tg.start_soon(pool._watch, child)
    while child.watch is None:
        await anyio.lowlevel.checkpoint()
    return child.watch


def _finishing(pool: WorkerPool, child: Child) -> None:
    # What a run that ended well does to its child (see WorkerPool._drive).
    child.state = "finishing"
    pool._exiting += 1


async def test_a_finishing_child_that_has_not_exited_by_its_deadline_is_disposed_of() -> None:
    pool, disposals, child = _pool_with_a_warm_child()
    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            watch = await _watched(pool, child, tg)
            _finishing(pool, child)
            watch.deadline = anyio.current_time()  # the grace period is over
    assert disposals.children == [child]
    assert not child.exited.is_set()  # it never exited: disposing of it kills it
    assert (pool._exiting, child.watch) == (0, None)


async def test_a_finishing_child_is_disposed_of_when_the_pool_closes_first() -> None:
    pool, disposals, child = _pool_with_a_warm_child()
    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            await _watched(pool, child, tg)
            _finishing(pool, child)
            tg.cancel_scope.cancel()  # the pool's task group, as its close does
    assert disposals.children == [child]
    assert pool._exiting == 0


async def test_an_idle_child_is_not_disposed_of_by_a_closing_pool() -> None:
    # The supervisor releases the warm children of a closing pool itself.
    pool, disposals, child = _pool_with_a_warm_child()
    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as tg:
            await _watched(pool, child, tg)
            tg.cancel_scope.cancel()
    assert disposals.children == []
    assert child.state == "idle"
