"""Test aids for code that uses the sandbox pool (host side; not imported by ``sandbox``).

* :func:`probing_pool`: a :class:`~sandbox.WorkerPool` whose programs get an
  ``os_probe`` dict describing their process (status, limits, descriptors,
  working directory, environment) as it was just before the seccomp filter
  went in, since a program cannot open ``/proc`` itself once the filter is in
  force; optionally without the filter, to show what the kernel alone allows.
* :func:`wait_for_idle`: wait, without sleeping, until the pool has warm children.
* :func:`wait_reaped`: wait, without sleeping, until the pool's zygote has reaped a child.
* :func:`zygote_pid`: the pid of the pool's zygote, to kill it in a test.
* :func:`idle_child_pids`: the pids of the warm children, in the order runs take them.
* :class:`EchoHandler`: a :class:`~sandbox.CallHandler` that records calls and
  returns their arguments.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, final

from bridge.host import ToolCallFailed
from sandbox._config import Limits
from sandbox._pool import WorkerPool
from sandbox._uids import DEFAULT_UID_RANGE

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

__all__ = [
    "EchoHandler",
    "idle_child_pids",
    "probing_pool",
    "wait_for_idle",
    "wait_reaped",
    "zygote_pid",
]


def probing_pool(
    *,
    limits: Limits | None = None,
    size: int = 1,
    uid_range: range = DEFAULT_UID_RANGE,
    seccomp: bool = True,
    pidfd_of: int = 0,
) -> WorkerPool:
    """A pool whose programs see ``os_probe`` (a dict) among their globals.

    Args:
        limits: The pool's limits (``Limits()`` by default).
        size: Warm children kept.
        uid_range: The uids its children drop to (when the host is root).
        seccomp: ``False`` applies every protection of the OS layer except the
            seccomp filter, to show what the kernel alone lets a child do.
        pidfd_of: A pid the child opens a pidfd for before its filter, handed
            to the program as ``os_probe_pidfd`` (0 for none).
    """
    pool = WorkerPool(limits=Limits() if limits is None else limits, size=size, uid_range=uid_range)
    pool._probe = True
    pool._seccomp = seccomp
    pool._probe_pidfd = pidfd_of
    return pool


async def wait_for_idle(pool: WorkerPool, count: int) -> None:
    """Return once ``pool`` has at least ``count`` warm children.

    Put a time limit around it (``anyio.fail_after``).
    """
    while pool.statistics().idle < count:
        await pool._idle_changed.wait()


async def wait_reaped(pool: WorkerPool, pid: int) -> None:
    """Return once the pool's zygote has reaped its child ``pid`` (at once if it has).

    Once it returns, the child itself is gone: any process still in its process
    group outlived it. Put a time limit around it (``anyio.fail_after``).
    """
    zygote = pool._zygote
    child = None if zygote is None else zygote.children.get(pid)
    if child is not None:
        await child.exited.wait()


def zygote_pid(pool: WorkerPool) -> int | None:
    """The pid of the pool's running zygote, or ``None`` while it restarts."""
    zygote = pool._zygote
    return None if zygote is None else zygote.ready.pid


def idle_child_pids(pool: WorkerPool) -> list[int]:
    """The pids of the pool's warm children; the next run takes the first that fits."""
    return [child.pid for child in pool._idle]


@final
class EchoHandler:
    """Records every call; returns ``args`` back, or fails for tool ``"fail"``."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, JsonValue]] = []

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        """Record the call and echo its arguments."""
        self.calls.append((name, args))
        if name == "fail":
            raise ToolCallFailed("the tool failed on purpose", code="TEST_FAILURE")
        return args
