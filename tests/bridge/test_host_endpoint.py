"""The host endpoint against a scripted child speaking raw frames over real pipes.

Each test's child is a function run in a worker thread with blocking I/O; the
host endpoint serves in the test's event loop. When the endpoint is done the
host closes its ends, so a script blocked on a read sees the end of the pipe.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import struct
import threading
from typing import TYPE_CHECKING, Any, TypeVar

import anyio
import anyio.lowlevel
import anyio.to_thread
import msgspec
import pytest
from anyio import wait_all_tasks_blocked
from hypothesis import given
from hypothesis import strategies as st

import bridge._call_table
import bridge._pipe_reader
import bridge.host
import bridge.tasks
from bridge._decoding import decode_lossless
from bridge.host import (
    ERROR_SLACK_CHARS,
    LOG_SLACK_BYTES,
    HostEndpoint,
    RunOutcome,
    ToolCallFailed,
)
from bridge.lossless import LossyJsonError, materialize
from bridge.protocol import (
    PROTOCOL_VERSION,
    Call,
    ChildMessage,
    Done,
    Failure,
    FrameBuffer,
    HostMessage,
    HostMessageDecoder,
    Log,
    PipeClosed,
    ProtocolError,
    Ready,
    Reply,
    Run,
    encode_frame,
    read_frame,
    write_all,
)
from tests.strategies import json_values

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from bridge.lossless import JsonValue

T = TypeVar("T")


class FakeChild:
    """The child's ends of the two pipes, driven with blocking frame I/O."""

    def __init__(self) -> None:
        self.to_child_r, self.to_child_w = os.pipe()
        self.to_host_r, self.to_host_w = os.pipe()
        self._frames = FrameBuffer()
        self._decoder = HostMessageDecoder()
        self.error: BaseException | None = None
        #: Set once the endpoint has finished: a script waits on it to stay
        #: silent (neither reading nor writing) until then.
        self.release = threading.Event()

    def send(self, *items: ChildMessage | bytes) -> None:
        write_all(
            self.to_host_w,
            b"".join(i if isinstance(i, bytes) else encode_frame(i) for i in items),
        )

    def recv(self) -> HostMessage:
        return self._decoder.decode(read_frame(self.to_child_r, self._frames))

    def recv_run(self) -> Run:
        message = self.recv()
        assert isinstance(message, Run)
        return message

    def recv_reply(self) -> Reply:
        message = self.recv()
        assert isinstance(message, Reply)
        return message

    def close_child_side(self) -> None:
        for fd in (self.to_host_w, self.to_child_r):
            with contextlib.suppress(OSError):
                os.close(fd)

    def close_host_side(self) -> None:
        for fd in (self.to_host_r, self.to_child_w):
            with contextlib.suppress(OSError):
                os.close(fd)


def make_run(*, tool_names: tuple[str, ...] = ("t",), max_log_bytes: int = 1000,
             max_value_bytes: int = 1000) -> Run:
    return Run(
        code=b"", restricted=True, tool_names=tool_names, max_log_bytes=max_log_bytes,
        max_value_bytes=max_value_bytes, max_frame_bytes=1 << 20, cpu_seconds=30,
        memory_bytes=1 << 30, max_open_files=32,
    )


class Echo:
    """A handler that answers every call with its arguments and records the calls."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, JsonValue]] = []

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.calls.append((name, args))
        return args


class Blocked:
    """A handler whose calls never finish."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        await anyio.sleep_forever()
        raise AssertionError("unreachable")


async def with_child(
    script: Callable[[FakeChild], None],
    host: Callable[[HostEndpoint], Awaitable[T]],
    *,
    max_frame_bytes: int = 1 << 20,
    receive_run: bool = True,
    finish: Callable[[], None] | None = None,
) -> T:
    """Run ``script`` as the child against ``host``; ``host``'s result.

    The child sends Ready first, and reads the Run frame before ``script`` when
    ``receive_run``; ``finish`` runs as the host side closes.
    """
    child = FakeChild()

    def child_side() -> None:
        try:
            child.send(Ready(PROTOCOL_VERSION, os.getpid()))
            if receive_run:
                child.recv_run()
            script(child)
        except (PipeClosed, BrokenPipeError):
            pass  # the host finished first
        except BaseException as exc:
            child.error = exc
        finally:
            child.close_child_side()

    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w, max_frame_bytes=max_frame_bytes)
        async with anyio.create_task_group() as tg:
            tg.start_soon(anyio.to_thread.run_sync, child_side)
            try:
                with anyio.fail_after(30):  # a hang guard, not a timed check
                    await endpoint.receive_ready()
                    result = await host(endpoint)
            finally:
                child.release.set()
                if finish is not None:
                    finish()
                child.close_host_side()
    finally:
        child.close_child_side()
    if child.error is not None:
        raise child.error
    return result


