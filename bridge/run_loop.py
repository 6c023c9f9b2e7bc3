"""The event loop a child runs its program on, and the selector that ends each step.

:class:`RunLoop` is asyncio's selector loop without the self-pipe, so that it
holds no descriptor until a channel takes it and can be made in the zygote,
before the fork (:func:`event_loop_ahead`). Its selector hands each wait to
the channel first: the calls a step held back go out, a wait for a reply polls
before it blocks, and replies are read before the loop runs its callbacks.
The channel is :class:`bridge.child.ChildChannel`, known here only as a
:class:`StepChannel`.

Import cost matters here (the zygote imports this module before forking), and
the module must not import anything from the host side.
"""

from __future__ import annotations

import asyncio
import selectors
import time
from typing import TYPE_CHECKING, Final, Protocol, TypeVarTuple, Unpack

if TYPE_CHECKING:
    import contextvars
    from collections.abc import Callable, Mapping

    from _typeshed import FileDescriptorLike

__all__ = ["RunLoop", "StepChannel", "event_loop_ahead"]

_Ts = TypeVarTuple("_Ts")


class StepChannel(Protocol):
    """What the run loop's selector asks of the channel at each wait."""

    def end_step(self) -> bool:
        """The step is over (send what it held back); whether the wait must only poll."""
        ...

    def reply_poll_seconds(self) -> float | None:
        """How long the wait polls before it blocks; ``None`` if no call waits for a reply."""
        ...

    def waited(self, seconds: float) -> None:
        """A wait for a reply found something after ``seconds``, or polled them in vain."""
        ...

    def read_replies(
        self, ready: list[tuple[selectors.SelectorKey, int]]
    ) -> list[tuple[selectors.SelectorKey, int]]:
        """Read the host's frames if the wait found them; return the rest of ``ready``."""
        ...


def event_loop_ahead() -> RunLoop:
    """A loop for :meth:`bridge.child.ChildChannel.new_event_loop`, made before its channel exists.

    It holds no descriptor and no kernel object until a channel takes it, so
    one made in the zygote is, after the fork, each child's own copy, and
    asyncio's set-up code runs once there instead of in every child (a loop
    made in a fresh child wrote about 150 pages that the zygote shares; one
    taken from the zygote, about 70: its epoll, its reader and its own
    objects; measured with ``ru_minflt``).
    """
    return RunLoop(_StepSelector())


class RunLoop(asyncio.SelectorEventLoop):
    """The run's event loop: asyncio's selector loop without its self-pipe.

    The self-pipe wakes a loop from another thread, or from a signal handler
    installed with ``add_signal_handler``. A child has one thread and installs
    its handlers with :func:`signal.signal` (they write their frames
    themselves), and asyncio's own thread-safe scheduling (the finaliser of an
    async generator) runs on this thread, between two waits: nothing would
    ever need to wake the loop. Without it the loop opens no descriptor, so it
    can be made before the fork (:func:`event_loop_ahead`): a socket pair made
    in the zygote would be shared by every child. Only for a process with one
    thread: a callback scheduled from another thread would wait for the loop's
    next wake-up.
    """

    @property
    def step_selector(self) -> _StepSelector:
        selector = self._selector  # type: ignore[attr-defined]
        assert isinstance(selector, _StepSelector)
        return selector

    def _make_self_pipe(self) -> None:
        pass

    def _close_self_pipe(self) -> None:
        pass

    def _write_to_self(self) -> None:
        pass

    def call_at(
        self,
        when: float,
        callback: Callable[[Unpack[_Ts]], object],
        *args: *_Ts,
        context: contextvars.Context | None = None,
    ) -> asyncio.TimerHandle:
        # The loop orders its timers in a heap by `when`: a program's number
        # there (a float subclass as a sleep's delay) would run its own
        # comparisons at every later iteration, at moments it does not choose
        # (after its return too). Its value is taken now, as an exact float.
        return super().call_at(float(when), callback, *args, context=context)


_NO_CHANNEL: Final = "this loop has no channel; pass it to ChildChannel.new_event_loop"


class _StepSelector(selectors.BaseSelector):
    """The selector of the run loop: ends each step before the wait.

    asyncio's loop calls ``select`` at the start of each iteration, once the
    callbacks of the one before (a step of every ready task) have run: the
    calls those steps held back go out here, in one write, before the loop may
    block. A wait for a reply polls first (:meth:`bridge.child.ChildChannel.reply_poll_seconds`),
    and the host's frames a wait finds are read before the loop runs its
    callbacks (:meth:`bridge.child.ChildChannel.read_replies`).

    It waits with the platform's selector (``epoll`` on Linux), which it opens
    only when a channel takes its loop (:meth:`open`): a loop made before the
    fork holds no descriptor that the zygote or another child would share.
    """

    def __init__(self) -> None:
        #: The channel whose loop this is, set once by :meth:`open`.
        self.channel: StepChannel | None = None
        self._opened: selectors.BaseSelector | None = None

    def open(self, channel: StepChannel) -> None:
        """Open the platform's selector, in the process that will wait with it."""
        self._opened = selectors.DefaultSelector()
        self.channel = channel

    def _open_selector(self) -> selectors.BaseSelector:
        if self._opened is None:
            raise RuntimeError(_NO_CHANNEL)
        return self._opened

    def register(
        self, fileobj: FileDescriptorLike, events: int, data: object = None
    ) -> selectors.SelectorKey:
        return self._open_selector().register(fileobj, events, data)

    def unregister(self, fileobj: FileDescriptorLike) -> selectors.SelectorKey:
        return self._open_selector().unregister(fileobj)

    def modify(
        self, fileobj: FileDescriptorLike, events: int, data: object = None
    ) -> selectors.SelectorKey:
        return self._open_selector().modify(fileobj, events, data)

    def get_key(self, fileobj: FileDescriptorLike) -> selectors.SelectorKey:
        return self._open_selector().get_key(fileobj)

    def get_map(self) -> Mapping[FileDescriptorLike, selectors.SelectorKey]:
        return self._open_selector().get_map()

    def close(self) -> None:
        if self._opened is not None:
            self._opened.close()

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        # Once per loop iteration: both checked here, without another call.
        channel, opened = self.channel, self._opened
        if channel is None or opened is None:
            raise RuntimeError(_NO_CHANNEL)
        return channel.read_replies(self._wait(channel, opened, timeout))

    def _wait(
        self, channel: StepChannel, opened: selectors.BaseSelector, timeout: float | None
    ) -> list[tuple[selectors.SelectorKey, int]]:
        # The loop chose the timeout before this call: should ending the step
        # schedule callbacks (failed calls), it must only poll.
        if channel.end_step() or (timeout is not None and timeout <= 0):
            return opened.select(0)
        poll = channel.reply_poll_seconds()
        if poll is None:
            return opened.select(timeout)
        started = time.monotonic()
        if poll:
            window = poll if timeout is None else min(poll, timeout)
            while not (ready := opened.select(0)):
                now = time.monotonic()
                if now - started >= window:
                    break
            else:
                channel.waited(time.monotonic() - started)
                return ready
            if window == poll:
                channel.waited(now - started)  # the whole window, in vain
            if timeout is not None:
                timeout = max(0.0, timeout - (now - started))
        ready = opened.select(timeout)
        if ready:
            channel.waited(time.monotonic() - started)
        return ready
