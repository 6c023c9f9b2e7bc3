"""Names and text for the SDK section: identifier rules, class names, literals, descriptions.

Everything here produces text that goes into a Python stub block the model reads, so
every output must be valid Python source whatever the input: no NUL, no lone surrogate,
no line break inside a comment or a string, and no identifier that CPython would
normalise into a different name (CPython applies NFKC to identifiers while parsing,
while tools and keys are compared exactly as written).
"""

from __future__ import annotations

import keyword
import re
import unicodedata
from typing import Final, final

__all__ = [
    "MAX_CLASS_NAME_BASE",
    "ClassNames",
    "branch_base",
    "clean_description",
    "docstring_text",
    "field_base",
    "is_field_name",
    "is_keyword_parameter",
    "is_member_name",
    "name_stem",
    "py_default",
    "py_literal",
    "py_string",
    "root_base",
    "title_base",
]

#: Longest text of a default value shown in a signature; a longer one is ``...``.
MAX_DEFAULT_CHARS: Final = 60

#: Longest class-name base before a collision counter. Nested classes derive their
#: names from their parent's, so without a cap a deep schema would cost quadratic text.
MAX_CLASS_NAME_BASE: Final = 120

# Hard keywords only: soft keywords (`match`, `case`, `type`, `_`) are valid names
# everywhere the SDK puts one.
_HARD_KEYWORDS: Final = frozenset(keyword.kwlist)


def _nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _is_identifier(name: str) -> bool:
    # `isidentifier` applies CPython's own XID tables; NFKC stability makes sure the
    # name the parser binds is the name the schema wrote.
    return (
        name.isidentifier()
        and name not in _HARD_KEYWORDS
        and name != "__debug__"  # CPython refuses to bind it at compile time
        and _nfkc(name) == name
    )


def _is_mangled(name: str) -> bool:
    # Inside a class body `__x` becomes `_Class__x`: a different key than the schema's.
    return name.startswith("__") and not name.endswith("__")


def is_member_name(name: str) -> bool:
    """Whether a tool can be shown as ``async def name`` and called as ``tools.name``.

    Names starting with ``_`` are excluded as a family: some would be mangled at the
    call site, some resolve to attributes every object has, and the sandbox refuses
    underscore attributes anyway; ``tools["_name"]`` reaches all of them.
    """
    return _is_identifier(name) and not name.startswith("_")


def is_field_name(name: str) -> bool:
    """Whether a property can be declared as a ``TypedDict`` field under its own name."""
    return _is_identifier(name) and not _is_mangled(name)


def is_keyword_parameter(name: str) -> bool:
    """Whether a property can be a keyword-only parameter of a ``Tools`` method."""
    return is_field_name(name) and name != "self"


def _is_xid_continue(char: str) -> bool:
    return ("a" + char).isidentifier()


def _is_xid_start(char: str) -> bool:
    return char != "_" and char.isidentifier()


def _camel(text: str) -> str:
    """Split on `_` and on runs of non-identifier characters, capitalise each part, join."""
    parts: list[str] = []
    current: list[str] = []
    for char in text:
        if char != "_" and _is_xid_continue(char):
            current.append(char)
        elif current:
            parts.append("".join(current))
            current = []
    if current:
        parts.append("".join(current))
    return "".join(part[0].upper() + part[1:] for part in parts)


def _ascii_fallback(text: str) -> str:
    # Last resort when case mapping or normalisation produced something CPython
    # would not accept as a class name: keep the ASCII letters and digits only.
    kept = "".join(char for char in text if char.isascii() and char.isalnum())
    return kept if kept and kept[0].isalpha() else "Tool" + kept


def _cap(name: str) -> str:
    # Cutting can leave a prefix NFKC would change, and NFKC can lengthen the text,
    # so repeat until stable; a handful of rounds always suffices in practice.
    for _ in range(8):
        name = name[:MAX_CLASS_NAME_BASE]
        normal = _nfkc(name)
        if normal == name:
            return name
        name = normal
    return _ascii_fallback(name)[:MAX_CLASS_NAME_BASE]


def _valid_class_name(name: str) -> bool:
    return name.isidentifier() and name not in _HARD_KEYWORDS and _nfkc(name) == name


