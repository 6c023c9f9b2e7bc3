"""The headers a caller sends with every request of an MCP HTTP session, checked; its URL shown.

Kept apart from :mod:`codemode.mcp._http` (which needs the SDK's ``httpx2``), so
:meth:`McpTools.http` checks them when it is called, SDK or not.
"""

from __future__ import annotations

import contextvars
import logging
import re
import threading
import traceback
from collections.abc import Mapping
from typing import Any, Final
from urllib.parse import urlsplit

__all__ = [
    "FIELD_NAME", "TRANSPORT_HEADERS", "check_headers", "hidden_urls", "hide_urls_in_logs",
    "shown_url",
]

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
    ``https://user:key@host/mcp``, ``https://host/mcp/KEY/sse``); a message
    about the server can reach a model or a log, so those parts read ``***``.
    A path segment stays only when it reads as a word (``mcp``, ``v1``,
    ``sse``: see :func:`_shown_segment`). A query name stays (to tell two URLs
    apart) only when it is a name: a short word before an ``=``; a bare
    ``?key`` or a long name shows as ``***`` too. The fragment, never sent, is
    left out; text that is not ``scheme://…`` shows as ``***``.
    """
    scheme, sep, _ = url.partition("://")
    if not sep or _SCHEME.fullmatch(scheme) is None:
        return "***"
    try:
        parts = urlsplit(url)
        netloc = parts.netloc
    except ValueError:
        return f"{scheme}://***"
    _user, at, host = netloc.rpartition("@")
    path = "/".join(_shown_segment(segment) for segment in parts.path.split("/"))
    shown = f"{parts.scheme}://{'***@' if at else ''}{host}{path}"
    if parts.query:
        shown += "?" + "&".join(_shown_pair(pair) for pair in parts.query.split("&"))
    return shown


def _shown_segment(segment: str) -> str:
    """A path segment as it is when it reads as a word, else ``***``.

    A key put in the path (``/mcp/sk-4f9a…/sse``, a UUID, a hex token) is long
    or full of digits; the names servers give their endpoints are neither. A
    segment of a word's characters, at most 24 of them and at most 4 digits,
    shows; any other (longer, more digits, ``%``-escapes, other characters)
    shows as ``***``. Which segment was hidden stays visible by its place.
    """
    if _PATH_WORD.fullmatch(segment) is None or sum(c.isdigit() for c in segment) > 4:
        return "***"
    return segment


def _shown_pair(pair: str) -> str:
    name, equals, _ = pair.partition("=")
    return f"{name}=***" if equals and _QUERY_NAME.fullmatch(name) else "***"


#: RFC 3986's scheme.
_SCHEME: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}")
#: A path segment that may read as a word (:func:`_shown_segment` counts digits too).
_PATH_WORD: Final = re.compile(r"[A-Za-z0-9_.~\-]{0,24}")
#: A query name shown as it is: short, of the characters names are written with.
_QUERY_NAME: Final = re.compile(r"[A-Za-z0-9_.\-\[\]]{1,40}")
#: A URL inside a text (a log line): a scheme, ``://``, and what follows up to a
#: space, a quote or an angle bracket.
_URL_IN_TEXT: Final = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{0,31}://[^\s'\"<>`]+")


def hidden_urls(text: str) -> str:
    """``text`` with every ``scheme://…`` in it shown as :func:`shown_url` shows it."""
    return _URL_IN_TEXT.sub(lambda found: shown_url(found[0]), text)


#: Whether log records made in this context show URLs as :func:`shown_url` does.
_HIDING_URLS: Final = contextvars.ContextVar("codemode_mcp_hiding_urls", default=False)
_FACTORY_LOCK: Final = threading.Lock()
_factory_installed = False


def hide_urls_in_logs() -> None:
    """From now on, every log record made in this context, and in the tasks started
    from it, shows the URLs in its message and exception as :func:`shown_url` does.

    The SDK's HTTP transport and ``httpx2`` log the URL they were given, whole
    (``HTTP Request: POST https://user:key@host/mcp?api_key=… "HTTP/1.1 200 OK"``
    at INFO, for every request); a caller logging at INFO would keep the key in
    its log. The record factory is wrapped once for the process; records made in
    any other context are untouched.
    """
    global _factory_installed
    with _FACTORY_LOCK:
        if not _factory_installed:
            made = logging.getLogRecordFactory()

            def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
                record = made(*args, **kwargs)
                if _HIDING_URLS.get():
                    _hide_urls(record)
                return record

            logging.setLogRecordFactory(factory)
            _factory_installed = True
    _HIDING_URLS.set(True)


def _hide_urls(record: logging.LogRecord) -> None:
    try:
        message = record.getMessage()
    except Exception:  # a bad format string: logging reports it itself, later
        message = str(record.msg)
    hidden = hidden_urls(message)
    if hidden != message:
        record.msg, record.args = hidden, None
    if record.exc_info is not None and record.exc_info[1] is not None:
        text = "".join(traceback.format_exception(*record.exc_info)).rstrip("\n")
        # The formatted text replaces the exception, whose message may hold a URL.
        record.exc_text, record.exc_info = hidden_urls(text), None
    if record.stack_info:
        record.stack_info = hidden_urls(record.stack_info)
