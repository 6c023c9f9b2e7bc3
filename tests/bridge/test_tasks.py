"""The host's task set: what an anyio task group guaranteed, kept without one.

Every test orders its steps with events and ``wait_all_tasks_blocked``; none
sleeps or measures time.
"""

from __future__ import annotations

import asyncio
from typing import Any

import anyio
import anyio.lowlevel
import pytest
from anyio import wait_all_tasks_blocked
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.tasks import ParkedCaller, TaskSet


def release_when_stuck(release: anyio.Event) -> asyncio.Task[None]:
    """Set ``release`` once every task is blocked: a wait that should have been
    cancelled then ends as "released" instead of hanging the test."""

    async def watch() -> None:
        await wait_all_tasks_blocked()
        release.set()

    return asyncio.get_running_loop().create_task(watch())


async def test_leaving_normally_waits_for_a_running_task() -> None:
    release = anyio.Event()
    ended: list[str] = []

    async def body() -> None:
        await release.wait()
        ended.append("body")

    async with TaskSet() as tasks:
        tasks.start(body())
        await wait_all_tasks_blocked()
        release.set()
    assert ended == ["body"]


async def test_leaving_by_an_exception_cancels_the_tasks_and_waits_for_them() -> None:
    release = anyio.Event()
    ended: list[str] = []

    async def body() -> None:
        try:
            await release.wait()
            ended.append("released")
        finally:
            ended.append("ended")

    async def failing_run() -> None:
        async with TaskSet() as tasks:
            tasks.start(body())
            await wait_all_tasks_blocked()
            watchdogs.append(release_when_stuck(release))
            raise LookupError("the run's read loop failed")

    watchdogs: list[asyncio.Task[None]] = []
    with pytest.raises(LookupError):
        await failing_run()
    watchdogs[0].cancel()
    assert ended == ["ended"]


async def test_a_cancel_before_the_task_first_runs_is_not_lost() -> None:
    started: list[str] = []

    async def body() -> None:
        started.append("body")
        await anyio.sleep_forever()

    async with TaskSet() as tasks:
        tasks.start(body())
        tasks.cancel()  # the task has not taken a step yet
    assert started == ["body"]  # it ran up to its first wait, and was stopped there


async def test_cancelling_is_level_triggered() -> None:
    # A body that swallows one cancellation is cancelled again at its next
    # wait, as in a task group's scope (a bare Task.cancel() would be spent).
    release = anyio.Event()
    caught: list[str] = []

    async def stubborn() -> None:
        try:
            await anyio.sleep_forever()
        except BaseException:
            caught.append("first")
        await release.wait()
        caught.append("released")

    async with TaskSet() as tasks:
        tasks.start(stubborn())
        await wait_all_tasks_blocked()
        tasks.cancel()
        watchdog = release_when_stuck(release)
    watchdog.cancel()
    assert caught == ["first"]


async def test_leaving_waits_for_the_tasks_even_when_the_run_is_cancelled() -> None:
    stuck, release = anyio.Event(), anyio.Event()
    ended: list[str] = []

    async def cleans_up() -> None:
        try:
            await stuck.wait()
            ended.append("released")
        finally:
            with anyio.CancelScope(shield=True):
                await release.wait()  # a handler's clean-up that takes its time
            ended.append("cleaned up")

    async def let_go() -> None:
        await wait_all_tasks_blocked()
        release.set()

    with anyio.CancelScope() as outer:
        async with TaskSet() as tasks:
            tasks.start(cleans_up())
            await wait_all_tasks_blocked()
            outer.cancel()
            watchdog = release_when_stuck(stuck)
            asyncio.get_running_loop().create_task(let_go())
            await anyio.sleep_forever()
    watchdog.cancel()
    assert outer.cancelled_caught
    assert ended == ["cleaned up"]  # cancelled, and cleaned up before the context was left


async def test_a_task_ending_with_an_exception_re_raises_it_on_leaving() -> None:
    class HandlerBug(BaseException):
        pass

    async def broken() -> None:
        raise HandlerBug

    with pytest.raises(HandlerBug):
        async with TaskSet() as tasks:
            tasks.start(broken())


