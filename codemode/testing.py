"""Test doubles for code that drives the tool pipeline.

Not imported by ``codemode`` itself: ``from codemode.testing import RecordingListener``.

* :class:`RecordingListener` installs a pass-through listener on every
  pipeline hook and records each invocation, so a test can assert which stages
  ran, in which order, with which execution and result.
* :class:`StaticApprover` answers every approval request with one fixed outcome
  and records the requests.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeAlias, final, get_args

from ._execution import ApprovalOutcome

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from ._execution import (
        DispatchExecution,
        PostDecision,
        PreDecision,
        ScopeKey,
        ToolExecution,
    )
    from ._hooks import Hooks
    from ._results import ContentBlock, ToolResult

__all__ = ["HookCall", "RecordingListener", "StaticApprover"]

RecordedKind: TypeAlias = Literal[
    "pre_execute", "guard", "around", "post_execute", "result", "code_dispatch_log"
]


@final
@dataclass(frozen=True, slots=True)
class HookCall:
    """One recorded hook invocation.

    Attributes:
        kind: which hook ran.
        execution: the frozen execution it saw (for ``around``, the dispatch
            view's underlying execution; for ``code_dispatch_log``, the outer
            ``run_code`` execution).
        result: for ``around``, ``post_execute`` and ``result``: the result the
            hook returned or received; otherwise ``None``.
        decision: for ``pre_execute`` and ``post_execute``: the decision the rest
            of the waterfall returned; otherwise ``None``.
        dispatch: for ``code_dispatch_log``: the settled sub-call it saw.
    """

    kind: RecordedKind
    execution: ToolExecution
    result: ToolResult | None = None
    decision: PreDecision | PostDecision | None = None
    dispatch: object | None = None


@final
class RecordingListener:
    """Records every pipeline hook invocation while passing each call through unchanged.

    Example::

        recorder = RecordingListener()
        dispose = recorder.install(registry)
        await registry.execute(CallInput("c1", "echo", {"text": "hi"}, AbortSignal()))
        assert recorder.kinds() == ["pre_execute", "guard", "around", "post_execute", "result"]
        dispose()
    """

    __slots__ = ("calls",)

    def __init__(self) -> None:
        #: Every invocation, in the order the hooks ran.
        self.calls: list[HookCall] = []

    def install(self, registry: Any, *, agent: ScopeKey | None = None) -> Callable[[], None]:
        """Add one listener per hook kind to ``registry`` (or to ``agent``'s calls only).

        Args:
            registry: a :class:`~codemode.Registry` (anything with ``hooks``).
            agent: record only the calls that ``agent`` (or an agent nested under
                it) makes.

        Returns:
            A disposer that removes all six listeners.
        """
        hooks: Hooks = registry.hooks
        disposers = [
            hooks.add("pre_execute", self.pre_execute, agent),
            hooks.add("guard", self.guard, agent),
            hooks.add("around", self.around, agent),
            hooks.add("post_execute", self.post_execute, agent),
            hooks.add("result", self.result, agent),
            hooks.add("code_dispatch_log", self.code_dispatch_log, agent),
        ]

        def dispose() -> None:
            for remove in disposers:
                remove()

        return dispose

    def kinds(self) -> list[RecordedKind]:
        """The kinds of the recorded invocations, in order."""
        return [call.kind for call in self.calls]

    def of(self, kind: RecordedKind) -> list[HookCall]:
        """The recorded invocations of one kind, in order."""
        return [call for call in self.calls if call.kind == kind]

    def clear(self) -> None:
        """Forget everything recorded so far."""
        self.calls.clear()

    async def pre_execute(
        self, execution: ToolExecution, next: Callable[[], Awaitable[PreDecision]]
    ) -> PreDecision:
        """A pre-execute listener that records and defers to the rest of the waterfall."""
        index = len(self.calls)
        self.calls.append(HookCall("pre_execute", execution))
        decision = await next()
        self.calls[index] = HookCall("pre_execute", execution, decision=decision)
        return decision

    def guard(self, execution: ToolExecution) -> None:
        """A guard that records and never denies."""
        self.calls.append(HookCall("guard", execution))

    async def around(
        self, dispatch: DispatchExecution, next: Callable[[], Awaitable[ToolResult]]
    ) -> ToolResult:
        """An around wrapper that records the result the inner dispatch returned."""
        index = len(self.calls)
        self.calls.append(HookCall("around", dispatch.execution))
        result = await next()
        self.calls[index] = HookCall("around", dispatch.execution, result=result)
        return result

    async def post_execute(
        self,
        execution: ToolExecution,
        result: ToolResult,
        next: Callable[[], Awaitable[PostDecision]],
    ) -> PostDecision:
        """A post-execute listener that records and defers to the rest of the waterfall."""
        index = len(self.calls)
        self.calls.append(HookCall("post_execute", execution, result=result))
        decision = await next()
        self.calls[index] = HookCall("post_execute", execution, result=result, decision=decision)
        return decision

    def result(self, execution: ToolExecution, result: ToolResult) -> None:
        """A result observer that records the final outcome."""
        self.calls.append(HookCall("result", execution, result=result))

    async def code_dispatch_log(
        self, dispatch: Any, next: Callable[[], Awaitable[Sequence[ContentBlock]]]
    ) -> Sequence[ContentBlock]:
        """A dispatch-log listener that records the sub-call and keeps its content."""
        self.calls.append(HookCall("code_dispatch_log", dispatch.execution, dispatch=dispatch))
        return await next()


@final
class StaticApprover:
    """An approval service that always gives the same answer and records each request.

    Args:
        outcome: what every request is answered with.

    Raises:
        ValueError: if ``outcome`` is not one of the approval outcomes.
    """

    __slots__ = ("outcome", "requests")

    def __init__(self, outcome: ApprovalOutcome = "allowed-once") -> None:
        if outcome not in get_args(ApprovalOutcome):
            raise ValueError(
                'outcome must be "allowed-once", "rejected", "cancelled" or "unavailable", '
                f"got outcome={outcome!r}"
            )
        self.outcome: ApprovalOutcome = outcome
        #: ``(execution, reason)`` for every request, in order.
        self.requests: list[tuple[ToolExecution, str | None]] = []

    async def __call__(self, execution: ToolExecution, reason: str | None) -> ApprovalOutcome:
        self.requests.append((execution, reason))
        return self.outcome

