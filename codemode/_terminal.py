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

Output of one record a line (a replayed call tree, a list of notes) needs more:
a line break inside one record's field would print lines that look like other
records. :func:`one_line` escapes every line break too, for free text at the
end of a line, and :func:`token` writes a field that must also stay one
unambiguous word (an id, a name) as it is when it is plain, and otherwise as a
JSON string literal that reads back exactly.
"""

from __future__ import annotations

from typing import Final

__all__ = ["one_line", "terminal_safe", "token"]

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


def _escaped(code: int) -> str:
    """A code point as JSON writes it: ``\\uXXXX``, or a surrogate pair past U+FFFF."""
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 | code >> 10:04x}\\u{0xDC00 | code & 0x3FF:04x}"
    return f"\\u{code:04x}"


#: Characters Python counts as printable that a terminal shows as nothing, or as a
#: blank as wide as a letter: a run of them is padding no one sees, which can push
#: the rest of a field onto a row of its own that reads as another record. The
#: Hangul fillers, the Braille blank, the combining grapheme joiner, the Khmer
#: inherent vowels, the Mongolian and the other variation selectors.
_INVISIBLE: Final = frozenset(
    {
        0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, *range(0x180B, 0x1810), 0x2800, 0x3164,
        *range(0xFE00, 0xFE10), 0xFFA0, *range(0xE0100, 0xE01F0),
    }
)  # fmt: skip

#: Every character some reader ends a line at (:meth:`str.splitlines`, terminals,
#: editors), the lone surrogates (which cannot be written as UTF-8), the controls
#: and the printable characters that show as nothing (:data:`_INVISIBLE`).
_ONE_LINE: Final = {
    **_VISIBLE,
    **{ord(ch): f"\\u{ord(ch):04x}" for ch in "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"},
    **{code: f"\\u{code:04x}" for code in range(0xD800, 0xE000)},
    **{code: _escaped(code) for code in _INVISIBLE},
}

#: The JSON escapes a quoted token uses for the characters that have a short one.
_JSON_SHORT: Final = {
    '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t",
}


def terminal_safe(text: str) -> str:
    """``text`` with every terminal control and bidirectional override written as ``\\uXXXX``.

    Linear in ``text``; tab and newline are kept. Valid JSON stays valid and
    decodes to the same value (the escapes are JSON's own).
    """
    return text.translate(_VISIBLE)


def one_line(text: str) -> str:
    """:func:`terminal_safe` for one field of a one-record-a-line output: no line break either.

    Every line break (``\\n``, ``\\r``, ``\\v``, ``\\f``, ``\\x1c``-``\\x1e``,
    ``\\x85``, ``\\u2028``, ``\\u2029``) and every lone surrogate is written as
    its ``\\uXXXX`` escape as well, so the field can neither end its line nor
    start a line that looks like another record's; so is every character that
    shows as nothing (:data:`_INVISIBLE`), which could pad the field onto a row
    of its own. Linear in ``text``; tab is kept.
    """
    return text.translate(_ONE_LINE)


def token(text: str) -> str:
    """``text`` as one word of a space-separated line that a reader can split and read back.

    Plain text (not empty; every character printable and visible, none a
    space, ``"`` or ``\\``) is written as it is, so ordinary ids and names read
    as before. Anything else is written as a JSON string literal in which every
    character that is not printable, or shows as nothing (a Hangul filler, the
    Braille blank: padding that could push the rest onto a row of its own), is
    escaped (``\\n``, ``\\uXXXX``, a surrogate pair past U+FFFF): one line,
    nothing a terminal acts on, and ``json.loads`` of it gives back ``text``
    exactly. Linear in ``text``.
    """
    if (
        text
        and text.isprintable()
        and not any(ch in text for ch in ' "\\')
        and (text.isascii() or not any(ord(ch) in _INVISIBLE for ch in text))
    ):
        return text
    parts = ['"']
    for ch in text:
        short = _JSON_SHORT.get(ch)
        if short is not None:
            parts.append(short)
        elif ch.isprintable() and ord(ch) not in _INVISIBLE:
            parts.append(ch)
        else:
            parts.append(_escaped(ord(ch)))
    parts.append('"')
    return "".join(parts)
