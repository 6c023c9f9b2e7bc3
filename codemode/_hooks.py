"""Where the pipeline's listeners live: one ordered list per hook kind, with an agent filter.

Kinds and the callables they hold:

* ``pre_execute`` - ``async (execution, next) -> Allow | Deny | Ask``
* ``guard`` - ``(execution) -> str | None`` (a string denies; nothing can allow)
* ``around`` - ``async (dispatch, next) -> ToolResult``
* ``post_execute`` - ``async (execution, result, next) -> Accept | Block``
* ``result`` - ``(execution, result) -> None`` (may be async; failures are logged)
* ``code_dispatch_log`` - ``async (dispatch, next) -> content``: reshapes the durable log
  copy of one Code Mode sub-call (run by :meth:`Hooks.run_code_dispatch_log`)

**Scope filter.** A listener added with ``agent=None`` sees every call. A
listener added for an agent sees the calls whose ``agent`` is that agent *or an
agent nested under it* (its ``parent`` chain reaches the listener's agent); it
never sees calls of sibling or ancestor scopes, nor agent-less calls. Nesting
is included so that a policy declared on a preset scope covers every agent that
joins the preset, exactly as tools, restrictions and modes declared there do.

Listeners run in the order they were added, global and scoped ones interleaved;
``first=True`` puts one in front instead (the outermost layer of a waterfall).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, Final, Literal, Protocol, TypeAlias, final, get_args

from ._outcomes import awaited, check_blocks

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from ._execution import (
        Approver,
        DispatchExecution,
        PostDecision,
        PreDecision,
        ScopeKey,
        ToolExecution,
    )
    from ._results import ContentBlock, ToolResult

__all__ = [
    "HOOK_KINDS",
    "AroundHook",
    "DispatchLogEntry",
    "Guard",
    "HookKind",
    "Hooks",
    "PostExecuteHook",
    "PreExecuteHook",
    "ResultObserver",
]

HookKind: TypeAlias = Literal[
    "pre_execute", "guard", "around", "post_execute", "result", "code_dispatch_log"
]
HOOK_KINDS: Final[tuple[HookKind, ...]] = get_args(HookKind)

PreExecuteHook: TypeAlias = (
    "Callable[[ToolExecution, Callable[[], Awaitable[PreDecision]]], Awaitable[PreDecision]]"
)
Guard: TypeAlias = "Callable[[ToolExecution], str | None]"
AroundHook: TypeAlias = (
    "Callable[[DispatchExecution, Callable[[], Awaitable[ToolResult]]], Awaitable[ToolResult]]"
)
PostExecuteHook: TypeAlias = (
    "Callable[[ToolExecution, ToolResult, Callable[[], Awaitable[PostDecision]]], "
    "Awaitable[PostDecision]]"
)
ResultObserver: TypeAlias = "Callable[[ToolExecution, ToolResult], object]"

_Entry: TypeAlias = "tuple[int, Callable[..., Any], ScopeKey | None]"


class DispatchLogEntry(Protocol):
    """What the ``code_dispatch_log`` waterfall needs of a settled sub-call."""

    @property
    def agent(self) -> ScopeKey | None: ...
    @property
    def content(self) -> Sequence[ContentBlock]: ...


@final
class Hooks:
    """The registry's listener store, one ordered list per :data:`HookKind`.

    Args:
        timeouts: install the shipped around-dispatch wrapper that enforces each
            tool's ``timeout`` (see :mod:`codemode._timeout`) as the first, and so
            outermost, global ``around`` listener.
        approver: the approval service a pre-execute ``Ask`` is routed through
            (an :class:`~codemode.Approver`); ``None`` turns every ``Ask`` into a
            denial. An ``approver`` attribute on the registry, when set, wins.
    """

    __slots__ = ("_entries", "_next_key", "approver")

    def __init__(self, *, timeouts: bool = True, approver: Approver | None = None) -> None:
        if not isinstance(timeouts, bool):
            raise TypeError(f"timeouts must be a bool, got timeouts={timeouts!r}")
        if approver is not None and not callable(approver):
            raise TypeError(f"approver must be callable, got approver={approver!r}")
        #: The approval service for ``Ask`` decisions, or ``None``.
        self.approver: Approver | None = approver
        self._entries: dict[HookKind, tuple[_Entry, ...]] = dict.fromkeys(HOOK_KINDS, ())
        self._next_key = 0
        if timeouts:
            from ._timeout import enforce_timeout

            self.add("around", enforce_timeout)

    def add(
        self,
        kind: HookKind,
        fn: Callable[..., Any],
        agent: ScopeKey | None = None,
        *,
        first: bool = False,
    ) -> Callable[[], None]:
        """Add ``fn`` as a listener of ``kind``, for every call or for ``agent``'s calls.

        Args:
            kind: one of :data:`HOOK_KINDS`.
            fn: the listener; its shape depends on ``kind`` (see the module docs).
            agent: restrict the listener to this agent's calls and its nested
                agents' calls; ``None`` for every call.
            first: put the listener before every listener added so far (the
                outermost layer of a waterfall) instead of after them.

        Returns:
            A disposer that removes this listener; calling it again does nothing.

        Raises:
            ValueError: if ``kind`` is not a hook kind.
            TypeError: if ``fn`` is not callable.
        """
        if kind not in self._entries:
            raise ValueError(
                f"unknown hook kind={kind!r}; expected one of: {', '.join(HOOK_KINDS)}"
            )
        if not callable(fn):
            raise TypeError(f"a {kind} listener must be callable, got fn={fn!r}")
        if not isinstance(first, bool):
            raise TypeError(f"first must be a bool, got first={first!r}")
        key = self._next_key
        self._next_key += 1
        entry: _Entry = (key, fn, agent)
        # Tuples are replaced, never mutated, so a pipeline stage that already
        # took its snapshot is not disturbed by listeners coming or going.
        entries = self._entries[kind]
        self._entries[kind] = (entry, *entries) if first else (*entries, entry)

        def dispose() -> None:
            self._entries[kind] = tuple(e for e in self._entries[kind] if e[0] != key)

        return dispose

    def listeners(self, kind: HookKind, agent: ScopeKey | None) -> tuple[Callable[..., Any], ...]:
        """The listeners of ``kind`` that see a call made for ``agent``, in order."""
        entries = self._entries[kind]
        if not entries:
            return ()
        chain: list[ScopeKey] = []
        node = agent
        while node is not None:
            chain.append(node)
            node = node.parent
        return tuple(
            fn
            for _key, fn, scope in entries
            if scope is None or any(scope is member for member in chain)
        )

    async def run_code_dispatch_log(self, dispatch: DispatchLogEntry) -> tuple[ContentBlock, ...]:
        """Run the ``code_dispatch_log`` waterfall over one settled sub-call.

        Each listener is ``async (dispatch, next) -> content``; ``next()`` gives
        the content the later listeners settled on, the last one the sub-call's
        own ``dispatch.content``. Only the durable log copy uses the result.

        Returns:
            The content blocks to log.

        Raises:
            Exception: whatever a listener raised, or ``TypeError`` for a listener
                that returns something other than content blocks; the caller
                falls back to the original content.
        """
        listeners = self.listeners("code_dispatch_log", dispatch.agent)
        original = tuple(dispatch.content)

        async def step(index: int) -> tuple[ContentBlock, ...]:
            if index == len(listeners):
                return original
            content = await awaited(
                listeners[index](dispatch, partial(step, index + 1)),
                "a code_dispatch_log listener",
            )
            return check_blocks(content, "a code_dispatch_log listener")

        return await step(0)

    def __len__(self) -> int:
        return sum(len(entries) for entries in self._entries.values())
