"""What a tool call produces: content blocks, contexts, and the two result shapes.

Results are frozen msgspec Structs, so they can be shared between the pipeline,
observers and the session log without copying, and encoded to JSON directly.
"""

from __future__ import annotations

from typing import ClassVar, Literal, TypeAlias

import msgspec

from bridge.lossless import JsonValue  # noqa: TC001 - msgspec resolves the Structs' annotations at run time

from ._errors import CodemodeError, CodeRunFailedError

__all__ = [
    "ContentBlock",
    "ContextMessage",
    "ErrorInfo",
    "FailureDetail",
    "ImageBlock",
    "TextBlock",
    "ToolFailure",
    "ToolResult",
    "ToolSuccess",
    "failure",
    "failure_from_exception",
    "text_of",
]


class TextBlock(msgspec.Struct, frozen=True, tag="text", tag_field="type"):
    """Plain text for the model."""

    text: str


class ImageBlock(msgspec.Struct, frozen=True, tag="image", tag_field="type"):
    """An image for the model: base64 ``data`` of type ``mime_type``."""

    data: str
    mime_type: str


ContentBlock: TypeAlias = TextBlock | ImageBlock


class ContextMessage(msgspec.Struct, frozen=True):
    """Context deferred by a call, appended as a user message after the call's result."""

    content: tuple[ContentBlock, ...]
    source: str | None = None


class ErrorInfo(msgspec.Struct, frozen=True, omit_defaults=True):
    """Machine-readable identity of a failure: the error class name and its code.

    ``kind`` refines ``CODE_RUN_FAILED``: how the program failed (``exception``,
    ``timeout``, ``compile``, …); it is ``None`` for every other error.
    """

    name: str
    code: str | None = None
    kind: str | None = None


class FailureDetail(msgspec.Struct, frozen=True):
    """A failure's human-readable message (no ``Error: `` prefix) and optional identity.

    ``exception_type`` is the class name of the exception a tool (or a wrapper or
    listener) raised when it is not a codemode error, e.g. ``"LookupError"``; a
    ``run_code`` program receives it as ``ToolCallError.type``. It is not part of
    the message the model reads for a direct call.
    """

    message: str
    info: ErrorInfo | None = None
    exception_type: str | None = None


class ToolSuccess(msgspec.Struct, frozen=True, tag="success"):
    """A successful call: the canonical ``value`` and the content rendered from it.

    ``value`` is execution-local and never persisted; the log keeps ``content``.
    """

    is_error: ClassVar[Literal[False]] = False
    value: JsonValue
    content: tuple[ContentBlock, ...]
    meta: JsonValue | msgspec.UnsetType = msgspec.UNSET
    additional_contexts: tuple[ContextMessage, ...] = ()
    concludes_turn: bool = False


class ToolFailure(msgspec.Struct, frozen=True, tag="failure"):
    """A failed call. It never carries a value."""

    is_error: ClassVar[Literal[True]] = True
    error: FailureDetail
    content: tuple[ContentBlock, ...]
    meta: JsonValue | msgspec.UnsetType = msgspec.UNSET
    additional_contexts: tuple[ContextMessage, ...] = ()


ToolResult: TypeAlias = ToolSuccess | ToolFailure


def failure(
    message: str,
    info: ErrorInfo | None = None,
    *,
    additional_contexts: tuple[ContextMessage, ...] = (),
    exception_type: str | None = None,
) -> ToolFailure:
    """A failure whose content is the single text block ``Error: <message>``."""
    return ToolFailure(
        error=FailureDetail(message=message, info=info, exception_type=exception_type),
        content=(TextBlock(text=f"Error: {message}"),),
        additional_contexts=additional_contexts,
    )


def _safe_str(value: object) -> str:
    try:
        text = str(value)
    except Exception:
        return "<unprintable thrown value>"
    return text if isinstance(text, str) else "<unprintable thrown value>"


def failure_from_exception(exc: BaseException) -> ToolFailure:
    """Normalise anything a tool or listener raised into a failure.

    A :class:`CodemodeError` keeps its class name and code; anything else keeps
    its message (a hostile ``__str__`` becomes ``<unprintable thrown value>``)
    and, as ``exception_type``, its class name (never a module path or traceback).
    """
    if isinstance(exc, CodemodeError):
        kind = exc.kind if isinstance(exc, CodeRunFailedError) else None
        info = ErrorInfo(name=type(exc).__name__, code=exc.code, kind=kind)
        return failure(exc.message, info)
    name = type(exc).__name__
    if not name.isascii():  # a lone surrogate in a class name cannot cross as UTF-8
        name = name.encode("utf-8", "backslashreplace").decode("utf-8")
    return failure(_safe_str(exc) or name, exception_type=name)


def text_of(content: tuple[ContentBlock, ...] | list[ContentBlock]) -> str:
    """The text of all text blocks joined with nothing between (non-text as ``[image content]``)."""
    return "".join(b.text if isinstance(b, TextBlock) else "[image content]" for b in content)
