"""What an imported MCP server's listing may be: how large, how its tools are named and described.

A server's ``tools/list`` is host work (every tool becomes a checked
definition) and prompt text (names and descriptions reach the model's system
prompt), in amounts the server chooses. Both are bounded here, in one place:

* the listing as a whole, every page together (:class:`ListingBudget`,
  checked as each page arrives, before anything is converted): at most
  :data:`MAX_LISTED_TOOLS` tools, :data:`MAX_LISTED_SCHEMA_NODES` JSON values
  in their schemas and :data:`MAX_LISTED_TEXT_CHARS` characters of names,
  descriptions and schema text. Only what the import uses of each tool is
  kept (:class:`ListedTool`); icons, ``_meta`` and the rest are dropped with
  their page;
* a tool's name: MCP's own rule, 1 to :data:`MAX_TOOL_NAME_CHARS` of
  ``A-Z a-z 0-9 _ - .`` (:func:`name_problem`). Any other name is a problem of
  that tool, judged like an unsupported schema;
* text shown to the model or a terminal (a tool's description, a schema's
  ``description`` and ``title``, the problems reported for a skipped tool):
  every character that is not printable (controls, bidi overrides,
  zero-width and tag characters, lone surrogates) is written as an escape,
  and the text is cut at a bound (:func:`visible_text`).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, final

from .._offload import sized
from ._results import McpCallError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from bridge.lossless import JsonValue

__all__ = [
    "MAX_DESCRIPTION_CHARS",
    "MAX_LISTED_SCHEMA_NODES",
    "MAX_LISTED_TEXT_CHARS",
    "MAX_LISTED_TOOLS",
    "MAX_TOOL_NAME_CHARS",
    "ListedTool",
    "ListingBudget",
    "measure",
    "name_problem",
    "one_line",
    "over_budget",
    "shown_name",
    "visible_text",
]

#: The most tools one server's listing may hold (every page together). Real
#: servers list tens, large ones about a hundred; every tool is converted, and
#: a thousand signatures would fill much of a model's context window.
MAX_LISTED_TOOLS: Final = 1_000
#: The most JSON values the input and output schemas of a listing may hold in
#: all. Converting costs a few microseconds per value (checking, rewriting and
#: freezing each schema); real listings hold thousands, the largest tens of thousands.
MAX_LISTED_SCHEMA_NODES: Final = 250_000
#: The most characters of names, kept descriptions and schema text (keys and
#: strings) a listing may hold in all: what the import keeps in memory and
#: escapes for the prompt. Real listings hold well under a million.
MAX_LISTED_TEXT_CHARS: Final = 4 * 1024 * 1024
#: MCP's limit on a tool name's length.
MAX_TOOL_NAME_CHARS: Final = 128
#: The most characters of one description (a tool's, or one in a schema) the
#: model is shown; the rest is cut, and the cut is marked.
MAX_DESCRIPTION_CHARS: Final = 8_192

#: MCP's rule for a tool name: ASCII letters, digits, ``_``, ``-`` and ``.``.
_NAME: Final = re.compile(r"[A-Za-z0-9_.\-]+", re.ASCII)
_NAME_RULE: Final = (
    f"a tool name must be 1 to {MAX_TOOL_NAME_CHARS} characters of A-Z, a-z, 0-9, "
    '"_", "-" and "." (MCP\'s rule for tool names)'
)
#: How much of a refused name messages show.
_SHOWN_NAME_CHARS: Final = 200
#: Marks text that was cut at its bound.
_CUT: Final = "… (cut)"


def name_problem(name: str) -> str | None:
    """Why ``name`` is not a tool name a model can write, or ``None`` when it is."""
    if not name:
        return "the tool name is empty"
    if len(name) > MAX_TOOL_NAME_CHARS:
        return f"the tool name has {len(name)} characters; {_NAME_RULE}"
    if _NAME.fullmatch(name) is None:
        odd = next(ch for ch in name if _NAME.fullmatch(ch) is None)
        shown = odd if odd.isprintable() and not odd.isspace() else _escape(odd)
        return f'the tool name contains "{shown}"; {_NAME_RULE}'
    return None


def shown_name(name: str) -> str:
    """``name`` as messages may show it: one line, escaped where not printable, cut when long."""
    return one_line(name, _SHOWN_NAME_CHARS)


def visible_text(text: str, limit: int = MAX_DESCRIPTION_CHARS) -> str:
    """``text`` with every non-printable character escaped, at most about ``limit`` characters.

    Newlines and tabs stay (descriptions have paragraphs), and so do spaces of
    any kind; any other character :meth:`str.isprintable` refuses becomes
    ``\\xNN``, ``\\uNNNN`` or ``\\UNNNNNNNN``. Longer text is cut, and ends
    with ``… (cut)``. Linear in ``min(len(text), limit)``: printable text is
    checked in one C call, other text a character at a time.
    """
    return _visible(text, limit, "\n\t")


def one_line(text: str, limit: int) -> str:
    """:func:`visible_text` for a message's line: newlines and tabs are escaped too."""
    return _visible(text, limit, "")


