"""The pre-flight check: reject, before any call runs, tool calls that cannot succeed.

A program is parsed (never run) and each statically visible call on the global
``tools`` is checked against the SDK the model was shown: the tool must exist, and
its arguments, when written out in the call, must fit the parameter schema. Every
problem is listed, so the model can fix them all in one go; nothing is dispatched.

Only what is certain is flagged. A call whose tool name or arguments are computed (a
variable, ``getattr``, ``**kwargs``, a dict that is not a literal) passes, and so does
every call in a program that binds the name ``tools`` itself. A program with a syntax
error passes too: compiling it reports that error with better detail.
"""

from __future__ import annotations

import ast
import difflib
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, final

from ._sdk_names import py_string
from ._sdk_types import ObjectShape, object_shape

if TYPE_CHECKING:
    from collections.abc import Mapping, Sequence

    from ._sdk import SdkTool

__all__ = ["PreflightProblem", "preflight"]

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
class PreflightProblem:
    """One call that cannot succeed: where it is and what is wrong with it."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"Line {self.line}: {self.message}"


def preflight(source: str, tools: Mapping[str, SdkTool]) -> list[PreflightProblem]:
    """List every statically visible tool call in ``source`` that cannot succeed.

    Args:
        source: the program (the body of an async function).
        tools: the tools the program may call, by name.

    Returns:
        The problems in source order; empty when nothing certain is wrong, including
        when ``source`` does not parse.
    """
    try:
        tree = ast.parse(source, mode="exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    try:
        if _binds_tools(tree):
            return []
        checker = _Checker(tools)
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                checker.check(node)
    except RecursionError:  # a pathologically nested program: let the compiler speak
        return []
    checker.found.sort(key=lambda item: item[0])
    return [problem for _, problem in checker.found]


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


def _quoted(names: list[str]) -> str:
    return ", ".join(py_string(name) for name in names)


def _listing(names: list[str]) -> str:
    if not names:
        return "none"
    shown = ", ".join(names[:_LISTED])
    more = len(names) - _LISTED
    return f"{shown}, and {more} more" if more > 0 else shown


def _suggestion(name: str, choices: list[str]) -> str:
    close = difflib.get_close_matches(name, choices, n=3)
    return f" (did you mean {_quoted(close).replace(', ', ' or ')}?)" if close else ""


class _Checker:
    def __init__(self, tools: Mapping[str, SdkTool]) -> None:
        self.tools = tools
        self.names = sorted(tools)
        self.found: list[tuple[tuple[int, int, int], PreflightProblem]] = []
        self.call: ast.Call | None = None

    def report(self, node: ast.AST, message: str) -> None:
        # Problems sort by the position of their call, then in the order found, so
        # one call's problems stay together; each names its own line.
        assert self.call is not None
        key = (self.call.lineno, self.call.col_offset, len(self.found))
        line = getattr(node, "lineno", self.call.lineno)
        self.found.append((key, PreflightProblem(line=line, message=message)))

    def check(self, call: ast.Call) -> None:
        name = _tool_name(call.func)
        if name is None:
            return
        self.call = call
        tool = self.tools.get(name)
        if tool is None:
            self.report(
                call,
                f"unknown tool {py_string(name)}{_suggestion(name, self.names)}; "
                f"available tools: {_listing(self.names)}",
            )
            return
        self.check_arguments(call, name, object_shape(tool.parameters))

    def check_arguments(self, call: ast.Call, name: str, shape: ObjectShape | None) -> None:
        positional = call.args
        named = [keyword for keyword in call.keywords if keyword.arg is not None]
        spread = len(named) != len(call.keywords)
        if any(isinstance(arg, ast.Starred) for arg in positional):
            return  # `*args` may expand to exactly one dict
        if len(positional) > 1 or (positional and named):
            self.report(
                call,
                f"tool {py_string(name)} was given "
                f"{_describe_arguments(len(positional), len(named))}; "
                "pass keyword arguments or one dict",
            )
            return
        if positional:
            given = _literal_keys(positional[0])
            if isinstance(positional[0], _NOT_A_DICT):
                self.report(
                    positional[0],
                    f"tool {py_string(name)} was given {_kind(positional[0])}; "
                    "pass keyword arguments or one dict",
                )
                return
            if given is None or shape is None:
                return
            self.check_names(call, name, shape, given, what="key", complete=not spread)
            return
        if shape is None:
            return
        given_named = [(keyword, keyword.arg or "") for keyword in named]
        self.check_names(call, name, shape, given_named, what="argument", complete=not spread)

    def check_names(
        self,
        call: ast.Call,
        name: str,
        shape: ObjectShape,
        given: Sequence[tuple[ast.AST, str]],
        *,
        what: str,
        complete: bool,
    ) -> None:
        declared = [field for field, _ in shape.fields]
        if not shape.open:
            for node, key in given:
                if key not in declared:
                    self.report(
                        node,
                        f"unknown {what} {py_string(key)} for tool {py_string(name)}"
                        f"{_suggestion(key, declared)}; accepted {what}s: {_listing(declared)}",
                    )
        if complete:
            present = {key for _, key in given}
            missing = [field for field in declared if field in shape.required - present]
            if missing:
                plural = "s" if len(missing) > 1 else ""
                self.report(
                    call,
                    f"tool {py_string(name)} is missing required {what}{plural} "
                    f"{_quoted(missing)}",
                )


def _literal_keys(node: ast.expr) -> list[tuple[ast.AST, str]] | None:
    """The keys of a dict literal whose keys are all string constants, else None."""
    if not isinstance(node, ast.Dict):
        return None
    keys: list[tuple[ast.AST, str]] = []
    for key in node.keys:
        if not (isinstance(key, ast.Constant) and isinstance(key.value, str)):
            return None  # `**spread` (a None key) or a computed key: not certain
        keys.append((key, key.value))
    return keys


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
