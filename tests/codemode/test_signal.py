"""AbortSignal: the caller-owned cancellation signal."""

from __future__ import annotations

import logging

import anyio
import pytest
from anyio.lowlevel import checkpoint
from hypothesis import given
from hypothesis import strategies as st

from codemode._signal import AbortSignal, fuse


def test_a_new_signal_is_pending() -> None:
    signal = AbortSignal()
    assert not signal.aborted
    assert signal.reason is None


def test_abort_sets_the_reason() -> None:
    signal = AbortSignal()
    signal.abort("user pressed stop")
    assert signal.aborted
    assert signal.reason == "user pressed stop"


def test_abort_without_a_reason_uses_aborted() -> None:
    signal = AbortSignal()
    signal.abort()
    assert signal.reason == "aborted"


def test_the_first_abort_reason_wins() -> None:
    signal = AbortSignal()
    signal.abort("first")
    signal.abort("second")
    assert signal.reason == "first"


def test_abort_rejects_a_reason_that_is_not_a_string() -> None:
    signal = AbortSignal()
    with pytest.raises(TypeError, match=r"^abort reason must be a str, got reason=3$"):
        signal.abort(3)  # type: ignore[arg-type]
    assert not signal.aborted


def test_callbacks_run_once_in_registration_order_after_the_reason_is_set() -> None:
    signal = AbortSignal()
    seen: list[str] = []
    signal.on_abort(lambda: seen.append(f"a:{signal.reason}"))
    signal.on_abort(lambda: seen.append(f"b:{signal.reason}"))
    signal.abort("stop")
    signal.abort("again")
    assert seen == ["a:stop", "b:stop"]


def test_a_disposed_callback_is_not_called() -> None:
    signal = AbortSignal()
    seen: list[str] = []
    dispose = signal.on_abort(lambda: seen.append("called"))
    dispose()
    dispose()
    signal.abort("stop")
    assert seen == []


def test_a_callback_registered_after_the_abort_runs_immediately() -> None:
    signal = AbortSignal.aborted_with("late")
    seen: list[str] = []
    dispose = signal.on_abort(lambda: seen.append(str(signal.reason)))
    assert seen == ["late"]
    dispose()


def test_a_failing_callback_is_logged_and_the_others_still_run(
    caplog: pytest.LogCaptureFixture,
) -> None:
    signal = AbortSignal()
    seen: list[str] = []

    def broken() -> None:
        raise RuntimeError("listener bug")

    signal.on_abort(broken)
    signal.on_abort(lambda: seen.append(str(signal.reason)))
    with caplog.at_level(logging.ERROR, logger="codemode"):
        signal.abort("stop")
    assert seen == ["stop"]
    assert "an AbortSignal callback raised" in caplog.text


def test_on_abort_rejects_a_value_that_is_not_callable() -> None:
    with pytest.raises(TypeError, match=r"^on_abort needs a callable, got callback=5$"):
        AbortSignal().on_abort(5)  # type: ignore[arg-type]


def test_aborted_with_builds_an_aborted_signal() -> None:
    signal = AbortSignal.aborted_with("done")
    assert signal.aborted
    assert signal.reason == "done"


async def test_wait_returns_at_once_for_an_aborted_signal() -> None:
    with anyio.fail_after(5):
        await AbortSignal.aborted_with("x").wait()


async def test_wait_wakes_every_waiter_when_the_signal_aborts() -> None:
    signal = AbortSignal()
    woken: list[int] = []

    async def waiter(n: int) -> None:
        await signal.wait()
        woken.append(n)

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(waiter, 1)
            tg.start_soon(waiter, 2)
            await anyio.wait_all_tasks_blocked()
            assert woken == []
            signal.abort("go")
    assert sorted(woken) == [1, 2]


def test_any_aborts_when_one_source_aborts_with_its_reason() -> None:
    a, b = AbortSignal(), AbortSignal()
    fused = AbortSignal.any(a, b)
    assert not fused.aborted
    b.abort("b went")
    assert fused.reason == "b went"
    a.abort("a went")
    assert fused.reason == "b went"


def test_any_of_an_already_aborted_source_is_aborted_with_the_first_reason() -> None:
    one, two = AbortSignal.aborted_with("one"), AbortSignal.aborted_with("two")
    fused = AbortSignal.any(AbortSignal(), one, two)
    assert fused.reason == "one"


def test_any_rejects_arguments_that_are_not_signals() -> None:
    expected = r"^AbortSignal\.any takes AbortSignal objects; argument 1 is None$"
    with pytest.raises(TypeError, match=expected):
        AbortSignal.any(AbortSignal(), None)  # type: ignore[arg-type]


def test_any_of_no_signals_never_aborts() -> None:
    assert not AbortSignal.any().aborted


def test_released_fusion_no_longer_follows_its_sources() -> None:
    source = AbortSignal()
    fused, release = fuse(source)
    release()
    source.abort("later")
    assert not fused.aborted


def test_aborting_a_fusion_detaches_it_from_the_other_sources() -> None:
    a, b = AbortSignal(), AbortSignal()
    fused = AbortSignal.any(a, b)
    a.abort("a")
    assert b._callbacks == {}
    assert fused.aborted


async def test_cancel_scope_cancels_the_enclosed_work_when_the_signal_aborts() -> None:
    signal = AbortSignal()
    reached_end = False
    started = anyio.Event()

    async def work() -> None:
        nonlocal reached_end
        with signal.cancel_scope() as scope:
            started.set()
            await anyio.Event().wait()
            reached_end = True
        assert scope.cancelled_caught

    with anyio.fail_after(5):
        async with anyio.create_task_group() as tg:
            tg.start_soon(work)
            await started.wait()
            signal.abort("stop")
    assert not reached_end


async def test_cancel_scope_of_an_aborted_signal_cancels_at_the_first_checkpoint() -> None:
    signal = AbortSignal.aborted_with("already")
    passed = False
    with anyio.fail_after(5), signal.cancel_scope() as scope:
        await checkpoint()
        passed = True
    assert scope.cancelled_caught
    assert not passed


async def test_cancel_scope_leaves_completed_work_alone_and_unregisters() -> None:
    signal = AbortSignal()
    with signal.cancel_scope() as scope:
        await checkpoint()
    assert not scope.cancel_called
    assert signal._callbacks == {}


def test_repr_shows_the_state() -> None:
    signal = AbortSignal()
    assert repr(signal) == "<AbortSignal pending>"
    signal.abort("x")
    assert repr(signal) == "<AbortSignal aborted reason='x'>"


@given(st.lists(st.integers(min_value=0, max_value=3), max_size=8))
def test_a_fusion_carries_the_reason_of_the_first_source_to_abort(order: list[int]) -> None:
    sources = [AbortSignal() for _ in range(4)]
    fused = AbortSignal.any(*sources)
    for n in order:
        sources[n].abort(f"source {n}")
    if order:
        assert fused.reason == f"source {order[0]}"
        # Once aborted, the fusion no longer hangs a callback on any source.
        assert all(not s._callbacks for s in sources)
    else:
        assert not fused.aborted
