"""The calls a program starts in one loop step go to the host together.

The child side runs in a thread on the loop its channel makes
(``ChildChannel.new_event_loop``), the host endpoint in the test's event loop;
what the child writes is recorded write by write. The alarm that sends a batch
held up by a step that never yields needs a process of its own (a signal
handler belongs to the main thread).
"""

from __future__ import annotations

import marshal
import os
import textwrap
import threading
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
import anyio.to_thread
import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bridge.child import ChildChannel, recv_run, send_ready
from bridge.host import HostEndpoint
from bridge.protocol import (
    Call,
    ChildMessageDecoder,
    FrameBuffer,
    Log,
    Run,
    write_all,
)
from bridge.proxy import ToolCallError, make_bindings

from .test_child_proxy import script_child

if TYPE_CHECKING:
    from bridge.lossless import JsonValue


@dataclass
class Wire:
    """Every write of the child, in order, as the frames it held."""

    writes: list[list[object]] = field(default_factory=list)

    def record(self, data: bytes) -> None:
        frames = FrameBuffer()
        frames.feed(bytes(data))
        decoder = ChildMessageDecoder()
        messages: list[object] = []
        while (body := frames.next_body()) is not None:
            messages.append(decoder.decode(body))
        assert frames.pending == 0, "a write ended in the middle of a frame"
        self.writes.append(messages)

    def calls_per_write(self) -> list[int]:
        return [sum(isinstance(m, Call) for m in write) for write in self.writes]

    def events(self) -> list[tuple[str, object]]:
        """Printed lines and calls, in the order they crossed the pipe."""
        seen: list[tuple[str, object]] = []
        for write in self.writes:
            for message in write:
                if isinstance(message, Log):
                    seen.extend(("line", line) for line in message.lines)
                elif isinstance(message, Call):
                    seen.append(("call", msgspec.json.decode(message.args)["k"]))
        return seen


class Echo:
    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        assert isinstance(args, dict)
        return args["k"]


def make_run(source: str) -> Run:
    code = compile(textwrap.dedent(source), "<model>", "exec")
    return Run(
        code=marshal.dumps(code), restricted=False, tool_names=("t",), max_log_bytes=65536,
        max_value_bytes=65536, max_frame_bytes=1 << 20, cpu_seconds=30,
        memory_bytes=1 << 30, max_open_files=64,
    )


async def run_on_channel_loop(
    source: str, monkeypatch: pytest.MonkeyPatch, **globals_: Any
) -> tuple[object, Wire]:
    """Run ``source`` (defining ``async def main()``) on the channel's own loop."""
    wire = Wire()
    def recording_write_all(fd: int, data: bytes) -> None:
        if threading.current_thread() is child_thread:
            wire.record(data)
        write_all(fd, data)

    monkeypatch.setattr("bridge.child.write_all", recording_write_all)
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    result: list[object] = []

    def child() -> None:
        channel = ChildChannel(to_child_r, to_host_w)
        send_ready(channel)
        run = recv_run(channel)
        bindings, _on_return, after_run = make_bindings(channel, run.tool_names)
        namespace: dict[str, Any] = {**bindings, **globals_, "say": channel.emit_log}
        exec(marshal.loads(run.code), namespace)
        loop = channel.new_event_loop()
        try:
            result.append(loop.run_until_complete(namespace["main"]()))
        except BaseException as exc:  # the test looks at it
            result.append(exc)
        finally:
            loop.close()
        after_run()
        channel.send_done(None)

    child_thread = threading.Thread(target=child)
    try:
        endpoint = HostEndpoint(to_host_r, to_child_w)
        child_thread.start()
        with anyio.fail_after(20):
            await endpoint.receive_ready()
            outcome = await endpoint.serve(make_run(source), Echo())
            await anyio.to_thread.run_sync(child_thread.join)
    finally:
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)
    assert outcome.error is None, outcome.error
    return result[0], wire


async def test_gathered_calls_go_out_in_two_writes(monkeypatch: pytest.MonkeyPatch) -> None:
    # The step's first call at once, the nine others together when the step ends.
    value, wire = await run_on_channel_loop(
        """
        import asyncio
        async def main():
            return await asyncio.gather(*(tools.t(k=k) for k in range(10)))
        """,
        monkeypatch,
    )
    assert value == list(range(10))
    assert [n for n in wire.calls_per_write() if n] == [1, 9]


