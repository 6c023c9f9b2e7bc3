"""A sub-call's arguments, a tool's value and a program's result: no linear work on the loop.

A program chooses how large its tool arguments and its result are, up to the
frame cap. Checking, copying, validating and encoding such a value is linear
and in Python, so it must run off the event loop once the value is large. The
first tests count the per-item steps taken on the event loop's thread (they stay
under a fixed bound whatever the size); the last orders events: another run
completes while a sub-call's arguments are still being snapshotted.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import pytest

import bridge.lossless
import codemode._schema
import codemode.code_mode._dispatch
from codemode import ToolSuccess, tool
from codemode._offload import INLINE_NODES

from .test_code_mode_support import code_mode, module_pool, registry_with, run_code, turn_log

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Callable

    from sandbox import WorkerPool

#: Only reached when a test fails (the loop was blocked): a failure, not a hang.
GUARD_SECONDS = 30.0


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


@tool
def echo_items(items: list[int]) -> list[int]:
    """Return the items unchanged."""
    return items


class LoopSteps:
    """Counts the per-item steps of the lossless check and the schema walk, by thread."""

    def __init__(self) -> None:
        self.loop_thread = threading.get_ident()
        self.on_loop = 0
        self.elsewhere = 0

    def counting(self, real: Callable[..., Any]) -> Callable[..., Any]:
        def step(*args: Any) -> Any:
            if threading.get_ident() == self.loop_thread:
                self.on_loop += 1
            else:
                self.elsewhere += 1
            return real(*args)

        return step


@pytest.fixture
def steps(monkeypatch: pytest.MonkeyPatch) -> LoopSteps:
    counter = LoopSteps()
    # Every scalar a lossless check (materialize, encode_value) reads, and every
    # node the schema validator visits, goes through one of these three (the
    # plain-value shortcut of materialize checks its scalars with _plain_scalar).
    monkeypatch.setattr(
        bridge.lossless, "_check_scalar", counter.counting(bridge.lossless._check_scalar)
    )
    monkeypatch.setattr(
        bridge.lossless, "_plain_scalar", counter.counting(bridge.lossless._plain_scalar)
    )
    monkeypatch.setattr(
        codemode._schema, "_matches_type", counter.counting(codemode._schema._matches_type)
    )
    return counter


#: Per-item steps the loop may take for one run, whatever the size: small values
#: (the program's source, the code arguments, a few metadata fields) are checked inline.
LOOP_BUDGET = 4 * INLINE_NODES


@pytest.mark.parametrize("items", [20_000, 60_000])
async def test_a_large_sub_call_is_checked_and_echoed_off_the_loop(
    pool: WorkerPool, steps: LoopSteps, items: int
) -> None:
    registry = registry_with(echo_items)
    async with code_mode(registry, pool, log=turn_log()):
        result = await run_code(
            registry,
            f"got = await tools.echo_items(items=list(range({items})))\nreturn len(got)",
        )
    assert isinstance(result, ToolSuccess), result
    value: Any = result.value
    assert value["result"] == items
    # Snapshots, validation, the tool's value and the reply: each item several
    # times, all in worker threads.
    assert steps.elsewhere >= 4 * items
    assert steps.on_loop <= LOOP_BUDGET


@pytest.mark.parametrize("items", [20_000, 60_000])
async def test_a_large_final_value_is_checked_off_the_loop(
    pool: WorkerPool, steps: LoopSteps, items: int
) -> None:
    registry = registry_with()
    async with code_mode(registry, pool):
        result = await run_code(registry, f"return [7] * {items}")
    assert isinstance(result, ToolSuccess), result
    value: Any = result.value
    assert len(value["result"]) == items
    assert steps.elsewhere >= items
    assert steps.on_loop <= LOOP_BUDGET


class HeldSnapshot:
    """Holds every large argument snapshot in its thread until :meth:`release`."""

    def __init__(self, real: Callable[..., Any]) -> None:
        self._real = real
        self.started = threading.Event()
        self.released = threading.Event()
        self.events: list[str] = []

    def __call__(self, value: Any, **options: Any) -> Any:
        if bridge.lossless.exceeds_nodes(value, INLINE_NODES):
            self.started.set()
            self.released.wait(GUARD_SECONDS)
            copy = self._real(value, **options)
            self.events.append("large snapshot taken")
            return copy
        return self._real(value, **options)


async def test_another_run_completes_while_large_arguments_are_snapshotted(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    held = HeldSnapshot(bridge.lossless.materialize)
    monkeypatch.setattr(codemode.code_mode._dispatch, "materialize", held)
    registry = registry_with(echo_items)
    events = held.events
    async with code_mode(registry, pool), anyio.create_task_group() as tasks:

        async def large() -> None:
            result = await run_code(
                registry, "got = await tools.echo_items(items=list(range(50000)))\nreturn 1"
            )
            assert isinstance(result, ToolSuccess), result
            events.append("large run done")

        tasks.start_soon(large)
        assert await anyio.to_thread.run_sync(held.started.wait, GUARD_SECONDS)
        # The loop is free while the snapshot is held: a whole other run goes
        # through the pipeline, a child of its own and back.
        other = await run_code(registry, "return 6 * 7", call_id="call-2")
        assert isinstance(other, ToolSuccess), other
        value: Any = other.value
        assert value["result"] == 42
        events.append("other run done")
        held.released.set()
    assert events == ["other run done", "large snapshot taken", "large run done"]
