"""Loading tools for the command line: ``module``, ``path/to/file.py``, optionally ``:ATTR``."""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._errors import RegistrationError
from ._registry import Registry
from ._tools import ToolDefinition, tool

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import ModuleType

__all__ = ["ToolSpecError", "load_registry"]


class ToolSpecError(ValueError):
    """A ``--tools`` value could not be turned into tools; the message says why and what to do."""


def _split(spec: str) -> tuple[str, str | None]:
    # `pkg.mod:attr` or `dir/file.py:attr`; a Windows drive (`C:\\x.py`) is not an attribute.
    target, sep, attr = spec.rpartition(":")
    if sep and attr.isidentifier() and target:
        return target, attr
    return spec, None


def _import(target: str) -> ModuleType:
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
        except Exception as exc:
            del sys.modules[name]
            raise ToolSpecError(f"--tools {target!r}: importing it failed: {exc!r}") from exc
        return module
    try:
        return importlib.import_module(target)
    except ImportError as exc:
        raise ToolSpecError(
            f"--tools {target!r}: no module of that name ({exc}); pass a module name on "
            "sys.path or a path to a .py file"
        ) from exc


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
