"""``serve-mcp`` admission: a bounded number of calls in flight, the rest wait in order or are
refused with a clear MCP error.

Counting assertions only: calls are held on an event, never timed.
"""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client
from mcp.shared.exceptions import MCPError

from codemode import Registry, tool
from codemode.cli import main
from codemode.mcp._server import SERVER_BUSY, McpCodeServer, ServerBusyError

pytestmark = pytest.mark.xdist_group("mcp-serve")

GUARD = 60  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


class Gate:
    """What the held tool saw: how many ran at once, and in which order they entered."""

    def __init__(self) -> None:
        self.release = anyio.Event()
        self.running = 0
        self.most = 0
        self.entered: list[int] = []
        self.entered_event = anyio.Event()


GATE = Gate()


@tool(concurrency_safe=True)
async def hold(k: int) -> int:
    """Wait for the test to let calls finish."""
    GATE.entered.append(k)
    GATE.entered_event.set()
    GATE.running += 1
    GATE.most = max(GATE.most, GATE.running)
    try:
        await GATE.release.wait()
    finally:
        GATE.running -= 1
    return k


def held_registry() -> Registry:
    registry = Registry(mode="both")
    registry.register(hold)
    return registry


async def settle() -> None:
    for _ in range(50):
        await anyio.lowlevel.checkpoint()


async def flood(
    server: McpCodeServer, calls: int
) -> tuple[list[int], list[str]]:
    """Start ``calls`` calls in order; release them once admission settled."""
    global GATE
    GATE = Gate()
    done: list[int] = []
    refused: list[str] = []

    async def one(k: int) -> None:
        try:
            answer = await server.call("hold", {"k": k})
        except ServerBusyError as exc:
            refused.append(str(exc))
            return
        assert answer["isError"] is False, answer
        done.append(k)

    with anyio.fail_after(GUARD):
        async with anyio.create_task_group() as group:
            for k in range(calls):
                group.start_soon(one, k)
                await settle()  # arrival order is start order
            assert server.in_flight == min(calls, server.max_concurrent)
            assert server.queued == min(
                max(0, calls - server.max_concurrent), server.max_queued
            )
            GATE.release.set()
    return done, refused


@settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
@given(calls=st.integers(0, 25), slots=st.integers(1, 5), queue=st.integers(0, 8))
async def test_at_most_max_concurrent_run_and_the_rest_wait_or_are_refused(
    calls: int, slots: int, queue: int
) -> None:
    async with McpCodeServer(
        held_registry(), mode="both", max_concurrent=slots, max_queued=queue, pool_size=0
    ) as server:
        done, refused = await flood(server, calls)
        assert server.in_flight == 0
        assert server.queued == 0
    admitted = min(calls, slots + queue)
    assert GATE.most == min(calls, slots)
    assert len(done) == admitted
    assert len(refused) == calls - admitted
    # Waiting calls are admitted in arrival order.
    assert GATE.entered == list(range(admitted))
    for message in refused:
        assert f"max_concurrent={slots}" in message
        assert f"max_queued={queue}" in message


async def test_the_default_bound_is_the_pool_size() -> None:
    async with McpCodeServer(held_registry(), mode="both", pool_size=3) as server:
        assert server.max_concurrent == 3
        assert server.max_queued == 12
        done, refused = await flood(server, 20)
    assert GATE.most == 3
    assert (len(done), len(refused)) == (15, 5)


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_a_bound_that_is_not_a_positive_int_is_refused(bad: Any) -> None:
    with pytest.raises(ValueError, match="max_concurrent="):
        McpCodeServer(held_registry(), mode="both", max_concurrent=bad)


async def test_a_refused_call_is_an_mcp_error_with_the_busy_code() -> None:
    global GATE
    GATE = Gate()
    async with McpCodeServer(
        held_registry(), mode="both", max_concurrent=1, max_queued=0, pool_size=0
    ) as server:
        with anyio.fail_after(GUARD):
            async with Client(server.build()) as client, anyio.create_task_group() as group:
                group.start_soon(client.call_tool, "hold", {"k": 1})
                while not GATE.entered:
                    await GATE.entered_event.wait()
                with pytest.raises(MCPError) as caught:
                    await client.call_tool("hold", {"k": 2})
                GATE.release.set()
    assert caught.value.code == SERVER_BUSY
    assert "the server is busy" in caught.value.message
    assert GATE.entered == [1]


def test_the_command_documents_the_bounds() -> None:
    result = CliRunner().invoke(main, ["serve-mcp", "--help"])
    assert result.exit_code == 0
    assert "--max-concurrent" in result.stdout
    assert "--max-queued" in result.stdout
    bad = CliRunner().invoke(main, ["serve-mcp", "--tools", "x.py", "--max-concurrent", "0"])
    assert bad.exit_code == 2
    assert "--max-concurrent" in bad.stderr


