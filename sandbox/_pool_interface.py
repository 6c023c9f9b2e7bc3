"""The interface a sandbox pool offers its callers: what ``CodeMode`` needs of one.

:class:`Pool` is a :class:`typing.Protocol`. :class:`~sandbox.WorkerPool` runs
programs in children on this machine; :class:`~sandbox.RayPool` places them on
the nodes of a Ray cluster. A caller that types its pool as :class:`Pool` works
with either, or with any other class that has these methods::

    async def answer(pool: Pool, handler: CallHandler) -> RunResult:
        return await pool.run("return 1 + 1", tool_names=[], handler=handler)

Host side only: nothing here is imported by the child.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from typing import Self

    from bridge.host import CallHandler, OutputCallback
    from bridge.protocol import ToolSignature
    from sandbox._config import Layers, Limits, PoolStatistics, RunResult

__all__ = ["AbortCallback", "Pool"]

#: ``abort``: an async callable; when it returns, the run ends as ``abort`` with
#: the returned text as its message.
AbortCallback = Callable[[], Awaitable[str]]


@runtime_checkable
class Pool(Protocol):
    """Runs programs in sandboxed children: the interface every pool implements.

    An ``async with`` resource: entering makes it ready to run programs,
    leaving ends every child it started. Between the two, :meth:`run` may be
    awaited from any number of tasks at once.
    """

    async def __aenter__(self) -> Self:
        """Open the pool (start its children, or reach its nodes)."""
        ...

    async def __aexit__(self, *exc_info: object) -> bool | None:
        """Close the pool: every child it started is ended."""
        ...

    async def run(
        self,
        source: str,
        *,
        tool_names: Sequence[str],
        handler: CallHandler,
        abort: AbortCallback | None = None,
        limits: Limits | None = None,
        signatures: Sequence[ToolSignature] | None = None,
        on_output: OutputCallback | None = None,
    ) -> RunResult:
        """Run one program in a fresh child and return its result.

        Every tool call the program makes is served by ``handler`` in the
        caller's process, one ``call_tool`` per call, started in the order the
        program made them; ``on_output`` gets each batch of printed lines in
        the caller's process while the program runs. Every failure of the program or its child is a
        :class:`~sandbox.RunResult` with an error, never an exception; when
        ``abort`` returns first, the run ends as ``abort`` with its text.
        Cancelling the awaiting task ends the child and re-raises.
        """
        ...

    def statistics(self) -> PoolStatistics:
        """A snapshot of the pool's children and counters."""
        ...

    def layers(self, limits: Limits | None = None) -> Layers:
        """The protections a run with ``limits`` (the pool's own by default) gets."""
        ...
