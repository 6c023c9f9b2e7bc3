"""``codemode serve-mcp``: a real MCP client session of the official SDK, over stdio and HTTP."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.types import TextContent

from codemode.mcp._client import McpTools

from .processes import CODEMODE, GUARD_SECONDS, REPO, WEATHER_SERVER, http_server

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = pytest.mark.xdist_group("mcp-serve")

SERVED = str(Path(__file__).resolve().parent / "served_tools.py") + ":registry"

PROGRAM = """
import asyncio
paris, apples = await asyncio.gather(tools.weather(city="Paris"), tools.stock(item="apples"))
print(f"Paris is at {paris['celsius']} degrees")
try:
    await tools.send_email(to="ada@example.org", body="hi")
except ToolCallError as error:
    print(f"denied: {error} (code {error.code})")
return {"celsius": paris["celsius"], "apples": apples}
"""

EXPECTED_LOGS = [
    "Paris is at 21.5 degrees",
    'denied: tool "send_email" failed: sending email is not allowed here (code None)',
]


@pytest.fixture(scope="module")
def both_url() -> Iterator[str]:
    """One `serve-mcp --mode both --http 0` process for the module's HTTP tests."""
    with http_server([*CODEMODE, "serve-mcp", "--tools", SERVED, "--mode", "both",
                      "--http", "0"]) as url:
        yield url


def stdio_params(*extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=CODEMODE[0], args=[*CODEMODE[1:], "serve-mcp", "--tools", SERVED, *extra],
        env={"PYTHONPATH": str(REPO)}, cwd=str(REPO),
    )


async def run_program(client: Client) -> Any:
    with anyio.fail_after(GUARD_SECONDS):
        return await client.call_tool(
            "run_code", {"code": PROGRAM, "description": "Check the weather and the stock"}
        )


def check_program_result(result: Any) -> None:
    assert result.is_error is False, result
    assert result.structured_content is not None
    # A root call's id is `mcp-<8 hex digits, random per server>-<n>`: unique per log.
    prefix = result.structured_content["calls"][0]["id"].removesuffix(":code:1")
    assert re.fullmatch(r"mcp-[0-9a-f]{8}-1", prefix), prefix
    assert result.structured_content == {
        "logs": EXPECTED_LOGS,
        "result": {"celsius": 21.5, "apples": 12},
        "calls": [
            {"id": f"{prefix}:code:1", "name": "weather", "is_error": False},
            {"id": f"{prefix}:code:2", "name": "stock", "is_error": False},
            {"id": f"{prefix}:code:3", "name": "send_email", "is_error": True},
        ],
    }
    [text] = result.content
    assert isinstance(text, TextContent)
    assert text.text == "\n".join(
        [*EXPECTED_LOGS, '{\n  "celsius": 21.5,\n  "apples": 12\n}']
    )


async def test_over_stdio_code_mode_lists_only_run_code_and_runs_a_program() -> None:
    async with Client(stdio_params()) as client:
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == ["run_code"]
        [run_code] = listed
        assert run_code.description is not None
        assert "async def weather(self, *, city: str" in run_code.description
        assert "async def send_email(" in run_code.description
        assert run_code.input_schema["required"] == ["code", "description"]
        check_program_result(await run_program(client))


async def test_over_http_both_lists_every_tool_then_run_code(both_url: str) -> None:
    async with Client(both_url) as client:
        listed = (await client.list_tools()).tools
        assert [t.name for t in listed] == ["weather", "stock", "send_email", "run_code"]
        weather = listed[0]
        assert weather.description == "Current temperature in a city, in degrees Celsius."
        assert weather.input_schema["properties"] == {"city": {"type": "string"}}
        assert weather.output_schema is not None
        assert weather.output_schema["title"] == "Weather"
        check_program_result(await run_program(client))


