"""RayPool on a real single-node Ray runtime: sub-calls answered by the caller's registry.

The runtime is started once for the module (``ray.init`` with one CPU); the
programs run in the sandbox pool of a Ray actor, their tool calls come back to
this process.
"""

from __future__ import annotations

import asyncio
import os
from typing import TYPE_CHECKING, Any

import anyio
import pytest
import ray
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode import AbortSignal, CodeDispatchEvent, CodeDispatchStartEvent, Deny, ToolRunContext
from codemode._errors import ABORTED
from codemode.code_mode import CodeMode, CodeRun
from sandbox import Limits, Pool, RayPool, RunError, RunResult, ToolCallFailed, WorkerPool
from sandbox._ray import _pool as ray_pool_module
from sandbox._ray._node import NodeSandbox
from sandbox._uids import DEFAULT_UID_RANGE
from sandbox.testing import EchoHandler
from tests.layers import MISSING_PROTECTIONS, assert_host_layers

from ..codemode.test_code_mode_support import (
    code_mode,
    failure_of,
    make_tool,
    registry_with,
    returned,
    run_code,
    run_code_call,
    turn_log,
)
from ..sandbox.test_pool_live_output import Gate as OutputGate

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator

    from codemode import ToolExecution, ToolResult

#: Generous: a guard against a hang on a busy machine, never a timing assertion.
GUARD_SECONDS = 120
LIMITS = Limits(wall_seconds=30)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def ray_runtime() -> Iterator[None]:
    ray.init(address="local", num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


@pytest.fixture(scope="module")
async def ray_pool(ray_runtime: None) -> AsyncIterator[RayPool]:
    async with RayPool(limits=LIMITS, size=1) as pool:
        yield pool


@pytest.fixture(scope="module")
async def local_pool() -> AsyncIterator[WorkerPool]:
    async with WorkerPool(limits=LIMITS, size=1) as pool:
        yield pool


def node_stats(pool: RayPool) -> Any:
    [node] = pool.nodes()
    return node.statistics


class Gate:
    """A handler whose calls wait until released; ``entered`` is set by the first."""

    def __init__(self) -> None:
        self.entered = anyio.Event()
        self.release = anyio.Event()

    async def call_tool(self, name: str, args: Any) -> Any:
        self.entered.set()
        await self.release.wait()
        return name


# ---------------------------------------------------------------- Code Mode over Ray


async def test_sub_calls_run_in_the_callers_registry_with_code_ids_and_policy(
    ray_pool: RayPool,
) -> None:
    ran_in: list[int] = []

    async def fetch(args: Any, ctx: ToolRunContext) -> Any:
        ran_in.append(os.getpid())
        return {"page": args["page"], "id": ctx.call_id}

    async def policy(execution: ToolExecution, proceed: Any) -> Any:
        return Deny("secrets stay home") if execution.name == "secret" else await proceed()

    registry = registry_with(make_tool("fetch", body=fetch), make_tool("secret"))
    registry.pre_execute(policy)
    log = turn_log()
    runs: list[CodeRun] = []
    program = (
        "a = await tools.fetch(page=1)\n"
        "try:\n    await tools.secret()\nexcept ToolCallError as e:\n    denied = str(e)\n"
        "b = await tools.fetch(page=2)\n"
        "return [a, b, denied]"
    )
    before = node_stats(ray_pool).runs
    with anyio.fail_after(GUARD_SECONDS):
        async with code_mode(registry, ray_pool, log=log, on_run=runs.append):
            result = await run_code(registry, program)
    a, b, denied = returned(result)
    assert a == {"page": 1, "id": "call-1:code:1"}
    assert b == {"page": 2, "id": "call-1:code:3"}
    assert "secrets stay home" in denied
    # The tool bodies ran here, in the caller's process; the program on the node.
    assert ran_in == [os.getpid(), os.getpid()]
    assert node_stats(ray_pool).runs == before + 1
    [run] = runs
    assert run.sandbox is not None
    assert run.sandbox.pid != os.getpid()
    starts = [e for e in log.events() if isinstance(e, CodeDispatchStartEvent)]
    settled = [e for e in log.events() if isinstance(e, CodeDispatchEvent)]
    assert [e.sub_call_id for e in starts] == ["call-1:code:1", "call-1:code:2", "call-1:code:3"]
    assert [(e.sub_call_id, e.name, e.is_error) for e in settled] == [
        ("call-1:code:1", "fetch", False),
        ("call-1:code:2", "secret", True),
        ("call-1:code:3", "fetch", False),
    ]


async def test_parallel_sub_calls_are_in_flight_together(ray_pool: RayPool) -> None:
    arrived = 0
    all_in = anyio.Event()

    async def meet(args: Any, ctx: ToolRunContext) -> Any:
        # Each call waits for the other two: only calls served concurrently finish.
        nonlocal arrived
        arrived += 1
        if arrived == 3:
            all_in.set()
        await all_in.wait()
        return args["i"]

    registry = registry_with(make_tool("meet", body=meet, parallel=True))
    with anyio.fail_after(GUARD_SECONDS):
        async with code_mode(registry, ray_pool):
            result = await run_code(
                registry,
                "import asyncio\nreturn await asyncio.gather(*(tools.meet(i=i) for i in range(3)))",
            )
    assert returned(result) == [0, 1, 2]


async def test_an_abort_mid_run_ends_the_remote_child(ray_pool: RayPool) -> None:
    started = anyio.Event()

    async def slow(args: Any, ctx: ToolRunContext) -> Any:
        started.set()
        # Never answers: a tool that returned on the abort could let the remote
        # program finish on its own (its answer and the abort travel to the node
        # by separate actor calls), so the child would exit rather than be
        # killed. Settlement cancels this call after its grace.
        await anyio.Event().wait()
        return None

    registry = registry_with(make_tool("slow", body=slow))
    log = turn_log()
    signal = AbortSignal()
    results: list[ToolResult] = []
    killed = node_stats(ray_pool).killed
    with anyio.fail_after(GUARD_SECONDS):
        async with code_mode(registry, ray_pool, log=log), anyio.create_task_group() as tg:

            async def call() -> None:
                results.append(
                    await registry.execute(run_code_call("await tools.slow()", signal=signal))
                )

            tg.start_soon(call)
            await started.wait()
            signal.abort("user pressed stop")
    [result] = results
    message = failure_of(result).message
    assert message.startswith("code run failed (abort): ")
    assert "user pressed stop" in message
    [settled] = [e for e in log.events() if isinstance(e, CodeDispatchEvent)]
    assert settled.error is not None
    assert settled.error.code == ABORTED
    stats = node_stats(ray_pool)
    assert stats.killed == killed + 1
    assert stats.busy == 0


# ---------------------------------------------------------------- the pool itself


async def test_cancelling_the_caller_ends_the_remote_child(ray_pool: RayPool) -> None:
    gate = Gate()
    killed = node_stats(ray_pool).killed
    with anyio.fail_after(GUARD_SECONDS):
        async with anyio.create_task_group() as tg:

            async def run() -> None:
                await ray_pool.run("await tools.wait()", tool_names=["wait"], handler=gate)

            tg.start_soon(run)
            await gate.entered.wait()
            tg.cancel_scope.cancel()
    stats = node_stats(ray_pool)
    assert stats.killed == killed + 1
    assert stats.busy == 0
    assert ray_pool.statistics().busy == 0


async def test_an_abort_that_overtakes_its_run_still_ends_it(ray_runtime: None) -> None:
    # The node actor's body, in this process: the abort arrives before the run.
    node = NodeSandbox(LIMITS, 0, DEFAULT_UID_RANGE)
    with anyio.fail_after(GUARD_SECONDS):
        report = await node.open()
        try:
            await node.abort("run-1", "stopped before it began")
            stream = node.run("run-1", "await tools.wait()", ("wait",), None, None)
            items = [item async for item in stream]
        finally:
            await node.close()
    assert report.pid == os.getpid()
    assert items[0] == ("started",)
    done = items[-1]
    assert done[0] == "done"
    assert len(done) == 3
    result = done[1]
    assert isinstance(result, RunResult)
    assert result.error == RunError("abort", "stopped before it began")


async def test_an_immediate_abort_ends_the_run(ray_pool: RayPool) -> None:
    async def at_once() -> str:
        return "no time at all"

    with anyio.fail_after(GUARD_SECONDS):
        result = await ray_pool.run(
            "await tools.wait()", tool_names=["wait"], handler=Gate(), abort=at_once
        )
    assert result.error == RunError("abort", "no time at all")


async def test_the_wall_clock_limit_ends_the_remote_child(ray_pool: RayPool) -> None:
    gate = Gate()  # never released: the program waits for its tool until the limit
    killed = node_stats(ray_pool).killed
    with anyio.fail_after(GUARD_SECONDS):
        result = await ray_pool.run(
            "await tools.wait()",
            tool_names=["wait"],
            handler=gate,
            limits=Limits(wall_seconds=1),
        )
    assert result.error is not None
    assert result.error.kind == "timeout"
    assert result.error.message.startswith("wall-clock limit of 1s reached (Limits.wall_seconds)")
    assert node_stats(ray_pool).killed == killed + 1


async def test_layers_are_the_node_pools_and_in_force_in_a_ray_actor(ray_pool: RayPool) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        result = await ray_pool.run(
            "import socket\nsocket.socket()",
            tool_names=[],
            handler=EchoHandler(),
            limits=Limits(language_layer=False, tripwire=False),
        )
    # Without the upper layers the program reaches the OS layer, which refuses.
    assert result.error is not None
    assert result.error.kind == "exception"
    assert "PermissionError: [Errno 1] Operation not permitted" in result.error.message
    assert result.layers == ray_pool.layers(Limits(language_layer=False, tripwire=False))
    assert result.layers.seccomp
    assert not result.layers.tripwire
    assert result.layers.reasons[:2] == ("language_layer: switched off (language_layer=False)",
                                         "tripwire: switched off (tripwire=False)")
    # The Ray worker runs as the host's user: as root, children drop to their own uids.
    assert [reason.partition(":")[0] for reason in result.layers.reasons[2:]] == list(
        MISSING_PROTECTIONS
    )
    assert_host_layers(ray_pool.layers())


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status", encoding="utf-8") as status:
        return dict(line.split(":\t", 1) for line in status.read().splitlines() if ":\t" in line)


def _children_of(parent: int) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                if int(_status(int(entry))["PPid"]) == parent:
                    found.append(int(entry))
            except (OSError, KeyError):  # gone meanwhile
                continue
    return found


@pytest.mark.skipif(os.geteuid() != 0, reason="children drop to their own uids only under root")
async def test_children_in_the_ray_actor_run_under_their_own_uids_with_seccomp(
    ray_pool: RayPool,
) -> None:
    # Read from outside, while a run waits in a tool call: the actor's zygote's
    # children (the running one and the warm one) on this machine.
    gate = Gate()
    [node] = ray_pool.nodes()
    actor = ray_pool._nodes[0].actor
    with anyio.fail_after(GUARD_SECONDS):
        async with anyio.create_task_group() as tg:
            tg.start_soon(
                lambda: ray_pool.run("await tools.wait()", tool_names=["wait"], handler=gate)
            )
            await gate.entered.wait()
            # The run took the warm child, and its replacement is forked at once:
            # read only once that one is READY, which it says after its filter
            # is loaded; a child caught between its fork and its filter would
            # read as unfiltered.
            while (await actor.statistics.remote()).idle < 1:
                pass
            [zygote] = _children_of(node.actor_pid)
            children = [_status(pid) for pid in _children_of(zygote)]
            gate.release.set()
    assert children
    uids = [int(child["Uid"].split()[0]) for child in children]
    assert all(uid in DEFAULT_UID_RANGE for uid in uids), uids
    assert len(set(uids)) == len(uids)
    assert all(child["Seccomp"].strip() == "2" for child in children)  # a filter in force
    assert all(child["NoNewPrivs"].strip() == "1" for child in children)


async def test_printed_lines_reach_the_caller_while_the_remote_program_runs(
    ray_pool: RayPool,
) -> None:
    gate = OutputGate("step 1")
    with anyio.fail_after(GUARD_SECONDS):
        result = await ray_pool.run(
            'print("step 1")\nanswer = await tools.gate()\nprint("step 2", answer)\nreturn 1',
            tool_names=["gate"],
            handler=gate,
            on_output=gate.on_output,
        )
    assert result.error is None, result.error
    # Had the lines only come with the result, the gate would never have opened.
    assert gate.order == ["line step 1", "gate answered", "line step 2 open"]
    assert result.logs == ("step 1", "step 2 open")


async def test_an_output_callback_that_raises_is_dropped_and_the_run_goes_on(
    ray_pool: RayPool, caplog: pytest.LogCaptureFixture
) -> None:
    calls: list[tuple[str, ...]] = []

    def broken(lines: tuple[str, ...]) -> None:
        gate.on_output(lines)
        calls.append(lines)
        raise RuntimeError("a bug in the listener")

    gate = OutputGate("first")
    with anyio.fail_after(GUARD_SECONDS):
        result = await ray_pool.run(
            'print("first")\nawait tools.gate()\nprint("second")\nreturn 2',
            tool_names=["gate"],
            handler=gate,
            on_output=broken,
        )
    assert result.error is None
    assert result.value == 2
    assert calls == [("first",)]
    assert result.logs == ("first", "second")
    assert "the output callback raised" in caplog.text


async def test_runs_past_a_nodes_slots_wait_and_every_run_gets_its_answers(
    ray_runtime: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A run holds one of the node actor's slots for its whole life, and each of its
    # tool calls needs one more for the answer: with every slot taken by runs, no
    # answer reached the node and every run waited for its wall clock.
    monkeypatch.setattr(ray_pool_module, "_RUNS_PER_NODE", 2)
    monkeypatch.setattr(ray_pool_module, "_CONTROL_SLOTS", 1)
    results: dict[int, RunResult] = {}
    with anyio.fail_after(GUARD_SECONDS):
        async with RayPool(limits=Limits(wall_seconds=20), size=1) as pool:
            async with anyio.create_task_group() as tg:

                async def run(index: int) -> None:
                    results[index] = await pool.run(
                        f"return await tools.echo(i={index})",
                        tool_names=["echo"],
                        handler=EchoHandler(),
                    )

                for index in range(5):
                    tg.start_soon(run, index)
            assert pool.statistics().busy == 0
    assert {i: (r.error, r.value) for i, r in results.items()} == {
        i: (None, {"i": i}) for i in range(5)
    }


async def test_a_run_waiting_for_a_node_with_room_ends_at_its_abort(
    ray_runtime: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(ray_pool_module, "_RUNS_PER_NODE", 1)
    gate = Gate()
    # The abort fires once the run is waiting for room (so, on a pool that
    # placed it at once, never): ordered by an event, not by time.
    waiting_for_room = anyio.Event()
    wait_for_room = RayPool._wait_for_room

    async def noted(self: RayPool, abort: Any) -> str | None:
        waiting_for_room.set()
        return await wait_for_room(self, abort)

    monkeypatch.setattr(RayPool, "_wait_for_room", noted)

    async def stop() -> str:
        await waiting_for_room.wait()
        return "no room, no wait"

    with anyio.fail_after(GUARD_SECONDS):
        async with RayPool(limits=LIMITS, size=1) as pool, anyio.create_task_group() as tg:
            tg.start_soon(lambda: pool.run("await tools.wait()", tool_names=["wait"], handler=gate))
            await gate.entered.wait()
            # The node's only run slot is taken: this run waits here, never reaching it.
            waiting = await pool.run(
                "return 1", tool_names=[], handler=EchoHandler(), abort=stop
            )
            gate.release.set()
    assert waiting.error == RunError("abort", "no room, no wait")


class _ItsOwn(BaseException):
    pass


def _base_exception(kind: str) -> BaseException:
    return {
        "SystemExit": SystemExit(3),
        "GeneratorExit": GeneratorExit(),
        "its-own": _ItsOwn("mine"),
        "CancelledError": asyncio.CancelledError(),
    }[kind]


@pytest.mark.parametrize("kind", ["SystemExit", "GeneratorExit", "its-own", "CancelledError"])
@pytest.mark.parametrize("which", ["local", "ray"])
async def test_a_handler_raising_a_base_exception_fails_that_call_on_both_pools(
    kind: str, which: str, ray_pool: RayPool, local_pool: WorkerPool
) -> None:
    # The local pool left the call unanswered until the wall clock and then raised;
    # the Ray pool raised at once, or (a CancelledError) reported a timeout at once.
    class Raising:
        async def call_tool(self, name: str, args: Any) -> Any:
            raise _base_exception(kind)

    pool: Pool = ray_pool if which == "ray" else local_pool
    program = (
        "try:\n    await tools.t()\nexcept ToolCallError as e:\n    return str(e)\n"
        "return 'answered'"
    )
    with anyio.fail_after(GUARD_SECONDS):
        result = await pool.run(
            program, tool_names=["t"], handler=Raising(), limits=Limits(wall_seconds=20)
        )
    assert result.error is None
    assert result.value == 'tool "t" failed: internal error in tool "t"'


async def test_ray_pool_is_a_pool_and_refuses_bad_arguments(ray_pool: RayPool) -> None:
    assert isinstance(ray_pool, Pool)
    with pytest.raises(TypeError, match="tool_names must be a sequence of str"):
        await ray_pool.run("return 1", tool_names="abc", handler=EchoHandler())
    with pytest.raises(TypeError, match="handler must have an async call_tool"):
        await ray_pool.run("return 1", tool_names=[], handler=object())  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="RayPool size must be 0 or more"):
        RayPool(size=-1)
    with pytest.raises(ValueError, match="not alive nodes"):
        async with RayPool(nodes=["f" * 56]):
            pass


# ---------------------------------------------------------------- parity with the local pool


class Handler:
    """Answers a fixed set of tools in every way a handler can answer."""

    async def call_tool(self, name: str, args: Any) -> Any:
        if name == "add":
            return args["a"] + args["b"]
        if name == "refuse":
            raise ToolCallFailed("not today", "DENIED", exception_type="PermissionError")
        if name == "crash":
            raise RuntimeError("a bug in the tool")
        if name == "lossy":
            return {1, 2}
        if name == "big":  # checked off the event loop, on both paths
            return [[i, str(i)] for i in range(20_000)]
        return [name, args]


RAW_PROGRAMS = {
    "value": "return await tools.add(a=1, b=2)",
    "logs": "print('one')\nprint('two', await tools.echo(x=[1, 2.5, None]))\nreturn 'ok'",
    "failed": "try:\n    await tools.refuse()\nexcept ToolCallError as e:\n"
    "    return [e.code, e.type, str(e)]",
    "internal": "try:\n    await tools.crash()\nexcept ToolCallError as e:\n    return str(e)",
    "lossy": "try:\n    await tools.lossy()\nexcept ToolCallError as e:\n    return str(e)",
    "gather": "import asyncio\n"
    "return await asyncio.gather(*(tools.add(a=i, b=i) for i in range(5)))",
    "exception": "await tools.add(a=1, b=2)\nraise ValueError('bad')",
    "compile": "return (",
    "large": "v = await tools.big()\nreturn [len(v), v[-1]]",
    "undeclared": "return await tools.nope()",
    "value-limit": "return 'x' * 2_000_000",
}


@pytest.mark.parametrize("name", sorted(RAW_PROGRAMS))
async def test_raw_results_match_the_local_pool(
    name: str, ray_pool: RayPool, local_pool: WorkerPool
) -> None:
    def essence(result: RunResult) -> Any:
        return result.value, result.logs, result.error, result.layers

    tools = ["add", "big", "crash", "echo", "lossy", "refuse"]
    with anyio.fail_after(GUARD_SECONDS):
        local = await local_pool.run(RAW_PROGRAMS[name], tool_names=tools, handler=Handler())
        remote = await ray_pool.run(RAW_PROGRAMS[name], tool_names=tools, handler=Handler())
    assert essence(remote) == essence(local)


#: One step of a generated program: a call (caught if it fails), a print or a gather.
STEPS = st.one_of(
    st.tuples(
        st.just("call"), st.sampled_from(["add", "crash", "echo", "lossy", "refuse"]),
        st.integers(-3, 3),
    ),
    st.tuples(st.just("print"), st.text("ab ý1", max_size=8), st.just(0)),
    st.tuples(st.just("gather"), st.just("add"), st.integers(1, 4)),
)


def program_of(steps: list[tuple[str, str, int]], fails: bool) -> str:
    lines = ["import asyncio", "out = []"]
    for kind, text, number in steps:
        if kind == "call":
            lines += [
                "try:",
                f"    out.append(await tools.{text}(a={number}, b=1))",
                "except ToolCallError as e:",
                "    out.append([e.code, e.type, str(e)])",
            ]
        elif kind == "print":
            lines.append(f"print({text!r}, len(out))")
        else:
            lines.append(
                f"out.append(await asyncio.gather(*(tools.add(a=i, b=1) for i in range({number}))))"
            )
    lines.append("raise LookupError(out)" if fails else "return out")
    return "\n".join(lines)


@settings(max_examples=15)
@given(st.lists(STEPS, min_size=1, max_size=6), st.booleans())
async def test_any_program_gets_the_same_result_from_both_pools(
    ray_pool: RayPool, local_pool: WorkerPool, steps: list[tuple[str, str, int]], fails: bool
) -> None:
    program = program_of(steps, fails)
    tools = ["add", "crash", "echo", "lossy", "refuse"]
    with anyio.fail_after(GUARD_SECONDS):
        local = await local_pool.run(program, tool_names=tools, handler=Handler())
        remote = await ray_pool.run(program, tool_names=tools, handler=Handler())
    assert (remote.value, remote.logs, remote.error) == (local.value, local.logs, local.error)


CODE_PROGRAMS = [
    "a = await tools.fetch(page=1)\nb = await tools.fetch(page=2)\nreturn [a, b]",
    "print('looking')\ntry:\n    await tools.broken()\nexcept ToolCallError as e:\n"
    "    print(e)\nreturn await tools.fetch(page=3)",
    "import asyncio\nreturn await asyncio.gather(*(tools.fetch(page=i) for i in range(4)))",
    "await tools.secret()",
    "await tools.fetch(page=1)\nraise KeyError('missing')",
    "return await tools.fetch(pages=1)",  # fails the pre-flight check: nothing runs
]
#: The program whose sub-calls run side by side: no order among them is promised.
PARALLEL_PROGRAM = 2


async def run_through(pool: Pool, program: str) -> tuple[ToolResult, list[Any], list[str]]:
    async def broken(args: Any, ctx: ToolRunContext) -> Any:
        raise LookupError("no such page")

    async def policy(execution: ToolExecution, proceed: Any) -> Any:
        return Deny("secrets stay home") if execution.name == "secret" else await proceed()

    registry = registry_with(
        make_tool("fetch", parallel=True),
        make_tool("broken", body=broken),
        make_tool("secret"),
    )
    registry.pre_execute(policy)
    log = turn_log()
    printed: list[str] = []
    async with CodeMode(
        registry, pool=pool, log=log, on_output=lambda output: printed.extend(output.lines)
    ):
        result = await run_code(registry, program)
    # Everything but the wall-clock stamps (and how the live lines were batched).
    events = [(type(e).__name__, {**_fields(e), "time": None}) for e in log.events()]
    return result, events, printed


def _fields(event: Any) -> dict[str, Any]:
    return {name: getattr(event, name) for name in event.__struct_fields__}


def in_promised_order(events: list[Any]) -> tuple[list[Any], dict[str, list[Any]]]:
    """The order a log promises: each sub-call's own events, and the rest in sequence.

    Sub-calls running side by side (``asyncio.gather`` of a parallel tool)
    finish in whatever order the scheduler lets them, so their events may
    interleave differently from run to run; the sequence numbers follow that
    interleaving and are left out.
    """
    outer: list[Any] = []
    per_sub_call: dict[str, list[Any]] = {}
    for kind, fields in events:
        rest = {**fields, "seq": None}
        sub_call = fields.get("sub_call_id")
        if sub_call is None:
            outer.append((kind, rest))
        else:
            per_sub_call.setdefault(sub_call, []).append((kind, rest))
    return outer, per_sub_call


@pytest.mark.parametrize("index", range(len(CODE_PROGRAMS)))
async def test_code_mode_results_and_events_match_the_local_pool(
    index: int, ray_pool: RayPool, local_pool: WorkerPool
) -> None:
    program = CODE_PROGRAMS[index]
    with anyio.fail_after(GUARD_SECONDS):
        local = await run_through(local_pool, program)
        remote = await run_through(ray_pool, program)
    assert (remote[0], remote[2]) == (local[0], local[2])
    if index == PARALLEL_PROGRAM:
        assert in_promised_order(remote[1]) == in_promised_order(local[1])
    else:
        assert remote[1] == local[1]
    assert len(remote[1]) > 1 or index == len(CODE_PROGRAMS) - 1


async def test_a_stream_that_ends_without_an_outcome_is_not_called_a_timeout(
    ray_pool: RayPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Only a run whose node stayed silent past its wall clock is a timeout; a
    # stream that ended early (nothing reached the wall clock) was reported as
    # one after a few milliseconds.
    async def ends_early(*args: Any) -> None:
        return None

    monkeypatch.setattr(ray_pool_module, "serve_stream", ends_early)
    with anyio.fail_after(GUARD_SECONDS):
        result = await ray_pool.run("return 1", tool_names=[], handler=EchoHandler())
    assert result.error is not None
    assert result.error.kind == "worker-exit"
    assert "without reporting its outcome" in result.error.message
