"""The systems ``python -m benchmarks`` compares, behind one small interface.

* ``codemode_full``: ``run_code`` through ``Registry.execute`` (the policy pipeline,
  the scheduler, typed tools, a durable JSON Lines session log), on its own warm pool.
* ``codemode_pool``: ``WorkerPool.run`` alone, with a handler that answers the
  same tools directly (the sandbox without the registry).
* ``monty``: pydantic-monty's ``AsyncMonty`` pool, one checkout per run (its workers
  are reused between checkouts; W7 uses a pool that recycles a worker after
  every checkout, a fresh process per run like codemode's).
* ``smolagents``: ``LocalPythonExecutor``, in the benchmark's own process (no
  process isolation).

A peer that is not installed is reported by :func:`contenders` and left out.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import statistics
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import anyio

from benchmarks._workloads import IN_FLIGHT, PAUSE_SECONDS, THROUGHPUT, Workload
from codemode import AbortSignal, Agent, CallInput, Registry, tool
from codemode._log import JsonlStore, SessionLog, ToolCallEvent, result_event
from codemode.code_mode import CodeMode
from sandbox import WorkerPool
from sandbox.testing import wait_for_idle

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

__all__ = ["Contender", "contenders", "uss_kib"]

#: Column order of the table.
ORDER: Final = ("codemode_full", "codemode_pool", "monty", "smolagents")
#: What a peer needs installed: the import that must work, and the install hint.
PEERS: Final = {
    "monty": ("pydantic_monty", "pip install pydantic-monty"),
    "smolagents": ("smolagents", "pip install smolagents"),
}


class BenchmarkError(RuntimeError):
    """A system returned something other than the workload's expected value."""


def uss_kib(pid: int) -> int:
    """Unique set size of ``pid`` (private clean + private dirty), in KiB."""
    total = 0
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
        name, _, rest = line.partition(":")
        if name in ("Private_Clean", "Private_Dirty"):
            total += int(rest.split()[0])
    return total


def _check(name: str, workload: Workload, value: object) -> None:
    if value != workload.expected:
        raise BenchmarkError(
            f"{name} returned {value!r} for {workload.key}; expected {workload.expected!r}"
        )


@tool(concurrency_safe=True)
async def noop(x: int) -> int:
    """Return ``x`` unchanged."""
    return x


@tool(concurrency_safe=True)
async def pause() -> int:
    """Sleep for the parallel workload's pause, then return 1."""
    await anyio.sleep(PAUSE_SECONDS)
    return 1


class Contender:
    """One system under test; subclasses fill in the hooks."""

    name = ""
    #: Measured in a process of its own (cold start, W7 and memory apply).
    isolated = True
    #: The size of the CPU-bound loops this system runs (its ratios compare with
    #: the plain body of the same size).
    cpu_scale = 1.0

    def __init__(self) -> None:
        self.stack = AsyncExitStack()

    async def open(self) -> None:
        await self.stack.__aenter__()

    async def close(self) -> None:
        await self.stack.aclose()

    async def run(self, workload: Workload) -> float:
        """Seconds one run of ``workload`` took; its result is checked."""
        raise NotImplementedError

    async def settle(self) -> None:
        """Wait until a run would find the system at rest (warm workers in place)."""

    async def throughput(self, runs: int) -> float | None:
        """Trivial runs per second, ``IN_FLIGHT`` at a time, each in a fresh process."""
        return None

    async def cold_start(self) -> float | None:
        """Seconds from creating the system to its first result."""
        return None

    async def idle_uss_kib(self) -> float | None:
        """Median USS of an idle warm worker, in KiB."""
        return None


async def _in_flight(runs: int, one: Any) -> float:
    limiter = anyio.Semaphore(IN_FLIGHT)

    async def limited(index: int) -> None:
        async with limiter:
            await one(index)

    start = time.perf_counter()
    async with anyio.create_task_group() as group:
        for index in range(runs):
            group.start_soon(limited, index)
    return runs / (time.perf_counter() - start)


async def _settle_pool(pool: WorkerPool) -> None:
    """Every warm child in place and the last run's child reaped."""
    await wait_for_idle(pool, pool._size)
    # The pool has no event for "a child was reaped"; polling is fine here.
    while (stats := pool.statistics()).exiting or stats.starting:  # noqa: ASYNC110
        await anyio.sleep(0.0005)


