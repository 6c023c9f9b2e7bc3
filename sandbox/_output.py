"""Where a run's printed text goes: the capture, or a ``redirect_stdout`` target.

A program has no real standard output: ``print`` hands its text to the run's
capture. ``contextlib.redirect_stdout(buffer)`` (the façade's) and
``pprint.pprint`` route through here so that they behave as in Python - the
redirect sends ``print`` and ``pprint`` output to the program's own
file-like object, through the attribute guard - without ever touching the
process's streams. One run per process; :func:`start_run` resets the state.

The capture itself (``_Output``, made by :class:`sandbox._runtime.PreparedRun`)
joins the text into lines and holds the run to its byte budget
(``Limits.max_log_bytes``), cutting the line that passes it and adding
:data:`TRUNCATION_MARKER`. This module runs in the child.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from bridge.lossless import collection_paused

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["TRUNCATION_MARKER", "RedirectStdout", "emit", "start_run"]

_capture: list[Callable[[str], None]] = []
#: The redirect targets in force, innermost last.
_targets: Final[list[Any]] = []


def start_run(capture: Callable[[str], None]) -> None:
    """Send printed text to ``capture`` from now on, with no redirect in force."""
    _capture[:] = [capture]
    _targets.clear()


def emit(text: str, write_of: Callable[[Any], Callable[[str], Any]]) -> None:
    """Write ``text`` to the innermost redirect target, or to the run's capture.

    ``write_of`` reads a target's ``write`` method (through the attribute guard).
    """
    if _targets:
        write_of(_targets[-1])(text)
    elif _capture:
        _capture[0](text)


class RedirectStdout:
    """``contextlib.redirect_stdout``: print into the program's own file-like object."""

    __slots__ = ("_target",)

    def __init__(self, new_target: Any) -> None:
        self._target = new_target

    def __enter__(self) -> Any:
        _targets.append(self._target)
        return self._target

    def __exit__(self, *exc_info: object) -> None:
        _targets.pop()


#: The one line added when printed output passes ``max_log_bytes``.
TRUNCATION_MARKER: Final = "[codemode] output truncated at {limit} bytes (Limits.max_log_bytes)"


class _Output:
    """Print capture: coalesces text into lines and enforces one byte budget.

    Each completed line goes to ``emit`` (without its newline). A line counts
    its UTF-8 bytes plus one for the newline. The line that would pass the
    budget is cut to fit, followed by the fixed marker line; everything after
    that is dropped. A partial line left at the end is flushed as a line.
    """

    def __init__(self, max_bytes: int, emit: Callable[[str], None]) -> None:
        self._left = max_bytes
        self._limit = max_bytes
        self._emit = emit
        self._partial: list[str] = []
        self._partial_bytes = 0
        self._closed = False

    def set_limit(self, max_bytes: int) -> None:
        """Set the byte budget; only before anything is written."""
        self._left = self._limit = max_bytes

    def write(self, text: str) -> None:
        if self._closed or not text:
            return
        # No collection inside: a finalizer's print would re-enter this write
        # between a check of the budget and its update (a cut line sent twice).
        with collection_paused():
            pieces = text.split("\n")
            for piece in pieces[:-1]:
                if not self._add(piece):
                    return
                self._end_line()
            self._add(pieces[-1])

    def _add(self, piece: str) -> bool:
        """Add text to the current line; ``False`` once the budget is spent."""
        if not piece:
            return True
        # Made valid before it is counted: the host counts what arrives.
        piece = _valid_text(piece)
        size = _utf8_len(piece)
        if self._partial_bytes + size + 1 > self._left:
            # This line cannot complete within the budget: cut it here.
            room = self._left - self._partial_bytes - 1
            if room > 0:
                self._partial.append(_cut_utf8(piece, room))
            self._truncate()
            return False
        self._partial.append(piece)
        self._partial_bytes += size
        return True

    def _end_line(self) -> None:
        line = "".join(self._partial)
        self._left -= self._partial_bytes + 1
        self._partial = []
        self._partial_bytes = 0
        self._emit(line)

    def _truncate(self) -> None:
        # The state changes before anything is handed on: a collector finalizer
        # may print from inside _emit, and must find the output already closed.
        partial, self._partial = self._partial, []
        self._closed = True
        if partial:
            self._emit("".join(partial))
        self._emit(TRUNCATION_MARKER.format(limit=self._limit))

    def flush(self) -> None:
        if not self._closed and self._partial:
            with collection_paused():
                self._end_line()


def _utf8_len(text: str) -> int:
    if text.isascii():
        return len(text)
    return len(text.encode("utf-8"))


def _cut_utf8(text: str, limit: int) -> str:
    return text.encode("utf-8")[:limit].decode("utf-8", "ignore")


def _valid_text(text: str) -> str:
    # A lone surrogate cannot travel as UTF-8; show it as an escape instead.
    if text.isascii():
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "backslashreplace").decode("utf-8")
    return text
