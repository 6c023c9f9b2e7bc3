"""Helpers shared by the Code Mode tests (this module holds no tests).

Every test builds its own registry and :class:`CodeMode`; the sandbox pool is
shared per test module (its start-up dominates a run), through the
``pool`` fixture each module declares with :func:`module_pool`.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from typing import Any

import msgspec

from bridge.lossless import materialize
from codemode import (
    AbortSignal,
    Agent,
    CallInput,
    ContentBlock,
    FailureDetail,
    JsonValue,
    MemoryStore,
    Registry,
    SessionLog,
    TextBlock,
    ToolCallEvent,
    ToolDefinition,
    ToolFailure,
    ToolOutput,
    ToolResult,
    ToolRunContext,
    ToolSuccess,
    define_tool,
)
from codemode.code_mode import CodeMode
from sandbox import Limits, Pool, WorkerPool

#: The scope most tests run their calls for.
AGENT = Agent("assistant")

Body = Callable[[Any, ToolRunContext], Awaitable[JsonValue]]


async def echo_body(args: Any, ctx: ToolRunContext) -> JsonValue:
    """Return the arguments unchanged."""
    return msgspec.to_builtins(args)  # type: ignore[no-any-return]


def render_json(args: Any, value: Any) -> Sequence[ContentBlock]:
    """Render a value as compact JSON text."""
    return [TextBlock(text=json.dumps(value, sort_keys=True))]


def make_tool(
    name: str = "echo",
    *,
    body: Body = echo_body,
    parallel: bool = False,
    timeout: float | None = None,
    render: Callable[[Any, Any], Sequence[ContentBlock]] = render_json,
) -> ToolDefinition:
    """A raw tool (no argument validation) whose body and classification a test chooses."""
    return define_tool(
        name=name,
        description=f"The {name} tool.",
        parameters={"type": "object"},
        output=ToolOutput(schema={}, render=render),
        execute=body,
        timeout=timeout,
        is_concurrency_safe=(lambda args: True) if parallel else None,
    )


def registry_with(*tools: ToolDefinition, mode: str = "code", **options: Any) -> Registry:
    """A registry in ``mode`` with ``tools`` registered globally."""
    registry = Registry(mode=mode, **options)  # type: ignore[arg-type]
    for definition in tools:
        registry.register(definition)
    return registry


def run_code_call(
    code: str,
    *,
    call_id: str = "call-1",
    agent: Agent | None = AGENT,
    signal: AbortSignal | None = None,
    root_call_id: str | None = None,
    description: str = "Run the test program",
) -> CallInput:
    """The ``CallInput`` of a model-direct ``run_code`` call."""
    return CallInput(
        call_id,
        "run_code",
        {"code": code, "description": description},
        signal if signal is not None else AbortSignal(),
        agent=agent,
        root_call_id=root_call_id,
    )


def turn_log(call_id: str = "call-1") -> SessionLog:
    """A session log in which ``call_id``'s turn is open, as a turn runner leaves it.

    Dispatch events belong inside their root call's turn (after its
    ``tool/call``); a test that executes ``run_code`` directly logs that first.
    """
    log = SessionLog(MemoryStore())
    log.append(ToolCallEvent(turn=1, step=0, call_id=call_id, name="run_code", arguments="{}"))
    return log


async def run_code(registry: Registry, code: str, **options: Any) -> ToolResult:
    """Execute one ``run_code`` call on ``registry`` (which must have Code Mode installed)."""
    return await registry.execute(run_code_call(code, **options))


def code_mode(registry: Registry, pool: Pool, **options: Any) -> CodeMode:
    """A :class:`CodeMode` over ``registry`` that borrows the shared ``pool``."""
    return CodeMode(registry, pool=pool, **options)


async def module_pool(limits: Limits | None = None) -> AsyncIterator[WorkerPool]:
    """The body of a module-scoped ``pool`` fixture: one warm child at a time."""
    async with WorkerPool(limits=limits or Limits(wall_seconds=20), size=1) as pool:
        yield pool


def value_of(result: ToolResult) -> Any:
    """The canonical value of a successful result, as plain JSON (fails the test otherwise)."""
    assert isinstance(result, ToolSuccess), result.content
    return materialize(result.value, accept_tuples=True)


def returned(result: ToolResult) -> Any:
    """What the program of a successful ``run_code`` returned."""
    return value_of(result)["result"]


def failure_of(result: ToolResult) -> FailureDetail:
    """The failure detail of a failed result (fails the test otherwise)."""
    assert isinstance(result, ToolFailure), result
    return result.error


def code_of(result: ToolResult) -> str | None:
    """The error code of a failed result."""
    info = failure_of(result).info
    return None if info is None else info.code
