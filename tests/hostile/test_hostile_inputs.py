"""Hostile input through every public entry point: a clear error or a correct result, always.

Hypothesis generates tool arguments, schemas, tool names, program sources (huge,
deeply nested, malformed, binary, odd unicode) and log files, and sends them
through ``Registry.execute``, ``define_tool``, ``CodeMode`` (``run_code``),
``WorkerPool.run`` and ``codemode run|sdk|replay``. Never a host traceback,
never an exception out of an entry point that promises a result, never a run
past its limits (a deadline guard), never an exit status but 0, 1 or 2.
"""

from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

import anyio
import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from codemode import (
    AbortSignal,
    CallInput,
    Registry,
    ToolFailure,
    ToolOutput,
    ToolResult,
    UnsupportedSchemaError,
    define_tool,
)
from codemode.cli import main
from codemode.code_mode import CodeMode
from sandbox import Limits, WorkerPool
from sandbox._config import ERROR_KINDS
from sandbox.testing import EchoHandler
from tests.codemode.test_code_mode_support import AGENT, make_tool, registry_with

if TYPE_CHECKING:
    from pathlib import Path

pytestmark = pytest.mark.slow

#: Error codes a result may carry (None: a denial or a tool's own exception).
DOCUMENTED_CODES = {
    None, "UNKNOWN_TOOL", "INVALID_ARGS", "INVALID_TOOL_OUTPUT", "ABORTED",
    "ABORTED_BEFORE_DISPATCH", "CODE_RUN_FAILED", "TOOL_TIMEOUT", "QUOTA_EXCEEDED",
    "LOG_WRITE_FAILED",
}
DEADLOCK_SECONDS = 60.0

odd_text = st.text(
    st.characters(codec=None, exclude_categories=()), max_size=40
)  # surrogates, controls, combining marks, RTL
scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True, allow_infinity=True),
    odd_text, st.binary(max_size=10),
)
hostile_values = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.dictionaries(st.one_of(odd_text, st.integers()), children, max_size=4),
        st.tuples(children),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=20,
)


def _nested(depth: int) -> Any:
    value: Any = 1
    for _ in range(depth):
        value = [value]
    return value


def _assert_result(result: object) -> None:
    assert isinstance(result, ToolResult.__args__)
    if isinstance(result, ToolFailure):
        info = result.error.info
        assert (info.code if info else None) in DOCUMENTED_CODES
        # A program's traceback shows only its own `<model>` frames, never a host file.
        assert 'File "/' not in result.error.message


@settings(max_examples=60)
@given(name=odd_text, arguments=hostile_values)
async def test_registry_execute_answers_any_name_and_arguments_with_a_result(
    name: str, arguments: Any
) -> None:
    registry = registry_with(make_tool("echo"), mode="native")
    with anyio.fail_after(DEADLOCK_SECONDS):
        result = await registry.execute(CallInput("c1", name, arguments, AbortSignal()))
        _assert_result(result)
        echoed = await registry.execute(CallInput("c2", "echo", arguments, AbortSignal()))
        _assert_result(echoed)


async def test_registry_execute_refuses_arguments_nested_past_the_recursion_limit() -> None:
    registry = registry_with(make_tool("echo"), mode="native")
    result = await registry.execute(CallInput("c1", "echo", _nested(100_000), AbortSignal()))
    _assert_result(result)
    assert result.is_error


schema_keys = st.sampled_from([
    "type", "properties", "required", "items", "oneOf", "enum", "const", "additionalProperties",
    "description", "title", "default", "examples", "$ref", "allOf", "pattern", "minimum", "",
])
hostile_schemas = st.recursive(
    st.one_of(scalars, st.sampled_from(["object", "string", "integer", "array", "null"])),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(st.one_of(schema_keys, odd_text), children, max_size=4),
    ),
    max_leaves=15,
)


@settings(max_examples=80)
@given(name=odd_text, parameters=hostile_schemas, output=hostile_schemas)
async def test_define_tool_accepts_or_refuses_any_schema_and_name_with_a_clear_error(
    name: str, parameters: Any, output: Any
) -> None:
    async def body(args: Any, ctx: Any) -> Any:
        return None

    refusal = ""
    registry = Registry(mode="native")
    try:
        definition = define_tool(
            name=name, description="d", parameters=parameters,
            output=ToolOutput(schema=output), execute=body,
        )
        registry.register(definition)
    except (UnsupportedSchemaError, ValueError, TypeError) as exc:
        # UnsupportedSchemaError, a RegistrationError (reserved or invalid name), bad types.
        refusal = str(exc)
    if refusal:
        return  # refused, with a message saying what was wrong
    _assert_result(await registry.execute(CallInput("c", name, {}, AbortSignal(), agent=AGENT)))
    assert registry.schemas()


