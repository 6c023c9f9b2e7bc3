"""An imported MCP server is a hostile peer: deadlines, bounded frames, bad names, no loop work.

Each test starts ``hostile_server.py`` in one of its modes. Deadlines in these
tests are guards against hangs only; every assertion is on an outcome (which
error, naming what) or a count (which thread parsed a message, how often the
SDK's schema check ran).
"""

from __future__ import annotations

import subprocess
import sys
import threading
import warnings
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import anyio
import mcp_types
import pytest
from mcp.client.session import ClientSession

from codemode import AbortSignal, CallInput, RegistrationError, Registry, ToolFailure, ToolSuccess
from codemode._json import thaw
from codemode.mcp import MCP_CALL_FAILED, McpCallError, McpTools
from codemode.mcp._client import DEFAULT_CALL_TIMEOUT
from codemode.mcp._transport import INLINE_PARSE_BYTES, MAX_CONTENT_BLOCKS, MAX_RESULT_NODES

from .processes import CODEMODE, GUARD_SECONDS, REPO, checkout_env

if TYPE_CHECKING:
    from collections.abc import Iterator

    from codemode import ToolResult

pytestmark = pytest.mark.xdist_group("mcp-hostile-server")

HOSTILE = Path(__file__).resolve().parent / "hostile_server.py"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def errlog(tmp_path: Path) -> Iterator[TextIO]:
    with (tmp_path / "server.err").open("w") as log:
        yield log


def hostile(mode: str, errlog: TextIO, n: int = 0, **options: Any) -> McpTools:
    return McpTools.stdio(sys.executable, [str(HOSTILE), mode, str(n)], errlog=errlog, **options)


async def call(registry: Registry, name: str) -> ToolResult:
    return await registry.execute(CallInput("c1", name, {}, AbortSignal()))


def failure_of(result: ToolResult) -> tuple[str, str]:
    assert isinstance(result, ToolFailure), result
    assert result.error.info is not None
    assert result.error.info.code is not None
    return result.error.info.code, result.error.message


# -- deadlines ---------------------------------------------------------------------------------


async def test_a_server_that_never_answers_the_handshake_fails_the_connection(
    errlog: TextIO,
) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        with pytest.raises(TimeoutError) as caught:
            async with hostile("hang_init", errlog, connect_timeout=0.5):
                pass
    assert "hostile_server.py hang_init" in str(caught.value)
    assert "did not complete the MCP handshake (initialize)" in str(caught.value)


async def test_a_server_that_never_answers_tools_list_fails_the_import(errlog: TextIO) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("hang_list", errlog, list_timeout=0.5) as server:
            with pytest.raises(McpCallError) as caught:
                await server.register(Registry(), unsupported="skip")
    assert caught.value.code == MCP_CALL_FAILED
    assert "hostile_server.py hang_list" in caught.value.reason
    assert "did not answer tools/list" in caught.value.reason


async def test_imported_tools_get_a_deadline_by_default_and_none_only_when_asked(
    errlog: TextIO,
) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("hang_call", errlog) as server:
            [default] = (await server.definitions()).definitions
            [unbounded] = (await server.definitions(call_timeout=None)).definitions
            registry = Registry()
            await server.register(registry, call_timeout=0.5)
            hung = await call(registry, "echo")
    assert default.timeout == DEFAULT_CALL_TIMEOUT
    assert unbounded.timeout is None
    code, _ = failure_of(hung)
    assert code == "TOOL_TIMEOUT"


