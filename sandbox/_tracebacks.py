"""What a failed program is told: its traceback, with its own frames only, and hint lines.

:func:`format_program_exception` turns the exception that ended a program into
the message of its ``exception`` outcome: the traceback keeps only the
program's own frames (filename ``<model>``) and never shows a host path, its
classes print by their plain names, and a line is added under it for a known
slip (an ``except`` that cannot catch a failed tool call, ``value.key`` read
from a dict, a misspelt key, a missing import, ...) and for a program that ran
out of memory, with the limit it hit. :func:`program_frames` is the one reader
of the program's frames, the step the tripwire exempts (``sandbox._tripwire``).
A module apart from the run (:mod:`sandbox._runtime`): the run loop calls it
only once the program has ended. This module runs in the child.
"""

from __future__ import annotations

import builtins
import re
import traceback
import types
from typing import Final

from bridge.proxy import ToolCallError

from ._compile import MAIN_NAME, MODEL_FILENAME
from ._facades import ALLOWED_MODULES
from ._guards import MODEL_MODULE
from ._missing_hints import MISSING_MODULE_HINTS

__all__ = ["SYSTEM_EXIT_HINT", "format_program_exception", "program_frames"]


def _out_of_memory_line(memory_bytes: int) -> str:
    """The last line of a program that ran out of memory: which limit, and its value."""
    return (
        "MemoryError: the program ran out of memory "
        f"(memory limit {_format_bytes(memory_bytes)}, Limits.memory_bytes)"
    )


def _format_bytes(size: int) -> str:
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if size >= scale and size % scale == 0:
            return f"{size // scale} {unit}"
    return f"{size} bytes"


def _with_memory_limit(exc: MemoryError, source: str, line: str) -> str:
    # The traceback if it can still be made (the program's large objects are
    # usually gone with its frames), ending with the limit instead of a bare
    # `MemoryError`; the prepared line alone if not.
    try:
        text = format_program_exception(exc, source)
        head, _, last = text.rpartition("\n")
        if not last.startswith("MemoryError"):
            return text
        detail = last.removeprefix("MemoryError").removeprefix(":").strip()
        last = f"{line}; {detail}" if detail else line
        return f"{head}\n{last}" if head else last
    except MemoryError:
        return line


def format_program_exception(exc: BaseException, source: str) -> str:
    """Format an exception with only the program's frames, showing its source lines."""
    lines = source.splitlines()
    try:
        # limit=0: the traceback module reads no frame here; the program's
        # frames are read by program_frames alone (the tripwire exempts it).
        te = traceback.TracebackException.from_exception(exc, limit=0, lookup_lines=False)
    except BaseException:  # a program's __str__ may raise anything, SystemExit included
        return f"{type(exc).__name__}: <the exception could not be formatted>"
    try:
        _add_stacks(te, exc, lines)
    except BaseException:  # a program's exception attributes may raise anything
        return f"{type(exc).__name__}: <the exception could not be formatted>"
    _filter(te)
    try:
        text = "".join(te.format()).rstrip("\n")
    except BaseException:
        name = te.exc_type.__name__ if te.exc_type else "Exception"
        return f"{name}: <the exception could not be formatted>"
    if isinstance(exc, SystemExit):
        text += f"\n{SYSTEM_EXIT_HINT}"
    text += _tool_error_handler_hint(exc, source)
    text += _dict_attribute_hint(exc)
    text += _tool_error_attribute_hint(exc)
    text += _slip_hint(exc)
    text += _missing_import_hint(exc)
    # The program's own classes print as `<model>.Name`.
    return _plain_names(text)


#: Said under a program's uncaught ``SystemExit`` (``raise SystemExit``, a script's habit).
SYSTEM_EXIT_HINT: Final = (
    "(SystemExit ends a program as a failure; to end it with a result, return the value "
    "at the top level: `return value`)"
)


#: The class names an ``except`` clause of the program names (``except KeyError:``,
#: ``except* (KeyError, ValueError) as error:``), read from its text: the
#: source is not parsed again once the program runs (that would compile).
_EXCEPT_CLAUSE: Final = re.compile(r"\bexcept\b\*?[ \t]*\(?([A-Za-z_][\w \t,.]*)")


