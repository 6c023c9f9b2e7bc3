"""Streamable HTTP to an MCP server, with every response body the host reads bounded.

The SDK's transport reads a JSON answer with one uncapped ``response.aread()``
and decodes whatever ``Content-Encoding`` the server chose. This module hands
it an ``httpx2`` client from the SDK's own factory (same timeouts) whose
transports put a :class:`CappedBody` around each response stream:

* a body that is not an event stream is counted as it arrives and refused
  past ``max_message_bytes`` (at once when its ``Content-Length`` says so),
  so at most the cap and one network read of it (64 KiB) is ever held; a
  body in more than :data:`FREE_PIECES` pieces must average
  :data:`MIN_MEAN_PIECE_BYTES` a piece, since each piece (a chunk of a chunked
  body costs the server six bytes) costs the host microseconds of parsing;
* a compressed body is refused (the client asks for ``identity``): its size
  on the wire says nothing about what decoding it would take;
* a body that breaks off (the server closed early, its ``Content-Length``
  promised more, a read timed out) fails its own request;
* a redirect's body is never read (the SDK would drain it whole).

Each refusal is an ``httpx2.StreamError`` (an ``httpx2.SSEError`` for an
event stream), which the SDK turns into an error answer for that request
alone; the guard (``_transport``) restates it as this client's refusal. The
HTTP connection it came on is closed, the session is kept, so the next call
works. A 2xx event stream of a GET or POST is read event by event by the SDK,
each event held to ``max_sse_event_size=max_message_bytes``.

A POST that fails before its answer starts (the server closed the connection,
broke HTTP, could not be reached) ends the SDK's transport, and so the
session: the guard records why, so every pending call fails saying so.

Headers of the caller's (``Authorization``, an API key) go with every request
of the session (:func:`check_headers` says which): they are the client's,
which only the SDK's transport uses; no message, log line or repr here
carries their values.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncGenerator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, Final

import anyio
import httpx2

from ._headers import check_headers, hide_urls_in_logs
from ._transport import guarded

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Mapping
    from types import TracebackType

    from ._transport import Guard

__all__ = [
    "FREE_PIECES",
    "MIN_MEAN_PIECE_BYTES",
    "BodyRefused",
    "CappedBody",
    "EventStreamRefused",
    "http_transport",
]

#: Pieces a body may arrive in before their mean size is checked.
FREE_PIECES: Final = 1024
#: The least mean size of a body's pieces past :data:`FREE_PIECES`.
MIN_MEAN_PIECE_BYTES: Final = 512

_EVENT_STREAM: Final = "text/event-stream"
#: The methods whose 2xx event stream the SDK reads event by event (the session's
#: GET stream, a request's POST); anything else it reads whole.
_STREAMED_METHODS: Final = frozenset({"GET", "POST"})


class BodyRefused(httpx2.StreamError):
    """A response body this client stopped reading; the SDK fails its request alone."""


class EventStreamRefused(httpx2.SSEError):
    """An event stream this client would not read; the SDK fails its request alone."""


@asynccontextmanager
async def http_transport(
    url: str, guard: Guard, headers: Mapping[str, str] | None = None
) -> AsyncIterator[tuple[Any, Any]]:
    """The SDK's streamable HTTP transport to ``url``, its bodies and events capped, guarded.

    ``headers`` (checked by :func:`check_headers`) go with every request.
    """
    from mcp.client.streamable_http import streamable_http_client

    # This runs in the session's own task: the SDK's tasks start from it, and
    # log the URL whole.
    hide_urls_in_logs()
    client = bounded_client(guard, headers)
    # The SDK leaves a client it was given open, so this side closes it, after
    # the transport's last request (the session's DELETE).
    await client.__aenter__()
    try:
        async with guarded(
            streamable_http_client(
                url, http_client=client, max_sse_event_size=guard.max_message_bytes
            ),
            guard,
        ) as streams:
            yield streams
    finally:
        # Closing sockets waits on nothing remote; shielded, so a deadline on
        # the session's close never leaves one open.
        with anyio.CancelScope(shield=True):
            await client.__aexit__(None, None, None)


def bounded_client(
    guard: Guard, headers: Mapping[str, str] | None = None
) -> httpx2.AsyncClient:
    """The SDK's default MCP client, every transport of it (proxies too) capping bodies.

    ``headers`` are checked (:func:`check_headers`) and sent with every request.
    """
    from mcp.shared._httpx_utils import create_mcp_http_client

    sent = check_headers(headers if headers is not None else {})
    client = create_mcp_http_client(headers={**sent, "Accept-Encoding": "identity"})
    # httpx2 takes a transport only in place of its own (and then ignores the
    # proxy settings of the environment), so its transports are wrapped where
    # the client keeps them; an httpx2 that kept them elsewhere fails here,
    # never silently unbounded.
    inner = getattr(client, "_transport", None)
    mounts = getattr(client, "_mounts", None)
    if not isinstance(inner, httpx2.AsyncBaseTransport) or not isinstance(mounts, dict):
        raise RuntimeError(f"httpx2 {httpx2.__version__} keeps its transports elsewhere")
    client._transport = CappingTransport(inner, guard)
    client._mounts = {
        pattern: None if mounted is None else CappingTransport(mounted, guard)
        for pattern, mounted in mounts.items()
    }
    return client


class CappingTransport(httpx2.AsyncBaseTransport):
    """Another transport, each response's stream in a :class:`CappedBody`."""

    def __init__(self, inner: httpx2.AsyncBaseTransport, guard: Guard) -> None:
        self._inner = inner
        self._guard = guard

    async def __aenter__(self) -> CappingTransport:
        await self._inner.__aenter__()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None = None,
        exc_value: BaseException | None = None,
        traceback: TracebackType | None = None,
    ) -> None:
        await self._inner.__aexit__(exc_type, exc_value, traceback)

    async def aclose(self) -> None:
        await self._inner.aclose()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        try:
            response = await self._inner.handle_async_request(request)
        except httpx2.TransportError as exc:
            if request.method == "POST":
                # The SDK catches no error of a POST: its transport ends here.
                self._guard.fail(
                    f"an HTTP request to {self._guard.label} failed ({_first_line(exc)}); "
                    "the connection was closed"
                )
            raise
        kind, _, _ = response.headers.get("content-type", "").partition(";")
        streamed = (
            kind.strip().lower() == _EVENT_STREAM
            and response.is_success
            and request.method in _STREAMED_METHODS
        )
        encodings = [
            coding.strip().lower()
            for coding in response.headers.get_list("content-encoding", split_commas=True)
        ]
        encoded = ", ".join(c for c in encodings if c not in ("", "identity"))
        if encoded:
            # Left in place, httpx2 would decode it (or fail to) before this
            # stream is read; the refusal is the stream's.
            del response.headers["content-encoding"]
        elif streamed:
            return response
        assert isinstance(response.stream, httpx2.AsyncByteStream)
        if response.has_redirect_location:
            # The SDK drains a redirect it follows so the connection can be
            # reused, and catches nothing while it does: closing it costs less.
            response.stream = _Unread(response.stream)
            return response
        response.stream = CappedBody(
            response.stream, self._guard, events=streamed,
            declared=_length(response.headers.get("content-length")), encoded=encoded,
        )
        return response


