"""Pre-execute, approval, guards, scoped listeners and the code-mode collapse."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest

from codemode._errors import ToolError
from codemode._execution import (
    Allow,
    ApprovalOutcome,
    Ask,
    Deny,
    ExecutionToken,
    PreDecision,
    ToolExecution,
    ToolRunContext,
)
from codemode._pipeline import execute
from codemode._registry import Registry
from codemode._results import ErrorInfo, TextBlock, ToolResult
from codemode._scope import Agent
from codemode._signal import AbortSignal
from codemode.testing import RecordingListener, StaticApprover
from tests.codemode.test_pipeline_support import (
    call,
    code_of,
    failed,
    make_tool,
    message_of,
    success,
)

Next = Callable[[], Awaitable[PreDecision]]


def counting_registry(**kwargs: Any) -> tuple[Registry, list[object]]:
    """A registry with an ``echo`` tool whose body records each run."""
    ran: list[object] = []

    async def body(args: Any, ctx: ToolRunContext) -> object:
        ran.append(args)
        return args

    registry = Registry(**kwargs)
    registry.register(make_tool(body=body))
    return registry, ran


def answering(decision: PreDecision) -> Callable[[ToolExecution, Next], Awaitable[PreDecision]]:
    async def listener(execution: ToolExecution, next: Next) -> PreDecision:
        return decision

    return listener


# --- pre-execute ---------------------------------------------------------------------------


async def test_a_pre_execute_deny_refuses_the_call_with_its_reason() -> None:
    registry, ran = counting_registry()
    registry.pre_execute(answering(Deny("not on a Friday")))
    result = await execute(registry, call())
    assert message_of(result) == "not on a Friday"
    assert failed(result).error.info is None
    assert ran == []


async def test_next_in_pre_execute_defaults_to_allow() -> None:
    registry, ran = counting_registry()
    decisions: list[PreDecision] = []

    async def listener(execution: ToolExecution, next: Next) -> PreDecision:
        decisions.append(await next())
        return decisions[-1]

    registry.pre_execute(listener)
    assert success(await execute(registry, call()))
    assert decisions == [Allow()]
    assert len(ran) == 1


async def test_an_earlier_pre_execute_listener_decides_before_later_ones_run() -> None:
    registry, _ran = counting_registry()
    later: list[str] = []

    async def late(execution: ToolExecution, next: Next) -> PreDecision:
        later.append(execution.name)
        return await next()

    registry.pre_execute(answering(Deny("first says no")))
    registry.pre_execute(late)
    assert message_of(await execute(registry, call())) == "first says no"
    assert later == []


async def test_a_throwing_pre_execute_settles_the_call_without_post_execute() -> None:
    registry, ran = counting_registry()

    async def broken(execution: ToolExecution, next: Next) -> PreDecision:
        raise RuntimeError("policy crashed")

    recorder = RecordingListener()
    recorder.install(registry)
    registry.pre_execute(broken)
    result = await execute(registry, call())
    assert message_of(result) == "policy crashed"
    assert ran == []
    assert recorder.kinds() == ["pre_execute", "result"]


async def test_structured_info_from_an_error_raised_by_pre_execute_is_kept() -> None:
    class PolicyDown(ToolError):
        code = "POLICY_DOWN"

    registry, _ran = counting_registry()

    async def broken(execution: ToolExecution, next: Next) -> PreDecision:
        raise PolicyDown("the policy service is unreachable")

    registry.pre_execute(broken)
    result = await execute(registry, call())
    assert failed(result).error.info == ErrorInfo(name="PolicyDown", code="POLICY_DOWN")


async def test_a_pre_execute_listener_returning_no_decision_gives_an_error_result() -> None:
    registry, ran = counting_registry()

    async def sloppy(execution: ToolExecution, next: Next) -> Any:
        return "yes"

    registry.pre_execute(sloppy)
    assert message_of(await execute(registry, call())) == (
        "a pre_execute listener returned 'yes'; "
        "return Allow(), Deny(reason), Ask(reason) or await next()"
    )
    assert ran == []


async def test_a_synchronous_pre_execute_listener_gives_an_error_result() -> None:
    registry, ran = counting_registry()
    registry.pre_execute(lambda execution, next: Allow())
    assert message_of(await execute(registry, call())) == (
        "a pre_execute listener must be async (return an awaitable), but it returned Allow()"
    )
    assert ran == []


# --- approval ------------------------------------------------------------------------------


async def test_ask_without_an_approval_service_is_denied_with_the_default_message() -> None:
    registry, ran = counting_registry()
    registry.pre_execute(answering(Ask()))
    result = await execute(registry, call(agent=Agent("a")))
    assert message_of(result) == 'tool "echo" requires approval (not yet supported)'
    assert code_of(result) is None
    assert ran == []


async def test_ask_with_a_reason_and_no_approval_service_is_denied_with_that_reason() -> None:
    registry, _ran = counting_registry()
    registry.pre_execute(answering(Ask("deleting files needs a human")))
    assert message_of(await execute(registry, call(agent=Agent("a")))) == (
        "deleting files needs a human"
    )


async def test_an_approval_allowed_once_dispatches_the_call() -> None:
    registry, ran = counting_registry()
    approver = StaticApprover("allowed-once")
    registry.hooks.approver = approver
    registry.pre_execute(answering(Ask("writes to disk")))
    agent = Agent("a")
    assert success(await execute(registry, call(agent=agent)))
    assert len(ran) == 1
    assert [(e.name, e.agent, reason) for e, reason in approver.requests] == [
        ("echo", agent, "writes to disk")
    ]


@pytest.mark.parametrize(
    ("outcome", "message"),
    [
        ("rejected", 'the user rejected tool "echo"'),
        ("cancelled", 'approval for tool "echo" was cancelled'),
        ("unavailable", 'tool "echo" requires approval, but no approval channel is available'),
    ],
)
async def test_an_approval_that_is_not_granted_denies_with_its_reason(
    outcome: ApprovalOutcome, message: str
) -> None:
    registry, ran = counting_registry()
    registry.hooks.approver = StaticApprover(outcome)
    registry.pre_execute(answering(Ask()))
    result = await execute(registry, call(agent=Agent("a")))
    assert message_of(result) == message
    assert ran == []


async def test_an_agent_less_call_that_asks_is_denied() -> None:
    registry, ran = counting_registry()
    approver = StaticApprover()
    registry.hooks.approver = approver
    registry.pre_execute(answering(Ask()))
    assert message_of(await execute(registry, call())) == (
        'tool "echo" requires approval, but the call has no agent to route it through'
    )
    assert approver.requests == []
    assert ran == []


async def test_a_rogue_approval_outcome_gives_an_error_result() -> None:
    async def rogue(execution: ToolExecution, reason: str | None) -> Any:
        return "allowed-forever"

    registry, ran = counting_registry()
    registry.hooks.approver = rogue
    registry.pre_execute(answering(Ask()))
    assert message_of(await execute(registry, call(agent=Agent("a")))) == (
        "the approver answered 'allowed-forever' for tool 'echo'; "
        'expected "allowed-once", "rejected", "cancelled" or "unavailable"'
    )
    assert ran == []


async def test_a_throwing_approval_service_gives_an_error_result() -> None:
    async def broken(execution: ToolExecution, reason: str | None) -> ApprovalOutcome:
        raise ConnectionError("approval UI went away")

    registry, ran = counting_registry()
    registry.hooks.approver = broken
    registry.pre_execute(answering(Ask()))
    assert message_of(await execute(registry, call(agent=Agent("a")))) == "approval UI went away"
    assert ran == []


async def test_cancellation_that_overtakes_approval_gives_aborted_before_dispatch() -> None:
    asked = anyio.Event()
    approver_cancelled = False

    async def slow(execution: ToolExecution, reason: str | None) -> ApprovalOutcome:
        nonlocal approver_cancelled
        asked.set()
        try:
            await anyio.Event().wait()
        except anyio.get_cancelled_exc_class():
            approver_cancelled = True
            raise
        return "allowed-once"

    registry, ran = counting_registry()
    registry.hooks.approver = slow
    registry.pre_execute(answering(Ask()))
    signal = AbortSignal()
    results: list[ToolResult] = []

    async def run() -> None:
        results.append(await execute(registry, call(agent=Agent("a"), signal=signal)))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await asked.wait()
            signal.abort("user left")
    assert code_of(results[0]) == "ABORTED_BEFORE_DISPATCH"
    assert message_of(results[0]) == "tool call aborted before dispatch"
    assert approver_cancelled
    assert ran == []


async def test_an_approver_given_as_a_registry_attribute_wins_over_the_hooks_one() -> None:
    class WithApprover:
        def __init__(self, inner: Registry, approver: StaticApprover) -> None:
            self.hooks = inner.hooks
            self.approver = approver
            self._inner = inner

        def _visible(self, agent: Any) -> Any:
            return self._inner._visible(agent)

        def mode_of(self, agent: Any) -> str:
            return self._inner.mode_of(agent)

    registry, ran = counting_registry()
    registry.hooks.approver = StaticApprover("rejected")
    registry.pre_execute(answering(Ask()))
    wrapped = WithApprover(registry, StaticApprover("allowed-once"))
    assert success(await execute(wrapped, call(agent=Agent("a"))))
    assert len(ran) == 1


# --- guards --------------------------------------------------------------------------------


async def test_a_guard_reason_denies_the_call() -> None:
    registry, ran = counting_registry()
    registry.guard(lambda execution: "guarded: no echo today")
    assert message_of(await execute(registry, call())) == "guarded: no echo today"
    assert ran == []


async def test_a_guard_returning_an_empty_reason_still_denies() -> None:
    # Only None leaves a call allowed: an empty string is a denial without a
    # reason, reported with a default one.
    registry, ran = counting_registry()
    registry.guard(lambda execution: "")
    assert message_of(await execute(registry, call())) == 'tool "echo" was denied by a guard'
    assert ran == []


async def test_a_guard_returning_none_leaves_the_call_allowed() -> None:
    registry, ran = counting_registry()
    registry.guard(lambda execution: None)
    assert success(await execute(registry, call()))
    assert len(ran) == 1


async def test_guards_are_monotonic_a_later_allow_cannot_undo_a_guard_denial() -> None:
    registry, ran = counting_registry()
    registry.guard(lambda execution: "denied by the first guard")
    registry.guard(lambda execution: None)
    registry.pre_execute(answering(Allow()))
    assert message_of(await execute(registry, call())) == "denied by the first guard"
    assert ran == []


async def test_guards_run_after_the_pre_execute_waterfall() -> None:
    order: list[str] = []
    registry, _ran = counting_registry()

    def guard(execution: ToolExecution) -> None:
        order.append("guard")

    async def pre(execution: ToolExecution, next: Next) -> PreDecision:
        order.append("pre")
        return await next()

    registry.guard(guard)
    registry.pre_execute(pre)
    await execute(registry, call())
    assert order == ["pre", "guard"]


async def test_guards_do_not_run_for_a_denied_call() -> None:
    registry, _ran = counting_registry()
    seen: list[str] = []
    registry.pre_execute(answering(Deny("no")))
    registry.guard(lambda execution: seen.append(execution.name))
    await execute(registry, call())
    assert seen == []


async def test_a_throwing_guard_gives_an_error_result() -> None:
    def guard(execution: ToolExecution) -> str | None:
        raise ValueError("guard bug")

    registry, ran = counting_registry()
    registry.guard(guard)
    assert message_of(await execute(registry, call())) == "guard bug"
    assert ran == []


async def test_a_guard_returning_something_other_than_a_reason_gives_an_error_result() -> None:
    registry, ran = counting_registry()
    registry.guard(lambda execution: True)
    assert message_of(await execute(registry, call())) == (
        "a guard returned True for tool 'echo'; guards return a denial reason (str) or None"
    )
    assert ran == []


async def test_an_async_guard_is_refused_without_leaking_its_coroutine() -> None:
    async def guard(execution: ToolExecution) -> None:
        return None

    registry, ran = counting_registry()
    registry.guard(guard)
    assert message_of(await execute(registry, call())) == (
        "a guard must be synchronous, but it returned an awaitable"
    )
    assert ran == []


# --- scoped listeners ----------------------------------------------------------------------


async def test_a_scoped_pre_execute_listener_sees_only_its_agents_calls() -> None:
    mine, other = Agent("mine"), Agent("other")
    registry, _ran = counting_registry()
    seen: list[Agent | None] = []

    async def listener(execution: ToolExecution, next: Next) -> PreDecision:
        seen.append(execution.agent)
        return await next()

    registry.pre_execute(listener, mine)
    await execute(registry, call(agent=mine))
    await execute(registry, call(agent=other))
    await execute(registry, call())
    assert seen == [mine]


async def test_a_scoped_listener_also_sees_agents_nested_under_its_agent() -> None:
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    registry, _ran = counting_registry()
    seen: list[Agent | None] = []
    registry.guard(lambda execution: seen.append(execution.agent), preset)
    await execute(registry, call(agent=member))
    await execute(registry, call(agent=Agent("outsider")))
    assert seen == [member]


async def test_a_scoped_guard_denies_only_its_agents_calls() -> None:
    mine = Agent("mine")
    registry, ran = counting_registry()
    registry.guard(lambda execution: "not for mine", mine)
    assert message_of(await execute(registry, call(agent=mine))) == "not for mine"
    assert success(await execute(registry, call(agent=Agent("other"))))
    assert len(ran) == 1


async def test_a_disposed_listener_no_longer_runs() -> None:
    registry, ran = counting_registry()
    dispose = registry.guard(lambda execution: "denied")
    dispose()
    assert success(await execute(registry, call()))
    assert len(ran) == 1


# --- the code-mode collapse ----------------------------------------------------------------


async def test_a_direct_native_call_in_code_mode_gives_unknown_tool_with_the_route() -> None:
    registry, ran = counting_registry(mode="code")
    recorder = RecordingListener()
    recorder.install(registry)
    result = await execute(registry, call())
    assert code_of(result) == "UNKNOWN_TOOL"
    assert message_of(result) == (
        'unknown tool "echo": only `run_code` is callable directly — '
        "call `echo` from inside a `run_code` program instead"
    )
    assert ran == []
    assert recorder.kinds() == ["result"]


async def test_the_collapse_happens_before_any_policy_so_nothing_can_approve_it() -> None:
    registry, ran = counting_registry(mode="code")
    approver = StaticApprover()
    registry.hooks.approver = approver
    registry.pre_execute(answering(Ask()))
    assert code_of(await execute(registry, call(agent=Agent("a")))) == "UNKNOWN_TOOL"
    assert approver.requests == []
    assert ran == []


async def test_a_collapsed_call_drops_the_tools_finalize_content() -> None:
    finalized: list[ToolResult] = []

    def finalize(execution: ToolExecution, result: ToolResult) -> list[TextBlock]:
        finalized.append(result)
        return [TextBlock(text="finalized")]

    registry = Registry(mode="code")
    registry.register(make_tool(finalize_content=finalize))
    assert code_of(await execute(registry, call())) == "UNKNOWN_TOOL"
    assert finalized == []


async def test_a_pre_aborted_collapsed_call_gives_aborted_before_dispatch() -> None:
    registry, _ran = counting_registry(mode="code")
    result = await execute(registry, call(signal=AbortSignal.aborted_with("gone")))
    assert code_of(result) == "ABORTED_BEFORE_DISPATCH"


async def test_a_nested_call_in_code_mode_runs_the_native_tool() -> None:
    registry, ran = counting_registry(mode="code")
    assert success(await execute(registry, call(parent=ExecutionToken())))
    assert len(ran) == 1


async def test_a_direct_call_in_both_mode_runs_the_native_tool() -> None:
    registry, ran = counting_registry(mode="both")
    assert success(await execute(registry, call()))
    assert len(ran) == 1


async def test_an_invisible_name_in_code_mode_takes_the_ordinary_path() -> None:
    registry, _ran = counting_registry(mode="code")
    recorder = RecordingListener()
    recorder.install(registry)
    result = await execute(registry, call("ghost"))
    assert message_of(result) == 'unknown tool "ghost"'
    assert recorder.kinds() == ["pre_execute", "guard", "around", "post_execute", "result"]


async def test_the_collapse_follows_the_mode_declared_for_the_calling_agent() -> None:
    coder, plain = Agent("coder"), Agent("plain")
    registry, ran = counting_registry()
    registry.present_as(coder, "code")
    assert code_of(await execute(registry, call(agent=coder))) == "UNKNOWN_TOOL"
    assert success(await execute(registry, call(agent=plain)))
    assert len(ran) == 1


def test_a_static_approver_refuses_an_unknown_outcome() -> None:
    with pytest.raises(
        ValueError,
        match=(
            r'^outcome must be "allowed-once", "rejected", "cancelled" or "unavailable", '
            r"got outcome='yes'$"
        ),
    ):
        StaticApprover("yes")  # type: ignore[arg-type]
