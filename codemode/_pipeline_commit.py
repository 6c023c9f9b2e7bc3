"""The commit stage of a prepared call: post-execute, cancellation, normalisation, observers.

``commit`` runs the ``post_execute`` waterfall (only for dispatched calls),
turns a successful outcome of an aborted call into ``ABORTED`` (or
``ABORTED_BEFORE_DISPATCH`` if the body never ran), normalises the result into
frozen lossless JSON, applies the tool's ``finalize_content`` exactly once, and
hands the ``result`` observers the same frozen result it returns.

:class:`CommitStage` is that layer of :class:`~codemode._pipeline.PreparedCall`,
over :class:`~codemode._pipeline_output.OutputChecks` (a ``post_execute``
listener's new value is held to the output contract as a body's is). It is
separate from the start and run stages: it runs only after the body, and only
the listeners that see the result.
"""

from __future__ import annotations

import inspect
import logging
from functools import partial
from typing import TYPE_CHECKING, Any, Final

import msgspec

from bridge.lossless import LossyJsonError

from ._cancellation import cancel_requests
from ._execution import Accept, Block
from ._outcomes import (
    aborted,
    awaited,
    check_blocks,
    from_exception,
    normalised,
    plain_failure,
    reject_awaitable,
)
from ._pipeline_output import OutputChecks
from ._results import (
    ContentBlock,
    FailureDetail,
    ToolFailure,
    ToolResult,
    ToolSuccess,
    text_of,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._execution import PostDecision, ToolExecution

__all__ = ["CommitStage"]

_logger: Final = logging.getLogger("codemode")

_ACCEPT: Final = Accept()


class CommitStage(OutputChecks):
    """A prepared call's ``commit``: the layer over ``OutputChecks`` that settles the result."""

    __slots__ = ()

    async def commit(self) -> ToolResult:
        """Post-execute, cancellation, normalisation, ``finalize_content``, observers.

        Returns:
            The frozen result, the same object the ``result`` observers received.
        """
        self._advance(2, "commit")
        result = self._outcome
        assert result is not None
        execution = self._execution
        if execution is None:
            # The arguments never became an execution: nothing ran, nothing to publish.
            return result
        hooks = self._registry.hooks
        post = hooks.listeners("post_execute", execution.agent) if self._dispatched else ()
        observers = hooks.listeners("result", execution.agent)
        stop = self._stop
        # Only a post_execute listener or an observer can make this stage wait.
        if stop is None or not (post or observers):
            return await self._commit(execution, result, post, observers)
        with stop() as scope:
            self._scope = scope
            try:
                result = await self._commit(execution, result, post, observers)
            finally:
                self._scope = None
        if scope.cancelled_caught:
            # A post_execute listener or an observer outlived the run.
            return aborted(before_dispatch=False)
        return result

    async def _commit(
        self,
        execution: ToolExecution,
        result: ToolResult,
        post: tuple[Callable[..., Any], ...],
        observers: tuple[Callable[..., Any], ...],
    ) -> ToolResult:
        if post:
            result = await self._post_execute(execution, result, post)
        if type(result) is ToolSuccess and execution.signal.aborted:
            result = aborted(
                before_dispatch=not self._body_invoked, contexts=result.additional_contexts
            )
        result = self._normalise(result)
        finalize, self._finalize = self._finalize, None
        if finalize is not None:
            result = self._normalise(self._finalized(finalize, execution, result))
        await self._observe(execution, result, observers)
        return result

    async def _post_execute(
        self,
        execution: ToolExecution,
        result: ToolResult,
        listeners: tuple[Callable[..., Any], ...],
    ) -> ToolResult:
        count = len(listeners)
        base = cancel_requests()

        async def step(index: int) -> PostDecision:
            await self._withdraw_foreign_requests(base)  # the listener that called next()
            if index == count:
                return _ACCEPT
            try:
                decision = await awaited(
                    listeners[index](execution, result, partial(step, index + 1)),
                    "a post_execute listener",
                )
            finally:
                await self._withdraw_foreign_requests(base)
            if not isinstance(decision, (Accept, Block)):
                raise TypeError(
                    f"a post_execute listener returned {decision!r}; "
                    "return Accept(...), Block(feedback) or await next()"
                )
            return decision

        try:
            decision = await step(0)
        except BaseException as exc:
            self._propagate(exc)
            return from_exception(exc, result.additional_contexts)
        if isinstance(decision, Block):
            feedback: tuple[ContentBlock, ...] = tuple(decision.feedback)
            return ToolFailure(
                error=FailureDetail(message=text_of(feedback)),
                content=feedback,
                additional_contexts=tuple(decision.additional_contexts),
            )
        contexts = result.additional_contexts + tuple(decision.additional_contexts)
        if decision.value is not msgspec.UNSET:
            if type(result) is not ToolSuccess or self._tool is None:
                return plain_failure(
                    f"a post_execute listener replaced the value of a failed call to "
                    f"{execution.name!r}; a failed result has no value (use Block or new content)",
                    result.additional_contexts,
                )
            replaced = await self._success(
                self._tool, decision.value, contexts, result.concludes_turn
            )
            return replaced
        if decision.content is not None:
            return msgspec.structs.replace(
                result, content=tuple(decision.content), additional_contexts=contexts
            )
        if decision.additional_contexts:
            return msgspec.structs.replace(result, additional_contexts=contexts)
        return result

    def _finalized(
        self, finalize: Callable[..., object], execution: ToolExecution, result: ToolResult
    ) -> ToolResult:
        try:
            replacement = finalize(execution, result)
            reject_awaitable(replacement, "finalize_content")
            if replacement is None:
                return result
            content = check_blocks(replacement, "finalize_content")
        except BaseException as exc:
            self._propagate(exc)
            return from_exception(exc, result.additional_contexts)
        return msgspec.structs.replace(result, content=content)

    def _normalise(self, result: ToolResult) -> ToolResult:
        """Return ``result`` as frozen lossless JSON, or a failure saying why it is not."""
        execution = self._execution
        assert execution is not None
        try:
            return normalised(result, nested=execution.parent is not None, trusted=self._trusted)
        except (TypeError, LossyJsonError, RecursionError) as exc:
            return plain_failure(
                f"tool {execution.name!r} produced a result that is not lossless JSON: {exc}"
            )

    async def _observe(
        self,
        execution: ToolExecution,
        result: ToolResult,
        observers: tuple[Callable[..., Any], ...],
    ) -> None:
        for observer in observers:
            base = cancel_requests()
            try:
                try:
                    outcome = observer(execution, result)
                    if inspect.isawaitable(outcome):
                        await outcome
                finally:
                    await self._withdraw_foreign_requests(base)
            except BaseException as exc:
                self._propagate(exc)
                # Observers watch; a broken one must not change the outcome or starve the others.
                _logger.exception(
                    "a result observer raised for tool %r (call_id=%r); the result stands",
                    execution.name,
                    execution.call_id,
                )
