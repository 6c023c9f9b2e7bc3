"""Running one model turn: scheduling, model-order results, and the tool/call + tool/result log."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode import Agent, Registry, ToolOutput, define_tool, tool
from codemode._log import (
    Event,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
)
from codemode._results import TextBlock, ToolFailure, ToolSuccess
from codemode._signal import AbortSignal
from codemode._turns import parse_arguments, run_turn

if TYPE_CHECKING:
    from collections.abc import Iterator

    from codemode._execution import ToolRunContext


class Stage:
    """Lets a test hold a tool body and see when it runs."""

    def __init__(self) -> None:
        self.entered = anyio.Event()
        self.release = anyio.Event()


class Bodies:
    """Tools ``p`` (parallel-safe) and ``x`` (exclusive) whose bodies a test controls by ``key``."""

    def __init__(self) -> None:
        self.stages: dict[str, Stage] = {}
        self.trace: list[str] = []
        self.held: set[str] = set()

    def hold(self, *keys: str) -> None:
        self.held.update(keys)

    def stage(self, key: str) -> Stage:
        return self.stages.setdefault(key, Stage())

    async def body(self, args: Any, ctx: ToolRunContext) -> object:
        key = args["key"]
        stage = self.stage(key)
        self.trace.append(f"{key}>")
        stage.entered.set()
        if key in self.held:
            await stage.release.wait()
        self.trace.append(f"{key}<")
        return f"result {key}"

    def registry(self) -> Registry:
        registry = Registry()
        for name, safe in (("p", True), ("x", False)):
            registry.register(
                define_tool(
                    name=name,
                    description=f"tool {name}",
                    parameters={"type": "object", "properties": {"key": {"type": "string"}}},
                    output=ToolOutput(schema={"type": "string"}),
                    execute=self.body,
                    is_concurrency_safe=(lambda args: True) if safe else None,
                )
            )
        return registry


def model_call(name: str, key: str) -> ModelToolCall:
    return ModelToolCall(call_id=f"call-{key}", name=name, arguments=f'{{"key": "{key}"}}')


def texts(results: list[Any]) -> list[str]:
    return [block.text for r in results for block in r.content if isinstance(block, TextBlock)]


class SyncCountingStore:
    """A memory store that counts ``sync()`` calls."""

    def __init__(self) -> None:
        self.inner = MemoryStore()
        self.syncs = 0

    def append(self, event: Event) -> Event:
        return self.inner.append(event)

    def sync(self) -> None:
        self.syncs += 1

    def close(self) -> None:
        self.inner.close()

    def read(self) -> Iterator[Event]:
        return self.inner.read()


async def turn(
    registry: Registry, calls: list[ModelToolCall], *, log: SessionLog | None = None,
    max_parallel: int = 10, signal: AbortSignal | None = None,
) -> list[Any]:
    return await run_turn(
        registry, calls, agent=None, signal=signal or AbortSignal(), log=log, turn=1,
        max_parallel=max_parallel,
    )


async def test_parallel_safe_calls_overlap() -> None:
    bodies = Bodies()
    bodies.hold("a", "b", "c")
    registry = bodies.registry()
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(turn, registry, [model_call("p", k) for k in "abc"])
            for key in "abc":
                await bodies.stage(key).entered.wait()
            assert bodies.trace == ["a>", "b>", "c>"]
            for key in "abc":
                bodies.stage(key).release.set()


async def test_results_come_back_in_model_order_when_later_calls_finish_first() -> None:
    bodies = Bodies()
    bodies.hold("a", "b")
    registry = bodies.registry()
    results: list[Any] = []

    async def run() -> None:
        results.extend(await turn(registry, [model_call("p", k) for k in "abc"]))

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(run)
            await bodies.stage("b").entered.wait()
            await anyio.wait_all_tasks_blocked()
            bodies.stage("b").release.set()
            await anyio.wait_all_tasks_blocked()
            bodies.stage("a").release.set()
    assert bodies.trace.index("c<") < bodies.trace.index("b<") < bodies.trace.index("a<")
    assert texts(results) == ["result a", "result b", "result c"]


async def test_no_more_than_max_parallel_calls_run_at_once() -> None:
    bodies = Bodies()
    bodies.hold("a", "b", "c")
    registry = bodies.registry()
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(lambda: turn(registry, [model_call("p", k) for k in "abc"],
                                       max_parallel=2))
            await bodies.stage("b").entered.wait()
            await anyio.wait_all_tasks_blocked()
            assert bodies.trace == ["a>", "b>"]
            bodies.stage("a").release.set()
            await bodies.stage("c").entered.wait()
            assert "b<" not in bodies.trace
            bodies.stage("b").release.set()
            bodies.stage("c").release.set()


async def test_an_exclusive_call_is_a_barrier() -> None:
    bodies = Bodies()
    bodies.hold("a", "b")
    registry = bodies.registry()
    calls = [model_call("p", "a"), model_call("x", "b"), model_call("p", "c")]
    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(turn, registry, calls)
            await bodies.stage("a").entered.wait()
            await anyio.wait_all_tasks_blocked()
            assert bodies.trace == ["a>"]
            bodies.stage("a").release.set()
            await bodies.stage("b").entered.wait()
            await anyio.wait_all_tasks_blocked()
            assert bodies.trace == ["a>", "a<", "b>"]
            bodies.stage("b").release.set()
    assert bodies.trace == ["a>", "a<", "b>", "b<", "c>", "c<"]


async def test_the_log_gets_each_call_at_its_start_and_each_result_in_model_order() -> None:
    bodies = Bodies()
    log = SessionLog()
    calls = [model_call("p", "a"), model_call("p", "b"), model_call("x", "c")]
    await turn(bodies.registry(), calls, log=log)
    events = log.events()
    assert [(type(e).__name__, getattr(e, "call_id", None)) for e in events] == [
        ("ToolCallEvent", "call-a"),
        ("ToolCallEvent", "call-b"),
        ("ToolResultEvent", "call-a"),
        ("ToolResultEvent", "call-b"),
        ("ToolCallEvent", "call-c"),
        ("ToolResultEvent", "call-c"),
    ]
    first_call, _, first_result, *_ = events
    assert isinstance(first_call, ToolCallEvent)
    assert isinstance(first_result, ToolResultEvent)
    assert first_call.arguments == '{"key": "a"}'
    assert (first_call.turn, first_call.step) == (1, 0)
    assert first_result.source_event_seqs == (first_call.seq,)
    assert first_result.content == (TextBlock(text="result a"),)
    assert first_result.is_error is False


async def test_the_log_is_synced_when_the_turn_ends() -> None:
    store = SyncCountingStore()
    await turn(Bodies().registry(), [model_call("p", "a")], log=SessionLog(store))
    assert store.syncs == 1


async def test_a_turn_without_a_log_still_runs() -> None:
    assert texts(await turn(Bodies().registry(), [model_call("p", "a")])) == ["result a"]


async def test_an_empty_turn_returns_no_results() -> None:
    log = SessionLog()
    assert await turn(Bodies().registry(), [], log=log) == []
    assert log.events() == []


async def test_an_empty_argument_string_means_an_empty_object() -> None:
    seen: list[object] = []

    async def record(args: Any, ctx: ToolRunContext) -> object:
        seen.append(args)
        return "ok"

    registry = Registry()
    registry.register(
        define_tool(name="probe", description="Report the arguments.",
                    parameters={"type": "object"}, output=ToolOutput(schema={}), execute=record)
    )
    [result] = await turn(registry, [ModelToolCall(call_id="c", name="probe", arguments="")])
    assert isinstance(result, ToolSuccess)
    assert seen == [{}]


async def test_invalid_json_arguments_reach_the_tool_and_fail_as_invalid_args() -> None:
    @tool
    def search(query: str) -> str:
        """Search."""
        return query

    registry = Registry()
    registry.register(search)
    log = SessionLog()
    [result] = await turn(
        registry, [ModelToolCall(call_id="c", name="search", arguments='{"query": ')], log=log
    )
    assert isinstance(result, ToolFailure)
    assert result.error.info is not None
    assert result.error.info.code == "INVALID_ARGS"
    call_event, result_event = log.events()
    assert isinstance(call_event, ToolCallEvent)
    assert call_event.arguments == '{"query": '
    assert isinstance(result_event, ToolResultEvent)
    assert result_event.error is not None
    assert result_event.error.code == "INVALID_ARGS"


async def test_an_unknown_tool_fails_that_call_only() -> None:
    results = await turn(
        Bodies().registry(),
        [ModelToolCall(call_id="c1", name="nope", arguments="{}"), model_call("p", "a")],
    )
    assert isinstance(results[0], ToolFailure)
    assert results[0].error.message == 'unknown tool "nope"'
    assert texts(results[1:]) == ["result a"]


async def test_calls_after_an_abort_are_answered_aborted_before_dispatch() -> None:
    signal = AbortSignal()
    signal.abort("user pressed stop")
    bodies = Bodies()
    results = await turn(bodies.registry(), [model_call("p", "a"), model_call("x", "b")],
                         signal=signal)
    assert [r.error.info.code for r in results] == ["ABORTED_BEFORE_DISPATCH"] * 2
    assert bodies.trace == []


async def test_a_lossy_number_is_refused_with_its_path() -> None:
    [result] = await turn(
        Bodies().registry(),
        [ModelToolCall(call_id="c", name="p", arguments='{"key": 9007199254740993}')],
    )
    assert isinstance(result, ToolFailure)
    assert result.error.message.startswith("tool arguments must be lossless JSON: integer")
    assert result.error.message.endswith("- at `$.key`")


async def test_calls_run_in_the_given_agent_scope() -> None:
    agent = Agent("helper")
    registry = Registry()
    registry.register(
        define_tool(
            name="mine", description="scoped", parameters={"type": "object"},
            output=ToolOutput(schema={}), execute=_answer,
        ),
        agent=agent,
    )
    call = ModelToolCall(call_id="c", name="mine", arguments="{}")
    [scoped] = await run_turn(registry, [call], agent=agent, signal=AbortSignal(), log=None,
                              turn=2)
    [unscoped] = await run_turn(registry, [call], agent=None, signal=AbortSignal(), log=None,
                                turn=2)
    assert isinstance(scoped, ToolSuccess)
    assert isinstance(unscoped, ToolFailure)


async def _answer(args: Any, ctx: ToolRunContext) -> object:
    return 42


async def test_a_call_that_is_not_a_model_tool_call_is_refused() -> None:
    with pytest.raises(TypeError, match=r"^calls\[0\] must be a ModelToolCall, got dict$"):
        await turn(Bodies().registry(), [{"name": "p"}])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("text", "expected"),
    [("", {}), ("  ", {}), ('{"a": [1]}', {"a": [1]}), ("[1, 2", "[1, 2"), ("nul", "nul"),
     ("[" * 5000 + "]" * 5000, "[" * 5000 + "]" * 5000)],
)
def test_parse_arguments(text: str, expected: object) -> None:
    assert parse_arguments(text) == expected


async def test_two_calls_with_one_id_are_refused_before_anything_runs() -> None:
    # Sub-call ids are `<call id>:code:<n>`: two calls with one id would log as one.
    bodies = Bodies()
    registry = bodies.registry()
    log = SessionLog(MemoryStore())
    calls = [model_call("p", "a"), model_call("p", "b"), model_call("p", "a")]
    duplicate = r"^calls\[2\]\.call_id 'call-a' is also the id of calls\[0\]"
    with pytest.raises(ValueError, match=duplicate):
        await turn(registry, calls, log=log)
    assert bodies.trace == []
    assert list(log.events()) == []
