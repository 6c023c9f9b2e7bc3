"""Both ends poll the pipe for a short window instead of blocking when an answer is near.

The child's loop polls for a reply while a call waits for one; the host's
endpoint polls for the child's next frame once every call is answered. Each
window is measured with a clock the tests control (``time.monotonic`` in the
module under test), and each poll is seen as a read or a ``select`` that found
nothing: no test depends on how fast anything runs.
"""

from __future__ import annotations

import asyncio
import os
import selectors
import threading
from typing import TYPE_CHECKING, Any

import anyio
import anyio.to_thread
import msgspec
import pytest
from anyio import wait_all_tasks_blocked

import bridge._call_table
import bridge._pipe_reader
import bridge.child
import bridge.host
import bridge.run_loop
from bridge.child import REPLY_POLL_SECONDS, ChildChannel
from bridge.host import HOST_POLL_SECONDS, HostEndpoint
from bridge.protocol import PROTOCOL_VERSION, Call, Ready, Reply, encode_frame

from .test_host_endpoint import FakeChild, done, make_run, serve

if TYPE_CHECKING:
    import types
    from collections.abc import Callable, Iterator

    from bridge.lossless import JsonValue

#: How long a test script waits for something the endpoint must do before it
#: fails (only reached when the behaviour is broken).
_STUCK = 10


class Clock:
    """A monotonic clock that moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


class _Standing:
    """A module whose attributes are another's, but for the ones given."""

    def __init__(self, real: types.ModuleType, **overrides: object) -> None:
        self._real = real
        self.__dict__.update(overrides)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._real, name)


def fake_time(monkeypatch: pytest.MonkeyPatch, module: types.ModuleType, clock: Clock) -> None:
    """Give ``module`` a ``time`` whose ``monotonic`` is ``clock``'s (the rest is real)."""
    import time

    monkeypatch.setattr(module, "time", _Standing(time, monotonic=clock.monotonic))


#: The modules of the host's endpoint, its layers: each reads the clock and
#: uses ``os`` through its own module global.
HOST_MODULES: tuple[types.ModuleType, ...] = (bridge._pipe_reader, bridge._call_table, bridge.host)


def fake_host_time(monkeypatch: pytest.MonkeyPatch, clock: Clock) -> None:
    """Give the endpoint's every layer ``clock``'s ``time.monotonic`` (see :func:`fake_time`)."""
    for module in HOST_MODULES:
        fake_time(monkeypatch, module, clock)


# ------------------------------------------------------------------------ the host


class EmptyReads:
    """Counts the endpoint's reads that found the pipe empty, per descriptor.

    ``on_empty`` runs at each (on the event loop); ``wait_for`` lets a script
    thread block until a descriptor has seen that many.
    """

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.counts: dict[int, int] = {}
        self.on_empty: Callable[[int], None] = lambda fd: None
        self._changed = threading.Condition()
        real_read = os.read

        def read(fd: int, size: int) -> bytes:
            try:
                return real_read(fd, size)
            except BlockingIOError:
                with self._changed:
                    self.counts[fd] = self.counts.get(fd, 0) + 1
                    self._changed.notify_all()
                self.on_empty(fd)
                raise

        for module in HOST_MODULES:
            monkeypatch.setattr(module, "os", _Standing(os, read=read))

    def of(self, fd: int) -> int:
        with self._changed:
            return self.counts.get(fd, 0)

    def wait_for(self, fd: int, count: int) -> None:
        with self._changed:
            if not self._changed.wait_for(lambda: self.counts.get(fd, 0) >= count, _STUCK):
                raise AssertionError(f"the endpoint read fd {fd} empty fewer than {count} times")


