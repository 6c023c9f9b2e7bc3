"""The oracle for the first-try programs: each one run as plain CPython, with the same tools.

A program's expected value is what the language a model expects gives: plain
CPython, no sandbox, the body wrapped in an ``async def``, ``__name__`` bound to
``"__main__"``, ``tools`` calling the very same tool definitions through a native
registry, and the returned value written as JSON the way ``json.dumps`` writes it
(a tuple becomes a list). A failed call raises the program's own
``ToolCallError`` class (``bridge.proxy.ToolCallError``: ``tool_name``, ``code``
and ``type``, as the SDK section documents them) with the message a program
reads in ``run_code`` (:func:`failure_message`), so a program that prints or
returns a caught error's text or attributes is judged on what it really gets.
The test module checks every header against this, so an expected value is never
just what the sandbox happened to return.

The programs are this repository's own, so running them in the test process is
safe; nothing here is a sandbox.
"""

from __future__ import annotations
import __future__

import ast
import builtins
import contextlib
import enum
import io
import itertools
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridge.proxy import ToolCallError
from codemode import AbortSignal, Agent, CallInput, Registry

from .tools import TOOLS

if TYPE_CHECKING:
    from collections.abc import Coroutine, Sequence

__all__ = ["PlainOutcome", "ToolCallError", "failure_message", "run_plain"]

_ids = itertools.count(1)


def failure_message(name: str, message: str, code: str | None, exception_type: str | None) -> str:
    """The text of the ``ToolCallError`` a program gets for a failed call of tool ``name``.

    The wording ``run_code`` gives (``bridge.proxy``), written out here rather than
    borrowed so that the oracle states it: ``tool "get_customer" raised LookupError:
    no customer with id 'c9'`` for an exception the tool raised (its bare class name
    when it had no message), ``tool "forecast" failed (INVALID_ARGS): ...`` for a
    failure with a code, and the host's own text when that already names the tool.
    """
    where = f'tool "{name}"'
    detail = message
    if exception_type is not None:
        detail = exception_type if detail in ("", exception_type) else f"{exception_type}: {detail}"
        if code is None:
            return f"{where} raised {detail}"
    elif code is None and detail.startswith(f"{where} "):
        return detail
    head = f"{where} failed" + (f" ({code})" if code is not None else "")
    return f"{head}: {detail}" if detail else head


@dataclass(frozen=True, slots=True)
class PlainOutcome:
    """What a program returned (as JSON) and printed under plain CPython, or why it failed."""

    value: object
    logs: tuple[str, ...]
    error: str | None


#: The declared tool names: any other name is no tool, as the SDK section says.
_NAMES = frozenset(definition.name for definition in TOOLS)


def _as_sent(value: object) -> object:
    """Arguments as a JSON SDK sends them: a ``str``, ``int`` or ``float`` enum member as its value.

    ``json.dumps`` writes such a member as the value it holds (``Priority.HIGH``
    of a ``StrEnum`` as ``"high"``), and so does ``run_code`` for a tool's
    arguments; the native registry the oracle calls would refuse the member.
    """
    if isinstance(value, enum.Enum) and isinstance(value, str | int | float):
        return value.value
    if isinstance(value, dict):
        return {key: _as_sent(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_as_sent(item) for item in value]
    return value


class _Tools:
    """``tools.name(**kwargs)`` or ``tools.name({...})``: one native call per stub call.

    Only the declared tools exist: another name raises ``AttributeError``
    (``KeyError`` by subscript), so ``hasattr(tools, name)`` answers as in ``run_code``.
    """

    def __init__(self, registry: Registry, agent: Agent, root: str) -> None:
        self._registry = registry
        self._agent = agent
        self._root = root
        self._calls = itertools.count(1)

    def __getattr__(self, name: str) -> Any:
        if name not in _NAMES:
            raise AttributeError(f"no tool named {name!r}")

        async def call(*args: object, **kwargs: object) -> object:
            arguments = _as_sent(args[0] if args else kwargs)
            result = await self._registry.execute(
                CallInput(f"{self._root}:plain:{next(self._calls)}", name, arguments,
                          AbortSignal(), agent=self._agent, root_call_id=self._root)
            )
            if result.is_error:
                error = result.error
                code = error.info.code if error.info is not None else None
                raise ToolCallError(
                    failure_message(name, error.message, code, error.exception_type),
                    name,
                    code,
                    error.exception_type,
                )
            # Fresh, mutable JSON data, as the program receives it from the bridge.
            return json.loads(json.dumps(result.value))

        return call

    def __getitem__(self, name: str) -> Any:
        if name not in _NAMES:
            raise KeyError(f"no tool named {name!r}")
        return self.__getattr__(name)


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


def _one_scope(nodes: Sequence[ast.AST]) -> list[ast.AST]:
    """The nodes of one scope: not those of nested functions, classes and comprehensions.

    A nested scope's name (a ``def``'s, a ``class``'s) is this scope's, and so
    are the targets of walrus expressions inside its comprehensions.
    """
    found: list[ast.AST] = []
    stack = list(nodes)
    while stack:
        node = stack.pop()
        found.append(node)
        if isinstance(node, _COMPREHENSIONS):
            found.extend(n for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
        elif not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))
    return found


