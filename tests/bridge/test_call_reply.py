"""Handlers that take a call in ``start_call`` and answer it later through a ``CallReply``.

The endpoint serves a scripted child over real pipes (``test_host_endpoint``'s
``serve``); each handler here answers from a task of its own, or not at all,
and the script reads what crossed the pipe.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import TYPE_CHECKING, Any

import msgspec
import pytest

from bridge.host import CallReply, ToolCallFailed
from bridge.protocol import Call, Reply

from .test_host_endpoint import FakeChild, done, make_run, serve, with_child

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.host import HostEndpoint, RunOutcome
    from bridge.lossless import JsonValue


class Later:
    """Takes every call and answers it from a task of its own, with ``answer(args)``."""

    def __init__(self, answer: Callable[[JsonValue, CallReply], None] | None = None) -> None:
        self.answer = answer or (lambda args, reply: reply.value(args))
        self.called_tool: list[str] = []
        self.tasks: list[asyncio.Task[None]] = []

    def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
        async def later() -> None:
            self.answer(args, reply)

        self.tasks.append(asyncio.get_running_loop().create_task(later()))
        return True

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.called_tool.append(name)
        return "from call_tool"


class Ask:
    """A script that sends each call (with ids 0, 1, ...), reads a reply per call, then ends."""

    def __init__(self, *calls: bytes) -> None:
        self.calls = calls
        self.replies: list[Reply] = []

    def __call__(self, child: FakeChild) -> None:
        for n, args in enumerate(self.calls):
            child.send(Call(n, "t", args))
            self.replies.append(child.recv_reply())
        child.send(done("end"))


async def test_a_call_taken_by_start_call_is_answered_from_the_handlers_own_tAsk() -> None:
    handler = Later()
    script = Ask(b'{"n":1}', b'{"n":2}')
    outcome = await serve(script, handler)
    assert outcome.value == "end"
    assert script.replies == [Reply(0, value=b'{"n":1}'), Reply(1, value=b'{"n":2}')]
    assert handler.called_tool == []


async def test_no_task_of_the_endpoints_serves_a_taken_call(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The endpoint makes its task set only for a task it needs: a caller for
    # call_tool, or a writer for a reply the pipe did not take.
    from bridge.tasks import TaskSet

    made: list[object] = []
    real = TaskSet

    def counting(*args: Any, **kwargs: Any) -> Any:
        made.append(real(*args, **kwargs))
        return made[-1]

    monkeypatch.setattr("bridge._call_table.TaskSet", counting)
    await serve(Ask(b"{}", b"{}", b"{}"), Later())
    assert made == []


async def test_a_handler_that_declines_leaves_the_call_to_call_tool() -> None:
    class Declines(Later):
        def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
            return False

    handler = Declines()
    script = Ask(b"{}")
    await serve(script, handler)
    assert script.replies == [Reply(0, value=b'"from call_tool"')]
    assert handler.called_tool == ["t"]


async def test_start_call_that_raises_is_an_internal_error_of_the_tool(
    caplog: pytest.LogCaptureFixture,
) -> None:
    class Raises(Later):
        def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
            raise RuntimeError("the handler is broken")

    script = Ask(b"{}")
    outcome = await serve(script, Raises())
    assert outcome.error is None
    assert script.replies == [Reply(0, error='internal error in tool "t"')]
    [record] = caplog.records
    assert record.levelno == logging.ERROR
    assert record.exc_info is not None
    assert "the handler is broken" in str(record.exc_info[1])


async def test_a_failure_answer_reaches_the_program_with_its_code_and_type() -> None:
    def fail(args: JsonValue, reply: CallReply) -> None:
        reply.failure(ToolCallFailed("no such book", code="NOT_FOUND", exception_type="KeyError"))

    script = Ask(b"{}")
    await serve(script, Later(fail))
    assert script.replies == [
        Reply(0, error="no such book", code="NOT_FOUND", exception_type="KeyError")
    ]


async def test_a_crashed_answer_is_logged_and_the_program_sees_an_internal_error(
    caplog: pytest.LogCaptureFixture,
) -> None:
    def crash(args: JsonValue, reply: CallReply) -> None:
        reply.crashed(ValueError("a bug"))

    script = Ask(b"{}")
    await serve(script, Later(crash))
    assert script.replies == [Reply(0, error='internal error in tool "t"')]
    assert [r.getMessage() for r in caplog.records] == [
        "tool 't' raised while serving a sandboxed program"
    ]


async def test_a_value_that_is_not_lossless_json_is_refused_in_the_reply() -> None:
    def lossy(args: JsonValue, reply: CallReply) -> None:
        reply.value(float("nan"))

    script = Ask(b"{}")
    await serve(script, Later(lossy))
    [reply] = script.replies
    assert reply.error is not None
    assert reply.error.startswith('tool "t" returned a value that is not lossless JSON')


async def test_only_the_first_answer_counts() -> None:
    def twice(args: JsonValue, reply: CallReply) -> None:
        reply.value(1)
        reply.value(2)
        reply.failure(ToolCallFailed("late"))

    frames: list[object] = []

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"))
        frames.append(child.recv_reply())
        child.send(done(0))
        child.release.wait(10)
        # Nothing else came: the next read finds the end of the pipe.
        try:
            frames.append(child.recv())
        except Exception as exc:
            frames.append(type(exc).__name__)

    await serve(script, Later(twice))
    assert frames == [Reply(0, value=b"1"), "PipeClosed"]


async def test_a_run_that_ends_first_cancels_the_call_and_drops_its_answer() -> None:
    cancelled: list[str] = []
    replies: list[CallReply] = []

    class Holds(Later):
        def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
            reply.on_cancel(lambda: cancelled.append(name))
            replies.append(reply)
            return True

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"), done("gave up"))

    outcome = await serve(script, Holds())
    assert outcome.value == "gave up"
    assert cancelled == ["t"]
    replies[0].value("too late")  # the pipes are closed: nothing may be written
    replies[0].failure(ToolCallFailed("too late"))


async def test_a_call_that_came_just_before_done_gets_its_handlers_step_first() -> None:
    # As call_tool is always entered: the handler's own task takes a step
    # with the call before the run ends and the call is cancelled (Code
    # Mode's worker starts the job in that step).
    events: list[str] = []

    class Steps(Later):
        def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
            async def step() -> None:
                events.append("step")

            reply.on_cancel(lambda: events.append("cancelled"))
            self.tasks.append(asyncio.get_running_loop().create_task(step()))
            return True

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"), done(1))

    await serve(script, Steps())
    assert events == ["step", "cancelled"]


async def test_a_large_value_is_checked_off_the_loop_and_still_answers() -> None:
    from bridge.host import INLINE_ENCODE_NODES

    big: JsonValue = list(range(INLINE_ENCODE_NODES + 10))
    script = Ask(b"{}")
    await serve(script, Later(lambda args, reply: reply.value(big)))
    assert script.replies == [Reply(0, value=msgspec.json.encode(big))]


class Encoded:
    """Records each value the host encodes for a reply: its kind and size, and on which thread."""

    def __init__(self) -> None:
        self.loop_thread = threading.current_thread()
        self.seen: list[tuple[str, int, bool]] = []

    def record(self, value: object) -> None:
        if isinstance(value, str):
            what = ("str", len(value))
        elif isinstance(value, dict):
            what = ("dict", max(map(len, value), default=0))
        else:
            what = (type(value).__name__, len(value) if isinstance(value, list) else 0)
        self.seen.append((*what, threading.current_thread() is self.loop_thread))

    def on_loop(self, kind: str) -> list[int]:
        return [size for seen, size, on_loop in self.seen if seen == kind and on_loop]

    def off_loop(self, kind: str) -> list[int]:
        return [size for seen, size, on_loop in self.seen if seen == kind and not on_loop]


@pytest.fixture
def encoded(monkeypatch: pytest.MonkeyPatch) -> Encoded:
    from bridge.protocol import encode_value as real

    record = Encoded()

    def encode_value(value: Any, **kwargs: Any) -> bytes:
        record.record(value)
        return real(value, **kwargs)

    monkeypatch.setattr("bridge._call_table.encode_value", encode_value)
    monkeypatch.setattr("bridge._answers.encode_value", encode_value)
    return record


LONG = 128 * 1024  # one long string: one value, and a long encoding (six bytes a \x01)


class Returns:
    """A handler whose ``call_tool`` returns ``value`` whatever the call."""

    def __init__(self, value: JsonValue) -> None:
        self.value = value

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        return self.value


@pytest.mark.parametrize("taken", [False, True], ids=["call_tool", "start_call"])
@pytest.mark.parametrize(
    "value",
    [
        pytest.param("x" * LONG, id="string"),
        pytest.param("\x01" * LONG, id="escaped-string"),
        pytest.param({"k" * LONG: 1}, id="long-key"),
    ],
)
async def test_a_long_string_is_encoded_off_the_loop(
    encoded: Encoded, taken: bool, value: JsonValue
) -> None:
    # One value, but a long text to check and encode: its size decides, not its count.
    handler: Any = Later(lambda args, reply: reply.value(value)) if taken else Returns(value)
    script = Ask(b"{}")
    await serve(script, handler)
    assert script.replies == [Reply(0, value=msgspec.json.encode(value))]
    kind = "str" if isinstance(value, str) else "dict"
    assert encoded.off_loop(kind) == [LONG]
    assert encoded.on_loop(kind) == []


@pytest.mark.parametrize("taken", [False, True], ids=["call_tool", "start_call"])
async def test_replies_to_a_batch_of_calls_are_each_weighed_by_their_size(
    encoded: Encoded, taken: bool
) -> None:
    # A batch of calls whose replies each hold one long string: none is
    # encoded on the loop (their callers all ran in one pass of it).
    calls, long = 16, 64 * 1024
    value = "y" * long
    handler: Any = Later(lambda args, reply: reply.value(value)) if taken else Returns(value)
    replies: list[Reply] = []

    def script(child: FakeChild) -> None:
        child.send(*(Call(n, "t", b"{}") for n in range(calls)))
        replies.extend(child.recv_reply() for _ in range(calls))
        child.send(done("end"))

    await serve(script, handler)
    assert sorted(reply.id for reply in replies) == list(range(calls))
    assert encoded.off_loop("str") == [long] * calls
    assert encoded.on_loop("str") == []


@pytest.mark.parametrize("taken", [False, True], ids=["call_tool", "start_call"])
async def test_a_short_value_is_still_encoded_on_the_loop(encoded: Encoded, taken: bool) -> None:
    value = "z" * 1024
    handler: Any = Later(lambda args, reply: reply.value(value)) if taken else Returns(value)
    script = Ask(b"{}")
    await serve(script, handler)
    assert script.replies == [Reply(0, value=msgspec.json.encode(value))]
    assert encoded.on_loop("str") == [1024]
    assert encoded.off_loop("str") == []


async def test_a_reply_the_pipe_cannot_take_at_once_is_finished_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The first answer is larger than the pipe holds: a task of the endpoint's
    # writes the rest, and the second answer, given meanwhile, follows it whole.
    # Both are encoded at once (a value this long is otherwise encoded in a
    # worker thread, and the second answer would simply be written first).
    monkeypatch.setattr("bridge._call_table.fits_inline", lambda value: True)
    big = "x" * (256 * 1024)
    answered: list[CallReply] = []

    class Both(Later):
        def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
            answered.append(reply)
            if len(answered) == 2:
                answered[0].value(big)
                answered[1].value("small")
            return True

    replies: list[Reply] = []

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"), Call(1, "t", b"{}"))
        replies.append(child.recv_reply())
        replies.append(child.recv_reply())
        child.send(done(2))

    outcome = await serve(script, Both())
    assert outcome.value == 2
    assert replies == [Reply(0, value=msgspec.json.encode(big)), Reply(1, value=b'"small"')]



@pytest.mark.parametrize("steps", range(8))
async def test_an_answer_given_while_the_run_winds_down_does_not_hold_it_up(steps: int) -> None:
    # Done has come while a reply waits for room in the pipe (the child does
    # not read) and a taken call is answered ``steps`` loop steps later, as
    # the run winds down: the answer is dropped, never a task the endpoint
    # waits for, so the run ends at once.
    taken: list[CallReply] = []
    stuck = threading.Event()

    class Answers(Later):
        def start_call(self, name: str, args: JsonValue, reply: CallReply) -> bool:
            taken.append(reply)
            if len(taken) == 1:
                reply.value("x" * (256 * 1024))  # more than the pipe holds
                return True

            async def answer_later() -> None:
                for _ in range(steps):
                    await asyncio.sleep(0)
                reply.value("y" * (64 * 1024))

            self.tasks.append(asyncio.get_running_loop().create_task(answer_later()))
            return True

    def script(child: FakeChild) -> None:
        child.send(Call(0, "t", b"{}"), Call(1, "t", b"{}"), done("end"))
        # Reads nothing until the run has ended (or is found stuck); returning
        # closes the child's ends, which fails a write still blocked.
        while not stuck.wait(0.05) and not child.release.is_set():
            pass

    async def host(endpoint: HostEndpoint) -> RunOutcome:
        task = asyncio.ensure_future(endpoint.serve(make_run(), Answers()))
        await asyncio.wait({task}, timeout=5)
        if not task.done():
            stuck.set()
        return await task

    outcome = await with_child(script, host)
    assert not stuck.is_set(), "the run was held up by an answer given as it ended"
    assert outcome.value == "end"
