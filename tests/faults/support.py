"""The fault matrix's harness: a fresh pool and Code Mode per cell, and the checks of every cell.

Every cell runs one ``run_code`` call through a real pool and a real
:class:`~codemode.code_mode.CodeMode`, injects its fault, and then asserts the
invariants the matrix promises (RELIABILITY.md):

* the outer result is the documented one (error code, failure kind);
* every started sub-call has exactly one settle event, and the events were all
  in the log when ``run_code`` returned (or the store's failure was reported);
* the pool serves the next run, in a child with a new pid;
* nothing is left behind: no child process besides the warm ones, no extra
  descriptor in the host, no working directory besides the warm children's.
"""

from __future__ import annotations

import collections
import os
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio

from codemode import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    EventStore,
    MemoryStore,
    Registry,
    SessionLog,
    ToolCallEvent,
    ToolFailure,
    ToolResult,
)
from codemode.code_mode import CodeMode, CodeRun
from codemode.code_mode import _dispatch as dispatch_module
from sandbox import Limits, WorkerPool
from sandbox.testing import idle_child_pids, wait_for_idle, zygote_pid
from tests.codemode.test_code_mode_support import run_code_call

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

#: A deadline guard: far above any run here, so only a deadlock reaches it.
DEADLOCK_SECONDS = 60.0
#: The wall-clock limit of the cells whose fault is a hang: the run has to end by it.
HANG_WALL_SECONDS = 3.0
#: The grace after settlement in the cells (the library's default is longer).
CELL_GRACE_SECONDS = 0.5


@dataclass
class Cell:
    """One cell's registry, pool, log and what it saw."""

    registry: Registry
    pool: WorkerPool
    log: SessionLog
    runs: list[CodeRun] = field(default_factory=list)
    #: The events in the log at the moment ``run_code`` returned.
    events_at_return: list[Event] = field(default_factory=list)
    fds_before: int = 0
    pids_seen: set[int] = field(default_factory=set)

    async def run(self, code: str, **options: Any) -> ToolResult:
        """Execute one ``run_code`` call (``call-1``, its turn open); keep the log's events."""
        with anyio.fail_after(DEADLOCK_SECONDS):
            result = await self.registry.execute(run_code_call(code, **options))
        # No await between the return and this read: what the log holds now
        # is what it held when run_code returned.
        self.events_at_return = self.log.events()
        return result

    def settle_of(self, sub_call_id: str) -> CodeDispatchEvent:
        """The one settle event of a sub-call."""
        (event,) = [
            e
            for e in self.events_at_return
            if isinstance(e, CodeDispatchEvent) and e.sub_call_id == sub_call_id
        ]
        return event

    def started(self) -> list[str]:
        """The ids of the sub-calls whose start was logged, in order."""
        return [
            e.sub_call_id for e in self.events_at_return if isinstance(e, CodeDispatchStartEvent)
        ]


def settle_counts(events: list[Event]) -> tuple[list[str], collections.Counter[str]]:
    """The started sub-call ids and how many settle events each id has."""
    starts = [e.sub_call_id for e in events if isinstance(e, CodeDispatchStartEvent)]
    settles = collections.Counter(
        e.sub_call_id for e in events if isinstance(e, CodeDispatchEvent)
    )
    return starts, settles


def assert_one_settle_each(events: list[Event], *, unlogged: frozenset[str] = frozenset()) -> None:
    """Every started sub-call has exactly one settle event, and no settle lacks its start.

    ``unlogged`` names the sub-calls whose settle the store failed to write
    (and ``run_code`` reported).
    """
    starts, settles = settle_counts(events)
    assert len(starts) == len(set(starts)), starts
    for sub_call_id in starts:
        expected = 0 if sub_call_id in unlogged else 1
        assert settles[sub_call_id] == expected, (sub_call_id, settles)
    assert set(settles) <= set(starts), (starts, settles)


