"""The pre-flight check: tool calls that cannot succeed, found before the program runs.

Each statically visible call on the global ``tools`` is checked against the
tools' :class:`~bridge.protocol.ToolSignature`: the tool must exist, and its
arguments, when written out in the call, must fit its declared names. Only what
is certain is flagged: a call whose tool name or arguments are computed (a
variable, ``getattr``, ``**kwargs``, a dict that is not a literal) passes, and
so does every call in a program that binds the name ``tools`` itself.

The check runs wherever the program is compiled (:func:`sandbox._compile.
compile_program`): on the host for a short program, in the child for a longer
one. It has two halves: :func:`find_calls` walks the syntax tree once and
keeps each call's shape as plain data (:class:`CallSite`), so that the host can
cache it with the compiled code; :func:`check_sites` checks those shapes
against a run's tool signatures, a fixed amount of work per call, with
suggestions (``difflib``) only for the first :data:`MAX_LISTED_PROBLEMS`
problems in source order, which are the ones the message lists.
"""

from __future__ import annotations

import ast
import difflib
import functools
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, TypeAlias, final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    from bridge.protocol import ToolSignature

__all__ = [
    "MAX_LISTED_PROBLEMS",
    "CallCheck",
    "CallProblem",
    "CallSite",
    "check_calls",
    "check_sites",
    "check_tool_calls",
    "find_calls",
    "py_string",
]

#: Problems listed in full in the message; the rest are counted.
MAX_LISTED_PROBLEMS: Final = 50

_TOOLS: Final = "tools"
_LISTED: Final = 30  # names shown in "available ..." before "and N more"
_NOT_A_DICT: Final = (
    ast.Constant,
    ast.List,
    ast.Tuple,
    ast.Set,
    ast.JoinedStr,
    ast.ListComp,
    ast.SetComp,
    ast.GeneratorExp,
    ast.Lambda,
)


