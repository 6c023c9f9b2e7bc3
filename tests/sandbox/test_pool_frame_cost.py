"""The host's loop keeps serving while a child's large frame is decoded, and the limits hold.

A real pool and real children. The host's decoder of long JSON text is replaced
by one that waits, in its thread, until the test lets it go; the tests then
order events: another run completes while the long frame is still being
decoded, and a run whose wall clock or abort fires ends while its decode is
still held. Were the decode on the event loop, the held decoder would hold the
loop too, and the order would be the reverse (after the guard's timeout).
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
import pytest

import bridge._decoding
from bridge._decoding import INLINE_DECODE_BYTES, Abandoned
from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import Iterator

    from bridge.lossless import JsonValue

#: How long a held decoder waits before giving up: only reached when the test
#: fails (the loop was blocked), so that the failure is an assertion, not a hang.
GUARD_SECONDS = 20.0

_MIB = 1024 * 1024
LIMITS = Limits(max_frame_bytes=16 * _MIB, max_value_bytes=8 * _MIB)


class HeldDecoder:
    """Holds every decode of long text until :meth:`release`; records what happened."""

    def __init__(self) -> None:
        self.started = threading.Event()
        self.released = threading.Event()
        self.events: list[str] = []
        self.stopped: list[bool] = []
        self._real = bridge._decoding.decode_lossless

    def __call__(self, raw: bytes, stop: threading.Event | None = None) -> JsonValue:
        if len(raw) <= INLINE_DECODE_BYTES:
            return self._real(raw, stop)
        self.started.set()
        self.released.wait(GUARD_SECONDS)
        self.stopped.append(stop is not None and stop.is_set())
        try:
            value = self._real(raw, stop)
        except Abandoned:
            self.events.append("decode abandoned")
            raise
        self.events.append(f"decoded {len(raw)} bytes")
        return value

    async def wait_started(self) -> None:
        assert await anyio.to_thread.run_sync(self.started.wait, GUARD_SECONDS)

    def release(self) -> None:
        self.released.set()


@pytest.fixture
def held(monkeypatch: pytest.MonkeyPatch) -> Iterator[HeldDecoder]:
    decoder = HeldDecoder()
    monkeypatch.setattr(bridge._decoding, "decode_lossless", decoder)
    try:
        yield decoder
    finally:
        decoder.release()


class Sizes:
    """A handler that answers each call with the number of items it was given."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        assert isinstance(args, dict)
        items = args["items"]
        assert isinstance(items, list)
        return len(items)


LARGE_ARGUMENTS = "return await tools.count(items=[0] * 3_000_000)"  # about 6 MiB of JSON
LARGE_VALUE = "return [0] * 3_000_000"
NESTED = "x = 0\nfor _ in range(450):\n    x = [x]\nreturn await tools.count(items=[x] * 300)"


async def serve_another_while_held(
    pool: WorkerPool, held: HeldDecoder, program: str, handler: object
) -> tuple[list[str], object]:
    """Run ``program``; once its long frame is being decoded, run another program.

    Returns the events in order and the first run's result.
    """
    order: list[str] = []
    outcome: list[object] = []
    async with anyio.create_task_group() as tg:

        async def hostile() -> None:
            result = await pool.run(program, tool_names=["count"], handler=handler)  # type: ignore[arg-type]
            order.append("hostile run done")
            outcome.append(result)

        tg.start_soon(hostile)
        await held.wait_started()
        other = await pool.run("return 'other'", tool_names=[], handler=EchoHandler())
        order.append(f"other run done: {other.value}")
        order.extend(held.events)  # what the held decode had done by then: nothing
        held.release()
    return order + held.events, outcome[0]


@pytest.mark.parametrize(
    ("program", "expected"),
    [(LARGE_ARGUMENTS, 3_000_000), (NESTED, 300)],
    ids=["large-arguments", "deeply-nested-arguments"],
)
async def test_another_run_completes_while_a_childs_arguments_are_decoded(
    held: HeldDecoder, program: str, expected: int
) -> None:
    async with WorkerPool(limits=LIMITS, size=2) as pool:
        order, result = await serve_another_while_held(pool, held, program, Sizes())
    assert order[:2] == ["other run done: other", "hostile run done"]
    assert order[2].startswith("decoded ")
    assert result.error is None, result.error  # type: ignore[attr-defined]
    assert result.value == expected  # type: ignore[attr-defined]


async def test_another_run_completes_while_a_final_value_is_decoded(held: HeldDecoder) -> None:
    async with WorkerPool(limits=LIMITS, size=2) as pool:
        order, result = await serve_another_while_held(pool, held, LARGE_VALUE, EchoHandler())
    assert order[:2] == ["other run done: other", "hostile run done"]
    assert result.error is None, result.error  # type: ignore[attr-defined]
    assert result.value == [0] * 3_000_000  # type: ignore[attr-defined]


async def test_the_wall_clock_ends_a_run_whose_frame_is_still_being_decoded(
    held: HeldDecoder,
) -> None:
    async with WorkerPool(limits=LIMITS, size=1) as pool:
        # Arguments the child builds and checks quickly, well within its second.
        result = await pool.run(
            "return await tools.count(items=[0] * 100_000)",
            tool_names=["count"],
            handler=Sizes(),
            limits=Limits(wall_seconds=1, max_frame_bytes=16 * _MIB, max_value_bytes=8 * _MIB),
        )
        events_at_return = list(held.events)
        held.release()
    assert result.error is not None
    assert result.error.kind == "timeout"
    assert held.started.is_set()
    assert events_at_return == []  # the decode was still held when the run ended
    await anyio.to_thread.run_sync(_wait_for_event, held)
    assert held.stopped == [True]
    assert held.events == ["decode abandoned"]


async def test_an_abort_ends_a_run_whose_frame_is_still_being_decoded(held: HeldDecoder) -> None:
    async def abort_once_decoding() -> str:
        await held.wait_started()
        return "stopped by the test"

    async with WorkerPool(limits=LIMITS, size=1) as pool:
        result = await pool.run(
            LARGE_ARGUMENTS, tool_names=["count"], handler=Sizes(), abort=abort_once_decoding
        )
        events_at_return = list(held.events)
        held.release()
    assert result.error is not None
    assert (result.error.kind, result.error.message) == ("abort", "stopped by the test")
    assert events_at_return == []
    await anyio.to_thread.run_sync(_wait_for_event, held)
    assert held.events == ["decode abandoned"]


def _wait_for_event(held: HeldDecoder) -> None:
    # The abandoned thread finishes on its own once released; wait for its record.
    for _ in range(int(GUARD_SECONDS * 100)):
        if held.events:
            return
        threading.Event().wait(0.01)
