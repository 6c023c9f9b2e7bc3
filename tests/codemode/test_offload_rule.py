"""Work on a value runs in a worker thread when the value is long, by its characters too."""

from __future__ import annotations

import threading

import pytest

from bridge.lossless import INLINE_CHARS_PER_NODE, INLINE_NODES
from codemode._offload import fits_inline, frozen_snapshot, sized
from codemode._validate import INLINE_WALK_NODES

LONG = INLINE_NODES * INLINE_CHARS_PER_NODE


@pytest.mark.parametrize(
    ("value", "inline"),
    [
        pytest.param("x" * 100, True, id="short-string"),
        pytest.param(list(range(100)), True, id="short-list"),
        pytest.param("x" * LONG, False, id="one-long-string"),
        pytest.param({"k" * LONG: 0}, False, id="one-long-key"),
        pytest.param(list(range(INLINE_NODES + 1)), False, id="many-values"),
    ],
)
async def test_sized_work_runs_inline_only_on_a_short_value(value: object, inline: bool) -> None:
    loop_thread = threading.current_thread()
    ran_on = await sized(value, threading.current_thread)
    assert (ran_on is loop_thread) == inline
    assert fits_inline(value) == inline


async def test_a_long_string_is_snapshotted_off_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    from bridge.lossless import materialize as real

    threads: list[threading.Thread] = []

    def recording(value: object, **kwargs: object) -> object:
        threads.append(threading.current_thread())
        return real(value, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr("codemode._offload.materialize", recording)
    value = {"text": "x" * LONG}
    assert await frozen_snapshot(value) == value
    assert len(threads) == 1
    assert threads[0] is not threading.current_thread()


@pytest.mark.parametrize(
    ("value", "inline"),
    [
        pytest.param(list(range(INLINE_WALK_NODES - 1)), True, id="within-the-limit"),
        pytest.param(list(range(INLINE_WALK_NODES + 1)), False, id="over-the-limit"),
        pytest.param("x" * (INLINE_WALK_NODES * INLINE_CHARS_PER_NODE), False, id="long-string"),
    ],
)
async def test_sized_work_with_a_lower_limit_runs_inline_only_within_it(
    value: object, inline: bool
) -> None:
    # Work that costs many times more per value than a copy (describing a value
    # a schema refuses) gives a lower limit than the loop's rule.
    assert fits_inline(value)
    loop_thread = threading.current_thread()
    ran_on = await sized(value, threading.current_thread, limit=INLINE_WALK_NODES)
    assert (ran_on is loop_thread) == inline
