"""The served side over HTTP: who may send a request, and how a POST enters the backlog.

A request is refused before its body is read, and without a place in the
backlog, when its ``Host`` or ``Origin`` does not name this loopback listener
(DNS rebinding, a cross-site page), when it lacks the server's bearer token
(if it has one), or when a POST is not ``application/json`` (a form or
``text/plain`` a page may send without a preflight). An admitted POST counts in
the server's :class:`~codemode.mcp._server_wire.Backlog` from its arrival until
its answer is sent.
"""

from __future__ import annotations

import hmac
import json
import re
from collections import deque
from typing import TYPE_CHECKING, Final, NamedTuple, final

import anyio
import anyio.to_thread

from ._server_messages import INVALID_REQUEST, MAX_MESSAGE_VALUES, error_body
from ._server_wire import SERVER_BUSY, Backlog, Ticket, hold_ticket
from ._transport import INLINE_PARSE_BYTES, more_values_than, values_bound

if TYPE_CHECKING:
    from collections.abc import Iterable

    from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = [
    "HTTP_BODY_TIMEOUT",
    "LOOPBACK_NAMES",
    "MAKE_TOKEN",
    "MIN_TOKEN_CHARS",
    "HttpAdmission",
    "HttpRefusal",
    "check_token",
    "http_refusal",
]

#: How long an HTTP client may take to send a request's body once admitted.
HTTP_BODY_TIMEOUT: Final = 30.0

#: The names a loopback listener is reached by: what a request's ``Host`` (and an
#: ``Origin``'s host) may be, with any port. A name a DNS server answers for could be
#: rebound to 127.0.0.1 by whoever owns it, so no other name is accepted.
LOOPBACK_NAMES: Final = ("localhost", "127.0.0.1", "[::1]")

#: ``name`` or ``name:port``, where ``name`` is a bracketed IPv6 literal or has no colon.
_AUTHORITY: Final = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[^:\[\]/@\s]+)(?::[0-9]{1,5})?")
_ORIGIN: Final = re.compile(r"(?:http|https)://(.+)")


def _name_in(authority: str, names: frozenset[str]) -> bool:
    found = _AUTHORITY.fullmatch(authority)
    return found is not None and found[1] in names


#: The least length of a bearer token :func:`serve_http` accepts.
MIN_TOKEN_CHARS: Final = 16
#: The longest bearer token accepted (a request line's headers stay short).
_MAX_TOKEN_CHARS: Final = 1024
#: RFC 6750's ``b64token``: what a bearer token may be made of.
_B64TOKEN: Final = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
#: How to make a token that :func:`check_token` accepts.
MAKE_TOKEN: Final = 'python -c "import secrets; print(secrets.token_urlsafe(32))"'


def check_token(token: object) -> str:
    """``token`` if it is a bearer token a server may require, else ``ValueError``.

    A token is at least :data:`MIN_TOKEN_CHARS` characters of RFC 6750's
    ``b64token`` alphabet (letters, digits, ``-._~+/``, then any ``=``). The
    message says what is wrong and how to make one; it never shows the token.
    """
    if type(token) is not str:
        raise ValueError(f"the bearer token must be a str, not {type(token).__name__}")
    problem = None
    if len(token) < MIN_TOKEN_CHARS:
        problem = f"is {len(token)} characters long; it needs at least {MIN_TOKEN_CHARS}"
    elif len(token) > _MAX_TOKEN_CHARS:
        problem = f"is {len(token)} characters long; it may have at most {_MAX_TOKEN_CHARS}"
    elif _B64TOKEN.fullmatch(token) is None:
        problem = (
            "holds a character outside RFC 6750's b64token alphabet (letters, digits, "
            "-._~+/ and trailing =)"
        )
    if problem is not None:
        raise ValueError(f"the bearer token {problem}; make one with: {MAKE_TOKEN}")
    return token


class HttpRefusal(NamedTuple):
    """Why an HTTP request is refused unread: its status, message and ``WWW-Authenticate``."""

    status: int
    message: str
    challenge: str = ""


