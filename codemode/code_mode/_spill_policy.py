"""``SpillPolicy``: the ready-made spill policy with its two arms (see ``_spill``)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Final, final

import anyio.to_thread
import msgspec

from .._execution import Accept, ToolExecution
from .._results import ContentBlock, TextBlock, ToolResult
from ._spill import all_text, spill_text
from ._spill_store import LocalSpillStore, SpillStore

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Sequence

    from .._execution import Block
    from .._registry import Registry
    from ._dispatch_events import CodeDispatchLog

__all__ = ["SpillPolicy"]

#: The longest text (in characters) looked at and spilled on the event loop; a
#: longer one is encoded, hashed and written from a worker thread.
INLINE_SPILL_CHARS: Final = 16 * 1024


@final
class SpillPolicy:
    """Keeps oversized text out of the model's context and the session log.

    Text longer than ``max_inline_bytes`` (UTF-8) is saved through ``store``
    and replaced by a head/tail preview plus a notice with the locator. It
    applies to top-level results the model reads (``run_code`` included) and to
    the logged copy of every ``run_code`` sub-call.

    A sub-call's spill file is charged to its run's budget
    (``Quotas.max_persisted_bytes`` and ``Quotas.max_spill_files``); once the
    budget refuses one, the logged copy is the preview with a notice saying
    that the full text was not stored, why, and its SHA-256. Long texts are
    written from a worker thread, never on the event loop.

    Args:
        max_inline_bytes: the largest text kept inline (positive).
        store: where full texts go; by default owner-only files in a private
            temp directory, which :meth:`close` removes (see ``LocalSpillStore``
            for retention and the store's size caps). A store passed here is
            the caller's and is never closed by the policy.
        session_id: groups one session's files (hashed into the directory name).
        exempt_tools: top-level tools whose results are never spilled (e.g. the
            file-reading tool the notice points to).

    Retention: close the policy (or use it as a context manager) once no
    one will read its spill files any more, e.g. after the conversation ends;
    until then nothing the model was pointed to is removed. An unclosed
    default store's directory is removed at garbage collection or interpreter
    exit.

    Example::

        with SpillPolicy(max_inline_bytes=50_000) as policy:
            dispose = policy.install(registry)
            ...
    """

    def __init__(
        self,
        *,
        max_inline_bytes: int = 50_000,
        store: SpillStore | None = None,
        session_id: str = "default",
        exempt_tools: Sequence[str] = (),
    ) -> None:
        if type(max_inline_bytes) is not int or max_inline_bytes <= 0:
            raise ValueError(f"max_inline_bytes={max_inline_bytes!r}: expected a positive int")
        self.max_inline_bytes = max_inline_bytes
        self._own_store: LocalSpillStore | None = None
        if store is None:
            store = self._own_store = LocalSpillStore()
        self.store: SpillStore = store
        self.session_id = session_id
        self.exempt_tools = frozenset(exempt_tools)

    def close(self) -> None:
        """Remove the default store's directory and its files; a given store is left alone.

        Later oversized texts are replaced by a preview with a "not stored"
        notice.
        """
        if self._own_store is not None:
            self._own_store.close()

    def __enter__(self) -> SpillPolicy:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def install(self, registry: Registry) -> Callable[[], None]:
        """Register both arms on ``registry``; return the disposer that removes them."""
        disposers = [
            registry.post_execute(self._model_facing, first=True),
            registry.on_code_dispatch_log(self._dispatch_log),
        ]

        def dispose() -> None:
            for d in disposers:
                d()

        return dispose

    async def _spill_soon(
        self,
        text: str,
        *,
        tool_name: str,
        call_id: str,
        label: str,
        admit: Callable[[int], str | None] | None = None,
    ) -> str | None:
        """:meth:`_spill`, in a worker thread when ``text`` is long."""
        work = partial(
            self._spill, text, tool_name=tool_name, call_id=call_id, label=label, admit=admit
        )
        if len(text) <= INLINE_SPILL_CHARS:
            return work()
        # Not abandoned on cancellation: a file being written, and the budget
        # it was charged to, are settled before the caller goes on.
        return await anyio.to_thread.run_sync(work)

    def _spill(
        self,
        text: str,
        *,
        tool_name: str,
        call_id: str,
        label: str,
        admit: Callable[[int], str | None] | None = None,
    ) -> str | None:
        def save(full: str) -> str:
            return self.store.save_text(
                session_id=self.session_id,
                tool_name=tool_name,
                call_id=call_id,
                label=label,
                suggested_name=f"{tool_name}.txt",
                content=full,
            )

        return spill_text(text, max_inline_bytes=self.max_inline_bytes, save=save, admit=admit)

    async def _model_facing(
        self,
        execution: ToolExecution,
        result: ToolResult,
        proceed: Callable[[], Awaitable[Accept | Block]],
    ) -> Accept | Block:
        decision = await proceed()
        if execution.parent is not None or execution.name in self.exempt_tools:
            return decision
        # A block, or an accept that replaces the value (and so re-renders), is left alone.
        if not isinstance(decision, Accept) or decision.value is not msgspec.UNSET:
            return decision
        content = decision.content if decision.content is not None else result.content
        text = all_text(content)
        if text is None:
            return decision
        replaced = await self._spill_soon(
            text, tool_name=execution.name, call_id=execution.call_id, label="result"
        )
        if replaced is None:
            return decision
        return Accept(
            content=(TextBlock(text=replaced),),
            additional_contexts=decision.additional_contexts,
        )

    async def _dispatch_log(
        self,
        dispatch: CodeDispatchLog,
        proceed: Callable[[], Awaitable[Sequence[ContentBlock]]],
    ) -> Sequence[ContentBlock]:
        content = await proceed()
        text = all_text(content)
        if text is None:
            return content
        budget = dispatch.budget
        replaced = await self._spill_soon(
            text,
            tool_name=dispatch.name,
            call_id=dispatch.sub_call_id,
            label="dispatch",
            admit=None if budget is None else budget.reserve_spill,
        )
        return content if replaced is None else (TextBlock(text=replaced),)

