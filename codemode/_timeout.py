"""The shipped around-dispatch wrapper that enforces a tool's ``timeout``.

:class:`~codemode._hooks.Hooks` installs :func:`enforce_timeout` by default, so
every call - direct or nested under ``run_code`` - of a tool that declares
``timeout`` (seconds) gets a deadline. When it expires the wrapper aborts the
signal the body observes, still waits for the body to settle (same-process code
cannot be killed), and reports ``TOOL_TIMEOUT``.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import msgspec

from ._errors import ToolTimeoutError
from ._results import failure_from_exception
from ._signal import AbortSignal, fuse

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

    from ._execution import DispatchExecution
    from ._results import ToolResult

__all__ = ["enforce_timeout"]


async def enforce_timeout(
    dispatch: DispatchExecution, next: Callable[[], Awaitable[ToolResult]]
) -> ToolResult:
    """Run the rest of the dispatch under the tool's ``timeout``, if it declares one.

    The deadline is delivered as a replacement signal (the caller's signal stays
    fused in). A timed-out call becomes a ``TOOL_TIMEOUT`` failure that keeps the
    contexts the body deferred; if the caller aborted first, the outcome is left
    for the pipeline's own cancellation rules.
    """
    seconds = getattr(dispatch.tool, "timeout", None)
    if seconds is None:
        return await next()
    outer = dispatch.signal
    deadline = AbortSignal()
    fused, release = fuse(outer, deadline)
    timed_out = False

    def expire() -> None:
        nonlocal timed_out
        if not outer.aborted:
            timed_out = True
            deadline.abort(f"tool call timed out after {seconds:g}s")

    dispatch.signal = fused
    # A loop timer, not a task sleeping in a task group: the deadline only has
    # to abort a signal, and a task group with a task to cancel cost about
    # 80 µs on every call of a tool that declares a timeout.
    timer = asyncio.get_running_loop().call_later(seconds, expire)
    try:
        result = await next()
    except Exception as exc:
        result = failure_from_exception(exc)
    finally:
        timer.cancel()
        dispatch.signal = outer
        release()
    if timed_out:
        timeout = failure_from_exception(ToolTimeoutError(seconds))
        return msgspec.structs.replace(timeout, additional_contexts=result.additional_contexts)
    return result
