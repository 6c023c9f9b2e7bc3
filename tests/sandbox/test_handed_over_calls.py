"""Tool calls and ``ToolCallError`` as programs use them on the first try.

The end of a run reports a tool call that no code ever awaited: a forgotten
``await`` would otherwise drop a call silently. A call passed to
``gather``, ``create_task``, ``TaskGroup.create_task``, ``wait`` or
``wait_for`` was not forgotten: when what was to await it is cancelled, or
fails, before its first step, the run ends as it would in plain Python.
A program that derives from ``ToolCallError`` is told how to add to one instead,
and one that awaits a tool without calling it (``await tools.now``) is told to call it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
import pytest

from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from bridge.lossless import JsonValue

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async with WorkerPool(size=1, limits=Limits(wall_seconds=GUARD)) as shared:
        yield shared


async def _run(pool: WorkerPool, source: str) -> tuple[JsonValue, str | None]:
    with anyio.fail_after(GUARD):
        result = await pool.run(source, tool_names=["echo"], handler=EchoHandler())
    return result.value, None if result.error is None else result.error.message


#: Programs that hand a call over and then abandon it, and what plain Python returns.
_ABANDONED = {
    "a task group whose body fails before its tasks start": (
        "import asyncio\ntry:\n    async with asyncio.TaskGroup() as group:\n"
        "        group.create_task(tools.echo(x=1))\n        raise ValueError('bad input')\n"
        "except* ValueError:\n    pass\nreturn 'caught'",
        "caught",
    ),
    "a task cancelled before its first step": (
        "import asyncio\ntask = asyncio.create_task(tools.echo(x=1))\ntask.cancel()\n"
        "return 'cancelled'",
        "cancelled",
    ),
    "cancelled tasks gathered": (
        "import asyncio\ntasks = {n: asyncio.create_task(tools.echo(x=n)) for n in (1, 2)}\n"
        "for task in tasks.values():\n    task.cancel()\n"
        "got = await asyncio.gather(*tasks.values(), return_exceptions=True)\n"
        "return [type(g).__name__ for g in got]",
        ["CancelledError", "CancelledError"],
    ),
    "wait_for with no time to start": (
        "import asyncio\ntry:\n    await asyncio.wait_for(tools.echo(x=1), timeout=0)\n"
        "except TimeoutError:\n    return 'timed out'",
        "timed out",
    ),
    "gather cancelled before its first step": (
        "import asyncio\ntask = asyncio.create_task(asyncio.gather(tools.echo(x=1)))\n"
        "await asyncio.sleep(0)\ntask.cancel()\nreturn 'cancelled'",
        "cancelled",
    ),
}


@pytest.mark.parametrize("case", sorted(_ABANDONED))
async def test_a_call_handed_to_asyncio_and_abandoned_is_not_reported(
    pool: WorkerPool, case: str
) -> None:
    source, expected = _ABANDONED[case]
    assert await _run(pool, source) == (expected, None)


async def test_a_call_no_code_awaits_is_still_reported(pool: WorkerPool) -> None:
    value, error = await _run(pool, "import asyncio\ntools.echo(x=1)\nreturn 'done'")
    assert value is None
    assert error is not None
    assert "tool call tools.echo(...) at line 2 was never awaited" in error


async def test_a_gather_that_never_runs_leaves_its_calls_reported(pool: WorkerPool) -> None:
    # asyncio.gather(...) is a coroutine here: not awaited, it never received the call.
    _, error = await _run(pool, "import asyncio\nasyncio.gather(tools.echo(x=1))\nreturn 1")
    assert error is not None
    assert "tools.echo(...) at line 2 was never awaited" in error


async def test_deriving_from_tool_call_error_says_how_to_add_to_it(pool: WorkerPool) -> None:
    _, error = await _run(pool, "class Retryable(ToolCallError):\n    pass\nreturn 1")
    assert error is not None
    assert "cannot derive from ToolCallError" in error
    assert "the built-in exception classes" in error
    assert "raise an exception of your own `from` it" in error
    suggested = (
        "class Retryable(Exception):\n    pass\n"
        "try:\n    try:\n        await tools.echo(x=1)\n        raise ToolCallError('x', 'echo')\n"
        "    except ToolCallError as error:\n        raise Retryable('try again') from error\n"
        "except Retryable as wrapped:\n    return type(wrapped.__cause__).__name__\n"
    )
    assert await _run(pool, suggested) == ("ToolCallError", None)


async def test_the_classes_of_tools_and_calls_cannot_make_objects(pool: WorkerPool) -> None:
    # Made around an object of the program's, their methods would run the
    # runtime's code on it: type() gives stand-ins that cannot be called.
    source = """
call = tools.echo(x=1)
out = [isinstance(tools, type(tools)), isinstance(call, type(call))]
for kind, args in ((type(tools), (object(),)), (type(tools.echo), (1, "x")),
                   (type(call), (1, "x", b"{}", None, None))):
    try:
        kind(*args)
        out.append("made")
    except TypeError as error:
        out.append(str(error).split(":")[0])
