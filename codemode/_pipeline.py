"""The execution pipeline every tool call goes through, direct or nested.

Stages, in order (:func:`execute` runs them; schedulers drive them in three
steps through :func:`begin`):

1. ``start`` - snapshot and freeze the arguments (lossy ones end the call with
   an error and nothing is published); refuse a model-direct call of a native
   tool in ``code`` mode with ``UNKNOWN_TOOL`` before any policy (the
   collapse); skip a pre-aborted call; run the ``pre_execute`` waterfall
   (``Ask`` goes to the registry's ``approver``), then the monotonic guards.
2. ``run`` - the ``around`` waterfall, then the body: an unknown tool fails
   with ``UNKNOWN_TOOL``; the body's value is frozen, validated against the
   output schema and rendered (``presentation_meta`` only for top-level calls).
3. ``commit`` - the ``post_execute`` waterfall (only for dispatched calls),
   cancellation (a successful outcome of an aborted call becomes ``ABORTED``, or
   ``ABORTED_BEFORE_DISPATCH`` if the body never ran), normalisation into
   lossless JSON, the tool's ``finalize_content`` exactly once, and the
   ``result`` observers, who see the same frozen result that is returned.

Everything a tool, listener, renderer or value does wrong becomes a structured
``is_error`` result. Only caller misuse raises, and anyio cancellation of the
awaiting task propagates untouched.

An owner that must be able to stop a call's stages (Code Mode stops the
sub-calls that outlive their settled run) passes ``stop`` to :func:`begin`: a
stage that may wait on something unbounded (a listener, the approver, the
body, a thread for a large value) runs inside a scope it makes, and a stage
stopped that way settles the call as aborted. A stage that cannot wait (no
listener of its kind, arguments already frozen) takes no scope: it ends on
its own. Each stage reads the listeners it runs once, as it begins, so the
decision and the run agree; a listener added meanwhile applies from the next
stage of its kind on.
"""

from __future__ import annotations

import inspect
import logging
from functools import partial
from typing import TYPE_CHECKING, Any, Final, Protocol, final

import msgspec

from bridge.lossless import LossyJsonError, is_snapshot, materialize

from ._cancellation import (
    being_cancelled,
    cancel_requests,
    scope_cancelled,
    split_cancellation,
    withdraw_self_cancel,
)
from ._errors import ToolNotFoundError, ToolOutputError
from ._execution import (
    Accept,
    Allow,
    Ask,
    Block,
    CallInput,
    Deny,
    DispatchExecution,
    ExecutionToken,
    ToolExecution,
    ToolRunContext,
)
from ._hooks import Hooks
from ._offload import frozen_snapshot, sized
from ._outcomes import (
    aborted,
    awaited,
    check_blocks,
    from_exception,
    normalised,
    plain_failure,
    reject_awaitable,
)
from ._results import (
    ContentBlock,
    ContextMessage,
    FailureDetail,
    ToolFailure,
    ToolResult,
    ToolSuccess,
    failure_from_exception,
    safe_repr,
    safe_str,
    text_of,
    type_name,
)
from ._signal import fuse
from ._timeout import enforce_timeout
from ._validate import INLINE_WALK_NODES, Violations, validate, verdict

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping, Sequence
    from contextlib import AbstractContextManager

    import anyio

    from bridge.lossless import JsonValue

    from ._execution import PostDecision, PreDecision

__all__ = ["Hooks", "PipelineRegistry", "PipelineTool", "PreparedCall", "begin", "execute"]

_logger: Final = logging.getLogger("codemode")

#: The reserved Code Mode transport; the only name a model may call directly in ``code`` mode.
RUN_CODE: Final = "run_code"

_ALLOW: Final = Allow()
_UNTRUSTED: Final = object()
_ACCEPT: Final = Accept()


class PipelineOutput(Protocol):
    """The parts of a tool's output declaration the pipeline uses."""

    @property
    def schema(self) -> Mapping[str, Any]: ...
    @property
    def render(self) -> Callable[[Any, Any], Sequence[ContentBlock]]: ...
    @property
    def presentation_meta(self) -> Callable[[Any, Any], object] | None: ...


