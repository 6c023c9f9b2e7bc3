"""What an MCP tool result becomes here: a value, content blocks, or a failure with a code.

* A tool that declares an output schema returns its ``structuredContent``: that
  is the value a program receives, held to the declared schema by the pipeline.
* A tool without one returns its content: the text (text blocks joined by a
  newline) when every block is text, otherwise a list of block objects
  (``{"type": "text", "text": ...}``, ``{"type": "image", "data", "mime_type"}``,
  ``{"type": "audio", ...}``, ``{"type": "resource", ...}``,
  ``{"type": "resource_link", ...}``), so no block is lost.
* ``isError`` becomes :class:`McpToolError` (code ``MCP_TOOL_ERROR``); a
  JSON-RPC error or a broken connection :class:`McpCallError`
  (``MCP_CALL_FAILED``), carrying the JSON-RPC error code when there is one.

The model-facing content is rendered from the value alone (the pipeline's
rule): text stays text, images stay images, other blocks become one line of
text saying what they are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from .._errors import ToolError
from .._results import ContentBlock, ImageBlock, TextBlock
from .._tools import pretty_json

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bridge.lossless import JsonValue

__all__ = [
    "MCP_CALL_FAILED",
    "MCP_TOOL_ERROR",
    "McpCallError",
    "McpToolError",
    "render_value",
    "value_of",
]

MCP_TOOL_ERROR: Final = "MCP_TOOL_ERROR"
MCP_CALL_FAILED: Final = "MCP_CALL_FAILED"

#: How much of a server's error text a failure message keeps.
_MAX_ERROR_CHARS: Final = 2000


class McpToolError(ToolError):
    """The MCP server ran the tool and reported ``isError``; the message is the server's text."""

    code = MCP_TOOL_ERROR

    def __init__(self, tool: str, text: str) -> None:
        self.tool = tool
        self.text = text
        detail = text if len(text) <= _MAX_ERROR_CHARS else text[: _MAX_ERROR_CHARS - 1] + "…"
        super().__init__(f'MCP tool "{tool}" reported an error: {detail or "(no message)"}')


class McpCallError(ToolError):
    """The MCP request failed: a JSON-RPC error from the server, or the connection broke.

    ``rpc_code`` is the JSON-RPC error code (``-32602`` invalid params, …) or
    ``None`` when the server never answered.
    """

    code = MCP_CALL_FAILED

    def __init__(self, tool: str, reason: str, *, rpc_code: int | None = None) -> None:
        self.tool = tool
        self.reason = reason
        self.rpc_code = rpc_code
        where = f" (JSON-RPC error {rpc_code})" if rpc_code is not None else ""
        super().__init__(f'MCP call of "{tool}" failed{where}: {reason}')


def _block_value(block: Any) -> JsonValue:
    """One MCP content block as a plain JSON object (no annotations or ``_meta``)."""
    kind = block.type
    if kind == "text":
        return {"type": "text", "text": block.text}
    if kind in ("image", "audio"):
        return {"type": kind, "data": block.data, "mime_type": block.mime_type}
    if kind == "resource":
        resource = block.resource
        out: dict[str, JsonValue] = {"type": "resource", "uri": str(resource.uri)}
        if resource.mime_type is not None:
            out["mime_type"] = resource.mime_type
        if hasattr(resource, "text"):
            out["text"] = resource.text
        else:
            out["blob"] = resource.blob
        return out
    if kind == "resource_link":
        link: dict[str, JsonValue] = {"type": "resource_link", "uri": str(block.uri),
                                      "name": block.name}
        if block.mime_type is not None:
            link["mime_type"] = block.mime_type
        return link
    # A block type newer than this module: say what it was rather than drop it.
    return {"type": str(kind)}


def error_text(content: Sequence[Any]) -> str:
    """The text of an error result's blocks (what the server said went wrong)."""
    return "\n".join(b.text for b in content if getattr(b, "type", None) == "text")


def value_of(result: Any, *, structured: bool) -> JsonValue:
    """The value a successful ``CallToolResult`` stands for (see the module docstring)."""
    if structured:
        value: JsonValue = result.structured_content
        return value
    blocks = [_block_value(b) for b in result.content]
    if all(isinstance(b, dict) and b.get("type") == "text" for b in blocks):
        return "\n".join(str(b["text"]) for b in blocks if isinstance(b, dict))
    return blocks


def _render_block(block: JsonValue) -> ContentBlock:
    if not isinstance(block, dict):
        return TextBlock(text=pretty_json(block))
    kind = block.get("type")
    if kind == "text" and isinstance(block.get("text"), str):
        return TextBlock(text=str(block["text"]))
    data, mime = block.get("data"), block.get("mime_type")
    if kind == "image" and isinstance(data, str) and isinstance(mime, str):
        return ImageBlock(data=data, mime_type=mime)
    if kind == "resource" and isinstance(block.get("text"), str):
        return TextBlock(text=str(block["text"]))
    if kind in ("audio", "resource", "resource_link"):
        described = ", ".join(
            f"{k}={block[k]}" for k in ("uri", "name", "mime_type") if isinstance(block.get(k), str)
        )
        return TextBlock(text=f"[{kind} content{': ' + described if described else ''}]")
    return TextBlock(text=pretty_json(block))


def render_value(args: object, value: JsonValue) -> tuple[ContentBlock, ...]:
    """The content the model sees for an MCP tool's value (a pure projection of it)."""
    del args  # the content depends on the value alone
    if isinstance(value, str):
        return (TextBlock(text=value),)
    if (
        isinstance(value, (list, tuple))
        and value
        and all(isinstance(b, dict) and isinstance(b.get("type"), str) for b in value)
    ):
        return tuple(_render_block(b) for b in value)
    return (TextBlock(text=pretty_json(value)),)