async def test_calls_in_separate_steps_go_out_separately(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each awaited call ends its step: it is written before the loop waits for
    # its reply, never held for a later one.
    value, wire = await run_on_channel_loop(
        """
        async def main():
            return [await tools.t(k=k) for k in range(3)]
        """,
        monkeypatch,
    )
    assert value == [0, 1, 2]
    assert [n for n in wire.calls_per_write() if n] == [1, 1, 1]


#: A step's actions: print a line, or start a call; the steps of a plan run in turn.
actions = st.one_of(
    st.tuples(st.just("line"), st.text("abc", max_size=3)),
    st.tuples(st.just("call")),
)


@settings(max_examples=25, deadline=None)
@given(plan=st.lists(st.lists(actions, min_size=1, max_size=6), min_size=1, max_size=4))
async def test_lines_and_calls_cross_in_the_order_the_program_made_them(
    plan: list[list[tuple[str, ...]]],
) -> None:
    # Each step starts one task per action, in order; a line is printed and a
    # call is sent as its task first runs, so within a step the order of the
    # actions is the order of the program, and a step begins once the one
    # before it is answered.
    expected: list[tuple[str, object]] = []
    numbered: list[list[tuple[str, object]]] = []
    for step in plan:
        numbered.append([])
        for action in step:
            if action[0] == "line":
                numbered[-1].append(("line", action[1]))
            else:
                numbered[-1].append(("call", len(expected)))
            expected.append(numbered[-1][-1])
    with pytest.MonkeyPatch.context() as monkeypatch:
        _, wire = await run_on_channel_loop(
            """
            import asyncio
            async def act(kind, what):
                if kind == "line":
                    say(what)
                else:
                    await tools.t(k=what)
            async def main():
                for step in plan:
                    await asyncio.gather(*(act(kind, what) for kind, what in step))
            """,
            monkeypatch,
            plan=numbered,
        )
    assert wire.events() == expected


def test_a_batch_the_host_cannot_take_fails_its_calls(monkeypatch: pytest.MonkeyPatch) -> None:
    # The host is gone when the step ends: the batch's calls fail as a call
    # whose frame cannot be written does, and the loop goes on.
    def failing_write_all(fd: int, data: bytes) -> None:
        if b"call" in data:
            raise BrokenPipeError(32, "Broken pipe")
        write_all(fd, data)

    read_fd, write_fd = os.pipe()
    try:
        channel = ChildChannel(read_fd, write_fd)
        bindings, _, _ = make_bindings(channel, ("t",))
        tools = bindings["tools"]
        monkeypatch.setattr("bridge.child.write_all", failing_write_all)

        async def call(k: int) -> str:
            try:
                await tools.t(k=k)  # type: ignore[attr-defined]
            except ToolCallError as exc:
                return str(exc)
            return "answered"

        async def main() -> list[str]:
            import asyncio

            return list(await asyncio.gather(call(0), call(1)))

        loop = channel.new_event_loop()
        # A loop that blocked in its wait once the calls had failed would only
        # wake at this timer (it would hang without one).
        woken_by_timer: list[None] = []
        loop.call_later(10, woken_by_timer.append, None)
        try:
            messages = loop.run_until_complete(main())
        finally:
            loop.close()
    finally:
        os.close(read_fd)
        os.close(write_fd)
    assert woken_by_timer == [], "the loop blocked with its calls failed"
    assert len(messages) == 2
    assert all("the host is gone" in message for message in messages), messages


#: A child process whose program starts two calls in one step, and a third task
#: of that step that computes forever without returning to the loop.
BUSY_CHILD = """
import asyncio, sys
sys.path.insert(0, sys.argv[1])
from bridge.child import ChildChannel, recv_run, send_ready
from bridge.proxy import make_bindings
channel = ChildChannel(int(sys.argv[2]), int(sys.argv[3]), flush_with_alarm=True)
send_ready(channel)
run = recv_run(channel)
bindings, _, _ = make_bindings(channel, run.tool_names)
tools = bindings["tools"]
async def spin():
    while True:
        pass
async def main():
    await asyncio.gather(tools.t(k=1), tools.t(k=2), spin())
channel.new_event_loop().run_until_complete(main())
"""


async def test_a_batch_held_by_a_step_that_never_yields_still_goes_out() -> None:
    called: list[object] = []

    class Records:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            called.append(args)
            await anyio.sleep_forever()
            return None

    async with script_child(BUSY_CHILD) as (process, endpoint):
        with anyio.fail_after(30):
            await endpoint.receive_ready()
            async with anyio.create_task_group() as tg:
                tg.start_soon(endpoint.serve, make_run(""), Records())
                # The loop never waits again: only the alarm can send the second call.
                while len(called) < 2:
                    await anyio.lowlevel.checkpoint()
                tg.cancel_scope.cancel()
        assert sorted(called, key=str) == [{"k": 1}, {"k": 2}]
        assert process.returncode is None


def test_done_stops_the_log_timer_only_when_it_is_armed(monkeypatch: pytest.MonkeyPatch) -> None:
    # Every setitimer call of the channel arms the timer, and only its firing
    # disarms it: a run that printed nothing has no timer to stop, and its
    # Done makes no system call but the write.
    import signal

    timers: list[tuple[int, float]] = []
    monkeypatch.setattr(signal, "setitimer", lambda which, seconds: timers.append((which, seconds)))
    previous = signal.getsignal(signal.SIGALRM)
    to_host_r, to_host_w = os.pipe()
    to_child_r, to_child_w = os.pipe()
    try:
        quiet = ChildChannel(to_child_r, to_host_w, flush_with_alarm=True)
        quiet.send_done(1)
        assert timers == []
        printing = ChildChannel(to_child_r, to_host_w, flush_with_alarm=True)
        printing.emit_log("first")  # goes out at once: the first line after a quiet spell
        printing.emit_log("second")  # waits, with the timer armed
        assert timers == [(signal.ITIMER_REAL, 0.01)]
        printing.send_done(1)
        assert timers == [(signal.ITIMER_REAL, 0.01), (signal.ITIMER_REAL, 0)]
    finally:
        signal.signal(signal.SIGALRM, previous)
        for fd in (to_host_r, to_host_w, to_child_r, to_child_w):
            os.close(fd)
