"""What a tool call produces: content blocks, contexts, and the two result shapes.

Results are frozen msgspec Structs, so they can be shared between the pipeline,
observers and the session log without copying, and encoded to JSON directly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, Literal, TypeAlias, cast

import msgspec

from bridge.lossless import JsonValue  # noqa: TC001 - msgspec resolves the Structs' annotations at run time

from ._errors import CodemodeError, CodeRunFailedError

if TYPE_CHECKING:
    from collections.abc import Callable

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
    "safe_repr",
    "safe_str",
    "text_of",
    "type_name",
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


#: What the text of a foreign value becomes when its ``__str__`` (or ``__repr__``) fails.
UNPRINTABLE: Final = "<unprintable thrown value>"

#: The most characters kept of a foreign value's text (a tool's exception message, a
#: listener's return value shown in an error); the rest is cut and counted.
MAX_FOREIGN_TEXT_CHARS: Final = 4_000

#: The most characters kept of a foreign class's name.
MAX_TYPE_NAME_CHARS: Final = 200

#: ``type.__name__`` itself, which a metaclass cannot override for an instance of ``type``.
_TYPE_NAME: Final = type.__dict__["__name__"]


def safe_str(value: object, limit: int = MAX_FOREIGN_TEXT_CHARS) -> str:
    """``str(value)`` of a value someone else made, at most ``limit`` characters; never raises.

    For what a tool, a program, a listener or a server hands the host (an
    exception to report, an object to name in an error): its ``__str__`` is
    foreign code. Whatever it raises, ``KeyboardInterrupt``, ``SystemExit`` or
    any other ``BaseException`` included, gives :data:`UNPRINTABLE`; a ``str``
    subclass it returns becomes a plain ``str`` (its methods are foreign code
    too); text over ``limit`` characters is cut and says how much was cut.

    Catching ``BaseException`` here does not swallow a cancellation. asyncio
    and anyio deliver one by throwing it into the task at an ``await``, and
    ``__str__`` is synchronous, so what it raises is its own. The request to
    cancel stays on the task (``Task.cancel``) or its cancel scope and is
    delivered at the task's next ``await``, which a caller of this function
    soon reaches. The one signal Python raises between any two bytecodes,
    ``KeyboardInterrupt`` from the default SIGINT handler, cannot be told
    apart from one ``__str__`` raises itself; under ``asyncio.run`` (and
    ``anyio.run``) the first Ctrl-C cancels the main task instead, so only a
    second Ctrl-C landing inside a foreign ``__str__`` is taken as its failure.
    """
    return _contained(str, value, limit)


def safe_repr(value: object, limit: int = MAX_FOREIGN_TEXT_CHARS) -> str:
    """``repr(value)`` for a value someone else made, contained as :func:`safe_str` is."""
    return _contained(repr, value, limit)


def _contained(show: Callable[[object], str], value: object, limit: int) -> str:
    try:
        text = show(value)
    except BaseException:  # foreign code, whatever it raises; see safe_str on cancellation
        return UNPRINTABLE
    # str() and repr() refuse a result that is not a str instance: text is one.
    size = str.__len__(text)
    if size <= limit:
        # A str subclass becomes a plain str, without calling any of its methods.
        return text if type(text) is str else str.__getitem__(text, slice(None))
    return f"{str.__getitem__(text, slice(limit))}… ({size - limit} more characters)"


def type_name(value: object) -> str:
    """The class name of ``value`` (never a module path), read so that no foreign code runs.

    ``type(value).__name__`` would run a metaclass's ``__name__`` property;
    this reads the name ``type`` keeps. A lone surrogate is escaped (it cannot
    cross as UTF-8), and a name over :data:`MAX_TYPE_NAME_CHARS` is cut.
    """
    # A str subclass may be kept as a heap type's name: take its characters only.
    name = _own_text(_TYPE_NAME.__get__(type(value))) or "?"
    if not name.isascii():
        name = name.encode("utf-8", "backslashreplace").decode("utf-8")
    if len(name) > MAX_TYPE_NAME_CHARS:
        name = name[: MAX_TYPE_NAME_CHARS - 1] + "…"
    return name


def _own_text(value: object) -> str | None:
    """``value`` as a plain ``str`` when it is text, else ``None`` (no foreign code runs)."""
    # The real type: isinstance would consult a foreign __class__.
    if not issubclass(type(value), str):
        return None
    text = cast("str", value)
    return text if type(text) is str else str.__getitem__(text, slice(None))


def _codemode_identity(exc: CodemodeError) -> tuple[str, str | None, str | None] | None:
    """The message, code and kind a codemode error reports, or ``None`` if they cannot be read.

    A tool may raise its own subclass of :class:`ToolError`, so these are read
    as foreign attributes: one that raises, or is not text, leaves the error
    to be reported like any other exception.
    """
    try:
        message = _own_text(exc.message)
        code: object = exc.code
        run_failed = issubclass(type(exc), CodeRunFailedError)
        kind: object = cast("CodeRunFailedError", exc).kind if run_failed else None
    except BaseException:  # foreign code, whatever it raises; see safe_str on cancellation
        return None
    if message is None or (code is not None and _own_text(code) is None):
        return None
    if kind is not None and _own_text(kind) is None:
        return None
    return message, _own_text(code), _own_text(kind)


def failure_from_exception(exc: BaseException) -> ToolFailure:
    """Normalise anything a tool or listener raised into a failure.

    A :class:`CodemodeError` keeps its class name and code; anything else keeps
    its message (a hostile ``__str__``, whatever it raises, becomes
    ``<unprintable thrown value>``; a longer message than
    :data:`MAX_FOREIGN_TEXT_CHARS` is cut) and, as ``exception_type``, its
    class name (never a module path or traceback). No foreign code it runs
    can make it raise.
    """
    name = type_name(exc)
    # issubclass of the real type: isinstance would consult a foreign __class__.
    if issubclass(type(exc), CodemodeError):
        identity = _codemode_identity(cast("CodemodeError", exc))
        if identity is not None:
            message, code, kind = identity
            return failure(message, ErrorInfo(name=name, code=code, kind=kind))
    return failure(safe_str(exc) or name, exception_type=name)


def text_of(content: tuple[ContentBlock, ...] | list[ContentBlock]) -> str:
    """The text of all text blocks joined with nothing between (non-text as ``[image content]``)."""
    return "".join(b.text if isinstance(b, TextBlock) else "[image content]" for b in content)
