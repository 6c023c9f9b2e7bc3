"""``WorkerPool.run`` with an ``abort`` that is also an ``AbortSource``.

The pool subscribes to such an ``abort`` instead of awaiting it in a watcher
task: these tests show that it ends the run with the source's reason, that
the pool never awaits it, that the subscription is gone after the run, and
that a plain async callable still works the old way beside it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import anyio
import pytest

from sandbox import AbortSource, WorkerPool
from sandbox._pool_interface import is_abort_source

from .test_pool import _alive

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.lossless import JsonValue

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class Source:
    """An abort source the tests fire by hand; awaiting it is a test failure."""

    def __init__(self) -> None:
        self._reason: str | None = None
        self.callbacks: dict[int, Callable[[], object]] = {}
        self.awaited = False

    async def __call__(self) -> str:
        # The pool must subscribe, not wait in a task: make that visible.
        self.awaited = True
        raise AssertionError("the pool awaited an abort source instead of subscribing")

    @property
    def reason(self) -> str | None:
        return self._reason

    def on_abort(self, callback: Callable[[], object]) -> Callable[[], None]:
        if self._reason is not None:
            callback()
            return lambda: None
        key = len(self.callbacks) + 1
        self.callbacks[key] = callback
        return lambda: self.callbacks.pop(key, None) and None

    def fire(self, reason: str) -> None:
        self._reason = reason
        for callback in list(self.callbacks.values()):
            callback()


class AbortingHandler:
    """Fires ``source`` from inside the program's first call, then blocks forever."""

    def __init__(self, source: Source, reason: str) -> None:
        self.source = source
        self.reason = reason

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.source.fire(self.reason)
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


def test_the_check_reads_the_class_and_needs_all_three_members() -> None:
    async def plain() -> str:
        return "stop"

    assert is_abort_source(Source())
    assert isinstance(Source(), AbortSource)
    assert not is_abort_source(plain)
    assert not is_abort_source(None)

    class NoCall:
        reason = None

        def on_abort(self, callback: Callable[[], object]) -> Callable[[], None]:
            return lambda: None

    assert not is_abort_source(NoCall())
    class Callable_:
        async def __call__(self) -> str:
            return "stop"

    # Instance attributes do not make a source: the check reads the class.
    almost = Callable_()
    almost.on_abort = lambda callback: None  # type: ignore[attr-defined]
    almost.reason = None  # type: ignore[attr-defined]
    assert not is_abort_source(almost)


async def test_a_source_that_fires_during_the_run_ends_it_as_abort_with_its_reason() -> None:
    source = Source()
    handler = AbortingHandler(source, "the user pressed stop")
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "await tools.wait()", tool_names=["wait"], handler=handler, abort=source
            )
    assert result.error is not None
    assert (result.error.kind, result.error.message) == ("abort", "the user pressed stop")
    assert result.pid is not None
    assert not _alive(result.pid)
    assert not source.awaited
    assert source.callbacks == {}  # the pool unsubscribed


async def test_a_source_fired_before_the_run_ends_it_as_abort_before_the_program_finishes() -> None:
    source = Source()
    source.fire("")
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "while True:\n    pass", tool_names=[], handler=AbortingHandler(source, ""),
                abort=source,
            )
    assert result.error is not None
    # An empty reason is reported as "aborted", as for an abort callable.
    assert (result.error.kind, result.error.message) == ("abort", "aborted")
    assert not source.awaited


async def test_a_run_that_finishes_first_leaves_no_subscription_behind() -> None:
    source = Source()
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "return 41 + 1", tool_names=[], handler=_Echo(), abort=source
            )
    assert result.error is None
    assert result.value == 42
    assert source.callbacks == {}
    assert not source.awaited
    source.fire("late")  # nothing is subscribed any more: this reaches no run


async def test_a_plain_async_callable_is_still_awaited() -> None:
    entered = anyio.Event()

    class Handler:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            entered.set()
            await anyio.sleep_forever()
            raise AssertionError("unreachable")

    async def abort() -> str:
        await entered.wait()
        return f"stopped by {os.getpid()}"

    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "await tools.wait()", tool_names=["wait"], handler=Handler(), abort=abort
            )
    assert result.error is not None
    assert (result.error.kind, result.error.message) == ("abort", f"stopped by {os.getpid()}")


class _Echo:
    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return args
