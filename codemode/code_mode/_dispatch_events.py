"""The session log's dispatch events of a run's sub-calls, as the dispatcher writes them.

Every dispatched sub-call of a ``run_code`` run that has an agent is recorded
by two events: ``tool/code-dispatch-start`` when it starts (a call whose start
cannot be recorded is not dispatched: :class:`_NotLogged`), and, once the
program has its value, ``tool/code-dispatch`` with the content the
``code-dispatch-log`` waterfall shaped (:class:`CodeDispatchLog` is what its
listeners see), kept within the run's persist budget (a long content measured
in a worker thread first). An event the log refuses or fails to write is kept
in ``log_failures`` for ``run_code`` to report.

:class:`DispatchEvents` is that layer of
:class:`~codemode.code_mode._dispatch.SubDispatcher`, separate from its
admission, numbering and settlement: it builds and appends events and reads
only the log, the budget and the outer call. Its state is set by
``SubDispatcher``'s constructor.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

import anyio
import anyio.to_thread

from .._cancellation import (
    cancel_requests,
    is_cancellation,
    scope_cancelled,
    withdraw_self_cancel,
)
from .._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    PersistBudget,
    SessionLog,
    forget_arguments,
)
from .._results import ContentBlock, ToolResult, safe_str, type_name
from ._persist import (
    INLINE_TEXT,
    ContentMeasure,
    LoggedArguments,
    SubCallLogBudget,
    content_chars,
    measure_content,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from contextlib import AbstractContextManager

    from .._execution import ToolRunContext
    from .._registry import Agent, Registry

__all__ = ["CodeDispatchLog", "DispatchEvents"]

_log = logging.getLogger("codemode.code_mode")


@final
@dataclass(frozen=True, kw_only=True)
class CodeDispatchLog:
    """One settled sub-call about to be logged, as ``code-dispatch-log`` listeners see it.

    ``content`` is the sub-call's rendered result; a listener may return other
    blocks for the durable copy only (the program already has the value).
    """

    execution: ToolRunContext
    agent: Agent | None
    sub_call_id: str
    name: str
    is_error: bool
    content: tuple[ContentBlock, ...]
    #: What the run may still persist: a listener that writes on the run's
    #: behalf (the spill policy) charges its files here.
    budget: PersistBudget | None = None


class _NotLogged(Exception):
    """The session log could not record a sub-call's start; it is not dispatched."""