class Waiter:
    """A task body that waits for ``release`` (then raises ``failure``, if any), and its task."""

    def __init__(self, failure: Exception | None = None) -> None:
        self.release = anyio.Event()
        self.failure = failure
        self.ended = False
        self.task: asyncio.Task[Any] | None = None

    async def body(self) -> None:
        self.task = asyncio.current_task()
        await self.release.wait()
        self.ended = True
        if self.failure is not None:
            raise self.failure

    def started(self) -> asyncio.Task[Any]:
        assert self.task is not None, "the body has not run yet"
        return self.task


async def test_leaving_does_not_wait_for_a_forgotten_task() -> None:
    waiter = Waiter()
    watch = release_when_stuck(waiter.release)  # a set that waits anyway lets it end
    async with TaskSet() as tasks:
        tasks.start(waiter.body())
        await anyio.lowlevel.checkpoint()
        tasks.forget(waiter.started())
        assert len(tasks) == 0
    assert not waiter.ended
    await watch
    await waiter.started()  # it still ends on its own
    assert waiter.ended


async def test_forgetting_the_last_task_ends_a_wait_in_progress() -> None:
    waiter = Waiter()
    tasks = TaskSet()
    tasks.start(waiter.body())
    waiting = asyncio.get_running_loop().create_task(tasks.wait())
    await wait_all_tasks_blocked()
    assert not waiting.done()
    tasks.forget(waiter.started())
    with anyio.fail_after(10):  # a safety net: without the wake-up it would hang
        await waiting
    waiter.release.set()
    await waiter.started()


async def test_a_forgotten_tasks_failure_stays_on_its_task() -> None:
    waiter = Waiter(ValueError("after it was forgotten"))
    async with TaskSet() as tasks:
        tasks.start(waiter.body())
        await anyio.lowlevel.checkpoint()
        tasks.forget(waiter.started())
        waiter.release.set()
        await asyncio.wait([waiter.started()])
    # Leaving did not re-raise it; the task holds it, as asyncio reports it.
    with pytest.raises(ValueError, match="after it was forgotten"):
        waiter.started().result()


async def test_no_tasks_means_no_wait() -> None:
    async with TaskSet() as tasks:
        pass
    assert (tasks.started, len(tasks)) == (0, 0)


async def test_an_ended_task_is_not_held() -> None:
    # A long-lived set (a turn's scheduler) must not keep every task it ran.
    release = anyio.Event()

    async def quick() -> None:
        pass

    async def waits() -> None:
        await release.wait()

    async with TaskSet() as tasks:
        for _ in range(3):
            tasks.start(quick())
        tasks.start(waits())
        await wait_all_tasks_blocked()
        await anyio.lowlevel.checkpoint()  # the ended tasks' callbacks run first
        assert (tasks.started, len(tasks)) == (4, 1)
        release.set()
    assert len(tasks) == 0


async def test_without_cancel_on_error_the_tasks_run_to_their_end() -> None:
    release = anyio.Event()
    ended: list[str] = []

    async def must_finish() -> None:
        await release.wait()
        ended.append("finished")

    async def failing_owner() -> None:
        async with TaskSet(cancel_on_error=False) as tasks:
            tasks.start(must_finish())
            await wait_all_tasks_blocked()
            watchdogs.append(release_when_stuck(release))
            raise LookupError("the owner failed")

    watchdogs: list[asyncio.Task[None]] = []
    with pytest.raises(LookupError):
        await failing_owner()
    watchdogs[0].cancel()
    assert ended == ["finished"]


async def test_a_set_that_cannot_cancel_waits_for_its_tasks_and_lets_them_finish() -> None:
    # Such a set runs its tasks without a scope of their own (a shielded
    # scheduler's workers): leaving it still waits for every task, a task
    # that ended is let go, and a failing owner does not stop them.
    waiter, quick = Waiter(), Waiter()
    watchdogs: list[asyncio.Task[None]] = []

    async def failing_owner() -> None:
        async with TaskSet(cancel_on_error=False, cancellable=False) as tasks:
            tasks.start(waiter.body())
            tasks.start(quick.body())
            await wait_all_tasks_blocked()
            quick.release.set()
            await asyncio.wait([quick.started()])
            await anyio.lowlevel.checkpoint()  # the ended task's callback runs first
            assert (tasks.started, len(tasks)) == (2, 1)
            watchdogs.append(release_when_stuck(waiter.release))
            raise LookupError("the owner failed")

    with anyio.fail_after(10), pytest.raises(LookupError):  # a safety net, not a timing
        await failing_owner()
    watchdogs[0].cancel()
    assert waiter.ended
    assert quick.ended