class Blocked:
    """Lets a script thread go on once the endpoint has stopped, after a given call.

    ``after(n)`` is called by a handler as call ``n`` returns; the watcher then
    waits until every task on the loop is blocked (an endpoint that polls never
    is) and notes the empty reads so far; ``go(n)`` waits for that in the thread.
    """

    def __init__(self, reads: EmptyReads) -> None:
        self._reads = reads
        self._answered: dict[int, anyio.Event] = {}
        self._released: dict[int, threading.Event] = {}
        self.reads_when_blocked: dict[int, int] = {}
        self.fd = -1

    def expect(self, *calls: int) -> None:
        for n in calls:
            self._answered[n] = anyio.Event()
            self._released[n] = threading.Event()

    def after(self, n: int) -> None:
        if n in self._answered:
            self._answered[n].set()

    async def watch(self) -> None:
        for n, answered in sorted(self._answered.items()):
            await answered.wait()
            await wait_all_tasks_blocked()
            self.reads_when_blocked[n] = self._reads.of(self.fd)
            self._released[n].set()

    def go(self, n: int) -> None:
        if not self._released[n].wait(_STUCK):
            raise AssertionError(f"the endpoint never stopped after call {n}")


class Numbered:
    """Answers ``{"n": n}`` with ``n``; notes the empty reads as each call starts and returns."""

    def __init__(self, reads: EmptyReads, blocked: Blocked, on_call: Callable[[int], None]) -> None:
        self._reads = reads
        self._blocked = blocked
        self._on_call = on_call
        self.at_start: dict[int, int] = {}
        self.at_return: dict[int, int] = {}

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        assert isinstance(args, dict)
        n = args["n"]
        assert isinstance(n, int)
        fd = self._blocked.fd
        self.at_start[n] = self._reads.of(fd)
        self._on_call(n)
        self.at_return[n] = self._reads.of(fd)
        self._blocked.after(n)
        return n


def call(n: int) -> Call:
    return Call(n, "t", msgspec.json.encode({"n": n}))


async def serve_watched(script: Callable[[FakeChild], None], handler: Any, blocked: Blocked) -> Any:
    async with anyio.create_task_group() as group:
        group.start_soon(blocked.watch)
        return await serve(script, handler)


async def test_a_runs_first_answer_is_waited_for_and_a_quick_one_turns_polling_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # After reply 0 the endpoint waits on the loop's reader (all tasks block);
    # the child answers at once (the clock stands still), so after reply 1 it
    # polls: it keeps reading the pipe itself until Done comes.
    fake_host_time(monkeypatch, Clock())
    reads = EmptyReads(monkeypatch)
    blocked = Blocked(reads)
    blocked.expect(0)
    handler = Numbered(reads, blocked, lambda n: None)
    polls: list[int] = []

    def script(child: FakeChild) -> None:
        blocked.fd = child.to_host_r
        child.send(call(0))
        assert child.recv_reply().value == b"0"
        blocked.go(0)
        child.send(call(1))
        assert child.recv_reply().value == b"1"
        reads.wait_for(child.to_host_r, handler.at_return[1] + 5)
        polls.append(reads.of(child.to_host_r) - handler.at_return[1])
        child.send(done(2))

    outcome = await serve_watched(script, handler, blocked)
    assert outcome.value == 2
    assert blocked.reads_when_blocked[0] == handler.at_return[0]  # no poll after reply 0
    assert polls
    assert polls[0] >= 5


async def test_no_poll_while_a_call_is_still_being_served(monkeypatch: pytest.MonkeyPatch) -> None:
    # Polling is on (call 0 was answered at once), but nothing is near while
    # call 1's tool runs: the endpoint waits for the loop's reader meanwhile.
    fake_host_time(monkeypatch, Clock())
    reads = EmptyReads(monkeypatch)
    blocked = Blocked(reads)
    release = threading.Event()
    seen: list[int] = []

    class Gated:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            assert isinstance(args, dict)
            if args["n"] == 1:
                seen.append(reads.of(blocked.fd))
                await anyio.to_thread.run_sync(release.wait, _STUCK)
                seen.append(reads.of(blocked.fd))
            return args["n"]

    def script(child: FakeChild) -> None:
        blocked.fd = child.to_host_r
        child.send(call(0))
        assert child.recv_reply().value == b"0"
        child.send(call(1))
        release.set()
        assert child.recv_reply().value == b"1"
        child.send(done(2))

    outcome = await serve(script, Gated())
    assert outcome.value == 2
    assert len(seen) == 2
    assert seen[0] == seen[1]