@final
@dataclass(frozen=True)
class CallProblem:
    """One call that cannot succeed: where it is and what is wrong with it."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"Line {self.line}: {self.message}"


@final
@dataclass(frozen=True)
class CallCheck:
    """What the check found.

    Attributes:
        problems: the first :data:`MAX_LISTED_PROBLEMS` problems, in source order.
        unlisted: how many more problems were found.
    """

    problems: tuple[CallProblem, ...] = ()
    unlisted: int = 0

    def __bool__(self) -> bool:
        return bool(self.problems)

    def describe(self) -> str:
        """The compile message: every listed problem on its own line."""
        listed = "\n".join(str(problem) for problem in self.problems)
        if self.unlisted:
            listed += f"\n... and {self.unlisted} more calls that cannot succeed"
        return f"the program was not run; fix these calls first:\n{listed}"


@final
@dataclass(frozen=True, slots=True)
class CallSite:
    """One statically visible tool call, reduced to what the check reads.

    Attributes:
        line, column: where the call starts.
        name: the tool's literal name.
        positional: how many positional arguments the call has.
        starred: one of them is ``*args``.
        named: each keyword argument's name and line.
        spread: the call has a ``**kwargs`` argument.
        first_kind: what its one positional argument is when that is certainly
            not a dict (``"a list"``, ...), else ``None``.
        first_line: the line of its first positional argument.
        keys: the keys and lines of its one positional argument when that is a
            dict literal with string constant keys, else ``None``.
        texts: each positional argument, then each keyword argument's value, as
            the message that suggests keyword arguments writes it: a short
            constant as its literal, a name as itself, else ``...``.
    """

    line: int
    column: int
    name: str
    positional: int = 0
    starred: bool = False
    named: tuple[tuple[str, int], ...] = ()
    spread: bool = False
    first_kind: str | None = None
    first_line: int = 0
    keys: tuple[tuple[str, int], ...] | None = None
    texts: tuple[str, ...] = ()


def find_calls(tree: ast.Module) -> tuple[CallSite, ...] | None:
    """Every statically visible tool call in ``tree``; ``None`` if it binds ``tools``."""
    if _binds_tools(tree):
        return None
    sites = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = _tool_name(node.func)
            if name is not None:
                sites.append(_site(node, name))
    return tuple(sites)


def _site(call: ast.Call, name: str) -> CallSite:
    positional = call.args
    first = positional[0] if positional else None
    return CallSite(
        line=call.lineno,
        column=call.col_offset,
        name=name,
        positional=len(positional),
        starred=any(isinstance(arg, ast.Starred) for arg in positional),
        named=tuple(
            (keyword.arg, getattr(keyword, "lineno", call.lineno))
            for keyword in call.keywords
            if keyword.arg is not None
        ),
        spread=any(keyword.arg is None for keyword in call.keywords),
        first_kind=_kind(first) if isinstance(first, _NOT_A_DICT) else None,
        first_line=first.lineno if first is not None else call.lineno,
        keys=_literal_keys(first) if first is not None else None,
        texts=(
            tuple(_text(arg) for arg in positional[:_SHOWN_ARGUMENTS])
            + tuple(
                _text(k.value) for k in [k for k in call.keywords if k.arg is not None][
                    :_SHOWN_ARGUMENTS
                ]
            )
            if positional else ()
        ),
    )


#: Positional arguments a keyword-argument suggestion names; the rest are counted.
_SHOWN_ARGUMENTS: Final = 8
#: The longest constant a suggestion repeats; a longer one is written ``...``.
_SHOWN_CONSTANT: Final = 40


def _text(node: ast.expr) -> str:
    """A positional argument as a suggestion repeats it: a short constant, else ``...``."""
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, str):
            text = py_string(value)
        elif value is None or isinstance(value, (bool, int, float)):
            text = repr(value)
        else:
            return "..."
        return text if len(text) <= _SHOWN_CONSTANT else "..."
    if isinstance(node, ast.Name) and len(node.id) <= _SHOWN_CONSTANT:
        return node.id
    return "..."


def check_sites(
    sites: tuple[CallSite, ...] | None, signatures: Iterable[ToolSignature]
) -> CallCheck:
    """The calls among ``sites`` that cannot succeed with these tools, in source order."""
    if not sites:
        return CallCheck()
    checker = _Checker(signatures)
    for site in sites:
        checker.check(site)
    found = sorted(checker.found, key=lambda item: item[0])
    listed = tuple(
        CallProblem(line=line, message=render()) for _, line, render in found[:MAX_LISTED_PROBLEMS]
    )
    return CallCheck(listed, len(found) - len(listed))


def check_calls(tree: ast.Module, signatures: Iterable[ToolSignature]) -> CallCheck:
    """Every statically visible tool call in ``tree`` that cannot succeed, in source order."""
    return check_sites(find_calls(tree), signatures)


def check_tool_calls(source: str, signatures: Iterable[ToolSignature]) -> CallCheck:
    """Parse ``source`` and check its tool calls (:func:`check_calls`).

    A program that does not parse has no problems here: compiling it reports
    its syntax error with better detail. Parsing runs CPython's parser on the
    caller's thread (its warnings about the text reach no one, as when
    compiling); the pool itself calls this only for short programs.
    """
    from ._compile import MODEL_FILENAME, program_warnings_kept_here  # _compile imports this module

    try:
        with program_warnings_kept_here():
            tree = ast.parse(source, MODEL_FILENAME, "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return CallCheck()
    try:
        return check_calls(tree, signatures)
    except RecursionError:  # a pathologically nested program: let the compiler speak
        return CallCheck()


def _binds_tools(tree: ast.AST) -> bool:
    """Whether the program binds the name ``tools`` anywhere (then it is not analysed)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id == _TOOLS and not isinstance(node.ctx, ast.Load):
            return True
        if isinstance(node, ast.arg) and node.arg == _TOOLS:
            return True
        if (
            isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
            and node.name == _TOOLS
        ):
            return True
        if isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == _TOOLS:
            return True
        if isinstance(node, ast.ExceptHandler) and node.name == _TOOLS:
            return True
        if isinstance(node, (ast.Global, ast.Nonlocal)) and _TOOLS in node.names:
            return True
        if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name == _TOOLS:
            return True
        if isinstance(node, ast.MatchMapping) and node.rest == _TOOLS:
            return True
    return False