def http_refusal(
    scope: Scope, names: Iterable[str] = LOOPBACK_NAMES, token: str | None = None
) -> HttpRefusal | None:
    """Why an HTTP request is refused before it is read, or ``None``.

    The server answers only requests made to it by the names it is reached by on
    loopback (``names``, in lower case, each with any port or none), checked in
    this order:

    * exactly one ``Host`` header, naming one of them (else 421): a page whose DNS
      name was rebound to 127.0.0.1 sends its own name;
    * no ``Origin``, or ``http(s)://`` one of them (else 403): a browser sends the
      page's origin with every POST, every DELETE and every cross-origin request;
      ``null`` (a sandboxed frame, a ``file:`` page) is refused too;
    * with a ``token``, exactly one ``Authorization: Bearer <token>`` header, the
      token compared in constant time (else 401, ``WWW-Authenticate: Bearer``).
      A page is refused by its Host or Origin first, so no page (not even one
      that can read answers, by DNS rebinding) ever gets the answer of a token
      comparison; a local client without the token learns nothing past the 401;
    * a POST's ``Content-Type`` is ``application/json`` (else 415): a page may send
      a form or ``text/plain`` without asking first.

    No message repeats what the request sent for a token.
    """
    allowed = frozenset(names)
    hosts: list[str] = []
    origins: list[str] = []
    content_types: list[str] = []
    credentials: list[bytes] = []
    for key, value in scope.get("headers") or ():
        if key == b"host":
            hosts.append(value.decode("latin-1"))
        elif key == b"origin":
            origins.append(value.decode("latin-1"))
        elif key == b"content-type":
            content_types.append(value.decode("latin-1"))
        elif key == b"authorization":
            credentials.append(value)
    if len(hosts) != 1 or not _name_in(hosts[0].strip(), allowed):
        return HttpRefusal(
            421, "Misdirected request: the Host header must name this loopback server"
        )
    for origin in origins:
        found = _ORIGIN.fullmatch(origin.strip())
        if found is None or not _name_in(found[1], allowed):
            return HttpRefusal(403, "Forbidden: requests from another origin are refused")
    if token is not None:
        refused = _unauthorized(credentials, token.encode("ascii"))
        if refused is not None:
            return refused
    if scope.get("method") == "POST" and (
        len(content_types) != 1
        or content_types[0].split(";", 1)[0].strip().lower() != "application/json"
    ):
        return HttpRefusal(
            415, "Unsupported media type: a POST's Content-Type must be application/json"
        )
    return None


def _unauthorized(credentials: list[bytes], token: bytes) -> HttpRefusal | None:
    """The 401 owed unless ``credentials`` is one ``Bearer`` header carrying ``token``."""
    if not credentials:
        return HttpRefusal(
            401, "Unauthorized: this server needs an Authorization: Bearer token", "Bearer"
        )
    invalid = 'Bearer error="invalid_token"'
    if len(credentials) != 1:
        return HttpRefusal(401, "Unauthorized: send exactly one Authorization header", invalid)
    scheme, _, presented = credentials[0].strip(b" \t").partition(b" ")
    presented = presented.lstrip(b" ")
    # In constant time: how long the answer takes says nothing of how much of it matched.
    matches = hmac.compare_digest(presented, token)
    if scheme.lower() != b"bearer" or not presented:
        return HttpRefusal(
            401, "Unauthorized: the Authorization header must be 'Bearer <token>'", invalid
        )
    if not matches:
        return HttpRefusal(401, "Unauthorized: the bearer token is not this server's", invalid)
    return None


