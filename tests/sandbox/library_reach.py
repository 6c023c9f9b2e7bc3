"""What a program can reach of the libraries, classified: python -m tests.sandbox.library_reach.

Sets this process up as a child's zygote is (library classes swept, stored
library functions checked: it changes library modules for good, hence a
process of its own), runs ``programs/reach_library_objects.py`` under the
language layer, and prints as JSON every value it reached that breaks rule 7
or 9 of SECURITY.md: a library's Python function (bare, bound, in a
``functools.partial`` or a descriptor) that is not the checked form, an object
of a library class whose Python methods were never swept, a hidden class, or
one of the interpreter's own objects. ``[]`` when there is none.
"""

from __future__ import annotations

import functools
import json
import sys
import types
from pathlib import Path
from typing import Any

from sandbox import _classes, _guards, _library, _program
from sandbox._builtins import SAFE_BUILTINS
from sandbox._compile import compile_program
from sandbox._facades import ALLOWED_MODULES, check_library_internals
from sandbox._runtime import hide_host_locations, run_program

PROGRAM = Path(__file__).parent / "programs" / "reach_library_objects.py"
_OWN_MODULES = ("sandbox", "bridge")
#: The interpreter's own objects a program must never hold (mapping proxies of
#: plain data, such as a dict view's ``mapping``, are data, not class namespaces).
_RUNTIME = (types.FrameType, types.CodeType, types.TracebackType, types.CellType,
            types.ModuleType)


def _module_of(function: types.FunctionType) -> str:
    return str(function.__globals__.get("__name__"))


def _raw_library_function(value: object) -> bool:
    return (
        type(value) is types.FunctionType
        and not _library._wrapped(value)
        and not _program.is_program_function(value)
        and not _module_of(value).startswith(_OWN_MODULES)
    )


def _raw_methods(cls: type) -> list[str]:
    """The public Python methods of ``cls`` and its library bases that were never swept."""
    found = []
    for klass in cls.__mro__:
        if klass in _library._swept or klass.__module__ == "builtins":
            continue
        found += [
            f"{klass.__qualname__}.{name}"
            for name, member in vars(klass).items()
            if name[:1] != "_" and type(member) is types.FunctionType
        ]
    return found


def classify(value: object) -> str | None:
    """What is wrong with a value a program reached, or ``None``."""
    kind = type(value)
    if _raw_library_function(value):
        return f"a raw library function {value.__module__}.{value.__qualname__}"  # type: ignore[attr-defined]
    if kind is types.MethodType and _raw_library_function(value.__func__):  # type: ignore[attr-defined]
        return f"a method bound over a raw library function {value.__qualname__}"  # type: ignore[attr-defined]
    if kind is functools.partial and _raw_library_function(value.func):  # type: ignore[attr-defined]
        return "a partial over a raw library function"
    if kind in (staticmethod, classmethod, property) and any(
        _raw_library_function(getattr(value, part, None))
        for part in ("fget", "fset", "fdel", "__func__")
    ):
        return f"a {kind.__name__} holding a raw library function"
    if isinstance(value, type) and _program.hidden_class(value):
        return f"a hidden class {value.__module__}.{value.__qualname__}"
    if isinstance(value, _RUNTIME):
        return f"an interpreter object ({kind.__name__})"
    if not isinstance(value, type) and not str(kind.__module__).startswith(_OWN_MODULES):
        raws = _raw_methods(kind)
        if raws and not _program.is_program_class(kind):
            return f"an object of a class never swept, with {', '.join(raws)}"
    return None


def main() -> None:
    check_library_internals()
    _library.check_library_selves(_guards.visible_classes())
    _classes.install_program_module(SAFE_BUILTINS)
    hide_host_locations()
    findings: dict[str, str] = {}

    def collect(path: str, value: object) -> None:
        problem = classify(value)
        if problem is not None:
            findings.setdefault(problem, path)

    modules = [f"import {name} as module_{index}" for index, name in enumerate(ALLOWED_MODULES)]
    table = ", ".join(f"{name!r}: module_{index}" for index, name in enumerate(ALLOWED_MODULES))
    source = "\n".join([*modules, f"MODS = {{{table}}}", PROGRAM.read_text()])
    outcome = run_program(
        compile_program(source),
        restricted=True,
        bindings={"collect": collect},
        max_log_bytes=1 << 20,
        max_value_bytes=1 << 20,
        emit_log=lambda line: None,
    )
    report: dict[str, Any] = {"error": outcome.error, "reached": outcome.value,
                              "findings": sorted(f"{problem} (via {path})"
                                                 for problem, path in findings.items())}
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
