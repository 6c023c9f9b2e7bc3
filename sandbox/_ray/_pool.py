"""The caller side of :class:`RayPool`: programs placed on Ray nodes, tool calls served here.

Opening the pool starts one :class:`~sandbox._ray._node.NodeSandbox` actor on
each chosen node of the Ray cluster the process is connected to; each holds a
local :class:`~sandbox.WorkerPool`. :meth:`RayPool.run` places the program on
the live node with the fewest of this pool's runs in flight, then reads the
actor's streaming generator (``sandbox._ray._stream``): each tool call the
program makes arrives as an item and is served by the caller's handler in this
process (a task per call, started in the order the program made them, as the
local endpoint does), its answer sent back with ``reply``; the last item is
the node's :class:`~sandbox.RunResult`.

A node whose actor dies (the node lost, the actor killed) ends its runs as
``worker-exit`` naming the node, and is not given runs again.

Ray is imported when the pool opens, never when this module is.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import time
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, final

import anyio

from sandbox._config import Layers, Limits, PoolStatistics, RunError, RunResult, format_seconds
from sandbox._pool_interface import AbortCallback, Pool, checked_run_arguments
from sandbox._ray._stream import (
    NotStarted,
    RemoteNode,
    forward_abort,
    import_ray,
    serve_stream,
    stop_run,
)
from sandbox._uids import DEFAULT_UID_RANGE, check_uid_range

if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Self

    from bridge.host import CallHandler, OutputCallback
    from bridge.protocol import ToolSignature
    from sandbox._ray._node import NodeReport

__all__ = ["NodeStatus", "RayPool"]

_logger: Final = logging.getLogger("sandbox.ray")

#: Time the node actors get to start and open their local pools.
_OPEN_SECONDS: Final = 120.0
#: Time each node actor gets to close its local pool.
_CLOSE_SECONDS: Final = 30.0
#: How long past the wall-clock limit the caller waits for a node's result
#: before it stops the run itself: the node enforces the limit, this only
#: covers a node that stopped answering without dying.
_NODE_SILENCE_SECONDS: Final = 30.0
#: Runs a node actor serves at once. A run holds one of the actor's concurrency
#: slots for its whole life (it is a streaming call), and it waits on calls that
#: need a slot too (each tool call's answer, an abort): so the actor has
#: ``_CONTROL_SLOTS`` more slots than it is given runs, and a run past this
#: number waits here for a node with room, before its wall clock starts.
_RUNS_PER_NODE: Final = 960
#: The actor's slots kept for short calls (answers, aborts, statistics, closing).
_CONTROL_SLOTS: Final = 40
_DEFAULT_LIMITS: Final = Limits()
_PROTECTIONS: Final = (
    "language_layer", "tripwire", "rlimits", "uid_drop", "no_new_privs", "seccomp"
)


@final
@dataclass(frozen=True, slots=True)
class NodeStatus:
    """One node of a :class:`RayPool`, as the caller last saw it.

    Attributes:
        node_id: The Ray node id.
        address: The node's IP address.
        actor_pid: The process id of the pool's actor on that node (its
            sandbox zygote is a child of it).
        alive: Whether runs are still placed on it.
        running: This pool's runs in flight on it.
        statistics: The node's local pool, as of the end of its latest run.
        lost: Why the node was dropped, when it was.
    """

    node_id: str
    address: str
    actor_pid: int
    alive: bool
    running: int
    statistics: PoolStatistics
    lost: str | None = None


@final
class RayPool(Pool):
    """Runs programs in sandboxes on the nodes of a Ray cluster; tool calls come back here.

    Connect to Ray first (``ray.init()`` starts a local runtime,
    ``ray.init(address="auto")`` or ``ray.init(address="ray://head:10001")``
    joins a cluster), then use the pool where a :class:`~sandbox.WorkerPool`
    would go::

        ray.init(address="auto")
        async with RayPool(limits=Limits(wall_seconds=10), size=4) as pool:
            async with CodeMode(registry, pool=pool) as code_mode:
                ...

    Entering starts one actor on each node (it reserves no CPU: the children
    it forks are the work), each holding a local pool with these ``limits``,
    ``size`` and ``uid_range``; leaving closes them. Every node needs this
    package installed (``pip install codemode[ray]``). The layers of a run are
    those of the local pool of the node that ran it, as that pool reports them.

    Args:
        limits: The default limits of every run (the local pools' limits).
        size: Warm children each node keeps.
        uid_range: The uids children drop to on a node whose worker runs as root.
        nodes: The Ray node ids to use; by default every node alive at entry.

    Raises:
        TypeError: An argument has the wrong type.
        ValueError: ``size`` is negative, ``uid_range`` unusable or ``nodes`` empty.
    """

    def __init__(
        self,
        *,
        limits: Limits = _DEFAULT_LIMITS,
        size: int = 2,
        uid_range: range = DEFAULT_UID_RANGE,
        nodes: Sequence[str] | None = None,
    ) -> None:
        if not isinstance(limits, Limits):
            raise TypeError(f"RayPool limits must be a Limits; got limits={limits!r}")
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"RayPool size must be an int; got size={size!r}")
        if size < 0:
            raise ValueError(f"RayPool size must be 0 or more; got size={size!r}")
        chosen = None if nodes is None else tuple(nodes)
        if chosen is not None:
            if isinstance(nodes, str) or not all(isinstance(n, str) for n in chosen):
                raise TypeError(
                    f"RayPool nodes must be a sequence of node id strings; got nodes={nodes!r}"
                )
            if not chosen:
                raise ValueError("RayPool nodes must name at least one node; got nodes=()")
        self._limits = limits
        self._size = size
        self._uid_range = check_uid_range(uid_range)
        self._chosen = chosen
        self._nodes: list[RemoteNode] = []
        self._layers: dict[Limits, Layers] = {}
        self._open = False
        self._entered = False
        # Set when a run ends (or the pool closes): runs waiting for room look again.
        self._room: anyio.Event | None = None

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> Self:
        if self._entered:
            raise RuntimeError("this RayPool is already open; a pool can be entered once")
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            raise RuntimeError(
                "RayPool runs on asyncio (Ray's references are asyncio futures); "
                "open it in an asyncio event loop"
            ) from None
        ray = import_ray()
        if not ray.is_initialized():
            raise RuntimeError(
                "connect to Ray before opening a RayPool: ray.init() starts a local "
                "runtime, ray.init(address='auto') joins the cluster this machine is in"
            )
        self._entered = True
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        alive = [str(n["NodeID"]) for n in ray.nodes() if n.get("Alive")]
        if self._chosen is None:
            targets = alive
        else:
            missing = [n for n in self._chosen if n not in alive]
            if missing:
                raise ValueError(
                    f"RayPool nodes {missing} are not alive nodes of this Ray cluster; "
                    f"alive: {alive}"
                )
            targets = list(self._chosen)
        node_class = _node_actor_class()
        actors = [
            node_class.options(
                scheduling_strategy=NodeAffinitySchedulingStrategy(node_id, soft=False),
                num_cpus=0,
                max_restarts=0,
                max_concurrency=_RUNS_PER_NODE + _CONTROL_SLOTS,
            ).remote(self._limits, self._size, self._uid_range)
            for node_id in targets
        ]
        reports: list[NodeReport | BaseException] = [RuntimeError("not opened")] * len(actors)

        async def open_one(index: int) -> None:
            try:
                reports[index] = await actors[index].open.remote()
            except Exception as exc:
                reports[index] = exc

        try:
            with anyio.fail_after(_OPEN_SECONDS):
                async with anyio.create_task_group() as group:
                    for index in range(len(actors)):
                        group.start_soon(open_one, index)
        except BaseException:
            for actor in actors:
                ray.kill(actor)
            raise
        failed = [
            f"node {node_id}: {type(report).__name__}: {report}"
            for node_id, report in zip(targets, reports, strict=True)
            if isinstance(report, BaseException)
        ]
        if failed:
            for actor in actors:
                ray.kill(actor)
            raise RuntimeError(
                "the sandbox could not start on every node (is codemode installed there?): "
                + "; ".join(failed)
            )
        for actor, report in zip(actors, reports, strict=True):
            assert not isinstance(report, BaseException)
            self._nodes.append(RemoteNode(actor, report, report.statistics))
        self._layers[self._limits] = _combined([(n.report.layers, n) for n in self._nodes])
        self._open = True
        return self

    async def __aexit__(self, *exc_info: object) -> bool | None:
        self._open = False
        self._wake_waiting_runs()
        ray = import_ray()
        with anyio.CancelScope(shield=True):

            async def close_one(node: RemoteNode) -> None:
                with anyio.move_on_after(_CLOSE_SECONDS):
                    try:
                        await node.actor.close.remote()
                    except Exception as exc:  # a lost node has nothing left to close
                        _logger.debug("closing the sandbox on node %s: %r", node.name, exc)
                ray.kill(node.actor)

            async with anyio.create_task_group() as group:
                for node in self._nodes:
                    if node.lost is None:
                        group.start_soon(close_one, node)
        return None

    # ------------------------------------------------------------------ reporting

    def nodes(self) -> tuple[NodeStatus, ...]:
        """Every node the pool opened on, alive or lost."""
        return tuple(
            NodeStatus(
                node_id=n.report.node_id,
                address=n.report.address,
                actor_pid=n.report.pid,
                alive=n.lost is None,
                running=n.running,
                statistics=n.statistics,
                lost=n.lost,
            )
            for n in self._nodes
        )

    def statistics(self) -> PoolStatistics:
        """The sum over the nodes of their local pools' statistics.

        Each node's figures are as of the end of its latest run (a lost node's
        as of its last); ``busy`` is this pool's runs in flight.
        """
        fields = dict.fromkeys(PoolStatistics.__dataclass_fields__, 0)
        for node in self._nodes:
            for name in fields:
                fields[name] += getattr(node.statistics, name)
        fields["busy"] = sum(n.running for n in self._nodes)
        return PoolStatistics(**fields)

    def layers(self, limits: Limits | None = None) -> Layers:
        """The protections a run with ``limits`` gets: those of the nodes' local pools.

        A protection counts as in force only when it is on every live node; a
        reason from one node names it. The first call for limits other than
        the pool's own asks every node (a blocking round trip), later calls
        are answered from memory.

        Raises:
            RuntimeError: The pool is not open.
        """
        limits = self._limits if limits is None else limits
        if not isinstance(limits, Limits):
            raise TypeError(f"layers() limits must be a Limits or None; got limits={limits!r}")
        self._live_or_fail()
        known = self._layers.get(limits)
        if known is None:
            ray = import_ray()
            live = [n for n in self._nodes if n.lost is None]
            per_node = ray.get([n.actor.layers.remote(limits) for n in live], timeout=_OPEN_SECONDS)
            known = self._layers[limits] = _combined(list(zip(per_node, live, strict=True)))
        return known

    # ------------------------------------------------------------------ running

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
        """Run one program on the least-loaded live node and return its result.

        Arguments, result and cancellation are those of :meth:`WorkerPool.run
        <sandbox.WorkerPool.run>`; the program's tool calls are served by
        ``handler`` here, in the caller's process, and its printed lines reach
        ``on_output`` here while it runs. A run whose node is lost
        ends as ``worker-exit`` with a message naming the node; one whose node
        turns out to be lost before the run reached it goes to another node
        (it never started), and with every node lost the run ends as
        ``worker-exit`` at once.

        Raises:
            TypeError: An argument has the wrong type.
            RuntimeError: The pool is not open.
        """
        limits, names, checked = checked_run_arguments(
            default_limits=self._limits,
            source=source,
            tool_names=tool_names,
            handler=handler,
            abort=abort,
            limits=limits,
            signatures=signatures,
            on_output=on_output,
        )
        if not self._open:
            raise RuntimeError("open the RayPool first: `async with RayPool(...) as pool`")
        started = time.perf_counter()
        while True:
            live = [n for n in self._nodes if n.lost is None]
            if not live:
                lost = "; ".join(f"{n.name}: {n.lost}" for n in self._nodes)
                return RunResult(
                    None, (),
                    RunError("worker-exit", f"every node of this RayPool has been lost ({lost})"),
                    self._layers[self._limits], time.perf_counter() - started, 0.0, None,
                )
            with_room = [n for n in live if n.running < _RUNS_PER_NODE]
            if not with_room:
                reason = await self._wait_for_room(abort)
                if reason is not None:
                    return RunResult(
                        None, (), RunError("abort", reason),
                        self._layers[self._limits], time.perf_counter() - started, 0.0, None,
                    )
                continue
            # Fewest runs in flight; among equals, the one given fewest so far.
            node = min(with_room, key=lambda n: (n.running, n.placed))
            node.running += 1
            node.placed += 1
            try:
                result = await self._drive(
                    node, source, names, handler, abort, limits, checked, started, on_output
                )
            finally:
                node.running -= 1
                self._wake_waiting_runs()
            # A run whose node was lost before the run reached it never started
            # (it made no call): it goes to another node.
            if result is not None:
                return result

    async def _wait_for_room(self, abort: AbortCallback | None) -> str | None:
        """Wait until a run ends (or the pool closes); the abort's reason if it came first."""
        room = self._room
        if room is None:
            room = self._room = anyio.Event()
        reason: str | None = None
        async with anyio.create_task_group() as waiting:

            async def watch_abort(abort: AbortCallback) -> None:
                nonlocal reason
                try:
                    said = await abort()
                except Exception as exc:
                    said = f"the abort callback failed: {type(exc).__name__}: {exc}"
                reason = said if isinstance(said, str) and said else "aborted"
                waiting.cancel_scope.cancel()

            if abort is not None:
                waiting.start_soon(watch_abort, abort)
            await room.wait()
            waiting.cancel_scope.cancel()
        if reason is None and not self._open:
            reason = "the Ray pool was closed"
        return reason

    def _wake_waiting_runs(self) -> None:
        room, self._room = self._room, None
        if room is not None:
            room.set()

    def _live_or_fail(self) -> list[RemoteNode]:
        if not self._open:
            raise RuntimeError("open the RayPool first: `async with RayPool(...) as pool`")
        live = [n for n in self._nodes if n.lost is None]
        if not live:
            lost = "; ".join(f"{n.name}: {n.lost}" for n in self._nodes)
            raise RuntimeError(f"every node of this RayPool has been lost ({lost})")
        return live

    async def _drive(
        self,
        node: RemoteNode,
        source: str,
        names: tuple[str, ...],
        handler: CallHandler,
        abort: AbortCallback | None,
        limits: Limits,
        signatures: tuple[ToolSignature, ...] | None,
        started: float,
        on_output: OutputCallback | None,
    ) -> RunResult | None:
        """The run's result, or ``None`` if the node was lost before the run reached it."""
        run_id = uuid.uuid4().hex
        stream = node.actor.run.options(num_returns="streaming").remote(
            run_id,
            source,
            names,
            None if limits == self._limits else limits,
            signatures,
            on_output is not None,
        )
        outcome: tuple[RunResult, PoolStatistics] | RunError | NotStarted | None = None
        try:
            async with anyio.create_task_group() as calls:
                if abort is not None:
                    calls.start_soon(forward_abort, abort, node, run_id)
                with anyio.move_on_after(limits.wall_seconds + _NODE_SILENCE_SECONDS) as silence:
                    outcome = await serve_stream(stream, node, run_id, handler, calls, on_output)
                calls.cancel_scope.cancel()
        except BaseException:
            with anyio.CancelScope(shield=True):
                await stop_run(stream, node, run_id, "the run was cancelled by its caller")
            raise
        if isinstance(outcome, NotStarted):
            return None
        if outcome is None and silence.cancelled_caught:  # the node stopped answering
            await stop_run(stream, node, run_id, "the node did not answer in time")
            outcome = RunError(
                "timeout",
                f"wall-clock limit of {format_seconds(limits.wall_seconds)} reached "
                f"(Limits.wall_seconds); the Ray node {node.name} did not report the end of "
                f"the run within {format_seconds(_NODE_SILENCE_SECONDS)} more",
            )
        elif outcome is None:  # the stream ended early: no wall clock was reached
            await stop_run(stream, node, run_id, "the run's stream ended without its outcome")
            outcome = RunError(
                "worker-exit",
                f"the Ray node {node.name} ended the run's stream without reporting its "
                "outcome",
            )
        if isinstance(outcome, RunError):
            return RunResult(
                None,
                (),
                outcome,
                self._layers.get(limits) or node.report.layers,
                time.perf_counter() - started,
                0.0,
                None,
            )
        result, node.statistics = outcome
        # The caller's wall clock: what the run cost it, Ray's round trips included.
        return dataclasses.replace(result, wall_seconds=time.perf_counter() - started)


def _combined(per_node: Sequence[tuple[Layers, RemoteNode]]) -> Layers:
    """The layers every node has: a protection is in force only where it is on all.

    Nodes that agree give their common layers; otherwise each reason names its node.
    """
    first = per_node[0][0]
    if all(layers == first for layers, _ in per_node):
        return first
    reasons = [
        f"{reason} (on Ray node {node.name})"
        for layers, node in per_node
        for reason in layers.reasons
    ]
    def weakest(name: str) -> int | None:
        values = [getattr(layers, name) for layers, _ in per_node]
        return None if None in values else min(values)

    return Layers(
        **{name: all(getattr(layers, name) for layers, _ in per_node) for name in _PROTECTIONS},
        reasons=tuple(reasons),
        cpu_seconds=weakest("cpu_seconds"),
        memory_bytes=weakest("memory_bytes"),
        max_open_files=weakest("max_open_files"),
    )


_NODE_ACTOR: list[Any] = []


def _node_actor_class() -> Any:
    """The Ray actor class of the node side, made on first use."""
    if not _NODE_ACTOR:
        ray = import_ray()
        from sandbox._ray._node import NodeSandbox

        _NODE_ACTOR.append(ray.remote(NodeSandbox))
    return _NODE_ACTOR[0]
