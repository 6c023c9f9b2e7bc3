"""Fault matrix, tools that play with cancellation: the sub-call still settles once.

A tool that cancels its own task (``asyncio.current_task().cancel()``) is that
call's failure: the run goes on, and the next call is served. A tool that,
when its hanging stage is stopped, raises a group mixing the real
cancellation with failures settles as that failure. A tool raising an
exception whose ``__class__`` raises fails only its own call.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.codemode.test_code_mode_support import make_tool, registry_with, returned
from tests.faults.support import (
    HANG_WALL_SECONDS,
    assert_next_run_is_served,
    assert_one_settle_each,
    code_and_kind,
    open_cell,
)

pytestmark = pytest.mark.slow

PROGRAM = """
try:
    await tools.t()
except ToolCallError as error:
    first = [error.type, error.code]
else:
    first = "ok"
return [first, await tools.echo(n=2)]
"""


async def _self_cancel(args: Any, ctx: Any) -> Any:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    await asyncio.sleep(0)
    return "unreachable"


class Evil(Exception):
    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise self


async def _evil(args: Any, ctx: Any) -> Any:
    raise Evil("boom")


@pytest.mark.parametrize(
    ("body", "error_type"), [(_self_cancel, "CancelledError"), (_evil, "Evil")]
)
async def test_a_sub_call_that_cancels_itself_or_raises_a_hostile_exception_settles(
    body: Any, error_type: str
) -> None:
    registry = registry_with(make_tool("t", body=body), make_tool("echo"))
    async with open_cell(registry) as cell:
        result = await cell.run(PROGRAM)
        assert returned(result) == [[error_type, None], {"n": 2}]
        assert_one_settle_each(cell.events_at_return)
        assert cell.settle_of("call-1:code:1").is_error
        assert not cell.settle_of("call-1:code:2").is_error
        await assert_next_run_is_served(cell)


def _hang_then_group(kind: str) -> Any:
    async def body(args: Any, ctx: Any) -> Any:
        try:
            await asyncio.Event().wait()  # ignores the aborted signal
        except asyncio.CancelledError as real:
            members: list[BaseException] = [real, ValueError("v")]
            if kind == "mix":
                members.append(asyncio.CancelledError("its own"))
            raise BaseExceptionGroup("mix", members) from None
        return "x"

    return body


@pytest.mark.parametrize("kind", ["real+value", "mix"])
async def test_a_stopped_stage_raising_its_cancellation_with_failures_settles(kind: str) -> None:
    registry = registry_with(make_tool("t", body=_hang_then_group(kind)), make_tool("echo"))
    async with open_cell(registry, wall_seconds=HANG_WALL_SECONDS) as cell:
        result = await cell.run("await tools.t()")
        assert code_and_kind(result) == ("CODE_RUN_FAILED", "timeout")
        assert cell.started() == ["call-1:code:1"]
        assert_one_settle_each(cell.events_at_return)
        settle = cell.settle_of("call-1:code:1")
        assert settle.is_error
        await assert_next_run_is_served(cell)