async def serve(
    script: Callable[[FakeChild], None],
    handler: Any = None,
    *,
    run: Run | None = None,
    max_frame_bytes: int = 1 << 20,
    **options: Any,
) -> RunOutcome:
    """Serve one run against ``script``; the script starts after the Ready handshake."""

    async def host(endpoint: HostEndpoint) -> RunOutcome:
        return await endpoint.serve(run or make_run(), handler or Echo(), **options)

    return await with_child(script, host, max_frame_bytes=max_frame_bytes)


def done(value: object = None) -> Done:
    return Done(value=msgspec.json.encode(value))


# ------------------------------------------------------------------------ good runs


async def test_a_clean_run_returns_the_value_and_logs() -> None:
    def script(child: FakeChild) -> None:
        child.send(Log(("hello", "world")), Call(0, "t", b'{"x":1}'))
        assert child.recv_reply() == Reply(0, value=b'{"x":1}')
        child.send(Log(("bye",)), done({"ok": True}))

    outcome = await serve(script)
    logs = ("hello", "world", "bye")
    assert outcome == RunOutcome({"ok": True}, None, logs, outcome.tool_wait_seconds)


async def test_the_childs_failure_is_passed_on() -> None:
    def script(child: FakeChild) -> None:
        child.send(Done(error=Failure("exception", "ValueError: boom")))

    outcome = await serve(script)
    assert outcome.error == ("exception", "ValueError: boom")
    assert outcome.value is None


class Numbered:
    """Records each call's ``n`` as its handler starts, and what had started once it went on."""

    def __init__(self) -> None:
        self.started: list[int] = []
        self.seen: list[list[int]] = []

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        assert isinstance(args, dict)
        n = args["n"]
        assert isinstance(n, int)
        self.started.append(n)
        await anyio.lowlevel.checkpoint()
        self.seen.append(list(self.started))
        return None


def numbered_calls(count: int) -> Callable[[FakeChild], None]:
    """A script that sends ``count`` calls in one write, reads their replies, then ends."""

    def script(child: FakeChild) -> None:
        child.send(*(Call(n, "t", msgspec.json.encode({"n": n})) for n in range(count)))
        assert sorted(child.recv_reply().id for _ in range(count)) == list(range(count))
        child.send(done())

    return script


async def test_handlers_start_in_frame_order() -> None:
    handler = Numbered()
    await serve(numbered_calls(20), handler)
    assert handler.started == list(range(20))


async def test_calls_read_together_all_start_before_any_handler_goes_on() -> None:
    # The frames of one read are handled in one pass: every handler has started
    # before the first of them resumes after its first await. (A loop
    # iteration per frame kept the ten calls of a gather apart.)
    handler = Numbered()
    await serve(numbered_calls(5), handler)
    assert handler.seen == [list(range(5))] * 5


async def test_a_call_sent_together_with_done_still_reaches_its_handler() -> None:
    entered: list[str] = []

    class Slow:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            entered.append(name)
            await anyio.sleep_forever()
            return None

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"), done(1))

    outcome = await serve(script, Slow())
    assert entered == ["t"]
    assert outcome.value == 1


async def test_handler_tasks_still_running_at_done_are_cancelled() -> None:
    cancelled = anyio.Event()

    class Waits:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            try:
                await anyio.sleep_forever()
            finally:
                cancelled.set()
            return None

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        child.send(done())

    await serve(script, Waits())
    assert cancelled.is_set()