def _tool_error_handler_hint(exc: BaseException, source: str) -> str:
    """A line for an uncaught failed tool call that an ``except`` of the program meant to catch.

    A tool's ``KeyError`` reaches the program as a ``ToolCallError`` whose
    ``type`` is ``"KeyError"``, so ``except KeyError:`` (or ``except
    LookupError:``) around the call does not catch it: say so, and what to
    write, when the program names such a class. Only the interpreter's own
    types are read (an exact ``ToolCallError``, a ``str`` type name, builtin
    classes), so no program code runs.
    """
    if type(exc) is not ToolCallError:
        return ""
    raised = vars(exc).get("type")
    if type(raised) is not str:
        return ""
    tool_class = getattr(builtins, raised, None) if raised.isidentifier() else None
    for match in _EXCEPT_CLAUSE.finditer(source):
        for name in match[1].split(","):
            name = name.strip().split(" ")[0]
            named = getattr(builtins, name, None) if name.isidentifier() else None
            if name == raised or (
                isinstance(tool_class, type)
                and isinstance(named, type)
                and issubclass(named, BaseException)
                and issubclass(tool_class, named)
                and not issubclass(ToolCallError, named)
            ):
                return (
                    f"\n(the tool raised {raised}, and a failed tool call reaches the program "
                    f"as ToolCallError, which `except {name}:` does not catch: write `except "
                    f"ToolCallError as error:` and test `error.type == {raised!r}`)"
                )
    return ""


#: How many keys :func:`_dict_attribute_hint` looks through for the name read.
_HINT_KEYS: Final = 10_000


def _dict_attribute_hint(exc: BaseException) -> str:
    """A line for ``value.title`` read from a dict that has the key ``"title"``.

    A tool's value is a plain dict, and models write ``book.title`` for
    ``book["title"]``. Only exact ``str`` keys are compared (iterating the dict
    and ``str`` equality run no code of the program's), at most
    :data:`_HINT_KEYS` of them.
    """
    if type(exc) is not AttributeError:
        return ""
    name = exc.name
    holder = exc.obj
    if type(name) is not str or type(holder) is not dict:
        return ""
    try:
        for index, key in enumerate(holder):
            if index == _HINT_KEYS:
                break
            if type(key) is str and str.__eq__(key, name):
                return (
                    f"\n(the value is a dict with the key {name!r}: read it as "
                    f"value[{name!r}]; a tool returns plain dicts and lists)"
                )
    except RuntimeError:  # a task of the program's changed the dict meanwhile
        pass
    return ""


def _tool_error_attribute_hint(exc: BaseException) -> str:
    """A line for ``error.message`` (or any other undeclared name) read from a ``ToolCallError``.

    Models reach for ``.message``, ``.status_code`` or ``.details`` of a caught
    error; say which attributes it has. Only the exception's exact type is
    read (the name is not: the line is the same for every missing attribute).
    """
    if type(exc) is not AttributeError or type(exc.obj) is not ToolCallError:
        return ""
    return (
        "\n(a ToolCallError has tool_name, code and type; its message is str(error), "
        "e.g. `except ToolCallError as error: print(error.tool_name, error)`)"
    )


#: The interpreter's wording of an exception a model's slip raises (the exact
#: class, its one ``str`` argument in full), and what to write instead; the
#: hint is formatted with the pattern's named groups.
_SLIP_HINTS: Final = (
    (
        TypeError,
        re.compile(r"Object of type \w+ is not JSON serializable"),
        "(json.dumps writes only dicts, lists, str, int, float, bool and None: convert the "
        "value first, e.g. value.isoformat() for a date or datetime, str(value) for a "
        "Decimal, sorted(value) for a set, or pass `default=str`)",
    ),
    (
        TypeError,
        re.compile(r"object [\w.]+ can't be used in 'await' expression"),
        "(only a tool call, a coroutine or a task can be awaited; this value is already "
        "computed: remove the `await`)",
    ),
    (
        KeyError,
        re.compile(r"(?P<key>[A-Za-z_]\w*)"),
        "(no key {key!r} in that dict: check its spelling; a tool's value holds the keys "
        "its TypedDict declares in the SDK; write value.get({key!r}) when a key may be "
        "missing)",
    ),
    (
        ValueError,
        re.compile(
            r"mutable default <class '(?P<kind>list|dict|set)'> for field (?P<field>\w+) "
            r"is not allowed: use default_factory"
        ),
        "(give each object its own {kind}: `from dataclasses import field`, then "
        "`{field}: {kind} = field(default_factory={kind})`)",
    ),
)


def _slip_hint(exc: BaseException) -> str:
    """A line for an exception whose interpreter wording names a known slip.

    A ``KeyError``'s argument is the key itself: only a key that is an exact
    ``str`` and an identifier (a field name a model misspelt) gets a line.

    Only an exception of an exact builtin class holding one exact ``str`` is
    read (its ``args`` are the interpreter's tuple), so no program code runs.
    """
    kind = type(exc)
    if kind is not TypeError and kind is not ValueError and kind is not KeyError:
        return ""
    args = exc.args
    if type(args) is not tuple or len(args) != 1 or type(args[0]) is not str:
        return ""
    for slip_kind, pattern, hint in _SLIP_HINTS:
        match = pattern.fullmatch(args[0]) if slip_kind is kind else None
        if match is not None:
            return "\n" + hint.format(**match.groupdict())
    return ""


