"""A sub-call's arguments, a tool's value and a program's result: no linear work on the loop.

A program chooses how large its tool arguments and its result are, up to the
frame cap. Checking, copying, validating, classifying, encoding and rendering
such a value is linear, so it must run off the event loop once the value is
large. The first tests count the per-item steps taken on the event loop's thread
(they stay under a fixed bound whatever the size) or record on which thread a
large value was laid out as text; the last orders events: another run completes
while a sub-call's arguments are still being snapshotted.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, Literal

import anyio
import anyio.to_thread
import pytest

import bridge.lossless
import codemode._schema
import codemode._tools
import codemode._validate
import codemode.code_mode._dispatch
import codemode.code_mode._render
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
        codemode._validate, "matches_type", counter.counting(codemode._schema.matches_type)
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


@tool(concurrency_safe=True)
def count_ids(ids: list[int]) -> int:
    """Count the ids; calls may overlap."""
    return len(ids)


@pytest.mark.parametrize(
    ("argument", "valid"), [("list(range(40000))", True), ('["a"] * 40000', False)]
)
async def test_a_concurrency_safe_tool_is_not_classified_by_walking_large_arguments(
    pool: WorkerPool, steps: LoopSteps, argument: str, valid: bool
) -> None:
    # The scheduler classifies each sub-call on the loop, before it starts:
    # a typed tool's classifier validates, which is a walk over the arguments.
    registry = registry_with(count_ids)
    program = (
        "try:\n"
        f"    return await tools.count_ids(ids={argument})\n"
        "except ToolCallError as error:\n"
        "    return error.code\n"
    )
    async with code_mode(registry, pool):
        result = await run_code(registry, program)
    assert isinstance(result, ToolSuccess), result
    value: Any = result.value
    assert value["result"] == (40000 if valid else "INVALID_ARGS")
    # The body still validates every item, in a worker thread.
    assert steps.elsewhere >= 40000
    assert steps.on_loop <= LOOP_BUDGET


Choice = Literal["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"]


@tool
def pick(xs: list[Choice | None]) -> int:
    """Count the picks."""
    return len(xs)


@tool
def bad_count(n: int) -> list[int]:
    """Return n strings where its output schema says ints (a tool echoing bad data)."""
    return ["a"] * n  # type: ignore[list-item]


#: Items of one refused value: it fits inline (at most INLINE_NODES values), and
#: its violations were walked on the loop, about 20 us an item (16 ms a call).
REFUSED_ITEMS = 2000
REFUSED_CALLS = 10


@pytest.mark.parametrize(
    "call",
    [
        f"tools.pick(xs=[5] * {REFUSED_ITEMS})",
        f'tools.count_ids(ids=["a"] * {REFUSED_ITEMS})',
        f"tools.bad_count(n={REFUSED_ITEMS})",
    ],
    ids=["arguments", "classified-arguments", "tool-value"],
)
async def test_a_refused_value_is_described_off_the_loop_unless_small(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch, call: str
) -> None:
    # Telling that a value is refused is as cheap per value as a copy; walking it
    # again to describe why costs many times more, so a refused value of more
    # than INLINE_WALK_NODES values is described in a worker thread, however
    # often a program sends one and catches the refusal.
    assert REFUSED_ITEMS <= INLINE_NODES
    assert REFUSED_ITEMS > codemode._validate.INLINE_WALK_NODES
    # Every violation the walk finds is counted by _Found.describes_next (the
    # quick check finds none: it only says no), by the thread it is found on.
    walked = LoopSteps()
    monkeypatch.setattr(
        codemode._validate._Found,
        "describes_next",
        walked.counting(codemode._validate._Found.describes_next),
    )
    registry = registry_with(pick, count_ids, bad_count)
    program = (
        "codes = []\n"
        f"for _ in range({REFUSED_CALLS}):\n"
        "    try:\n"
        f"        await {call}\n"
        "    except ToolCallError as error:\n"
        "        codes.append(error.code)\n"
        "return codes\n"
    )
    async with code_mode(registry, pool):
        result = await run_code(registry, program)
    assert isinstance(result, ToolSuccess), result
    value: Any = result.value
    assert len(value["result"]) == REFUSED_CALLS
    # Each refusal was described, every bad item of it, in a worker thread.
    assert walked.elsewhere >= REFUSED_CALLS * REFUSED_ITEMS
    assert walked.on_loop == 0


@tool(present_call=lambda args: {"card": "generic", "title": "picking"})
def pick_shown(xs: list[Choice | None]) -> int:
    """Count the picks, with a pending card."""
    return len(xs)


def test_presenting_refused_arguments_describes_none_of_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A UI asks for a pending card wherever it runs (its loop too): arguments the
    # quick check refuses get no card, and why they are refused is not walked.
    walked = LoopSteps()
    monkeypatch.setattr(
        codemode._validate._Found,
        "describes_next",
        walked.counting(codemode._validate._Found.describes_next),
    )
    present = pick_shown.present_call
    assert present is not None
    assert present({"xs": [5] * REFUSED_ITEMS}) is None
    assert present({"xs": ["alpha"]}) == {"card": "generic", "title": "picking"}
    assert walked.on_loop == walked.elsewhere == 0


class Renders:
    """Records, for every value laid out as pretty JSON, its thread and whether it was large."""

    def __init__(self, real: Callable[[object], str]) -> None:
        self._real = real
        self.loop_thread = threading.get_ident()
        self.large_on_loop = 0
        self.large_elsewhere = 0

    def __call__(self, value: object) -> str:
        if bridge.lossless.exceeds_nodes(value, INLINE_NODES):
            if threading.get_ident() == self.loop_thread:
                self.large_on_loop += 1
            else:
                self.large_elsewhere += 1
        return self._real(value)


@pytest.fixture
def renders(monkeypatch: pytest.MonkeyPatch) -> Renders:
    recorder = Renders(codemode._tools.pretty_json)
    # The default tool renderer and run_code's own renderer both lay values out
    # with pretty_json, each through its own module's name for it.
    monkeypatch.setattr(codemode._tools, "pretty_json", recorder)
    monkeypatch.setattr(codemode.code_mode._render, "pretty_json", recorder)
    return recorder


#: Returned as the program's result and sent through a tool: wide and deep.
DEEP_VALUE = "value = [0] * 30000\nfor _ in range(300):\n    value = [value]\n"


@pytest.mark.parametrize(
    "program",
    [
        "return [7] * 30000",
        DEEP_VALUE + "return value",
        "got = await tools.echo_items(items=[7] * 30000)\nreturn len(got)",
    ],
    ids=["wide-result", "deep-result", "tool-value"],
)
async def test_a_large_value_is_rendered_off_the_loop(
    pool: WorkerPool, renders: Renders, program: str
) -> None:
    registry = registry_with(echo_items)
    async with code_mode(registry, pool):
        result = await run_code(registry, program)
    assert isinstance(result, ToolSuccess), result
    assert renders.large_elsewhere >= 1
    assert renders.large_on_loop == 0


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
