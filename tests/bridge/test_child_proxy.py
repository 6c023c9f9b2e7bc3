"""The child's ``tools`` proxy against a real host endpoint over ``os.pipe()``s.

The child side runs in a thread with its own asyncio loop (as the child process
would), the host endpoint in the test's event loop. Programs are compiled as
plain Python under the ``<model>`` filename.
"""

from __future__ import annotations

import asyncio
import contextlib
import marshal
import os
import sys
import textwrap
import threading
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import anyio
import anyio.lowlevel
import anyio.to_thread
import msgspec
import pytest

from bridge.child import ChildChannel, recv_run, send_ready
from bridge.host import HostEndpoint, RunOutcome, ToolCallFailed
from bridge.protocol import Run
from bridge.proxy import ToolCallError, make_bindings

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from anyio.abc import Process

    from bridge.lossless import JsonValue


@dataclass
class ChildReport:
    """What the child side saw: the program's value or exception, and after_run's message."""

    value: Any = None
    exception: BaseException | None = None
    unawaited: str | None = None


@dataclass
class Recorder:
    """A handler that records calls and answers from a table of async functions."""

    answers: dict[str, Any] = field(default_factory=dict)
    calls: list[tuple[str, JsonValue]] = field(default_factory=list)

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.calls.append((name, args))
        answer = self.answers.get(name)
        if answer is None:
            return {"tool": name, "args": args}
        result: JsonValue = await answer(args)
        return result


def make_run(source: str, tool_names: tuple[str, ...], *, max_pending_calls: int = 128) -> Run:
    code = compile(textwrap.dedent(source), "<model>", "exec")
    return Run(
        code=marshal.dumps(code),
        restricted=False,
        tool_names=tool_names,
        max_log_bytes=65536,
        max_value_bytes=65536,
        max_frame_bytes=1 << 20,
        cpu_seconds=30,
        memory_bytes=1 << 30,
        max_open_files=64,
        max_pending_calls=max_pending_calls,
    )


def child_main(read_fd: int, write_fd: int, report: ChildReport) -> None:
    """The child process's work, in a thread: handshake, run ``main()``, report."""
    channel = ChildChannel(read_fd, write_fd)
    send_ready(channel)
    run = recv_run(channel)
    bindings, _on_return, after_run = make_bindings(channel, run.tool_names)
    namespace: dict[str, Any] = dict(bindings)
    exec(marshal.loads(run.code), namespace)
    try:
        report.value = asyncio.run(namespace["main"]())
    except BaseException as exc:
        report.exception = exc
    report.unawaited = after_run()
    if report.exception is not None:
        channel.send_done(error=("exception", repr(report.exception)))
    else:
        channel.send_done(report.value)


async def run_program(
    source: str,
    handler: Any,
    tool_names: tuple[str, ...] = ("search", "fetch"),
    *,
    max_pending_calls: int = 128,
) -> tuple[ChildReport, RunOutcome]:
    """Run ``source`` (defining ``async def main()``) through the proxy and the host.

    ``max_pending_calls`` is the host's limit, told to the child in the ``Run``.
    """
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    report = ChildReport()
    thread = threading.Thread(target=child_main, args=(to_child_r, to_host_w, report))
    try:
        endpoint = HostEndpoint(to_host_r, to_child_w)
        thread.start()
        with anyio.fail_after(10):
            await endpoint.receive_ready()
            run = make_run(source, tool_names, max_pending_calls=max_pending_calls)
            outcome = await endpoint.serve(run, handler, max_pending_calls=max_pending_calls)
            await anyio.to_thread.run_sync(thread.join)
    finally:
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)
    return report, outcome


async def test_a_call_returns_the_handlers_value() -> None:
    report, outcome = await run_program(
        """
        async def main():
            return await tools.search(query="cats")
        """,
        Recorder(),
    )
    assert report.value == {"tool": "search", "args": {"query": "cats"}}
    assert outcome.value == report.value
    assert outcome.error is None


async def test_one_positional_dict_is_the_arguments_object() -> None:
    handler = Recorder()
    await run_program(
        """
        async def main():
            return await tools.search({"query": "cats", "limit": 2})
        """,
        handler,
    )
    assert handler.calls == [("search", {"query": "cats", "limit": 2})]


async def test_a_call_without_arguments_sends_an_empty_object() -> None:
    handler = Recorder()
    await run_program("async def main():\n    await tools.search()\n", handler)
    assert handler.calls == [("search", {})]