#: The interpreter's wording of a name read and bound nowhere.
_UNDEFINED_NAME: Final = re.compile(r"name '(?P<name>[A-Za-z_]\w*)' is not defined")
#: What a program writes to import each top-level name of an offered module.
_IMPORT_OF: Final = {
    name.partition(".")[0]: name for name in sorted(ALLOWED_MODULES, key=len, reverse=True)
}


def _missing_import_hint(exc: BaseException) -> str:
    """A line for ``NameError: name 'json' is not defined``: the import the program left out.

    As Python 3.12 suggests for a module of the standard library; a module a
    program cannot import gets the line its import would have got. Only a
    ``NameError`` of the exact class holding one exact ``str`` is read.
    """
    if type(exc) is not NameError:
        return ""
    args = exc.args
    if type(args) is not tuple or len(args) != 1 or type(args[0]) is not str:
        return ""
    found = _UNDEFINED_NAME.fullmatch(args[0])
    if found is None:
        return ""
    name = found["name"]
    module = _IMPORT_OF.get(name)
    if module is not None:
        return f"\n(did you forget to import {name!r}? write `import {module}` first)"
    hint = MISSING_MODULE_HINTS.get(name)
    if hint is None or name == "tools":
        return ""
    return f"\n(there is no module {name!r} in run_code: {hint})"


def _plain_names(text: str) -> str:
    return text.replace(_PROGRAM_QUALIFIER, "").replace(_PROGRAM_MODULE, "")


# A class of the program is named `<model>.Name` (build_class drops the
# `__codemode_main__.<locals>.` of its qualified name; other names keep it).
_PROGRAM_QUALIFIER: Final = f"{MODEL_MODULE}.{MAIN_NAME}.<locals>."
_PROGRAM_MODULE: Final = f"{MODEL_MODULE}."


def program_frames(tb: object, lines: list[str]) -> list[traceback.FrameSummary]:
    """The program's own frames in traceback ``tb``, outermost first, as summaries.

    The one place the runtime reads frames (``tb_frame``, ``f_code``) once a
    program runs, and the tripwire exempts exactly this function's code for
    those reads: it reads nothing a program controls (the traceback, frame and
    code objects are the interpreter's own types) and hands out only file
    name, line, function name and source line, never a frame or a code object.
    """
    kept = []
    while type(tb) is types.TracebackType:
        code = tb.tb_frame.f_code
        if code.co_filename == MODEL_FILENAME:
            lineno = tb.tb_lineno
            text = lines[lineno - 1].strip() if 0 < lineno <= len(lines) else ""
            name = "<module>" if code.co_name == MAIN_NAME else code.co_name
            kept.append(
                traceback.FrameSummary(MODEL_FILENAME, lineno, name, lookup_line=False, line=text)
            )
        tb = tb.tb_next
    return kept


def _add_stacks(te: traceback.TracebackException, exc: object, lines: list[str]) -> None:
    """Give ``te`` and the exceptions chained to it the program frames of ``exc``'s chain.

    ``te`` was built from ``exc`` without frames; its chain mirrors ``exc``'s
    (``__cause__``, ``__context__``, the members of a group). Iterative: a
    chain can be thousands of exceptions long.
    """
    seen: set[int] = set()
    pending: list[tuple[traceback.TracebackException, object]] = [(te, exc)]
    while pending:
        te, exc = pending.pop()
        if id(te) in seen:
            continue
        seen.add(id(te))
        te.stack = traceback.StackSummary.from_list(
            program_frames(getattr(exc, "__traceback__", None), lines)
        )
        if te.__cause__ is not None:
            pending.append((te.__cause__, getattr(exc, "__cause__", None)))
        if te.__context__ is not None:
            pending.append((te.__context__, getattr(exc, "__context__", None)))
        members = getattr(exc, "exceptions", None) if te.exceptions else None
        if isinstance(members, tuple):
            pending.extend(zip(te.exceptions or (), members, strict=False))


def _filter(te: traceback.TracebackException) -> None:
    """Drop the chained exceptions that have no program frame (iteratively, as above)."""
    seen: set[int] = set()
    pending = [te]
    while pending:
        te = pending.pop()
        if id(te) in seen:
            continue
        seen.add(id(te))
        # A chained exception without a single program frame was being handled
        # by the host when the program started (the event loop inherits the
        # caller's exception state): it is not the program's business.
        if te.__cause__ is not None and not _has_program_frame(te.__cause__):
            te.__cause__ = None
        if te.__context__ is not None and not _has_program_frame(te.__context__):
            te.__context__ = None
        pending.extend(chained for chained in (te.__cause__, te.__context__) if chained)
        pending.extend(getattr(te, "exceptions", None) or ())


def _has_program_frame(te: traceback.TracebackException) -> bool:
    return any(frame.filename == MODEL_FILENAME for frame in te.stack)
