"""Compile a program: the body of an async function, under the filename ``<model>``.

:func:`compile_program` runs on the host for a short program (the pool caches
its result) and in the child for a longer one (see ``sandbox._host_compile``); its
work is linear in the program's size. It returns module code that, executed in
the globals built by
:func:`sandbox._builtins.make_globals`, defines the program's async main
function under :data:`MAIN_NAME` and its source text under
:data:`SOURCE_NAME` (for tracebacks in the child, which never sees the
source otherwise). Both names start with ``_``, so a restricted program can
neither read nor rebind them; the runtime takes them out of the globals
before the program starts.
"""

from __future__ import annotations

import ast
import contextlib
import re
import sys
import threading
import warnings
from typing import TYPE_CHECKING, Final

from ._calls import CallSite, check_sites, find_calls
from ._policy import ProgramPolicy

if TYPE_CHECKING:
    import types
    from collections.abc import Iterator, Sequence

    from bridge.protocol import ToolSignature

__all__ = [
    "MAIN_NAME",
    "MAX_LISTED_ERRORS",
    "MODEL_FILENAME",
    "SOURCE_NAME",
    "ProgramCompileError",
    "check_cached_calls",
    "compile_program",
    "compile_with_calls",
    "parsed_names_are_freed",
    "program_warnings_kept_here",
]

#: The filename of program code: tracebacks keep only frames with this name.
MODEL_FILENAME: Final = "<model>"
#: The global name of the program's async main function.
MAIN_NAME: Final = "__codemode_main__"
#: The global name of the program's source text.
SOURCE_NAME: Final = "__codemode_source__"
#: Errors shown in a compile message; the rest are counted (a long program can
#: hold thousands, and the message must fit the output caps).
MAX_LISTED_ERRORS: Final = 100


class ProgramCompileError(Exception):
    """A program was refused before it ran.

    Attributes:
        errors: every problem found, each as ``Line N: message``, in line order.
        message: the text to show: the first :data:`MAX_LISTED_ERRORS` errors,
            or for tool calls that cannot succeed, the pre-flight check's report.
    """

    def __init__(self, errors: tuple[str, ...], message: str | None = None) -> None:
        self.errors = errors
        if message is None:
            message = "\n".join(errors[:MAX_LISTED_ERRORS])
            if len(errors) > MAX_LISTED_ERRORS:
                message += f"\n... and {len(errors) - MAX_LISTED_ERRORS} more errors"
        self.message = message
        super().__init__(message)

    def __reduce__(self) -> tuple[type[ProgramCompileError], tuple[tuple[str, ...], str]]:
        return (ProgramCompileError, (self.errors, self.message))


def compile_program(
    source: str, *, restricted: bool = True, signatures: Sequence[ToolSignature] | None = None
) -> types.CodeType:
    """Compile a program's source.

    Args:
        source: the body of an async function: top-level ``await`` and
            ``return`` work.
        restricted: apply the language policy (RestrictedPython with this
            project's transformer). ``False`` compiles plain Python; it exists
            for the test that shows the OS layer holding on its own.
        signatures: check the program's tool calls against these first (the
            pre-flight check, :mod:`sandbox._calls`); ``None``: no check.

    Returns:
        Module code defining :data:`MAIN_NAME` and :data:`SOURCE_NAME`.

    Raises:
        ProgramCompileError: listing every error found, each with its line.
    """
    return compile_with_calls(source, restricted=restricted, signatures=signatures)[0]


