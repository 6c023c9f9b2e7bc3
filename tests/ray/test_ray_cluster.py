"""RayPool on a two-node Ray cluster on this machine: placement and the loss of a node.

``ray.cluster_utils.Cluster`` starts a head node and a worker node, each a
raylet of its own; the GCS is told to notice a dead node within about a second.
The node-loss test removes the worker node, so it comes last.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import anyio
import pytest
import ray
from ray.cluster_utils import Cluster

from sandbox import Limits, RayPool, RunResult
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import Iterator

#: Generous: a guard against a hang on a busy machine, never a timing assertion.
GUARD_SECONDS = 120
LIMITS = Limits(wall_seconds=60)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def cluster() -> Iterator[tuple[Cluster, Any]]:
    """A head node and a worker node, and the worker node's handle."""
    cluster = Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 1,
            "include_dashboard": False,
            "_system_config": {
                "health_check_initial_delay_ms": 0,
                "health_check_period_ms": 500,
                "health_check_failure_threshold": 2,
            },
        },
    )
    try:
        worker = cluster.add_node(num_cpus=1)
        ray.init(address=cluster.address, log_to_driver=False)
        cluster.wait_for_nodes()
        yield cluster, worker
    finally:
        ray.shutdown()
        cluster.shutdown()  # type: ignore[no-untyped-call]


class Gate:
    """A handler whose calls wait until released; ``entered`` is set by the first."""

    def __init__(self) -> None:
        self.entered = anyio.Event()
        self.release = anyio.Event()

    async def call_tool(self, name: str, args: Any) -> Any:
        self.entered.set()
        await self.release.wait()
        return name


async def test_runs_go_to_the_least_loaded_node(cluster: tuple[Cluster, Any]) -> None:
    gates = [Gate(), Gate(), Gate()]
    ended = [anyio.Event(), anyio.Event(), anyio.Event()]
    results: list[RunResult] = []
    with anyio.fail_after(GUARD_SECONDS):
        async with RayPool(limits=LIMITS, size=1) as pool:
            assert len(pool.nodes()) == 2
            async with anyio.create_task_group() as tg:

                async def run(index: int) -> None:
                    results.append(
                        await pool.run(
                            "return await tools.g()", tool_names=["g"], handler=gates[index]
                        )
                    )
                    ended[index].set()

                tg.start_soon(run, 0)
                await gates[0].entered.wait()
                assert sorted(n.running for n in pool.nodes()) == [0, 1]
                tg.start_soon(run, 1)
                await gates[1].entered.wait()
                # The second run went to the node with nothing in flight.
                assert [n.running for n in pool.nodes()] == [1, 1]
                gates[0].release.set()
                await ended[0].wait()
                [_freed] = [n.node_id for n in pool.nodes() if n.running == 0]
                tg.start_soon(run, 2)
                await gates[2].entered.wait()
                # The third went to the node the first run freed.
                assert [n.running for n in pool.nodes()] == [1, 1]
                for gate in gates:
                    gate.release.set()
    assert [r.value for r in results] == ["g", "g", "g"]


async def test_a_run_placed_on_a_dead_actor_goes_to_a_live_node(
    cluster: tuple[Cluster, Any],
) -> None:
    with anyio.fail_after(GUARD_SECONDS):
        async with RayPool(limits=LIMITS, size=1) as pool:
            # The node the next run goes to (fewest runs in flight, then fewest placed).
            target = pool._nodes[0]
            ray.kill(target.actor)
            # Wait until Ray reports the actor dead: a call to it then fails.
            while True:
                try:
                    await target.actor.statistics.remote()
                except ray.exceptions.RayActorError:
                    break
            assert all(n.alive for n in pool.nodes())  # the pool has not noticed yet
            result = await pool.run("return 6 * 7", tool_names=[], handler=EchoHandler())
            assert result.error is None
            assert result.value == 42
            statuses = {n.node_id: n for n in pool.nodes()}
            assert not statuses[target.report.node_id].alive
            assert sum(n.alive for n in pool.nodes()) == 1
            # With no node left, a run ends as worker-exit at once, naming the lost ones.
            ray.kill(next(n for n in pool._nodes if n.lost is None).actor)
            while True:
                last = await pool.run("return 1", tool_names=[], handler=EchoHandler())
                if last.error is not None:
                    break
            assert last.error.kind == "worker-exit"
            assert not any(n.alive for n in pool.nodes())
            after = await pool.run("return 1", tool_names=[], handler=EchoHandler())
            assert after.error is not None
            assert after.error.message.startswith("every node of this RayPool has been lost (")
            assert target.report.node_id in after.error.message


async def test_a_lost_node_ends_its_runs_and_later_runs_go_to_live_nodes(
    cluster: tuple[Cluster, Any],
) -> None:
    the_cluster, worker = cluster
    gates = [Gate(), Gate()]
    results: dict[int, RunResult] = {}
    one_ended = anyio.Event()
    with anyio.fail_after(GUARD_SECONDS):
        async with RayPool(limits=LIMITS, size=1) as pool:
            async with anyio.create_task_group() as tg:

                async def run(index: int) -> None:
                    results[index] = await pool.run(
                        "return await tools.g()", tool_names=["g"], handler=gates[index]
                    )
                    one_ended.set()

                for index in range(2):
                    tg.start_soon(run, index)
                    await gates[index].entered.wait()
                # One run in flight on each node; the worker node goes away.
                assert [n.running for n in pool.nodes()] == [1, 1]
                the_cluster.remove_node(worker, allow_graceful=False)
                await one_ended.wait()
                [(lost_index, lost)] = results.items()
                assert lost.error is not None
                assert lost.error.kind == "worker-exit"
                assert f"the Ray node {worker.node_id}" in lost.error.message
                assert "was lost" in lost.error.message
                # The run on the live node goes on and finishes.
                gates[1 - lost_index].release.set()
            survivor = results[1 - lost_index]
            assert survivor.error is None
            assert survivor.value == "g"
            statuses = {n.node_id: n for n in pool.nodes()}
            assert not statuses[worker.node_id].alive
            assert statuses[worker.node_id].lost is not None
            # Later runs go to the live node.
            for _ in range(2):
                later = await pool.run("return 6 * 7", tool_names=[], handler=EchoHandler())
                assert later.error is None
                assert later.value == 42
            live = [n for n in pool.nodes() if n.alive]
            assert [n.node_id for n in live] != [worker.node_id]
            assert len(live) == 1