def _visible(text: str, limit: int, kept: str) -> str:
    cut = len(text) > limit
    if cut:
        text = text[:limit]
    checked = text
    for ch in kept:
        checked = checked.replace(ch, " ")
    if not checked.isprintable():
        shown: list[str] = []
        size = 0
        for ch in text:
            raw = ch.isprintable() or ch in kept or unicodedata.category(ch) == "Zs"
            piece = ch if raw else _escape(ch)
            size += len(piece)
            if size > limit:
                cut = True
                break
            shown.append(piece)
        text = "".join(shown)
    return text + _CUT if cut else text


def _escape(ch: str) -> str:
    code = ord(ch)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


@final
@dataclass(frozen=True, slots=True)
class ListedTool:
    """What the import keeps of one listed tool (the SDK's model and the rest of its page go).

    ``description`` is already cut near :data:`MAX_DESCRIPTION_CHARS` (escaping
    it for the model happens with the conversion).
    """

    name: str
    description: str
    input_schema: JsonValue
    output_schema: JsonValue | None
    read_only: bool


@final
class ListingBudget:
    """One listing's running totals, refused with :class:`McpCallError` once past a bound.

    :meth:`take` is given each page's tools as the SDK parsed them; it
    measures them (in a worker thread when large) before keeping them, so a
    listing past its budget is refused while its pages arrive, never converted.
    """

    __slots__ = ("_label", "nodes", "text", "tools")

    def __init__(self, label: str) -> None:
        self._label = label
        self.tools = 0
        self.nodes = 0
        self.text = 0

    async def take(self, page: Sequence[Any]) -> list[ListedTool]:
        """The page's tools, as kept, once they fit the budget with every page before.

        Raises:
            McpCallError: the listing holds more than a bound allows; it names
                the server, the bound and what to do.
        """
        self.tools += len(page)
        problem = over_budget(self._label, self.tools, self.nodes, self.text)
        if problem is not None:
            raise McpCallError("tools/list", problem)
        kept = [_kept(tool) for tool in page]
        schemas: list[object] = [
            s for t in kept for s in (t.input_schema, t.output_schema) if s is not None
        ]
        nodes_left = MAX_LISTED_SCHEMA_NODES - self.nodes
        text_left = MAX_LISTED_TEXT_CHARS - self.text
        nodes, text = await sized(schemas, lambda: measure(schemas, nodes_left, text_left))
        self.nodes += nodes
        self.text += text + sum(len(t.name) + len(t.description) for t in kept)
        problem = over_budget(self._label, self.tools, self.nodes, self.text)
        if problem is not None:
            raise McpCallError("tools/list", problem)
        return kept


def over_budget(label: str, tools: int, nodes: int, text: int) -> str | None:
    """Why a listing of this size is refused (naming the bound and what to do), or ``None``."""
    if tools > MAX_LISTED_TOOLS:
        what = f"more than {MAX_LISTED_TOOLS} tools (MAX_LISTED_TOOLS)"
    elif nodes > MAX_LISTED_SCHEMA_NODES:
        what = (f"tools whose schemas hold more than {MAX_LISTED_SCHEMA_NODES} JSON values "
                "in all (MAX_LISTED_SCHEMA_NODES)")
    elif text > MAX_LISTED_TEXT_CHARS:
        what = (f"more than {MAX_LISTED_TEXT_CHARS} characters of tool names, descriptions "
                "and schema text in all (MAX_LISTED_TEXT_CHARS)")
    else:
        return None
    return (
        f"{label} lists {what}, more than this client imports from one server; nothing "
        "was imported. Have the server expose fewer or smaller tools (many servers can be "
        "told which tools to offer), or split them across servers."
    )


def _kept(tool: Any) -> ListedTool:
    annotations = tool.annotations
    description = tool.description or ""
    return ListedTool(
        name=tool.name,
        # One character past the bound, so that the cut is still seen when shown.
        description=description[: MAX_DESCRIPTION_CHARS + 1],
        input_schema=tool.input_schema,
        output_schema=tool.output_schema,
        read_only=annotations is not None and annotations.read_only_hint is True,
    )


def measure(roots: Sequence[object], nodes_left: int, text_left: int) -> tuple[int, int]:
    """The JSON values in ``roots`` and the characters of their keys and strings.

    Stops once past either budget left, so it costs at most about that many
    steps however large the values are.
    """
    nodes = 0
    text = 0
    pending: list[object] = list(roots)
    while pending and nodes <= nodes_left and text <= text_left:
        item = pending.pop()
        nodes += 1
        if isinstance(item, str):
            text += len(item)
        elif isinstance(item, dict):
            text += sum(map(len, item))
            pending.extend(item.values())
        elif isinstance(item, (list, tuple)):
            pending.extend(item)
    return nodes, text
