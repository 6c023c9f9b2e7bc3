"""What a run derives from its scope's tools is computed once per registry version.

The SDK tools, the tool names a program's ``tools`` proxy declares and the pre-flight
signatures depend only on the registry's state; ``run_code`` keeps them per scope and
per registry version. A change to the registry (a registration, its removal, a
restriction) must reach the very next run and the next SDK text.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from codemode import Agent
from codemode.code_mode import _code_mode, _preflight, render_sdk

from .test_code_mode_support import (
    AGENT,
    code_mode,
    failure_of,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from sandbox import WorkerPool


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


async def test_signatures_are_derived_once_per_registry_version(
    pool: WorkerPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    derived: list[tuple[str, ...]] = []
    real = _preflight.tool_signatures

    def counting(tools: dict[str, object]) -> object:
        derived.append(tuple(tools))
        return real(tools)  # type: ignore[arg-type]

    monkeypatch.setattr(_code_mode, "tool_signatures", counting)
    registry = registry_with(make_tool("a"))
    async with code_mode(registry, pool):
        for _ in range(3):
            assert returned(await run_code(registry, "return await tools.a(x=1)")) == {"x": 1}
        assert derived == [("a",)]
        registry.register(make_tool("b"))
        assert returned(await run_code(registry, "return await tools.b(y=2)")) == {"y": 2}
        assert returned(await run_code(registry, "return await tools.a(x=3)")) == {"x": 3}
    assert derived == [("a",), ("a", "b")]


async def test_a_removed_tool_is_gone_from_the_next_run(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("a"))
    remove_b = registry.register(make_tool("b"))
    async with code_mode(registry, pool):
        assert returned(await run_code(registry, "return await tools.b(y=1)")) == {"y": 1}
        remove_b()
        failed = failure_of(await run_code(registry, "return await tools.b(y=1)"))
        assert "b" in failed.message
        # The proxy no longer declares it either: a computed name is not checked
        # before the run, and the program sees no such tool.
        probe = "name = 'b'\nreturn hasattr(tools, name)"
        assert returned(await run_code(registry, probe)) is False


async def test_a_restriction_reaches_the_next_run_and_the_sdk(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("a"), make_tool("b"))
    async with code_mode(registry, pool) as mode:
        before = mode.sdk(AGENT)
        assert "def b(" in before
        assert returned(await run_code(registry, "return await tools.b(y=1)")) == {"y": 1}
        registry.restrict(AGENT, deny=["b"])
        after = mode.sdk(AGENT)
        assert "def b(" not in after
        assert after == render_sdk(mode.sdk_tools(AGENT))
        failed = failure_of(await run_code(registry, "return await tools.b(y=1)"))
        assert "b" in failed.message
        # Another scope keeps its own view.
        other = Agent("other")
        assert "def b(" in mode.sdk(other)
        assert [tool.name for tool in mode.sdk_tools(other)] == ["a", "b"]
