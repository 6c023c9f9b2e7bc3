"""CodeMode(on_output=...): a program's printed lines, while it runs, with the run's call id."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from codemode import ToolRunContext, ToolSuccess
from codemode.code_mode import CodeMode, CodeOutput

from .test_code_mode_support import make_tool, module_pool, registry_with, run_code

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from sandbox import WorkerPool

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


async def test_lines_arrive_while_the_program_runs_with_the_call_id(pool: WorkerPool) -> None:
    received: list[CodeOutput] = []
    progress = anyio.Event()

    def on_output(output: CodeOutput) -> None:
        received.append(output)
        if "starting" in output.lines:
            progress.set()

    async def wait_for_progress(args: Any, ctx: ToolRunContext) -> Any:
        # A UI showing progress: this call returns only once the line printed
        # before it has reached the host.
        await progress.wait()
        return "ok"

    registry = registry_with(make_tool("fetch", body=wait_for_progress))
    program = "print('starting')\nawait tools.fetch()\nprint('fetched')\nreturn 1"
    with anyio.fail_after(GUARD):
        async with CodeMode(registry, pool=pool, on_output=on_output):
            result = await run_code(registry, program, call_id="call-7")
    assert isinstance(result, ToolSuccess), result
    lines = [line for output in received for line in output.lines]
    assert lines == ["starting", "fetched"]
    assert {output.call_id for output in received} == {"call-7"}
    value: Any = result.value
    assert list(value["logs"]) == lines


async def test_a_raising_on_output_leaves_the_run_and_its_logs_intact(
    pool: WorkerPool, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(output: CodeOutput) -> None:
        raise RuntimeError("the UI went away")

    registry = registry_with()
    with caplog.at_level(logging.ERROR):
        async with CodeMode(registry, pool=pool, on_output=broken):
            result = await run_code(registry, "print('a')\nprint('b')\nreturn 'done'")
    assert isinstance(result, ToolSuccess), result
    value: Any = result.value
    assert value == {"logs": ("a", "b"), "result": "done"}
    assert "the output callback raised" in caplog.text


def test_a_non_callable_on_output_is_refused() -> None:
    with pytest.raises(TypeError, match="on_output must be a callable"):
        CodeMode(registry_with(), on_output="print")  # type: ignore[arg-type]
