"""A stopped run says which line its program was on, in real children.

On its wall-clock limit the host signals the child, which answers with the
program's current line before it is killed; a child that cannot answer (inside one
long C call) is killed after a short grace all the same. At the CPU limit the child
reports its line from the ``SIGXCPU`` handler and exits.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

import anyio
import pytest

from sandbox import Limits, WorkerPool
from sandbox._where import stopped_at
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from bridge.lossless import JsonValue
    from sandbox import CallHandler

GUARD = 30  # seconds; a guard against hangs, never a timing assertion
WALL = "wall-clock limit of 0.5s reached (Limits.wall_seconds)"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async with WorkerPool(limits=Limits(wall_seconds=0.5, cpu_seconds=30), size=1) as shared:
        yield shared


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


async def timeout_message(
    pool: WorkerPool, source: str, handler: CallHandler | None = None
) -> str:
    with anyio.fail_after(GUARD):
        result = await pool.run(source, tool_names=["wait"], handler=handler or EchoHandler())
    assert result.error is not None
    assert result.error.kind == "timeout"
    assert result.pid is not None
    assert not _alive(result.pid)
    return result.error.message


async def test_a_program_computing_names_the_line_of_its_loop(pool: WorkerPool) -> None:
    message = await timeout_message(pool, "n = 0\nwhile True: n += 1")
    assert message == f"{WALL}; the program was at line 2: `while True: n += 1`"


async def test_the_innermost_line_of_the_programs_own_code_is_named(pool: WorkerPool) -> None:
    source = (
        "def spin(n):\n    return spin(n + 1) if n < 50 else loop()\n"
        "def loop():\n    while True: pass\nspin(0)"
    )
    message = await timeout_message(pool, source)
    assert message == f"{WALL}; the program was at line 4: `while True: pass`"


async def test_a_program_awaiting_names_the_innermost_await_of_its_own(pool: WorkerPool) -> None:
    source = (
        "import asyncio\nasync def pause():\n    await asyncio.sleep(60)\n"
        "async def work():\n    await pause()\nawait work()"
    )
    message = await timeout_message(pool, source)
    assert message == f"{WALL}; the program was at line 3: `await asyncio.sleep(60)`"


async def test_a_program_waiting_for_a_tool_names_the_call(pool: WorkerPool) -> None:
    class Never:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            await anyio.sleep_forever()
            raise AssertionError("unreachable")

    message = await timeout_message(pool, "x = 1\nreturn await tools.wait()", Never())
    assert message == f"{WALL}; the program was at line 2: `return await tools.wait()`"


async def test_a_child_inside_one_long_operation_is_killed_without_a_line(
    pool: WorkerPool,
) -> None:
    # sum() over a range runs in C without checking for signals: no handler
    # runs, so the host gives up after its grace and kills the child anyway.
    message = await timeout_message(pool, "total = sum(range(10**14))")
    assert message == (
        f"{WALL}; the program did not say which line it was on (it may have been inside "
        "one long operation, which cannot be interrupted)"
    )


async def test_a_cpu_limit_names_the_line_the_child_reported() -> None:
    async with WorkerPool(limits=Limits(cpu_seconds=1, wall_seconds=GUARD), size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(
                "def busy():\n    while True: pass\nbusy()", tool_names=[], handler=EchoHandler()
            )
    assert result.error is not None
    assert (result.error.kind, result.error.message) == (
        "timeout",
        "CPU time limit of 1s reached (Limits.cpu_seconds); the program was at line 2: "
        "`while True: pass`",
    )


# -- the host trusts only a line number of the program's own source --------------------------------


@pytest.mark.parametrize("line", [None, 0, -1, 4, 2**63 - 1])
def test_a_line_outside_the_source_is_not_shown(line: int | None) -> None:
    assert stopped_at("a = 1\nb = 2\nc = 3", line).startswith(
        "; the program did not say which line it was on"
    )


def test_the_line_is_shown_from_the_hosts_copy_of_the_source_and_cut() -> None:
    source = "a = 1\r\n  b = 2  \rc = '" + "x" * 200 + "'\n"
    assert stopped_at(source, 2) == "; the program was at line 2: `b = 2`"
    shown = stopped_at(source, 3)
    assert shown.startswith("; the program was at line 3: `c = 'xxx")
    assert shown.endswith("…`")
    assert len(shown) < 150
    assert stopped_at(source, 4) == "; the program was at line 4"
