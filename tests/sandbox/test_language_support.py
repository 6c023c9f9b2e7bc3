"""Helpers for the language-layer tests: compile and run a program in this process.

No child process is involved: :func:`run` compiles with
:func:`sandbox._compile.compile_program` and runs with
:func:`sandbox._runtime.run_program`, binding a fake ``tools`` object.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from sandbox._compile import ProgramCompileError, compile_program
from sandbox._runtime import run_program

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.lossless import JsonValue

__all__ = ["FakeToolCallError", "FakeTools", "Run", "compile_errors", "run", "run_error", "run_ok"]


class FakeToolCallError(Exception):
    """Stands in for ``bridge.proxy.ToolCallError``."""

    def __init__(self, message: str, tool_name: str, code: str | None = None) -> None:
        super().__init__(message)
        self.tool_name = tool_name
        self.code = code


class FakeTools:
    """A ``tools`` binding: ``echo`` returns its keyword arguments, ``fail`` raises."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []

    async def echo(self, **kwargs: Any) -> dict[str, Any]:
        self.calls.append(("echo", kwargs))
        return dict(kwargs)

    async def fail(self, **kwargs: Any) -> None:
        self.calls.append(("fail", kwargs))
        raise FakeToolCallError("the tool failed on purpose", "fail", "E_PURPOSE")

    def __getitem__(self, name: str) -> Callable[..., Any]:
        if name == "odd-name":

            async def odd(**kwargs: Any) -> str:
                self.calls.append(("odd-name", kwargs))
                return "odd"

            return odd
        raise KeyError(name)


@dataclass
class Run:
    """What a run produced."""

    value: JsonValue
    error: tuple[str, str] | None
    logs: list[str] = field(default_factory=list)
    tools: FakeTools = field(default_factory=FakeTools)


def run(
    source: str,
    *,
    restricted: bool = True,
    max_log_bytes: int = 10_000,
    max_value_bytes: int = 100_000,
    bindings: dict[str, object] | None = None,
    after_run: Callable[[], str | None] | None = None,
) -> Run:
    """Compile and run ``source`` in this process."""
    tools = FakeTools()
    logs: list[str] = []
    code = compile_program(source, restricted=restricted)
    names: dict[str, object] = {"tools": tools, "ToolCallError": FakeToolCallError}
    names.update(bindings or {})
    outcome = run_program(
        code,
        restricted=restricted,
        bindings=names,
        max_log_bytes=max_log_bytes,
        max_value_bytes=max_value_bytes,
        emit_log=logs.append,
        after_run=after_run,
    )
    return Run(outcome.value, outcome.error, logs, tools)


def run_ok(source: str, **kwargs: Any) -> JsonValue:
    """Run ``source`` and return its value, failing the test on any error."""
    result = run(source, **kwargs)
    assert result.error is None, result.error[1]
    return result.value


def run_error(source: str, **kwargs: Any) -> tuple[str, str]:
    """Run ``source`` and return its error ``(kind, message)``."""
    result = run(source, **kwargs)
    assert result.error is not None, f"the program succeeded with {result.value!r}"
    return result.error


def compile_errors(source: str, *, restricted: bool = True) -> tuple[str, ...]:
    """The errors ``compile_program`` reports for ``source``."""
    try:
        compile_program(source, restricted=restricted)
    except ProgramCompileError as exc:
        return exc.errors
    raise AssertionError("the program compiled")