def compile_with_calls(
    source: str, *, restricted: bool = True, signatures: Sequence[ToolSignature] | None = None
) -> tuple[types.CodeType, tuple[CallSite, ...] | None]:
    """:func:`compile_program`, also returning the program's tool calls for a later check.

    The host caches both by source; :func:`check_cached_calls` then checks the
    calls against another run's tools without parsing the program again.

    Raises:
        ProgramCompileError: listing every error found, each with its line.
    """
    if not isinstance(source, str):
        raise TypeError(f"source must be a str, got source={source!r}")
    try:
        with program_warnings_kept_here():
            return _compile(source, restricted, signatures)
    except (RecursionError, MemoryError):
        # The parser, the transformer and the compiler all recurse over the
        # syntax tree; an expression nested thousands deep exhausts them (the
        # parser's overflow is a MemoryError, like running out of memory).
        raise ProgramCompileError(
            (
                "Line 1: the program is nested too deeply to compile; split long or deeply "
                "nested expressions into several statements",
            )
        ) from None
    except ProgramCompileError:
        raise
    except Exception as exc:
        # A fault of the compiler's on an unusual program, not the program's: it
        # ends this run with a compile error instead of failing the caller.
        raise ProgramCompileError(
            (
                f"Line 1: the compiler failed on this program ({type(exc).__name__}), "
                "a fault of run_code's, not of the program; writing the construct it "
                "stumbled on another way may avoid it",
            )
        ) from exc


@contextlib.contextmanager
def program_warnings_kept_here() -> Iterator[None]:
    """Let the parser and the compiler warn about the program's text to no one.

    CPython's parser and compiler report what they find odd in a program (``x is
    0``, ``(1)(2)``, an invalid escape such as ``"\\d"``) through the process's
    ``warnings`` machinery, under the program's filename. On the host that is
    the caller's: each warning would be written to its standard error (once a
    pipe nobody drains is full, the thread compiling blocks for ever, holding
    the compile lock, with every later short program behind it), and its
    filters would decide the outcome (under ``-W error`` a short program with
    ``x is 0`` would be refused on the host, the same program over 1 KiB run in
    its child). Every warning attributed to :data:`MODEL_FILENAME` is ignored,
    so a program's text has no effect on the process compiling it beyond the
    code, and compiles alike wherever it is compiled; warnings of any other
    module keep the caller's filters.

    The filter is put first in the process's filter list on entry and stays
    there: nothing is saved or restored on exit. ``warnings.catch_warnings``
    swaps process-wide state (the filter list, ``showwarning``) with no regard
    for threads, so a compile in a worker thread overlapping another thread's
    block (the caller's ``catch_warnings``, a pre-flight check) restored the
    other's state in the wrong order: a caller's ``always`` or ``record``
    outlived its block for good, or the ignore filter was gone while the next
    program compiled. An ignore filter for a name no other code uses is the
    one change that is harmless to keep. (A caller's block that exits while a
    program compiles may still take the filter away until the next compile.)
    """
    with _PROGRAM_FILTER_LOCK:
        filters = warnings.filters
        if not filters or filters[0] != _PROGRAM_FILTER:
            # In place: removes an older copy, inserts this one first.
            warnings.filterwarnings("ignore", module=_PROGRAM_MODULE_PATTERN)
    yield


def parsed_names_are_freed() -> bool:
    """Whether the names the parser reads from a text are freed with what was made of it.

    CPython interns every identifier it parses. Up to 3.11 an interned string
    dies with its last reference; from 3.12 on the parser's are immortal, kept
    until the process ends (3.12.1 and 3.13.0 measured: a million fresh
    40-character names parsed, then dropped, left 121 MiB behind). Then every
    name of every program parsed in a process stays in that process for good.
    The answer is read off the interpreter, not its version: one name is parsed
    (and kept, on such an interpreter) and its reference count read, which an
    immortal object reports as at least 2**29.
    """
    tree = ast.parse("codemode_parsed_name_probe", "<probe>", "eval")
    name = tree.body.id  # type: ignore[attr-defined]
    del tree
    return sys.getrefcount(name) < _IMMORTAL_REFERENCE_COUNT


#: No object reaches this many references; an immortal one reports at least this many.
_IMMORTAL_REFERENCE_COUNT: Final = 1 << 29


#: The module a parser's or compiler's warning names for a program: its filename.
_PROGRAM_MODULE_PATTERN: Final = re.escape(MODEL_FILENAME) + r"\Z"
#: The filter entry :func:`program_warnings_kept_here` keeps first (as ``warnings`` stores it).
_PROGRAM_FILTER: Final = ("ignore", None, Warning, re.compile(_PROGRAM_MODULE_PATTERN), 0)
#: Two threads entering at once insert the filter once.
_PROGRAM_FILTER_LOCK: Final = threading.Lock()


