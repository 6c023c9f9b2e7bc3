"""Fault matrix, the outer call cancelled while a sub-call is in each stage of its pipeline.

Two ways to cancel: the caller aborts the outer call's signal (the pipeline's
own cancellation: ``run_code`` ends as ``CODE_RUN_FAILED`` of kind ``abort``),
or the task awaiting ``run_code`` is cancelled (anyio cancellation, which
propagates). Either way the sub-call sees the aborted run signal, settles, and
its events are in the log before the outer call is over.

In each cell the listener (or body) of the stage signals that it is running
and then waits for its signal, as a well-behaved listener does; the program
sleeps after the call, so that the cancellation, not the program's end,
settles the run.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode import AbortSignal, Ask, Registry, ToolExecution
from codemode._errors import CODE_RUN_FAILED
from tests.codemode.test_code_mode_support import make_tool, registry_with
from tests.faults.support import (
    DEADLOCK_SECONDS,
    assert_next_run_is_served,
    assert_one_settle_each,
    code_and_kind,
    open_cell,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from codemode import JsonValue, ToolRunContext

pytestmark = pytest.mark.slow

PROGRAM = """
import asyncio
try:
    await tools.t(n=1)
finally:
    await asyncio.sleep(3600)
"""

STAGES = [
    "pre_execute",
    "approver",
    "around",
    "body",
    "post_execute",
    "on_result",
    "on_code_dispatch_log",
]


def _stage_registry(stage: str, entered: anyio.Event) -> Registry:
    """Tool ``t`` whose ``stage`` announces itself, then waits for the signal and goes on."""

    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        if stage == "body":
            entered.set()
            await ctx.signal.wait()
        return {"n": 1}

    registry = registry_with(make_tool("t", body=body))

    async def waiting(execution: ToolExecution) -> None:
        entered.set()
        await execution.signal.wait()

    if stage == "pre_execute":

        async def pre(execution: ToolExecution, proceed: Callable[[], Awaitable[Any]]) -> Any:
            if execution.name == "t":
                await waiting(execution)
            return await proceed()

        registry.pre_execute(pre)
    elif stage == "approver":

        async def ask(execution: ToolExecution, proceed: Callable[[], Awaitable[Any]]) -> Any:
            return Ask("needs a yes") if execution.name == "t" else await proceed()

        async def approver(execution: ToolExecution, reason: str | None) -> str:
            await waiting(execution)
            return "allowed-once"

        registry.pre_execute(ask)
        registry.hooks.approver = approver  # type: ignore[assignment]
    elif stage == "around":

        async def around(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
            if dispatch.execution.name == "t":
                await waiting(dispatch.execution)
            return await proceed()

        registry.around(around)
    elif stage == "post_execute":

        async def post(execution: ToolExecution, result: Any, proceed: Callable[[], Any]) -> Any:
            if execution.name == "t":
                await waiting(execution)
            return await proceed()

        registry.post_execute(post)
    elif stage == "on_result":

        async def observer(execution: ToolExecution, result: Any) -> None:
            if execution.name == "t":
                await waiting(execution)

        registry.on_result(observer)
    elif stage == "on_code_dispatch_log":

        async def reshape(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
            entered.set()
            await dispatch.execution.signal.wait()
            return await proceed()

        registry.on_code_dispatch_log(reshape)
    return registry


@pytest.mark.parametrize("stage", STAGES)
async def test_aborting_the_outer_signal_during_a_stage_settles_the_sub_call(stage: str) -> None:
    entered = anyio.Event()
    registry = _stage_registry(stage, entered)
    signal = AbortSignal()
    async with open_cell(registry) as cell:
        async with anyio.create_task_group() as tg:

            async def abort_when_entered() -> None:
                await entered.wait()
                signal.abort("the user pressed stop")

            tg.start_soon(abort_when_entered)
            result = await cell.run(PROGRAM, signal=signal)
        assert code_and_kind(result) == (CODE_RUN_FAILED, "abort")
        assert "the user pressed stop" in result.content[0].text  # type: ignore[union-attr]
        assert cell.started() == ["call-1:code:1"]
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell)


@pytest.mark.parametrize("stage", STAGES)
async def test_cancelling_the_outer_task_during_a_stage_settles_the_sub_call(stage: str) -> None:
    entered = anyio.Event()
    registry = _stage_registry(stage, entered)
    async with open_cell(registry) as cell:
        with anyio.fail_after(DEADLOCK_SECONDS):
            async with anyio.create_task_group() as tg:

                async def outer() -> None:
                    await cell.run(PROGRAM)

                tg.start_soon(outer)
                await entered.wait()
                tg.cancel_scope.cancel()
        # The cancelled run_code call returned nothing; its log is complete now.
        cell.events_at_return = cell.log.events()
        assert cell.started() == ["call-1:code:1"]
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell)


async def test_cancelling_the_outer_task_while_a_call_waits_for_its_commit_turn() -> None:
    # Regression: the scheduler's workers were cancelled with the outer task,
    # so a later call that had run, waiting for the earlier one to commit,
    # never committed and its settle event was never written.
    first_running, second_ran = anyio.Event(), anyio.Event()

    async def body(args: Any, ctx: ToolRunContext) -> JsonValue:
        if args["n"] == 1:
            first_running.set()
            await ctx.signal.wait()
        else:
            second_ran.set()
        return dict(args)

    registry = registry_with(make_tool("t", body=body, parallel=True))
    program = """
import asyncio
await asyncio.gather(tools.t(n=1), tools.t(n=2))
await asyncio.sleep(3600)
"""
    async with open_cell(registry) as cell:
        with anyio.fail_after(DEADLOCK_SECONDS):
            async with anyio.create_task_group() as tg:

                async def outer() -> None:
                    await cell.run(program)

                tg.start_soon(outer)
                await first_running.wait()
                await second_ran.wait()
                tg.cancel_scope.cancel()
        cell.events_at_return = cell.log.events()
        assert cell.started() == ["call-1:code:1", "call-1:code:2"]
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell)