#: What a call with positional arguments is told to write instead.
WRITE: Final = (
    r"write await tools\.search\(name=value, \.\.\.\) with the parameter names the SDK declares$"
)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ('tools.search({"a": 1}, b=2)', r"^tools\.search\(\) takes keyword arguments or one dict "
         r"of arguments, not both: " + WRITE),
        ("tools.search(1, 2)", r"^tools\.search\(\) takes keyword arguments or one dict of "
         r"arguments, not 2 positional arguments: " + WRITE),
        ('tools.search("cats")', r"^tools\.search\(\) takes keyword arguments or one dict of "
         r"arguments, not a positional str: " + WRITE),
    ],
)
async def test_other_calling_conventions_raise_type_error(call: str, message: str) -> None:
    handler = Recorder()
    report, _ = await run_program(f"async def main():\n    await {call}\n", handler)
    assert isinstance(report.exception, TypeError)
    with pytest.raises(TypeError, match=message):
        raise report.exception
    assert handler.calls == []


@pytest.mark.parametrize("awaited", ["tools.search", "asyncio.gather(tools.search)"])
async def test_awaiting_a_tool_without_calling_it_says_to_call_it(awaited: str) -> None:
    handler = Recorder()
    report, _ = await run_program(
        f"import asyncio\nasync def main():\n    await {awaited}\n", handler
    )
    assert isinstance(report.exception, TypeError)
    assert str(report.exception) == (
        "tools.search is a tool, not a call: write `await tools.search(...)`"
    )
    assert handler.calls == []


async def test_lossy_arguments_raise_tool_call_error_and_send_nothing() -> None:
    handler = Recorder()
    report, outcome = await run_program(
        """
        async def main():
            try:
                await tools.search(query={1, 2})
            except ToolCallError as exc:
                caught = [str(exc), exc.tool_name]
            await tools.fetch(url="x")
            return caught
        """,
        handler,
    )
    assert report.value == [
        'tool "search" was not called: its arguments must be lossless JSON: a set (use a '
        "sorted list) is not JSON - at `$.query`",
        "search",
    ]
    # The refused call used no id: the next call is id 0, which the host accepts.
    assert handler.calls == [("fetch", {"url": "x"})]
    assert outcome.error is None


async def test_tuples_and_dict_subclasses_in_arguments_travel_as_json_dumps_writes_them() -> None:
    handler = Recorder()
    await run_program(
        """
        import collections
        async def main():
            await tools.search(pair=(1, (2, 3)), counts=collections.Counter("aab"))
        """,
        handler,
    )
    assert handler.calls == [("search", {"pair": [1, [2, 3]], "counts": {"a": 2, "b": 1}})]


async def test_frames_are_sent_as_each_call_is_awaited_not_when_it_is_made() -> None:
    handler = Recorder()
    await run_program(
        """
        async def main():
            first = tools.search(n=1)
            second = tools.fetch(n=2)
            await second
            await first
        """,
        handler,
    )
    assert handler.calls == [("fetch", {"n": 2}), ("search", {"n": 1})]


async def test_gathered_calls_are_in_flight_together_and_replies_out_of_order_resolve_their_own_calls() -> None:  # noqa: E501
    fetch_started = anyio.Event()
    search_may_finish = anyio.Event()

    async def search(args: JsonValue) -> JsonValue:
        await fetch_started.wait()  # fetch starts while search is still running
        await search_may_finish.wait()
        return "search result"

    async def fetch(args: JsonValue) -> JsonValue:
        fetch_started.set()
        await anyio.lowlevel.checkpoint()
        search_may_finish.set()  # fetch replies first, search second
        return "fetch result"

    report, outcome = await run_program(
        """
        import asyncio
        async def main():
            return list(await asyncio.gather(tools.search(q=1), tools.fetch(q=2)))
        """,
        Recorder(answers={"search": search, "fetch": fetch}),
    )
    assert report.value == ["search result", "fetch result"]
    assert outcome.value == ["search result", "fetch result"]


async def test_a_failed_call_raises_tool_call_error_with_the_message_and_code() -> None:
    async def deny(args: JsonValue) -> JsonValue:
        raise ToolCallFailed('the user rejected tool "search"', code="DENIED")

    report, _ = await run_program(
        """
        async def main():
            try:
                await tools.search(q=1)
            except ToolCallError as exc:
                return [str(exc), exc.tool_name, exc.code]
        """,
        Recorder(answers={"search": deny}),
    )
    assert report.value == [
        'tool "search" failed (DENIED): the user rejected tool "search"',
        "search",
        "DENIED",
    ]