async def test_parked_callers_end_at_done_without_cancelling_the_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every caller has answered its call and is parked when Done arrives: they
    # are let go, and nothing is cancelled (anyio's cancel is a cost per run).
    from anyio._backends import _asyncio as backend

    cancelled: list[object] = []
    original = backend.CancelScope.cancel

    def counting_cancel(self: Any, *args: Any, **kwargs: Any) -> None:
        cancelled.append(self)
        original(self, *args, **kwargs)

    monkeypatch.setattr(backend.CancelScope, "cancel", counting_cancel)

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b'{"x":1}'), Call(1, "t", b'{"x":2}'))  # two callers
        assert {child.recv_reply().id, child.recv_reply().id} == {0, 1}
        child.send(Call(2, "t", b'{"x":3}'))  # served by a parked one
        assert child.recv_reply() == Reply(2, value=b'{"x":3}')
        child.send(done(3))

    outcome = await serve(script)
    assert outcome.value == 3
    assert cancelled == []


@pytest.mark.parametrize(("calls", "task_sets"), [(0, 0), (1, 1), (3, 1)])
async def test_the_caller_tasks_are_made_at_the_first_call(
    monkeypatch: pytest.MonkeyPatch, calls: int, task_sets: int
) -> None:
    # A run without calls makes no caller tasks; every caller of a run is in one set.
    opened: list[object] = []
    def counting_tasks() -> bridge.tasks.TaskSet:
        opened.append(None)
        return bridge.tasks.TaskSet()

    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        # The whole script at once: the replies fit in the pipe unread.
        child.send(
            Ready(PROTOCOL_VERSION, os.getpid()),
            *[Call(n, "t", b"{}") for n in range(calls)],
            done(calls),
        )
        await endpoint.receive_ready()
        monkeypatch.setattr(bridge._call_table, "TaskSet", counting_tasks)
        outcome = await endpoint.serve(make_run(), Echo())
        monkeypatch.undo()
    finally:
        child.close_child_side()
        child.close_host_side()
    assert outcome.value == calls
    assert len(opened) == task_sets


async def test_a_running_handler_is_cancelled_while_parked_callers_are_let_go() -> None:
    cancelled = anyio.Event()

    class SecondWaits:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            if args == {"x": 2}:
                try:
                    await anyio.sleep_forever()
                finally:
                    cancelled.set()
            return args

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b'{"x":1}'))
        assert child.recv_reply() == Reply(0, value=b'{"x":1}')
        child.send(Call(1, "t", b'{"x":2}'), done(1))

    outcome = await serve(script, SecondWaits())
    assert outcome.value == 1
    assert cancelled.is_set()


class FakeClock:
    """Stands in for the host's clock: time moves only when a test moves it."""

    def __init__(self) -> None:
        self.now = 100.0

    def monotonic(self) -> float:
        return self.now


async def test_time_waiting_for_tools_is_measured(monkeypatch: pytest.MonkeyPatch) -> None:
    # Counted on a clock the tool itself advances, never compared with the
    # wall clock: the measurement is exactly the time the tool took.
    clock = FakeClock()
    for module in (bridge._pipe_reader, bridge._call_table, bridge.host):
        monkeypatch.setattr(module, "time", clock)

    class TakesAQuarterSecond:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            clock.now += 0.25
            return None

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        child.recv_reply()
        child.send(done())

    outcome = await serve(script, TakesAQuarterSecond())
    assert outcome.tool_wait_seconds == 0.25


async def test_a_failed_call_replies_with_message_and_code() -> None:
    class Denies:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            raise ToolCallFailed("denied by policy", code="DENIED")

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        assert child.recv_reply() == Reply(0, error="denied by policy", code="DENIED")
        child.send(done())

    await serve(script, Denies())


async def test_a_crashing_handler_is_contained_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    class Crashes:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            raise KeyError("host detail")

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        assert child.recv_reply() == Reply(0, error='internal error in tool "t"')
        child.send(done(2))

    with caplog.at_level(logging.ERROR, logger="bridge.host"):
        outcome = await serve(script, Crashes())
    assert outcome.value == 2
    assert "tool 't' raised" in caplog.text


async def test_a_handler_value_over_the_frame_cap_becomes_a_failure() -> None:
    class Huge:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            return "x" * 5000

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        reply = child.recv_reply()
        assert reply.error is not None
        assert reply.error.startswith('the value of tool "t" is 50')
        assert reply.error.endswith("over the limit of 4096 bytes per frame (max_frame_bytes)")
        child.send(done())

    await serve(script, Huge(), max_frame_bytes=4096)


async def test_frozen_handler_values_are_accepted() -> None:
    class Frozen:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            return (1, 2)  # type: ignore[return-value]

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        assert child.recv_reply() == Reply(0, value=b"[1,2]")
        child.send(done())

    await serve(script, Frozen())


