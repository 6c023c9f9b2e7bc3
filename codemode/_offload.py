"""Linear work on values from outside, kept off the event loop when it is long.

A sandboxed program chooses the size of its tool arguments and of its result,
up to the frame cap (16 MiB): checking, copying and validating such a value in
Python takes about a microsecond per item, so one call with hundreds of
thousands of items would hold the event loop, and every other run on it, for
seconds. Work on a value that weighs at most :data:`INLINE_NODES` values runs
inline (a thread hop would cost more than the work); anything larger runs in a
worker thread, and the loop keeps serving while it does. The weight counts
the characters of strings too (:func:`~bridge.lossless.fits_inline`, the
host's one inline rule): one long string is as much work as many values.

Work in a worker thread cannot be cancelled, but it can be told to stop: while
it runs, :func:`stop_flag` returns an event that is set as soon as nobody waits
for its result any more (the caller was cancelled: the run's wall clock, its
abort). Long walks (schema validation) check it every so many items and raise
:class:`WorkAbandoned`, so an abandoned run leaves no thread burning the host's
CPU after it.
"""

from __future__ import annotations

import threading
from contextvars import ContextVar
from typing import TYPE_CHECKING, TypeVar

import anyio.to_thread

from bridge.lossless import INLINE_NODES, exceeds_nodes, fits_inline, is_snapshot, materialize

if TYPE_CHECKING:
    from collections.abc import Callable

    from bridge.lossless import JsonValue

__all__ = [
    "INLINE_NODES",
    "WorkAbandoned",
    "fits_inline",
    "frozen_snapshot",
    "sized",
    "stop_flag",
]

_T = TypeVar("_T")

#: The stop flag of the :func:`sized` work running in this thread (its context).
_STOP: ContextVar[threading.Event | None] = ContextVar("codemode_offload_stop", default=None)


class WorkAbandoned(Exception):
    """Work in a worker thread stopped because nobody waits for its result any more."""


def stop_flag() -> threading.Event | None:
    """The stop flag of the :func:`sized` work running here, or ``None`` (inline work).

    The event is set once the caller stops waiting; work that checks it raises
    :class:`WorkAbandoned` (its result would be dropped anyway).
    """
    return _STOP.get()


async def sized(value: object, work: Callable[[], _T], *, limit: int = INLINE_NODES) -> _T:
    """Return ``work()``: inline when ``value`` is small, else from a worker thread.

    Small is :func:`~bridge.lossless.fits_inline` (values and characters).
    Work that must stay synchronous (a scheduler's classification of a call)
    uses :func:`fits_inline` to refuse a large value outright instead of walking it.
    Work that costs many times more per value than a copy (describing a value
    a schema refuses) passes a lower ``limit``: the most values, weighed the
    same way, it may do on the loop.

    ``work`` must touch nothing but ``value`` and what it owns (it may run in
    another thread). Cancelling the caller returns at once and drops the
    thread's result; the thread's :func:`stop_flag` is set, so work that checks
    it stops at its next check, and the rest finishes on its own, in time
    bounded by the value's size.
    """
    if fits_inline(value) if limit >= INLINE_NODES else not exceeds_nodes(value, limit):
        return work()
    stop = threading.Event()
    try:
        return await anyio.to_thread.run_sync(_stoppable, stop, work, abandon_on_cancel=True)
    finally:
        stop.set()


def _stoppable(stop: threading.Event, work: Callable[[], _T]) -> _T:
    """Run ``work`` with ``stop`` as its :func:`stop_flag` (in the thread's own context)."""
    token = _STOP.set(stop)
    try:
        return work()
    finally:
        _STOP.reset(token)


async def frozen_snapshot(value: object, *, accept_tuples: bool = False) -> JsonValue:
    """``materialize(value, freeze=True)``, off the event loop when ``value`` is large.

    A snapshot made earlier comes back as it is, at no cost.

    Raises:
        LossyJsonError: as :func:`~bridge.lossless.materialize` does.
    """
    if is_snapshot(value):
        return value  # type: ignore[return-value]
    return await sized(
        value, lambda: materialize(value, freeze=True, accept_tuples=accept_tuples)
    )
