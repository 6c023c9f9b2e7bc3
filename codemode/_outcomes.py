"""Building and checking the results the pipeline hands out.

Small constructors for the failures the pipeline produces, the checks that
turn a listener's misuse into a failure, and :func:`normalised`, the last check
before a result is published: every field must be lossless JSON, and the result
comes back frozen.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence

import msgspec

from bridge.lossless import materialize

from ._cancellation import is_cancellation
from ._errors import AbortError
from ._results import (
    ContentBlock,
    ContextMessage,
    ErrorInfo,
    FailureDetail,
    ImageBlock,
    TextBlock,
    ToolFailure,
    ToolResult,
    ToolSuccess,
    failure,
    failure_from_exception,
    safe_repr,
)

__all__ = [
    "aborted",
    "awaited",
    "check_blocks",
    "from_exception",
    "is_cancellation",
    "normalised",
    "plain_failure",
    "reject_awaitable",
]


def _shown(value: object) -> str:
    """What a listener or renderer returned, for an error message: its code may raise anything."""
    return safe_repr(value, 200)


def aborted(*, before_dispatch: bool, contexts: tuple[ContextMessage, ...] = ()) -> ToolFailure:
    result = failure_from_exception(AbortError(before_dispatch=before_dispatch))
    if contexts:
        result = msgspec.structs.replace(result, additional_contexts=contexts)
    return result


def plain_failure(message: str, contexts: tuple[ContextMessage, ...] = ()) -> ToolFailure:
    return failure(message, additional_contexts=contexts)


def from_exception(exc: BaseException, contexts: tuple[ContextMessage, ...] = ()) -> ToolFailure:
    result = failure_from_exception(exc)
    if contexts:
        result = msgspec.structs.replace(result, additional_contexts=contexts)
    return result


async def awaited(value: object, what: str) -> object:
    if not inspect.isawaitable(value):
        raise TypeError(
            f"{what} must be async (return an awaitable), but it returned {_shown(value)}"
        )
    return await value


def reject_awaitable(value: object, what: str) -> None:
    if inspect.isawaitable(value):
        if inspect.iscoroutine(value):
            value.close()  # never started; closing it avoids a "never awaited" warning
        raise TypeError(f"{what} must be synchronous, but it returned an awaitable")


def check_string(value: object, what: str) -> None:
    if type(value) is not str:
        raise TypeError(f"{what} must be a str, got {_shown(value)}")
    if not value.isascii():
        materialize(value)  # refuses lone surrogates, naming the index


def check_blocks(blocks: object, what: str) -> tuple[ContentBlock, ...]:
    if type(blocks) is tuple:
        # The common shape (a renderer's tuple, a normalised result's content):
        # immutable, so it is checked in place and returned without a copy.
        for block in blocks:
            _check_block(block, what)
        return blocks
    if isinstance(blocks, (str, bytes)) or not isinstance(blocks, Sequence):
        raise TypeError(f"{what} must return a sequence of content blocks, got {_shown(blocks)}")
    out: list[ContentBlock] = []
    for block in blocks:
        _check_block(block, what)
        out.append(block)
    return tuple(out)


def _check_block(block: object, what: str) -> None:
    if type(block) is TextBlock:
        check_string(block.text, "a text block's text")
    elif type(block) is ImageBlock:
        check_string(block.data, "an image block's data")
        check_string(block.mime_type, "an image block's mime_type")
    else:
        raise TypeError(f"{what} must return TextBlock or ImageBlock items, got {_shown(block)}")


def normalised_contexts(contexts: object) -> tuple[ContextMessage, ...]:
    if type(contexts) is not tuple:
        raise TypeError(f"additional_contexts must be a tuple, got {_shown(contexts)}")
    for context in contexts:
        if type(context) is not ContextMessage:
            raise TypeError(
                f"additional_contexts must hold ContextMessage items, got {_shown(context)}"
            )
        check_blocks(context.content, "a context message")
        if context.source is not None:
            check_string(context.source, "a context message's source")
    return contexts


def normalised(result: ToolResult, *, nested: bool, trusted: object) -> ToolResult:
    kind = type(result)
    if kind is not ToolSuccess and kind is not ToolFailure:
        raise TypeError(f"expected ToolSuccess or ToolFailure, got {_shown(result)}")
    content = check_blocks(result.content, "content")
    contexts = normalised_contexts(result.additional_contexts)
    meta = result.meta
    if nested:
        meta = msgspec.UNSET
    elif meta is not msgspec.UNSET:
        meta = materialize(meta, freeze=True)
    if isinstance(result, ToolSuccess):
        if type(result.concludes_turn) is not bool:
            raise TypeError(f"concludes_turn must be a bool, got {_shown(result.concludes_turn)}")
        value = result.value
        return ToolSuccess(
            value=value if value is trusted else materialize(value, freeze=True),
            content=content,
            meta=meta,
            additional_contexts=contexts,
            concludes_turn=result.concludes_turn,
        )
    error = result.error
    if type(error) is not FailureDetail:
        raise TypeError(f"error must be a FailureDetail, got {_shown(error)}")
    check_string(error.message, "error.message")
    if error.exception_type is not None:
        check_string(error.exception_type, "error.exception_type")
    if error.info is not None:
        info = error.info
        if type(info) is not ErrorInfo:
            raise TypeError(f"error.info must be an ErrorInfo, got {_shown(info)}")
        check_string(info.name, "error.info.name")
        if info.code is not None:
            check_string(info.code, "error.info.code")
    return ToolFailure(error=error, content=content, meta=meta, additional_contexts=contexts)
