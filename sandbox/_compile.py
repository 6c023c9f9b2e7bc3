"""Compile a program: the body of an async function, under the filename ``<model>``.

:func:`compile_program` runs on the host (the pool caches its result) and
returns module code that, executed in the globals built by
:func:`sandbox._builtins.make_globals`, defines the program's async main
function under :data:`MAIN_NAME` and its source text under
:data:`SOURCE_NAME` (for tracebacks in the child, which never sees the
source otherwise). Both names start with ``_``, so a restricted program can
neither read nor rebind them; the runtime takes them out of the globals
before the program starts.
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING, Final

from ._policy import ProgramPolicy

if TYPE_CHECKING:
    import types

__all__ = ["MAIN_NAME", "MODEL_FILENAME", "SOURCE_NAME", "ProgramCompileError", "compile_program"]

#: The filename of program code: tracebacks keep only frames with this name.
MODEL_FILENAME: Final = "<model>"
#: The global name of the program's async main function.
MAIN_NAME: Final = "__codemode_main__"
#: The global name of the program's source text.
SOURCE_NAME: Final = "__codemode_source__"


class ProgramCompileError(Exception):
    """A program was refused before it ran.

    Attributes:
        errors: every problem found, each as ``Line N: message``, in line order.
    """

    def __init__(self, errors: tuple[str, ...]) -> None:
        self.errors = errors
        super().__init__("\n".join(errors))

    def __reduce__(self) -> tuple[type[ProgramCompileError], tuple[tuple[str, ...]]]:
        return (ProgramCompileError, (self.errors,))


def compile_program(source: str, *, restricted: bool = True) -> types.CodeType:
    """Compile a program's source.

    Args:
        source: the body of an async function: top-level ``await`` and
            ``return`` work.
        restricted: apply the language policy (RestrictedPython with this
            project's transformer). ``False`` compiles plain Python; it exists
            for the test that shows the OS layer holding on its own.

    Returns:
        Module code defining :data:`MAIN_NAME` and :data:`SOURCE_NAME`.

    Raises:
        ProgramCompileError: listing every error found, each with its line.
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got source={source!r}")
    try:
        return _compile(source, restricted)
    except (RecursionError, MemoryError):
        # The parser, the transformer and the compiler all recurse over the
        # syntax tree; an expression nested thousands deep exhausts them.
        raise ProgramCompileError(
            (
                "Line 1: the program is nested too deeply to compile; split long or deeply "
                "nested expressions into several statements",
            )
        ) from None


def _compile(source: str, restricted: bool) -> types.CodeType:
    tree = _parse(source)
    errors: list[str] = []
    if restricted:
        policy = ProgramPolicy(errors, [], {})
        tree = policy.visit_program(tree)
    if errors:
        # The transformed tree is not compiled, but the compiler's own checks
        # ('return' in a class body, a nonlocal without a binding, ...) are
        # still worth reporting in the same round.
        compiler_error = _compiler_error(_wrap(_parse(source), source))
        if compiler_error is not None and _line_of(compiler_error) not in map(_line_of, errors):
            errors.append(compiler_error)
        raise ProgramCompileError(_ordered(errors))
    wrapped = _wrap(tree, source)
    try:
        return compile(wrapped, MODEL_FILENAME, "exec", dont_inherit=True)
    except SyntaxError as exc:
        raise ProgramCompileError((_describe_syntax_error(exc),)) from None


def _parse(source: str) -> ast.Module:
    try:
        return ast.parse(source, MODEL_FILENAME, "exec")
    except SyntaxError as exc:
        raise ProgramCompileError((_describe_syntax_error(exc),)) from None
    except ValueError as exc:  # a NUL character in the source
        raise ProgramCompileError((f"Line 1: {exc}",)) from None


def _wrap(module: ast.Module, source: str) -> ast.Module:
    """Move the module's statements into ``async def MAIN_NAME(): ...``."""
    body: list[ast.stmt] = list(module.body) or [ast.Pass(lineno=1, col_offset=0)]
    main = ast.AsyncFunctionDef(
        name=MAIN_NAME,
        args=ast.arguments(
            posonlyargs=[],
            args=[],
            vararg=None,
            kwonlyargs=[],
            kw_defaults=[],
            kwarg=None,
            defaults=[],
        ),
        body=body,
        decorator_list=[],
        returns=None,
        type_comment=None,
        lineno=1,
        col_offset=0,
    )
    keep_source = ast.Assign(
        targets=[ast.Name(SOURCE_NAME, ast.Store(), lineno=1, col_offset=0)],
        value=ast.Constant(source, lineno=1, col_offset=0),
        lineno=1,
        col_offset=0,
    )
    return ast.fix_missing_locations(ast.Module(body=[keep_source, main], type_ignores=[]))


def _compiler_error(tree: ast.Module) -> str | None:
    try:
        compile(tree, MODEL_FILENAME, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return _describe_syntax_error(exc)
    return None


def _describe_syntax_error(exc: SyntaxError) -> str:
    line = exc.lineno if exc.lineno is not None else 1
    text = (exc.text or "").strip()
    where = f" at statement: {text!r}" if text else ""
    return f"Line {line}: {type(exc).__name__}: {exc.msg}{where}"


_LINE = re.compile(r"^Line (\d+):")


def _line_of(error: str) -> int:
    match = _LINE.match(error)
    return int(match.group(1)) if match else 0


def _ordered(errors: list[str]) -> tuple[str, ...]:
    """Errors in line order (stable), without duplicates."""
    return tuple(sorted(dict.fromkeys(errors), key=_line_of))
