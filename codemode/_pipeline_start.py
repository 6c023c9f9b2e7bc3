"""The start stage of a prepared call: the arguments' snapshot, the collapse, policy and guards.

``start`` freezes the arguments (lossy ones end the call with an error and
nothing is published), answers a model-direct call of a native tool in
``code`` mode with ``UNKNOWN_TOOL`` before any policy, skips a pre-aborted
call, runs the ``pre_execute`` waterfall (``Ask`` goes to the approver) and
then the guards. Whatever it decides before the body is the call's outcome.

:class:`StartStage` is that layer of :class:`~codemode._pipeline.PreparedCall`.
It is separate from the run stage (:mod:`codemode._pipeline`) and the commit
stage (:mod:`codemode._pipeline_commit`): it runs only the listeners and the
approver that decide whether the call is dispatched.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Final

from bridge.lossless import LossyJsonError, is_snapshot

from ._cancellation import cancel_requests
from ._errors import ToolNotFoundError
from ._execution import Allow, Ask, Deny, ToolExecution
from ._offload import frozen_snapshot
from ._outcomes import aborted, awaited, from_exception, plain_failure, reject_awaitable
from ._pipeline_state import CallState
from ._results import ToolResult, failure_from_exception, safe_repr

if TYPE_CHECKING:
    from collections.abc import Callable

    from ._execution import PreDecision

__all__ = ["RUN_CODE", "StartStage"]

#: The reserved Code Mode transport; the only name a model may call directly in ``code`` mode.
RUN_CODE: Final = "run_code"

_ALLOW: Final = Allow()


class StartStage(CallState):
    """A prepared call's ``start``: the layer over ``CallState`` that decides before the body."""

    __slots__ = ()

    async def start(self) -> None:
        """Snapshot the arguments, apply the collapse, pre-execute, approval and guards."""
        self._advance(0, "start")
        call = self._call
        pre = self._registry.hooks.listeners("pre_execute", call.agent)
        stop = self._stop
        # Only a pre_execute listener (and the approver it may ask) or the
        # snapshot of a large value in a thread can make this stage wait.
        if stop is None or not (pre or not is_snapshot(call.arguments)):
            await self._start(pre)
            return
        with stop() as scope:
            self._scope = scope
            try:
                await self._start(pre)
            finally:
                self._scope = None
        if scope.cancelled_caught:
            self.interrupt()

    async def _start(self, pre: tuple[Callable[..., Any], ...]) -> None:
        call = self._call
        try:
            arguments = await frozen_snapshot(call.arguments)
        except (LossyJsonError, RecursionError) as exc:
            self._outcome = plain_failure(f"tool arguments must be lossless JSON: {exc}")
            return
        execution = ToolExecution(
            call_id=call.call_id,
            root_call_id=call.root_call_id if call.root_call_id is not None else call.call_id,
            name=call.name,
            arguments=arguments,
            agent=call.agent,
            parent=call.parent,
            token=self._token,
            signal=call.signal,
        )
        self._execution = execution
        registry = self._registry
        tool = registry._visible(call.agent).get(call.name)
        self._tool = tool
        if tool is not None:
            self._finalize = tool.finalize_content
        if (
            tool is not None
            and call.parent is None
            and call.name != RUN_CODE
            and registry.mode_of(call.agent) == "code"
        ):
            # A model-direct call of a native tool in code mode: answered before any
            # policy, so nothing can approve a call that must fail.
            self._finalize = None
            self._outcome = (
                aborted(before_dispatch=True)
                if call.signal.aborted
                else failure_from_exception(ToolNotFoundError.collapsed(call.name))
            )
            return
        if call.signal.aborted:
            self._outcome = aborted(before_dispatch=True)
            return
        self._outcome = await self._policy(execution, pre)

    async def _policy(
        self, execution: ToolExecution, pre: tuple[Callable[..., Any], ...]
    ) -> ToolResult | None:
        hooks = self._registry.hooks
        signal = execution.signal
        try:
            decision = await self._pre_execute(pre)
        except BaseException as exc:
            self._propagate(exc)
            return from_exception(exc)
        if isinstance(decision, Deny):
            return plain_failure(decision.reason)
        if isinstance(decision, Ask):
            denied = await self._approve(execution, decision)
            if denied is not None:
                return denied
        elif signal.aborted:
            return aborted(before_dispatch=True)
        for guard in hooks.listeners("guard", execution.agent):
            try:
                reason = guard(execution)
                reject_awaitable(reason, "a guard")
            except BaseException as exc:
                self._propagate(exc)
                return from_exception(exc)
            if reason is None:
                continue
            if type(reason) is not str:
                return plain_failure(
                    f"a guard returned {safe_repr(reason, 200)} for tool {execution.name!r}; "
                    "guards return a denial reason (str) or None"
                )
            return plain_failure(reason or f'tool "{execution.name}" was denied by a guard')
        return None

    async def _pre_execute(self, listeners: tuple[Callable[..., Any], ...]) -> PreDecision:
        if not listeners:
            return _ALLOW
        execution = self._execution
        count = len(listeners)
        base = cancel_requests()

        async def step(index: int) -> PreDecision:
            await self._withdraw_foreign_requests(base)  # the listener that called next()
            if index == count:
                return _ALLOW
            try:
                decision = await awaited(
                    listeners[index](execution, partial(step, index + 1)),
                    "a pre_execute listener",
                )
            finally:
                await self._withdraw_foreign_requests(base)
            if not isinstance(decision, (Allow, Deny, Ask)):
                raise TypeError(
                    f"a pre_execute listener returned {decision!r}; "
                    "return Allow(), Deny(reason), Ask(reason) or await next()"
                )
            return decision

        return await step(0)

    async def _approve(self, execution: ToolExecution, ask: Ask) -> ToolResult | None:
        name = execution.name
        approver = getattr(self._registry, "approver", None) or self._registry.hooks.approver
        if approver is None:
            return plain_failure(
                ask.reason or f'tool "{name}" requires approval (not yet supported)'
            )
        if execution.agent is None:
            return plain_failure(
                f'tool "{name}" requires approval, but the call has no agent to route it through'
            )
        signal = execution.signal
        outcome: object = None
        with signal.cancel_scope():
            base = cancel_requests()
            try:
                try:
                    outcome = await awaited(approver(execution, ask.reason), "the approver")
                finally:
                    await self._withdraw_foreign_requests(base)
            except BaseException as exc:
                self._propagate(exc)
                return from_exception(exc)
        if outcome == "rejected":
            return plain_failure(f'the user rejected tool "{name}"')
        if signal.aborted:
            # Cancellation overtook the approval (or the approval raced it).
            return aborted(before_dispatch=True)
        if outcome == "allowed-once":
            return None
        if outcome == "cancelled":
            return plain_failure(f'approval for tool "{name}" was cancelled')
        if outcome == "unavailable":
            return plain_failure(
                f'tool "{name}" requires approval, but no approval channel is available'
            )
        return plain_failure(
            f"the approver answered {outcome!r} for tool {name!r}; "
            'expected "allowed-once", "rejected", "cancelled" or "unavailable"'
        )