# ------------------------------------------------------------------------ violations


@pytest.mark.parametrize(
    ("frames", "message"),
    [
        ([Call(1, "t", b"{}")], "the child sent call id 1 where id 0 was expected"),
        ([Call(0, "nope", b"{}")], "the child called tool 'nope', which its program was not given"),
        ([Ready(PROTOCOL_VERSION, 1)], "the child sent Ready during its run"),
        ([Call(0, "t", b"[1]")], "the child sent arguments for call 0 that are not a JSON object"),
        (
            [Call(0, "t", b'{"a":-0.0}')],
            "the child sent arguments for call 0 that are not lossless JSON: -0.0 does not "
            "survive JSON; use 0.0 - at `$.a`",
        ),
        (
            [Done(value=b"{")],
            "the child sent a return value that is not JSON text: Input data was truncated",
        ),
        (
            [struct.pack(">I", 1 << 30)],
            "the child announced a frame of 1073741824 bytes, over the limit of 1048576 bytes "
            "(max_frame_bytes)",
        ),
        (
            [struct.pack(">I", 2) + b"\x91\xc1"],
            "the child broke the protocol: undecodable frame from the child: Expected `str`, "
            "got `unknown` - at `$[0]`",
        ),
    ],
)
async def test_protocol_violations_end_the_run_as_worker_exit(
    frames: list[ChildMessage | bytes], message: str
) -> None:
    def script(child: FakeChild) -> None:
        child.send(*frames)
        child.release.wait()

    outcome = await serve(script)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1].startswith(message)
    assert outcome.child_closed is False


async def test_a_child_that_exits_before_done_is_reported_as_closed() -> None:
    def script(child: FakeChild) -> None:
        child.send(Log(("last words",)), encode_frame(Log(("cut",)))[:-1])

    outcome = await serve(script)
    assert outcome.error == (
        "worker-exit",
        "the child exited or closed its pipe before finishing the run (the child closed its "
        "pipe in the middle of a frame (13 bytes))",
    )
    assert outcome.child_closed is True
    assert outcome.logs == ("last words",)


async def test_more_calls_in_flight_than_allowed_end_the_run() -> None:
    def script(child: FakeChild) -> None:
        child.send(*(Call(n, "t", b"{}") for n in range(3)))
        child.release.wait()

    outcome = await serve(script, Blocked(), max_pending_calls=2)
    assert outcome.error == (
        "worker-exit",
        "the child has more than 2 tool calls in flight (max_pending_calls)",
    )


async def test_a_child_that_does_not_read_its_replies_runs_into_the_call_limit() -> None:
    class Big:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            return "x" * 100_000  # more than a pipe holds

    def script(child: FakeChild) -> None:
        for n in range(5):
            child.send(Call(n, "t", b"{}"))
        child.release.wait()

    outcome = await serve(script, Big(), max_pending_calls=3)
    assert outcome.error is not None
    assert outcome.error[1] == "the child has more than 3 tool calls in flight (max_pending_calls)"


async def test_argument_bytes_in_flight_are_capped() -> None:
    def script(child: FakeChild) -> None:
        big = msgspec.json.encode({"a": "x" * 600})
        child.send(Call(0, "t", big), Call(1, "t", big))
        child.release.wait()

    outcome = await serve(script, Blocked(), max_pending_bytes=1000)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert "over the limit of 1000 bytes (max_pending_bytes" in outcome.error[1]


async def test_logs_beyond_the_host_cap_end_the_run_as_output_limit() -> None:
    def script(child: FakeChild) -> None:
        for _ in range(20):
            child.send(Log(("y" * 999,)))
        child.release.wait()

    outcome = await serve(script, run=make_run(max_log_bytes=10_000))
    assert outcome.error == (
        "output-limit",
        f"the program's output exceeded 10000 bytes (max_log_bytes, plus {LOG_SLACK_BYTES} "
        "bytes of slack)",
    )
    # The lines that fitted are kept: 1,000 bytes each with the newline.
    assert len(outcome.logs) == (10_000 + LOG_SLACK_BYTES) // 1000


async def test_many_empty_log_lines_count_against_the_cap() -> None:
    def script(child: FakeChild) -> None:
        while True:
            child.send(Log(("",) * 4096))

    outcome = await serve(script, run=make_run(max_log_bytes=10))
    assert outcome.error is not None
    assert outcome.error[0] == "output-limit"


