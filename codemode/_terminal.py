"""Text bound for an operator's terminal, with the controls in it made visible.

What a program prints, returns or raises, what a logged result holds, and what
an imported MCP server says about its tools are untrusted text, and the CLI
writes them to a terminal. A terminal acts on control characters: an escape
sequence can clear the screen, move the cursor and draw over earlier lines
("all tests passed" over an error), hide text, set the window title or, on
some terminals, write the clipboard; a bidirectional override makes a line read
other than it is. So every character of that kind is written as its ``\\uXXXX``
escape instead: the C0 controls but tab and newline, DEL, the C1 controls and
the bidirectional formatting characters. In JSON output the same escapes are
JSON's own, so a parser reads back exactly the text the program produced.
"""

from __future__ import annotations

from typing import Final

__all__ = ["terminal_safe"]

#: The characters a terminal acts on, or that reorder a line as it is shown.
_CONTROLS: Final = (
    *(code for code in range(0x20) if chr(code) not in "\t\n"),
    0x7F,
    *range(0x80, 0xA0),
    0x061C,  # Arabic letter mark
    0x200E, 0x200F,  # left-to-right and right-to-left marks
    *range(0x202A, 0x202F),  # embeddings and overrides
    *range(0x2066, 0x206A),  # isolates
)
_VISIBLE: Final = {code: f"\\u{code:04x}" for code in _CONTROLS}


def terminal_safe(text: str) -> str:
    """``text`` with every terminal control and bidirectional override written as ``\\uXXXX``.

    Linear in ``text``; tab and newline are kept. Valid JSON stays valid and
    decodes to the same value (the escapes are JSON's own).
    """
    return text.translate(_VISIBLE)
