"""How a ``run_code`` outcome reads to the model (rendered text, pretty JSON)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import msgspec

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bridge.lossless import JsonValue

__all__ = ["NO_OUTPUT", "pretty_json", "render_run_output"]

#: What the model reads when a program printed nothing and returned nothing.
NO_OUTPUT: Final = "(run_code completed with no output)"

# Indentation stops growing after this many levels; deeper subtrees are written
# compactly, so a deeply nested value cannot blow up the text quadratically.
_MAX_PRETTY_DEPTH: Final = 5
_INDENT: Final = "  "


def _compact(value: JsonValue) -> str:
    return msgspec.json.encode(value).decode()


def pretty_json(value: JsonValue) -> str:
    """JSON with two-space indentation for the first five levels, compact below.

    Written with an explicit work stack (no recursion, compact subtrees
    included), so a value of any depth renders, in text linear in its size.
    """
    out: list[str] = []
    # Work items: a str is emitted as is; a (value, depth) pair is rendered.
    work: list[str | tuple[JsonValue, int]] = [(value, 0)]
    while work:
        item = work.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node, depth = item
        if isinstance(node, dict) and node:
            pretty = depth < _MAX_PRETTY_DEPTH
            inner = "\n" + _INDENT * (depth + 1) if pretty else ""
            seq: list[str | tuple[JsonValue, int]] = ["{"]
            for i, (key, child) in enumerate(node.items()):
                seq.append(("," if i else "") + inner + _compact(key) + (": " if pretty else ":"))
                seq.append((child, depth + 1))
            seq.append(("\n" + _INDENT * depth if pretty else "") + "}")
            work.extend(reversed(seq))
        elif isinstance(node, list | tuple) and node:
            pretty = depth < _MAX_PRETTY_DEPTH
            inner = "\n" + _INDENT * (depth + 1) if pretty else ""
            seq = ["["]
            for i, child in enumerate(node):
                seq.append(("," if i else "") + inner)
                seq.append((child, depth + 1))
            seq.append(("\n" + _INDENT * depth if pretty else "") + "]")
            work.extend(reversed(seq))
        else:
            out.append(_compact(node))
    return "".join(out)


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
