"""HostEndpoint.send_run (the Run frame written ahead of serve) and a run's first wait."""

from __future__ import annotations

import asyncio
import fcntl
import os
from functools import partial
from typing import Any

import anyio
import anyio.lowlevel
import anyio.to_thread
import msgspec
import pytest

from bridge.host import HostEndpoint
from bridge.protocol import (
    PROTOCOL_VERSION,
    Done,
    FrameBuffer,
    HostMessageDecoder,
    Log,
    Ready,
    Run,
    encode_frame,
    read_frame,
)
from tests.bridge.test_host_endpoint import Echo, FakeChild, make_run

GUARD = 10  # seconds; a guard against hangs, never a timing assertion


def _done(value: object) -> Done:
    return Done(value=msgspec.json.encode(value))


def _nothing_more_to_read(fd: int) -> bool:
    os.set_blocking(fd, False)
    try:
        os.read(fd, 1)
    except BlockingIOError:
        return True
    return False


async def test_a_run_sent_ahead_is_served_without_being_sent_again() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        run = make_run()
        endpoint.send_run(run)
        assert child.recv_run() == run  # in the pipe before serve() began
        child.send(_done(1))
        with anyio.fail_after(GUARD):
            outcome = await endpoint.serve(run, Echo())
        assert outcome.value == 1
        assert _nothing_more_to_read(child.to_child_r)
    finally:
        child.close_host_side()
        child.close_child_side()


async def test_what_the_pipe_did_not_take_is_sent_by_serve() -> None:
    child = FakeChild()
    try:
        fcntl.fcntl(child.to_child_w, fcntl.F_SETPIPE_SZ, 4096)
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        run = msgspec.structs.replace(make_run(), source="x" * 50_000)
        assert len(encode_frame(run)) > 4096
        endpoint.send_run(run)  # the pipe takes a part; nobody reads yet
        received: list[Run] = []

        def child_side() -> None:
            message = HostMessageDecoder().decode(read_frame(child.to_child_r, FrameBuffer()))
            assert isinstance(message, Run)
            received.append(message)
            child.send(_done(2))

        with anyio.fail_after(GUARD):
            async with anyio.create_task_group() as tg:
                # Abandoned if the guard fires: closing the pipes ends its read.
                tg.start_soon(partial(anyio.to_thread.run_sync, child_side, abandon_on_cancel=True))
                outcome = await endpoint.serve(run, Echo())
        assert outcome.value == 2
        assert received == [run]
    finally:
        child.close_host_side()
        child.close_child_side()


async def test_a_write_that_failed_ahead_is_reported_by_serve() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        os.close(child.to_child_r)  # the child is gone: the write fails with EPIPE
        run = make_run()
        endpoint.send_run(run)  # does not raise: serve() reports it
        os.close(child.to_host_w)
        with anyio.fail_after(GUARD):
            outcome = await endpoint.serve(run, Echo())
        assert outcome.error is not None
        kind, message = outcome.error
        assert kind == "worker-exit"
        assert message.startswith("the child's pipe failed before the run finished (")
        assert outcome.child_closed is True
    finally:
        child.close_host_side()
        child.close_child_side()


async def test_a_second_run_or_another_run_for_serve_is_refused() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        run = make_run()
        endpoint.send_run(run)
        with pytest.raises(RuntimeError, match=r"^this endpoint has already been sent a run$"):
            endpoint.send_run(run)
        with pytest.raises(RuntimeError, match=r"^serve\(\) was given another run than"):
            await endpoint.serve(make_run(), Echo())
        with pytest.raises(RuntimeError, match=r"^this endpoint has already been sent a run$"):
            endpoint.send_run(run)
    finally:
        child.close_host_side()
        child.close_child_side()


class _CountingAddReader:
    """Counts the loop's add_reader calls for one descriptor."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fd: int) -> None:
        self.calls = 0
        loop = asyncio.get_running_loop()
        original = loop.add_reader

        def add_reader(watched: int, callback: Any, *args: Any) -> None:
            if watched == fd:
                self.calls += 1
            original(watched, callback, *args)

        monkeypatch.setattr(loop, "add_reader", add_reader)


async def test_an_answer_already_in_the_pipe_is_read_without_registering_a_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Ready(PROTOCOL_VERSION, os.getpid()))
        with anyio.fail_after(GUARD):
            await endpoint.receive_ready()
        run = make_run()
        endpoint.send_run(run)
        child.send(Log(("hello",)), _done(3))  # the child ran before the host went on
        added = _CountingAddReader(monkeypatch, child.to_host_r)
        with anyio.fail_after(GUARD):
            outcome = await endpoint.serve(run, Echo())
        assert (outcome.value, outcome.logs) == (3, ("hello",))
        assert added.calls == 0
    finally:
        child.close_host_side()
        child.close_child_side()


async def test_only_the_first_wait_of_a_run_reads_before_registering_the_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A child that keeps the pipe full: every read finds the next frame. Only
    # the first wait reads at once; the next ones go through the registered
    # reader (and its read-ahead bound), so the loop is not starved.
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        run = make_run()
        endpoint.send_run(run)
        os.write(child.to_host_w, b"x")  # keeps the descriptor readable: nobody reads it
        arriving = [encode_frame(Log((f"line {n}",))) for n in range(3)] + [encode_frame(_done(5))]
        direct: list[bool] = []

        def read_chunk(self: HostEndpoint) -> bool:
            direct.append(self._reader_loop is None)
            self._frames.feed(arriving.pop(0))
            return True

        monkeypatch.setattr(HostEndpoint, "_read_chunk", read_chunk)
        added = _CountingAddReader(monkeypatch, child.to_host_r)
        with anyio.fail_after(GUARD):
            outcome = await endpoint.serve(run, Echo())
        assert (outcome.value, outcome.logs) == (5, ("line 0", "line 1", "line 2"))
        assert direct == [True, False, False, False]  # one read before the reader, then its own
        assert added.calls == 1
    finally:
        child.close_host_side()
        child.close_child_side()