async def test_over_http_a_direct_call_runs_under_the_same_policy(both_url: str) -> None:
    async with Client(both_url) as client:
        paris = await client.call_tool("weather", {"city": "Oslo"})
        denied = await client.call_tool("send_email", {"to": "a", "body": "b"})
        failed = await client.call_tool(
            "run_code", {"code": "return 1 / 0", "description": "Divide by zero"}
        )
    assert paris.is_error is False
    assert paris.structured_content == {"city": "Oslo", "celsius": 4.0}
    assert denied.is_error is True
    assert [c.text for c in denied.content if isinstance(c, TextContent)] == [
        "Error: sending email is not allowed here"
    ]
    assert failed.is_error is True
    assert failed.structured_content is not None
    assert failed.structured_content["error"]["kind"] == "exception"
    assert "ZeroDivisionError" in failed.structured_content["error"]["message"]


async def test_a_served_registry_can_be_imported_back_as_mcp_tools(both_url: str) -> None:
    # Both ways at once: this project's MCP client reads this project's MCP server.
    async with McpTools.http(both_url) as server:
        imported = await server.definitions()
    assert imported.names == ["weather", "stock", "send_email", "run_code"]
    assert imported.skipped == ()


async def test_serve_mcp_gives_an_mcp_servers_tools_code_mode() -> None:
    # An MCP server in, Code Mode out: the weather server's tools behind one run_code.
    spec = "mcp+stdio:" + shlex.join([sys.executable, str(WEATHER_SERVER)])
    params = StdioServerParameters(
        command=CODEMODE[0], args=[*CODEMODE[1:], "serve-mcp", "--tools", spec],
        env={"PYTHONPATH": str(REPO)}, cwd=str(REPO),
    )
    program = (
        "import asyncio\n"
        "ping, pong = await asyncio.gather(tools.ping(key='served'), tools.pong(key='served'))\n"
        "return [ping['result'], pong['result']]"
    )
    async with Client(params) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["run_code"]
        with anyio.fail_after(GUARD_SECONDS):
            result = await client.call_tool("run_code", {"code": program, "description": "Meet"})
    assert result.is_error is False, result
    assert result.structured_content is not None
    assert result.structured_content["result"] == ["ping served", "pong served"]


NOISY_TOOLS = """
print("a tools module that prints when imported")


def shout(text: str) -> str:
    \"\"\"Upper-case the text, chattily.\"\"\"
    print("a tool that prints while it runs")
    return text.upper()
"""


@pytest.fixture
def noisy(tmp_path: Path) -> Path:
    path = tmp_path / "noisy_tools.py"
    path.write_text(NOISY_TOOLS)
    return path


async def test_over_stdio_a_tools_module_that_prints_still_serves(noisy: Path) -> None:
    params = StdioServerParameters(
        command=CODEMODE[0], args=[*CODEMODE[1:], "serve-mcp", "--tools", str(noisy)],
        env={"PYTHONPATH": str(REPO)}, cwd=str(REPO),
    )
    async with Client(params) as client:
        assert [t.name for t in (await client.list_tools()).tools] == ["run_code"]
        with anyio.fail_after(GUARD_SECONDS):
            result = await client.call_tool(
                "run_code", {"code": "return await tools.shout(text='hi')", "description": "Hi"}
            )
    assert result.is_error is False, result
    assert result.structured_content is not None
    assert result.structured_content["result"] == "HI"


def test_over_stdio_what_a_tools_module_prints_never_reaches_the_protocol_stream(
    noisy: Path,
) -> None:
    # Byte for byte: with no request, the protocol stream stays empty; the text went to stderr.
    done = subprocess.run(
        [*CODEMODE, "serve-mcp", "--tools", str(noisy)], cwd=REPO, input="",
        capture_output=True, text=True, timeout=GUARD_SECONDS, check=False,
    )
    assert (done.returncode, done.stdout) == (0, ""), done.stderr
    assert "a tools module that prints when imported" in done.stderr


def test_serve_mcp_refuses_a_malformed_mcp_tools_spec_in_one_line() -> None:
    done = subprocess.run(
        [*CODEMODE, "serve-mcp", "--tools", "mcp+ftp:x"], cwd=REPO, capture_output=True,
        text=True, timeout=GUARD_SECONDS, check=False,
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == (
        "Error: --tools 'mcp+ftp:x': unknown MCP transport; write 'mcp+stdio:COMMAND ARG…' "
        "or 'mcp+http:URL'"
    )
