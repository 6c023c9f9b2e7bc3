"""Fault matrix, listeners: each kind of listener raising, or hanging while ignoring its signal.

A raising listener is contained where the pipeline says (the call fails, or
for observers and dispatch-log listeners the outcome stands); a hanging one
cannot hold ``run_code`` past its wall-clock limit and the settle grace: the
stage is cancelled, the sub-call settles as aborted and its event is logged.
A guard is synchronous (an awaitable it returns is refused), so it can raise
but cannot hang the way an async listener does.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode import Ask, Registry, ToolExecution
from codemode._errors import ABORTED, ABORTED_BEFORE_DISPATCH, CODE_RUN_FAILED
from tests.codemode.test_code_mode_support import make_tool, registry_with, returned
from tests.faults.support import (
    HANG_WALL_SECONDS,
    assert_next_run_is_served,
    assert_one_settle_each,
    code_and_kind,
    open_cell,
)

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

pytestmark = pytest.mark.slow

CATCHING = """
try:
    return await tools.t(n=1)
except ToolCallError as error:
    return [error.type, error.code, str(error)]
"""


class Broken(Exception):
    """What the raising listeners raise."""


class BrokenHard(BaseException):
    """What a listener raises that is not an ``Exception`` at all."""


#: How a raising listener raises, and the error type the program then sees.
RAISES = {
    "raise": "Broken",
    "raise-base": "BrokenHard",
    "raise-keyboard-interrupt": "KeyboardInterrupt",
    "raise-cancelled": "CancelledError",  # one nobody delivered to the call
}


def _raise(action: str) -> None:
    if action == "raise-base":
        raise BrokenHard("listener broke")
    if action == "raise-keyboard-interrupt":
        raise KeyboardInterrupt("listener broke")
    if action == "raise-cancelled":
        raise asyncio.CancelledError("listener broke")
    raise Broken("listener broke")


async def _fault(action: str) -> None:
    if action.startswith("raise"):
        _raise(action)
    await anyio.sleep_forever()  # never looks at the signal


def _listener(kind: str, action: str) -> Callable[..., Any]:
    """A listener of ``kind`` that raises or hangs for tool ``t`` and lets every other call by.

    It must let ``run_code`` itself by: the outer call goes through the same pipeline.
    """
    if kind == "guard":

        def guard(execution: ToolExecution) -> None:
            if execution.name == "t":
                _raise(action)

        return guard
    if kind == "around":

        async def around(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
            if dispatch.execution.name == "t":
                await _fault(action)
            return await proceed()

        return around
    if kind == "post_execute":

        async def post(execution: ToolExecution, result: Any, proceed: Callable[[], Any]) -> Any:
            if execution.name == "t":
                await _fault(action)
            return await proceed()

        return post
    if kind == "on_result":

        async def observer(execution: ToolExecution, result: Any) -> None:
            if execution.name == "t":
                await _fault(action)

        return observer

    async def other(first: Any, second: Any) -> Any:
        # pre_execute (execution, next), code_dispatch_log (dispatch, next),
        # approver (execution, reason): only tool t's calls reach the approver.
        name = first.name
        if name == "t" or kind == "approver":
            await _fault(action)
        return await second()

    return other


async def _ask(execution: ToolExecution, proceed: Callable[[], Awaitable[Any]]) -> Any:
    return Ask("needs a yes") if execution.name == "t" else await proceed()


def _install(registry: Registry, kind: str, action: str) -> Callable[[], None]:
    """Add the listener; returns its disposer."""
    listener = _listener(kind, action)
    if kind == "approver":
        registry.hooks.approver = listener
        return registry.pre_execute(_ask)
    dispose: Callable[[], None] = getattr(registry, kind)(listener)
    return dispose


@pytest.mark.parametrize("action", list(RAISES))
@pytest.mark.parametrize("kind", ["pre_execute", "guard", "around", "post_execute", "approver"])
async def test_a_raising_policy_listener_fails_that_call_with_its_message(
    kind: str, action: str
) -> None:
    # Regression for the BaseExceptions: they passed the pipeline's `except
    # Exception` and ended the scheduler's worker without an outcome.
    registry = registry_with(make_tool("t"))
    async with open_cell(registry) as cell:
        dispose = _install(registry, kind, action)
        result = await cell.run(CATCHING)
        dispose()
        error_type, _code, message = returned(result)
        assert error_type == RAISES[action]
        assert "listener broke" in message
        assert_one_settle_each(cell.events_at_return)
        assert cell.settle_of("call-1:code:1").is_error
        await assert_next_run_is_served(cell)


@pytest.mark.parametrize("action", list(RAISES))
@pytest.mark.parametrize("kind", ["on_result", "on_code_dispatch_log"])
async def test_a_raising_observer_leaves_the_outcome_as_it_was(kind: str, action: str) -> None:
    registry = registry_with(make_tool("t"))
    async with open_cell(registry) as cell:
        dispose = _install(registry, kind, action)
        result = await cell.run(CATCHING)
        dispose()
        assert returned(result) == {"n": 1}
        assert_one_settle_each(cell.events_at_return)
        assert not cell.settle_of("call-1:code:1").is_error
        await assert_next_run_is_served(cell)


@pytest.mark.parametrize(
    ("kind", "settled_as"),
    [
        ("pre_execute", ABORTED_BEFORE_DISPATCH),
        ("around", ABORTED_BEFORE_DISPATCH),  # the wrapper never called the body
        ("post_execute", ABORTED),
        ("on_result", ABORTED),
        ("approver", ABORTED_BEFORE_DISPATCH),
    ],
)
async def test_a_hanging_listener_ends_the_run_at_the_wall_clock(
    kind: str, settled_as: str
) -> None:
    # Regression (all but the approver, which the pipeline already cancels with
    # the signal): the settlement waited for the listener forever.
    registry = registry_with(make_tool("t"))
    async with open_cell(registry, wall_seconds=HANG_WALL_SECONDS) as cell:
        dispose = _install(registry, kind, "hang")
        result = await cell.run("await tools.t(n=1)")
        dispose()
        assert code_and_kind(result) == (CODE_RUN_FAILED, "timeout")
        assert_one_settle_each(cell.events_at_return)
        info = cell.settle_of("call-1:code:1").error
        assert info is not None
        assert info.code == settled_as
        await assert_next_run_is_served(cell)


async def test_a_hanging_dispatch_log_listener_is_cut_off_and_the_original_content_logged() -> None:
    # Regression: run_code waited for the listener forever after the program finished.
    registry = registry_with(make_tool("t"))
    async with open_cell(registry) as cell:
        dispose = _install(registry, "on_code_dispatch_log", "hang")
        result = await cell.run("return await tools.t(n=1)")
        dispose()
        assert returned(result) == {"n": 1}
        assert_one_settle_each(cell.events_at_return)
        settle = cell.settle_of("call-1:code:1")
        assert not settle.is_error
        assert settle.content[0].text == '{"n": 1}'  # type: ignore[union-attr]
        await assert_next_run_is_served(cell)


def _self_cancel(kind: str, awaits: bool) -> Callable[..., Any]:
    """A listener of ``kind`` that cancels its own (the host's) task for tool ``t``'s calls.

    Then it either awaits (the cancellation lands in the listener, which
    raises it) or goes on at once (it is left pending for the host's next wait).
    """

    async def cancel_own_task() -> None:
        task = asyncio.current_task()
        assert task is not None
        task.cancel()
        if awaits:
            await asyncio.sleep(0)

    if kind == "around":

        async def around(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
            if dispatch.execution.name == "t":
                await cancel_own_task()
            return await proceed()

        return around
    if kind == "post_execute":

        async def post(execution: ToolExecution, result: Any, proceed: Callable[[], Any]) -> Any:
            if execution.name == "t":
                await cancel_own_task()
            return await proceed()

        return post
    if kind == "on_result":

        async def observer(execution: ToolExecution, result: Any) -> None:
            if execution.name == "t":
                await cancel_own_task()

        return observer
    if kind == "approver":

        async def approver(execution: ToolExecution, reason: Any) -> Any:
            await cancel_own_task()
            return "allowed-once"

        return approver

    async def pre(first: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
        # pre_execute (execution, next), code_dispatch_log (dispatch, next)
        if first.name == "t":
            await cancel_own_task()
        return await proceed()

    return pre


@pytest.mark.parametrize("awaits", [False, True], ids=["pending", "delivered"])
@pytest.mark.parametrize(
    "kind",
    ["pre_execute", "around", "post_execute", "on_result", "approver", "on_code_dispatch_log"],
)
async def test_a_listener_that_cancels_its_own_task_fails_at_most_its_call(
    kind: str, awaits: bool
) -> None:
    # The request lands on the host's task: withdrawn when the listener
    # returns, it cannot end the scheduler's worker or leave a start open.
    registry = registry_with(make_tool("t"), make_tool("echo"))
    listener = _self_cancel(kind, awaits)
    if kind == "approver":
        registry.hooks.approver = listener
        dispose = registry.pre_execute(_ask)
    else:
        dispose = getattr(registry, kind)(listener)
    async with open_cell(registry) as cell:
        result = await cell.run(
            "try:\n    first = await tools.t(n=1)\nexcept ToolCallError as error:\n"
            "    first = error.type\nreturn [first, await tools.echo(n=2)]"
        )
        dispose()
        first, second = returned(result)
        assert second == {"n": 2}
        # A delivered cancellation is the listener's failure (an observer's
        # failure leaves the outcome as it was); a pending one fails nothing.
        watching = kind in ("on_result", "on_code_dispatch_log")
        expected = {"n": 1} if watching or not awaits else "CancelledError"
        assert first == expected
        assert_one_settle_each(cell.events_at_return)
        # The log holds the call's own outcome, not an abort the listener caused.
        assert cell.settle_of("call-1:code:1").is_error == (expected != {"n": 1})
        await assert_next_run_is_served(cell)