def check_cached_calls(
    sites: tuple[CallSite, ...] | None, signatures: Sequence[ToolSignature]
) -> None:
    """The pre-flight check of :func:`compile_program`, on calls found when it was compiled.

    Raises:
        ProgramCompileError: a tool call cannot succeed.
    """
    check = check_sites(sites, signatures)
    if check:
        errors = tuple(str(problem) for problem in check.problems)
        raise ProgramCompileError(errors, check.describe())


def _compile(
    source: str, restricted: bool, signatures: Sequence[ToolSignature] | None
) -> tuple[types.CodeType, tuple[CallSite, ...] | None]:
    tree = _parse(source)
    sites = find_calls(tree)
    if signatures is not None:
        check_cached_calls(sites, signatures)
    errors: list[str] = []
    if restricted:
        policy = ProgramPolicy(errors, [], {})
        tree = policy.visit_program(tree)
    if errors:
        # The transformed tree is not compiled, but the compiler's own checks
        # ('return' in a class body, a nonlocal without a binding, ...) are
        # still worth reporting in the same round.
        compiler_error = _compiler_error(_wrap(_parse(source), source), source)
        if compiler_error is not None and _line_of(compiler_error) not in map(_line_of, errors):
            errors.append(compiler_error)
        raise ProgramCompileError(_ordered(errors))
    wrapped = _wrap(tree, source)
    try:
        return compile(wrapped, MODEL_FILENAME, "exec", dont_inherit=True), sites
    except SyntaxError as exc:
        # Some of the compiler's own checks take their line from where the
        # compiler is, not from the offending node: after the rewrites (an
        # ``except`` body wrapped in ``try``/``finally``, ...) that can be code
        # with no line at all (line -1). The program as written gives the same
        # error at the line the model wrote it on; report that one (only then:
        # compiling it again is a second walk of a program that may be deep).
        written = None
        if exc.lineno is None or exc.lineno < 1:
            written = _compiler_error(_wrap(_parse(source), source), source)
        raise ProgramCompileError((written or _describe_syntax_error(exc, source),)) from None


def _parse(source: str) -> ast.Module:
    try:
        return _future_imports_applied(ast.parse(source, MODEL_FILENAME, "exec"))
    except SyntaxError as exc:
        raise ProgramCompileError((_describe_syntax_error(exc, source),)) from None
    except ValueError as exc:  # a NUL character in the source
        raise ProgramCompileError((f"Line 1: {exc}",)) from None


#: ``from __future__`` features a program may name: every one Python 3.11 has, all
#: of them always on by now, but ``annotations`` (and ``barry_as_FLUFL``, a joke
#: that changes the grammar, which stays refused).
_FUTURE_FEATURES: Final = frozenset(
    {"nested_scopes", "generators", "division", "absolute_import", "with_statement",
     "print_function", "unicode_literals", "generator_stop", "annotations"}
)  # fmt: skip


def _future_imports_applied(module: ast.Module) -> ast.Module:
    """Take the program's leading ``from __future__ import ...`` lines out, applying them.

    A script may open with them (after its docstring), and models write
    ``from __future__ import annotations`` for typed code: its forward
    references (``children: list[Node]`` inside ``class Node``) then work. The
    program's body becomes a function's, where such an import is a syntax
    error, so the lines are taken out here. Every feature but ``annotations`` is
    always on in Python 3.11; that one is applied as the compiler does (PEP
    563): every annotation becomes the text written, a string constant that
    nothing evaluates. Text is strictly less than the expression it replaces,
    so no check is skipped that could matter. A ``__future__`` import anywhere
    else, or of another name, is left for the policy to refuse.
    """
    body = module.body
    start = 1 if body and _is_docstring(body[0]) else 0
    end = start
    features: set[str] = set()
    while end < len(body):
        statement = body[end]
        if not (
            isinstance(statement, ast.ImportFrom)
            and statement.module == "__future__"
            and statement.level == 0
            and all(alias.name in _FUTURE_FEATURES for alias in statement.names)
        ):
            break
        features.update(alias.name for alias in statement.names)
        end += 1
    if end == start:
        return module
    del body[start:end]
    if "annotations" in features:
        _AnnotationsAsText().visit(module)
    return module