async def test_a_vain_window_turns_polling_off_until_the_child_answers_within_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Call 0 is answered at once: polling is on. Call 1's window passes with
    # nothing read (each empty read then moves the clock past it), so the
    # child's answer to it (call 2) comes too late: after reply 2 the endpoint
    # does not poll. Call 3 comes at once again, which turns polling back on.
    clock = Clock()
    fake_host_time(monkeypatch, clock)
    reads = EmptyReads(monkeypatch)
    advancing = [False]

    def on_empty(fd: int) -> None:
        if advancing[0]:
            clock.now += 10 * HOST_POLL_SECONDS

    def on_call(n: int) -> None:
        advancing[0] = n == 1

    reads.on_empty = on_empty
    blocked = Blocked(reads)
    blocked.expect(2)
    handler = Numbered(reads, blocked, on_call)

    def script(child: FakeChild) -> None:
        fd = blocked.fd = child.to_host_r
        child.send(call(0))
        assert child.recv_reply().value == b"0"
        child.send(call(1))
        assert child.recv_reply().value == b"1"
        reads.wait_for(fd, handler.at_return[1] + 1)  # polled once, in vain
        child.send(call(2))
        assert child.recv_reply().value == b"2"
        blocked.go(2)
        child.send(call(3))
        assert child.recv_reply().value == b"3"
        reads.wait_for(fd, handler.at_return[3] + 3)
        child.send(done(4))

    outcome = await serve_watched(script, handler, blocked)
    assert outcome.value == 4
    assert blocked.reads_when_blocked[2] == handler.at_return[2]  # no poll after reply 2


def greet_and_answer_one_call(*children: FakeChild) -> None:
    """Each child's handshake, then a call its endpoint answers at once: polling is on.

    (The clock stands still, so the child's next frame comes within the window.)
    """
    for child in children:
        child.send(Ready(PROTOCOL_VERSION, os.getpid()))
        child.recv_run()
        child.send(Call(0, "t", b'{"n":0}'))
        child.recv_reply()


async def serve_both(
    children: tuple[FakeChild, FakeChild],
    handler_for: Callable[[FakeChild], Any],
    script: Callable[[], None],
    on_served: Callable[[FakeChild], None] = lambda child: None,
) -> dict[int, JsonValue]:
    """Serve two children on this loop while ``script`` drives both; each run's value by fd."""
    values: dict[int, JsonValue] = {}

    async def run(child: FakeChild) -> None:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        await endpoint.receive_ready()
        values[child.to_host_r] = (await endpoint.serve(make_run(), handler_for(child))).value
        on_served(child)

    try:
        with anyio.fail_after(_STUCK):
            async with anyio.create_task_group() as group:
                group.start_soon(anyio.to_thread.run_sync, script)
                for child in children:
                    group.start_soon(run, child)
    finally:
        for child in children:
            child.close_child_side()
            child.close_host_side()
    return values


