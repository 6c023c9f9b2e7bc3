"""Printed lines reach the host while the program runs, in order, within the output cap."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import anyio
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from bridge.lossless import JsonValue

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async with WorkerPool(size=1, limits=Limits(wall_seconds=GUARD)) as shared:
        yield shared


class Gate:
    """A tool that answers only once the host has received the line ``wanted``."""

    def __init__(self, wanted: str) -> None:
        self.wanted = wanted
        self.seen = anyio.Event()
        self.batches: list[tuple[str, ...]] = []
        self.order: list[str] = []

    def on_output(self, lines: tuple[str, ...]) -> None:
        self.batches.append(lines)
        self.order.extend(f"line {line}" for line in lines)
        if self.wanted in lines:
            self.seen.set()

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        await self.seen.wait()
        self.order.append("gate answered")
        return "open"


async def test_a_line_printed_before_a_call_reaches_the_host_before_the_call_returns(
    pool: WorkerPool,
) -> None:
    gate = Gate("step 1")
    with anyio.fail_after(GUARD):
        result = await pool.run(
            'print("step 1")\nanswer = await tools.gate()\nprint("step 2", answer)\nreturn 1',
            tool_names=["gate"],
            handler=gate,
            on_output=gate.on_output,
        )
    assert result.error is None, result.error
    # Had the lines only come with the result, the gate would never have opened.
    assert gate.order == ["line step 1", "gate answered", "line step 2 open"]
    assert result.logs == ("step 1", "step 2 open")


@settings(
    max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    lines=st.lists(
        st.text(st.characters(exclude_characters="\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"),
                max_size=40),
        max_size=60,
    )
)
async def test_every_printed_line_is_delivered_once_in_order(
    pool: WorkerPool, lines: list[str]
) -> None:
    delivered: list[str] = []
    result = await pool.run(
        f"for line in {lines!r}:\n    print(line)",
        tool_names=[],
        handler=EchoHandler(),
        on_output=delivered.extend,
    )
    assert result.error is None, result.error
    assert tuple(delivered) == result.logs
    assert [line.encode("utf-8", "backslashreplace").decode() for line in lines] == delivered


async def test_lines_past_the_output_cap_are_never_delivered(pool: WorkerPool) -> None:
    delivered: list[str] = []
    cap = 2_000
    result = await pool.run(
        "for i in range(10_000):\n    print('x' * 50, i)",
        tool_names=[],
        handler=EchoHandler(),
        limits=Limits(wall_seconds=GUARD, max_log_bytes=cap),
        on_output=delivered.extend,
    )
    assert result.error is None, result.error
    # What was delivered is exactly what the result keeps: the lines within the
    # cap, then the one truncation marker.
    assert tuple(delivered) == result.logs
    *kept, last, marker = delivered
    printed = [f"{'x' * 50} {i}" for i in range(len(kept) + 1)]
    assert kept == printed[:-1]
    assert printed[-1].startswith(last)  # the line at the cap is cut there
    assert sum(len(line) + 1 for line in [*kept, last]) <= cap + 1
    assert "truncated" in marker


async def test_a_raising_output_callback_changes_nothing_but_its_own_delivery(
    pool: WorkerPool, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[tuple[str, ...]] = []

    def broken(lines: tuple[str, ...]) -> None:
        gate.on_output(lines)
        calls.append(lines)
        raise RuntimeError("a broken progress bar")

    gate = Gate("first")
    with caplog.at_level(logging.ERROR, logger="bridge"), anyio.fail_after(GUARD):
        result = await pool.run(
            'print("first")\nawait tools.gate()\nprint("second")\nreturn "done"',
            tool_names=["gate"],
            handler=gate,
            on_output=broken,
        )
    assert result.error is None, result.error
    assert result.value == "done"
    assert result.logs == ("first", "second")
    # Called once, then dropped for the rest of the run; the failure is logged.
    assert calls == [("first",)]
    assert "the output callback raised" in caplog.text


async def test_a_non_callable_on_output_is_refused(pool: WorkerPool) -> None:
    with pytest.raises(TypeError, match="on_output must be a callable"):
        await pool.run("return 1", tool_names=[], handler=EchoHandler(), on_output="print")  # type: ignore[arg-type]
