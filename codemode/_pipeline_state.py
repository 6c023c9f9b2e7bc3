"""What a prepared call holds between its stages, and the rules every stage applies to foreign code.

:class:`CallState` is the base layer of :class:`~codemode._pipeline.PreparedCall`:
its slots (set by ``PreparedCall``'s constructor), the order of its three
steps (``_advance``), and how a stage that runs foreign code (a listener, the
approver, the body) tells the host's cancellation from the code's own: whether
the host asked (``_host_asked``), withdrawing what foreign code asked of the
host's task (``_withdraw_foreign_requests``), propagating only the host's
cancellation (``_propagate``), and settling a stopped call as aborted
(``interrupt``).

It is separate so that each stage's layer (:mod:`codemode._pipeline_start`,
:mod:`codemode._pipeline_output`, :mod:`codemode._pipeline_commit`, and the run
stage in :mod:`codemode._pipeline`) reads one declaration of the state they
share, and the cancellation rules they all apply.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._cancellation import (
    being_cancelled,
    cancel_requests,
    scope_cancelled,
    split_cancellation,
    withdraw_self_cancel,
)
from ._outcomes import aborted, from_exception

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    import anyio

    from ._execution import CallInput, ExecutionToken, ToolExecution
    from ._pipeline import PipelineRegistry, PipelineTool
    from ._results import ToolResult

__all__ = ["CallState"]


class CallState:
    """A prepared call's state and its cancellation rules: the base layer of ``PreparedCall``."""

    __slots__ = (
        "_asked",
        "_body_invoked",
        "_body_result",
        "_call",
        "_dispatched",
        "_execution",
        "_finalize",
        "_outcome",
        "_registry",
        "_scope",
        "_stage",
        "_stop",
        "_token",
        "_tool",
        "_trusted",
    )

    _registry: PipelineRegistry
    _call: CallInput
    _stop: Callable[[], AbstractContextManager[anyio.CancelScope]] | None
    _asked: Callable[[], bool] | None
    #: The running stage's stop scope.
    _scope: anyio.CancelScope | None
    _token: ExecutionToken
    #: Steps taken: 0 new, 1 started, 2 ran, 3 committed.
    _stage: int
    _execution: ToolExecution | None
    _tool: PipelineTool | None
    _finalize: Callable[..., object] | None
    _outcome: ToolResult | None
    _dispatched: bool
    _body_invoked: bool
    _body_result: ToolResult | None
    #: The last value this call froze itself; normalisation need not copy it again.
    _trusted: object

    def _advance(self, expected: int, step: str) -> None:
        if self._stage != expected:
            order = "start(), run(), commit()"
            raise RuntimeError(
                f"{step}() called out of order for call_id={self._call.call_id!r}; "
                f"await {order} once each, in that order"
            )
        self._stage = expected + 1

    def _host_asked(self) -> bool:
        """Whether the host asked to cancel the stage now running.

        With a stop scope or an owner's ``asked`` (the scheduler's flag): a
        cancel scope around the running code was cancelled (the stop scope,
        a signal's scope, a wrapper's own timeout), or the owner asked. Only
        without either, for a bare :func:`execute`, the task's own state,
        which foreign code can change (``current_task().cancel()``).
        """
        asked = self._asked
        if asked is None and self._scope is None:
            return being_cancelled()
        return scope_cancelled() or (asked is not None and asked())

    async def _withdraw_foreign_requests(self, before: int) -> None:
        """Withdraw what foreign code asked of the host's task since it had ``before`` requests.

        A listener, like a tool body, runs in the host's task and may cancel it
        (``current_task().cancel()``): left pending, that request would land at
        the host's next wait and end a scheduler's worker with the call
        unsettled. One synchronous read when nothing was asked.
        """
        if cancel_requests() > before:
            await withdraw_self_cancel(before, self._host_asked)

    def _propagate(self, exc: BaseException) -> None:
        """Raise the cancellation ``exc`` is or carries; return if it carries none.

        Called first in every ``except BaseException`` handler around foreign
        code. A group that mixes the cancellation with failures leaves those
        failures as the call's outcome (if it has none yet), and only the
        cancellation propagates, so the stage's ``stop`` scope recognises it
        and the call settles through :meth:`interrupt`.
        """
        cancellation, failure = split_cancellation(exc, self._host_asked)
        if cancellation is None:
            return
        if failure is not None and self._outcome is None:
            self._outcome = from_exception(failure)
        if cancellation is exc:
            raise exc
        raise cancellation from None

    def interrupt(self) -> None:
        """End the call as aborted after its ``start`` or ``run`` was stopped midway.

        A stage stopped through ``stop`` (Code Mode stops the stages of
        sub-calls that outlive their settled run: a listener or body that
        ignores the aborted signal) comes here; the call then commits as
        ``ABORTED`` (``ABORTED_BEFORE_DISPATCH`` if the body never ran) and is
        never dispatched afterwards.
        """
        if self._outcome is None:
            self._outcome = aborted(before_dispatch=not self._body_invoked)
