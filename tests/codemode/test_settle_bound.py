"""Foreign exceptions and self-cancelling tools cannot take a call's outcome or settle away.

RELIABILITY.md invariant 2: every started sub-call has exactly one settle
event. These are the host-side paths that once broke it:

* classifying a foreign exception runs no foreign code and never raises
  (a ``__class__`` property that raises, hostile group members);
* a tool that cancels (or uncancels) its own task is that call's failure,
  not a cancellation of the host;
* a group mixing the real cancellation with failures still settles;
* ``run_turn`` answers every call with a result, also when another turn on
  the same log took a call's id after the up-front check;
* the log refuses a stray ``tool/result``, reports and closes the starts a
  root's ``tool/result`` left unsettled.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode import (
    AbortSignal,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    LogInvariantError,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    run_turn,
)
from codemode._cancellation import is_cancellation, split_cancellation
from codemode._log._replay import InvariantCheck, replay
from codemode._results import TextBlock
from tests.codemode.test_code_mode_support import AGENT, make_tool, registry_with

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

DEADLOCK_SECONDS = 30.0


class Evil(Exception):
    """An exception whose ``__class__`` raises it: isinstance would run it."""

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        raise self


class EvilBase(BaseException):
    """The same, outside ``Exception`` (armed once built: a group's constructor checks it)."""

    armed = False

    @property  # type: ignore[misc]
    def __class__(self) -> Any:
        if EvilBase.armed:
            raise self
        return EvilBase


class EvilGroup(BaseExceptionGroup[BaseException]):
    """A group whose ``exceptions`` property raises."""

    @property
    def exceptions(self) -> Any:
        raise RuntimeError("exceptions read")


def kinds(log: SessionLog) -> list[tuple[str, str]]:
    out = []
    for event in log.events():
        if isinstance(event, ToolCallEvent | ToolResultEvent):
            out.append((type(event).__name__, event.call_id))
        elif isinstance(event, CodeDispatchStartEvent | CodeDispatchEvent):
            out.append((type(event).__name__, event.sub_call_id))
    return out


def calls(*ids: str, name: str = "t") -> list[ModelToolCall]:
    return [ModelToolCall(call_id=i, name=name, arguments="{}") for i in ids]


# -- the classifier is total and runs no foreign code -----------------------------------


_LEAVES: dict[str, Callable[[], BaseException]] = {
    "value": lambda: ValueError("v"),
    "fake-cancel": lambda: asyncio.CancelledError("fake"),
    "evil": lambda: Evil("e"),
    "evil-base": lambda: EvilBase("b"),
    "exit": lambda: SystemExit(3),
    "interrupt": lambda: KeyboardInterrupt(),
    "evil-group": lambda: EvilGroup("g", [ValueError("x")]),
}

# Recipes, built into exceptions inside the test: hypothesis itself would
# call isinstance on a drawn hostile exception.
recipes = st.recursive(
    st.sampled_from(sorted(_LEAVES)),
    lambda children: st.lists(children, min_size=1, max_size=4),
    max_leaves=12,
)


class Group(BaseExceptionGroup[BaseException]):
    """A plain group subclass (built before the hostile members are armed)."""


def _build(recipe: Any) -> BaseException:
    if isinstance(recipe, str):
        return _LEAVES[recipe]()
    return Group("g", [_build(item) for item in recipe])


@contextlib.contextmanager
def built(recipe: Any) -> Iterator[BaseException]:
    EvilBase.armed = False
    exc = _build(recipe)
    EvilBase.armed = True
    try:
        yield exc
    finally:
        EvilBase.armed = False


@settings(max_examples=200, deadline=None)
@given(recipes)
def test_classifying_any_foreign_exception_never_raises_and_outside_a_cancellation_is_none(
    recipe: Any,
) -> None:
    with built(recipe) as exc:
        # No task is being cancelled here: nothing is a cancellation, and nothing raises.
        assert is_cancellation(exc) is False
        cancellation, failure = split_cancellation(exc, lambda: False)
    assert cancellation is None
    assert failure is exc


@settings(max_examples=200, deadline=None)
@given(recipes)
def test_while_the_host_asked_a_cancellation_is_found_only_among_real_cancelled_errors(
    recipe: Any,
) -> None:
    with built(recipe) as exc:
        cancellation, failure = split_cancellation(exc, lambda: True)
    if cancellation is not None:
        assert type(cancellation) is asyncio.CancelledError
    else:
        assert failure is exc


async def test_a_tool_raising_an_exception_whose_class_raises_fails_only_that_call() -> None:
    async def evil(args: Any, ctx: Any) -> Any:
        raise Evil("boom")

    registry = registry_with(make_tool("t", body=evil), make_tool("echo"), mode="native")
    log = SessionLog(MemoryStore())
    with anyio.fail_after(DEADLOCK_SECONDS):
        results = await run_turn(
            registry, [*calls("c1"), *calls("c2", name="echo")],
            agent=AGENT, signal=AbortSignal(), log=log, turn=1,
        )
    assert [r.is_error for r in results] == [True, False]
    assert kinds(log) == [
        ("ToolCallEvent", "c1"), ("ToolResultEvent", "c1"),
        ("ToolCallEvent", "c2"), ("ToolResultEvent", "c2"),
    ]


# -- a tool cancelling or uncancelling its own task --------------------------------


async def _cancel_reraise(args: Any, ctx: Any) -> Any:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    await asyncio.sleep(0)
    return "unreachable"


async def _cancel_nothing(args: Any, ctx: Any) -> Any:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()  # requested, never awaited inside the tool
    return "requested"


async def _cancel_swallow(args: Any, ctx: Any) -> Any:
    task = asyncio.current_task()
    assert task is not None
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await asyncio.sleep(0)
    return "swallowed"


@pytest.mark.parametrize(
    ("body", "is_error"),
    [(_cancel_reraise, True), (_cancel_nothing, False), (_cancel_swallow, False)],
)
async def test_a_tool_cancelling_its_own_task_is_that_calls_outcome_and_the_turn_goes_on(
    body: Any, is_error: bool
) -> None:
    registry = registry_with(make_tool("t", body=body), make_tool("echo"), mode="native")
    log = SessionLog(MemoryStore())
    with anyio.fail_after(DEADLOCK_SECONDS):
        results = await run_turn(
            registry, [*calls("c1"), *calls("e0", "e1", name="echo")],
            agent=AGENT, signal=AbortSignal(), log=log, turn=1,
        )
    assert [r.is_error for r in results] == [is_error, False, False]
    assert kinds(log) == [
        ("ToolCallEvent", "c1"), ("ToolResultEvent", "c1"),
        ("ToolCallEvent", "e0"), ("ToolResultEvent", "e0"),
        ("ToolCallEvent", "e1"), ("ToolResultEvent", "e1"),
    ]
    task = asyncio.current_task()
    assert task is not None
    assert task.cancelling() == 0


async def test_a_real_cancellation_of_the_turn_is_not_withdrawn_by_a_tool_that_uncancels() -> None:
    entered = asyncio.Event()

    async def uncancels(args: Any, ctx: Any) -> Any:
        entered.set()
        try:
            await asyncio.Event().wait()
        finally:
            task = asyncio.current_task()
            assert task is not None
            while task.cancelling():
                task.uncancel()
        return "x"

    registry = registry_with(make_tool("t", body=uncancels), mode="native")
    log = SessionLog(MemoryStore())
    turn = asyncio.ensure_future(
        run_turn(registry, calls("c1"), agent=AGENT, signal=AbortSignal(), log=log, turn=1)
    )
    await entered.wait()
    turn.cancel()
    with anyio.fail_after(DEADLOCK_SECONDS), pytest.raises(asyncio.CancelledError):
        await turn


# -- run_turn answers every call ------------------------------------------------


async def test_a_call_whose_id_another_turn_took_since_the_check_is_that_calls_error() -> None:
    # Turn 1 holds "Z" open; turn 2 passed its up-front check before Z was opened.
    z_open = asyncio.Event()
    release = asyncio.Event()
    w_running = asyncio.Event()

    async def hold(args: Any, ctx: Any) -> Any:
        z_open.set()
        await release.wait()
        return "held"

    async def w_body(args: Any, ctx: Any) -> Any:
        w_running.set()
        await z_open.wait()  # turn 1 opens Z while w runs: after turn 2's check
        return "w"

    registry = registry_with(
        make_tool("hold", body=hold), make_tool("w", body=w_body), make_tool("echo"),
        mode="native",
    )
    log = SessionLog(MemoryStore())
    signal = AbortSignal()
    turn2 = asyncio.ensure_future(run_turn(
        registry,
        [ModelToolCall(call_id="w", name="w", arguments="{}"),
         ModelToolCall(call_id="Z", name="echo", arguments="{}")],
        agent=AGENT, signal=signal, log=log, turn=2,
    ))
    await w_running.wait()
    turn1 = asyncio.ensure_future(run_turn(
        registry, [ModelToolCall(call_id="Z", name="hold", arguments="{}")],
        agent=AGENT, signal=signal, log=log, turn=1,
    ))
    with anyio.fail_after(DEADLOCK_SECONDS):
        second = await turn2
        release.set()
        first = await turn1
    assert [r.is_error for r in first] == [False]
    assert [r.is_error for r in second] == [False, True]
    assert "was not run" in second[1].content[0].text  # type: ignore[union-attr]
    # Nothing was logged for turn 2's Z, and every logged call is answered.
    assert kinds(log) == [
        ("ToolCallEvent", "w"), ("ToolCallEvent", "Z"), ("ToolResultEvent", "w"),
        ("ToolResultEvent", "Z"),
    ]


# -- the log: stray results, unsettled starts --------------------------------------------------


def _call(call_id: str) -> ToolCallEvent:
    return ToolCallEvent(turn=1, step=0, call_id=call_id, name="run_code", arguments="{}")


def _result(call_id: str) -> ToolResultEvent:
    return ToolResultEvent(
        turn=1, step=0, call_id=call_id, name="run_code", is_error=False,
        content=(TextBlock(text="done"),),
    )


def _start(sub: str, root: str = "A") -> CodeDispatchStartEvent:
    return CodeDispatchStartEvent(
        root_call_id=root, parent_call_id=root, sub_call_id=sub, name="t", arguments={}
    )


def _settle(sub: str, root: str = "A") -> CodeDispatchEvent:
    return CodeDispatchEvent(
        root_call_id=root, parent_call_id=root, sub_call_id=sub, name="t", arguments={},
        is_error=False, content=(TextBlock(text="ok"),),
    )


@pytest.mark.parametrize("call_id", ["A:code:1", "nobody"])
def test_a_tool_result_for_anything_but_an_open_root_call_is_refused(call_id: str) -> None:
    log = SessionLog(MemoryStore())
    log.append(_call("A"))
    log.append(_start("A:code:1"))
    with pytest.raises(LogInvariantError, match="a tool/result answers an open root call"):
        log.append(_result(call_id))
    assert len(log.events()) == 2


def test_a_settle_after_its_roots_result_is_still_refused_to_a_live_writer() -> None:
    log = SessionLog(MemoryStore())
    for event in (_call("A"), _start("A:code:1"), _result("A")):
        log.append(event)
    with pytest.raises(LogInvariantError, match="is not open in this log"):
        log.append(_settle("A:code:1"))


def test_starts_a_roots_result_left_unsettled_are_reported_and_closed_on_reopening() -> None:
    # A history an older writer left (the log now settles such starts itself
    # before the result is appended): written to the store directly.
    store = MemoryStore()
    for event in (_call("A"), _start("A:code:1"), _start("A:code:2"), _settle("A:code:2"),
                  _result("A")):
        store.append(event)
    check = InvariantCheck()
    list(check.passing(store.read()))
    assert (check.problems, check.unsettled, check.first) == (1, 1, None)
    assert "A:code:1" in check.summary()
    assert "closes the unsettled" in check.summary()
    reopened = SessionLog(store)
    closing = reopened.events()[5:]
    assert [(type(e).__name__, getattr(e, "sub_call_id", None)) for e in closing] == [
        ("CodeDispatchEvent", "A:code:1")]
    (root,) = replay(reopened.events())
    # Nothing stays pending: the abandoned start is an error now.
    assert [(c.call_id, c.is_error) for c in root.children] == [
        ("A:code:1", True), ("A:code:2", False)]
    # The closing settle is admitted by the history's rules (the result still
    # came first, and is still reported).
    again = InvariantCheck()
    list(again.passing(reopened.events()))
    assert (again.first, again.unsettled) == (None, 1)
    # A reopened log opens again, with nothing left to close.
    assert len(SessionLog(store).events()) == 6
