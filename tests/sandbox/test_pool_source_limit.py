"""Where a program is compiled: the host refuses an oversized one, compiles a short one, and
leaves a longer one to the child that runs it, under the child's limits.

Whatever is compiled on the host is bounded by ``HOST_COMPILE_BYTES``; the tests
show that a longer program never reaches the host's compiler, that the child
reports its compile errors and pre-flight problems as ``compile``, and that the
host keeps serving other runs while a long program's child is still compiling.
"""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from typing import TYPE_CHECKING

import anyio
import anyio.lowlevel
import pytest

import sandbox._host_compile
from sandbox import Limits, ToolSignature, WorkerPool
from sandbox._compile import compile_with_calls
from sandbox._host_compile import HOST_COMPILE_BYTES, HOST_COMPILES
from sandbox.testing import EchoHandler, idle_child_pids, wait_for_idle

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import CodeType

    from sandbox._calls import CallSite

SEARCH = ToolSignature("search", ("query", "limit"), ("query",), open=False)


def padded(program: str, size: int) -> str:
    """``program`` preceded by comment lines, ``size`` bytes in all."""
    filler = size - len(program.encode("utf-8", "surrogatepass"))
    assert filler >= 2
    return "#" * (filler - 1) + "\n" + program


@pytest.fixture
def host_compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The sources the host compiles, in order."""
    seen: list[str] = []

    def recording(
        source: str, *, restricted: bool = True, signatures: Sequence[ToolSignature] | None = None
    ) -> tuple[CodeType, tuple[CallSite, ...] | None]:
        seen.append(source)
        return compile_with_calls(source, restricted=restricted, signatures=signatures)

    monkeypatch.setattr(sandbox._host_compile, "compile_with_calls", recording)
    return seen


async def test_a_program_over_max_source_bytes_is_refused_before_compiling(
    host_compiled: list[str],
) -> None:
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
    assert host_compiled == []


@pytest.mark.skipif(
    not HOST_COMPILES,
    reason="this interpreter keeps every name it parses: the host compiles nothing",
)
async def test_a_short_program_is_compiled_by_the_host_once(host_compiled: list[str]) -> None:
    source = padded("return 41 + 1", HOST_COMPILE_BYTES)
    async with WorkerPool(size=1) as pool:
        first = await pool.run(source, tool_names=[], handler=EchoHandler())
        second = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert (first.value, second.value) == (42, 42)
    assert host_compiled == [source]


@pytest.mark.skipif(
    not HOST_COMPILES,
    reason="this interpreter keeps every name it parses: the host compiles nothing",
)
async def test_a_short_program_is_compiled_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The compiler waits for a task on the host's loop: were it called on the
    # loop's own thread, that task could never run and the wait would fail.
    loop_ran = threading.Event()

    def compile_waiting_for_the_loop(
        source: str, *, restricted: bool = True, signatures: Sequence[ToolSignature] | None = None
    ) -> tuple[CodeType, tuple[CallSite, ...] | None]:
        if not loop_ran.wait(timeout=20):
            raise AssertionError("the program was compiled on the event loop's thread")
        return compile_with_calls(source, restricted=restricted, signatures=signatures)

    monkeypatch.setattr(sandbox._host_compile, "compile_with_calls", compile_waiting_for_the_loop)

    async def mark_loop_running() -> None:
        await anyio.lowlevel.checkpoint()
        loop_ran.set()

    async with WorkerPool(size=1) as pool, anyio.create_task_group() as tg:
        tg.start_soon(mark_loop_running)
        result = await pool.run("return 6 * 7", tool_names=[], handler=EchoHandler())
    assert result.value == 42


async def test_a_longer_program_is_compiled_by_its_child_not_the_host(
    host_compiled: list[str],
) -> None:
    source = padded("total = 0\nfor i in range(10):\n    total += i\nreturn total", 200_000)
    async with WorkerPool(size=1) as pool:
        result = await pool.run(source, tool_names=[], handler=EchoHandler())
        boundary = await pool.run(
            padded("return 1", HOST_COMPILE_BYTES + 1), tool_names=[], handler=EchoHandler()
        )
    assert result.error is None, result.error
    assert result.value == 45
    assert boundary.value == 1
    assert host_compiled == []


@pytest.mark.skipif(
    not HOST_COMPILES,
    reason="this interpreter keeps every name it parses: the host compiles nothing",
)
async def test_a_longer_program_refused_by_the_policy_ends_as_compile() -> None:
    source = padded("x = 1\ny = x.__class__.__base__\nz = _secret_\nreturn z", 5000)
    async with WorkerPool(size=1) as pool:
        long = await pool.run(source, tool_names=[], handler=EchoHandler())
        short = await pool.run(source.split("\n", 1)[1], tool_names=[], handler=EchoHandler())
    assert long.error is not None
    assert long.error.kind == "compile"
    assert long.pid is not None  # the child compiled it
    assert long.error.message == (
        'Line 3: "__base__" is an invalid attribute name because it starts with "_"\n'
        'Line 4: "_secret_" is an invalid name: names starting and ending with "_" belong to '
        "the runtime"
    )
    assert short.error is not None
    assert short.pid is None  # the host compiled it, with the same verdict
    assert short.error.message == long.error.message.replace("Line 3", "Line 2").replace(
        "Line 4", "Line 3"
    )


async def test_a_longer_programs_tool_calls_are_checked_in_its_child() -> None:
    program = 'await tools.search(query="x")\nawait tools.serch(query="y")\nreturn 1'
    handler = EchoHandler()
    async with WorkerPool(size=1) as pool:
        long = await pool.run(
            padded(program, 5000), tool_names=["search"], handler=handler, signatures=[SEARCH]
        )
        short = await pool.run(
            program, tool_names=["search"], handler=handler, signatures=[SEARCH]
        )
    assert handler.calls == []  # nothing ran: the first call is fine, the second is not
    for result, line in ((long, 3), (short, 2)):
        assert result.error is not None
        assert result.error.kind == "compile"
        assert result.error.message == (
            "the program was not run; fix these calls first:\n"
            f'Line {line}: unknown tool "serch" (did you mean "search"?); available tools: search'
        )


async def test_a_cached_program_is_checked_against_each_runs_tools() -> None:
    program = "return await tools.search(query='x')"
    async with WorkerPool(size=1) as pool:
        fine = await pool.run(
            program, tool_names=["search"], handler=EchoHandler(), signatures=[SEARCH]
        )
        refused = await pool.run(program, tool_names=[], handler=EchoHandler(), signatures=[])
    assert fine.value == {"query": "x"}
    assert refused.error is not None
    assert refused.error.kind == "compile"
    assert 'unknown tool "search"' in refused.error.message


async def test_a_longer_program_with_a_lone_surrogate_is_refused_like_a_short_one() -> None:
    program = 'return "\ud800"'
    async with WorkerPool(size=1) as pool:
        long = await pool.run(padded(program, 5000), tool_names=[], handler=EchoHandler())
        short = await pool.run(program, tool_names=[], handler=EchoHandler())
    assert long.error is not None
    assert short.error is not None
    assert (long.error.kind, long.pid) == ("compile", None)
    assert long.error.message == short.error.message.replace("position 8", "position 4996")


async def test_a_program_too_large_for_one_frame_is_refused_before_a_child_is_used() -> None:
    limits = Limits(max_frame_bytes=8192, max_value_bytes=1024, max_source_bytes=64 * 1024)
    async with WorkerPool(limits=limits, size=1) as pool:
        result = await pool.run(padded("return 1", 9000), tool_names=[], handler=EchoHandler())
    assert result.error is not None
    assert (result.error.kind, result.pid) == ("compile", None)
    assert result.error.message == (
        "the program is 9000 bytes, too large to send to the sandbox in one frame of "
        "max_frame_bytes=8192; send a shorter program"
    )


async def test_the_host_serves_other_runs_while_a_long_program_is_still_compiling() -> None:
    # The long program's child is stopped before it can compile anything: the
    # other run must complete while that run is still at its compile step.
    order: list[str] = []
    source = padded("return 'long'", 200_000)
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(30):
            await wait_for_idle(pool, 1)
        (stopped,) = idle_child_pids(pool)
        os.kill(stopped, signal.SIGSTOP)
        try:
            async with anyio.create_task_group() as tg:

                async def long_run() -> None:
                    result = await pool.run(source, tool_names=[], handler=EchoHandler())
                    order.append(f"long: {result.value}")

                tg.start_soon(long_run)
                with anyio.fail_after(30):
                    while stopped in idle_child_pids(pool):  # until the long run took it
                        await anyio.lowlevel.checkpoint()
                other = await pool.run("return 'other'", tool_names=[], handler=EchoHandler())
                order.append(f"other: {other.value}")
                os.kill(stopped, signal.SIGCONT)
        finally:
            with contextlib.suppress(ProcessLookupError):  # gone once its run ended
                os.kill(stopped, signal.SIGCONT)
    assert order == ["other: other", "long: long"]


def test_max_source_bytes_is_validated() -> None:
    with pytest.raises(ValueError, match=r"max_source_bytes=0"):
        Limits(max_source_bytes=0)
