"""The node side of :class:`~sandbox.RayPool`: one Ray actor per node, holding a local pool.

:class:`NodeSandbox` is the body of that actor (``RayPool`` wraps it with
``ray.remote`` when it opens). It keeps one :class:`~sandbox.WorkerPool` open
on its node and runs programs in it. A program's tool calls do not run here:
:meth:`NodeSandbox.run` is a streaming generator that yields each call as
``("call", call_id, name, args)`` to the caller, whose handler serves it and
answers through :meth:`NodeSandbox.reply`. The first item is ``("started",)``
and the last ``("done", RunResult, PoolStatistics)``; when the caller asks for
live output, each batch of printed lines comes as ``("output", lines)`` in
between, in the order the program printed and called. Items that are waiting
together travel as one, ``("batch", items)``, in order: the calls a program
starts at once (an ``asyncio.gather``) reach the caller in one stream item and
start there together, as they do on a local pool, instead of one round trip
apart. :meth:`NodeSandbox.abort` ends a run early, killing its child (the
caller's abort callback or cancellation).

The wall-clock limit is the local pool's, measured here: time spent waiting for
the caller's answers counts, as it does for a local run.

This module imports no Ray: it runs inside the actor process, which has it.
"""

from __future__ import annotations

import asyncio
import os
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, TypeAlias, final

from bridge.host import ToolCallFailed
from sandbox._pool import WorkerPool

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from bridge.lossless import JsonValue
    from bridge.protocol import ToolSignature
    from sandbox._config import Layers, Limits, PoolStatistics, RunResult

__all__ = ["CallOutcome", "NodeReport", "NodeSandbox", "RunItem", "StreamItem"]

#: What the caller answers for one call: ``("value", value)`` or
#: ``("failed", message, code, exception_type)``.
CallOutcome: TypeAlias = "tuple[str, JsonValue] | tuple[str, str, str | None, str | None]"
#: One item of a run: started, output, a call, or done.
RunItem: TypeAlias = (
    "tuple[str] | tuple[str, tuple[str, ...]] | tuple[str, int, str, JsonValue]"
    " | tuple[str, RunResult, PoolStatistics]"
)
#: What :meth:`NodeSandbox.run` yields: an item, or ``("batch", items)``.
StreamItem: TypeAlias = "RunItem | tuple[str, tuple[RunItem, ...]]"

#: How long closing waits for the local pool to end its children.
_CLOSE_SECONDS: Final = 30.0
#: Aborts kept for runs this actor has not seen (yet): the most recent ones.
_EARLY_ABORTS: Final = 1024


@final
@dataclass(frozen=True, slots=True)
class NodeReport:
    """What a node actor reports when it opens.

    Attributes:
        node_id: The Ray node id the actor runs on.
        address: The node's IP address.
        pid: The actor's process id on its node (the parent of the node's zygote).
        layers: The local pool's layers for the pool's own limits.
        statistics: The local pool's statistics.
    """

    node_id: str
    address: str
    pid: int
    layers: Layers
    statistics: PoolStatistics


@dataclass(slots=True)
class _RemoteRun:
    """One run in progress: its outgoing items and its calls waiting for answers."""

    items: asyncio.Queue[RunItem] = field(default_factory=asyncio.Queue)
    pending: dict[int, asyncio.Future[CallOutcome]] = field(default_factory=dict)
    next_call: int = 0
    aborted: asyncio.Event = field(default_factory=asyncio.Event)
    reason: str = "aborted"


@final
class _RelayHandler:
    """Serves a program's tool calls by asking the caller (see the module docstring)."""

    def __init__(self, run: _RemoteRun) -> None:
        self._run = run

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        run = self._run
        call_id = run.next_call
        run.next_call += 1
        answer: asyncio.Future[CallOutcome] = asyncio.get_running_loop().create_future()
        run.pending[call_id] = answer
        run.items.put_nowait(("call", call_id, name, args))
        try:
            outcome = await answer
        finally:
            run.pending.pop(call_id, None)
        if outcome[0] == "value":
            return outcome[1]
        _, message, code, exception_type = outcome  # type: ignore[misc]
        raise ToolCallFailed(str(message), code, exception_type=exception_type)


