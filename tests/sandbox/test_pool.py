"""WorkerPool with real processes: runs, limits, failures, cancellation, refills."""

from __future__ import annotations

import os
import signal
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel
import pytest

from sandbox import Limits, RunResult, WorkerPool
from sandbox._host_compile import HOST_COMPILES
from sandbox.testing import EchoHandler, probing_pool, wait_for_idle, wait_reaped, zygote_pid
from tests.layers import assert_host_layers

if TYPE_CHECKING:
    from bridge.lossless import JsonValue
    from bridge.protocol import Ready, Run
    from sandbox._children import Child

pytestmark = pytest.mark.slow

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


def _alive(pid: int) -> bool:
    """Whether ``pid`` exists and is not a zombie waiting for its reaper."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def _group_members(pgid: int) -> list[int]:
    members = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            members.append(int(entry.name))
    return members


def _run_dirs(pool: WorkerPool) -> set[str]:
    return {p.name for p in Path(pool._directory).iterdir()}


def _open_fds() -> set[int]:
    return {int(fd) for fd in os.listdir("/proc/self/fd")}


class BlockingHandler:
    """A handler whose calls block until released; ``entered`` fires on the first call."""

    def __init__(self) -> None:
        self.entered = anyio.Event()
        self.release = anyio.Event()

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.entered.set()
        await self.release.wait()
        return "released"


async def test_a_trivial_program_returns_its_value() -> None:
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run("return 1 + 1", tool_names=[], handler=EchoHandler())
    assert result.error is None
    assert result.value == 2
    assert result.pid is not None
    assert_host_layers(result.layers)


async def test_prints_and_tool_calls_reach_the_host() -> None:
    handler = EchoHandler()
    source = "print('calling')\nvalue = await tools.echo(n=3)\nreturn value['n'] * 2"
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(source, tool_names=["echo"], handler=handler)
    assert (result.value, result.logs, result.error) == (6, ("calling",), None)
    assert handler.calls == [("echo", {"n": 3})]


@pytest.mark.skipif(
    not HOST_COMPILES,
    reason="this interpreter keeps every name it parses: the host compiles nothing",
)
async def test_a_compile_error_uses_no_child() -> None:
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            before = pool.statistics()
            result = await pool.run("return (", tool_names=[], handler=EchoHandler())
            after = pool.statistics()
    assert result.error is not None
    assert result.error.kind == "compile"
    assert "Line " in result.error.message
    assert result.pid is None
    assert (after.started, after.idle) == (before.started, before.idle)


async def test_each_run_gets_a_fresh_child() -> None:
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            first = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            second = await pool.run("return 2", tool_names=[], handler=EchoHandler())
    assert first.pid != second.pid


async def test_a_cpu_loop_ends_as_a_cpu_timeout() -> None:
    limits = Limits(cpu_seconds=1, wall_seconds=GUARD)
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "n = 0\nwhile True: n += 1", tool_names=[], handler=EchoHandler()
            )
    assert result.error is not None
    # Regression: a timeout did not say where the program was.
    assert (result.error.kind, result.error.message) == (
        "timeout",
        "CPU time limit of 1s reached (Limits.cpu_seconds); the program was at line 2: "
        "`while True: n += 1`",
    )


async def test_a_sleeping_program_ends_as_a_wall_clock_timeout() -> None:
    limits = Limits(wall_seconds=0.5)
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "import asyncio\nawait asyncio.sleep(60)", tool_names=[], handler=EchoHandler()
            )
            assert pool.statistics().busy == 0
    assert result.error is not None
    assert (result.error.kind, result.error.message) == (
        "timeout",
        "wall-clock limit of 0.5s reached (Limits.wall_seconds); the program was at line 2: "
        "`await asyncio.sleep(60)`",
    )
    assert result.pid is not None
    assert not _alive(result.pid)


async def test_time_spent_waiting_for_a_tool_counts_against_the_wall_clock() -> None:
    handler = BlockingHandler()
    async with WorkerPool(limits=Limits(wall_seconds=0.5), size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "return await tools.wait()", tool_names=["wait"], handler=handler
            )
    assert result.error is not None
    assert result.error.kind == "timeout"
    # What happened, not how long it took: the program was waiting in its tool
    # call (entered, never answered) when the wall clock ended the run.
    assert handler.entered.is_set()
    assert not handler.release.is_set()


async def test_a_memory_bomb_is_a_memory_error_in_the_program() -> None:
    limits = Limits(memory_bytes=256 * 1024 * 1024)
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "blocks = []\nwhile True:\n    blocks.append('x' * (64 * 1024 * 1024))",
                tool_names=[],
                handler=EchoHandler(),
            )
    assert result.error is not None
    assert result.error.kind == "exception"
    assert result.layers.rlimits, result.layers.reasons
    assert result.error.message.endswith(
        "\nMemoryError: the program ran out of memory (memory limit 256 MiB, Limits.memory_bytes)"
    )


async def test_an_output_flood_is_cut_at_the_log_budget() -> None:
    limits = Limits(max_log_bytes=1000)
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "for i in range(100000):\n    print('x' * 50)\nreturn 'done'",
                tool_names=[],
                handler=EchoHandler(),
            )
    assert result.logs[-1] == "[codemode] output truncated at 1000 bytes (Limits.max_log_bytes)"
    assert sum(len(line) + 1 for line in result.logs[:-1]) <= 1000


async def test_a_huge_return_value_is_an_output_limit_naming_the_cap() -> None:
    limits = Limits(max_value_bytes=1000)
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run("return 'x' * 5000", tool_names=[], handler=EchoHandler())
    assert result.error is not None
    assert result.error.kind == "output-limit"
    assert "1000" in result.error.message


async def test_a_child_that_exits_early_is_a_worker_exit_naming_its_status() -> None:
    limits = Limits(language_layer=False)
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run("import os\nos._exit(3)", tool_names=[], handler=EchoHandler())
    assert result.error is not None
    assert (result.error.kind, result.error.message) == (
        "worker-exit", "the child exited with status 3 before finishing"
    )


async def test_a_child_killed_by_a_signal_is_a_worker_exit_naming_the_signal() -> None:
    handler = BlockingHandler()
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            async with anyio.create_task_group() as tg:
                results = []

                async def run() -> None:
                    results.append(
                        await pool.run("await tools.wait()", tool_names=["wait"], handler=handler)
                    )

                tg.start_soon(run)
                await handler.entered.wait()
                (busy_pid,) = _group_children(pool)
                os.kill(busy_pid, signal.SIGKILL)
    (result,) = results
    assert result.error is not None
    assert (result.error.kind, result.error.message) == (
        "worker-exit", "the child exited with signal 9 before finishing"
    )


def _group_children(pool: WorkerPool) -> list[int]:
    zygote = pool._zygote
    assert zygote is not None
    return [pid for pid, child in zygote.children.items() if child.state == "busy"]


async def test_an_abort_kills_the_child_and_reports_the_reason() -> None:
    handler = BlockingHandler()

    async def abort() -> str:
        await handler.entered.wait()
        return "the user pressed stop"

    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "await tools.wait()", tool_names=["wait"], handler=handler, abort=abort
            )
    assert result.error is not None
    assert (result.error.kind, result.error.message) == ("abort", "the user pressed stop")
    assert result.pid is not None
    assert not _alive(result.pid)


async def test_cancelling_a_run_kills_its_child_and_leaves_nothing_behind() -> None:
    handler = BlockingHandler()
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            fds_before = _open_fds()
            dirs_before = _run_dirs(pool)
            with anyio.CancelScope() as scope:
                async with anyio.create_task_group() as tg:
                    run = partial(pool.run, tool_names=["wait"], handler=handler)
                    tg.start_soon(run, "await tools.wait()")
                    await handler.entered.wait()
                    (pid,) = _group_children(pool)
                    assert pool._zygote is not None
                    cwd = pool._zygote.children[pid].cwd
                    scope.cancel()
            assert not _alive(pid)
            assert not Path(cwd).exists()  # noqa: ASYNC240 - a test assertion
            assert _group_members(pid) == []
            stats = pool.statistics()
            assert (stats.busy, stats.killed) == (0, 1)
            await wait_for_idle(pool, 1)
            # The refilled child replaces the one the run took: as many
            # descriptors and directories as before, and the run's are gone.
            assert len(_open_fds()) == len(fds_before)
            assert len(_run_dirs(pool)) == len(dirs_before)
            after = await pool.run("return 1", tool_names=[], handler=EchoHandler())
    assert after.pid != pid
    assert after.value == 1


async def _warm_from_a_new_zygote(pool: WorkerPool, old_zygote: int | None) -> None:
    """Return once a warm child of a zygote other than ``old_zygote`` is in the pool.

    The replacement the run's refill forked from the old zygote is counted as
    warm until the pool learns of its death, which may come after the run
    returned: waiting for any warm child could return before the restart.
    """
    while True:
        zygote = pool._zygote
        if zygote is not None and zygote.ready.pid != old_zygote and any(
            child.pid in zygote.children for child in pool._idle
        ):
            return
        await pool._idle_changed.wait()


async def test_a_dying_zygote_ends_runs_in_flight_and_is_restarted() -> None:
    handler = BlockingHandler()
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            results = []

            async def run() -> None:
                results.append(
                    await pool.run("await tools.wait()", tool_names=["wait"], handler=handler)
                )

            async with anyio.create_task_group() as tg:
                tg.start_soon(run)
                await handler.entered.wait()
                first_zygote = zygote_pid(pool)
                assert first_zygote is not None
                os.kill(first_zygote, signal.SIGKILL)
            (result,) = results
            await _warm_from_a_new_zygote(pool, first_zygote)
            assert zygote_pid(pool) not in (None, first_zygote)
            again = await pool.run("return 'again'", tool_names=[], handler=EchoHandler())
            assert pool.statistics().zygote_starts == 2
    assert result.error is not None
    assert result.error.kind == "worker-exit"
    assert "zygote" in result.error.message
    assert result.pid is not None
    assert not _alive(result.pid)
    assert again.value == "again"


async def test_many_concurrent_runs_each_get_their_own_child() -> None:
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD * 2):
            results = {}

            async def run(n: int) -> None:
                results[n] = await pool.run(
                    f"r = await tools.echo(n={n})\nreturn r['n']",
                    tool_names=["echo"],
                    handler=EchoHandler(),
                )

            async with anyio.create_task_group() as tg:
                for n in range(24):
                    tg.start_soon(run, n)
    assert {n: r.value for n, r in results.items()} == {n: n for n in range(24)}
    assert len({r.pid for r in results.values()}) == 24


async def test_the_pool_refills_after_a_run() -> None:
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            await pool.run("return 1", tool_names=[], handler=EchoHandler())
            await wait_for_idle(pool, 2)
            stats = pool.statistics()
    assert (stats.idle, stats.busy, stats.started) == (2, 0, 3)


async def test_a_warm_child_killed_from_outside_is_replaced() -> None:
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            zygote = pool._zygote
            assert zygote is not None
            (pid,) = zygote.children
            os.kill(pid, signal.SIGKILL)
            while pool.statistics().crashed == 0 or pool.statistics().idle == 0:
                await pool._idle_changed.wait()
            assert pid not in zygote.children
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
    assert result.value == 1


async def test_closing_the_pool_leaves_no_process_directory_or_descriptor() -> None:
    fds_before = _open_fds()
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            zygote = zygote_pid(pool)
            children = list(pool._zygote.children) if pool._zygote else []
            await pool.run("return 1", tool_names=[], handler=EchoHandler())
    assert zygote is not None
    assert not _alive(zygote)
    assert children
    assert not any(_alive(pid) for pid in children)
    assert not Path(pool._directory).exists()  # noqa: ASYNC240 - a test assertion
    assert _open_fds() == fds_before


async def test_a_per_run_limit_override_gets_a_child_with_those_limits() -> None:
    # The filter refuses getrlimit itself; the probe reads the limits just before it.
    async with probing_pool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "return os_probe['rlimits']['RLIMIT_CPU'][0]",
                tool_names=[],
                handler=EchoHandler(),
                limits=Limits(cpu_seconds=7, language_layer=False),
            )
    assert result.value == 7


async def test_run_outside_the_context_manager_is_refused() -> None:
    pool = WorkerPool()
    with pytest.raises(RuntimeError, match="async with WorkerPool"):
        await pool.run("return 1", tool_names=[], handler=EchoHandler())


_PROJECT_ROOT = str(Path(__file__).resolve().parents[2])
_HOST_SCRIPT = """
import anyio, os, sys
from sandbox import WorkerPool
from sandbox.testing import wait_for_idle, zygote_pid