@pytest.mark.parametrize(
    ("value", "error"),
    [
        (b'{"a":[1,-0.0]}', ("invalid-output", "program completion must be lossless JSON "
                             "(-0.0 does not survive JSON; use 0.0 - at `$.a[1]`)")),
        (b"9007199254740993", ("invalid-output", "program completion must be lossless JSON "
                               "(integer 9007199254740993 cannot be represented exactly as a "
                               "JSON number (beyond 2**53); send it as a string - at `$`)")),
        (b'"' + b"z" * 2000 + b'"', ("output-limit", "the program's return value is 2002 bytes "
                                      "as JSON, over the limit of 1000 bytes (max_value_bytes)")),
    ],
)
async def test_a_bad_return_value_is_caught_on_the_host(
    value: bytes, error: tuple[str, str]
) -> None:
    def script(child: FakeChild) -> None:
        child.send(Done(value=value))

    outcome = await serve(script)
    assert outcome.error == error


async def test_an_oversized_error_message_is_an_output_limit() -> None:
    def script(child: FakeChild) -> None:
        child.send(Done(error=Failure("exception", "e" * (1000 + ERROR_SLACK_CHARS + 1))))

    outcome = await serve(script)
    assert outcome.error is not None
    assert outcome.error[0] == "output-limit"


async def test_cancelling_serve_keeps_the_logs_received_so_far() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Log(("before the silence",)))
        with anyio.move_on_after(10) as scope:
            async with anyio.create_task_group() as tg:
                async def cancel_when_logged() -> None:
                    # Once the line is in, the endpoint waits for more frames.
                    while not endpoint.logs:
                        await wait_all_tasks_blocked()
                    tg.cancel_scope.cancel()

                tg.start_soon(cancel_when_logged)
                await endpoint.serve(make_run(), Echo())
        assert not scope.cancelled_caught
        assert endpoint.logs == ("before the silence",)
    finally:
        child.close_host_side()
        child.close_child_side()


# ------------------------------------------------------------------------ handshake


async def test_ready_with_another_protocol_version_is_refused() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Ready(PROTOCOL_VERSION + 1, 7))
        with anyio.fail_after(10), pytest.raises(
            ProtocolError, match=rf"^the child speaks protocol version {PROTOCOL_VERSION + 1}, "
        ):
            await endpoint.receive_ready()
    finally:
        child.close_host_side()
        child.close_child_side()


async def test_a_first_message_other_than_ready_is_refused() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Log(("hi",)))
        with anyio.fail_after(10), pytest.raises(
            ProtocolError, match=r"^expected Ready from the child, got Log$"
        ):
            await endpoint.receive_ready()
    finally:
        child.close_host_side()
        child.close_child_side()


async def test_ready_carries_the_pid_and_unprotected_layers() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Ready(PROTOCOL_VERSION, 7, ("seccomp: not available",)))
        with anyio.fail_after(10):
            ready = await endpoint.receive_ready()
        assert ready == Ready(PROTOCOL_VERSION, 7, ("seccomp: not available",))
    finally:
        child.close_host_side()
        child.close_child_side()


# ------------------------------------------------------------------------ validation


