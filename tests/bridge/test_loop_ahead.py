"""The run's event loop made before its channel exists (``bridge.run_loop.event_loop_ahead``).

The zygote makes each child's loops before it forks, so a loop made ahead must
hold nothing the zygote and its children would share: no descriptor until a
channel takes it, and then one the taking process opened.
"""

from __future__ import annotations

import asyncio
import gc
import os
import socket
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from bridge.child import ChildChannel, event_loop_ahead

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator


def open_descriptors() -> list[str]:
    fds = Path("/proc/self/fd")
    names = []
    for name in os.listdir(fds):
        try:
            names.append(os.readlink(fds / name))
        except FileNotFoundError:
            continue  # the listing's own descriptor, closed by now
    return sorted(names)


@pytest.fixture
def pipes() -> Iterator[tuple[int, int]]:
    """The child's two pipe ends (its read end, its write end)."""
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    try:
        yield to_child_r, to_host_w
    finally:
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")
def test_a_loop_made_ahead_opens_no_descriptor() -> None:
    # asyncio's own loop opens an epoll descriptor and a socket pair (its
    # self-pipe) as it is made: made in the zygote, every child would share them.
    before = open_descriptors()
    loops = [event_loop_ahead() for _ in range(3)]
    assert open_descriptors() == before
    for loop in loops:
        loop.close()
    assert open_descriptors() == before


def test_a_channel_opens_its_selector_and_registers_its_pipe(pipes: tuple[int, int]) -> None:
    read_fd, write_fd = pipes
    loop = event_loop_ahead()
    channel = ChildChannel(read_fd, write_fd)
    try:
        assert channel.new_event_loop(loop) is loop
        selector = loop.step_selector
        assert selector.channel is channel
        assert selector.get_key(read_fd).fd == read_fd
        assert list(selector.get_map()) == [read_fd]
    finally:
        channel.detach()
        loop.close()


def test_a_loop_serves_one_channel_only(pipes: tuple[int, int]) -> None:
    read_fd, write_fd = pipes
    loop = event_loop_ahead()
    first = ChildChannel(read_fd, write_fd)
    first.new_event_loop(loop)
    try:
        with pytest.raises(ValueError, match="already served a channel"):
            ChildChannel(read_fd, write_fd).new_event_loop(loop)
    finally:
        first.detach()
        loop.close()
    with pytest.raises(ValueError, match="already served a channel"):
        ChildChannel(read_fd, write_fd).new_event_loop(loop)  # closed


def test_a_loop_without_a_channel_refuses_to_wait_and_says_why() -> None:
    loop = event_loop_ahead()
    try:
        with pytest.raises(RuntimeError, match=r"pass it to ChildChannel\.new_event_loop"):
            loop.step_selector.select(0)
        with pytest.raises(RuntimeError, match=r"pass it to ChildChannel\.new_event_loop"):
            loop.add_reader(0, print)
    finally:
        loop.close()


def test_a_program_abandoning_an_async_generator_still_has_it_closed(
    pipes: tuple[int, int],
) -> None:
    # The loop has no self-pipe: asyncio's finaliser of an async generator
    # schedules its closing "thread-safely", which writes to that pipe. On the
    # loop's own thread the callback is queued all the same and runs before
    # the loop next waits.
    read_fd, write_fd = pipes
    channel = ChildChannel(read_fd, write_fd)
    loop = channel.new_event_loop()
    closed: list[str] = []

    async def numbers() -> AsyncIterator[int]:
        try:
            yield 1
            yield 2
        finally:
            closed.append("closed")

    async def program() -> list[str]:
        iterator = numbers()
        assert await iterator.__anext__() == 1
        del iterator
        gc.collect()  # the generator is finalised here, mid-iteration
        for _ in range(3):
            await asyncio.sleep(0)
        return list(closed)

    try:
        assert loop.run_until_complete(program()) == ["closed"]
    finally:
        channel.detach()
        loop.close()


def test_a_loop_made_ahead_runs_a_program_over_a_socket_pair() -> None:
    # The warm-up's shape: the program's end and a far end on the same loop.
    near, far = socket.socketpair()
    with near, far:
        channel = ChildChannel(near.fileno(), near.fileno())
        loop = channel.new_event_loop(event_loop_ahead())
        answered: list[bytes] = []

        async def program() -> list[bytes]:
            arrived = asyncio.Event()

            def read() -> None:
                answered.append(far.recv(100))
                arrived.set()

            loop.add_reader(far.fileno(), read)
            near.send(b"x")
            await arrived.wait()
            return answered

        try:
            assert loop.run_until_complete(program()) == [b"x"]
        finally:
            loop.remove_reader(far.fileno())
            channel.detach()
            loop.close()


def test_a_timer_s_deadline_is_an_exact_float_whatever_the_program_gave() -> None:
    # The loop orders its timers by deadline at every iteration: a program's
    # number there would run its own comparisons then, after its return too.
    compared: list[str] = []

    class When(float):
        def __lt__(self, other: object) -> bool:
            compared.append("lt")
            return float(self) < float(other)  # type: ignore[arg-type]

    loop = event_loop_ahead()
    try:
        handles = [loop.call_at(When(5.0), print), loop.call_at(When(4.0), print)]
        assert [type(handle.when()) for handle in handles] == [float, float]
        assert [handle.when() for handle in handles] == [5.0, 4.0]
        assert compared == []
        for handle in handles:
            handle.cancel()
    finally:
        loop.close()


def test_finishing_a_run_leaves_its_loop_alone_and_the_next_loop_takes_the_reader(
    pipes: tuple[int, int],
) -> None:
    # A child's run ends with after_run(); its loop never runs again (the
    # child sends Done and exits), so the reply reader is not taken off it
    # there: asyncio's removal code, run for the first time in the child,
    # cost it about 70 µs and 10 page faults on every run. A channel that is
    # given another loop still moves the reader, so no two loops read its pipe.
    from bridge.proxy import make_bindings

    read_fd, write_fd = pipes
    channel = ChildChannel(read_fd, write_fd)
    first, second = event_loop_ahead(), event_loop_ahead()
    try:
        channel.new_event_loop(first)
        _bindings, on_return, after_run = make_bindings(channel, ("search",))
        on_return()
        assert after_run() is None
        assert list(first.step_selector.get_map()) == [read_fd]
        assert channel.new_event_loop(second) is second
        assert list(first.step_selector.get_map()) == []
        assert list(second.step_selector.get_map()) == [read_fd]
    finally:
        channel.detach()
        first.close()
        second.close()