async def test_one_endpoint_per_loop_polls_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # The first endpoint to reply polls (the clock stands still: for as long
    # as its child is silent); the second replies meanwhile and must wait for
    # its child's frame on the loop's reader instead of polling too.
    fake_host_time(monkeypatch, Clock())
    reads = EmptyReads(monkeypatch)
    first, second = FakeChild(), FakeChild()
    # Empty reads of each child's pipe as its last call's handler returned
    # (its reply follows at once, with no read between).
    at_reply: dict[int, int] = {}

    class Counted:
        def __init__(self, child: FakeChild) -> None:
            self.fd = child.to_host_r

        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            at_reply[self.fd] = reads.of(self.fd)
            return args

    def script() -> None:
        greet_and_answer_one_call(first, second)
        first.send(Call(1, "t", b'{"n":1}'))
        first.recv_reply()
        reads.wait_for(first.to_host_r, at_reply[first.to_host_r] + 3)
        # The second endpoint serves its whole call now, while the first
        # polls; its child answers only after three more passes of the loop
        # (three more polls of the first), in which the second would have
        # polled too.
        second.send(Call(1, "t", b'{"n":2}'))
        second.recv_reply()
        reads.wait_for(first.to_host_r, reads.of(first.to_host_r) + 3)
        second.send(done(2))
        assert second_done.wait(_STUCK)
        first.send(done(1))

    finished: list[int] = []
    second_done = threading.Event()

    def served(child: FakeChild) -> None:
        finished.append(child.to_host_r)
        if child is second:
            second_done.set()

    values = await serve_both((first, second), Counted, script, served)
    assert values == {first.to_host_r: 1, second.to_host_r: 2}
    assert finished == [second.to_host_r, first.to_host_r]
    assert reads.of(second.to_host_r) == at_reply[second.to_host_r]
    assert reads.of(first.to_host_r) >= at_reply[first.to_host_r] + 6


async def test_an_endpoint_whose_child_answered_gives_the_polling_slot_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first endpoint polls, then its child's next call comes and its
    # handler runs on: the first is no longer polling, so the second, which
    # replies meanwhile, polls for its child's answer.
    fake_host_time(monkeypatch, Clock())
    reads = EmptyReads(monkeypatch)
    first, second = FakeChild(), FakeChild()
    at_reply: dict[int, int] = {}
    gate = threading.Event()

    class Handler:
        def __init__(self, child: FakeChild) -> None:
            self.fd = child.to_host_r

        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            assert isinstance(args, dict)
            if args["n"] == "gated":
                await anyio.to_thread.run_sync(gate.wait, _STUCK)
            at_reply[self.fd] = reads.of(self.fd)
            return args["n"]

    def script() -> None:
        greet_and_answer_one_call(first, second)
        first.send(Call(1, "t", b'{"n":1}'))
        first.recv_reply()
        reads.wait_for(first.to_host_r, at_reply[first.to_host_r] + 1)  # it polls
        first.send(Call(2, "t", b'{"n":"gated"}'))  # and now serves a call that waits
        second.send(Call(1, "t", b'{"n":1}'))
        second.recv_reply()
        reads.wait_for(second.to_host_r, at_reply[second.to_host_r] + 3)
        second.send(done(2))
        gate.set()
        first.recv_reply()
        first.send(done(1))

    try:
        values = await serve_both((first, second), Handler, script)
    finally:
        gate.set()
    assert values == {first.to_host_r: 1, second.to_host_r: 2}


# ------------------------------------------------------------------------ the child


class Sink:
    """The channel's view of the program's calls: whether one waits for a reply."""

    def __init__(self) -> None:
        self.waiting = True
        self.replies: list[Reply] = []

    def resolve(self, reply: Reply) -> None:
        self.replies.append(reply)

    def fail_all(self, message: str) -> None:
        raise AssertionError(message)

    def awaiting(self) -> bool:
        return self.waiting


class Waits:
    """Each ``select`` the channel's selector makes on the real one: its timeout."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.timeouts: list[float | None] = []
        self.on_poll: Callable[[int], None] = lambda count: None
        real = selectors.DefaultSelector.select

        def select(selector: Any, timeout: float | None = None) -> Any:
            self.timeouts.append(timeout)
            if timeout == 0:
                self.on_poll(self.timeouts.count(0))
            return real(selector, timeout)

        monkeypatch.setattr(selectors.DefaultSelector, "select", select)

    def take(self) -> list[float | None]:
        taken, self.timeouts = self.timeouts, []
        return taken


@pytest.fixture
def channel_parts() -> Iterator[tuple[ChildChannel, int, Sink]]:
    """A channel on real pipes, attached to a sink whose call waits; and the host's write end."""
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    channel = ChildChannel(to_child_r, to_host_w)
    loop = channel.new_event_loop()
    sink = Sink()
    channel._calls = sink
    try:
        yield channel, to_child_w, sink
    finally:
        loop.close()
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)


