"""``--tools mcp+stdio:…`` and ``--tools mcp+http:…`` through the real ``codemode`` command."""

from __future__ import annotations

import json
import re
import shlex
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from .processes import CODEMODE, GUARD_SECONDS, REPO, WEATHER_SERVER, checkout_env, http_server

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.xdist_group("mcp-cli")

STDIO_SPEC = "mcp+stdio:" + shlex.join([sys.executable, str(WEATHER_SERVER)])

PROGRAM = """\
import asyncio
ping, pong = await asyncio.gather(tools.ping(key="cli"), tools.pong(key="cli"))
return [ping["result"], pong["result"]]
"""


@pytest.fixture(scope="module")
def http_url() -> Iterator[str]:
    with http_server([sys.executable, str(WEATHER_SERVER), "http"]) as url:
        yield url


def codemode(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*CODEMODE, *args], cwd=REPO, env=checkout_env(), capture_output=True, text=True,
        timeout=GUARD_SECONDS, check=False,
    )


@pytest.fixture
def program(tmp_path: Path) -> str:
    path = tmp_path / "meet.py"
    path.write_text(PROGRAM)
    return str(path)


def test_run_with_stdio_mcp_tools_prints_one_json_object_and_reports_the_skipped_tool(
    program: str,
) -> None:
    done = codemode("run", program, "--tools", STDIO_SPEC, "--json")
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    # The program's call id is `run-` and 8 random hex digits (new to any --log file).
    root = outcome["calls"][0]["id"].rsplit(":code:", 1)[0]
    assert re.fullmatch(r"run-[0-9a-f]{8}", root), root
    assert outcome == {
        "ok": True,
        "result": ["ping cli", "pong cli"],
        "logs": [],
        "error": None,
        "calls": [
            {"id": f"{root}:code:1", "name": "ping", "is_error": False},
            {"id": f"{root}:code:2", "name": "pong", "is_error": False},
        ],
    }
    assert (
        'skipped MCP tool "pick": input schema: `$.properties.word.minLength`: keyword '
        "`minLength` is not supported"
    ) in done.stderr


def test_run_with_http_mcp_tools(program: str, http_url: str) -> None:
    done = codemode("run", program, "--tools", f"mcp+http:{http_url}")
    assert done.returncode == 0, done.stderr
    assert done.stdout == '[\n  "ping cli",\n  "pong cli"\n]\n'


def test_sdk_prints_the_stubs_of_an_mcp_servers_tools() -> None:
    done = codemode("sdk", "--tools", STDIO_SPEC)
    assert done.returncode == 0, done.stderr
    assert "    async def forecast(self, *, city: str, **extra: Any) -> Forecast:" in done.stdout
    assert "def pick(" not in done.stdout


def test_schemas_lists_an_mcp_servers_tools_in_a_providers_format() -> None:
    done = codemode("schemas", "--tools", STDIO_SPEC, "--mode", "native", "--format", "mcp")
    assert done.returncode == 0, done.stderr
    listed = {tool["name"]: tool for tool in json.loads(done.stdout)}
    assert "pick" not in listed
    assert listed["add"]["inputSchema"]["required"] == ["a", "b"]
    assert listed["add"]["outputSchema"]["properties"] == {
        "result": {"title": "Result", "type": "integer"}
    }


def _start_error(command: str) -> str:
    """How starting ``command`` fails here, as the CLI names it: ``<type>: <message>``.

    A command found nowhere on ``PATH`` is ``FileNotFoundError``, unless a
    directory on it cannot be searched (``PermissionError``, as ``execvp`` reports).
    """
    try:
        subprocess.run([command], env=checkout_env(), capture_output=True, check=False)
    except OSError as error:
        return f"{type(error).__name__}: {error}"
    raise AssertionError(f"{command!r} started")


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcp+stdio:", "--tools 'mcp+stdio:': no command after 'mcp+stdio:'; write e.g. "
                       "'mcp+stdio:python my_server.py'"),
        ("mcp+stdio:python 'open", "--tools \"mcp+stdio:python 'open\": cannot split the "
                                   "command: No closing quotation"),
        ("mcp+http:localhost:1", "--tools mcp+http:…: expected an http:// or https:// URL "
                                 "(lower case) after 'mcp+http:', the value is not shown; "
                                 "write e.g. 'mcp+http:http://127.0.0.1:8000/mcp'"),
        ("mcp+stdio:no-such-command-here", "MCP server `no-such-command-here` (stdio) could not "
                                           "be reached: " + _start_error("no-such-command-here")),
        ("mcp+stdio:/no-such-directory/command",
         "MCP server `/no-such-directory/command` (stdio) could not be reached: "
         "FileNotFoundError: [Errno 2] No such file or directory: '/no-such-directory/command'"),
    ],
)
def test_a_bad_mcp_spec_is_a_usage_error_in_one_line(program: str, spec: str, message: str) -> None:
    done = codemode("run", program, "--tools", spec)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines()[-1] == f"Error: {message}"
