"""A tool's value held to its output contract: frozen, validated, rendered.

A body's value, a ``post_execute`` listener's replacement and a success an
``around`` wrapper authored all go through here before they become a call's
result: the value is frozen into lossless JSON and checked against the tool's
output schema (:func:`_checked`: off the event loop when it is large, and
described violation by violation only when the quick check refuses it), then
rendered into content and, for a top-level call, presentation metadata
(:func:`_presented`, a pure step, off the loop for a large value).

:class:`OutputChecks` is the layer of :class:`~codemode._pipeline.PreparedCall`
that applies these steps (``_success``, ``_revalidate``). It is separate from
the stages that call it (the run stage, the commit stage's ``post_execute``)
because it decides nothing about the call's policy or cancellation: it turns a
value into a result or into a ``ToolOutputError`` saying why it cannot be one.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any

import msgspec

from bridge.lossless import LossyJsonError, materialize

from ._errors import ToolOutputError
from ._offload import sized
from ._outcomes import check_blocks, from_exception
from ._pipeline_state import CallState
from ._results import (
    ContentBlock,
    ContextMessage,
    ToolResult,
    ToolSuccess,
    safe_str,
    type_name,
)
from ._validate import INLINE_WALK_NODES, Violations, validate, verdict

if TYPE_CHECKING:
    from collections.abc import Mapping

    from bridge.lossless import JsonValue

    from ._pipeline import PipelineOutput, PipelineTool

__all__ = ["OutputChecks"]


class OutputChecks(CallState):
    """How a prepared call turns a value into its result: the layer over ``CallState``."""

    __slots__ = ()

    async def _success(
        self,
        tool: PipelineTool,
        raw: object,
        contexts: tuple[ContextMessage, ...],
        concluded: bool,
    ) -> ToolResult:
        """Freeze, validate and render a body's (or a post-execute listener's) value."""
        execution = self._execution
        assert execution is not None
        name = execution.name
        output = tool.output
        try:
            value, violations = await _checked(raw, output.schema)
        except (LossyJsonError, RecursionError) as exc:
            return from_exception(ToolOutputError(name, str(exc)), contexts)
        except _ValidationFailed as exc:
            return from_exception(ToolOutputError(name, f"validation failed: {exc}"), contexts)
        if violations:
            detail = "; ".join(violations.lines())
            return from_exception(ToolOutputError(name, detail), contexts)
        try:
            # Rendering is linear in the value (which a program may choose) and
            # both projections are pure: a large value is presented off the loop.
            content, meta = await sized(
                value, partial(_presented, output, execution.arguments, value, execution.parent)
            )
        except BaseException as exc:
            self._propagate(exc)
            detail = (
                str(exc)
                if issubclass(type(exc), LossyJsonError)
                else f"{type_name(exc)}: {safe_str(exc)}"
            )
            return from_exception(ToolOutputError(name, detail), contexts)
        self._trusted = value
        return ToolSuccess(
            value=value,
            content=content,
            meta=meta,
            additional_contexts=contexts,
            concludes_turn=concluded,
        )

    async def _revalidate(self, result: ToolSuccess) -> ToolResult:
        execution = self._execution
        assert execution is not None
        tool = self._tool
        schema = None if tool is None else tool.output.schema
        try:
            value, violations = await _checked(result.value, schema)
        except Exception as exc:
            return from_exception(
                ToolOutputError(execution.name, str(exc)), result.additional_contexts
            )
        if violations:
            detail = "; ".join(violations.lines())
            return from_exception(
                ToolOutputError(execution.name, detail), result.additional_contexts
            )
        self._trusted = value
        return msgspec.structs.replace(result, value=value)


def _presented(
    output: PipelineOutput, arguments: JsonValue, value: JsonValue, parent: object
) -> tuple[tuple[ContentBlock, ...], JsonValue | msgspec.UnsetType]:
    """A value's content and (for a top-level call) presentation metadata: a pure step."""
    content = check_blocks(output.render(arguments, value), "render")
    meta: JsonValue | msgspec.UnsetType = msgspec.UNSET
    projector = output.presentation_meta
    if projector is not None and parent is None:
        projected = projector(arguments, value)
        if projected is not None:
            meta = materialize(projected, freeze=True)
    return content, meta


class _ValidationFailed(Exception):
    """The output schema's validator itself raised (as opposed to finding violations)."""


async def _checked(
    raw: object, schema: Mapping[str, Any] | None
) -> tuple[JsonValue, Violations]:
    """Freeze a tool's value and validate it against ``schema``, off the loop when it is large.

    A value the schema refuses is walked again to describe why, which costs many
    times more per value than the check: that walk runs on the loop only for a
    value of at most ``INLINE_WALK_NODES`` values (a tool may echo what a
    program sent).
    """
    value, matched = await sized(raw, partial(_frozen_verdict, raw, schema))
    if matched:
        return value, Violations()
    assert schema is not None
    return value, await sized(value, partial(_described, schema, value), limit=INLINE_WALK_NODES)


def _frozen_verdict(
    raw: object, schema: Mapping[str, Any] | None
) -> tuple[JsonValue, bool | None]:
    """Freeze a tool's value and tell whether ``schema`` accepts it: a pure, thread-safe step."""
    value = materialize(raw, freeze=True)
    if schema is None:
        return value, True
    try:
        return value, verdict(schema, value)
    except Exception as exc:
        raise _ValidationFailed(str(exc)) from exc


def _described(schema: Mapping[str, Any], value: JsonValue) -> Violations:
    """The violations of a value the quick check refused: a pure, thread-safe step."""
    try:
        return validate(schema, value)
    except Exception as exc:
        raise _ValidationFailed(str(exc)) from exc