def name_stem(name: str) -> str:
    """The CamelCase stem of a tool name: ``web-fetch`` gives ``WebFetch``.

    A stem that would not start a Python identifier is prefixed with ``Tool``
    (``1st-tool`` gives ``Tool1stTool``); the join is normalised as a whole, since a
    combining mark at the head composes with the prefix's last letter.
    """
    stem = _nfkc(_camel(name))
    if not stem or not _is_xid_start(stem[0]):
        stem = _nfkc("Tool" + stem)
    stem = _cap(stem)
    return stem if _valid_class_name(stem) else _ascii_fallback(stem)[:MAX_CLASS_NAME_BASE]


def title_base(title: str) -> str | None:
    """The class-name base for an object schema's ``title`` (the tool author's type name).

    ``Customer`` stays ``Customer``; other text is CamelCased as tool names are
    (``Page[Customer]`` gives ``PageCustomer``, ``order_line`` gives
    ``OrderLine``). ``None`` when nothing usable is left, so a generated name is used.
    """
    stem = _nfkc(_camel(title))
    if not stem or not _is_xid_start(stem[0]):
        return None
    stem = _cap(stem)
    return stem if _valid_class_name(stem) else None


def field_base(parent: str, field: str) -> str:
    """The class-name base for an object under property ``field`` of class ``parent``.

    The join is normalised as a whole, because two separately stable pieces can
    compose across the seam (Hangul jamo do).
    """
    joined = _cap(_nfkc(parent + _camel(field)))
    if _valid_class_name(joined):
        return joined
    return _cap(parent + _ascii_fallback(_camel(field)))


def root_base(stem: str, suffix: str) -> str:
    """The class-name base for a tool's ``Args`` or ``Output`` class, capped."""
    return _cap(stem + suffix)


def branch_base(parent: str, index: int) -> str:
    """The class-name base for branch ``index`` (from 1) of a ``oneOf`` under ``parent``."""
    return _cap(parent + str(index))


@final
class ClassNames:
    """Allocates unique class names from bases, with ``2``, ``3``, ... on collision.

    A journal makes allocation undoable, so a part of the SDK whose rendering is
    abandoned leaves no trace in the names of later parts.
    """

    def __init__(self, reserved: frozenset[str]) -> None:
        self._used: set[str] = set(reserved)
        self._next: dict[str, int] = {}
        self._journal: list[tuple[str, str, int | None]] = []

    def allocate(self, base: str) -> str:
        """Return ``base`` if free, else ``base`` plus the first free counter from 2."""
        if base not in self._used:
            self._used.add(base)
            self._journal.append((base, base, self._next.get(base)))
            return base
        previous = self._next.get(base)
        counter = previous if previous is not None else 2
        while f"{base}{counter}" in self._used:
            counter += 1
        name = f"{base}{counter}"
        self._used.add(name)
        # Remembering where the scan stopped keeps many collisions on one capped
        # base linear instead of quadratic.
        self._next[base] = counter + 1
        self._journal.append((name, base, previous))
        return name

    def checkpoint(self) -> int:
        """A mark to pass to :meth:`rollback`."""
        return len(self._journal)

    def rollback(self, mark: int) -> None:
        """Forget every allocation made since ``mark``."""
        while len(self._journal) > mark:
            name, base, previous = self._journal.pop()
            self._used.discard(name)
            if previous is None:
                self._next.pop(base, None)
            else:
                self._next[base] = previous


def _escape_table() -> dict[int, str]:
    table: dict[int, str] = {}
    # C0, DEL and C1 controls: CPython refuses NUL anywhere in source, and the rest
    # would be invisible; shown as `\xNN`.
    for code in [*range(0x20), *range(0x7F, 0xA0)]:
        table[code] = f"\\x{code:02x}"
    # Lone surrogates cannot be encoded as UTF-8, so the source would not compile.
    for code in range(0xD800, 0xE000):
        table[code] = f"\\u{code:04x}"
    # Format characters (Unicode's Cf: bidirectional overrides and isolates,
    # zero-width spaces and joiners, the BOM, ...) and the line and paragraph
    # separators: invisible, and a bidi override reorders what the model reads
    # around it. A server's enum value may hold one; shown as `\uXXXX`.
    for first, last in _FORMAT_CHARACTERS:
        for code in range(first, last + 1):
            table[code] = f"\\u{code:04x}" if code <= 0xFFFF else f"\\U{code:08x}"
    return table


