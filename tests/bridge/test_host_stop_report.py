"""The host's side of a stop report: ``Where`` frames from a scripted child.

The child is hostile: after a stopped run the endpoint reads a bounded number of
bytes, serves no call, and gives up on anything but a ``Where``.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

import anyio
import anyio.to_thread
import msgspec

from bridge.host import HostEndpoint
from bridge.protocol import PROTOCOL_VERSION, Call, Done, Log, PipeClosed, Ready, Where

from .test_host_endpoint import Echo, FakeChild, make_run

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.lossless import JsonValue


async def test_a_where_during_the_run_is_kept_and_the_run_goes_on() -> None:
    child = FakeChild()

    def child_side() -> None:
        child.send(Ready(PROTOCOL_VERSION, os.getpid()))
        child.recv_run()
        child.send(Where(5), Where(None), Where(3), Done(value=msgspec.json.encode(1)))

    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        async with anyio.create_task_group() as tg:
            tg.start_soon(anyio.to_thread.run_sync, child_side)
            with anyio.fail_after(10):
                await endpoint.receive_ready()
                outcome = await endpoint.serve(make_run(), Echo())
    finally:
        child.close_host_side()
        child.close_child_side()
    assert (outcome.value, outcome.error) == (1, None)
    assert endpoint.reported_line == 3


class Entered:
    """A handler whose calls never finish; ``entered`` is set by the first one."""

    def __init__(self) -> None:
        self.entered = anyio.Event()
        self.calls = 0

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.calls += 1
        self.entered.set()
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


async def stopped_run(
    after_stop: Callable[[FakeChild], None], *, max_bytes: int = 1 << 20
) -> tuple[int | None, int | None, Entered]:
    """Serve until a call is in flight, stop the run, then read the child's report.

    Returns what ``read_where`` gave, the endpoint's ``reported_line`` and the handler.
    """
    child = FakeChild()
    stopped = threading.Event()
    handler = Entered()

    def child_side() -> None:
        try:
            child.send(Ready(PROTOCOL_VERSION, os.getpid()))
            child.recv_run()
            child.send(Log(("working",)), Call(0, "t", b"{}"))
            stopped.wait(10)
            after_stop(child)
            child.release.wait(10)
        except (PipeClosed, BrokenPipeError):
            pass
        except BaseException as exc:
            child.error = exc
        finally:
            child.close_child_side()

    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        async with anyio.create_task_group() as tg:
            tg.start_soon(anyio.to_thread.run_sync, child_side)
            try:
                with anyio.fail_after(10):
                    await endpoint.receive_ready()
                    with anyio.CancelScope() as scope:
                        async with anyio.create_task_group() as inner:
                            inner.start_soon(endpoint.serve, make_run(), handler)
                            await handler.entered.wait()
                            scope.cancel()
                    stopped.set()
                    line = await endpoint.read_where(max_bytes=max_bytes)
            finally:
                child.release.set()
                child.close_host_side()
    finally:
        child.close_child_side()
    if child.error is not None:
        raise child.error
    return line, endpoint.reported_line, handler


async def test_after_a_stop_the_report_is_read_past_other_frames_and_no_call_is_served() -> None:
    def report(child: FakeChild) -> None:
        child.send(Log(("more",)), Call(1, "t", b"{}"), Where(7))

    line, reported, handler = await stopped_run(report)
    assert (line, reported) == (7, 7)
    assert handler.calls == 1  # the call sent after the stop was not dispatched


async def test_a_child_that_closes_its_pipe_reports_nothing() -> None:
    line, reported, _ = await stopped_run(lambda child: child.close_child_side())
    assert (line, reported) == (None, None)


async def test_a_child_that_breaks_the_protocol_reports_nothing() -> None:
    line, _, _ = await stopped_run(lambda child: child.send(b"\x00\x00\x00\x02\xc1\xc1"))
    assert line is None


async def test_an_oversized_frame_ends_the_wait() -> None:
    line, _, _ = await stopped_run(lambda child: child.send(b"\xff\xff\xff\xff"))
    assert line is None


async def test_a_flooding_child_is_read_only_up_to_the_byte_cap() -> None:
    def flood(child: FakeChild) -> None:
        for _ in range(8):
            child.send(Log(("x" * 10_000,)))
        child.send(Where(3))

    line, _, _ = await stopped_run(flood, max_bytes=20_000)
    assert line is None
    line, _, _ = await stopped_run(flood)
    assert line == 3
