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

from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, TypeGuard, runtime_checkable

from bridge.protocol import ToolSignature
from sandbox._config import Limits

if TYPE_CHECKING:
    from typing import Self

    from bridge.host import CallHandler, OutputCallback
    from sandbox._config import Layers, PoolStatistics, RunResult

__all__ = [
    "AbortCallback",
    "AbortSource",
    "Pool",
    "RunArguments",
    "checked_run_arguments",
    "is_abort_source",
]

#: ``abort``: an async callable; when it returns, the run ends as ``abort`` with
#: the returned text as its message.
AbortCallback = Callable[[], Awaitable[str]]


@runtime_checkable
class AbortSource(Protocol):
    """An ``abort`` callable that can also say when it fires, so no task need wait for it.

    A pool awaits an :data:`AbortCallback` in a task of its own. When the
    callable's class also has :attr:`reason` and :meth:`on_abort`,
    :class:`~sandbox.WorkerPool` subscribes instead, and the run costs no watcher task
    (``run_code`` passes the outer call's signal this way). The run then ends as
    ``abort`` with :attr:`reason` (``"aborted"`` when it is empty). A pool that
    only awaits the callable, such as :class:`~sandbox.RayPool`, gets the same
    outcome, so ``abort`` must give the same answer both ways.
    """

    async def __call__(self) -> str:
        """Return the reason once it aborts (what a pool that awaits it gets)."""
        ...

    @property
    def reason(self) -> str | None:
        """Why it aborted; ``None`` while it has not."""
        ...

    def on_abort(self, callback: Callable[[], object]) -> Callable[[], None]:
        """Call ``callback`` once, on the event loop, when it aborts (at once if it has).

        Returns:
            A function that unsubscribes ``callback``.
        """
        ...


def is_abort_source(abort: object) -> TypeGuard[AbortSource]:
    """Whether ``abort``'s class has ``on_abort`` and ``reason`` (an :class:`AbortSource`).

    Read from the class, as a pool checks it on every run: ``isinstance``
    against a runtime protocol costs several microseconds.
    """
    kind = type(abort)
    return (
        callable(getattr(kind, "on_abort", None))
        and hasattr(kind, "reason")
        and callable(abort)
    )


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


class RunArguments(NamedTuple):
    """:meth:`Pool.run`'s arguments, checked: what an implementation goes on with."""

    limits: Limits
    tool_names: tuple[str, ...]
    signatures: tuple[ToolSignature, ...] | None


def checked_run_arguments(
    *,
    default_limits: Limits,
    source: Any,
    tool_names: Any,
    handler: Any,
    abort: Any,
    limits: Any,
    signatures: Any,
    on_output: Any,
) -> RunArguments:
    """Check :meth:`Pool.run`'s arguments the one way every pool does.

    Raises:
        TypeError: naming the argument and what it must be.
    """
    chosen = default_limits if limits is None else limits
    if not isinstance(chosen, Limits):
        raise TypeError(f"run() limits must be a Limits or None; got limits={limits!r}")
    if not isinstance(source, str):
        raise TypeError(f"run() source must be a str; got source={source!r}")
    names = tuple(tool_names) if isinstance(tool_names, Iterable) else None
    if names is None or isinstance(tool_names, str) or not all(isinstance(n, str) for n in names):
        raise TypeError(f"run() tool_names must be a sequence of str; got {tool_names!r}")
    if not callable(getattr(handler, "call_tool", None)):
        raise TypeError(
            f"run() handler must have an async call_tool(name, args) method; got {handler!r}"
        )
    if on_output is not None and not callable(on_output):
        raise TypeError(f"run() on_output must be a callable or None; got on_output={on_output!r}")
    if abort is not None and not callable(abort):
        raise TypeError(f"run() abort must be an async callable or None; got abort={abort!r}")
    checked = None if signatures is None else tuple(signatures)
    if checked is not None and not all(isinstance(s, ToolSignature) for s in checked):
        raise TypeError(
            f"run() signatures must be a sequence of ToolSignature or None; got {signatures!r}"
        )
    return RunArguments(chosen, names, checked)
