"""The sub-dispatch bridge in process: refusals, numbering and the settle-log backpressure.

These tests drive :func:`dispatching` (what ``run_code`` wraps around a program)
directly from host tasks standing in for the program's calls, so that each event
can be ordered with synchronisation instead of a child process (reference §3.4,
§3.5, §3.7 and §9 points 1-3).
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeAlias

import anyio
import pytest
from anyio import wait_all_tasks_blocked
from anyio.lowlevel import checkpoint

from bridge.lossless import FrozenDict
from codemode import (
    AbortSignal,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ExecutionToken,
    MemoryStore,
    SessionLog,
    TextBlock,
    ToolCallEvent,
    ToolExecution,
    ToolRunContext,
)
from codemode._errors import QUOTA_EXCEEDED
from codemode._offload import sized
from codemode._scheduling import Scheduler
from codemode.code_mode import Quotas
from codemode.code_mode._dispatch import SETTLED, SubDispatcher, dispatching
from sandbox import ToolCallFailed

from .test_code_mode_support import AGENT, make_tool, registry_with

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Awaitable, Callable, Coroutine, Sequence

    from bridge.lossless import JsonValue
    from codemode import ContentBlock, Registry

GUARD = 10  # seconds; a guard against hangs, never a timing assertion

#: How a test makes one program call: ``await call(dispatcher, name, args)``.
Call: TypeAlias = "Callable[[SubDispatcher, str, JsonValue], Coroutine[Any, Any, JsonValue]]"


class FutureReply:
    """What the bridge hands ``start_call``: the answer lands in a future.

    As the bridge's reply does, it drops every answer after the first, and
    after the run ended (:meth:`end_run`, which calls the cancel callback).
    """

    def __init__(self) -> None:
        self.future: asyncio.Future[JsonValue] = asyncio.get_running_loop().create_future()
        self._cancel: Callable[[], object] | None = None

    def value(self, value: JsonValue) -> None:
        if not self.future.done():
            self.future.set_result(value)

    def failure(self, failure: ToolCallFailed) -> None:
        if not self.future.done():
            self.future.set_exception(failure)

    def crashed(self, exc: BaseException) -> None:
        if not self.future.done():
            self.future.set_exception(exc)

    def on_cancel(self, callback: Callable[[], object]) -> None:
        self._cancel = callback

    def end_run(self) -> None:
        answered = self.future.done() and not self.future.cancelled()
        self.future.cancel()
        if not answered and self._cancel is not None:
            self._cancel()


async def through_start_call(dispatcher: SubDispatcher, name: str, args: JsonValue) -> JsonValue:
    """A call as the bridge makes it of a handler with ``start_call``.

    A caller that stops waiting stands for the run ending before the answer.
    """
    reply = FutureReply()
    taken = dispatcher.start_call(name, args, reply)  # type: ignore[arg-type]
    assert taken, "small arguments are taken"
    try:
        return await reply.future
    except BaseException:
        reply.end_run()
        raise


async def through_call_tool(dispatcher: SubDispatcher, name: str, args: JsonValue) -> JsonValue:
    return await dispatcher.call_tool(name, args)


@pytest.fixture(params=["call_tool", "start_call"])
def call(request: pytest.FixtureRequest) -> Call:
    """Each test runs through both ways the bridge can hand the dispatcher a call."""
    return through_call_tool if request.param == "call_tool" else through_start_call


def outer_context(signal: AbortSignal, *, call_id: str = "outer") -> ToolRunContext:
    """The execution of the ``run_code`` call the dispatcher serves."""
    execution = ToolExecution(
        call_id=call_id,
        root_call_id=call_id,
        name="run_code",
        arguments=FrozenDict(),
        agent=AGENT,
        parent=None,
        token=ExecutionToken(),
        signal=signal,
    )
    return ToolRunContext(execution, signal)


def open_log(call_id: str = "outer") -> SessionLog:
    """A session log in which the outer call is open (its ``tool/call`` is logged)."""
    log = SessionLog(MemoryStore())
    log.append(ToolCallEvent(turn=1, step=0, call_id=call_id, name="run_code", arguments="{}"))
    return log


@asynccontextmanager
async def serving(
    registry: Registry,
    *,
    signal: AbortSignal | None = None,
    log: SessionLog | None = None,
    quotas: Quotas | None = None,
) -> AsyncIterator[SubDispatcher]:
    outer = outer_context(signal if signal is not None else AbortSignal())
    with anyio.fail_after(GUARD):
        async with dispatching(
            registry=registry, outer=outer, log=log, quotas=quotas or Quotas()
        ) as dispatcher:
            yield dispatcher


def started_ids(log: SessionLog) -> list[str]:
    return [e.sub_call_id for e in log.events() if isinstance(e, CodeDispatchStartEvent)]


def settled_ids(log: SessionLog) -> list[str]:
    return [e.sub_call_id for e in log.events() if isinstance(e, CodeDispatchEvent)]


def recording(seen: list[str]) -> Callable[[Any, Any], Awaitable[Any]]:
    async def listener(execution: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
        seen.append(execution.call_id)
        return await proceed()

    return listener


# -- refused calls use no number ------------------------------------------------------------


async def test_a_call_after_the_outer_abort_is_not_dispatched_and_uses_no_number(
    call: Call,
) -> None:
    reached: list[str] = []
    registry = registry_with(make_tool("t"))
    registry.pre_execute(recording(reached))
    signal = AbortSignal()
    log = open_log()
    async with serving(registry, signal=signal, log=log) as dispatcher:
        signal.abort("user pressed stop")
        with pytest.raises(
            ToolCallFailed,
            match=r"^run_code run is over \(user pressed stop\); t not dispatched$",
        ):
            await call(dispatcher, "t", {})
    assert reached == []
    assert started_ids(log) == []
    assert dispatcher.records == []


async def test_a_call_after_the_run_settled_is_refused_without_a_number(call: Call) -> None:
    reached: list[str] = []
    registry = registry_with(make_tool("t"))
    registry.pre_execute(recording(reached))
    async with serving(registry) as dispatcher:
        await call(dispatcher, "t", {})
    with pytest.raises(
        ToolCallFailed, match=rf"^run_code run is over \({SETTLED}\); t not dispatched$"
    ):
        await call(dispatcher, "t", {})
    assert reached == ["outer:code:1"]


async def test_a_call_in_flight_when_the_outer_call_is_aborted_gets_no_result(call: Call) -> None:
    entered = anyio.Event()

    async def finishes_anyway(args: Any, ctx: ToolRunContext) -> Any:
        entered.set()
        await ctx.signal.wait()
        return "finished anyway"

    registry = registry_with(make_tool("slow", body=finishes_anyway))
    signal = AbortSignal()
    failures: list[str] = []
    async with serving(registry, signal=signal) as dispatcher, anyio.create_task_group() as tg:

        async def slow() -> None:
            try:
                await call(dispatcher, "slow", {})
            except ToolCallFailed as exc:
                failures.append(str(exc))

        tg.start_soon(slow)
        await entered.wait()
        signal.abort("user pressed stop")
    assert failures == ["run_code run is over (user pressed stop); slow result discarded"]


async def test_a_call_refused_by_a_quota_uses_no_number(call: Call) -> None:
    log = open_log()
    registry = registry_with(make_tool("a"), make_tool("b"))
    async with serving(registry, log=log, quotas=Quotas(per_tool={"a": 1})) as dispatcher:
        await call(dispatcher, "a", {})
        with pytest.raises(ToolCallFailed) as refused:
            await call(dispatcher, "a", {})
        await call(dispatcher, "b", {})
    assert refused.value.code == QUOTA_EXCEEDED
    assert started_ids(log) == ["outer:code:1", "outer:code:2"]
    assert [(r.id, r.name) for r in dispatcher.records] == [
        ("outer:code:1", "a"), ("outer:code:2", "b"),
    ]


async def test_lossy_arguments_from_a_forged_child_dispatch_nothing_and_use_no_number(
    call: Call,
) -> None:
    # The child's SDK refuses such arguments itself; a forged child sends them
    # anyway. As the reference has it (its section 3, point 4), the refusal
    # carries no code: INVALID_ARGS is a schema's verdict on JSON arguments.
    log = open_log()
    registry = registry_with(make_tool("a"))
    async with serving(registry, log=log) as dispatcher:
        with pytest.raises(ToolCallFailed) as refused:
            await call(dispatcher, "a", {"n": 2**53 + 1})
        await call(dispatcher, "a", {})
    assert refused.value.code is None
    assert str(refused.value) == (
        "tool arguments must be lossless JSON: integer 9007199254740993 cannot be represented "
        "exactly as a JSON number (beyond 2**53); send it as a string - at `$.n`"
    )
    assert started_ids(log) == ["outer:code:1"]


async def test_a_call_abandoned_in_the_queue_keeps_its_number(call: Call) -> None:
    # Numbers are given when a call is submitted, not when it starts: a call
    # withdrawn from the queue leaves a gap, and nothing is logged for it.
    release = anyio.Event()
    ran: list[str] = []

    async def holds(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        await release.wait()
        return None

    async def quick(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        return None

    log = open_log()
    registry = registry_with(make_tool("hold", body=holds), make_tool("quick", body=quick))
    abandoned: list[BaseException] = []
    async with serving(registry, log=log) as dispatcher, anyio.create_task_group() as tg:
        tg.start_soon(call, dispatcher, "hold", {})
        await wait_all_tasks_blocked()
        assert ran == ["outer:code:1"]
        with anyio.CancelScope() as withdrawn:
            # Queued behind the exclusive call, then its submitter goes away.
            withdrawn.cancel()
            try:
                await call(dispatcher, "quick", {})
            except anyio.get_cancelled_exc_class() as exc:
                abandoned.append(exc)
                raise
        tg.start_soon(call, dispatcher, "quick", {})
        await wait_all_tasks_blocked()
        release.set()
    assert len(abandoned) == 1
    assert ran == ["outer:code:1", "outer:code:3"]
    assert started_ids(log) == ["outer:code:1", "outer:code:3"]
    assert settled_ids(log) == ["outer:code:1", "outer:code:3"]


async def test_calls_queued_when_the_run_settles_are_abandoned_and_log_nothing(call: Call) -> None:
    release = anyio.Event()

    async def holds(args: Any, ctx: ToolRunContext) -> Any:
        await release.wait()
        return None

    log = open_log()
    registry = registry_with(make_tool("hold", body=holds), make_tool("quick"))
    failures: list[str] = []

    async def one(dispatcher: SubDispatcher, name: str) -> None:
        try:
            await call(dispatcher, name, {})
        except ToolCallFailed as exc:
            failures.append(str(exc))

    async with anyio.create_task_group() as tg, serving(registry, log=log) as dispatcher:
        tg.start_soon(one, dispatcher, "hold")
        await wait_all_tasks_blocked()
        tg.start_soon(one, dispatcher, "quick")
        await wait_all_tasks_blocked()
        # The program settles while "hold" runs and "quick" waits behind it.
        dispatcher.run_signal.abort(SETTLED)
        release.set()
    assert sorted(failures) == [
        f"run_code run is over ({SETTLED}); hold result discarded",
        f"run_code run is over ({SETTLED}); quick tool call abandoned",
    ]
    assert started_ids(log) == ["outer:code:1"]
    assert settled_ids(log) == ["outer:code:1"]


# -- start_call: answered from the scheduler's worker --------------------------------------


async def test_start_call_leaves_arguments_too_large_for_the_loop_to_call_tool() -> None:
    from codemode._offload import INLINE_NODES

    log = open_log()
    async with serving(registry_with(make_tool("t")), log=log) as dispatcher:
        reply = FutureReply()
        args: JsonValue = {"items": list(range(INLINE_NODES + 1))}
        assert dispatcher.start_call("t", args, reply) is False  # type: ignore[arg-type]
        # Declined before anything happened: no number, nothing logged.
        assert started_ids(log) == []
        # The bridge hands a declined call to call_tool, which copies its
        # arguments in a thread; it kept its place in call order.
        value: object = await dispatcher.call_tool("t", args)
        assert value == {"items": tuple(range(INLINE_NODES + 1))}
    assert started_ids(log) == ["outer:code:1"]


async def test_the_program_has_its_value_before_the_settle_event_is_appended() -> None:
    # The answer is given as the commit returns, in the worker's step; the
    # settle event is side work after it (reference §6).
    order: list[str] = []
    log = open_log()
    real_append = log.append

    def append(event: Any) -> Any:
        if isinstance(event, CodeDispatchEvent):
            order.append("settle event")
        return real_append(event)

    log.append = append  # type: ignore[method-assign]
    async with serving(registry_with(make_tool("t")), log=log) as dispatcher:
        reply = FutureReply()
        real_value = reply.value

        def value(value: JsonValue) -> None:
            order.append("value")
            real_value(value)

        reply.value = value  # type: ignore[method-assign]
        assert dispatcher.start_call("t", {"n": 1}, reply)  # type: ignore[arg-type]
        assert await reply.future == {"n": 1}
    assert order == ["value", "settle event"]


# -- the code-dispatch-log waterfall --------------------------------------------------------


async def test_an_agent_scoped_dispatch_log_listener_reshapes_that_agents_sub_calls(
    call: Call,
) -> None:
    # The bridge hands the calling agent to the waterfall: with agent=None an
    # agent-scoped listener (such as a spill policy for one agent) never runs.
    async def redact(
        dispatch: Any, proceed: Callable[[], Awaitable[Any]]
    ) -> Sequence[ContentBlock]:
        await proceed()
        return (TextBlock(text=f"[redacted for {dispatch.agent.name}]"),)

    log = open_log()
    registry = registry_with(make_tool("t"))
    registry.on_code_dispatch_log(redact, agent=AGENT)
    async with serving(registry, log=log) as dispatcher:
        assert await call(dispatcher, "t", {"secret": "s3cret"}) == {"secret": "s3cret"}
    [settled] = [e for e in log.events() if isinstance(e, CodeDispatchEvent)]
    assert settled.content == (TextBlock(text="[redacted for assistant]"),)


# -- the settle-log backpressure ------------------------------------------------------------


async def test_too_many_pending_settle_logs_hold_the_lane_but_not_the_programs_value(
    call: Call,
) -> None:
    # With max_parallel_sub_calls=1, a second pending settle-log append makes
    # the lane wait: the call that caused it has its value, the next one does
    # not start until the appends drain.
    release = anyio.Event()
    logging: list[str] = []
    ran: list[str] = []

    async def slow_log(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
        logging.append(dispatch.sub_call_id)
        await release.wait()
        return await proceed()

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        return args["n"]

    log = open_log()
    registry = registry_with(make_tool("t", body=body), max_parallel_sub_calls=1)
    registry.on_code_dispatch_log(slow_log)
    values: list[Any] = []
    async with serving(registry, log=log) as dispatcher, anyio.create_task_group() as tg:
        values.append(await call(dispatcher, "t", {"n": 1}))
        values.append(await call(dispatcher, "t", {"n": 2}))

        async def third() -> None:
            values.append(await call(dispatcher, "t", {"n": 3}))

        tg.start_soon(third)
        await wait_all_tasks_blocked()
        assert values == [1, 2]
        assert logging == ["outer:code:1", "outer:code:2"]
        assert ran == ["outer:code:1", "outer:code:2"]
        assert started_ids(log) == ["outer:code:1", "outer:code:2"]
        release.set()
    assert values == [1, 2, 3]
    assert ran == ["outer:code:1", "outer:code:2", "outer:code:3"]
    assert settled_ids(log) == ["outer:code:1", "outer:code:2", "outer:code:3"]


async def test_pending_settle_logs_up_to_the_cap_do_not_hold_the_lane(call: Call) -> None:
    release = anyio.Event()
    ran: list[str] = []

    async def slow_log(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
        await release.wait()
        return await proceed()

    async def body(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        return None

    log = open_log()
    registry = registry_with(make_tool("t", body=body), max_parallel_sub_calls=2)
    registry.on_code_dispatch_log(slow_log)
    async with serving(registry, log=log) as dispatcher:
        await call(dispatcher, "t", {})
        await call(dispatcher, "t", {})
        async with anyio.create_task_group() as tg:
            tg.start_soon(call, dispatcher, "t", {})
            await wait_all_tasks_blocked()
            # Two appends pending is within the cap; the third call ran.
            assert ran == ["outer:code:1", "outer:code:2", "outer:code:3"]
            release.set()
            await checkpoint()
    assert settled_ids(log) == ["outer:code:1", "outer:code:2", "outer:code:3"]


async def test_a_settle_log_append_that_fails_is_logged_and_the_run_goes_on(
    caplog: pytest.LogCaptureFixture,
    call: Call,
) -> None:
    release = anyio.Event()

    async def slow_log(dispatch: Any, proceed: Callable[[], Awaitable[Any]]) -> Any:
        await release.wait()
        return await proceed()

    log = open_log()
    registry = registry_with(make_tool("t"))
    registry.on_code_dispatch_log(slow_log)
    async with serving(registry, log=log) as dispatcher:
        assert await call(dispatcher, "t", {"n": 1}) == {"n": 1}
        log.close()  # the store goes away while the settle event is being shaped
        release.set()
    assert started_ids(log) == ["outer:code:1"]
    assert settled_ids(log) == []
    assert [r.getMessage() for r in caplog.records] == [
        "could not append the tool/code-dispatch event of outer:code:1"
    ]


# -- settle-log appends without a listener run as loop callbacks ----------------------------


async def test_a_synchronous_settle_append_is_tracked_until_it_has_run() -> None:
    from codemode.code_mode._settle_logs import SettleLogs

    ran: list[int] = []
    with anyio.fail_after(GUARD):
        async with Scheduler(max_parallel=1) as scheduler:
            logs = SettleLogs(limit=1)
            logs.attach(scheduler)
            logs.soon(ran.append, 1)
            # Queued on the loop, not run yet, and counted as pending work.
            assert ran == []
            assert logs.pending == 1
            await logs.wait_for_room(0)
            assert ran == [1]
            assert logs.pending == 0


async def test_a_synchronous_settle_append_that_raises_is_logged_and_no_longer_pending(
    caplog: pytest.LogCaptureFixture,
) -> None:
    from codemode.code_mode._settle_logs import SettleLogs

    def broken() -> None:
        raise RuntimeError("the disk is full")

    with anyio.fail_after(GUARD):
        async with Scheduler(max_parallel=1) as scheduler:
            logs = SettleLogs(limit=1)
            logs.attach(scheduler)
            logs.soon(broken)
            await logs.wait_for_room(0)
            assert logs.pending == 0
    assert [r.getMessage() for r in caplog.records] == ["a settle-log append failed"]


async def test_attached_settle_appends_run_in_the_schedulers_task_group_and_are_awaited() -> None:
    # The settle-log appends are the run's scheduler's side work: leaving the
    # scheduler waits for a listener's append as it waits for the jobs.
    from codemode.code_mode._settle_logs import SettleLogs

    release = anyio.Event()
    appended: list[str] = []

    async def slow_append(name: str) -> None:
        await release.wait()
        appended.append(name)

    logs = SettleLogs(limit=1)
    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as outside:
            async with Scheduler(max_parallel=1) as scheduler:
                logs.attach(scheduler)
                logs.spawn(slow_append, "first")
                assert logs.pending == 1
                outside.start_soon(_set_when_blocked, release)
            # The scheduler's exit waited for the append.
            assert appended == ["first"]
            assert logs.pending == 0
    with pytest.raises(RuntimeError, match="already runs its appends"):
        logs.attach(scheduler)


async def _set_when_blocked(event: anyio.Event) -> None:
    await anyio.wait_all_tasks_blocked()
    event.set()


def test_soon_needs_an_open_settle_logs() -> None:
    from codemode.code_mode._settle_logs import SettleLogs

    with pytest.raises(RuntimeError, match=r"soon\(\) needs an open SettleLogs"):
        SettleLogs(limit=1).soon(print)


async def test_without_a_listener_every_settle_event_is_in_the_log_when_the_block_exits(
    call: Call,
) -> None:
    log = open_log()
    registry = registry_with(make_tool("t"))
    async with serving(registry, log=log) as dispatcher, anyio.create_task_group() as tg:
        for n in range(5):
            args: JsonValue = {"n": n}
            tg.start_soon(call, dispatcher, "t", args)
    assert sorted(settled_ids(log)) == [f"outer:code:{n}" for n in range(1, 6)]
    assert len(settled_ids(log)) == 5


# -- the scheduler is made by the first call -----------------------------------------------


def counting_schedulers(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record every scheduler the dispatcher makes."""
    import codemode.code_mode._dispatch as dispatch_module

    made: list[object] = []
    real = Scheduler

    def scheduler(**kwargs: Any) -> Any:
        made.append(real(**kwargs))
        return made[-1]

    monkeypatch.setattr(dispatch_module, "Scheduler", scheduler)
    return made