def selector_of(channel: ChildChannel) -> selectors.BaseSelector:
    loop = channel._step_loop
    assert isinstance(loop, asyncio.SelectorEventLoop)
    selector: selectors.BaseSelector = loop._selector  # type: ignore[attr-defined]
    return selector


def reply_frame() -> bytes:
    return encode_frame(Reply(0, value=msgspec.json.encode(1)))


def reply_at_poll(host_write: int, which: int) -> Callable[[int], None]:
    """An ``on_poll`` that has the host reply just before the ``which``-th poll."""

    def on_poll(count: int) -> None:
        if count == which:
            os.write(host_write, reply_frame())

    return on_poll


def test_a_wait_for_a_reply_polls_and_takes_what_comes_without_blocking(
    monkeypatch: pytest.MonkeyPatch, channel_parts: tuple[ChildChannel, int, Sink]
) -> None:
    channel, host_write, sink = channel_parts
    fake_time(monkeypatch, bridge.run_loop, Clock())  # the window never ends by itself
    waits = Waits(monkeypatch)
    waits.on_poll = reply_at_poll(host_write, 4)
    # A broken poll would block here for the whole timeout, and fail. The
    # reply was read in the wait: the loop has no reader left to run.
    assert selector_of(channel).select(5) == []
    assert waits.take() == [0, 0, 0, 0]  # polled until the reply came; never blocked
    assert [reply.id for reply in sink.replies] == [0]


def test_a_vain_window_makes_the_next_wait_block_at_once_until_a_reply_is_quick(
    monkeypatch: pytest.MonkeyPatch, channel_parts: tuple[ChildChannel, int, Sink]
) -> None:
    channel, host_write, sink = channel_parts
    clock = Clock()
    fake_time(monkeypatch, bridge.run_loop, clock)
    waits = Waits(monkeypatch)

    def slow_host(count: int) -> None:
        clock.now += REPLY_POLL_SECONDS / 2

    waits.on_poll = slow_host
    selector = selector_of(channel)
    # The program's timer is due in 50 ms: the window (shorter) passes in
    # vain, two polls of half a window each, then the wait blocks for what is
    # left of the timer's time.
    assert selector.select(0.05) == []
    assert waits.take() == [0, 0, pytest.approx(0.05 - REPLY_POLL_SECONDS)]
    # Polling is off: the next wait blocks at once. A reply is there already,
    # so it comes back with it, quickly (the clock has not moved).
    waits.on_poll = reply_at_poll(host_write, 0)  # none: the reply is there already
    os.write(host_write, reply_frame())
    assert selector.select(None) == []  # the wait read it
    assert waits.take() == [None]
    assert len(sink.replies) == 1
    # That quick reply turned polling back on.
    waits.on_poll = reply_at_poll(host_write, 2)
    assert selector.select(5) == []
    assert waits.take() == [0, 0]
    assert len(sink.replies) == 2


def test_no_poll_when_no_call_waits(
    monkeypatch: pytest.MonkeyPatch, channel_parts: tuple[ChildChannel, int, Sink]
) -> None:
    # A wait for a timer of the program's: nothing from the host is due.
    channel, host_write, sink = channel_parts
    fake_time(monkeypatch, bridge.run_loop, Clock())
    waits = Waits(monkeypatch)
    sink.waiting = False
    os.write(host_write, reply_frame())
    assert selector_of(channel).select(None) == []
    assert waits.take() == [None]
    assert len(sink.replies) == 1  # what came anyway was read