def _binds(nodes: Sequence[ast.AST]) -> set[str]:
    names: set[str] = set()
    for node in _one_scope(nodes):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return names


def _declares(nodes: Sequence[ast.AST]) -> set[str]:
    return {
        name
        for node in _one_scope(nodes)
        if isinstance(node, ast.Global | ast.Nonlocal)
        for name in node.names
    }


def _arguments(args: ast.arguments) -> set[str]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {a.arg for a in every if a is not None}


class _ScriptGlobals(ast.NodeTransformer):
    """``global x`` in a function, for a name the program's top level binds, as ``nonlocal x``.

    The top level of a script is its module, so a function's ``global total``
    means the ``total`` the top level set. Here the top level is the body of
    ``__program__``, where that name is a local: ``nonlocal`` reaches it -
    unless a function in between binds the name itself, or the top level
    declared it ``global`` too (then it is a real global either way).
    """

    def __init__(self, body: list[ast.stmt]) -> None:
        self._top = _binds(body) - _declares(body)
        self._enclosing: list[set[str]] = []  # what each enclosing function binds

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> ast.AST:
        if isinstance(node, ast.Lambda):
            bound = _arguments(node.args)
        else:
            bound = (_binds(node.body) | _arguments(node.args)) - _declares(node.body)
        self._enclosing.append(bound)
        try:
            return self.generic_visit(node)
        finally:
            self._enclosing.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_Global(self, node: ast.Global) -> ast.AST | list[ast.stmt]:
        if not self._enclosing:
            return node
        outer = [name for name in node.names if name in self._top
                 and not any(name in bound for bound in self._enclosing)]  # fmt: skip
        if not outer:
            return node
        kept = [name for name in node.names if name not in outer]
        out: list[ast.stmt] = [ast.copy_location(ast.Nonlocal(names=outer), node)]
        if kept:
            out.append(ast.copy_location(ast.Global(names=kept), node))
        return out


def _future_flags(body: list[ast.stmt]) -> int:
    """Take the script's leading ``from __future__`` imports out of ``body``; their flags.

    In a script they come first (after a docstring); inside ``__program__`` they
    would be a syntax error, so the program is compiled with their flags instead.
    """
    start = 1 if body and isinstance(body[0], ast.Expr) and isinstance(
        getattr(body[0], "value", None), ast.Constant) else 0  # fmt: skip
    flags = 0
    while (
        len(body) > start
        and isinstance(statement := body[start], ast.ImportFrom)
        and statement.module == "__future__"
    ):
        for alias in statement.names:
            flags |= getattr(__future__, alias.name).compiler_flag
        del body[start]
    return flags


def _as_function(text: str) -> tuple[ast.Module, int]:
    """The program as ``async def __program__(): <body>``, its lines and strings untouched.

    A function's ``global`` for one of the program's top-level names becomes
    ``nonlocal`` (:class:`_ScriptGlobals`), as the script it reads as would have it.
    Returned with the compiler flags of its ``from __future__`` imports.
    """
    body = ast.parse(text).body
    flags = _future_flags(body)
    scripted = _ScriptGlobals(body)
    body = [scripted.visit(stmt) for stmt in body]
    function = ast.AsyncFunctionDef(
        name="__program__",
        args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=body or [ast.Pass()],
        decorator_list=[],
        returns=None,
    )
    if "type_params" in ast.AsyncFunctionDef._fields:  # Python 3.12 and later
        setattr(function, "type_params", [])  # noqa: B010 - a field 3.11's stubs lack
    module = ast.Module(body=[function], type_ignores=[])
    return ast.fix_missing_locations(module), flags


def _registry() -> Registry:
    registry = Registry(mode="native")
    for definition in TOOLS:
        registry.register(definition)
    return registry


def _top_level_class(func: Any, name: str, /, *bases: Any, **keywords: Any) -> Any:
    # The program's top level is __program__'s body here: its classes are named
    # as a script's top-level classes are (`Point`, not `__program__.<locals>.Point`).
    cls = builtins.__build_class__(func, name, *bases, **keywords)
    cls.__qualname__ = cls.__qualname__.removeprefix("__program__.<locals>.")
    return cls


_SCRIPT_BUILTINS: dict[str, Any] = {**vars(builtins), "__build_class__": _top_level_class}


async def run_plain(text: str) -> PlainOutcome:
    """Run one program as plain CPython against the tools; never raises for a program's fault."""
    agent = Agent("plain")
    namespace: dict[str, Any] = {
        "__builtins__": _SCRIPT_BUILTINS,
        "__name__": "__main__",
        "tools": _Tools(_registry(), agent, f"plain-{next(_ids)}"),
        "ToolCallError": ToolCallError,
    }
    out = io.StringIO()
    try:
        # dont_inherit: this file's `from __future__ import annotations` is not the program's.
        tree, flags = _as_function(text)
        exec(compile(tree, "<program>", "exec", flags=flags, dont_inherit=True), namespace)
        program: Coroutine[Any, Any, object] = namespace["__program__"]()
        with contextlib.redirect_stdout(out):
            returned = await program
        value = json.loads(json.dumps(returned, allow_nan=False))
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        return PlainOutcome(None, tuple(out.getvalue().splitlines()), error)
    return PlainOutcome(value, tuple(out.getvalue().splitlines()), None)
