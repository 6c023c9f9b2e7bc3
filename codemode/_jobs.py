"""A pipeline call as a scheduler job: the piece the turn runner and Code Mode's bridge share.

The scheduler (:mod:`codemode._scheduling`) runs a job in three stages; a
:class:`PipelineJob` maps them onto the phased pipeline (:func:`_pipeline.begin`):
``start`` is materialisation and policy (ordered), ``run`` the around-dispatch
waterfall and the tool body (concurrent), ``commit`` post-execute, finalisation
and observers (ordered, in submission order). Subclasses add their logging
around ``start`` and ``commit``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._pipeline import begin

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    import anyio

    from ._execution import CallInput
    from ._pipeline import PreparedCall
    from ._registry import Registry
    from ._results import ToolResult
    from ._scheduling import Mode

__all__ = ["PipelineJob"]


class PipelineJob:
    """One call through the registry's pipeline, as a :class:`~codemode._scheduling.Job`."""

    __slots__ = ("_asked", "_input", "_prepared", "_registry", "_stop")

    def __init__(
        self,
        registry: Registry,
        call: CallInput,
        *,
        stop: Callable[[], AbstractContextManager[anyio.CancelScope]] | None = None,
        asked: Callable[[], bool] | None = None,
    ) -> None:
        self._registry = registry
        self._input = call
        self._stop = stop
        self._asked = asked  # whether the owner asked to cancel (see _pipeline.begin)
        self._prepared: PreparedCall | None = None

    def mode(self) -> Mode:
        """Parallel only when the tool says so for these arguments (read just before start)."""
        return self._registry.execution_mode(self._input)

    async def start(self) -> None:
        self._prepared = begin(self._registry, self._input, stop=self._stop, asked=self._asked)
        await self._prepared.start()

    async def run(self) -> None:
        assert self._prepared is not None, "run() before start()"
        await self._prepared.run()

    async def commit(self) -> ToolResult:
        assert self._prepared is not None, "commit() before start()"
        return await self._prepared.commit()