def test_a_wait_that_must_not_block_does_not_poll_either(
    monkeypatch: pytest.MonkeyPatch, channel_parts: tuple[ChildChannel, int, Sink]
) -> None:
    channel, _, _ = channel_parts
    fake_time(monkeypatch, bridge.run_loop, Clock())
    waits = Waits(monkeypatch)
    assert selector_of(channel).select(0) == []
    assert waits.take() == [0]


async def test_the_programs_calls_say_whether_one_waits_for_its_reply() -> None:
    # The sink the channel asks is the program's calls: a call in flight
    # waits; once its reply is resolved, none does.
    from bridge.proxy import make_bindings

    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    try:
        channel = ChildChannel(to_child_r, to_host_w)
        bindings, _, _ = make_bindings(channel, ("t",))
        tools: Any = bindings["tools"]
        task = asyncio.ensure_future(tools.t())
        await asyncio.sleep(0)
        calls = channel._calls
        assert calls is not None
        assert calls.awaiting()
        calls.resolve(Reply(0, value=b"7"))
        assert await task == 7
        assert not calls.awaiting()
    finally:
        channel.detach()
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)


@pytest.fixture
def program_channel() -> Iterator[tuple[ChildChannel, int, Any]]:
    """A channel on real pipes with its run's loop, the program's ``tools`` (one tool, ``t``)
    and the host's write end."""
    from bridge.proxy import make_bindings

    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    channel = ChildChannel(to_child_r, to_host_w)
    loop = channel.new_event_loop()
    bindings, _, _ = make_bindings(channel, ("t",))
    try:
        yield channel, to_child_w, bindings["tools"]
    finally:
        channel.detach()
        loop.close()
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)


def test_a_reply_the_wait_finds_wakes_its_call_in_the_same_loop_iteration(
    monkeypatch: pytest.MonkeyPatch, program_channel: tuple[ChildChannel, int, Any]
) -> None:
    # Left to the loop, the reader would run as a callback of the iteration
    # whose wait found the reply, and the call's task only in the next one:
    # one more wait between the reply and the program.
    channel, host_write, tools = program_channel
    fake_time(monkeypatch, bridge.run_loop, Clock())
    waits = Waits(monkeypatch)
    found_by: list[int] = []

    def reply_at_second_poll(count: int) -> None:
        if count == 2:
            found_by.append(len(waits.timeouts))  # this wait finds it
            os.write(host_write, reply_frame())

    waits.on_poll = reply_at_second_poll

    async def program() -> tuple[JsonValue, int]:
        value = await tools.t()
        return value, len(waits.timeouts)

    loop = channel._step_loop
    assert loop is not None
    value, waits_before_the_program_went_on = loop.run_until_complete(program())
    assert value == 1
    assert found_by == [waits_before_the_program_went_on]


def test_a_reply_the_wait_cannot_read_goes_to_the_loops_exception_handler(
    monkeypatch: pytest.MonkeyPatch, program_channel: tuple[ChildChannel, int, Any]
) -> None:
    # As a reader callback that raises would: the loop reports it and goes on.
    channel, host_write, tools = program_channel
    fake_time(monkeypatch, bridge.run_loop, Clock())
    reported: list[dict[str, Any]] = []
    loop = channel._step_loop
    assert loop is not None
    seen = asyncio.Event()

    def report(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        reported.append(context)
        seen.set()

    loop.set_exception_handler(report)

    class BrokenSink(Sink):
        def resolve(self, reply: Reply) -> None:
            raise RuntimeError("resolve broke")

    async def program() -> str:
        task = asyncio.ensure_future(tools.t())
        await asyncio.sleep(0)  # the call is sent; the loop waits for its reply
        channel._calls = BrokenSink()
        os.write(host_write, reply_frame())
        await seen.wait()  # the loop's next wait reads the reply
        task.cancel()
        return "went on"

    assert loop.run_until_complete(program()) == "went on"
    [context] = reported
    assert isinstance(context["exception"], RuntimeError)