programs = st.one_of(
    odd_text,
    st.binary(max_size=200).map(lambda data: data.decode("latin-1")),
    st.integers(min_value=50, max_value=3000).map(lambda n: "return " + "(" * n + "1" + ")" * n),
    st.integers(min_value=50, max_value=3000).map(lambda n: "return " + "[" * n + "]" * n),
    st.integers(min_value=1, max_value=200).map(
        lambda n: "".join(" " * i + "if True:\n" for i in range(n)) + " " * n + "return 1\n"
    ),
    st.just("x = '" + "a" * 300_000 + "'"),  # over the source limit
    st.just("return '\ud800'"),
    st.just("return tools"),
    st.just("def f(:\n  pass"),
    st.just("return 1\x00"),
)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(source=programs)
async def test_run_code_answers_any_program_with_a_result(source: str) -> None:
    registry = registry_with(make_tool("echo"))
    with anyio.fail_after(DEADLOCK_SECONDS):
        async with WorkerPool(limits=Limits(wall_seconds=10), size=0) as pool:
            async with CodeMode(registry, pool=pool):
                call = CallInput(
                    "c1", "run_code", {"code": source, "description": "hostile"},
                    AbortSignal(), agent=AGENT,
                )
                result = await registry.execute(call)
                _assert_result(result)
            run = await pool.run(source, tool_names=["echo"], handler=EchoHandler())
            assert run.error is None or run.error.kind in ERROR_KINDS
            assert run.error is None or 'File "/' not in run.error.message


runner = CliRunner()


def _invoke(*args: str) -> Any:
    outcome = runner.invoke(main, list(args), catch_exceptions=True)
    assert outcome.exit_code in (0, 1, 2), (outcome.exit_code, outcome.output)
    assert outcome.exception is None or isinstance(outcome.exception, SystemExit), outcome.exception
    # A program's own traceback (`<model>` frames) may be printed; a host frame never.
    assert 'File "/' not in outcome.output
    return outcome


TOOLS = '''
def echo(text: str) -> str:
    """Echo the text."""
    return text
'''


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(source=programs.filter(lambda s: len(s) < 10_000))
def test_codemode_run_exits_0_1_or_2_on_any_program(source: str, tmp_path: Path) -> None:
    (tmp_path / "tools.py").write_text(TOOLS)
    program = tmp_path / "program.py"
    program.write_text(source, encoding="utf-8", errors="surrogatepass")
    _invoke("run", str(program), "--tools", str(tmp_path / "tools.py"), "--timeout", "10")


@settings(max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(module=st.one_of(odd_text, st.just("def f(x) -> int:\n    return 1\n"), st.just(TOOLS)))
def test_codemode_sdk_exits_0_or_2_on_any_tools_module(module: str, tmp_path: Path) -> None:
    path = tmp_path / "hostile_tools.py"
    path.write_text(module, encoding="utf-8", errors="surrogatepass")
    outcome = _invoke("sdk", "--tools", str(path))
    assert outcome.exit_code in (0, 2)


log_lines = st.one_of(
    st.binary(max_size=60),
    hostile_values.map(
        lambda v: b"{}" if _has_bad_float(v) else json.dumps(v, default=repr).encode()
    ),
    st.fixed_dictionaries({
        "kind": st.sampled_from(["tool/call", "tool/result", "tool/code-dispatch-start",
                                 "tool/code-dispatch", "other"]),
        "seq": st.one_of(st.integers(), odd_text),
        "call_id": odd_text, "sub_call_id": odd_text, "parent_call_id": odd_text,
        "root_call_id": odd_text, "name": odd_text, "turn": st.integers(), "step": st.integers(),
        "arguments": st.one_of(odd_text, st.none()), "time": st.floats(allow_nan=False),
        "is_error": st.booleans(), "content": st.just([]),
    }).map(lambda d: json.dumps(d).encode()),
)


def _has_bad_float(value: Any) -> bool:
    try:
        json.dumps(value, default=repr, allow_nan=False)
    except ValueError:
        return True
    return isinstance(value, float) and math.isnan(value)


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(lines=st.lists(log_lines, max_size=6), newline_at_end=st.booleans())
def test_codemode_replay_exits_0_or_2_on_any_log_file(
    lines: list[bytes], newline_at_end: bool, tmp_path: Path
) -> None:
    path = tmp_path / "hostile.jsonl"
    data = b"\n".join(lines) + (b"\n" if newline_at_end else b"")
    path.write_bytes(data)
    outcome = _invoke("replay", str(path))
    assert outcome.exit_code in (0, 2)
    outcome = _invoke("replay", "--json", str(path))
    assert outcome.exit_code in (0, 2)