class DispatchEvents:
    """The dispatch events of one run's sub-calls: the layer of ``SubDispatcher`` that logs."""

    _registry: Registry
    _outer: ToolRunContext
    #: The session log (``None`` without an agent: nothing is logged).
    _log: SessionLog | None
    #: What the host may persist on this run's behalf (``None`` without a log).
    _log_budget: SubCallLogBudget | None
    #: The dispatch events the session log refused or failed to write.
    log_failures: list[str]
    #: The stop scope a listener's stage runs in (``SubDispatcher.stage``).
    stage: Callable[[], AbstractContextManager[anyio.CancelScope]]

    @property
    def budget(self) -> PersistBudget | None:
        """What the run may still persist (``None`` when nothing is logged)."""
        return None if self._log_budget is None else self._log_budget.budget

    def _log_failed(self, what: str, sub_call_id: str, exc: Exception) -> str:
        reason = f"{type_name(exc)}: {safe_str(exc, 300)}"
        self.log_failures.append(f"{what} of {sub_call_id} ({reason})")
        _log.error("could not append the %s event of %s", what, sub_call_id, exc_info=exc)
        return reason

    def _log_start(self, sub_call_id: str, name: str, logged: LoggedArguments | None) -> None:
        if self._log is None:
            return
        assert logged is not None
        assert self._log_budget is not None  # made with the log
        try:
            self._log.append(
                CodeDispatchStartEvent(
                    root_call_id=self._outer.root_call_id,
                    parent_call_id=self._outer.call_id,
                    sub_call_id=sub_call_id,
                    name=name,
                    arguments=logged.value,
                )
            )
        except Exception as exc:
            # A call whose start cannot be recorded is not dispatched: nothing
            # may run that the log does not show.
            self._log_budget.release(logged)
            reason = self._log_failed("tool/code-dispatch-start", sub_call_id, exc)
            raise _NotLogged(reason) from exc

    async def _log_settle(
        self, sub_call_id: str, name: str, logged: LoggedArguments, result: ToolResult
    ) -> None:
        assert self._log is not None
        dispatch = CodeDispatchLog(
            execution=self._outer,
            agent=self._outer.agent,
            sub_call_id=sub_call_id,
            name=name,
            is_error=result.is_error,
            content=result.content,
            budget=self.budget,
        )
        content = result.content
        if not self._registry.hooks.listeners("code_dispatch_log", self._outer.agent):
            await self._append_measured(sub_call_id, name, logged, result, content)
            return
        with self.stage() as scope:
            before = cancel_requests()
            try:
                try:
                    content = await self._registry.hooks.run_code_dispatch_log(dispatch)
                finally:
                    # A listener that cancelled its own (this) task: withdrawn, so
                    # that the settle below is still appended.
                    if cancel_requests() > before:
                        await withdraw_self_cancel(before, scope_cancelled)
            except BaseException as exc:
                # Only a cancellation the host asked for (this stage's scope, or
                # one around it) propagates; the listener's own is its failure.
                if is_cancellation(exc, scope_cancelled):
                    raise
                _log.warning(
                    "a code-dispatch-log listener failed for %s; logging the original content",
                    sub_call_id,
                    exc_info=True,
                )
        if scope.cancelled_caught:
            _log.warning(
                "a code-dispatch-log listener for %s outlived the settled run; "
                "logging the original content",
                sub_call_id,
            )
        await self._append_measured(sub_call_id, name, logged, result, content)

    def _measured_off_loop(self, content: Sequence[ContentBlock]) -> bool:
        """Whether the budget check of a settle event with ``content`` measures it off the loop."""
        budget = self._log_budget
        return (
            budget is not None
            and budget.measures_content
            and content_chars(content) > INLINE_TEXT
        )

    async def _append_measured(
        self,
        sub_call_id: str,
        name: str,
        logged: LoggedArguments,
        result: ToolResult,
        content: Sequence[ContentBlock],
    ) -> None:
        """Append the settle event, a long content measured in a worker thread first.

        A content is the tool's rendering of its value (or a listener's), and
        no frame or value cap bounds it: its size and SHA-256 are taken a chunk
        at a time in a worker thread, so the loop never encodes or hashes more
        than :data:`INLINE_TEXT` characters of it before the budget is known.
        What is then appended is within the run's budget (or the cut copy).
        """
        measured: ContentMeasure | None = None
        if self._measured_off_loop(content):
            try:
                measured = await anyio.to_thread.run_sync(measure_content, tuple(content))
            except Exception:
                # Only a MemoryError can get here (the measure reads nothing but
                # the content's strings): the append measures on its own path, so
                # the settle event is still written, whatever it costs.
                measured = None
        self._append_settle(sub_call_id, name, logged, result, content, measured)

    def _append_settle(
        self,
        sub_call_id: str,
        name: str,
        logged: LoggedArguments,
        result: ToolResult,
        content: Sequence[ContentBlock],
        measured: ContentMeasure | None = None,
    ) -> None:
        assert self._log is not None
        event = CodeDispatchEvent(
            root_call_id=self._outer.root_call_id,
            parent_call_id=self._outer.call_id,
            sub_call_id=sub_call_id,
            name=name,
            arguments=logged.value,
            is_error=result.is_error,
            content=tuple(content),
            error=result.error.info if result.is_error else None,
        )
        try:
            if self._log_budget is not None:
                event = self._log_budget.within_budget(event, logged, measured)
            self._log.append(event)
        except Exception as exc:
            # Side work after the program has its value: a store that fails
            # (a full disk, a closed log) must not crash the run, and is
            # reported by run_code once the program settles.
            self._log_failed("tool/code-dispatch", sub_call_id, exc)
        finally:
            forget_arguments(logged.value)