def _is_docstring(statement: ast.stmt) -> bool:
    return (
        isinstance(statement, ast.Expr)
        and isinstance(statement.value, ast.Constant)
        and isinstance(statement.value.value, str)
    )


class _AnnotationsAsText(ast.NodeTransformer):
    """Every annotation as the string of its text, as ``from __future__ import annotations``."""

    @staticmethod
    def _text(node: ast.expr | None) -> ast.expr | None:
        if node is None:
            return None
        return ast.copy_location(ast.Constant(ast.unparse(node)), node)

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        node.returns = self._text(node.returns)
        arguments = node.args
        for argument in (
            *arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
            arguments.vararg, arguments.kwarg,
        ):  # fmt: skip
            if argument is not None:
                argument.annotation = self._text(argument.annotation)
        return self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = _function

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        annotation = self._text(node.annotation)
        assert annotation is not None
        node.annotation = annotation
        return self.generic_visit(node)


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


def _compiler_error(tree: ast.Module, source: str) -> str | None:
    try:
        compile(tree, MODEL_FILENAME, "exec", dont_inherit=True)
    except SyntaxError as exc:
        return _describe_syntax_error(exc, source)
    return None


#: What to write instead, after the compiler's message for a slip models make.
_SYNTAX_HINTS: Final = {
    "'await' outside async function": (
        " (a function that awaits is an `async def`, and its calls are awaited in turn: "
        "`await name(...)`, or `await asyncio.gather(...)` of several)"
    ),
}

#: The longest source line shown under a syntax error with its caret.
_MAX_SHOWN_LINE: Final = 240


def _describe_syntax_error(exc: SyntaxError, source: str) -> str:
    """``Line N: SyntaxError: message``, then the line and a caret under the spot, as CPython.

    The caret only for an error of the parser, which has the line's text: an
    error of the compiler (on the wrapped, maybe rewritten, tree) has none, and
    its column may be a rewrite's; its line is taken from the source and shown
    without one. A line longer than :data:`_MAX_SHOWN_LINE` is quoted after the
    message instead.
    """
    line = exc.lineno if exc.lineno is not None and exc.lineno > 0 else 1
    raw = exc.text
    offset = exc.offset if raw is not None else None
    if raw is None:
        lines = source.splitlines()
        raw = lines[line - 1] if line <= len(lines) else ""
    head = f"Line {line}: {type(exc).__name__}: {exc.msg}{_SYNTAX_HINTS.get(exc.msg, '')}"
    text = raw.rstrip("\r\n")
    shown = text.lstrip(" \t\f")
    if not shown.strip():
        return head
    if len(shown) > _MAX_SHOWN_LINE:
        return f"{head} at statement: {shown.strip()!r}"
    if type(offset) is not int or offset < 1:
        return f"{head}\n    {shown.rstrip()}"
    indent = len(text) - len(shown)
    start = min(max(offset - 1 - indent, 0), len(shown))
    end = exc.end_offset
    width = 1
    if exc.end_lineno == exc.lineno and type(end) is int and end > offset:
        width = min(end - offset, len(shown) - start) or 1
    return f"{head}\n    {shown.rstrip()}\n    {' ' * start}{'^' * width}"


_LINE = re.compile(r"^Line (\d+):")


def _line_of(error: str) -> int:
    match = _LINE.match(error)
    return int(match.group(1)) if match else 0


def _ordered(errors: list[str]) -> tuple[str, ...]:
    """Errors in line order (stable), without duplicates."""
    return tuple(sorted(dict.fromkeys(errors), key=_line_of))