async def main():
    async with WorkerPool(size=1) as pool:
        await wait_for_idle(pool, 1)
        print(zygote_pid(pool), pool._idle[0].pid, flush=True)
        await anyio.sleep_forever()

anyio.run(main)
"""


async def _exited(pid: int) -> None:
    # A pidfd becomes readable when its process exits (even if nobody reaps it).
    try:
        pidfd = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    try:
        await anyio.wait_readable(pidfd)
    finally:
        os.close(pidfd)


async def test_the_zygote_and_its_children_die_with_the_host() -> None:
    with anyio.fail_after(GUARD):
        async with await anyio.open_process(
            [sys.executable, "-c", _HOST_SCRIPT], env={**os.environ, "PYTHONPATH": _PROJECT_ROOT},
            stderr=None,
        ) as host:
            assert host.stdout is not None
            line = b""
            async for chunk in host.stdout:
                line += chunk
                if line.endswith(b"\n"):
                    break
            zygote, child = map(int, line.split())
            host.kill()
            await host.wait()
        await _exited(zygote)
        await _exited(child)
    assert not _alive(zygote)
    assert not _alive(child)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"tool_names": "search"}, r"tool_names must be a sequence of str; got 'search'"),
        ({"handler": object()}, r"handler must have an async call_tool"),
        ({"abort": "stop"}, r"abort=\'stop\'"),
        ({"limits": 3}, r"limits=3"),
    ],
)
async def test_bad_run_arguments_are_refused_before_any_child_is_used(
    kwargs: dict[str, object], match: str
) -> None:
    arguments: dict[str, object] = {"tool_names": [], "handler": EchoHandler(), **kwargs}
    async with WorkerPool(size=0) as pool:
        with pytest.raises(TypeError, match=match):
            await pool.run("return 1", **arguments)  # type: ignore[arg-type]
        assert pool.statistics().started == 0


async def test_run_after_the_pool_closed_is_refused() -> None:
    async with WorkerPool(size=0) as pool:
        pass
    with pytest.raises(RuntimeError, match=r"^this WorkerPool is closed; open a new one"):
        await pool.run("return 1", tool_names=[], handler=EchoHandler())


async def test_a_pool_without_warm_children_forks_on_demand() -> None:
    async with WorkerPool(size=0) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run("return 'cold'", tool_names=[], handler=EchoHandler())
            stats = pool.statistics()
    assert result.value == "cold"
    assert (stats.idle, stats.started) == (0, 1)


def record_handshake(monkeypatch: pytest.MonkeyPatch) -> dict[int, list[str]]:
    """Record, per endpoint, when its ``Run`` is sent and when its READY is read."""
    from bridge.host import HostEndpoint

    events: dict[int, list[str]] = {}
    send_run, receive_ready = HostEndpoint.send_run, HostEndpoint.receive_ready

    def spy_send_run(self: HostEndpoint, run: Run) -> None:
        events.setdefault(id(self), []).append("run sent")
        send_run(self, run)

    async def spy_receive_ready(self: HostEndpoint) -> Ready:
        ready = await receive_ready(self)
        events.setdefault(id(self), []).append("ready read")
        return ready

    monkeypatch.setattr(HostEndpoint, "send_run", spy_send_run)
    monkeypatch.setattr(HostEndpoint, "receive_ready", spy_receive_ready)
    return events


async def test_a_run_that_forks_its_own_child_sends_its_program_before_the_child_is_ready(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The child then finds its program in the pipe as it says READY, instead of
    # waiting for the host to wake, read READY and answer.
    events = record_handshake(monkeypatch)
    async with WorkerPool(size=0) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "return await tools.echo(x=1)", tool_names=["echo"], handler=EchoHandler()
            )
    assert result.error is None, result.error
    assert result.value == {"x": 1}
    assert list(events.values()) == [["run sent", "ready read"]]


async def test_a_child_that_fails_its_set_up_never_runs_the_program_it_was_sent() -> None:
    # The program is in the pipe before the child's READY; a child whose set-up
    # fails exits before it reads anything, and the run says why.
    pid_max = int(await anyio.Path("/proc/sys/kernel/pid_max").read_text())
    handler = EchoHandler()
    async with probing_pool(size=0, pidfd_of=pid_max) as pool:  # no such pid: set-up fails
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "await tools.echo(x=1)\nreturn 1", tool_names=["echo"], handler=handler
            )
    assert result.error is not None
    assert result.error.kind == "worker-exit"
    assert result.error.message == (
        "a sandbox child failed to start: the child failed while setting itself up "
        "(exit status 70)"
    )
    assert handler.calls == []


async def test_a_warm_child_gets_its_program_when_a_run_takes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    events = record_handshake(monkeypatch)
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            result = await pool.run("return 2", tool_names=[], handler=EchoHandler())
    assert result.value == 2
    # The first child is warmed and waits in the pool; its run sends the
    # program once it takes it (the refill's next child is only ready).
    assert next(iter(events.values())) == ["ready read", "run sent"]


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"size": -1}, ValueError, r"size=-1"),
        ({"size": 1.5}, TypeError, r"size=1\.5"),
        ({"limits": {"cpu_seconds": 1}}, TypeError, r"limits=\{'cpu_seconds': 1\}"),
    ],
)
def test_bad_pool_arguments_are_refused_with_their_value(
    kwargs: dict[str, object], error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        WorkerPool(**kwargs)  # type: ignore[arg-type]


async def test_a_taken_child_is_replaced_after_the_run_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # So long that the replacement can only come from the run returning.
    monkeypatch.setattr("sandbox._pool_tasks._REFILL_DEFER_SECONDS", GUARD * 10)
    handler = BlockingHandler()
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            async with anyio.create_task_group() as tg:
                run = partial(pool.run, tool_names=["wait"], handler=handler)
                tg.start_soon(run, "await tools.wait()")
                await handler.entered.wait()
                during = pool.statistics()
                handler.release.set()
            await wait_for_idle(pool, 2)
            after = pool.statistics()
    # While the run held its child, the warm one left waited and nothing forked.
    assert (during.idle, during.busy, during.starting, during.started) == (1, 1, 0, 2)
    assert (after.idle, after.started) == (2, 3)


async def test_a_long_run_has_its_child_replaced_while_it_runs() -> None:
    handler = BlockingHandler()
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            async with anyio.create_task_group() as tg:
                run = partial(pool.run, tool_names=["wait"], handler=handler)
                tg.start_soon(run, "await tools.wait()")
                await handler.entered.wait()
                await wait_for_idle(pool, 2)
                during = pool.statistics()
                handler.release.set()
    assert (during.idle, during.busy, during.started) == (2, 1, 3)


async def test_a_run_that_returns_before_the_refill_task_looks_still_waits_for_the_caller(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A run whose child has answered by the first wait returns without
    # yielding to the loop: the refill task, woken when the child was taken,
    # first runs with nothing busy. The caller's next steps must still come first.

    async def drive(self: WorkerPool, child: Child, *args: object) -> RunResult:
        return RunResult(1, (), None, self.layers(), 0.0, 0.0, child.pid)  # no await

    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            await pool.run("return 1", tool_names=[], handler=EchoHandler())  # compiled, cached
            await wait_for_idle(pool, 2)
            monkeypatch.setattr(WorkerPool, "_drive", drive)
            # Long enough that nothing but the delay itself decides the order.
            monkeypatch.setattr("sandbox._pool_tasks._AFTER_RUN_SECONDS", GUARD * 10)
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert result.value == 1
            for _ in range(10):  # the caller's own steps after the run
                await anyio.lowlevel.checkpoint()
            stats = pool.statistics()
    assert (stats.idle, stats.busy, stats.starting) == (1, 0, 0)


async def test_the_pools_own_work_after_a_run_waits_for_the_callers_next_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Long enough that nothing but the delay itself decides the order.
    # Both the refill task and the run (for the release of its child) wait it.
    monkeypatch.setattr("sandbox._pool_tasks._AFTER_RUN_SECONDS", GUARD * 10)
    monkeypatch.setattr("sandbox._pool._AFTER_RUN_SECONDS", GUARD * 10)
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert result.pid is not None
            await wait_reaped(pool, result.pid)
            for _ in range(10):  # the caller's own steps after the run
                await anyio.lowlevel.checkpoint()
            stats = pool.statistics()
    # No replacement forked yet.
    assert (stats.idle, stats.starting, stats.started) == (1, 0, 2)