def code_and_kind(result: ToolResult) -> tuple[str | None, str | None]:
    """The error code and failure kind of a result (``(None, None)`` for a success)."""
    if not isinstance(result, ToolFailure):
        return None, None
    info = result.error.info
    return (info.code, info.kind) if info is not None else (None, None)


def _zygote_children(pool: WorkerPool) -> set[int]:
    parent = zygote_pid(pool)
    found: set[int] = set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as file:
                data = file.read()
        except OSError:
            continue
        fields = data[data.rfind(b")") + 2 :].split()
        if int(fields[1]) == parent and fields[0] != b"Z":
            found.add(int(entry))
    return found


def _fd_count() -> int:
    return len(os.listdir("/proc/self/fd"))


async def _quiet(pool: WorkerPool, size: int) -> None:
    """Wait until the pool is back at rest: nothing busy, exiting or starting, ``size`` warm."""
    with anyio.fail_after(DEADLOCK_SECONDS):
        while True:
            await wait_for_idle(pool, size)
            stats = pool.statistics()
            if (stats.busy, stats.exiting, stats.starting, stats.idle) == (0, 0, 0, size):
                return
            # Waiting for the pool's own clean-up tasks (reaping, directory
            # removal) to finish; they have no event of their own to await.
            await anyio.sleep(0.01)


def assert_nothing_left(cell: Cell, size: int) -> None:
    """No process, descriptor or working directory beyond what a pool at rest holds."""
    pool = cell.pool
    assert _zygote_children(pool) == set(idle_child_pids(pool))
    assert _fd_count() == cell.fds_before
    entries = sorted(os.listdir(pool._directory))
    runs = [e for e in entries if e.startswith("run-")]
    assert len(runs) == size
    assert [e for e in entries if not e.startswith("run-")] == ["owner"]


async def assert_next_run_is_served(cell: Cell, *, size: int = 1) -> None:
    """The pool runs the next program in a new child, and is then back at rest, leaving nothing."""
    pids = {run.sandbox.pid for run in cell.runs if run.sandbox and run.sandbox.pid}
    with anyio.fail_after(DEADLOCK_SECONDS):
        next_call = run_code_call("return 41 + 1", call_id="next", agent=None)
        result = await cell.registry.execute(next_call)
    assert code_and_kind(result) == (None, None), result
    last = cell.runs[-1].sandbox
    assert last is not None
    assert last.pid is not None
    assert last.pid not in pids
    await _quiet(cell.pool, size)
    assert_nothing_left(cell, size)


@asynccontextmanager
async def open_cell(
    registry: Registry,
    *,
    wall_seconds: float = 20.0,
    size: int = 1,
    store: EventStore | None = None,
    pool_hook: Callable[[WorkerPool], None] | None = None,
) -> AsyncIterator[Cell]:
    """A fresh pool and Code Mode over ``registry``, with ``call-1``'s turn open in the log.

    The settle grace is shortened for the cell (restored on exit); the
    descriptor baseline is taken once the pool is warm and has run a program.
    """
    log = SessionLog(store if store is not None else MemoryStore())
    log.append(ToolCallEvent(turn=1, step=0, call_id="call-1", name="run_code", arguments="{}"))
    saved_grace = dispatch_module.SETTLE_GRACE_SECONDS
    dispatch_module.SETTLE_GRACE_SECONDS = CELL_GRACE_SECONDS
    try:
        async with WorkerPool(limits=Limits(wall_seconds=wall_seconds), size=size) as pool:
            if pool_hook is not None:
                pool_hook(pool)
            cell = Cell(registry, pool, log)
            async with CodeMode(registry, pool=pool, log=log, on_run=cell.runs.append):
                with anyio.fail_after(DEADLOCK_SECONDS):
                    warm = await registry.execute(
                        run_code_call("return 0", call_id="warm-up", agent=None)
                    )
                assert code_and_kind(warm) == (None, None), warm
                await _quiet(pool, size)
                cell.fds_before = _fd_count()
                yield cell
    finally:
        dispatch_module.SETTLE_GRACE_SECONDS = saved_grace
        log.close()