def _tool_name(func: ast.expr) -> str | None:
    """The literal tool name of ``tools.NAME`` or ``tools["NAME"]``, else None."""
    if isinstance(func, ast.Attribute):
        target = func.value
        name: object = func.attr
    elif isinstance(func, ast.Subscript):
        target = func.slice
        if not (isinstance(target, ast.Constant) and isinstance(target.value, str)):
            return None
        name = target.value
        target = func.value
    else:
        return None
    if isinstance(target, ast.Name) and target.id == _TOOLS and isinstance(name, str):
        return name
    return None


@functools.cache
def _escape_table() -> dict[int, str]:
    # The same escapes as the SDK's string literals: controls as `\xNN`, lone
    # surrogates as `\uNNNN`, so that a name in a message reads as the literal
    # the model would write. Made at the first message, not at import: its
    # 2,100 entries are about 0.25 MiB that the zygote, which imports this
    # module, would hold and every fork would copy the page tables of.
    table: dict[int, str] = {}
    for code in [*range(0x20), *range(0x7F, 0xA0)]:
        table[code] = f"\\x{code:02x}"
    for code in range(0xD800, 0xE000):
        table[code] = f"\\u{code:04x}"
    table.update({ord("\\"): "\\\\", ord('"'): '\\"', ord("\n"): "\\n", ord("\r"): "\\r"})
    table[ord("\t")] = "\\t"
    return table


def py_string(text: str) -> str:
    """A double-quoted Python string literal for ``text``."""
    return '"' + text.translate(_escape_table()) + '"'


def _quoted(names: list[str]) -> str:
    return ", ".join(py_string(name) for name in names)


def _listing(names: Sequence[str]) -> str:
    if not names:
        return "none"
    shown = ", ".join(names[:_LISTED])
    more = len(names) - _LISTED
    return f"{shown}, and {more} more" if more > 0 else shown


