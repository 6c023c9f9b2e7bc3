"""Stoppable stages: ``begin(..., stop=...)`` scopes exactly the stages that may wait.

Code Mode stops the stages of sub-calls that outlive their settled run. A
stage runs in a scope from ``stop`` when something in it can wait without end
(a listener, the approver, the body, a thread for unfrozen arguments), and a
stopped stage settles the call as aborted; a stage that cannot wait takes no
scope, since each costs a cancel scope on every sub-call.
"""

from __future__ import annotations

from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from bridge.lossless import materialize
from codemode._execution import (
    ApprovalOutcome,
    Ask,
    PreDecision,
    ToolExecution,
    ToolRunContext,
)
from codemode._pipeline import PreparedCall, begin
from codemode._registry import Registry
from codemode._scope import Agent
from tests.codemode.test_pipeline_support import call, code_of, make_tool, success

if TYPE_CHECKING:
    from collections.abc import Iterator

    from codemode._results import ToolResult

#: A bound on every wait below, so that a stage nobody can stop fails the test
#: instead of hanging it; no test waits for it in a passing run.
DEADLOCK_SECONDS = 10


class Stops:
    """A ``stop`` factory that records the stage each scope was made in, and can cancel them."""

    def __init__(self) -> None:
        self.stage = "none"
        self.made: list[str] = []
        self.scopes: list[anyio.CancelScope] = []
        self.cancelled = False

    @contextmanager
    def __call__(self) -> Iterator[anyio.CancelScope]:
        scope = anyio.CancelScope()
        if self.cancelled:
            scope.cancel()
        self.made.append(self.stage)
        self.scopes.append(scope)
        with scope:
            yield scope

    def cancel(self) -> None:
        self.cancelled = True
        for scope in self.scopes:
            scope.cancel()


async def _three_steps(prepared: PreparedCall, stops: Stops) -> ToolResult:
    stops.stage = "start"
    await prepared.start()
    stops.stage = "run"
    await prepared.run()
    stops.stage = "commit"
    return await prepared.commit()


def _frozen(arguments: dict[str, Any]) -> Any:
    # A sub-call's arguments arrive as a frozen snapshot.
    return materialize(arguments, freeze=True)


async def test_without_listeners_only_the_run_stage_takes_a_scope() -> None:
    registry = Registry()
    registry.register(make_tool())
    stops = Stops()
    prepared = begin(registry, call(arguments=_frozen({"a": 1})), stop=stops)
    assert success(await _three_steps(prepared, stops)).value == {"a": 1}
    assert stops.made == ["run"]


def _add_pre_execute(registry: Registry) -> None:
    async def pre(execution: ToolExecution, proceed: Any) -> PreDecision:
        decision: PreDecision = await proceed()
        return decision

    registry.pre_execute(pre)


def _add_post_execute(registry: Registry) -> None:
    async def post(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
        return await proceed()

    registry.post_execute(post)


def _add_observer(registry: Registry) -> None:
    registry.on_result(lambda execution, result: None)


@pytest.mark.parametrize("frozen", [True, False])
@pytest.mark.parametrize("observer", [True, False])
@pytest.mark.parametrize("post", [True, False])
@pytest.mark.parametrize("pre", [True, False])
async def test_every_combination_scopes_exactly_the_stages_that_may_wait(
    pre: bool, post: bool, observer: bool, frozen: bool
) -> None:
    registry = Registry()
    registry.register(make_tool())
    if pre:
        _add_pre_execute(registry)
    if post:
        _add_post_execute(registry)
    if observer:
        _add_observer(registry)
    arguments = _frozen({"a": 1}) if frozen else {"a": 1}
    stops = Stops()
    result = await _three_steps(begin(registry, call(arguments=arguments), stop=stops), stops)
    assert success(result).value == {"a": 1}
    expected = (
        (["start"] if pre or not frozen else [])
        + ["run"]
        + (["commit"] if post or observer else [])
    )
    assert stops.made == expected


async def test_without_stop_no_stage_takes_a_scope_and_the_result_is_the_same() -> None:
    registry = Registry()
    registry.register(make_tool())
    _add_pre_execute(registry)
    _add_post_execute(registry)
    prepared = begin(registry, call(arguments={"a": 1}))
    await prepared.start()
    await prepared.run()
    assert success(await prepared.commit()).value == {"a": 1}


async def _stopped_while_waiting(
    registry: Registry, entered: anyio.Event
) -> tuple[ToolResult, Stops]:
    """Run a call until ``entered`` is set, stop every stage, and return how it settled."""
    stops = Stops()
    # An agent, so that an Ask reaches the approver.
    prepared = begin(registry, call(arguments=_frozen({"a": 1}), agent=Agent("a")), stop=stops)
    results: list[ToolResult] = []

    async def drive() -> None:
        results.append(await _three_steps(prepared, stops))

    with anyio.fail_after(DEADLOCK_SECONDS):
        async with anyio.create_task_group() as tasks:
            tasks.start_soon(drive)
            await entered.wait()
            stops.cancel()
    return results[0], stops


async def _hang(entered: anyio.Event) -> None:
    entered.set()
    await anyio.sleep_forever()  # ignores every signal: only a stop ends it


@pytest.mark.parametrize(
    ("where", "settled_as", "stage"),
    [
        ("pre_execute", "ABORTED_BEFORE_DISPATCH", "start"),
        ("approver", "ABORTED_BEFORE_DISPATCH", "start"),
        ("body", "ABORTED", "run"),
        ("post_execute", "ABORTED", "commit"),
        ("observer", "ABORTED", "commit"),
    ],
)
async def test_a_stopped_stage_settles_the_call_as_aborted(
    where: str, settled_as: str, stage: str
) -> None:
    entered = anyio.Event()

    async def body(args: Any, ctx: ToolRunContext) -> object:
        if where == "body":
            await _hang(entered)
        return args

    registry = Registry()
    registry.register(make_tool(body=body))
    if where == "pre_execute":

        async def pre(execution: ToolExecution, proceed: Any) -> PreDecision:
            await _hang(entered)
            raise AssertionError("unreachable")

        registry.pre_execute(pre)
    elif where == "approver":
        async def ask(execution: ToolExecution, proceed: Any) -> PreDecision:
            return Ask("needs a yes")

        class HangingApprover:
            async def __call__(
                self, execution: ToolExecution, reason: str | None
            ) -> ApprovalOutcome:
                await _hang(entered)
                raise AssertionError("unreachable")

        registry.pre_execute(ask)
        registry.hooks.approver = HangingApprover()
    elif where == "post_execute":

        async def post(execution: ToolExecution, result: ToolResult, proceed: Any) -> Any:
            await _hang(entered)

        registry.post_execute(post)
    elif where == "observer":

        async def observer(execution: ToolExecution, result: ToolResult) -> None:
            await _hang(entered)

        registry.on_result(observer)
    result, stops = await _stopped_while_waiting(registry, entered)
    assert code_of(result) == settled_as
    assert stage in stops.made


async def test_a_stage_begun_after_the_stop_is_stopped_at_its_first_wait() -> None:
    reached: list[str] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        reached.append("body")
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    registry = Registry()
    registry.register(make_tool(body=body))
    stops = Stops()
    stops.cancel()  # as Code Mode's stop once the grace is over
    with anyio.fail_after(DEADLOCK_SECONDS):
        result = await _three_steps(
            begin(registry, call(arguments=_frozen({"a": 1})), stop=stops), stops
        )
    assert code_of(result) == "ABORTED"
    assert reached == ["body"]
