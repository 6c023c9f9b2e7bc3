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

This module holds the entry points, the protocols the pipeline reads, and
:class:`PreparedCall` with its ``run`` stage. The other stages are layers of
``PreparedCall`` in modules of their own: ``start`` in
:mod:`codemode._pipeline_start`, ``commit`` in :mod:`codemode._pipeline_commit`,
the output contract (freeze, validate, render) in
:mod:`codemode._pipeline_output`, and the state and cancellation rules they
share in :mod:`codemode._pipeline_state`.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Final, Protocol, final

from ._cancellation import cancel_requests, withdraw_self_cancel
from ._errors import ToolNotFoundError
from ._execution import (
    CallInput,
    DispatchExecution,
    ExecutionToken,
    ToolExecution,
    ToolRunContext,
)
from ._hooks import Hooks
from ._outcomes import aborted, awaited, from_exception
from ._pipeline_commit import CommitStage
from ._pipeline_start import StartStage
from ._results import (
    ContentBlock,
    ToolFailure,
    ToolResult,
    ToolSuccess,
    failure_from_exception,
)
from ._signal import fuse
from ._timeout import enforce_timeout

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Mapping, Sequence
    from contextlib import AbstractContextManager

    import anyio

__all__ = ["Hooks", "PipelineRegistry", "PipelineTool", "PreparedCall", "begin", "execute"]

_UNTRUSTED: Final = object()


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
class PreparedCall(StartStage, CommitStage):
    """One call split into the stages a scheduler orders: ``start``, ``run``, ``commit``.

    ``start`` and ``commit`` hold the ordered policy stages; ``run`` (around
    wrappers and the body) is the one a scheduler may overlap with siblings.
    Each step must be awaited once, in order.

    Its layers: :class:`~codemode._pipeline_start.StartStage` (``start``) and
    :class:`~codemode._pipeline_commit.CommitStage` (``commit``, over
    :class:`~codemode._pipeline_output.OutputChecks`), both over
    :class:`~codemode._pipeline_state.CallState`, which holds the slots and the
    cancellation rules; ``run`` is this class's.
    """

    __slots__ = ()

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
