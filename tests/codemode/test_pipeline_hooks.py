"""The hook store: kinds, ordering, disposal, the scope filter and the dispatch-log waterfall."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from codemode._hooks import HOOK_KINDS, Hooks
from codemode._results import ContentBlock, TextBlock
from codemode._scope import Agent
from codemode._timeout import enforce_timeout
from codemode.testing import RecordingListener

NextContent = Callable[[], Awaitable[Sequence[ContentBlock]]]


def noop(*args: object) -> None:
    return None


@dataclass(frozen=True)
class Settled:
    """A stand-in for a settled sub-call: what the waterfall reads."""

    agent: Agent | None
    content: tuple[ContentBlock, ...]


def test_a_fresh_store_holds_only_the_timeout_wrapper() -> None:
    hooks = Hooks()
    assert hooks.listeners("around", None) == (enforce_timeout,)
    assert all(hooks.listeners(kind, None) == () for kind in HOOK_KINDS if kind != "around")


def test_an_unknown_kind_is_refused_with_the_known_ones() -> None:
    with pytest.raises(
        ValueError,
        match=r"^unknown hook kind='pre'; expected one of: pre_execute, guard, around, "
        r"post_execute, result, code_dispatch_log$",
    ):
        Hooks().add("pre", noop)  # type: ignore[arg-type]


def test_a_listener_that_is_not_callable_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^a guard listener must be callable, got fn='no'$"):
        Hooks().add("guard", "no")  # type: ignore[arg-type]


def test_an_approver_that_is_not_callable_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^approver must be callable, got approver=3$"):
        Hooks(approver=3)  # type: ignore[arg-type]


def test_listeners_run_in_the_order_they_were_added() -> None:
    hooks = Hooks(timeouts=False)

    def a(*args: object) -> None: ...
    def b(*args: object) -> None: ...

    hooks.add("guard", a)
    hooks.add("guard", b, Agent("x"))
    agent = Agent("x")
    hooks.add("guard", noop, agent)
    assert hooks.listeners("guard", agent) == (a, noop)


def test_first_puts_a_listener_in_front_of_the_others() -> None:
    hooks = Hooks(timeouts=False)

    def a(*args: object) -> None: ...
    def b(*args: object) -> None: ...

    hooks.add("post_execute", a)
    hooks.add("post_execute", b, first=True)
    assert hooks.listeners("post_execute", None) == (b, a)


def test_disposing_twice_removes_only_that_listener() -> None:
    hooks = Hooks(timeouts=False)

    def a(*args: object) -> None: ...

    dispose = hooks.add("result", a)
    hooks.add("result", noop)
    dispose()
    dispose()
    assert hooks.listeners("result", None) == (noop,)


def test_a_snapshot_of_listeners_is_not_changed_by_later_additions() -> None:
    hooks = Hooks(timeouts=False)
    hooks.add("guard", noop)
    snapshot = hooks.listeners("guard", None)
    hooks.add("guard", print)
    assert snapshot == (noop,)


def test_a_scoped_listener_sees_its_agent_and_agents_nested_under_it_only() -> None:
    preset = Agent("preset")
    member = Agent("member", parent=preset)
    deeper = Agent("deeper", parent=member)
    hooks = Hooks(timeouts=False)
    hooks.add("guard", noop, member)
    assert hooks.listeners("guard", member) == (noop,)
    assert hooks.listeners("guard", deeper) == (noop,)
    assert hooks.listeners("guard", preset) == ()
    assert hooks.listeners("guard", Agent("member")) == ()
    assert hooks.listeners("guard", None) == ()


def test_a_global_listener_sees_every_call() -> None:
    hooks = Hooks(timeouts=False)
    hooks.add("guard", noop)
    assert hooks.listeners("guard", None) == (noop,)
    assert hooks.listeners("guard", Agent("any")) == (noop,)


async def test_the_dispatch_log_waterfall_keeps_the_content_without_listeners() -> None:
    content = (TextBlock(text="full"),)
    assert await Hooks().run_code_dispatch_log(Settled(None, content)) == content


async def test_dispatch_log_listeners_compose_and_reshape_only_what_they_return() -> None:
    hooks = Hooks()

    async def outer(dispatch: Settled, next: NextContent) -> Sequence[ContentBlock]:
        inner = await next()
        return [*inner, TextBlock(text="outer")]

    async def spill(dispatch: Settled, next: NextContent) -> Sequence[ContentBlock]:
        await next()
        return [TextBlock(text="preview")]

    hooks.add("code_dispatch_log", outer)
    hooks.add("code_dispatch_log", spill)
    settled = Settled(None, (TextBlock(text="a very long text"),))
    assert await hooks.run_code_dispatch_log(settled) == (
        TextBlock(text="preview"),
        TextBlock(text="outer"),
    )


async def test_a_scoped_dispatch_log_listener_sees_only_its_agents_sub_calls() -> None:
    mine = Agent("mine")
    hooks = Hooks()

    async def listener(dispatch: Settled, next: NextContent) -> Sequence[ContentBlock]:
        return [TextBlock(text="reshaped")]

    hooks.add("code_dispatch_log", listener, mine)
    content = (TextBlock(text="original"),)
    assert await hooks.run_code_dispatch_log(Settled(Agent("other"), content)) == content
    assert await hooks.run_code_dispatch_log(Settled(mine, content)) == (
        TextBlock(text="reshaped"),
    )


async def test_a_dispatch_log_listener_returning_no_blocks_raises_for_the_caller() -> None:
    hooks = Hooks()

    async def listener(dispatch: Settled, next: NextContent) -> Any:
        return "text"

    hooks.add("code_dispatch_log", listener)
    with pytest.raises(
        TypeError,
        match=r"^a code_dispatch_log listener must return a sequence of content blocks",
    ):
        await hooks.run_code_dispatch_log(Settled(None, ()))


async def test_the_recording_listener_records_dispatch_log_calls_and_keeps_the_content() -> None:
    @dataclass(frozen=True)
    class SettledWithOuter:
        execution: object
        agent: Agent | None
        content: tuple[ContentBlock, ...]

    class Host:
        hooks = Hooks()

    recorder = RecordingListener()
    dispose = recorder.install(Host())
    settled = SettledWithOuter("outer", None, (TextBlock(text="kept"),))
    assert await Host.hooks.run_code_dispatch_log(settled) == (TextBlock(text="kept"),)
    dispose()
    assert recorder.kinds() == ["code_dispatch_log"]
    assert recorder.calls[0].dispatch is settled
    assert len(Host.hooks) == 1
