"""Loading tools for the command line: ``module``, ``path/to/file.py``, optionally ``:ATTR``."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._errors import RegistrationError
from ._registry import Registry
from ._results import safe_str, type_name
from ._tools import ToolDefinition, tool

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

__all__ = ["ToolSpecError", "load_registry"]


class ToolSpecError(ValueError):
    """A ``--tools`` value could not be turned into tools; the message says why and what to do."""


def _one_line(text: str, limit: int = 300) -> str:
    """``text`` on one line (whitespace runs become one space), cut at ``limit`` characters."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def _split(spec: str) -> tuple[str, str | None]:
    # `pkg.mod:attr` or `dir/file.py:attr`; a Windows drive (`C:\\x.py`) is not an attribute.
    target, sep, attr = spec.rpartition(":")
    if not sep or "/" in attr or "\\" in attr:
        return spec, None
    if not target:
        raise ToolSpecError(
            f"--tools {spec!r}: nothing before ':'; write MODULE:ATTR or FILE.py:ATTR"
        )
    if not attr:
        raise ToolSpecError(
            f"--tools {spec!r}: nothing after ':'; name an attribute (FILE.py:ATTR) or drop "
            "the ':' to use every typed function in the module"
        )
    if not attr.isidentifier():
        raise ToolSpecError(
            f"--tools {spec!r}: {attr!r} after ':' is not a Python identifier; name the "
            "attribute that holds the registry or the list of tools"
        )
    return target, attr


def _import_failure(target: str, exc: BaseException) -> ToolSpecError:
    """One readable line for whatever importing a tools module raised."""
    if isinstance(exc, SyntaxError):
        where = Path(exc.filename).name if exc.filename else target
        line = f", line {exc.lineno}" if exc.lineno else ""
        return ToolSpecError(
            f"--tools {target!r}: syntax error in {where}{line}: {_one_line(str(exc.msg))}"
        )
    detail = _one_line(safe_str(exc))
    name = type_name(exc)
    return ToolSpecError(
        f"--tools {target!r}: importing it failed: {name}: {detail}" if detail
        else f"--tools {target!r}: importing it failed: {name}"
    )


def _current_folder_importable() -> None:
    # The console script's sys.path starts with its own bin directory, not the
    # current folder (as `python -m` would have it): `--tools mytools` run next
    # to mytools.py must find it.
    here = os.getcwd()
    if here not in sys.path and "" not in sys.path:
        sys.path.insert(0, here)


def _import(target: str) -> ModuleType:
    # A tools module is untrusted code: whatever it raises (SystemExit and
    # KeyboardInterrupt included) is a problem with --tools, reported on one line.
    if target.endswith(".py") or "/" in target or "\\" in target:
        path = Path(target)
        if not path.is_file():
            raise ToolSpecError(f"--tools {target!r}: no such file")
        digest = hashlib.sha256(str(path.resolve()).encode()).hexdigest()[:12]
        name = f"codemode_tools_{path.stem}_{digest}"
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise ToolSpecError(f"--tools {target!r}: cannot load this file as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except BaseException as exc:
            del sys.modules[name]
            raise _import_failure(target, exc) from None
        return module
    _current_folder_importable()
    try:
        return importlib.import_module(target)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if target == missing or target.startswith(missing + "."):
            raise ToolSpecError(
                f"--tools {target!r}: no module of that name ({_one_line(str(exc))}); pass a "
                "module name on sys.path (the current folder included) or a path to a .py file"
            ) from None
        raise _import_failure(target, exc) from None
    except BaseException as exc:
        raise _import_failure(target, exc) from None


def _is_annotated(fn: Callable[..., Any]) -> bool:
    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError):
        return False
    if signature.return_annotation is inspect.Signature.empty:
        return False
    return all(p.annotation is not inspect.Parameter.empty for p in signature.parameters.values())


def _as_definition(item: object, where: str) -> ToolDefinition:
    if isinstance(item, ToolDefinition):
        return item
    if inspect.isfunction(item):
        return _typed(item, where)
    raise ToolSpecError(
        f"{where} is {type(item).__name__}, not a tool or a typed function; point :ATTR at "
        "a Registry, a tool, or a list of tools and typed functions"
    )


def _typed(fn: Callable[..., Any], where: str) -> ToolDefinition:
    # A function the typed form cannot describe is a problem with --tools, not a crash.
    try:
        return tool(fn)
    except (TypeError, ValueError) as exc:
        raise ToolSpecError(f"{where}: {fn.__name__}() cannot be a tool: {exc}") from exc


def load_registry(spec: str, *, mode: str = "code") -> Registry:
    """Build the registry a ``--tools`` value names.

    Without ``:ATTR`` every public function defined in the module with full type
    annotations becomes a tool (its docstring the description). With ``:ATTR``
    the attribute may be a :class:`Registry` (used as is), a tool, or a list of
    tools and typed functions.
    """
    target, attr = _split(spec)
    module = _import(target)
    if attr is None:
        functions = [
            obj
            for name, obj in vars(module).items()
            if not name.startswith("_")
            and inspect.isfunction(obj)
            and obj.__module__ == module.__name__
            and _is_annotated(obj)
        ]
        tools = [obj for obj in vars(module).values() if isinstance(obj, ToolDefinition)]
        if not functions and not tools:
            raise ToolSpecError(
                f"--tools {spec!r}: the module defines no public function with type annotations "
                "and no tool; annotate the functions' parameters and return type, or name an "
                "attribute with MODULE:ATTR"
            )
        definitions = tools + [_typed(fn, f"--tools {spec!r}") for fn in functions]
    else:
        try:
            value = getattr(module, attr)
        except AttributeError:
            raise ToolSpecError(f"--tools {spec!r}: the module has no attribute {attr!r}") from None
        if isinstance(value, Registry):
            return value
        if isinstance(value, list | tuple):
            definitions = [
                _as_definition(item, f"--tools {spec!r}: item {i}")
                for i, item in enumerate(value)
            ]
        else:
            definitions = [_as_definition(value, f"--tools {spec!r}")]
    registry = Registry(mode=mode)  # type: ignore[arg-type]
    for definition in definitions:
        try:
            registry.register(definition)
        except RegistrationError as exc:
            raise ToolSpecError(f"--tools {spec!r}: {exc}") from exc
    return registry
