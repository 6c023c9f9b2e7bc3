"""Helpers shared by the pipeline tests (this module holds no tests)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from codemode._execution import CallInput, ExecutionToken, ScopeKey, ToolRunContext
from codemode._results import ContentBlock, TextBlock, ToolFailure, ToolResult, ToolSuccess
from codemode._signal import AbortSignal
from codemode._tools import ToolDefinition, ToolOutput, define_tool

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

Body = Callable[[Any, ToolRunContext], Awaitable[object]]


async def echo_body(args: Any, ctx: ToolRunContext) -> object:
    """Return the arguments unchanged."""
    return args


def render_text(args: Any, value: Any) -> Sequence[ContentBlock]:
    """Render any value as ``value=<repr>``, so tests can see what was rendered."""
    return [TextBlock(text=f"value={value!r}")]


def make_tool(
    name: str = "echo",
    *,
    body: Body = echo_body,
    schema: Mapping[str, JsonValue] | None = None,
    render: Callable[[Any, Any], Sequence[ContentBlock]] = render_text,
    presentation_meta: Callable[[Any, Any], object] | None = None,
    finalize_content: Callable[..., Sequence[ContentBlock] | None] | None = None,
    timeout: float | None = None,
) -> ToolDefinition:
    """A raw tool whose body, output schema and callbacks a test chooses."""
    return define_tool(
        name=name,
        description=f"The {name} tool.",
        parameters={"type": "object"},
        output=ToolOutput(
            schema=schema if schema is not None else {},
            render=render,
            presentation_meta=presentation_meta,
        ),
        execute=body,
        finalize_content=finalize_content,
        timeout=timeout,
    )


def call(
    name: str = "echo",
    arguments: object = None,
    *,
    signal: AbortSignal | None = None,
    agent: ScopeKey | None = None,
    parent: ExecutionToken | None = None,
    call_id: str = "call-1",
    root_call_id: str | None = None,
) -> CallInput:
    """A call input with a fresh signal unless one is given."""
    return CallInput(
        call_id,
        name,
        {} if arguments is None else arguments,
        signal if signal is not None else AbortSignal(),
        agent=agent,
        parent=parent,
        root_call_id=root_call_id,
    )


def success(result: ToolResult) -> ToolSuccess:
    """Narrow to a success, showing the failure message otherwise."""
    assert isinstance(result, ToolSuccess), result
    return result


def failed(result: ToolResult) -> ToolFailure:
    """Narrow to a failure, showing the success otherwise."""
    assert isinstance(result, ToolFailure), result
    return result


def code_of(result: ToolResult) -> str | None:
    """The failure's error code (``None`` for a code-less failure)."""
    info = failed(result).error.info
    return None if info is None else info.code


def message_of(result: ToolResult) -> str:
    """The failure's message."""
    return failed(result).error.message


def texts(result: ToolResult) -> list[str]:
    """The text of each text block of the result's content."""
    return [b.text for b in result.content if isinstance(b, TextBlock)]