async def test_a_set_that_cannot_cancel_re_raises_a_tasks_failure_and_forgets() -> None:
    class HandlerBug(BaseException):
        pass

    async def broken() -> None:
        raise HandlerBug

    with pytest.raises(HandlerBug):
        async with TaskSet(cancel_on_error=False, cancellable=False) as tasks:
            tasks.start(broken())
    waiter = Waiter()
    tasks = TaskSet(cancel_on_error=False, cancellable=False)
    tasks.start(waiter.body())
    waiting = asyncio.get_running_loop().create_task(tasks.wait())
    await wait_all_tasks_blocked()
    tasks.forget(waiter.started())
    with anyio.fail_after(10):  # a safety net: without the wake-up it would hang
        await waiting
    waiter.release.set()
    await waiter.started()


async def test_a_set_that_cannot_cancel_refuses_to() -> None:
    with pytest.raises(ValueError, match="must be cancellable"):
        TaskSet(cancellable=False)
    tasks = TaskSet(cancel_on_error=False, cancellable=False)
    with pytest.raises(RuntimeError, match="cannot be cancelled"):
        tasks.cancel()


async def test_a_task_started_while_leaving_is_waited_for_too() -> None:
    go = anyio.Event()
    ended: list[str] = []

    async def second() -> None:
        await go.wait()
        ended.append("second")

    async def first(tasks: TaskSet) -> None:
        await anyio.lowlevel.checkpoint()
        tasks.start(second())  # as a scheduler's worker hands work on
        ended.append("first")

    watchdog = release_when_stuck(go)
    async with TaskSet() as tasks:
        tasks.start(first(tasks))
    watchdog.cancel()
    assert ended == ["first", "second"]


_BEHAVIOURS = st.sampled_from(["returns", "waits", "stubborn", "cleans-up"])


@settings(max_examples=40, deadline=None)
@given(
    behaviours=st.lists(_BEHAVIOURS, max_size=6),
    ending=st.sampled_from(["cancel", "exception", "run-cancelled"]),
)
def test_every_task_has_ended_and_none_outlived_its_cancel(
    behaviours: list[str], ending: str
) -> None:
    async def scenario() -> None:
        release = anyio.Event()
        running: set[int] = set()
        released: list[int] = []

        async def body(index: int, behaviour: str) -> None:
            running.add(index)
            try:
                if behaviour == "returns":
                    return
                if behaviour == "stubborn":
                    try:
                        await release.wait()
                        released.append(index)
                    except BaseException:
                        pass
                if behaviour == "cleans-up":
                    try:
                        await release.wait()
                        released.append(index)
                    finally:
                        with anyio.CancelScope(shield=True):
                            await anyio.lowlevel.checkpoint()
                await release.wait()
                released.append(index)
            finally:
                running.discard(index)

        watchdog = None
        with anyio.CancelScope() as outer:
            try:
                async with TaskSet() as tasks:
                    for index, behaviour in enumerate(behaviours):
                        tasks.start(body(index, behaviour))
                    await wait_all_tasks_blocked()
                    watchdog = release_when_stuck(release)
                    if ending == "cancel":
                        tasks.cancel()
                    elif ending == "exception":
                        raise LookupError
                    else:
                        outer.cancel()
                        await anyio.sleep_forever()
            except LookupError:
                pass
        assert watchdog is not None
        watchdog.cancel()
        assert running == set()
        assert released == []  # every wait was cancelled, none outlasted it

    anyio.run(scenario)


async def test_a_parked_caller_gets_the_call_it_was_served() -> None:
    parked: ParkedCaller[str] = ParkedCaller()
    got: list[str | None] = []

    async def caller() -> None:
        got.append(await parked.next_call())
        got.append(await parked.next_call())

    async with TaskSet() as tasks:
        tasks.start(caller())
        await wait_all_tasks_blocked()
        parked.serve("call 0")
        await wait_all_tasks_blocked()
        parked.release()
    assert got == ["call 0", None]


async def test_a_call_served_before_the_caller_parks_is_not_lost() -> None:
    parked: ParkedCaller[str] = ParkedCaller()
    parked.serve("early")
    assert await parked.next_call() == "early"
