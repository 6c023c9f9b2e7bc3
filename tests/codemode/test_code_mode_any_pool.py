"""``CodeMode(registry, pool=...)`` takes any :class:`sandbox.Pool`, not only a WorkerPool."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import pytest

from .test_code_mode_support import code_mode, make_tool, module_pool, registry_with, returned
from .test_code_mode_support import run_code as run_code_on

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Sequence

    from sandbox import (
        CallHandler,
        Layers,
        Limits,
        OutputCallback,
        Pool,
        PoolStatistics,
        RunResult,
        ToolSignature,
        WorkerPool,
    )
    from sandbox._pool_interface import AbortCallback


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


class CountingPool:
    """A pool of its own (no base class): it counts runs and hands them to another pool."""

    def __init__(self, inner: WorkerPool) -> None:
        self.inner = inner
        self.runs: list[str] = []

    async def __aenter__(self) -> CountingPool:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        return None

    async def run(
        self,
        source: str,
        *,
        tool_names: Sequence[str],
        handler: CallHandler,
        abort: AbortCallback | None = None,
        limits: Limits | None = None,
        signatures: Sequence[ToolSignature] | None = None,
        on_output: OutputCallback | None = None,
    ) -> RunResult:
        self.runs.append(source)
        return await self.inner.run(
            source,
            tool_names=tool_names,
            handler=handler,
            abort=abort,
            limits=limits,
            signatures=signatures,
            on_output=on_output,
        )

    def statistics(self) -> PoolStatistics:
        return self.inner.statistics()

    def layers(self, limits: Limits | None = None) -> Layers:
        return self.inner.layers(limits)


async def test_code_mode_runs_programs_through_any_pool(pool: WorkerPool) -> None:
    counting = CountingPool(pool)
    typed: Pool = counting  # the static check: the class satisfies the interface
    registry = registry_with(make_tool("echo"))
    async with code_mode(registry, typed):
        result = await run_code_on(registry, "return await tools.echo(n=1)")
    assert returned(result) == {"n": 1}
    assert counting.runs == ["return await tools.echo(n=1)"]


def test_code_mode_refuses_what_is_not_a_pool() -> None:
    from codemode.code_mode import CodeMode

    class NotAPool:
        async def run(self, *args: Any, **kwargs: Any) -> None: ...

    with pytest.raises(TypeError, match=r"pool must be a running sandbox pool \(a sandbox.Pool"):
        CodeMode(registry_with(), pool=NotAPool())  # type: ignore[arg-type]


class AwaitingPool(CountingPool):
    """Hides that ``abort`` is a source: the inner pool can only await it, as RayPool does."""

    async def __aenter__(self) -> AwaitingPool:
        return self

    async def run(
        self,
        source: str,
        *,
        tool_names: Sequence[str],
        handler: CallHandler,
        abort: AbortCallback | None = None,
        limits: Limits | None = None,
        signatures: Sequence[ToolSignature] | None = None,
        on_output: OutputCallback | None = None,
    ) -> RunResult:
        assert abort is not None
        self.abort_given = abort

        async def awaited() -> str:
            return await abort()

        return await self.inner.run(
            source, tool_names=tool_names, handler=handler, abort=awaited, limits=limits,
            signatures=signatures, on_output=on_output,
        )


async def test_an_outer_abort_reaches_a_pool_that_only_awaits_abort(pool: WorkerPool) -> None:
    from codemode import AbortSignal, ToolRunContext
    from sandbox import AbortSource

    from .test_code_mode_support import run_code_call

    started = anyio.Event()

    async def slow(args: Any, ctx: ToolRunContext) -> Any:
        started.set()
        await ctx.signal.wait()
        return None

    awaiting = AwaitingPool(pool)
    registry = registry_with(make_tool("slow", body=slow))
    signal = AbortSignal()
    results = []
    with anyio.fail_after(30):  # a guard against a hang, never a timing assertion
        async with code_mode(registry, awaiting), anyio.create_task_group() as tg:

            async def call() -> None:
                results.append(
                    await registry.execute(run_code_call("await tools.slow()", signal=signal))
                )

            tg.start_soon(call)
            await started.wait()
            signal.abort("user pressed stop")
    [result] = results
    assert result.is_error
    assert result.error.message.startswith("code run failed (abort): user pressed stop")
    # What run_code passed is both: a source for WorkerPool, awaitable for the rest.
    assert isinstance(awaiting.abort_given, AbortSource)


class RejectingPool(CountingPool):
    """A pool whose ``run`` raises while a sub-call it made is still running."""

    def __init__(self, inner: WorkerPool, started: anyio.Event) -> None:
        super().__init__(inner)
        self.started = started
        self.pending: list[Any] = []

    async def __aenter__(self) -> RejectingPool:
        return self

    async def run(
        self,
        source: str,
        *,
        tool_names: Sequence[str],
        handler: CallHandler,
        abort: AbortCallback | None = None,
        limits: Limits | None = None,
        signatures: Sequence[ToolSignature] | None = None,
        on_output: OutputCallback | None = None,
    ) -> RunResult:
        import asyncio

        self.pending.append(asyncio.ensure_future(handler.call_tool("slow", {})))
        await self.started.wait()
        raise RuntimeError("the runtime broke down")


async def test_a_runtime_that_rejects_still_settles_its_sub_calls_inside_the_run(
    pool: WorkerPool,
) -> None:
    from codemode import CodeDispatchEvent, CodeDispatchStartEvent, ToolRunContext
    from sandbox import ToolCallFailed

    from .test_code_mode_support import code_of, failure_of, turn_log

    started = anyio.Event()
    seen: list[Any] = []

    async def slow(args: Any, ctx: ToolRunContext) -> Any:
        seen.append(ctx.signal)
        started.set()
        await ctx.signal.wait()
        return "done"

    log = turn_log()
    rejecting = RejectingPool(pool, started)
    registry = registry_with(make_tool("slow", body=slow))
    with anyio.fail_after(30):  # a guard against a hang, never a timing assertion
        async with code_mode(registry, rejecting, log=log):
            result = await run_code_on(registry, "await tools.slow()")
            # Every dispatch event is in the log by the time run_code answered.
            kinds = [type(e) for e in log.events()][1:]
    # A rejected run is the ordinary error, not a failed program.
    assert failure_of(result).message == "the runtime broke down"
    assert code_of(result) is None
    assert seen[0].aborted
    assert seen[0].reason == "run_code settled"
    assert kinds == [CodeDispatchStartEvent, CodeDispatchEvent]
    [call] = rejecting.pending
    with pytest.raises(ToolCallFailed, match=r"run_code run is over \(run_code settled\)"):
        call.result()
