"""Hostile input through the MCP server: a clear error result or a correct one, never a crash.

Generated tool names, arguments and program sources go through the server's
``tools/call`` handler (the code behind ``codemode serve-mcp``); a few go
through a real client session of the official SDK, in process. Every answer
must be a valid ``CallToolResult``: an error says what was wrong in its text,
and the server keeps serving afterwards.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import mcp.types as types
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp import Client

from codemode._loading import load_registry
from codemode.mcp import McpCodeServer
from sandbox import Limits
from tests.strategies import json_values

from .test_mcp_serve import SERVED

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

pytestmark = pytest.mark.xdist_group("mcp-serve")

GUARD = 60  # seconds; a guard against hangs, never a timing assertion

_EXAMPLES = settings(
    max_examples=25, deadline=None, suppress_health_check=list(HealthCheck)
)

odd_text = st.text(
    st.characters(codec="utf-8", categories=("L", "M", "N", "P", "S", "Z", "C")), max_size=60
)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def server() -> AsyncIterator[McpCodeServer]:
    registry = load_registry(SERVED)
    async with McpCodeServer(
        registry, mode="both", limits=Limits(wall_seconds=10), pool_size=1
    ) as served:
        yield served


def check_answer(answer: dict[str, Any]) -> types.CallToolResult:
    """The handler's answer is a valid result; an error one says what went wrong."""
    result = types.CallToolResult.model_validate(answer)
    if result.is_error:
        texts = [block.text for block in result.content if isinstance(block, types.TextContent)]
        assert texts, result
        assert all(text.strip() for text in texts)
        # A program's own traceback shows only "<model>" frames; a host file never.
        assert 'File "/' not in "\n".join(texts)
    return result


@_EXAMPLES
@given(name=st.one_of(odd_text, st.sampled_from(["weather", "run_code", "send_email"])),
       arguments=st.one_of(st.none(), st.dictionaries(odd_text, json_values(), max_size=4)))
async def test_any_tool_name_and_arguments_get_a_result(
    server: McpCodeServer, name: str, arguments: dict[str, Any] | None
) -> None:
    with anyio.fail_after(GUARD):
        result = check_answer(await server.call(name, arguments))
    if name not in ("weather", "stock", "send_email", "run_code"):
        assert result.is_error


nested = st.integers(min_value=1, max_value=5000).map(lambda depth: "(" * depth + ")" * depth)
sources = st.one_of(
    odd_text,
    st.binary(max_size=200).map(lambda raw: raw.decode("latin-1")),
    nested.map(lambda expression: f"return {expression}"),
    st.integers(min_value=1, max_value=300).map(lambda n: "if 1:\n" + "  " * n + "pass"),
    st.just("x = " + "[" * 10_000),
    st.just("return '" + "y" * 300_000 + "'"),
)


@_EXAMPLES
@given(code=sources, description=st.one_of(odd_text, st.just("Run it")))
async def test_any_program_source_gets_a_result(
    server: McpCodeServer, code: str, description: str
) -> None:
    with anyio.fail_after(GUARD):
        check_answer(await server.call("run_code", {"code": code, "description": description}))


async def test_a_real_client_session_survives_hostile_calls(server: McpCodeServer) -> None:
    hostile: list[tuple[str, Any]] = [
        ("no_such_tool", {}),
        ("weather", {"city": ["not", "a", "string"]}),
        ("weather", {"town": "Paris"}),
        ("run_code", {"code": 42, "description": "not a string"}),
        ("run_code", {"code": "return open('/etc/shadow').read()", "description": "escape"}),
        ("run_code", {"code": "while True:\n    pass", "description": "spin"}),
        ("run_code", {"code": "\x00\udfff", "description": "binary"}),
    ]
    with anyio.fail_after(GUARD * 2):
        async with Client(server.build()) as client:
            for name, arguments in hostile:
                result = await client.call_tool(name, arguments)
                assert result.is_error, (name, arguments, result)
                [text] = [b.text for b in result.content if isinstance(b, types.TextContent)]
                assert text.strip()
                assert 'File "/' not in text
            # The session and the server still serve.
            after = await client.call_tool(
                "run_code", {"code": "return await tools.stock(item='apples')",
                             "description": "count"},
            )
    assert after.is_error is False, after
    assert after.structured_content is not None
    assert after.structured_content["result"] == 12
