"""The sub-dispatch bridge: each tool call of a program becomes a registry call.

One :class:`SubDispatcher` serves one ``run_code`` execution. The sandbox
hands it every call frame in the order the program made them; it

* refuses calls once the run is over, lossy arguments, and calls over quota -
  none of these uses a call number;
* numbers the rest ``<outer call id>:code:<n>`` from 1, in submission order;
* runs each through the full pipeline with the outer execution's token as
  ``parent``, the outer ``root_call_id`` and the run-scoped signal, scheduled
  by the shared rolling pool (ordered starts and commits, parallel-safe calls
  overlapping, exclusive calls as barriers through their commit);
* logs ``tool/code-dispatch-start`` when a call starts and, after the program
  has its value, ``tool/code-dispatch`` with the content the
  ``code-dispatch-log`` waterfall shaped (only when the outer call has an agent);
* collects the side channels: deferred contexts, image-bearing results and
  ``concludes_turn``.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, final

import anyio

from bridge.lossless import JsonValue, LossyJsonError, materialize
from sandbox import ToolCallFailed

from .._errors import QUOTA_EXCEEDED
from .._execution import CallInput
from .._jobs import PipelineJob
from .._log import CodeDispatchEvent, CodeDispatchStartEvent, SessionLog
from .._results import ContentBlock, ContextMessage, ImageBlock, ToolResult
from .._scheduling import JobAbandoned, Scheduler
from ._quotas import QuotaCounter, Quotas

if TYPE_CHECKING:
    import anyio.abc

    from .._execution import ToolRunContext
    from .._registry import Agent, Registry
    from .._signal import AbortSignal

__all__ = ["CodeDispatchLog", "SubCallRecord", "SubDispatcher"]

_log = logging.getLogger("codemode.code_mode")

#: Where a deferred image-bearing result says it came from.
IMAGE_CONTEXT_SOURCE = "code-mode"


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


@final
@dataclass(frozen=True)
class SubCallRecord:
    """A dispatched sub-call, as the CLI and callers may list them."""

    id: str
    name: str
    is_error: bool


@final
class SubDispatcher:
    """Implements the sandbox's ``CallHandler`` for one ``run_code`` execution."""

    def __init__(
        self,
        *,
        registry: Registry,
        outer: ToolRunContext,
        run_signal: AbortSignal,
        scheduler: Scheduler,
        log_tasks: anyio.abc.TaskGroup,
        log: SessionLog | None,
        quotas: Quotas,
    ) -> None:
        self._registry = registry
        self._outer = outer
        self._run_signal = run_signal
        self._scheduler = scheduler
        self._log_tasks = log_tasks
        # Dispatch events are durable records of an agent's turn; without an
        # agent there is no turn to attach them to, so nothing is logged.
        self._log = log if outer.agent is not None else None
        self._quota = QuotaCounter(quotas)
        self._count = 0
        self._over: str | None = None
        self.contexts: list[ContextMessage] = []
        self.concludes_turn = False
        self.records: list[SubCallRecord] = []

    def close(self, reason: str) -> None:
        """Refuse every call from now on (the run has settled)."""
        if self._over is None:
            self._over = reason

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        """Dispatch one program call; return its canonical value or raise ``ToolCallFailed``."""
        if self._over is not None:
            raise ToolCallFailed(f"run_code run is over ({self._over}); {name} not dispatched")
        try:
            # Two independent snapshots: what the tool receives and what is
            # logged (only made when there is a log to write it to).
            dispatched = materialize(args, freeze=True, accept_tuples=True)
            logged = dispatched if self._log is None else materialize(args, accept_tuples=True)
        except LossyJsonError as exc:
            raise ToolCallFailed(f"tool arguments must be lossless JSON: {exc}") from None
        refusal = self._quota.admit(name)
        if refusal is not None:
            raise ToolCallFailed(refusal, code=QUOTA_EXCEEDED)
        self._count += 1
        sub_call_id = f"{self._outer.call_id}:code:{self._count}"
        job = _SubCall(self, sub_call_id, name, dispatched, logged)
        try:
            result = await self._scheduler.submit(job)
        except JobAbandoned as exc:
            raise ToolCallFailed(
                f"run_code run is over ({exc.reason}); {name} tool call abandoned"
            ) from None
        if result.is_error:
            info = result.error.info
            raise ToolCallFailed(
                result.error.message,
                code=info.code if info else None,
                exception_type=result.error.exception_type,
            )
        return materialize(result.value, accept_tuples=True)

    # -- pieces used by _SubCall ------------------------------------------------

    def _call_input(self, sub_call_id: str, name: str, arguments: JsonValue) -> CallInput:
        outer = self._outer
        return CallInput(
            call_id=sub_call_id,
            root_call_id=outer.root_call_id,
            name=name,
            arguments=arguments,
            agent=outer.agent,
            parent=outer.token,
            signal=self._run_signal,
        )

    def _log_start(self, sub_call_id: str, name: str, logged: JsonValue) -> None:
        if self._log is None:
            return
        self._log.append(
            CodeDispatchStartEvent(
                root_call_id=self._outer.root_call_id,
                parent_call_id=self._outer.call_id,
                sub_call_id=sub_call_id,
                name=name,
                arguments=logged,
            )
        )

    def _settled(self, sub_call_id: str, name: str, logged: JsonValue, result: ToolResult) -> None:
        self.records.append(SubCallRecord(sub_call_id, name, result.is_error))
        self.contexts.extend(result.additional_contexts)
        if not result.is_error:
            if any(isinstance(block, ImageBlock) for block in result.content):
                self.contexts.append(
                    ContextMessage(content=result.content, source=IMAGE_CONTEXT_SOURCE)
                )
            if result.concludes_turn:
                self.concludes_turn = True
        if self._log is not None:
            self._log_tasks.start_soon(self._log_settle, sub_call_id, name, logged, result)

    async def _log_settle(
        self, sub_call_id: str, name: str, logged: JsonValue, result: ToolResult
    ) -> None:
        assert self._log is not None
        dispatch = CodeDispatchLog(
            execution=self._outer,
            agent=self._outer.agent,
            sub_call_id=sub_call_id,
            name=name,
            is_error=result.is_error,
            content=result.content,
        )
        try:
            content = await self._registry.hooks.run_code_dispatch_log(dispatch)
        except Exception:
            _log.warning(
                "a code-dispatch-log listener failed for %s; logging the original content",
                sub_call_id,
                exc_info=True,
            )
            content = result.content
        self._log.append(
            CodeDispatchEvent(
                root_call_id=self._outer.root_call_id,
                parent_call_id=self._outer.call_id,
                sub_call_id=sub_call_id,
                name=name,
                arguments=logged,
                is_error=result.is_error,
                content=tuple(content),
                error=result.error.info if result.is_error else None,
            )
        )


@final
class _SubCall(PipelineJob):
    """One sub-call as a scheduler job: logged start, concurrent run, settled commit."""

    __slots__ = ("_d", "_id", "_logged", "_name")

    def __init__(
        self,
        dispatcher: SubDispatcher,
        sub_call_id: str,
        name: str,
        dispatched: JsonValue,
        logged: JsonValue,
    ) -> None:
        call = dispatcher._call_input(sub_call_id, name, dispatched)
        super().__init__(dispatcher._registry, call)
        self._d = dispatcher
        self._id = sub_call_id
        self._name = name
        self._logged = logged

    async def start(self) -> None:
        self._d._log_start(self._id, self._name, self._logged)
        await super().start()

    async def commit(self) -> ToolResult:
        result = await super().commit()
        self._d._settled(self._id, self._name, self._logged, result)
        return result
