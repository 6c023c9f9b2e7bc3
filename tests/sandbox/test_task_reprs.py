"""A task's repr, which a program can read, names no file of the host's (a child's asyncio).

A real task's step raises ``RuntimeError`` with ``repr(task)`` when the running
program's ``__await__`` yields what it cannot wait on. asyncio writes each of the
task's callbacks with the file and line it is defined at, reading the callback's
``__code__`` (an event the tripwire ends a run on), and a coroutine with the file
it runs in. In a child those reprs keep the names and the program's own places
(``<model>:3``) and leave the host's out (``sandbox._runtime.hide_host_locations``);
with the tripwire on, the read of the coroutine's code object still ends the run.
"""

from __future__ import annotations

import asyncio
import asyncio.coroutines
import asyncio.format_helpers
import re
from typing import TYPE_CHECKING

import anyio

from sandbox import Limits, WorkerPool
from sandbox._runtime import hide_host_locations
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    import pytest

#: Each way to make a real task put its repr in an error, in each kind of task:
#: the run's own, one of gather's, wait_for's and a task group's.
_PROGRAM = """\
import asyncio
def gen():
    yield 1
class Waiter:
    def __await__(self):
        return (yield gen())
async def message():
    try:
        await Waiter()
    except RuntimeError as error:
        return str(error)
    return "no error"
out = [await message()]
out.append((await asyncio.gather(message()))[0])
out.append(await asyncio.wait_for(message(), 5))
async with asyncio.TaskGroup() as group:
    task = group.create_task(message())
out.append(task.result())
return out
"""

_LOCATION = re.compile(r"/[\w.-]+(?:/[\w.-]+)*\.py|\.py:\d+| at /")


async def test_a_task_repr_a_program_reads_names_no_host_file() -> None:
    limits = Limits(os_layer=False, tripwire=False)
    async with WorkerPool(size=1, limits=limits) as pool:
        with anyio.fail_after(60):
            result = await pool.run(_PROGRAM, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert isinstance(result.value, list)
    texts = [str(text) for text in result.value]
    assert len(texts) == 4
    for text in texts:
        assert "yield was used instead of yield from for generator in task <Task" in text
        assert not _LOCATION.search(text), text
    # The names are still there, and the program's own places.
    # The run's task runs the main coroutine inside the runtime's, which copies
    # the value as it returns: its repr names the program's main, and no place.
    assert "coro=<__codemode_main__() running>" in texts[0]
    assert "cb=[_run_until_complete_cb()]" in texts[0]
    assert "cb=[gather.<locals>._done_callback()]" in texts[1]
    assert "cb=[TaskGroup._on_task_done()]" in texts[3]


async def test_with_the_tripwire_a_task_repr_ends_the_run_at_the_coroutines_code() -> None:
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            result = await pool.run(_PROGRAM, tool_names=[], handler=EchoHandler())
    assert result.error is not None
    assert result.error.kind == "sandbox-violation"
    assert "object.__getattr__ (cr_code)" in result.error.message


def test_a_library_coroutine_and_a_callback_are_written_without_their_places(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # hide_host_locations changes asyncio for the process: undone after the test.
    for module, name in ((asyncio.format_helpers, "_get_function_source"),
                         (asyncio.coroutines, "_format_coroutine")):
        monkeypatch.setattr(module, name, getattr(module, name))
    hide_host_locations()

    def callback() -> None:
        pass

    async def main() -> str:
        loop = asyncio.get_running_loop()
        sleeper = loop.create_task(asyncio.sleep(5))
        sleeper.add_done_callback(lambda _: callback())
        await asyncio.sleep(0)
        text = repr(sleeper)
        sleeper.cancel()
        return text

    text = asyncio.run(main())
    assert "coro=<sleep() running at" not in text
    assert "coro=<sleep() running>" in text
    assert "<lambda>()" in text
    assert not _LOCATION.search(text), text
