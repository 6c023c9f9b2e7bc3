"""The headers a caller sends with every request of an MCP HTTP session, checked; its URL shown.

Kept apart from :mod:`codemode.mcp._http` (which needs the SDK's ``httpx2``), so
:meth:`McpTools.http` checks them when it is called, SDK or not.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final
from urllib.parse import urlsplit

__all__ = ["FIELD_NAME", "TRANSPORT_HEADERS", "check_headers", "shown_url"]

#: Headers the transport sets itself (framing, content negotiation, the MCP
#: session), in lower case: a caller's header may not name one.
TRANSPORT_HEADERS: Final = frozenset({
    "host", "content-length", "transfer-encoding", "connection", "keep-alive",
    "proxy-connection", "upgrade", "te", "trailer", "expect", "content-type",
    "content-encoding", "accept", "accept-encoding", "mcp-session-id",
    "mcp-protocol-version", "last-event-id",
})
#: RFC 9110's ``token``: what a field name is made of.
FIELD_NAME: Final = re.compile(r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
#: A field value as sent here: visible ASCII, with spaces or tabs inside only.
_FIELD_VALUE: Final = re.compile(r"[\x21-\x7e]+(?:[ \t]+[\x21-\x7e]+)*")


def check_headers(headers: object) -> dict[str, str]:
    """``headers`` as a dict to send with every request, or ``TypeError``/``ValueError``.

    Each name is an HTTP token (RFC 9110: letters, digits, ``!#$%&'*+-.^_`|~``),
    given once whatever its case, and none of :data:`TRANSPORT_HEADERS`; each
    value is visible ASCII with spaces or tabs inside only (no line break,
    no other control character, nothing before or after). A message names a
    valid name, never a value, nor a name that is not one (it may be a
    ``"Authorization: Bearer …"`` line).
    """
    if not isinstance(headers, Mapping):
        raise TypeError(
            f"headers must be a mapping of str to str, got {type(headers).__name__}"
        )
    checked: dict[str, str] = {}
    seen: set[str] = set()
    for position, (name, value) in enumerate(headers.items(), 1):
        if type(name) is not str or FIELD_NAME.fullmatch(name) is None:
            raise ValueError(
                f"headers: name {position} is not an HTTP field name (letters, digits and "
                "!#$%&'*+-.^_`|~ only; give 'Authorization: Bearer …' as "
                "{'Authorization': 'Bearer …'}); its text is not shown"
            )
        folded = name.lower()
        if folded in TRANSPORT_HEADERS:
            raise ValueError(
                f"headers: {name!r} is set by the MCP HTTP transport itself and cannot be given"
            )
        if folded in seen:
            raise ValueError(f"headers: {name!r} is given twice (names ignore case)")
        seen.add(folded)
        if type(value) is not str:
            raise TypeError(f"headers: the value of {name!r} must be a str, "
                            f"not {type(value).__name__}")
        if _FIELD_VALUE.fullmatch(value) is None:
            raise ValueError(
                f"headers: the value of {name!r} is empty, or holds a line break, a control "
                "character, a character that is not ASCII, or spaces at its ends; "
                "its text is not shown"
            )
        checked[name] = value
    return checked


def shown_url(url: str) -> str:
    """``url`` as messages, labels and reprs show it: its user information and query values hidden.

    Hosted servers often take a key in the URL itself (``?api_key=…``,
    ``https://user:key@host/mcp``); a message about the server can reach a
    model or a log, so those parts read ``***`` (query names stay, to tell two
    URLs apart). The fragment, never sent, is left out.
    """
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
    except ValueError:
        return url.partition("://")[0] + "://***"
    _user, at, host = netloc.rpartition("@")
    shown = f"{parts.scheme}://{'***@' if at else ''}{host}{parts.path}"
    if parts.query:
        names = (pair.partition("=")[0] for pair in parts.query.split("&"))
        shown += "?" + "&".join(f"{name}=***" for name in names)
    return shown
