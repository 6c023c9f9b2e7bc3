"""Importing an MCP server's tools: real server processes of the official SDK, stdio and HTTP."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any, TextIO

import anyio
import pytest

from codemode import (
    AbortSignal,
    CallInput,
    ImageBlock,
    Registry,
    TextBlock,
    ToolFailure,
    ToolSuccess,
    text_of,
)
from codemode._json import thaw
from codemode._tools import pretty_json
from codemode.code_mode import CodeMode
from codemode.mcp import (
    MCP_CALL_FAILED,
    MCP_TOOL_ERROR,
    McpCallError,
    McpTools,
    UnsupportedMcpToolsError,
)

from .processes import GUARD_SECONDS, WEATHER_SERVER, http_server

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from codemode import ToolResult

pytestmark = pytest.mark.xdist_group("mcp-client")

#: Every tool of the weather server but `pick`, whose schema is outside the subset.
IMPORTED = [
    "forecast", "add", "shout", "snapshot", "ping", "pong", "hang", "has_started", "was_cancelled",
    "refuse", "crash",
]


@pytest.fixture
def server_errlog(tmp_path: Path) -> Iterator[TextIO]:
    """A file for the stdio server's stderr (the SDK hands the server a real descriptor)."""
    with (tmp_path / "server.err").open("w") as errlog:
        yield errlog


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    """One HTTP weather server for the module's tests."""
    with http_server([sys.executable, str(WEATHER_SERVER), "http"]) as url:
        yield url


async def call(registry: Registry, name: str, arguments: dict[str, Any],
               signal: AbortSignal | None = None, call_id: str = "c1") -> ToolResult:
    return await registry.execute(CallInput(call_id, name, arguments, signal or AbortSignal()))


PARALLEL_PROGRAM = """
import asyncio
ping, pong, paris = await asyncio.gather(
    tools.ping(key=KEY), tools.pong(key=KEY), tools.forecast(city="Paris"))
return {"ping": ping["result"], "pong": pong["result"], "sky": paris["sky"]}
"""


async def run_parallel_program(registry: Registry, key: str) -> ToolResult:
    # `ping` and `pong` each wait for the other on the server: both answers mean both
    # calls were in flight at once. Run one after the other they would never return.
    code = PARALLEL_PROGRAM.replace("KEY", repr(key))
    async with CodeMode(registry, pool_size=1):
        with anyio.fail_after(GUARD_SECONDS):
            return await call(registry, "run_code", {"code": code, "description": "Meet"})


async def test_a_stdio_servers_tools_are_imported_and_a_program_calls_two_at_once(
    server_errlog: TextIO,
) -> None:
    registry = Registry(mode="code")
    connection = McpTools.stdio(sys.executable, [str(WEATHER_SERVER)], errlog=server_errlog)
    async with connection as server:
        imported = await server.register(registry, unsupported="skip")
        assert imported.names == IMPORTED
        result = await run_parallel_program(registry, "stdio")
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == {
        "logs": [],
        "result": {"ping": "ping stdio", "pong": "pong stdio", "sky": "sunny"},
    }


async def test_a_http_servers_tools_are_imported_and_a_program_calls_two_at_once(
    http_url: str,
) -> None:
    registry = Registry(mode="code")
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
        result = await run_parallel_program(registry, "http")
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == {
        "logs": [],
        "result": {"ping": "ping http", "pong": "pong http", "sky": "sunny"},
    }