class PipelineTool(Protocol):
    """The parts of a tool definition the pipeline uses."""

    @property
    def name(self) -> str: ...
    @property
    def output(self) -> PipelineOutput: ...
    @property
    def execute(self) -> Callable[[Any, ToolRunContext], Awaitable[object]]: ...
    @property
    def finalize_content(self) -> Callable[..., Sequence[ContentBlock] | None] | None: ...
    @property
    def timeout(self) -> float | None: ...


class PipelineRegistry(Protocol):
    """What :func:`execute` needs from the registry.

    The approval service is the registry's ``approver`` attribute when it has
    one, else ``hooks.approver``; without either, ``Ask`` degrades to a denial.
    """

    @property
    def hooks(self) -> Hooks: ...
    def _visible(self, agent: Any) -> Mapping[str, PipelineTool]: ...
    def mode_of(self, agent: Any) -> str: ...


def begin(
    registry: PipelineRegistry,
    call: CallInput,
    *,
    stop: Callable[[], AbstractContextManager[anyio.CancelScope]] | None = None,
    asked: Callable[[], bool] | None = None,
) -> PreparedCall:
    """Prepare ``call`` for the three-step form: ``start``, ``run``, ``commit``.

    Args:
        registry: where the tool and the listeners come from.
        call: the call.
        stop: makes the scope a stage that may wait runs in; cancelling that
            scope stops the stage, and the call settles as aborted (see the
            module docstring).
        asked: whether the owner asked to cancel the call's stages (for a
            stage without a ``stop`` scope); a ``CancelledError`` is a
            cancellation only then. Without it, the running task's state says.

    Raises:
        TypeError: if ``call`` is not a :class:`CallInput`.
    """
    if not isinstance(call, CallInput):
        raise TypeError(f"execute() takes a CallInput, got call={call!r}")
    return PreparedCall(registry, call, stop, asked)


async def execute(registry: PipelineRegistry, call: CallInput) -> ToolResult:
    """Run ``call`` through the whole pipeline and return its frozen result.

    Raises:
        TypeError: if ``call`` is not a :class:`CallInput` (caller misuse).
    """
    prepared = begin(registry, call)
    await prepared.start()
    await prepared.run()
    return await prepared.commit()