class CappedBody(httpx2.AsyncByteStream):
    """A response stream refused past the guard's ``max_message_bytes``.

    ``read`` counts the bytes of it this side received, ``pieces`` the reads
    they came in. ``events`` makes a refusal the ``httpx2.SSEError`` the SDK
    expects from an event stream it reads event by event.
    """

    def __init__(
        self,
        inner: httpx2.AsyncByteStream,
        guard: Guard,
        *,
        events: bool = False,
        declared: int | None = None,
        encoded: str = "",
    ) -> None:
        self._inner = inner
        self._guard = guard
        self._events = events
        self._declared = declared
        self._encoded = encoded
        self.read = 0
        self.pieces = 0

    async def __aiter__(self) -> AsyncIterator[bytes]:
        guard = self._guard
        cap = guard.max_message_bytes
        if self._encoded:
            raise self._refusal(
                f"{guard.label} sent a compressed answer (Content-Encoding: "
                f"{self._encoded[:60]}), though this client asks for identity; "
                "the answer was refused"
            )
        too_long = (
            f"{guard.label} sent a message longer than max_message_bytes={cap}; the answer "
            "was refused (raise max_message_bytes, or fix the server)"
        )
        if self._declared is not None and self._declared > cap:
            raise self._refusal(too_long)
        chunks = self._inner.__aiter__()
        try:
            while True:
                try:
                    chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    return
                except httpx2.TransportError as exc:
                    raise self._refusal(
                        f"{guard.label} did not send its whole answer ({_first_line(exc)}); "
                        "the answer was lost"
                    ) from exc
                self.read += len(chunk)
                self.pieces += 1
                if self.read > cap:
                    raise self._refusal(too_long)
                if self.pieces > FREE_PIECES + self.read // MIN_MEAN_PIECE_BYTES:
                    raise self._refusal(
                        f"{guard.label} sent a message in more than {self.pieces - 1} pieces "
                        f"of under {MIN_MEAN_PIECE_BYTES} bytes on average; the answer was "
                        "refused (fix the server)"
                    )
                yield chunk
        finally:
            if isinstance(chunks, AsyncGenerator):
                await chunks.aclose()

    async def aclose(self) -> None:
        await self._inner.aclose()

    def _refusal(self, reason: str) -> httpx2.StreamError | httpx2.SSEError:
        self._guard.refused(reason)
        return EventStreamRefused(reason) if self._events else BodyRefused(reason)


class _Unread(httpx2.AsyncByteStream):
    """A response body that is closed unread (it ends at once)."""

    def __init__(self, inner: httpx2.AsyncByteStream) -> None:
        self._inner = inner

    async def __aiter__(self) -> AsyncIterator[bytes]:
        nothing: tuple[bytes, ...] = ()
        for chunk in nothing:
            yield chunk

    async def aclose(self) -> None:
        await self._inner.aclose()


def _length(value: str | None) -> int | None:
    """The ``Content-Length`` a server declared, if it is a number (h11 checks the rest)."""
    text = "" if value is None else value.strip()
    if not (text.isascii() and text.isdigit()):
        return None
    # int() refuses more than 4,300 digits; any length that long is over the cap.
    return int(text) if len(text) <= 18 else sys.maxsize


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0][:200]}" if text else type(exc).__name__
