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

import ast
import builtins
import contextlib
import io
import itertools
import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bridge.proxy import ToolCallError
from codemode import AbortSignal, Agent, CallInput, Registry

from .tools import TOOLS

if TYPE_CHECKING:
    from collections.abc import Coroutine

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


class _Tools:
    """``tools.name(**kwargs)`` or ``tools.name({...})``: one native call per stub call."""

    def __init__(self, registry: Registry, agent: Agent, root: str) -> None:
        self._registry = registry
        self._agent = agent
        self._root = root
        self._calls = itertools.count(1)

    def __getattr__(self, name: str) -> Any:
        async def call(*args: object, **kwargs: object) -> object:
            arguments = args[0] if args else kwargs
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
        return self.__getattr__(name)


def _as_function(text: str) -> ast.Module:
    """The program as ``async def __program__(): <body>``, its lines and strings untouched."""
    body = ast.parse(text).body
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
    return ast.fix_missing_locations(module)


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
        exec(compile(_as_function(text), "<program>", "exec", dont_inherit=True), namespace)
        program: Coroutine[Any, Any, object] = namespace["__program__"]()
        with contextlib.redirect_stdout(out):
            returned = await program
        value = json.loads(json.dumps(returned, allow_nan=False))
    except Exception as exc:
        error = f"{type(exc).__name__}: {exc}"
        return PlainOutcome(None, tuple(out.getvalue().splitlines()), error)
    return PlainOutcome(value, tuple(out.getvalue().splitlines()), None)