async def test_a_run_without_calls_makes_no_scheduler(monkeypatch: pytest.MonkeyPatch) -> None:
    made = counting_schedulers(monkeypatch)
    async with serving(registry_with(make_tool("t")), log=open_log()) as dispatcher:
        pass
    assert made == []
    assert dispatcher.run_signal.reason == SETTLED


async def test_calls_arriving_together_share_the_scheduler_the_first_one_made(
    monkeypatch: pytest.MonkeyPatch,
    call: Call,
) -> None:
    made = counting_schedulers(monkeypatch)
    log = open_log()
    async with (
        serving(registry_with(make_tool("t")), log=log) as dispatcher,
        anyio.create_task_group() as tg,
    ):
        for n in range(4):
            args: JsonValue = {"n": n}
            tg.start_soon(call, dispatcher, "t", args)
    assert len(made) == 1
    # One scheduler, so one numbering and one ordered lane for all four.
    assert started_ids(log) == [f"outer:code:{n}" for n in range(1, 5)]
    assert sorted(settled_ids(log)) == started_ids(log)


async def test_a_first_call_whose_run_ended_while_it_was_taking_its_snapshot_is_abandoned(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The scheduler the call makes after the outer abort must be closed by it
    # at once, as an open one would have been.
    import codemode.code_mode._dispatch as dispatch_module

    reached: list[str] = []
    registry = registry_with(make_tool("t"))
    registry.pre_execute(recording(reached))
    snapshotting, resume = anyio.Event(), anyio.Event()
    real_sized = sized

    async def held_sized(value: Any, work: Any) -> Any:
        snapshotting.set()
        await resume.wait()
        return await real_sized(value, work)

    monkeypatch.setattr(dispatch_module, "sized", held_sized)
    signal = AbortSignal()
    log = open_log()
    outcome: list[BaseException] = []

    async def call(dispatcher: SubDispatcher) -> None:
        try:
            await dispatcher.call_tool("t", {})
        except ToolCallFailed as exc:
            outcome.append(exc)

    async with (
        serving(registry, signal=signal, log=log) as dispatcher,
        anyio.create_task_group() as tg,
    ):
        tg.start_soon(call, dispatcher)
        await snapshotting.wait()
        signal.abort("user pressed stop")
        resume.set()
    assert [str(e) for e in outcome] == [
        "run_code run is over (user pressed stop); t tool call abandoned"
    ]
    assert reached == []
    assert started_ids(log) == []
