"""Where a run's printed text goes: the capture, or a ``redirect_stdout`` target.

A program has no real standard output: ``print`` hands its text to the run's
capture. ``contextlib.redirect_stdout(buffer)`` (the façade's) and
``pprint.pprint`` route through here so that they behave as in Python - the
redirect sends ``print`` and ``pprint`` output to the program's own
file-like object, through the attribute guard - without ever touching the
process's streams. One run per process; :func:`start_run` resets the state.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["RedirectStdout", "emit", "start_run"]

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
