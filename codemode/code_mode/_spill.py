"""The spill policy: oversized text is saved to a file and replaced by a preview.

Two arms share one algorithm:

* the model-facing arm (a post-execute listener) bounds what the model reads
  of a top-level result, ``run_code`` included;
* the dispatch-log arm (a ``code-dispatch-log`` listener) bounds the durable
  copy of each ``run_code`` sub-call, while the program still received the
  complete value.

The replacement is ``<head>…<tail>\\n\\n(Omitted N bytes. Full formatted result
stored at: <locator>. <hint>)``, at most ``max_inline_bytes`` UTF-8 bytes. When
the run's budget refuses the file (``admit``: too many spill files, or no bytes
left for it), nothing is saved and the notice says so and why, with the full
text's SHA-256: ``(Omitted N bytes. Not stored: <reason>. SHA-256 of the full
text: <hex>.)``. The same notice stands in when the store fails (e.g. a full
disk, a refused directory, the store's own size cap): an oversized text is
never kept inline because it could not be saved.
"""

from __future__ import annotations

import hashlib
import logging
from typing import TYPE_CHECKING, Final

from .._results import ContentBlock, TextBlock, safe_str, type_name

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

__all__ = ["RETRIEVAL_HINT", "spill_text"]

_log = logging.getLogger("codemode.spill")

#: Tells the model how to read a spilled result back.
RETRIEVAL_HINT: Final = (
    "Read it in slices with a file-reading tool (offset and limit), or search it with grep."
)


def _notice(omitted: int, locator: str) -> str:
    return (
        f"(Omitted {omitted} bytes. Full formatted result stored at: {locator}. "
        f"{RETRIEVAL_HINT})"
    )


def _unstored_notice(omitted: int, reason: str, digest: str) -> str:
    return f"(Omitted {omitted} bytes. Not stored: {reason}. SHA-256 of the full text: {digest}.)"


#: ``OSError.strerror`` as the interpreter keeps it (a subclass's property cannot answer).
_STRERROR: Final = OSError.__dict__["strerror"].__get__

#: The longest store error message quoted in a notice.
_MAX_REASON_CHARS: Final = 300


def _save_failure(exc: Exception) -> str:
    # The store may be the developer's own: its exception's text is read as foreign.
    strerror = _STRERROR(exc) if issubclass(type(exc), OSError) else None
    detail = strerror if type(strerror) is str and strerror else safe_str(exc, _MAX_REASON_CHARS)
    reason = f"the spill store failed ({type_name(exc)}: {detail})"
    if len(reason) > _MAX_REASON_CHARS:
        reason = reason[: _MAX_REASON_CHARS - 1] + "…"
    return reason


def _head(data: bytes, size: int) -> bytes:
    # Cut at most `size` bytes from the front without splitting a UTF-8 sequence.
    cut = data[:size]
    return cut.decode("utf-8", "ignore").encode("utf-8")


def _tail(data: bytes, size: int) -> bytes:
    if size <= 0:
        return b""
    cut = data[-size:]
    return cut.decode("utf-8", "ignore").encode("utf-8")


def spill_text(
    text: str,
    *,
    max_inline_bytes: int,
    save: Callable[[str], str],
    admit: Callable[[int], str | None] | None = None,
) -> str | None:
    """Return the bounded replacement for ``text``, or ``None`` to keep it as is.

    ``save(text)`` stores the full text and returns its locator; it is called
    only when ``text`` is over the limit, and once ``admit`` (if given) allowed
    a file of that many UTF-8 bytes. When ``admit`` returns a reason, or
    ``save`` raises, nothing is stored and the replacement's notice gives the
    reason and the full text's SHA-256 (a failing save is also logged as a
    warning). Only when even the notice would not fit is the original kept.
    """
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= max_inline_bytes:
        return None
    refusal = None if admit is None else admit(len(data))
    locator = ""
    if refusal is None:
        try:
            locator = save(text)
        except Exception as exc:
            _log.warning("could not save an oversized result; logging a preview", exc_info=True)
            refusal = _save_failure(exc)
    if refusal is not None:
        digest = hashlib.sha256(data).hexdigest()

        def notice_for(omitted: int) -> str:
            return _unstored_notice(omitted, refusal, digest)

        where = "nowhere: it was not stored"
    else:

        def notice_for(omitted: int) -> str:
            return _notice(omitted, locator)

        where = locator
    # Price the notice with the full byte count: the real omitted count is
    # smaller, so the final text can only be shorter than reserved.
    reserved = len(notice_for(len(data)).encode("utf-8")) + 2
    budget = max_inline_bytes - reserved
    if budget <= 0:
        notice = notice_for(len(data))
        if len(notice.encode("utf-8")) > max_inline_bytes:
            _log.warning(
                "max_inline_bytes=%d is too small even for the spill notice; keeping the "
                "original (its spilled copy is %s)",
                max_inline_bytes,
                where if refusal is not None else f"at {where}",
            )
            return None
        return notice
    head = _head(data, (budget + 1) // 2)
    tail = _tail(data[len(head) :], budget // 2)
    omitted = len(data) - len(head) - len(tail)
    preview = (head + tail).decode("utf-8", "surrogatepass")
    notice = notice_for(omitted)
    return f"{preview}\n\n{notice}" if preview else notice


def all_text(content: Sequence[ContentBlock]) -> str | None:
    """The joined text of ``content`` when every block is text, else ``None``."""
    if not all(isinstance(block, TextBlock) for block in content):
        return None
    return "".join(block.text for block in content if isinstance(block, TextBlock))