@pytest.mark.parametrize(
    ("failed", "message"),
    [
        # Regression: the type was lost, `LookupError("x")` arrived as just `x`.
        (ToolCallFailed("no customer 7", exception_type="LookupError"),
         'tool "search" raised LookupError: no customer 7'),
        # ...and a bare `RuntimeError()` as the text `RuntimeError`.
        (ToolCallFailed("RuntimeError", exception_type="RuntimeError"),
         'tool "search" raised RuntimeError'),
        (ToolCallFailed("", exception_type="KeyError"), 'tool "search" raised KeyError'),
        (ToolCallFailed("gone", code="E_GONE", exception_type="LookupError"),
         'tool "search" failed (E_GONE): LookupError: gone'),
        (ToolCallFailed("went away"), 'tool "search" failed: went away'),
        (ToolCallFailed(""), 'tool "search" failed'),
        (ToolCallFailed('tool "search" is busy'), 'tool "search" is busy'),
    ],
)
async def test_a_failure_names_the_tool_and_carries_the_exception_type(
    failed: ToolCallFailed, message: str
) -> None:
    async def fail(args: JsonValue) -> JsonValue:
        raise failed

    report, _ = await run_program(
        """
        async def main():
            try:
                await tools.search(q=1)
            except ToolCallError as exc:
                return [str(exc), exc.tool_name, exc.code, exc.type]
        """,
        Recorder(answers={"search": fail}),
    )
    assert report.value == [message, "search", failed.code, failed.exception_type]


async def test_an_uncaught_tool_call_error_shows_no_module_path() -> None:
    async def fail(args: JsonValue) -> JsonValue:
        raise ToolCallFailed("no customer 7", exception_type="LookupError")

    report, _ = await run_program(
        "async def main():\n    await tools.search(q=1)\n", Recorder(answers={"search": fail})
    )
    assert isinstance(report.exception, ToolCallError)
    last = traceback.format_exception(report.exception)[-1]
    assert last == 'ToolCallError: tool "search" raised LookupError: no customer 7\n'
    assert repr(type(report.exception)) == "<class 'ToolCallError'>"


async def test_a_handler_crash_reaches_the_program_as_an_internal_error() -> None:
    async def crash(args: JsonValue) -> JsonValue:
        raise RuntimeError("secret host detail")

    report, outcome = await run_program(
        """
        async def main():
            try:
                await tools.search(q=1)
            except ToolCallError as exc:
                return [str(exc), exc.code]
        """,
        Recorder(answers={"search": crash}),
    )
    assert report.value == ['tool "search" failed: internal error in tool "search"', None]
    assert outcome.error is None


async def test_a_lossy_handler_value_reaches_the_program_as_a_failure() -> None:
    async def lossy(args: JsonValue) -> JsonValue:
        return {"x": float("nan")}

    report, _ = await run_program(
        """
        async def main():
            try:
                await tools.search(q=1)
            except ToolCallError as exc:
                return str(exc)
        """,
        Recorder(answers={"search": lossy}),
    )
    assert report.value == (
        'tool "search" returned a value that is not lossless JSON: nan is not a JSON number; '
        "send null or a string instead - at `$.x`"
    )


async def test_big_integers_cross_in_both_directions() -> None:
    async def echo(args: JsonValue) -> JsonValue:
        assert isinstance(args, dict)
        return args["n"]

    report, outcome = await run_program(
        "async def main():\n    return await tools.search(n=2**70)\n",
        Recorder(answers={"search": echo}),
    )
    assert report.value == 2**70
    assert outcome.value == 2**70
    assert type(outcome.value) is int


async def test_a_call_that_is_never_awaited_is_reported_with_its_line() -> None:
    report, _ = await run_program(
        """
        async def main():
            tools.search(q=1)
            await tools.fetch(q=2)
        """,
        Recorder(),
    )
    assert report.unawaited == (
        "tool call tools.search(...) at line 3 was never awaited; a tool call does nothing "
        "until it is awaited: write `await tools.name(...)` or `await asyncio.gather(...)` "
        "of the calls (a call left behind by an exception counts too: make calls "
        "once their arguments are ready)"
    )


