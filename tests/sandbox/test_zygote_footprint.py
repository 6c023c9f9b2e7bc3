"""What the zygote leaves its children, and what a child does before READY.

Every page a child writes before READY is a page copied from the zygote: memory
the idle child holds and a page fault its fork pays. These tests pin the
mechanisms that keep that work out of the child (BENCHMARKS.md, "The child's
pages before READY"), not any figure.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler, probing_pool, wait_for_idle, zygote_pid

pytestmark = pytest.mark.slow

GUARD = 30
PLAIN = Limits(language_layer=False, tripwire=False)
ROOT = str(Path(__file__).resolve().parents[2])


async def _values(source: str, runs: int, *, limits: Limits = PLAIN) -> list[Any]:
    values = []
    async with WorkerPool(limits=limits, size=1) as pool:
        for _ in range(runs):
            with anyio.fail_after(GUARD):
                result = await pool.run(source, tool_names=[], handler=EchoHandler())
            assert result.error is None, result.error
            values.append(result.value)
    return values


async def test_no_child_runs_the_thread_repairing_fork_handlers() -> None:
    # The interpreter holds a reference to every registered at-fork handler;
    # these hold none but their module's (and getrefcount's own argument).
    source = (
        "import sys, threading, logging\n"
        "import concurrent.futures.thread as pool_threads\n"
        "unregistered = sys.getrefcount(threading._newname)\n"
        "return [sys.getrefcount(threading._after_fork) - unregistered,\n"
        "        sys.getrefcount(logging._after_at_fork_child_reinit_locks) - unregistered,\n"
        "        sys.getrefcount(pool_threads._global_shutdown_lock) - unregistered]"
    )
    assert await _values(source, 1) == [[0, 0, 0]]


async def test_each_child_reseeds_random_after_its_fork() -> None:
    # random's own at-fork handler stays: no two programs see the same numbers.
    first, second = await _values(
        "import random\nreturn [random.random(), str(random.getrandbits(64))]", 2, limits=Limits()
    )
    assert first != second


def test_the_zygote_refuses_to_fork_from_a_process_with_a_second_thread() -> None:
    code = (
        "import sys, threading\n"
        f"sys.path.insert(0, {ROOT!r})\n"
        "from sandbox._zygote import _check_one_thread\n"
        "_check_one_thread()\n"
        "stop = threading.Event()\n"
        "thread = threading.Thread(target=stop.wait)\n"
        "thread.start()\n"
        "try:\n"
        "    _check_one_thread()\n"
        "except RuntimeError as exc:\n"
        "    print(exc)\n"
        "stop.set()\n"
        "thread.join()\n"
    )
    out = subprocess.run(
        [sys.executable, "-I", "-c", code], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert "must fork from its only thread" in out


async def test_the_zygote_leaves_its_children_only_standard_error() -> None:
    # Its standard input and output are /dev/null and unused: dropped in the
    # zygote, they are not freed again in every child.
    async with probing_pool(limits=PLAIN) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "return os_probe['streams']", tool_names=[], handler=EchoHandler()
            )
    assert result.value == ["stderr"]


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


_GLOBALS_LEFT = (
    "import sys\n"
    "ahead = sys.modules['sandbox._child']._globals_ahead\n"
    "return [len(ahead[False]), len(ahead[True])]"
)


async def test_a_childs_runs_take_the_globals_the_zygote_made_for_them() -> None:
    # A warm child with the language layer off took the two made for it (its
    # warm-up's and its program's); the restricted ones are still there.
    async with WorkerPool(limits=PLAIN, size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            result = await pool.run(_GLOBALS_LEFT, tool_names=[], handler=EchoHandler())
    assert result.value == [0, 2], result.error


async def test_a_child_forked_for_its_run_skips_the_warm_up() -> None:
    # No warm child (size=0): the run forks its own, which runs no warm-up
    # (the run would wait for it) and so took only its program's globals.
    async with WorkerPool(limits=PLAIN, size=0) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(_GLOBALS_LEFT, tool_names=[], handler=EchoHandler())
    assert result.value == [1, 2], result.error


async def test_the_zygote_takes_the_tripwires_exempt_steps_for_its_children() -> None:
    # The very code objects a child would take itself, taken before the fork.
    source = (
        "import sys\n"
        "taken = sys.modules['sandbox._child']._trusted_steps\n"
        "now = sys.modules['sandbox._tripwire'].trusted_steps()\n"
        "return [len(taken), len(now),\n"
        "        all(a == b and c is d for (a, c), (b, d) in zip(taken, now))]"
    )
    (value,) = await _values(source, 1)
    assert value[0] == value[1] > 0
    assert value[2] is True


def test_a_child_runs_its_warm_up_program_once(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox import _child
    from sandbox._compile import compile_program

    # Each run of the warm-up program has a stand-in host of its own.
    stand_ins: list[int] = []
    stand_in = _child._HostStandIn

    def counting(fd: int) -> _child._HostStandIn:
        stand_ins.append(fd)
        return stand_in(fd)

    monkeypatch.setitem(
        _child._warm_up_code, True, compile_program(_child._WARM_UP_SOURCE, restricted=True)
    )
    monkeypatch.setattr(_child, "_HostStandIn", counting)
    _child._warm_up(True)
    assert len(stand_ins) == 1
