"""A task's repr, which a program can read, names no file of the host's (a child's asyncio).

A real task's step raises ``RuntimeError`` with ``repr(task)`` when the running
program's ``__await__`` yields what it cannot wait on. asyncio writes each of the
task's callbacks with the file and line it is defined at, reading the callback's
``__code__`` (an event the tripwire ends a run on), and a coroutine with the file
it runs in. In a child those reprs keep the names and leave the places out
(``sandbox._runtime.hide_host_locations``).
"""

from __future__ import annotations

import re

import anyio
import pytest

from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler

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


@pytest.mark.parametrize(
    "limits", [Limits(), Limits(os_layer=False, tripwire=False)], ids=["all", "language"]
)
async def test_a_task_repr_a_program_reads_names_no_host_file(limits: Limits) -> None:
    async with WorkerPool(size=1, limits=limits) as pool:
        with anyio.fail_after(60):
            result = await pool.run(_PROGRAM, tool_names=[], handler=EchoHandler())
    # With the tripwire on, a repr that read a callback's __code__ ended the run.
    assert result.error is None, result.error
    assert isinstance(result.value, list)
    texts = [str(text) for text in result.value]
    assert len(texts) == 4
    for text in texts:
        assert "yield was used instead of yield from for generator in task <Task" in text
        assert not _LOCATION.search(text), text
    # The names are still there: the program's coroutine and the task's callbacks.
    assert "coro=<__codemode_main__()" in texts[0]
    assert "cb=[gather.<locals>._done_callback()]" in texts[1]
    assert "cb=[TaskGroup._on_task_done()]" in texts[3]