class _OwnPool(Contender):
    """A codemode system on a local WorkerPool: what both codemode columns measure alike."""

    pool: WorkerPool

    async def _value(self, code: str) -> JsonValue:
        """The value one run of ``code`` returned."""
        raise NotImplementedError

    async def run(self, workload: Workload) -> float:
        start = time.perf_counter()
        value = await self._value(workload.codemode)
        elapsed = time.perf_counter() - start
        _check(self.name, workload, value)
        return elapsed

    async def settle(self) -> None:
        await _settle_pool(self.pool)

    async def throughput(self, runs: int) -> float:
        async def one(index: int) -> None:
            await self.run(THROUGHPUT)

        return await _in_flight(runs, one)

    async def idle_uss_kib(self) -> float | None:
        await self.settle()
        try:
            return statistics.median([uss_kib(child.pid) for child in self.pool._idle])
        except PermissionError:
            # The children are not dumpable (a crash must hand nothing to a core
            # handler), so only root may read their memory maps: the row is
            # left out, as for a peer that is not installed.
            return None


class CodemodeFull(_OwnPool):
    name = "codemode_full"

    def __init__(self) -> None:
        super().__init__()
        self.directory = tempfile.mkdtemp(prefix="codemode-bench-")
        self.turn = 0
        self.agent = Agent("bench")

    @staticmethod
    def _registry() -> Registry:
        registry = Registry(mode="code")
        registry.register(noop)
        registry.register(pause)
        return registry

    async def open(self) -> None:
        await super().open()
        self.log = SessionLog(JsonlStore(Path(self.directory, "session.jsonl")))
        self.registry = self._registry()
        self.code_mode = await self.stack.enter_async_context(
            CodeMode(self.registry, log=self.log, pool_size=IN_FLIGHT)
        )
        # CodeMode started a local WorkerPool (it takes any Pool; this one is ours).
        assert isinstance(self.code_mode._pool, WorkerPool)
        self.pool = self.code_mode._pool

    async def close(self) -> None:
        await super().close()
        shutil.rmtree(self.directory, ignore_errors=True)

    async def execute(self, registry: Registry, log: SessionLog, code: str) -> JsonValue:
        # As a turn runner does: the root call's tool/call, the call, its tool/result.
        self.turn += 1
        call_id = f"call-{self.turn}"
        log.append(ToolCallEvent(
            turn=self.turn, step=0, call_id=call_id, name="run_code", arguments="{}"
        ))
        result = await registry.execute(CallInput(
            call_id, "run_code", {"code": code, "description": "benchmark"}, AbortSignal(),
            agent=self.agent,
        ))
        log.append(result_event(
            result, turn=self.turn, step=0, call_id=call_id, name="run_code"
        ))
        if result.is_error:
            raise BenchmarkError(f"{self.name}: run_code failed: {result.content}")
        assert isinstance(result.value, dict)
        return result.value["result"]

    async def _value(self, code: str) -> JsonValue:
        return await self.execute(self.registry, self.log, code)

    async def cold_start(self) -> float:
        registry = self._registry()
        log = SessionLog(JsonlStore(Path(self.directory, f"cold-{self.turn}.jsonl")))
        start = time.perf_counter()
        async with CodeMode(registry, log=log, pool_size=IN_FLIGHT):
            value = await self.execute(registry, log, THROUGHPUT.codemode)
            elapsed = time.perf_counter() - start
        _check(self.name, THROUGHPUT, value)
        return elapsed


