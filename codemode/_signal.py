"""The caller-owned cancellation signal every tool execution carries.

An :class:`AbortSignal` is a one-shot flag with a reason. Whoever starts work
owns the signal and aborts it; the work checks :attr:`AbortSignal.aborted`
(a plain attribute read), awaits :meth:`AbortSignal.wait`, registers a callback
with :meth:`AbortSignal.on_abort`, or lets :meth:`AbortSignal.cancel_scope`
turn the abort into anyio cancellation of the enclosed work.

The signal is not thread-safe: abort it from the event loop's thread (use
``anyio.from_thread.run_sync`` from a worker thread).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Final, final

import anyio

__all__ = ["AbortCallback", "AbortSignal"]

_logger: Final = logging.getLogger("codemode")

#: What :meth:`AbortSignal.on_abort` calls, with no arguments (read ``reason`` if needed).
AbortCallback = Callable[[], object]


@final
class AbortSignal:
    """A one-shot cancellation flag with a reason, owned by the caller.

    ``abort()`` is idempotent and the first reason wins. Callbacks run once, in
    registration order, when the signal aborts; one that raises is logged and
    the others still run.

    Example::

        signal = AbortSignal()
        with signal.cancel_scope():
            await long_running_work()   # cancelled as soon as someone aborts

        result = await registry.execute(CallInput("call-1", "search", {}, signal))
    """

    __slots__ = ("_callbacks", "_event", "_next_key", "_reason")

    def __init__(self) -> None:
        self._reason: str | None = None
        self._callbacks: dict[int, AbortCallback] | None = {}
        self._next_key = 0
        self._event: anyio.Event | None = None

    def __repr__(self) -> str:
        if self._reason is None:
            return "<AbortSignal pending>"
        return f"<AbortSignal aborted reason={self._reason!r}>"

    @property
    def aborted(self) -> bool:
        """Whether the signal has been aborted."""
        return self._reason is not None

    @property
    def reason(self) -> str | None:
        """The first reason given to :meth:`abort`, or ``None`` while pending."""
        return self._reason

    def abort(self, reason: str = "aborted") -> None:
        """Abort the signal: wake waiters and run every callback once.

        Args:
            reason: why the work is being abandoned; kept only from the first call.

        Raises:
            TypeError: if ``reason`` is not a ``str``.
        """
        if type(reason) is not str:
            raise TypeError(f"abort reason must be a str, got reason={reason!r}")
        if self._reason is not None:
            return
        self._reason = reason
        callbacks, self._callbacks = self._callbacks, None
        if self._event is not None:
            self._event.set()
        for callback in (callbacks or {}).values():
            _run_callback(callback)

    async def wait(self) -> None:
        """Return once the signal is aborted (at once if it already is)."""
        if self._reason is not None:
            return
        if self._event is None:
            # Created lazily: an anyio Event can only be made inside a running loop,
            # and a signal is often built (and aborted) outside one.
            self._event = anyio.Event()
        await self._event.wait()

    def on_abort(self, callback: AbortCallback) -> Callable[[], None]:
        """Call ``callback()`` when the signal aborts.

        If the signal is already aborted the callback runs now, before this
        returns, so no abort is ever missed.

        Args:
            callback: a synchronous callable; an exception it raises is logged.

        Returns:
            A disposer that unregisters the callback; calling it again, or after
            the abort, does nothing.

        Raises:
            TypeError: if ``callback`` is not callable.
        """
        if not callable(callback):
            raise TypeError(f"on_abort needs a callable, got callback={callback!r}")
        if self._callbacks is None:
            _run_callback(callback)
            return _noop
        key = self._next_key
        self._next_key += 1
        self._callbacks[key] = callback

        def dispose() -> None:
            if self._callbacks is not None:
                self._callbacks.pop(key, None)

        return dispose

    @contextmanager
    def cancel_scope(self) -> Iterator[anyio.CancelScope]:
        """Cancel the enclosed anyio work when the signal aborts.

        The block runs inside a fresh :class:`anyio.CancelScope`; an abort (also
        one that happened before entry) cancels it, and the cancellation is
        absorbed when the block exits, as anyio does for any cancelled scope.
        Check :attr:`aborted` afterwards to tell an abort from normal completion.

        Yields:
            The cancel scope, e.g. to inspect ``cancelled_caught``.
        """
        with anyio.CancelScope() as scope:
            dispose = self.on_abort(scope.cancel)
            try:
                yield scope
            finally:
                dispose()

    @classmethod
    def any(cls, *signals: AbortSignal) -> AbortSignal:
        """A signal that aborts, with the same reason, as soon as any of ``signals`` does.

        If one of them is already aborted, the result is aborted with the reason
        of the first such signal in argument order.

        Raises:
            TypeError: if an argument is not an :class:`AbortSignal`.
        """
        fused, _release = fuse(*signals)
        return fused

    @classmethod
    def aborted_with(cls, reason: str) -> AbortSignal:
        """A signal that is already aborted with ``reason``."""
        signal = cls()
        signal.abort(reason)
        return signal


def fuse(*signals: AbortSignal) -> tuple[AbortSignal, Callable[[], None]]:
    """Like :meth:`AbortSignal.any`, also returning a release function.

    Calling the release function detaches the fused signal from its sources, so
    a long-lived source does not keep one callback per short-lived fusion. The
    fusion releases itself when it aborts.
    """
    for position, signal in enumerate(signals):
        if not isinstance(signal, AbortSignal):
            raise TypeError(
                f"AbortSignal.any takes AbortSignal objects; argument {position} is {signal!r}"
            )
    fused = AbortSignal()
    for signal in signals:
        if signal._reason is not None:
            fused.abort(signal._reason)
            return fused, _noop
    disposers = [signal.on_abort(partial(_follow, fused, signal)) for signal in signals]

    def release() -> None:
        for dispose in disposers:
            dispose()

    fused.on_abort(release)
    return fused, release


def _follow(fused: AbortSignal, source: AbortSignal) -> None:
    fused.abort(source._reason or "aborted")


def _run_callback(callback: AbortCallback) -> None:
    try:
        callback()
    except Exception:
        # A broken listener must not stop the abort from reaching the others.
        _logger.exception("an AbortSignal callback raised; the abort continues")


def _noop() -> None:
    return None