async def test_an_unparseable_answer_fails_the_pending_call_instead_of_hanging_it(
    errlog: TextIO,
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("garbled", errlog) as server:
            await server.register(registry, call_timeout=None)
            garbled = await call(registry, "echo")
            after = await call(registry, "echo")
    for result in (garbled, after):
        code, message = failure_of(result)
        assert code == MCP_CALL_FAILED
        assert "sent a message that is not valid JSON-RPC" in message


# -- frame budgets -----------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["huge", "noline"])
async def test_a_message_over_max_message_bytes_closes_the_connection(
    errlog: TextIO, mode: str
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(mode, errlog, 1024, max_message_bytes=64 * 1024) as server:
            await server.register(registry, call_timeout=None)
            result = await call(registry, "echo")
    code, message = failure_of(result)
    assert code == MCP_CALL_FAILED
    assert f"hostile_server.py {mode} 1024" in message
    assert "longer than max_message_bytes=65536" in message


async def test_a_message_within_max_message_bytes_is_read_whole(errlog: TextIO) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("huge", errlog, 1024) as server:  # 1 MiB, in 64 KiB reads
            await server.register(registry)
            result = await call(registry, "echo")
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == "A" * (1024 * 1024)


async def test_a_result_with_too_many_content_blocks_is_refused(errlog: TextIO) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("many_blocks", errlog, MAX_CONTENT_BLOCKS + 1) as server:
            await server.register(registry)
            refused = await call(registry, "echo")
    code, message = failure_of(refused)
    assert code == MCP_CALL_FAILED
    assert f"{MAX_CONTENT_BLOCKS + 1} content blocks" in message


async def test_a_result_with_too_many_values_is_refused(errlog: TextIO) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("many_values", errlog, MAX_RESULT_NODES + 1) as server:
            await server.register(registry)
            refused = await call(registry, "echo")
    code, message = failure_of(refused)
    assert code == MCP_CALL_FAILED
    assert f"more than {MAX_RESULT_NODES} JSON values" in message


class ParseThreads:
    """Records, for every JSON-RPC message the client parses, its size and thread."""

    def __init__(self, real: Any) -> None:
        self.real = real
        self.loop_thread = threading.get_ident()
        self.large_on_loop = 0
        self.large_elsewhere = 0

    def _note(self, size: int) -> None:
        if size > INLINE_PARSE_BYTES:
            if threading.get_ident() == self.loop_thread:
                self.large_on_loop += 1
            else:
                self.large_elsewhere += 1

    def validate_json(self, data: Any, **kwargs: Any) -> Any:
        self._note(len(data))
        return self.real.validate_json(data, **kwargs)

    def validate_python(self, data: Any, **kwargs: Any) -> Any:
        result = data.get("result") if isinstance(data, dict) else None
        content = result.get("content") if isinstance(result, dict) else None
        if isinstance(content, list) and content and isinstance(content[0], dict):
            self._note(len(str(content[0].get("text", ""))))
        return self.real.validate_python(data, **kwargs)


async def test_a_large_message_is_parsed_off_the_event_loop(
    errlog: TextIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads = ParseThreads(mcp_types.jsonrpc_message_adapter)
    monkeypatch.setattr(mcp_types, "jsonrpc_message_adapter", threads)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("huge", errlog, 1024) as server:
            await server.register(registry)
            result = await call(registry, "echo")
    assert isinstance(result, ToolSuccess), result
    assert threads.large_elsewhere == 1
    assert threads.large_on_loop == 0


async def test_the_sdk_never_checks_structured_content_against_the_servers_schema(
    errlog: TextIO, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK's check runs jsonschema on the loop (an n-value enum × n items costs n²);
    # the pipeline holds the value to the imported schema itself, off the loop when large.
    checks: list[str] = []
    real = ClientSession.validate_tool_result

    async def counting(self: ClientSession, name: str, result: Any) -> None:
        checks.append(name)
        await real(self, name, result)

    monkeypatch.setattr(ClientSession, "validate_tool_result", counting)
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("enum_out", errlog, 50) as server:
            await server.register(registry)
            result = await call(registry, "pick")
    assert isinstance(result, ToolSuccess), result
    assert thaw(result.value) == {"v": ["value-000049"] * 50}
    assert checks == []


# -- badly named tools -------------------------------------------------------------------------

GOOD = [f"good{i}" for i in range(10)]


@pytest.mark.parametrize(
    ("mode", "bad", "why"),
    [
        ("bad_one", "", "the tool name is empty"),
        ("reserved_one", "run_code", 'the tool name "run_code" is reserved'),
        ("dup_names", "good0", "more than once"),
    ],
)
async def test_a_badly_named_tool_is_skipped_with_a_warning_and_the_rest_imported(
    errlog: TextIO, mode: str, bad: str, why: str
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(mode, errlog) as server:
            with pytest.warns(RuntimeWarning) as warned:
                imported = await server.register(registry, unsupported="skip")
    assert imported.names == GOOD
    [skipped] = imported.skipped
    assert skipped.name == bad
    assert why in " ".join(skipped.problems)
    [warning] = warned
    assert f'skipped MCP tool "{bad}"' in str(warning.message)
    assert why in str(warning.message)


@pytest.mark.parametrize(
    ("mode", "bad"), [("bad_one", ""), ("reserved_one", "run_code"), ("dup_names", "good0")]
)
async def test_a_badly_named_tool_refuses_the_import_naming_it(
    errlog: TextIO, mode: str, bad: str
) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile(mode, errlog) as server:
            with pytest.raises(RegistrationError) as caught:
                await server.register(registry)
    assert f'tool "{bad}"' in str(caught.value)
    assert registry.get("good1") is None  # nothing was imported


async def test_a_name_already_registered_is_skipped_under_skip(errlog: TextIO) -> None:
    registry = Registry()
    with anyio.fail_after(GUARD_SECONDS):
        async with hostile("bad_one", errlog) as first:
            with pytest.warns(RuntimeWarning):
                await first.register(registry, unsupported="skip")
            async with hostile("dup_names", errlog) as second:
                with warnings.catch_warnings(record=True) as warned:
                    warnings.simplefilter("always")
                    again = await second.register(registry, unsupported="skip")
    assert again.names == []
    assert [s.name for s in again.skipped] == ["good0", *GOOD]
    assert len(warned) == 11


@pytest.mark.parametrize("mode", ["bad_one", "reserved_one", "dup_names"])
def test_the_cli_imports_the_good_tools_and_reports_the_bad_one_without_a_traceback(
    mode: str,
) -> None:
    spec = f"mcp+stdio:{sys.executable} {HOSTILE} {mode}"
    done = subprocess.run(
        [*CODEMODE, "sdk", "--tools", spec], cwd=REPO, env=checkout_env(),
        capture_output=True, text=True, timeout=GUARD_SECONDS, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert "skipped MCP tool" in done.stderr
    assert "good9" in done.stdout