def _suggestion(name: str, choices: Sequence[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=3)
    return f" (did you mean {_quoted(close).replace(', ', ' or ')}?)" if close else ""


@final
@dataclass(frozen=True)
class _Shape:
    """A signature prepared for checking: declared names as a list and a set.

    ``identifiers``: whether every declared name is an identifier (so that a
    call can be rewritten with keyword arguments), found once per signature.
    """

    fields: tuple[str, ...]
    declared: frozenset[str]
    required: tuple[str, ...]
    open: bool
    identifiers: bool


#: A problem found: (sort key, line, its message built on demand, since a
#: suggestion costs ``difflib`` time and only the listed problems need one).
_Found: TypeAlias = "tuple[tuple[int, int, int], int, Callable[[], str]]"


class _Checker:
    def __init__(self, signatures: Iterable[ToolSignature]) -> None:
        self.shapes: dict[str, _Shape | None] = {}
        for signature in signatures:
            fields = signature.fields
            self.shapes[signature.name] = (
                None
                if fields is None
                else _Shape(
                    fields, frozenset(fields), signature.required, signature.open,
                    all(field.isidentifier() for field in fields),
                )
            )
        self.names = sorted(self.shapes)
        self.found: list[_Found] = []

    def report(self, site: CallSite, line: int, render: Callable[[], str]) -> None:
        # Problems sort by the position of their call, then in the order found, so
        # one call's problems stay together; each names its own line.
        self.found.append(((site.line, site.column, len(self.found)), line, render))

    def check(self, site: CallSite) -> None:
        name = site.name
        if name not in self.shapes:
            self.report(site, site.line, functools.partial(self.unknown_tool, name))
            return
        shape = self.shapes[name]
        if site.starred:
            return  # `*args` may expand to exactly one dict
        if site.positional > 1 or (site.positional and site.named):
            render = functools.partial(
                _wrong_arguments, name, site.positional, len(site.named), _keywords(site, shape)
            )
            self.report(site, site.line, render)
            return
        if site.positional:
            if site.first_kind is not None:
                render = functools.partial(
                    _not_a_dict, name, site.first_kind, _keywords(site, shape)
                )
                self.report(site, site.first_line, render)
                return
            if site.keys is None or shape is None:
                return
            self.check_names(site, shape, site.keys, what="key")
            return
        if shape is None:
            return
        self.check_names(site, shape, site.named, what="argument")

    def unknown_tool(self, name: str) -> str:
        return (
            f"unknown tool {py_string(name)}{_suggestion(name, self.names)}; "
            f"available tools: {_listing(self.names)}"
        )

    def check_names(
        self, site: CallSite, shape: _Shape, given: tuple[tuple[str, int], ...], *, what: str
    ) -> None:
        name = site.name
        if not shape.open:
            for key, line in given:
                if key not in shape.declared:
                    render = functools.partial(_unknown_name, what, key, name, shape.fields)
                    self.report(site, line, render)
        if not site.spread:
            present = {key for key, _ in given}
            missing = [field for field in shape.required if field not in present]
            if missing:
                self.report(site, site.line, functools.partial(_missing, what, name, missing))


def _keywords(site: CallSite, shape: _Shape | None) -> str | None:
    """The call with its positional arguments named, as the SDK declares them, or ``None``.

    ``tools.get_exchange_rate("EUR", "USD")`` becomes
    ``await tools.get_exchange_rate(base="EUR", quote="USD")``: each positional
    argument takes the next declared name the call does not already pass by
    keyword. ``None`` when the tool's names are unknown, there are more
    positional arguments than names left, or the name is not an identifier.
    """
    if (
        shape is None
        or site.spread
        or not site.name.isidentifier()
        or site.positional > _SHOWN_ARGUMENTS
        or len(site.named) > _SHOWN_ARGUMENTS
        or not shape.identifiers
    ):
        return None
    # At most _SHOWN_ARGUMENTS names passed and as many taken: what this costs
    # is bounded by the call, never by how many names the tool declares (it
    # runs for every call site of a program).
    passed = {key for key, _ in site.named}
    if site.positional > len(shape.fields) - len(passed & shape.declared):
        return None
    free: list[str] = []
    for field in shape.fields:
        if len(free) == site.positional:
            break
        if field not in passed:
            free.append(field)
    texts = site.texts[site.positional:]
    named = [f"{field}={text}" for field, text in zip(free, site.texts, strict=False)]
    named += [f"{key}={text}" for (key, _), text in zip(site.named, texts, strict=False)]
    return f"await {_TOOLS}.{site.name}({', '.join(named)})"


def _instead(keywords: str | None) -> str:
    if keywords is None:
        return "pass keyword arguments or one dict"
    return f"pass keyword arguments or one dict: write {keywords}"


def _wrong_arguments(name: str, positional: int, named: int, keywords: str | None) -> str:
    return (
        f"tool {py_string(name)} was given {_describe_arguments(positional, named)}; "
        + _instead(keywords)
    )


def _not_a_dict(name: str, kind: str, keywords: str | None) -> str:
    return f"tool {py_string(name)} was given {kind}; {_instead(keywords)}"


def _unknown_name(what: str, key: str, name: str, fields: tuple[str, ...]) -> str:
    return (
        f"unknown {what} {py_string(key)} for tool {py_string(name)}"
        f"{_suggestion(key, fields)}; accepted {what}s: {_listing(fields)}"
    )


def _missing(what: str, name: str, missing: list[str]) -> str:
    plural = "s" if len(missing) > 1 else ""
    return f"tool {py_string(name)} is missing required {what}{plural} {_quoted(missing)}"


def _literal_keys(node: ast.expr) -> tuple[tuple[str, int], ...] | None:
    """The keys (and lines) of a dict literal whose keys are all string constants, else None."""
    if not isinstance(node, ast.Dict):
        return None
    keys: list[tuple[str, int]] = []
    for key in node.keys:
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None  # `**spread` (a None key) or a computed key: not certain
        keys.append((key.value, key.lineno))
    return tuple(keys)


def _describe_arguments(positional: int, named: int) -> str:
    parts = [f"{positional} positional argument{'s' if positional != 1 else ''}"]
    if named:
        parts.append(f"{named} keyword argument{'s' if named != 1 else ''}")
    return " and ".join(parts)


def _kind(node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        value = node.value
        if value is None:
            return "None"
        if isinstance(value, bool):
            return "a bool"
        if isinstance(value, (int, float, complex)):
            return "a number"
        return "a str" if isinstance(value, str) else "a constant"
    kinds = {
        ast.List: "a list",
        ast.ListComp: "a list",
        ast.Tuple: "a tuple",
        ast.Set: "a set",
        ast.SetComp: "a set",
        ast.JoinedStr: "a str",
        ast.GeneratorExp: "a generator",
        ast.Lambda: "a function",
    }
    return kinds.get(type(node), "that value")