#: Unicode's format characters (category Cf) and U+2028/U+2029, as ranges.
_FORMAT_CHARACTERS: Final = (
    (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C), (0x06DD, 0x06DD), (0x070F, 0x070F),
    (0x0890, 0x0891), (0x08E2, 0x08E2), (0x180E, 0x180E), (0x200B, 0x200F), (0x2028, 0x202E),
    (0x2060, 0x2064), (0x2066, 0x206F), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB),
    (0x110BD, 0x110BD), (0x110CD, 0x110CD), (0x13430, 0x1343F), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0001, 0xE0001), (0xE0020, 0xE007F),
)


_VISIBLE: Final = _escape_table()
_STRING_ESCAPES: Final = {
    **_VISIBLE,
    ord("\\"): "\\\\",
    ord('"'): '\\"',
    ord("\n"): "\\n",
    ord("\r"): "\\r",
    ord("\t"): "\\t",
}


def py_string(text: str) -> str:
    """A double-quoted Python string literal for ``text`` that always parses back to it."""
    return '"' + text.translate(_STRING_ESCAPES) + '"'


def clean_description(text: str) -> str:
    """One line of visible text: whitespace runs become one space, controls become escapes.

    An empty result means "no description": no docstring and no comment is written.
    """
    return " ".join(text.split()).translate(_VISIBLE)


#: A quote that could end a ``\"\"\"`` docstring early: one followed by another, or the last.
_CLOSING_QUOTE: Final = re.compile(r'"(?="|\Z)')


def docstring_text(cleaned: str) -> str:
    """Escape a cleaned description for use inside a ``\"\"\"...\"\"\"`` docstring.

    Backslashes are doubled; a quote is escaped only where it could close the
    docstring (one followed by another quote, or the last character), so that
    ``Look a customer up by id (e.g. "c1").`` reads as written.
    """
    return _CLOSING_QUOTE.sub(r'\\"', cleaned.replace("\\", "\\\\"))


def py_default(value: object) -> str | None:
    """A short Python literal for a JSON default value, or ``None`` to show ``...``.

    Scalars as :func:`py_literal` writes them, lists and objects of them as
    ``[...]`` and ``{...}`` literals; anything else, or text longer than
    :data:`MAX_DEFAULT_CHARS`, is ``None``. Never raises.
    """
    parts: list[str] = []
    size = 0
    # Items are values to write or text to append; the budget bounds the walk too.
    stack: list[object] = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, _Text):
            text = item.text
        elif type(item) in (list, dict) and len(item) > MAX_DEFAULT_CHARS:  # type: ignore[arg-type]
            return None  # every item takes at least one character
        elif type(item) is list:
            text = "["
            stack.append(_Text("]"))
            for index in range(len(item), 0, -1):
                stack.append(item[index - 1])
                if index > 1:
                    stack.append(_Text(", "))
        elif type(item) is dict:
            text = "{"
            stack.append(_Text("}"))
            entries = list(item.items())
            for index in range(len(entries), 0, -1):
                key, entry = entries[index - 1]
                if type(key) is not str:
                    return None
                stack.append(entry)
                stack.append(_Text(py_string(key) + ": "))
                if index > 1:
                    stack.append(_Text(", "))
        else:
            literal = py_literal(item)
            if literal is None:
                return None
            text = literal
        size += len(text)
        if size > MAX_DEFAULT_CHARS:
            return None
        parts.append(text)
    return "".join(parts)


@final
class _Text:
    """Literal text inside :func:`py_default`'s work stack (never a default value itself)."""

    __slots__ = ("text",)

    def __init__(self, text: str) -> None:
        self.text = text


def py_literal(value: object) -> str | None:
    """The Python literal for a lossless JSON scalar, or ``None`` if it is not one.

    Integral numbers are written as exact digits (``1e21`` gives
    ``1000000000000000000000``): the digits are the value a program passes back.
    """
    if value is None:
        return "None"
    if value is True:
        return "True"
    if value is False:
        return "False"
    if type(value) is str:
        return py_string(value)
    if type(value) is int:
        try:
            exact = int(float(value)) == value
        except OverflowError:
            return None
        return str(value) if exact else None
    if type(value) is float:
        if value != value or value in (float("inf"), float("-inf")):
            return None
        if value == 0 and str(value).startswith("-"):
            return None
        return str(int(value)) if value.is_integer() else repr(value)
    return None