async def test_an_unsupported_schema_refuses_the_import_naming_every_path(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        with pytest.raises(UnsupportedMcpToolsError) as caught:
            await server.register(registry)
    assert caught.value.code == "UNSUPPORTED_SCHEMA"
    assert [t.name for t in caught.value.tools] == ["pick"]
    assert str(caught.value) == (
        f"1 tool of MCP server at {http_url} uses JSON Schema outside the supported subset "
        "(2 problems):\n"
        '  - tool "pick": input schema: `$.properties.word.minLength`: keyword `minLength` is '
        "not supported (supported: type, oneOf, properties, required, additionalProperties, "
        "items, enum, const, description, title, default, examples)\n"
        '  - tool "pick": input schema: `$.properties.word.pattern`: keyword `pattern` is '
        "not supported (supported: type, oneOf, properties, required, additionalProperties, "
        "items, enum, const, description, title, default, examples)\n"
        "Nothing was imported. Import the other tools with unsupported='skip', or change "
        "these schemas on the server."
    )
    assert registry.schemas() == []


async def test_skip_leaves_the_unsupported_tool_out_and_reports_its_paths(http_url: str) -> None:
    async with McpTools.http(http_url) as server:
        imported = await server.definitions(unsupported="skip")
    assert imported.names == IMPORTED
    [skipped] = imported.skipped
    assert skipped.name == "pick"
    assert [p.split(":")[0] + ":" + p.split(":")[1] for p in skipped.problems] == [
        "input schema: `$.properties.word.minLength`",
        "input schema: `$.properties.word.pattern`",
    ]


async def test_schemas_are_kept_as_the_server_wrote_them_and_output_schemas_used(
    http_url: str,
) -> None:
    async with McpTools.http(http_url) as server:
        listed = {t.name: t for t in (await server.client.list_tools()).tools}
        imported = {d.name: d for d in (await server.definitions(unsupported="skip")).definitions}
    forecast = imported["forecast"]
    assert thaw(forecast.parameters) == listed["forecast"].input_schema
    assert thaw(forecast.output.schema) == listed["forecast"].output_schema
    assert forecast.description == "Tomorrow's forecast for a city."
    # `int | None` is anyOf of two JSON types: spelled oneOf, which accepts the same values.
    shout: Any = thaw(imported["shout"].parameters)
    times = shout["properties"]["times"]
    assert listed["shout"].input_schema["properties"]["times"]["anyOf"] == times["oneOf"]
    assert "anyOf" not in times
    # Without an output schema the value is the content: its text, or its blocks.
    assert "oneOf" in imported["shout"].output.schema


async def test_read_only_tools_may_overlap_and_the_others_run_alone(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
    assert registry.execution_mode("forecast", {"city": "Paris"}) == "parallel"
    assert registry.execution_mode("shout", {"text": "x"}) == "exclusive"
    every = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(every, unsupported="skip", parallel="none", prefix="w_")
    assert every.execution_mode("w_forecast", {"city": "Paris"}) == "exclusive"
    assert [s["name"] for s in every.schemas()] == [f"w_{name}" for name in IMPORTED]


async def test_results_become_structured_values_text_and_content_blocks(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
        paris = await call(registry, "forecast", {"city": "Paris"})
        shout = await call(registry, "shout", {"text": "hi", "times": 2})
        snapshot = await call(registry, "snapshot", {"city": "Oslo"})
    assert isinstance(paris, ToolSuccess)
    assert paris.value == {"city": "Paris", "celsius": 21.5, "sky": "sunny"}
    assert text_of(paris.content) == pretty_json(paris.value)
    assert isinstance(shout, ToolSuccess)
    assert (shout.value, shout.content) == ("HI HI", (TextBlock(text="HI HI"),))
    assert isinstance(snapshot, ToolSuccess)
    assert thaw(snapshot.value) == [
        {"type": "text", "text": "the sky over Oslo"},
        {"type": "image", "data": "iVBORw0KGgo=", "mime_type": "image/png"},
    ]
    assert snapshot.content == (
        TextBlock(text="the sky over Oslo"),
        ImageBlock(data="iVBORw0KGgo=", mime_type="image/png"),
    )


async def test_a_tool_error_on_the_server_is_a_failure_with_its_code(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
        result = await call(registry, "forecast", {"city": "Atlantis"})
    assert isinstance(result, ToolFailure)
    assert result.error.info is not None
    assert (result.error.info.name, result.error.info.code) == ("McpToolError", MCP_TOOL_ERROR)
    assert result.error.message == (
        'MCP tool "forecast" reported an error: Error executing tool forecast: '
        "no forecast for Atlantis"
    )


async def test_a_program_sees_a_server_error_as_a_tool_call_error_with_the_code(
    http_url: str,
) -> None:
    registry = Registry(mode="code")
    program = (
        "try:\n"
        "    await tools.forecast(city='Atlantis')\n"
        "except ToolCallError as error:\n"
        "    return [error.tool_name, error.code, str(error)]\n"
    )
    async with McpTools.http(http_url) as server, CodeMode(registry, pool_size=1):
        await server.register(registry, unsupported="skip")
        result = await call(registry, "run_code", {"code": program, "description": "Fail"})
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == {"logs": [], "result": [
        "forecast", MCP_TOOL_ERROR,
        'tool "forecast" failed (MCP_TOOL_ERROR): MCP tool "forecast" reported an error: '
        "Error executing tool forecast: no forecast for Atlantis",
    ]}


async def test_a_json_rpc_error_from_the_server_is_a_failure_with_its_code(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
        result = await call(registry, "refuse", {"reason": "not today"})
    assert isinstance(result, ToolFailure)
    assert result.error.info is not None
    assert (result.error.info.name, result.error.info.code) == ("McpCallError", MCP_CALL_FAILED)
    assert result.error.message == 'MCP call of "refuse" failed (JSON-RPC error -32602): not today'


async def test_a_server_that_dies_mid_call_fails_that_call_and_the_next_with_a_code(
    server_errlog: TextIO,
) -> None:
    registry = Registry()
    connection = McpTools.stdio(sys.executable, [str(WEATHER_SERVER)], errlog=server_errlog)
    async with connection as server:
        await server.register(registry, unsupported="skip")
        with anyio.fail_after(GUARD_SECONDS):
            died = await call(registry, "crash", {})
            after = await call(registry, "add", {"a": 1, "b": 2}, call_id="c2")
    for result in (died, after):
        assert isinstance(result, ToolFailure), result
        assert result.error.info is not None
        assert result.error.info.code == MCP_CALL_FAILED, result.error.message


async def test_a_call_after_the_connection_closed_fails_with_a_code(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
    result = await call(registry, "add", {"a": 1, "b": 2})
    assert isinstance(result, ToolFailure)
    assert result.error.info is not None
    assert result.error.info.code == MCP_CALL_FAILED
    assert result.error.message == (
        f'MCP call of "add" failed: the connection to MCP server at {http_url} is closed'
    )


async def test_arguments_that_are_not_an_object_fail_before_any_request(http_url: str) -> None:
    registry = Registry()
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")
        result = await registry.execute(CallInput("c1", "add", "1 + 2", AbortSignal()))
    assert isinstance(result, ToolFailure)
    assert result.error.info is not None
    assert result.error.info.code == "INVALID_ARGS"
    assert result.error.message == "invalid arguments: expected an object of arguments, got '1 + 2'"


async def test_the_call_signal_cancels_the_mcp_request_on_the_server(http_url: str) -> None:
    registry = Registry()
    signal = AbortSignal()
    outcome: list[ToolResult] = []
    async with McpTools.http(http_url) as server:
        await server.register(registry, unsupported="skip")

        async def hang() -> None:
            outcome.append(await call(registry, "hang", {"key": "abort"}, signal, "c-hang"))

        with anyio.fail_after(GUARD_SECONDS):
            async with anyio.create_task_group() as group:
                group.start_soon(hang)
                started = await call(registry, "has_started", {"key": "abort"}, call_id="c2")
                assert isinstance(started, ToolSuccess)
                signal.abort("the user stopped it")
            # The server's handler was cancelled: the SDK told it the request was abandoned.
            cancelled = await call(registry, "was_cancelled", {"key": "abort"}, call_id="c3")
    [hung] = outcome
    assert isinstance(hung, ToolFailure)
    assert hung.error.info is not None
    assert hung.error.info.code == "ABORTED"
    assert isinstance(cancelled, ToolSuccess)
    assert thaw(cancelled.value) == {"result": True}


@pytest.mark.parametrize(
    ("program", "said"),
    [
        ("import sys; sys.exit(3)", "ended the MCP handshake: Connection closed"),
        ("print('hello')", "sent a message that is not valid JSON-RPC"),
    ],
    ids=["exits", "prints"],
)
async def test_a_server_that_fails_the_handshake_is_named_in_one_error(
    program: str, said: str
) -> None:
    # Not the SDK's task groups nested three deep around an MCPError.
    connection = McpTools.stdio(sys.executable, ["-c", program])
    with anyio.fail_after(GUARD_SECONDS), pytest.raises(McpCallError) as caught:
        async with connection:
            pass
    assert str(caught.value).startswith('MCP call of "initialize" failed')
    assert f"{connection.label} {said}" in str(caught.value)


async def test_a_command_that_does_not_start_is_the_operating_systems_error() -> None:
    # FileNotFoundError, or PermissionError where a directory on PATH cannot be
    # searched (as execvp reports it to a user who is not root).
    with anyio.fail_after(GUARD_SECONDS), pytest.raises((FileNotFoundError, PermissionError)):
        async with McpTools.stdio("codemode-test-no-such-command"):
            pass


def test_the_constructors_check_their_arguments() -> None:
    with pytest.raises(TypeError, match=r"^command must be a non-empty str, got command=''$"):
        McpTools.stdio("")
    with pytest.raises(TypeError, match=r"^args must be a sequence of str, got args='-v'$"):
        McpTools.stdio("python", "-v")
    with pytest.raises(ValueError, match=r"^url must be an http:// or https:// URL \(lower case"):
        McpTools.http("x")