class _Handler:
    """The tools of the workloads, answered directly (no registry)."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        if name == "pause":
            await anyio.sleep(PAUSE_SECONDS)
            return 1
        return args["x"] if isinstance(args, dict) else None


class CodemodePool(_OwnPool):
    name = "codemode_pool"
    tools: Final = ("noop", "pause")

    async def open(self) -> None:
        await super().open()
        self.pool = await self.stack.enter_async_context(WorkerPool(size=IN_FLIGHT))
        self.handler = _Handler()

    async def _run(self, pool: WorkerPool, code: str) -> JsonValue:
        result = await pool.run(code, tool_names=self.tools, handler=self.handler)
        if result.error is not None:
            raise BenchmarkError(f"{self.name}: {result.error.kind}: {result.error.message}")
        return result.value

    async def _value(self, code: str) -> JsonValue:
        return await self._run(self.pool, code)

    async def cold_start(self) -> float:
        start = time.perf_counter()
        async with WorkerPool(size=IN_FLIGHT) as pool:
            value = await self._run(pool, THROUGHPUT.codemode)
            elapsed = time.perf_counter() - start
        _check(self.name, THROUGHPUT, value)
        return elapsed


async def _monty_noop(x: int) -> int:
    return x


async def _monty_pause() -> int:
    await anyio.sleep(PAUSE_SECONDS)
    return 1


_MONTY_TOOLS: Final = {"noop": _monty_noop, "pause": _monty_pause}


class Monty(Contender):
    name = "monty"

    async def open(self) -> None:
        await super().open()
        import pydantic_monty

        self.module = pydantic_monty
        self.pool = await self.stack.enter_async_context(
            pydantic_monty.AsyncMonty(min_processes=IN_FLIGHT, max_processes=IN_FLIGHT)
        )
        # W7: a fresh process per checkout, as codemode runs every program.
        self.fresh = await self.stack.enter_async_context(
            pydantic_monty.AsyncMonty(
                min_processes=IN_FLIGHT, max_processes=IN_FLIGHT, max_checkouts_per_worker=1
            )
        )

    @staticmethod
    async def _run(pool: Any, code: str) -> object:
        async with pool.checkout() as session:
            return await session.feed_run(code, external_lookup=_MONTY_TOOLS)

    async def run(self, workload: Workload) -> float:
        start = time.perf_counter()
        value = await self._run(self.pool, workload.source_for_monty())
        elapsed = time.perf_counter() - start
        _check(self.name, workload, value)
        return elapsed

    async def throughput(self, runs: int) -> float:
        async def one(index: int) -> None:
            _check(self.name, THROUGHPUT, await self._run(self.fresh, THROUGHPUT.module))

        return await _in_flight(runs, one)

    async def cold_start(self) -> float:
        start = time.perf_counter()
        async with self.module.AsyncMonty(
            min_processes=IN_FLIGHT, max_processes=IN_FLIGHT
        ) as pool:
            value = await self._run(pool, THROUGHPUT.module)
            elapsed = time.perf_counter() - start
        _check(self.name, THROUGHPUT, value)
        return elapsed

    async def idle_uss_kib(self) -> float | None:
        # A new pool's workers, once they are up and before any checkout: the
        # measured pools' workers have run programs (and may have grown).
        before = _monty_workers()
        async with self.module.AsyncMonty(min_processes=IN_FLIGHT, max_processes=IN_FLIGHT):
            with anyio.move_on_after(10):
                while len(new := _monty_workers() - before) < IN_FLIGHT:  # noqa: ASYNC110
                    await anyio.sleep(0.01)
                await anyio.sleep(0.2)  # let them finish starting
                return statistics.median([uss_kib(pid) for pid in new])
        return None


def _monty_workers() -> set[int]:
    """The pids of this process's children that run the monty binary."""
    me = str(os.getpid())
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = (entry / "stat").read_text().rpartition(")")[2].split()[1]
            if parent == me and "monty" in (entry / "comm").read_text():
                found.add(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


def _smol_noop(x: int) -> int:
    return x


def _smol_pause() -> int:
    time.sleep(PAUSE_SECONDS)
    return 1


class Smolagents(Contender):
    name = "smolagents"
    isolated = False
    # Its interpreter walks the syntax tree in Python: 70-350 times slower than
    # CPython on these loops, so it runs them at a tenth of the size.
    cpu_scale = 0.1

    def _executor(self) -> Any:
        from smolagents.local_python_executor import LocalPythonExecutor

        # No time limit: its default (30 s) is a thread per run, and a loaded
        # machine can push a CPU-bound run past it.
        executor = LocalPythonExecutor(additional_authorized_imports=[], timeout_seconds=None)
        executor.send_tools({"noop": _smol_noop, "pause": _smol_pause})
        return executor

    async def open(self) -> None:
        await super().open()
        self.executor = self._executor()

    async def run(self, workload: Workload) -> float:
        start = time.perf_counter()
        # It runs on the calling thread: the event loop waits, as it would in an agent.
        value = self.executor(workload.source_for_smolagents()).output
        elapsed = time.perf_counter() - start
        _check(self.name, workload, value)
        return elapsed

    async def cold_start(self) -> float:
        start = time.perf_counter()
        value = self._executor()(THROUGHPUT.module).output
        elapsed = time.perf_counter() - start
        _check(self.name, THROUGHPUT, value)
        return elapsed


_CLASSES: Final[dict[str, type[Contender]]] = {
    "codemode_full": CodemodeFull,
    "codemode_pool": CodemodePool,
    "monty": Monty,
    "smolagents": Smolagents,
}


def contenders(names: tuple[str, ...] = ORDER) -> tuple[list[Contender], dict[str, str]]:
    """The systems to measure, and for each missing peer what to install."""
    chosen: list[Contender] = []
    missing: dict[str, str] = {}
    for name in names:
        peer = PEERS.get(name)
        if peer is not None and importlib.util.find_spec(peer[0]) is None:
            missing[name] = f"not installed ({peer[1]}, or pip install '.[bench]')"
            continue
        chosen.append(_CLASSES[name]())
    return chosen, missing
