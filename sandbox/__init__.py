"""Runs model-written Python in a restricted, resource-limited child process.

Three layers: a language layer (RestrictedPython with the project's policy), a
tripwire (an audit hook in the child that ends the run as ``sandbox-violation``
at the first event a program never needs) and an OS layer (a fresh child per
program with rlimits, an unprivileged uid, ``no_new_privs`` and a seccomp
filter). :class:`WorkerPool` keeps children warm so that start-up is off the
request path; :class:`RayPool` (the ``ray`` extra) runs them on the nodes of a
Ray cluster instead. Both implement :class:`Pool`, the interface callers use::

    from sandbox import Limits, WorkerPool

    async with WorkerPool(limits=Limits(wall_seconds=10)) as pool:
        result = await pool.run("return 1 + 1", tool_names=[], handler=handler)
        assert result.value == 2

The names below are loaded on first use (PEP 562): the child process imports
``sandbox`` modules too, and must not pull in the host side (anyio, the pool,
``bridge.host``) by importing this package.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from bridge.host import CallHandler as CallHandler
    from bridge.host import CallReply as CallReply
    from bridge.host import OutputCallback as OutputCallback
    from bridge.host import ToolCallFailed as ToolCallFailed
    from bridge.protocol import ToolSignature as ToolSignature
    from sandbox._calls import CallProblem as CallProblem
    from sandbox._calls import check_tool_calls as check_tool_calls
    from sandbox._compile import ProgramCompileError as ProgramCompileError
    from sandbox._config import Layers as Layers
    from sandbox._config import Limits as Limits
    from sandbox._config import PoolStatistics as PoolStatistics
    from sandbox._config import RunError as RunError
    from sandbox._config import RunResult as RunResult
    from sandbox._facades import ALLOWED_MODULES as ALLOWED_MODULES
    from sandbox._pool import WorkerPool as WorkerPool
    from sandbox._pool_interface import AbortCallback as AbortCallback
    from sandbox._pool_interface import AbortSource as AbortSource
    from sandbox._pool_interface import Pool as Pool
    from sandbox._ray import NodeStatus as NodeStatus
    from sandbox._ray import RayPool as RayPool
    from sandbox._reclaim import remove_tree as remove_tree

__all__ = [
    "ALLOWED_MODULES",
    "AbortCallback",
    "AbortSource",
    "CallHandler",
    "CallProblem",
    "CallReply",
    "Layers",
    "Limits",
    "NodeStatus",
    "OutputCallback",
    "Pool",
    "PoolStatistics",
    "ProgramCompileError",
    "RayPool",
    "RunError",
    "RunResult",
    "ToolCallFailed",
    "ToolSignature",
    "WorkerPool",
    "check_tool_calls",
    "remove_tree",
]

_HOMES: Final[dict[str, str]] = {
    "ALLOWED_MODULES": "sandbox._facades",  # the module names a program may import
    "AbortCallback": "sandbox._pool_interface",
    "AbortSource": "sandbox._pool_interface",
    "CallHandler": "bridge.host",
    "CallReply": "bridge.host",
    "CallProblem": "sandbox._calls",
    "Layers": "sandbox._config",
    "Limits": "sandbox._config",
    "NodeStatus": "sandbox._ray",
    "OutputCallback": "bridge.host",
    "Pool": "sandbox._pool_interface",
    "PoolStatistics": "sandbox._config",
    "ProgramCompileError": "sandbox._compile",
    "RunError": "sandbox._config",
    "RayPool": "sandbox._ray",  # the ray extra; Ray itself is imported when a pool opens
    "RunResult": "sandbox._config",
    "ToolCallFailed": "bridge.host",
    "ToolSignature": "bridge.protocol",
    "WorkerPool": "sandbox._pool",
    "check_tool_calls": "sandbox._calls",
    "remove_tree": "sandbox._reclaim",  # a directory tree hostile code may have shaped
}


def __getattr__(name: str) -> object:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'sandbox' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    if (
        home.startswith("sandbox.")
        and isinstance(value, type)
        and home not in ("sandbox._compile", "sandbox._calls")
    ):
        # Show the public path in reprs and tracebacks (sandbox.Limits).
        value.__module__ = "sandbox"
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *__all__])
