"""One run's stream on the caller's side: the node's items in, the caller's answers out.

:func:`serve_stream` reads what a node actor's ``run`` yields (see
``sandbox._ray._node``): it hands each printed batch to ``on_output``, starts
one :func:`answer` task per call, in item order (the items of a batch at once),
and returns the node's result, or says the node was lost (before or after the
run reached it).
:func:`forward_abort` and :func:`stop_run` end a run early on its node.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, final

import anyio
import anyio.to_thread

from bridge.host import ToolCallFailed, encode_tool_value, is_delivered_cancellation
from bridge.lossless import LossyJsonError
from sandbox._config import RunError

if TYPE_CHECKING:
    from anyio.abc import TaskGroup

    from bridge.host import CallHandler, OutputCallback
    from sandbox._config import PoolStatistics, RunResult
    from sandbox._pool_interface import AbortCallback
    from sandbox._ray._node import CallOutcome, NodeReport

__all__ = [
    "NotStarted",
    "RemoteNode",
    "answer",
    "forward_abort",
    "import_ray",
    "serve_stream",
    "stop_run",
]

_logger: Final = logging.getLogger("sandbox.ray")

#: Time a cancelled run gives the node to confirm that the child ended.
_CANCEL_SECONDS: Final = 30.0


@dataclass(slots=True)
class RemoteNode:
    """One node of a pool as the caller tracks it: its actor, report and load."""

    actor: Any  # a Ray actor handle (Ray ships no type for one)
    report: NodeReport
    statistics: PoolStatistics
    running: int = 0
    placed: int = 0
    lost: str | None = None

    @property
    def name(self) -> str:
        return f"{self.report.node_id} ({self.report.address})"


@final
class NotStarted:
    """The node was lost before the run reached it."""


async def serve_stream(
    stream: Any,
    node: RemoteNode,
    run_id: str,
    handler: CallHandler,
    calls: TaskGroup,
    on_output: OutputCallback | None,
) -> tuple[RunResult, PoolStatistics] | RunError | NotStarted:
    """Read the node's items, serving calls, until its result (or the node's loss)."""
    ray = import_ray()
    reached = False
    try:
        async for reference in stream:
            received = await reference
            for item in received[1] if received[0] == "batch" else (received,):
                if item[0] == "started":
                    reached = True
                elif item[0] == "output":
                    if on_output is not None:
                        try:
                            on_output(item[1])
                        except Exception:
                            # As the local endpoint does: the listener's bug must not end the run.
                            on_output = None
                            _logger.exception(
                                "the output callback raised; it gets no more lines of this run"
                            )
                elif item[0] == "call":
                    _, call_id, name, args = item
                    calls.start_soon(answer, handler, node, run_id, call_id, name, args)
                else:
                    _, result, statistics = item
                    return result, statistics
    except ray.exceptions.RayError as exc:
        if isinstance(exc, ray.exceptions.RayTaskError):
            raise exc.as_instanceof_cause() from None  # a fault of the node's code: say so
        node.lost = f"{type(exc).__name__}: {first_line(exc)}"
        _logger.warning("lost the sandbox on Ray node %s: %s", node.name, node.lost)
        if not reached:
            return NotStarted()
        return RunError(
            "worker-exit",
            f"the Ray node {node.name} running the program was lost "
            f"({type(exc).__name__}); its sandbox child ended with it. Later runs go to the "
            "pool's live nodes",
        )
    raise RuntimeError(f"the Ray node {node.name} ended the run without a result")


async def answer(
    handler: CallHandler, node: RemoteNode, run_id: str, call_id: int, name: str, args: Any
) -> None:
    """Serve one call with the caller's handler; send the answer to the node."""
    outcome: CallOutcome
    try:
        value = await handler.call_tool(name, args)
    except ToolCallFailed as exc:
        outcome = ("failed", exc.message, exc.code, exc.exception_type)
    except BaseException as exc:
        if is_delivered_cancellation(exc):
            raise
        # As the local endpoint does: the program learns nothing of the exception.
        _logger.exception("tool %r raised while serving a sandboxed program", name)
        outcome = ("failed", f'internal error in tool "{name}"', None, None)
    else:
        try:
            # Checked here so that only lossless JSON travels (and pickles); a
            # large value off the event loop, as the local endpoint does.
            await encode_tool_value(value)
            outcome = ("value", value)
        except LossyJsonError as exc:
            outcome = (
                "failed", f'tool "{name}" returned a value that is not lossless JSON: {exc}',
                None, None,
            )
    try:
        node.actor.reply.remote(run_id, call_id, outcome)
    except Exception:  # the value would not travel (pickling): the program is told, not hurt
        _logger.exception("sending the value of tool %r to Ray node %s failed", name, node.name)
        failed: CallOutcome = (
            "failed", f'the value of tool "{name}" could not be sent to the sandbox', None, None
        )
        node.actor.reply.remote(run_id, call_id, failed)


async def forward_abort(abort: AbortCallback, node: RemoteNode, run_id: str) -> None:
    try:
        reason = await abort()
    except Exception as exc:
        reason = f"the abort callback failed: {type(exc).__name__}: {exc}"
    node.actor.abort.remote(run_id, reason if isinstance(reason, str) and reason else "aborted")


async def stop_run(stream: Any, node: RemoteNode, run_id: str, reason: str) -> None:
    """End a run on its node and wait (briefly) for the node to confirm."""
    if node.lost is not None:
        return
    try:
        node.actor.abort.remote(run_id, reason)
        with anyio.move_on_after(_CANCEL_SECONDS):
            async for reference in stream:
                item = await reference
                if item[0] == "done":
                    node.statistics = item[2]
                    return
    except Exception as exc:
        _logger.debug("stopping run %s on node %s: %r", run_id, node.name, exc)


def first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else ""


def import_ray() -> Any:
    try:
        import ray
    except ImportError as exc:
        raise ImportError(
            "RayPool needs Ray: install the extra with `pip install codemode[ray]`"
        ) from exc
    return ray
