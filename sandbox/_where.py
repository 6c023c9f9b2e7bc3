"""Which line a running program is on, for the report a child sends when it is stopped.

When the host's wall-clock limit (or the CPU limit) ends a run, the model is told
the line the program was on, so that it can see which loop or which call took too
long. The child's signal handler calls :func:`program_line` with the frame the
signal interrupted:

* if the program's own code is on that stack (a loop computing), its innermost
  frame gives the line;
* otherwise the program is suspended in ``await`` (a tool call, a sleep), and the
  chain of awaits from its main task leads to the innermost coroutine of its own.

Program frames are recognised by their globals (the program's namespace), and only
real frames, coroutines and generators are followed, through their types'
descriptors: nothing the program defines runs inside the signal handler.

Child side: imported by the zygote before forking.
"""

from __future__ import annotations

import os
import re
import signal
import types
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    import asyncio

    from bridge.child import ChildChannel
    from sandbox._runtime import PreparedRun

__all__ = [
    "CPU_LIMIT_EXIT",
    "STOP_REPORT_SECONDS",
    "STOP_SIGNAL",
    "install_stop_reports",
    "program_line",
    "stopped_at",
]

#: The signal the host sends to ask a child it is stopping for its program's line.
STOP_SIGNAL: Final = signal.SIGUSR1

#: How long the host waits for a stopped child's report before it kills the child.
#: A child answers within a millisecond unless it is inside one long C call (a
#: huge multiplication, a regular expression backtracking), where no handler runs.
STOP_REPORT_SECONDS: Final = 0.25

#: Program text shown for the line it was on, at most (a longer line is cut).
_MAX_LINE_CHARS: Final = 100

#: The exit status of a child that reached its CPU time limit and reported its line
#: (``SIGXCPU`` is handled instead of ending the child by itself).
CPU_LIMIT_EXIT: Final = 79

#: Frames and awaits followed at most: the handler must finish quickly whatever
#: the program built (deep recursion, long await chains).
_MAX_STEPS: Final = 2000

_CORO_FRAME: Final = types.CoroutineType.cr_frame.__get__
_CORO_AWAIT: Final = types.CoroutineType.cr_await.__get__
_GEN_FRAME: Final = types.GeneratorType.gi_frame.__get__
_GEN_FROM: Final = types.GeneratorType.gi_yieldfrom.__get__


def program_line(
    frame: types.FrameType | None, namespace: dict[str, object], task: asyncio.Task[object] | None
) -> int | None:
    """The line the program is on, or ``None`` when it is in none of its own code.

    Args:
        frame: the frame a signal interrupted (or any frame of the main thread).
        namespace: the program's globals.
        task: the program's main task, for a program suspended in ``await``.
    """
    current = frame
    for _ in range(_MAX_STEPS):
        if current is None:
            break
        if current.f_globals is namespace:
            return current.f_lineno
        current = current.f_back
    if task is None:
        return None
    line: int | None = None
    awaited: object = task.get_coro()
    for _ in range(_MAX_STEPS):
        kind = type(awaited)
        if kind is types.CoroutineType:
            inner, awaited = _CORO_FRAME(awaited), _CORO_AWAIT(awaited)
        elif kind is types.GeneratorType:
            inner, awaited = _GEN_FRAME(awaited), _GEN_FROM(awaited)
        else:
            break  # a future, a tool call, or an object of the program's: stop here
        if inner is None:
            break
        if inner.f_globals is namespace:
            line = inner.f_lineno
    return line


def install_stop_reports(channel: ChildChannel, prepared: PreparedRun, *, cpu_limit: bool) -> None:
    """Answer the host's stop signal, and the CPU limit's ``SIGXCPU``, with a line report.

    On :data:`STOP_SIGNAL` the child sends ``Where(line)`` and carries on until
    the host kills it. On ``SIGXCPU`` (only with ``cpu_limit``, where the rlimit
    applies) it sends the report and exits with :data:`CPU_LIMIT_EXIT`; if it
    cannot run the handler in time, the kernel's ``SIGKILL`` at the hard limit
    still ends it. Nothing a handler raises reaches the interrupted code.
    """

    def report(frame: types.FrameType | None, then_exit: int | None) -> None:
        try:
            channel.report_line(prepared.program_line(frame), then_exit=then_exit)
        except BaseException:  # the report is a courtesy; the stop happens anyway
            if then_exit is not None:
                os._exit(then_exit)

    def on_stop(signum: int, frame: types.FrameType | None) -> None:
        report(frame, None)

    def on_cpu_limit(signum: int, frame: types.FrameType | None) -> None:
        report(frame, CPU_LIMIT_EXIT)

    signal.signal(STOP_SIGNAL, on_stop)
    if cpu_limit:
        signal.signal(signal.SIGXCPU, on_cpu_limit)


def stopped_at(source: str, line: int | None) -> str:
    """The end of a timeout message (host side): the line the program was stopped on.

    ``line`` comes from the child, which is hostile: only a line number of the
    program's own source is shown, with that line's text from the host's copy.
    """
    lines = re.split(r"\r\n?|\n", source)
    if type(line) is not int or not 1 <= line <= len(lines):
        return (
            "; the program did not say which line it was on (it may have been inside one "
            "long operation, which cannot be interrupted)"
        )
    text = lines[line - 1].strip()
    if len(text) > _MAX_LINE_CHARS:
        text = text[: _MAX_LINE_CHARS - 1] + "…"
    return f"; the program was at line {line}" + (f": `{text}`" if text else "")
