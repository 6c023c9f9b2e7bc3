"""The shapes one tool call takes on its way through the pipeline.

* :class:`CallInput` - what a caller hands to ``Registry.execute``.
* :class:`ToolExecution` - the frozen view every hook receives: identity, the
  frozen argument snapshot, the caller's signal and the registry-assigned token.
* :class:`DispatchExecution` - the around-dispatch view; only its ``signal`` can
  be replaced.
* :class:`ToolRunContext` - what a tool body receives: the execution's fields
  plus :meth:`~ToolRunContext.defer_context` and :meth:`~ToolRunContext.conclude_turn`.
* Decisions returned by the waterfalls: :class:`Allow`, :class:`Deny`,
  :class:`Ask` (pre-execute) and :class:`Accept`, :class:`Block` (post-execute).
* :class:`Approver` - the approval service an ``Ask`` is routed through.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import KW_ONLY, dataclass, field
from typing import TYPE_CHECKING, Literal, Protocol, TypeAlias, final

import msgspec

from ._results import ContentBlock, ContextMessage, ImageBlock, TextBlock
from ._scope import Agent
from ._signal import AbortSignal

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

__all__ = [
    "Accept",
    "Allow",
    "ApprovalOutcome",
    "Approver",
    "Ask",
    "Block",
    "CallInput",
    "Deny",
    "DispatchExecution",
    "ExecutionToken",
    "PostDecision",
    "PreDecision",
    "ScopeKey",
    "ToolExecution",
    "ToolRunContext",
]


#: The scope key calls carry: an :class:`~codemode.Agent` (scopes nest through ``parent``).
ScopeKey: TypeAlias = Agent


@final
class ExecutionToken:
    """The opaque identity of one execution, compared only with ``is``.

    Nested calls receive their enclosing execution's token as ``parent``; it
    lets observers correlate calls without handing out the live execution.
    """

    __slots__ = ("__weakref__",)

    def __repr__(self) -> str:
        return f"<ExecutionToken {id(self):#x}>"

    def __copy__(self) -> ExecutionToken:
        return self

    def __deepcopy__(self, memo: object) -> ExecutionToken:
        return self

    def __reduce__(self) -> str:
        raise TypeError("an ExecutionToken is an in-process identity and cannot be pickled")


def _check_str(name: str, value: object, *, allow_empty: bool = False) -> None:
    if type(value) is not str:
        raise TypeError(f"{name} must be a str, got {name}={value!r}")
    if not allow_empty and not value:
        raise ValueError(f"{name} must not be empty, got {name}={value!r}")


@final
@dataclass(frozen=True, slots=True)
class CallInput:
    """One tool call as the caller describes it.

    Args:
        call_id: the call's id (the model's id for a root call, ``<outer>:code:<n>``
            for a Code Mode sub-call).
        name: the tool name the call asks for.
        arguments: the parsed arguments; they must be lossless JSON and are
            snapshotted once when the call starts.
        signal: the caller-owned cancellation signal; required.
        agent: the scope the call runs on behalf of, if any.
        parent: the enclosing execution's token for a nested dispatch; ``None``
            marks a model-direct call.
        root_call_id: the root call's id for a nested dispatch; ``None`` for a
            root call (it then resolves to ``call_id``).

    Raises:
        TypeError: if ``signal`` is not an :class:`AbortSignal`, an id or the
            name is not a ``str``, ``agent`` is not an :class:`~codemode.Agent`,
            or ``parent`` is not an :class:`ExecutionToken`.
    """

    call_id: str
    name: str
    arguments: object
    signal: AbortSignal
    _: KW_ONLY
    agent: ScopeKey | None = None
    parent: ExecutionToken | None = None
    root_call_id: str | None = None

    def __post_init__(self) -> None:
        _check_str("call_id", self.call_id)
        _check_str("name", self.name, allow_empty=True)
        if not isinstance(self.signal, AbortSignal):
            raise TypeError(
                "every call needs the caller's AbortSignal; "
                f"got signal={self.signal!r} for call_id={self.call_id!r}"
            )
        if self.agent is not None and not isinstance(self.agent, Agent):
            raise TypeError(f"agent must be an Agent or None, got agent={self.agent!r}")
        if self.parent is not None and not isinstance(self.parent, ExecutionToken):
            raise TypeError(
                f"parent must be the enclosing execution's token, got parent={self.parent!r}"
            )
        if self.root_call_id is not None:
            _check_str("root_call_id", self.root_call_id)


@final
@dataclass(frozen=True, slots=True, eq=False)
class ToolExecution:
    """The frozen view of one call that every hook receives.

    ``arguments`` is the one frozen snapshot taken when the call started; every
    stage, the body and the observers see the same object. ``root_call_id`` is
    resolved (a root call's own id). Two executions are equal only if they are
    the same object.
    """

    call_id: str
    root_call_id: str
    name: str
    arguments: JsonValue
    agent: ScopeKey | None
    parent: ExecutionToken | None
    token: ExecutionToken
    signal: AbortSignal


class _ExecutionView:
    """Read-only access to the identity of one :class:`ToolExecution` it wraps."""

    __slots__ = ("_execution",)

    _execution: ToolExecution

    @property
    def call_id(self) -> str:
        return self._execution.call_id

    @property
    def root_call_id(self) -> str:
        return self._execution.root_call_id

    @property
    def name(self) -> str:
        return self._execution.name

    @property
    def arguments(self) -> JsonValue:
        return self._execution.arguments

    @property
    def agent(self) -> ScopeKey | None:
        return self._execution.agent

    @property
    def parent(self) -> ExecutionToken | None:
        return self._execution.parent

    @property
    def token(self) -> ExecutionToken:
        return self._execution.token


@final
class DispatchExecution(_ExecutionView):
    """The around-dispatch view of a call: the execution's identity and a replaceable signal.

    A wrapper may set :attr:`signal` to another :class:`AbortSignal` (for a
    deadline, say) before calling ``next()``; the pipeline fuses the caller's
    signal back in before the body runs, and puts back the signal each wrapper
    saw when its ``next()`` returns. Every other field is read-only.
    """

    __slots__ = ("_signal", "_tool")

    def __init__(self, execution: ToolExecution, tool: object | None) -> None:
        self._execution = execution
        self._signal = execution.signal
        self._tool = tool

    def __repr__(self) -> str:
        return f"<DispatchExecution {self.name!r} call_id={self.call_id!r}>"

    @property
    def signal(self) -> AbortSignal:
        """The signal the next wrapper (or, fused with the caller's, the body) sees."""
        return self._signal

    @signal.setter
    def signal(self, value: AbortSignal) -> None:
        if not isinstance(value, AbortSignal):
            raise TypeError(
                "a wrapper may replace the signal but not remove it; "
                f"got signal={value!r} for call_id={self.call_id!r}"
            )
        self._signal = value

    @property
    def execution(self) -> ToolExecution:
        """The frozen execution, with the caller's own signal."""
        return self._execution

    @property
    def tool(self) -> object | None:
        """The tool definition the call resolved to, or ``None`` for an unknown tool."""
        return self._tool


@final
class ToolRunContext(_ExecutionView):
    """What a tool body receives next to its arguments.

    It carries the execution's fields, the signal the body must observe (the
    caller's, fused with any wrapper's replacement), and two channels onto the
    call's own result: :meth:`defer_context` and :meth:`conclude_turn`.
    """

    __slots__ = ("_concluded", "_deferred", "_open", "_signal")

    def __init__(self, execution: ToolExecution, signal: AbortSignal) -> None:
        self._execution = execution
        self._signal = signal
        self._deferred: list[ContextMessage] = []
        self._concluded = False
        self._open = True

    def __repr__(self) -> str:
        return f"<ToolRunContext {self.name!r} call_id={self.call_id!r}>"

    @property
    def signal(self) -> AbortSignal:
        """The signal to observe: aborted when the caller or a wrapper cancels."""
        return self._signal

    @property
    def execution(self) -> ToolExecution:
        """The frozen execution (its ``signal`` is the caller's own)."""
        return self._execution

    def defer_context(self, message: ContextMessage) -> None:
        """Attach ``message`` to this call's own result, in call order.

        The agent loop appends it after the call's result. Contexts deferred by
        a body that then raises are kept on the failure.

        Raises:
            TypeError: if ``message`` is not a :class:`ContextMessage`.
            RuntimeError: if the call has already settled.
        """
        if not isinstance(message, ContextMessage):
            raise TypeError(f"defer_context takes a ContextMessage, got message={message!r}")
        self._check_open("defer_context")
        self._deferred.append(message)

    def conclude_turn(self) -> None:
        """Mark a successful result as the last of the agent's turn.

        It has no effect if the call fails.

        Raises:
            RuntimeError: if the call has already settled.
        """
        self._check_open("conclude_turn")
        self._concluded = True

    def _check_open(self, what: str) -> None:
        if not self._open:
            raise RuntimeError(
                f"{what}() was called after tool {self.name!r} (call_id={self.call_id!r}) "
                "settled; call it before the body returns"
            )

    def _close(self) -> tuple[tuple[ContextMessage, ...], bool]:
        self._open = False
        return tuple(self._deferred), self._concluded


# --- decisions -------------------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class Allow:
    """Pre-execute: let the call proceed (what ``next()`` returns by default)."""


@final
@dataclass(frozen=True, slots=True)
class Deny:
    """Pre-execute: refuse the call; ``reason`` becomes the failure's message."""

    reason: str

    def __post_init__(self) -> None:
        _check_str("reason", self.reason)


@final
@dataclass(frozen=True, slots=True)
class Ask:
    """Pre-execute: run the call only if the approval service grants it once."""

    reason: str | None = None

    def __post_init__(self) -> None:
        if self.reason is not None:
            _check_str("reason", self.reason)


def _blocks(name: str, blocks: object) -> tuple[ContentBlock, ...]:
    if isinstance(blocks, str) or not isinstance(blocks, Sequence):
        raise TypeError(f"{name} must be a sequence of content blocks, got {name}={blocks!r}")
    for block in blocks:
        if type(block) not in (TextBlock, ImageBlock):
            raise TypeError(
                f"{name} must hold TextBlock or ImageBlock items, got {type(block).__name__}"
            )
    return tuple(blocks)


def _contexts(contexts: object) -> tuple[ContextMessage, ...]:
    if isinstance(contexts, str) or not isinstance(contexts, Sequence):
        raise TypeError(f"additional_contexts must be a sequence, got {contexts!r}")
    for context in contexts:
        if not isinstance(context, ContextMessage):
            raise TypeError(
                f"additional_contexts must hold ContextMessage items, got {context!r}"
            )
    return tuple(contexts)


@final
@dataclass(frozen=True, slots=True)
class Accept:
    """Post-execute: keep the result, optionally replacing its content *or* its value.

    A new ``content`` keeps the canonical value and metadata; a new ``value`` is
    validated against the tool's output schema and re-rendered (not allowed on a
    failed result). ``additional_contexts`` are appended to the result's own.

    Raises:
        TypeError: if both ``content`` and ``value`` are given.
    """

    content: Sequence[ContentBlock] | None = None
    _: KW_ONLY
    value: JsonValue | msgspec.UnsetType = msgspec.UNSET
    additional_contexts: Sequence[ContextMessage] = field(default=())

    def __post_init__(self) -> None:
        if self.content is not None:
            if self.value is not msgspec.UNSET:
                raise TypeError(
                    "Accept replaces the content or the value, never both; "
                    "give only content=... or only value=..."
                )
            object.__setattr__(self, "content", _blocks("content", self.content))
        object.__setattr__(self, "additional_contexts", _contexts(self.additional_contexts))


@final
@dataclass(frozen=True, slots=True)
class Block:
    """Post-execute: turn the result into a failure carrying corrective ``feedback``.

    The value and every context already on the result are dropped; only this
    decision's ``additional_contexts`` remain.
    """

    feedback: Sequence[ContentBlock]
    _: KW_ONLY
    additional_contexts: Sequence[ContextMessage] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "feedback", _blocks("feedback", self.feedback))
        object.__setattr__(self, "additional_contexts", _contexts(self.additional_contexts))


PreDecision: TypeAlias = Allow | Deny | Ask
PostDecision: TypeAlias = Accept | Block

#: What an approval service answers; anything else is reported as a failure.
#: ``"unavailable"`` means the service has no channel to a person right now
#: (no UI connected, say): the call is denied, saying so.
ApprovalOutcome: TypeAlias = Literal["allowed-once", "rejected", "cancelled", "unavailable"]


class Approver(Protocol):
    """The approval service a pre-execute ``Ask`` is routed through.

    Only ``"allowed-once"`` lets the call run. The pipeline cancels a pending
    approval when the call's signal aborts. Example::

        class ConsoleApprover:
            async def __call__(self, execution, reason):
                answer = await ask_user(f"Run {execution.name}? {reason or ''}")
                return "allowed-once" if answer else "rejected"

        registry = Registry(approver=ConsoleApprover())
    """

    async def __call__(self, execution: ToolExecution, reason: str | None) -> ApprovalOutcome: ...
