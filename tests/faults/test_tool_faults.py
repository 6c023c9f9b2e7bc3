"""Fault matrix, tools: a tool that raises, hangs ignoring its signal, or returns a non-JSON value.

Each test is one cell of RELIABILITY.md; :mod:`tests.faults.support` checks
the invariants every cell shares.
"""

from __future__ import annotations

import asyncio
import math
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode._errors import ABORTED, CODE_RUN_FAILED, INVALID_TOOL_OUTPUT
from tests.codemode.test_code_mode_support import make_tool, registry_with, returned
from tests.faults.support import (
    HANG_WALL_SECONDS,
    assert_next_run_is_served,
    assert_one_settle_each,
    code_and_kind,
    open_cell,
)

if TYPE_CHECKING:
    from codemode import JsonValue, ToolRunContext

pytestmark = pytest.mark.slow

CATCHING = """
try:
    return await tools.t()
except ToolCallError as error:
    return [error.type, error.code, str(error)]
"""


async def test_a_tool_that_raises_fails_the_program_with_its_message() -> None:
    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        raise LookupError("no such row")

    async with open_cell(registry_with(make_tool("t", body=body))) as cell:
        result = await cell.run("await tools.t()")
        assert code_and_kind(result) == (CODE_RUN_FAILED, "exception")
        assert 'tool "t" raised LookupError: no such row' in result.content[0].text  # type: ignore[union-attr]
        assert_one_settle_each(cell.events_at_return)
        assert cell.settle_of("call-1:code:1").is_error
        await assert_next_run_is_served(cell)


@pytest.mark.parametrize(
    "exception",
    [SystemExit(3), KeyboardInterrupt(), GeneratorExit()],
    ids=lambda e: type(e).__name__,
)
async def test_a_tool_raising_a_base_exception_fails_that_call(exception: BaseException) -> None:
    # Regression: these escaped the pipeline's `except Exception`, tore down
    # the run's task groups and the pool's, and cancelled every later run.
    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        raise exception

    async with open_cell(registry_with(make_tool("t", body=body))) as cell:
        result = await cell.run(CATCHING)
        name = type(exception).__name__
        assert returned(result)[:2] == [name, None]
        assert_one_settle_each(cell.events_at_return)
        assert cell.settle_of("call-1:code:1").is_error
        await assert_next_run_is_served(cell)


@pytest.mark.parametrize("how", ["awaits-a-future-cancelled-elsewhere", "group-of-cancelled"])
async def test_a_cancelled_error_no_one_delivered_to_the_call_fails_that_call(how: str) -> None:
    # Regression: a CancelledError was taken for a cancellation of the call by
    # its type. The scheduler's worker died without an outcome, so the program
    # waited for its reply until the wall clock, the log kept a start with no
    # settle, and a BaseExceptionGroup around one escaped run_turn itself.
    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        shared = asyncio.get_running_loop().create_future()
        shared.cancel()  # a shared in-flight request, cancelled by someone else
        if how == "group-of-cancelled":
            try:
                await shared
            except asyncio.CancelledError as exc:
                raise BaseExceptionGroup("tool", [exc]) from None
        return await shared  # type: ignore[no-any-return]

    async with open_cell(registry_with(make_tool("t", body=body))) as cell:
        result = await cell.run(CATCHING)
        assert returned(result)[:2] == [
            "CancelledError" if how != "group-of-cancelled" else "BaseExceptionGroup",
            None,
        ]
        assert_one_settle_each(cell.events_at_return)
        assert cell.settle_of("call-1:code:1").is_error
        await assert_next_run_is_served(cell)


@pytest.mark.parametrize(
    "value",
    [{1, 2}, math.nan, b"bytes", object(), {"k": -0.0}],
    ids=["set", "nan", "bytes", "object", "negative-zero"],
)
async def test_a_tool_returning_a_non_json_value_is_invalid_tool_output(value: object) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        return value  # type: ignore[return-value]

    async with open_cell(registry_with(make_tool("t", body=body))) as cell:
        result = await cell.run(CATCHING)
        _type, code, _message = returned(result)
        assert code == INVALID_TOOL_OUTPUT
        assert_one_settle_each(cell.events_at_return)
        info = cell.settle_of("call-1:code:1").error
        assert info is not None
        assert info.code == INVALID_TOOL_OUTPUT
        await assert_next_run_is_served(cell)


async def test_a_tool_that_hangs_ignoring_its_signal_ends_at_the_wall_clock() -> None:
    # Regression: the settlement waited for the body forever, so run_code never returned.
    entered = anyio.Event()

    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        entered.set()
        await anyio.sleep_forever()  # never looks at ctx.signal
        return None

    async with open_cell(
        registry_with(make_tool("t", body=body)), wall_seconds=HANG_WALL_SECONDS
    ) as cell:
        result = await cell.run("await tools.t()")
        assert entered.is_set()
        assert code_and_kind(result) == (CODE_RUN_FAILED, "timeout")
        assert_one_settle_each(cell.events_at_return)
        info = cell.settle_of("call-1:code:1").error
        assert info is not None
        assert info.code == ABORTED
        await assert_next_run_is_served(cell)
