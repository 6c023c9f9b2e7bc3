"""The host refuses an oversized program before compiling, and compiles long ones off its loop."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel
import pytest

import sandbox._pool
from sandbox import Limits, WorkerPool
from sandbox._compile import compile_program
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from types import CodeType


async def test_a_program_over_max_source_bytes_is_refused_before_compiling() -> None:
    source = "x = 1\n" * 100  # 600 bytes
    async with WorkerPool(limits=Limits(max_source_bytes=500), size=1) as pool:
        result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is not None
    assert result.error.kind == "compile"
    assert result.error.message == (
        "the program is 600 bytes, over the limit of 500 bytes (max_source_bytes); "
        "send a shorter program"
    )
    assert result.pid is None  # no child was used


async def test_a_long_program_compiles_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The compiler waits for a task on the host's loop: were it called on the
    # loop's own thread, that task could never run and the wait would fail.
    loop_ran = threading.Event()

    def compile_waiting_for_the_loop(source: str, *, restricted: bool = True) -> CodeType:
        if not loop_ran.wait(timeout=10):
            raise AssertionError("the program was compiled on the event loop's thread")
        return compile_program(source, restricted=restricted)

    monkeypatch.setattr(sandbox._pool, "compile_program", compile_waiting_for_the_loop)
    source = "total = 0\n" + "total += 1\n" * 1_000 + "return total\n"

    async def mark_loop_running() -> None:
        await anyio.lowlevel.checkpoint()
        loop_ran.set()

    async with WorkerPool(size=1) as pool, anyio.create_task_group() as tg:
        tg.start_soon(mark_loop_running)
        result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == 1_000


def test_max_source_bytes_is_validated() -> None:
    with pytest.raises(ValueError, match=r"max_source_bytes=0"):
        Limits(max_source_bytes=0)