async def test_every_call_that_is_never_awaited_is_reported_in_line_order() -> None:
    report, _ = await run_program(
        """
        async def main():
            tools["odd-name"]()

            tools.search(q=1)
        """,
        Recorder(),
        tool_names=("search", "odd-name"),
    )
    assert report.unawaited is not None
    assert report.unawaited.startswith(
        "2 tool calls were never awaited: tools['odd-name'](...) at line 3, "
        "tools.search(...) at line 5; "
    )


async def test_awaited_calls_leave_nothing_to_report() -> None:
    report, _ = await run_program(
        "async def main():\n    await tools.search()\n", Recorder()
    )
    assert report.unawaited is None


async def test_odd_names_are_reached_by_subscription() -> None:
    handler = Recorder()
    await run_program(
        'async def main():\n    await tools["odd-name"](x=1)\n', handler,
        tool_names=("odd-name",),
    )
    assert handler.calls == [("odd-name", {"x": 1})]


async def test_a_tool_named_like_an_internal_resolves_to_the_tool() -> None:
    handler = Recorder()
    await run_program(
        "async def main():\n    await tools.send()\n    await tools.channel()\n", handler,
        tool_names=("send", "channel"),
    )
    assert handler.calls == [("send", {}), ("channel", {})]


async def test_an_undeclared_attribute_raises_attribute_error() -> None:
    report, _ = await run_program("async def main():\n    tools.serch\n", Recorder())
    with pytest.raises(
        AttributeError, match=r"^no tool named 'serch'; declared tools: 'fetch', 'search'$"
    ):
        raise report.exception  # type: ignore[misc]


async def test_an_undeclared_key_raises_key_error() -> None:
    report, _ = await run_program('async def main():\n    tools["serch"]\n', Recorder())
    assert isinstance(report.exception, KeyError)


async def test_the_proxy_is_not_iterable() -> None:
    report, _ = await run_program("async def main():\n    list(tools)\n", Recorder())
    assert isinstance(report.exception, TypeError)
    assert str(report.exception).startswith("tools is not iterable")


async def test_each_attribute_access_gives_a_fresh_stub() -> None:
    report, _ = await run_program(
        "async def main():\n    return tools.search is tools.search\n", Recorder()
    )
    assert report.value is False


async def test_stubs_and_calls_expose_no_public_attributes() -> None:
    report, _ = await run_program(
        """
        async def main():
            call = tools.search()
            public = [n for n in dir(tools.search) + dir(call) if not n.startswith("_")]
            await call
            return public
        """,
        Recorder(),
    )
    assert report.value == []


async def test_a_call_object_is_not_a_coroutine() -> None:
    report, _ = await run_program(
        """
        import inspect
        async def main():
            call = tools.search()
            result = [inspect.iscoroutine(call), hasattr(call, "cr_frame")]
            await call
            return result
        """,
        Recorder(),
    )
    assert report.value == [False, False]


async def test_awaiting_a_call_twice_raises_runtime_error() -> None:
    report, _ = await run_program(
        """
        async def main():
            call = tools.search()
            await call
            await call
        """,
        Recorder(),
    )
    assert isinstance(report.exception, RuntimeError)
    assert str(report.exception) == "cannot await the same tools.search(...) call twice"


def test_the_proxy_refuses_calls_once_the_run_is_over() -> None:
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    try:
        channel = ChildChannel(to_child_r, to_host_w)
        bindings, _on_return, after_run = make_bindings(channel, ["search"])
        assert after_run() is None
        tools: Any = bindings["tools"]

        async def late() -> None:
            await tools.search()

        finished = r"^the program has finished; tools\.search\(\.\.\.\) was not called$"
        with pytest.raises(ToolCallError, match=finished):
            asyncio.run(late())
        os.set_blocking(to_host_r, False)
        with pytest.raises(BlockingIOError):
            os.read(to_host_r, 1)  # nothing was sent
    finally:
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)


async def serve_printer(
    lines: list[str], *, max_frame_bytes: int = 1 << 20
) -> RunOutcome:
    """A child that only prints ``lines`` (through emit_log), served by the host."""
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()

    def child() -> None:
        channel = ChildChannel(to_child_r, to_host_w)
        send_ready(channel)
        recv_run(channel)
        for line in lines:
            channel.emit_log(line)
        channel.send_done(None)

    run = msgspec.structs.replace(make_run("", ()), max_frame_bytes=max_frame_bytes)
    try:
        endpoint = HostEndpoint(to_host_r, to_child_w, max_frame_bytes=max_frame_bytes)
        thread = threading.Thread(target=child)
        thread.start()
        with anyio.fail_after(10):
            await endpoint.receive_ready()
            outcome = await endpoint.serve(run, Recorder())
            await anyio.to_thread.run_sync(thread.join)
    finally:
        for fd in (to_child_r, to_child_w, to_host_r, to_host_w):
            os.close(fd)
    return outcome