@final
class NodeSandbox:
    """The node actor's body: a local :class:`~sandbox.WorkerPool` and the runs in it.

    Args:
        limits: The local pool's limits.
        size: Warm children the local pool keeps.
        uid_range: The uids the local pool's children drop to.
    """

    def __init__(self, limits: Limits, size: int, uid_range: range) -> None:
        self._limits = limits
        self._size = size
        self._uid_range = uid_range
        self._pool: WorkerPool | None = None
        self._keeper: asyncio.Task[None] | None = None
        # asyncio's own: Ray builds the actor outside its event loop.
        self._closing = asyncio.Event()
        self._runs: dict[str, _RemoteRun] = {}
        # An abort can overtake its run (the actor runs both concurrently).
        self._early_aborts: dict[str, str] = {}

    async def open(self) -> NodeReport:
        """Open the local pool (once) and report the node, its layers and statistics."""
        if self._keeper is None:
            # A pool is entered and left by one task (its task group's rule),
            # so a keeper task holds it open between actor calls.
            opened: asyncio.Future[WorkerPool] = asyncio.get_running_loop().create_future()
            self._keeper = asyncio.create_task(self._keep(opened))
            self._pool = await opened
        pool = self._pool
        assert pool is not None
        import ray  # the actor process has Ray: it is one of Ray's workers

        context = ray.get_runtime_context()
        return NodeReport(
            node_id=context.get_node_id(),
            address=ray.util.get_node_ip_address(),  # type: ignore[no-untyped-call]
            pid=os.getpid(),
            layers=pool.layers(),
            statistics=pool.statistics(),
        )

    async def _keep(self, opened: asyncio.Future[WorkerPool]) -> None:
        try:
            async with WorkerPool(
                limits=self._limits, size=self._size, uid_range=self._uid_range
            ) as pool:
                opened.set_result(pool)
                await self._closing.wait()
        except Exception as exc:
            if not opened.done():
                opened.set_exception(exc)  # open() raises it
                return
            raise

    async def close(self) -> None:
        """Abort every run and close the local pool, ending every child."""
        for run in self._runs.values():
            run.reason = "the Ray pool was closed"
            run.aborted.set()
        self._closing.set()
        if self._keeper is not None:
            await asyncio.wait({self._keeper}, timeout=_CLOSE_SECONDS)

    async def layers(self, limits: Limits | None) -> Layers:
        """The local pool's layers for ``limits``."""
        return self._open_pool().layers(limits)

    async def statistics(self) -> PoolStatistics:
        """The local pool's statistics."""
        return self._open_pool().statistics()

    async def run(
        self,
        run_id: str,
        source: str,
        tool_names: tuple[str, ...],
        limits: Limits | None,
        signatures: tuple[ToolSignature, ...] | None,
        live_output: bool = False,
    ) -> AsyncIterator[StreamItem]:
        """Run one program in the local pool; yield its calls (and output), then its result."""
        pool = self._open_pool()
        if run_id in self._runs:
            raise ValueError(f"run id {run_id!r} is already running on this node")
        run = self._runs[run_id] = _RemoteRun()
        early = self._early_aborts.pop(run_id, None)
        if early is not None:
            run.reason = early
            run.aborted.set()

        async def aborted() -> str:
            await run.aborted.wait()
            return run.reason

        def output(lines: tuple[str, ...]) -> None:
            run.items.put_nowait(("output", lines))

        async def serve() -> None:
            result = await pool.run(
                source,
                tool_names=tool_names,
                handler=_RelayHandler(run),
                abort=aborted,
                limits=limits,
                signatures=signatures,
                on_output=output if live_output else None,
            )
            run.items.put_nowait(("done", result, pool.statistics()))

        task = asyncio.create_task(serve())
        try:
            # First, that the run reached this node: a caller that loses the
            # node before it sees this knows the run never started, and places
            # it on another node.
            yield ("started",)
            while True:
                getter = asyncio.ensure_future(run.items.get())
                await asyncio.wait({getter, task}, return_when=asyncio.FIRST_COMPLETED)
                if not getter.done():
                    getter.cancel()
                    task.result()  # the run failed outside the pool's contract: say so
                    raise RuntimeError("the run ended without a result")
                items = [getter.result()]
                # Whatever else is waiting goes in the same stream item ("done"
                # is always the last item of a run).
                while not run.items.empty():
                    items.append(run.items.get_nowait())
                yield items[0] if len(items) == 1 else ("batch", tuple(items))
                if items[-1][0] == "done":
                    return
        finally:
            # The caller went away (or the run failed): end the child.
            # The run's task disposes of its child itself once cancelled.
            if not task.done():
                task.cancel()
                await asyncio.wait({task})
            for answer in run.pending.values():
                answer.cancel()
            del self._runs[run_id]

    async def reply(self, run_id: str, call_id: int, outcome: CallOutcome) -> None:
        """The caller's answer to call ``call_id`` of run ``run_id``."""
        run = self._runs.get(run_id)
        answer = None if run is None else run.pending.get(call_id)
        # A run that ended, or a call the program stopped waiting for, drops it.
        if answer is not None and not answer.done():
            answer.set_result(outcome)

    async def abort(self, run_id: str, reason: str) -> None:
        """End run ``run_id`` as ``abort`` with ``reason``, killing its child."""
        run = self._runs.get(run_id)
        if run is None:  # not here yet, or over already (then never claimed)
            self._early_aborts[run_id] = reason
            while len(self._early_aborts) > _EARLY_ABORTS:
                del self._early_aborts[next(iter(self._early_aborts))]
        elif not run.aborted.is_set():
            run.reason = reason
            run.aborted.set()

    def _open_pool(self) -> WorkerPool:
        if self._pool is None or self._closing.is_set():
            raise RuntimeError("this node's sandbox pool is not open")
        return self._pool
