"""How a ``run_code`` outcome reads to the model.

Values are laid out by :func:`codemode._tools.pretty_json`, the same writer as the
default tool renderer, so a value reads the same wherever the model sees it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from .._tools import pretty_json

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bridge.lossless import JsonValue

    from ._dispatch import SubCallRecord

__all__ = [
    "MAX_LISTED_CALLS",
    "NO_OUTPUT",
    "describe_calls_ran",
    "pretty_json",
    "render_run_output",
]

#: What the model reads when a program printed nothing and returned nothing.
NO_OUTPUT: Final = "(run_code completed with no output)"

#: Entries (a tool and its outcome, with a count for a run of repeats) a failed
#: run's summary of its calls lists before it only counts the rest.
MAX_LISTED_CALLS: Final = 10

#: Tool names are the registry's, so usually short; a long one is cut here.
_MAX_NAME_CHARS: Final = 60


def describe_calls_ran(calls: Sequence[SubCallRecord]) -> str | None:
    """What a failed run tells the model about the tool calls that already ran.

    ``3 tool calls already ran: send_notification (ok), get_customer (failed) x2;
    running the program again repeats them.``: in the order they ran, so a model
    knows what a retry would do twice. Consecutive calls of one tool with one
    outcome are counted once; past :data:`MAX_LISTED_CALLS` entries the rest is
    only counted, so the text stays short however many calls ran. ``None`` when
    none ran.
    """
    if not calls:
        return None
    groups: list[tuple[str, bool, int]] = []  # (name, failed, consecutive count)
    for call in calls:
        if groups and groups[-1][:2] == (call.name, call.is_error):
            groups[-1] = (call.name, call.is_error, groups[-1][2] + 1)
        else:
            groups.append((call.name, call.is_error, 1))
    entries = [
        f"{_short(name)} ({'failed' if failed else 'ok'})" + (f" x{count}" if count > 1 else "")
        for name, failed, count in groups[:MAX_LISTED_CALLS]
    ]
    rest = sum(count for _, _, count in groups[MAX_LISTED_CALLS:])
    if rest:
        entries.append(f"and {rest} more")
    noun = "tool call" if len(calls) == 1 else "tool calls"
    return (
        f"{len(calls)} {noun} already ran: {', '.join(entries)}; running the program again "
        "repeats them."
    )


def _short(name: str) -> str:
    return name if len(name) <= _MAX_NAME_CHARS else name[: _MAX_NAME_CHARS - 1] + "…"


def render_run_output(logs: Sequence[str], result: JsonValue, *, has_result: bool = True) -> str:
    """The single text block a successful ``run_code`` shows the model.

    The printed lines, then the returned value on a line of its own: a string
    raw, anything else as pretty JSON (``None`` as ``null``). A Python program
    always returns a value, so the no-output placeholder appears only when the
    caller says there is no result and nothing was printed.
    """
    parts = list(logs)
    if has_result:
        parts.append(result if isinstance(result, str) else pretty_json(result))
    text = "\n".join(parts)
    return text if parts else NO_OUTPUT
