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

__all__ = ["NO_OUTPUT", "pretty_json", "render_run_output"]

#: What the model reads when a program printed nothing and returned nothing.
NO_OUTPUT: Final = "(run_code completed with no output)"

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