out.append(await call)
return out
"""
    value, error = await _run(pool, source)
    assert error is None, error
    assert value == [
        True, True,
        "_Tools() cannot be called in run_code",
        "_ToolStub() cannot be called in run_code",
        "_ToolCall() cannot be called in run_code",
        {"x": 1},
    ]


#: A program whose leftovers try tool calls once it has returned (or raised): a
#: task, in the handler of the cancellation that closing the run sends it, and
#: an async generator, in the ``finally`` its closing at the run's end runs.
_AFTER_THE_END = """\
import asyncio
async def on_cancel():
    try:
        await asyncio.sleep(3600)
    except asyncio.CancelledError:
        await tools.echo(x="in the cancellation handler")
        raise
async def pages():
    try:
        yield 1
        yield 2
    finally:
        await tools.echo(x="in the generator's finally")
asyncio.create_task(on_cancel())
pending = pages()  # held to the end: closed as the run closes
first = await anext(pending)
await tools.echo(x="before the end")
{end}
"""


@pytest.mark.parametrize("end", ["return 1", "raise ValueError('done')"])
async def test_no_tool_call_starts_once_the_program_has_ended(
    pool: WorkerPool, end: str
) -> None:
    # Regression: calls were refused only once the run's loop was closed, so a
    # task cancelled as the run closed could still start one: the host
    # dispatched a tool after the program's value was fixed.
    handler = EchoHandler()
    with anyio.fail_after(GUARD):
        result = await pool.run(
            _AFTER_THE_END.format(end=end), tool_names=["echo"], handler=handler
        )
    assert handler.calls == [("echo", {"x": "before the end"})]
    if end == "return 1":
        assert result.error is None
        assert result.value == 1
    else:
        assert result.error is not None
        assert "ValueError: done" in result.error.message


#: A program whose run is ended by a task or a done callback of its own, not by its
#: main coroutine: ``SystemExit`` and ``KeyboardInterrupt`` leave the event loop
#: with the main coroutine still suspended, and closing the run cancels it.
_ENDED_ELSEWHERE = """\
import asyncio
async def idle():
    return None
await tools.echo(x="before the end")
{ender}
try:
    await asyncio.Event().wait()
except asyncio.CancelledError:
    await tools.echo(x="in the main coroutine, after the end")
    raise
"""


@pytest.mark.parametrize(
    ("ender", "last_line"),
    [
        (
            "async def end():\n    raise SystemExit('the end')\nasyncio.create_task(end())",
            "SystemExit: the end",
        ),
        (
            "async def end():\n    raise KeyboardInterrupt('the end')\n"
            "asyncio.create_task(end())",
            "KeyboardInterrupt: the end",
        ),
        (
            "def end(task):\n    raise SystemExit('the end')\n"
            "asyncio.create_task(idle()).add_done_callback(end)",
            "SystemExit: the end",
        ),
    ],
    ids=["task-system-exit", "task-keyboard-interrupt", "done-callback-system-exit"],
)
async def test_no_tool_call_starts_once_a_task_has_ended_the_run(
    pool: WorkerPool, ender: str, last_line: str
) -> None:
    # Regression: the calls were closed only when the main coroutine returned or
    # raised. A SystemExit from a task (or a done callback) fixed the run's outcome
    # with the main coroutine suspended; closing the run cancelled it, and its
    # handler's call reached the host after the end.
    handler = EchoHandler()
    with anyio.fail_after(GUARD):
        result = await pool.run(
            _ENDED_ELSEWHERE.format(ender=ender), tool_names=["echo"], handler=handler
        )
    assert handler.calls == [("echo", {"x": "before the end"})]
    assert result.error is not None
    assert last_line in result.error.message


@pytest.mark.parametrize(
    "awaited",
    [
        "await tools.echo",
        "import asyncio\nawait asyncio.gather(tools.echo)",
        "import asyncio\nawait asyncio.create_task(tools.echo)",
    ],
)
async def test_awaiting_a_tool_without_calling_it_says_to_call_it(
    pool: WorkerPool, awaited: str
) -> None:
    value, error = await _run(pool, awaited)
    assert value is None
    assert error is not None
    assert "TypeError: tools.echo is a tool, not a call: write `await tools.echo(...)`" in error


@pytest.mark.parametrize(
    ("reach", "refusal"),
    [
        ("return tools.echo.__await__", '"__await__" is an invalid attribute name'),
        ("return getattr(tools.echo, '__await__')", '"__await__" is an invalid attribute name'),
        (
            "return getattr(type(tools.echo), '__await__')",
            '"__await__" is an invalid attribute name',
        ),
        ("return vars(type(tools.echo))", "vars() in run_code works on the program's own"),
    ],
)
async def test_the_stubs_await_hook_is_not_the_programs(
    pool: WorkerPool, reach: str, refusal: str
) -> None:
    # The hook that names the mistake is asyncio's to call, never the program's
    # to read or step.
    value, error = await _run(pool, reach)
    assert value is None
    assert error is not None
    assert refusal in error, error