@final
class PreparedCall:
    """One call split into the stages a scheduler orders: ``start``, ``run``, ``commit``.

    ``start`` and ``commit`` hold the ordered policy stages; ``run`` (around
    wrappers and the body) is the one a scheduler may overlap with siblings.
    Each step must be awaited once, in order.
    """

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

    def __init__(
        self,
        registry: PipelineRegistry,
        call: CallInput,
        stop: Callable[[], AbstractContextManager[anyio.CancelScope]] | None = None,
        asked: Callable[[], bool] | None = None,
    ) -> None:
        self._registry = registry
        self._call = call
        self._stop = stop
        self._asked = asked
        self._scope: anyio.CancelScope | None = None  # the running stage's stop scope
        self._token = ExecutionToken()
        self._stage = 0
        self._execution: ToolExecution | None = None
        self._tool: PipelineTool | None = None
        self._finalize: Callable[..., object] | None = None
        self._outcome: ToolResult | None = None
        self._dispatched = False
        self._body_invoked = False
        self._body_result: ToolResult | None = None
        # The last value this call froze itself; normalisation need not copy it again.
        self._trusted: object = _UNTRUSTED

    def __repr__(self) -> str:
        stages = ("new", "started", "ran", "committed")
        call = self._call
        return f"<PreparedCall {call.name!r} call_id={call.call_id!r} {stages[self._stage]}>"

    @property
    def call(self) -> CallInput:
        """The caller's input."""
        return self._call

    @property
    def token(self) -> ExecutionToken:
        """The execution's token (assigned before any stage runs)."""
        return self._token

    @property
    def execution(self) -> ToolExecution | None:
        """The frozen execution once ``start`` has snapshotted the arguments, else ``None``."""
        return self._execution

    @property
    def dispatchable(self) -> bool:
        """Whether ``start`` let the call through, so ``run`` will dispatch it."""
        if self._stage == 0:
            return False
        return self._dispatched or self._outcome is None

    def _advance(self, expected: int, step: str) -> None:
        if self._stage != expected:
            order = "start(), run(), commit()"
            raise RuntimeError(
                f"{step}() called out of order for call_id={self._call.call_id!r}; "
                f"await {order} once each, in that order"
            )
        self._stage = expected + 1

    # --- start -------------------------------------------------------------------------------

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

    # --- run ---------------------------------------------------------------------------------

    async def run(self) -> None:
        """Run the around-dispatch waterfall and the body, unless ``start`` settled the call."""
        self._advance(1, "run")
        execution = self._execution
        if self._outcome is not None or execution is None:
            return
        self._dispatched = True
        stop = self._stop
        if stop is None:
            await self._run(execution)
            return
        # The around waterfall (the shipped timeout wrapper at least) and the
        # body: this stage can always wait.
        with stop() as scope:
            self._scope = scope
            try:
                await self._run(execution)
            finally:
                self._scope = None
        if scope.cancelled_caught:
            self.interrupt()

    async def _run(self, execution: ToolExecution) -> None:
        dispatch = DispatchExecution(execution, self._tool)
        wrappers = self._registry.hooks.listeners("around", execution.agent)
        if (
            len(wrappers) == 1
            and wrappers[0] is enforce_timeout
            and getattr(self._tool, "timeout", None) is None
        ):
            # The shipped timeout wrapper alone, for a tool without a timeout:
            # it would only pass the call on.
            wrappers = ()
        try:
            result = await self._around(dispatch, wrappers, 0)
        except BaseException as exc:
            self._propagate(exc)
            result = from_exception(exc)
        if type(result) is ToolSuccess and result is not self._body_result:
            # A wrapper authored (or cached) this success: hold it to the output contract.
            result = await self._revalidate(result)
        self._outcome = result

    async def _around(
        self,
        dispatch: DispatchExecution,
        wrappers: tuple[Callable[..., Any], ...],
        index: int,
        base: int | None = None,
    ) -> ToolResult:
        saved = dispatch.signal
        if base is None:  # the outermost: the host's own requests
            base = cancel_requests()
        else:
            await self._withdraw_foreign_requests(base)  # the wrapper that called next()
        try:
            if index == len(wrappers):
                return await self._dispatch(dispatch)
            try:
                result = await awaited(
                    wrappers[index](
                        dispatch, partial(self._around, dispatch, wrappers, index + 1, base)
                    ),
                    "an around listener",
                )
            finally:
                await self._withdraw_foreign_requests(base)
            if type(result) not in (ToolSuccess, ToolFailure):
                raise TypeError(
                    f"an around listener returned {result!r}; return a ToolResult or await next()"
                )
            return result  # type: ignore[return-value]
        finally:
            # Each wrapper finds the signal it handed down when its next() returns.
            dispatch.signal = saved

    async def _dispatch(self, dispatch: DispatchExecution) -> ToolResult:
        execution = dispatch.execution
        caller = execution.signal
        if dispatch.signal is caller:
            signal, release = caller, None
        else:
            # The caller's signal is fused back in: a replacement can add a reason
            # to stop, never remove the caller's.
            signal, release = fuse(caller, dispatch.signal)
        try:
            if signal.aborted:
                return aborted(before_dispatch=True)
            tool = self._tool
            if tool is None:
                return failure_from_exception(ToolNotFoundError(execution.name))
            context = ToolRunContext(execution, signal)
            self._body_invoked = True
            try:
                before = cancel_requests()
                raw = await tool.execute(execution.arguments, context)
            except BaseException as exc:  # a tool's SystemExit is its failure, not the host's
                self._propagate(exc)
                # A body that cancelled its (the host's) task: withdrawn, a failure.
                await withdraw_self_cancel(before, self._host_asked)
                contexts, _concluded = context._close()
                return from_exception(exc, contexts)
            if cancel_requests() > before:  # rare: the body asked to cancel the host's task
                await withdraw_self_cancel(before, self._host_asked)
            contexts, concluded = context._close()
            result = await self._success(tool, raw, contexts, concluded)
            self._body_result = result
            return result
        finally:
            if release is not None:
                release()

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

    # --- commit ------------------------------------------------------------------------------

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
