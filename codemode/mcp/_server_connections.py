"""The served side's HTTP connections: how many it holds, and how long one may wait for a request.

uvicorn keeps a connection for as long as its client keeps it open: one that
sends nothing, or a request head a byte at a time, or a refused request's body
a byte at a time, is never closed, and the server holds no more of them than
descriptors allow. A local process (one without the bearer token too: the
token is read from a complete request head) could open idle connections until
the server had no descriptor left, for its own clients, its sandbox children's
pipes or its log, and keep them for as long as it liked, having sent nothing.

The rule: **a connection costs the server a descriptor only while a request on
it is being served.** :func:`bounded_protocol` makes uvicorn's h11 protocol
close a connection that has not sent a complete request head within
:data:`HTTP_HEAD_TIMEOUT` of opening or of its last answer (whatever bytes
arrive meanwhile), and hold at most ``max_connections`` at once: when one more
arrives, the connection that has waited longest without a request in progress
(one that never sent a request before one a client was answered on) is closed
to make room, or, if every connection has one, the new one is.

A request in progress is bounded by its answer being read: a connection whose
client has read none of what the server has to send for
:data:`HTTP_WRITE_TIMEOUT` (its writes paused that long) is closed, so a client
that stops reading an answer (or pipelines requests and reads none of their
answers) does not hold its place for as long as it likes.
"""

from __future__ import annotations

import resource
from typing import TYPE_CHECKING, Final

from uvicorn.protocols.http.h11_impl import H11Protocol

if TYPE_CHECKING:
    import asyncio

__all__ = [
    "HTTP_HEAD_TIMEOUT",
    "HTTP_WRITE_TIMEOUT",
    "MAX_CONNECTIONS",
    "bounded_protocol",
    "connection_limit",
]

#: Seconds a connection may take to send a complete request head, counted from
#: when it opened or its last answer was sent.
HTTP_HEAD_TIMEOUT: Final = 10.0
#: Seconds a connection's writes may stay paused (its client reading nothing of an
#: answer past the transport's high-water mark) before it is closed.
HTTP_WRITE_TIMEOUT: Final = 30.0
#: The most connections a server holds at once (fewer where descriptors are scarce).
MAX_CONNECTIONS: Final = 256


def connection_limit(descriptors: int | None = None) -> int:
    """How many connections a server holds at once: :data:`MAX_CONNECTIONS`, or a
    quarter of the descriptors the process may open (at least 8), whichever is less.

    The other three quarters stay for everything else the server opens: its
    sandbox children's pipes, its log, its spill files.
    """
    if descriptors is None:
        soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
        descriptors = MAX_CONNECTIONS * 4 if soft == resource.RLIM_INFINITY else soft
    return max(8, min(MAX_CONNECTIONS, descriptors // 4))


def bounded_protocol(
    max_connections: int, head_timeout: float | None = None, write_timeout: float | None = None
) -> type[H11Protocol]:
    """uvicorn's h11 protocol, holding at most ``max_connections`` connections, each
    closed once it has waited ``head_timeout`` seconds (default
    :data:`HTTP_HEAD_TIMEOUT`) for a complete request head, or its writes have
    stayed paused for ``write_timeout`` seconds (default :data:`HTTP_WRITE_TIMEOUT`)."""
    timeout = HTTP_HEAD_TIMEOUT if head_timeout is None else head_timeout
    stall = HTTP_WRITE_TIMEOUT if write_timeout is None else write_timeout

    class BoundedH11Protocol(H11Protocol):
        # When this connection started waiting for a request head (the loop's
        # clock), or None while a request on it is in progress.
        _waiting_since: float | None = None
        _head_timer: asyncio.TimerHandle | None = None
        _served: object = None
        _write_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport: asyncio.BaseTransport) -> None:
            super().connection_made(transport)  # type: ignore[arg-type]
            self._wait_for_head()
            if len(self.connections) > max_connections:
                waiting = [
                    connection for connection in self.connections
                    if isinstance(connection, BoundedH11Protocol)
                    and connection._waiting_since is not None
                    and connection is not self
                ]
                # A connection that has never sent a request goes first: one a
                # client was answered on is likelier its next request's (the
                # SDK's client keeps it), and an attacker's is never answered.
                oldest = min(
                    waiting,
                    key=lambda c: (c._served is not None, c._waiting_since or 0.0),
                    default=self,
                )
                oldest._drop()

        def handle_events(self) -> None:
            super().handle_events()
            if self.cycle is not None and self.cycle is not self._served:
                # A complete request head arrived: the request now has its own bounds
                # (the admission's body deadline, the backlog, the answer).
                self._served = self.cycle
                self._stop_waiting()

        def on_response_complete(self) -> None:
            served = self.cycle
            self._wait_for_head()
            super().on_response_complete()
            if self.cycle is not served and self.cycle is not None:
                # A pipelined request was already waiting: it is in progress now.
                self._served = self.cycle
                self._stop_waiting()

        def pause_writing(self) -> None:
            super().pause_writing()
            if self._write_timer is None:
                self._write_timer = self.loop.call_later(stall, self._drop)

        def resume_writing(self) -> None:
            self._stop_stall()
            super().resume_writing()

        def connection_lost(self, exc: Exception | None) -> None:
            self._stop_waiting()
            self._stop_stall()
            super().connection_lost(exc)

        def _stop_stall(self) -> None:
            if self._write_timer is not None:
                self._write_timer.cancel()
                self._write_timer = None

        def _wait_for_head(self) -> None:
            self._stop_waiting()
            self._waiting_since = self.loop.time()
            self._head_timer = self.loop.call_later(timeout, self._drop)

        def _stop_waiting(self) -> None:
            self._waiting_since = None
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _drop(self) -> None:
            self._stop_waiting()
            self._stop_stall()
            self.connections.discard(self)
            if not self.transport.is_closing():
                self.transport.abort()

    return BoundedH11Protocol