@final
class HttpAdmission:
    """ASGI middleware: every POST counts in the backlog from its arrival until its answer is sent.

    First, any HTTP request that :func:`http_refusal` refuses for its headers
    (its ``Host`` or ``Origin`` names no loopback name in ``names``, it lacks
    ``Authorization: Bearer <token>`` while ``token`` is set, or a POST is not
    ``application/json``) is answered at once: it takes no place in the
    backlog and its body is not read. A connection of any other kind than HTTP
    (a WebSocket) is closed unanswered; the lifespan is the app's. A POST that
    finds the backlog full is answered at once with the busy error; one whose
    body is longer than ``max_body_bytes``, holds more than
    :data:`MAX_MESSAGE_VALUES` values, or takes longer than
    :data:`HTTP_BODY_TIMEOUT` to arrive is refused without being handled.
    Every answer given here instead of the app's closes its connection.
    The SDK's client reads a JSON-RPC error with id ``null`` at an error
    status as the answer to the request it posted.
    """

    def __init__(self, app: ASGIApp, backlog: Backlog, max_body_bytes: int, *,
                 body_timeout: float = HTTP_BODY_TIMEOUT,
                 names: Iterable[str] = LOOPBACK_NAMES, token: str | None = None) -> None:
        self.app = app
        self.backlog = backlog
        self.max_body_bytes = max_body_bytes
        self.body_timeout = body_timeout
        self.names = frozenset(names)
        self._token = None if token is None else check_token(token)

    def __repr__(self) -> str:
        return f"<HttpAdmission token={'set' if self._token is not None else 'none'}>"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        kind = scope.get("type")
        if kind == "lifespan":
            await self.app(scope, receive, send)
            return
        if kind != "http":
            # Nothing here is served over a WebSocket: no such connection bypasses the checks.
            await send({"type": "websocket.close", "code": 1008})
            return
        refusal = http_refusal(scope, self.names, self._token)
        if refusal is not None:
            await _http_error(
                send, refusal.status, INVALID_REQUEST, f"Invalid request: {refusal.message}",
                challenge=refusal.challenge,
            )
            return
        if scope.get("method") != "POST":
            await self.app(scope, receive, send)
            return
        ticket = self.backlog.try_admit(None, 0, 0)
        if ticket is None:
            await _http_error(send, 503, SERVER_BUSY, _busy(self.backlog))
            return
        try:
            await self._admitted(ticket, scope, receive, send)
        finally:
            ticket.settle()

    async def _admitted(self, ticket: Ticket, scope: Scope, receive: Receive, send: Send) -> None:
        declared = dict(scope.get("headers") or ()).get(b"content-length", b"")
        if declared.isdigit() and int(declared) > self.max_body_bytes:
            await _http_error(
                send, 413, INVALID_REQUEST,
                f"Invalid request: the body is longer than {self.max_body_bytes} bytes",
            )
            return
        body = bytearray()
        kept: deque[Message] = deque()
        with anyio.move_on_after(self.body_timeout) as deadline:
            while True:
                message = await receive()
                if message.get("type") != "http.request":
                    kept.append(message)
                    break
                body += message.get("body", b"")
                if len(body) > self.max_body_bytes:
                    await _http_error(
                        send, 413, INVALID_REQUEST,
                        f"Invalid request: the body is longer than {self.max_body_bytes} bytes",
                    )
                    return
                if not message.get("more_body", False):
                    break
        if deadline.cancelled_caught:
            await _http_error(send, 408, INVALID_REQUEST,
                              f"Invalid request: the body took longer than {self.body_timeout:g} s")
            return
        data = bytes(body)
        if len(data) > INLINE_PARSE_BYTES:
            too_many = await anyio.to_thread.run_sync(
                more_values_than, data, MAX_MESSAGE_VALUES, abandon_on_cancel=True
            )
        else:
            too_many = more_values_than(data, MAX_MESSAGE_VALUES)
        if too_many:
            await _http_error(
                send, 400, INVALID_REQUEST,
                f"Invalid request: the message holds more than {MAX_MESSAGE_VALUES} JSON values",
            )
            return
        if not self.backlog.charge(ticket, len(data), values_bound(data)):
            await _http_error(send, 503, SERVER_BUSY, _busy(self.backlog))
            return
        kept.appendleft({"type": "http.request", "body": data, "more_body": False})

        async def replay() -> Message:
            return kept.popleft() if kept else await receive()

        hold_ticket(ticket)
        await self.app(scope, replay, send)


def _busy(backlog: Backlog) -> str:
    return (
        f"the server is busy: {backlog.requests} requests are waiting for their answers "
        f"(max_pending={backlog.max_requests}, holding {backlog.bytes} bytes); retry later"
    )


async def _http_error(
    send: Send, status: int, code: int, message: str, *, challenge: str = ""
) -> None:
    payload = json.dumps(error_body(None, code, message)).encode()
    # The connection closes after this answer: a client answered here (refused,
    # or told the server is busy) cannot queue answers behind it by pipelining
    # requests it never reads, nor go on sending a body no one reads.
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(payload)).encode()),
               (b"connection", b"close")]
    if challenge:
        headers.append((b"www-authenticate", challenge.encode("ascii")))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": payload})