def test_tool_call_failed_requires_a_string_message() -> None:
    with pytest.raises(TypeError, match=r"^ToolCallFailed message must be a str; got message=3$"):
        ToolCallFailed(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("limit", [0, True, "1"])
def test_the_endpoint_rejects_a_bad_frame_cap(limit: object) -> None:
    with pytest.raises((TypeError, ValueError), match=r"max_frame_bytes="):
        HostEndpoint(0, 1, max_frame_bytes=limit)  # type: ignore[arg-type]


# ------------------------------------------------------------------------ JSON checks

#: JSON texts near the edges of lossless JSON: negative zeros (also by
#: underflow), integers around 2**53, deep nesting, marks inside strings.
EDGE_TEXTS = st.sampled_from([
    b"-0.0", b"-0", b"0.0", b"-0e5", b"-1e-400", b"1e-400", b"-0.5", b"1E-3",
    b"9007199254740992", b"9007199254740993", b"-9007199254740993", b"1234567890123456.0",
    b"18014398509481984", b"1e308", b'"-0"', b'"9007199254740993"', b'{"a":[-0.0]}',
    b"[" * 500 + b"]" * 500, b"[" * 501 + b"]" * 501, b'"\\ud83d\\ude00"',
])


@given(
    json_values().map(msgspec.json.encode)
    | EDGE_TEXTS
    | st.builds(lambda a, b: b"[" + a + b"," + b + b"]", EDGE_TEXTS, EDGE_TEXTS)
)
def test_the_fast_json_check_agrees_with_materialize(raw: bytes) -> None:
    def verdict(check: Callable[[], object]) -> object:
        try:
            return ("ok", check())
        except LossyJsonError as exc:
            return ("lossy", str(exc))

    assert verdict(lambda: decode_lossless(raw)) == verdict(
        lambda: materialize(msgspec.json.decode(raw))
    )


async def test_an_endpoint_serves_only_one_run() -> None:
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(done(1))
        with anyio.fail_after(10):
            assert (await endpoint.serve(make_run(), Echo())).value == 1
            with pytest.raises(RuntimeError, match=r"^this endpoint has already served a run; "):
                await endpoint.serve(make_run(), Echo())
    finally:
        child.close_host_side()
        child.close_child_side()


_DEEP = b"[" * 200_000 + b"]" * 200_000


async def test_arguments_nested_past_the_decoders_limit_end_the_run_not_the_host() -> None:
    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b'{"x":' + _DEEP + b"}"))

    outcome = await serve(script)
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert "nested deeper than 500 levels" in outcome.error[1]


async def test_a_return_value_nested_past_the_decoders_limit_is_invalid_output() -> None:
    def script(child: FakeChild) -> None:
        child.send(Done(value=_DEEP))

    # Within the value cap, so that the value is decoded (a longer one is refused
    # from its length alone).
    outcome = await serve(script, run=make_run(max_value_bytes=len(_DEEP)))
    assert outcome.error is not None
    assert outcome.error[0] == "invalid-output"
    assert "nested deeper than 500 levels" in outcome.error[1]


# ------------------------------------------------------------------------ the reader


async def test_the_reader_reads_ahead_by_a_bounded_amount_while_nobody_waits() -> None:
    # The reader stays registered between frames, but while no frame is
    # awaited it stops after a chunk or two: a flooding child is held back by
    # its pipe, not buffered by the host.
    import fcntl

    from bridge._pipe_reader import READ_CHUNK

    child = FakeChild()
    try:
        fcntl.fcntl(child.to_host_w, fcntl.F_SETPIPE_SZ, 1 << 20)
        frame = encode_frame(Log(("x" * 1000,)))
        child.send(frame * (8 * READ_CHUNK // len(frame)))  # 512 KiB, all in the pipe
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        assert await endpoint._next_body() == frame[4:]  # registers the reader
        for _ in range(32):  # loop iterations in which the pipe stays readable
            await anyio.lowlevel.checkpoint()
        assert endpoint._frames.pending < 2 * READ_CHUNK
        assert not asyncio.get_running_loop().remove_reader(child.to_host_r)
        # Waiting again resumes reading: every frame is still there, in order.
        count = 1
        while endpoint._frames.pending or count < 8 * READ_CHUNK // len(frame):
            assert await endpoint._next_body() == frame[4:]
            count += 1
        assert count == 8 * READ_CHUNK // len(frame)
    finally:
        child.close_child_side()
        child.close_host_side()


async def test_no_reader_is_left_on_the_loop_after_ready_or_a_run() -> None:
    # The caller closes the fds once the endpoint is done: a reader left on
    # the loop would watch a closed (later reused) descriptor.
    loop = asyncio.get_running_loop()
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Ready(PROTOCOL_VERSION, os.getpid()))
        await endpoint.receive_ready()
        assert not loop.remove_reader(child.to_host_r)
        child.send(Call(0, "t", b"{}"))
        with anyio.move_on_after(0) as scope:  # cancelled at its first wait
            scope.cancel()
            await endpoint.serve(make_run(), Echo())
        assert not loop.remove_reader(child.to_host_r)
    finally:
        child.close_child_side()
        child.close_host_side()
    child = FakeChild()
    try:
        endpoint = HostEndpoint(child.to_host_r, child.to_child_w)
        child.send(Ready(PROTOCOL_VERSION, os.getpid()), Call(0, "t", b"{}"), done(1))
        await endpoint.receive_ready()
        assert (await endpoint.serve(make_run(), Echo())).value == 1
        assert not loop.remove_reader(child.to_host_r)
    finally:
        child.close_child_side()
        child.close_host_side()