async def test_printed_lines_reach_the_host_in_order() -> None:
    lines = [f"line {n}" for n in range(5000)]
    outcome = await serve_printer(lines)
    assert outcome.error is None
    assert outcome.logs == tuple(lines)


async def test_log_batches_stay_within_the_hosts_frame_cap() -> None:
    lines = [f"{n:03d} " + "é" * 40 for n in range(200)]
    outcome = await serve_printer(lines, max_frame_bytes=300)
    assert outcome.error is None
    assert outcome.logs == tuple(lines)


async def test_a_lone_surrogate_in_a_line_is_sent_escaped() -> None:
    outcome = await serve_printer(["bad \ud800 line"])
    assert outcome.logs == ("bad \\ud800 line",)


async def test_a_copied_call_is_sent_as_a_call_of_its_own() -> None:
    handler = Recorder()
    report, _ = await run_program(
        """
        import copy
        async def main():
            call = tools.search(n=1)
            twin = copy.copy(call)
            await call
            await twin
        """,
        handler,
    )
    assert report.exception is None
    assert handler.calls == [("search", {"n": 1}), ("search", {"n": 1})]


ROOT = str(Path(__file__).resolve().parents[2])

#: A child process that prints two lines in quick succession and then computes
#: forever, without ever returning to an event loop.
BUSY_CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from bridge.child import ChildChannel, recv_run, send_ready
channel = ChildChannel(int(sys.argv[2]), int(sys.argv[3]), flush_with_alarm=True)
send_ready(channel)
recv_run(channel)
channel.emit_log("first")
channel.emit_log("second")
while True:
    pass
"""


@contextlib.asynccontextmanager
async def script_child(script: str) -> AsyncIterator[tuple[Process, HostEndpoint]]:
    """A child process running ``script`` and the host's endpoint to it; killed on leaving.

    The script gets the project root and the numbers of its two pipe ends as arguments.
    """
    to_child_r, to_child_w = os.pipe()
    to_host_r, to_host_w = os.pipe()
    try:
        process = await anyio.open_process(
            [sys.executable, "-I", "-c", script, ROOT, str(to_child_r), str(to_host_w)],
            stdin=None, stdout=None, stderr=None, pass_fds=(to_child_r, to_host_w),
        )
    except BaseException:
        os.close(to_host_r)
        os.close(to_child_w)
        raise
    finally:
        os.close(to_child_r)
        os.close(to_host_w)
    try:
        yield process, HostEndpoint(to_host_r, to_child_w)
    finally:
        with anyio.CancelScope(shield=True):
            process.kill()
            await process.wait()
            os.close(to_host_r)
            os.close(to_child_w)


async def test_a_line_printed_before_a_long_computation_reaches_the_host() -> None:
    async with script_child(BUSY_CHILD) as (process, endpoint):
        with anyio.fail_after(30):
            await endpoint.receive_ready()
            async with anyio.create_task_group() as tg:
                tg.start_soon(endpoint.serve, make_run("", ()), Recorder())
                # The child never yields to a loop: only its alarm can send "second".
                while len(endpoint.logs) < 2:
                    await anyio.lowlevel.checkpoint()
                tg.cancel_scope.cancel()
        assert endpoint.logs == ("first", "second")
        assert process.returncode is None



async def test_a_tool_is_looked_up_by_an_exact_name_only() -> None:
    # A str subclass hashing and comparing like "search" was let through, and
    # the stub then carried the program's object, another name, as its name.
    report, outcome = await run_program(
        """
        class Lookalike(str):
            def __hash__(self):
                return hash("search")
            def __eq__(self, other):
                return True
        async def main():
            name = Lookalike("run_code")
            found = name in tools
            try:
                tools[name]
            except KeyError as error:
                return [found, str(error)]
            return "looked up"
        """,
        Recorder(),
    )
    assert report.value == [
        False, "\"no tool named a Lookalike object; declared tools: 'fetch', 'search'\""
    ]
    assert outcome.error is None
