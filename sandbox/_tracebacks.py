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
import contextlib
import difflib
import itertools
import re
import sys
import traceback
import types
from typing import TYPE_CHECKING, Final, cast

from bridge.proxy import ToolCallError

from ._compile import MAIN_NAME, MODEL_FILENAME
from ._facades import ALLOWED_MODULES
from ._guards import MODEL_MODULE
from ._guards_dicts import _class_dict, _own_attributes
from ._missing_hints import MISSING_MODULE_HINTS
from ._program import real_mro

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

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


def format_program_exception(
    exc: BaseException, source: str, global_names: Iterable[object] = ()
) -> str:
    """Format an exception with only the program's frames, showing its source lines.

    ``global_names`` are the names the program's top level reads past its own
    (its builtins and bindings, ``tools`` among them): with the names its frames
    bind, the candidates of a misspelt name's ``Did you mean`` (:func:`_suggestion`).
    """
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
    # A suggestion or a hint is a help: one that fails is left out, the traceback stands.
    with contextlib.suppress(Exception):
        text += _suggestion(exc, lines, global_names, text)
    if isinstance(exc, SystemExit):
        text += f"\n{SYSTEM_EXIT_HINT}"
    hints: tuple[Callable[[], str], ...] = (
        lambda: _tool_error_handler_hint(exc, source),
        lambda: _dict_attribute_hint(exc),
        lambda: _tool_error_attribute_hint(exc),
        lambda: _slip_hint(exc),
        lambda: _missing_import_hint(exc),
    )
    for hint in hints:
        with contextlib.suppress(Exception):
            text += hint()
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


#: What a dict answers itself (``value.item`` is a method misspelt, not a key).
_DICT_NAMES: Final = tuple(dir(dict))


def _dict_attribute_hint(exc: BaseException) -> str:
    """A line for ``value.title`` read from a dict that has the key ``"title"`` (or ``"titel"``).

    A tool's value is a plain dict, and models write ``book.title`` for
    ``book["title"]``. Only exact ``str`` keys are compared (iterating the dict
    and ``str`` equality run no code of the program's), at most
    :data:`_HINT_KEYS` of them; without the very key, the closest one
    (as a tool's misspelt argument is matched, among the first
    :data:`_MAX_CANDIDATES`) is named, unless the name read is close to a
    method of ``dict`` itself (that is CPython's ``Did you mean``).
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
        keys = [key for key in itertools.islice(holder, _MAX_CANDIDATES) if type(key) is str]
    except RuntimeError:  # a task of the program's changed the dict meanwhile
        return ""
    if len(name) > _MAX_NAME or closest_name(name, _DICT_NAMES) is not None:
        return ""
    matches = difflib.get_close_matches(name, [k for k in keys if len(k) <= _MAX_NAME], n=1)
    if not matches:
        return ""
    close = matches[0]
    return (
        f"\n(the value is a dict, with the key {close!r} but no {name!r}: read it as "
        f"value[{close!r}]; a tool returns plain dicts and lists)"
    )


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
        TypeError,
        re.compile(r"list indices must be integers or slices, not str"),
        "(a list is indexed by position; to find an item by one of its fields, write "
        "next((item for item in value if item['id'] == key), None), or make a dict of them "
        "first: {{item['id']: item for item in value}})",
    ),
    (
        TypeError,
        re.compile(r"string indices must be integers, not 'str'"),
        "(that value is a str; iterating a dict gives its keys, which are strings: iterate "
        "value.items(), or the list a key of it holds, e.g. value['items'])",
    ),
    (
        TypeError,
        re.compile(r"unhashable type: 'slice'"),
        "(a dict cannot be sliced: slice the list one of its keys holds, e.g. "
        "value['items'][:3], or list(value.items())[:3])",
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


#: Bounds of a ``Did you mean``, as CPython's: the names compared, and the length
#: of a name compared (a longer one is never suggested nor suggested for).
_MAX_CANDIDATES: Final = 750
_MAX_NAME: Final = 40
_MOVE_COST: Final = 2
_CASE_COST: Final = 1

#: The interpreter's wording of an attribute not found.
_NO_ATTRIBUTE: Final = re.compile(r".* has no attribute '(?P<name>[A-Za-z_]\w*)'")
#: A module's member not found, as a façade words it: the members follow.
_NO_MEMBER: Final = re.compile(
    r"(?:module '[\w.]+' has no attribute|cannot import name) '(?P<name>[A-Za-z_]\w*)' "
    r"(?:from '[\w.]+' )?in run_code; (?:.*; )?available: (?P<names>[\w, ]*)",
    re.DOTALL,
)

def _distance(a: str, b: str, max_cost: int) -> int:
    """The Levenshtein distance of ``a`` and ``b`` as CPython weighs it, or ``max_cost + 1``.

    Python 3.12's ``traceback._levenshtein_distance``: a case change costs 1, any
    other edit 2; it stops once the distance is above ``max_cost``.
    """
    if a == b:
        return 0
    start = 0
    while start < len(a) and start < len(b) and a[start] == b[start]:
        start += 1
    a, b = a[start:], b[start:]
    while a and b and a[-1] == b[-1]:
        a, b = a[:-1], b[:-1]
    if not a or not b:
        return _MOVE_COST * (len(a) + len(b))
    if len(a) > _MAX_NAME or len(b) > _MAX_NAME:
        return max_cost + 1
    if len(b) < len(a):
        a, b = b, a
    if (len(b) - len(a)) * _MOVE_COST > max_cost:
        return max_cost + 1
    row = list(range(_MOVE_COST, _MOVE_COST * (len(a) + 1), _MOVE_COST))
    result = 0
    for b_index, b_char in enumerate(b):
        distance = result = b_index * _MOVE_COST
        minimum = sys.maxsize
        for index, a_char in enumerate(a):
            if b_char == a_char:
                cost = 0
            elif b_char.lower() == a_char.lower():
                cost = _CASE_COST
            else:
                cost = _MOVE_COST
            substitute = distance + cost
            distance = row[index]
            result = min(min(result, distance) + _MOVE_COST, substitute)
            row[index] = result
            minimum = min(minimum, result)
        if minimum > max_cost:
            return max_cost + 1
    return result


def closest_name(wrong: str, candidates: Iterable[object]) -> str | None:
    """The candidate closest to the misspelt ``wrong``, as CPython 3.12 chooses it, or ``None``.

    Only exact ``str`` candidates count (no comparison runs code of the
    program's), at most :data:`_MAX_CANDIDATES` of them; a private name
    (``_x``) only for a private ``wrong``, as CPython 3.12 has it.
    """
    if len(wrong) > _MAX_NAME:
        return None
    private = wrong.startswith("_")
    best: str | None = None
    best_distance = len(wrong)
    compared = 0
    for name in candidates:
        if type(name) is not str or (not private and name.startswith("_")) or name == wrong:
            continue
        compared += 1
        if compared > _MAX_CANDIDATES:
            break
        limit = min((len(name) + len(wrong) + 3) * _MOVE_COST // 6, best_distance - 1)
        distance = _distance(wrong, name, limit)
        if distance <= limit and (best is None or distance < best_distance):
            best, best_distance = name, distance
    return best


def _suggestion(
    exc: BaseException, lines: list[str], global_names: Iterable[object], text: str
) -> str:
    """``. Did you mean: 'customer'?`` for a misspelt name or attribute, as CPython 3.11 says.

    CPython's interpreter adds it when it prints the traceback, and the program's
    message is made here instead, so it is made here too, from what can be read
    without running any code of the program's: for a ``NameError`` the names
    the program's frames bind (the innermost one's and its top level's, read
    by :func:`program_frames`) and ``global_names``; for an ``AttributeError``
    the names of the object's class dicts along its real MRO and of its own
    ``__dict__`` read by the interpreter's own slot (:func:`_attribute_names`).
    Only an exception of the exact class, with the interpreter's wording, gets
    one, and only when its line ends the text (no note follows it).
    """
    kind = type(exc)
    if kind is not NameError and kind is not AttributeError and kind is not ImportError:
        return ""
    args = exc.args
    if type(args) is not tuple or len(args) != 1 or type(args[0]) is not str:
        return ""
    message = args[0]
    if not text.endswith(message):
        return ""
    found = _NO_MEMBER.fullmatch(message)
    candidates: Iterable[object]
    if found is not None:
        candidates = found["names"].split(", ")
    elif isinstance(exc, NameError):  # the exact class, as tested above
        found = _UNDEFINED_NAME.fullmatch(message)
        if found is None:
            return ""
        bound: list[tuple[str, ...]] = []
        program_frames(exc.__traceback__, lines, bound)
        frames = [bound[-1], bound[0]] if bound else []
        candidates = itertools.chain(*frames, global_names)
    elif isinstance(exc, AttributeError):
        found = _NO_ATTRIBUTE.fullmatch(message)
        # The exact str the interpreter sets: a program may raise its own, with any name.
        if found is None or type(exc.name) is not str or exc.name != found["name"]:
            return ""
        candidates = _attribute_names(exc.obj)
    else:
        return ""
    name = closest_name(found["name"], candidates)
    return f". Did you mean: {name!r}?" if name is not None else ""


def _attribute_names(holder: object) -> Iterable[object]:
    """The names ``dir(holder)`` would list, read without running any code of the program's.

    A class's names are those of its real MRO's class dicts, an object's those
    of its own ``__dict__`` (read as the attribute guard reads it, by the
    interpreter's own slot: :func:`~sandbox._guards_dicts._own_attributes`) and
    of its class's. Keys are compared as exact ``str`` only, and at most
    :data:`_HINT_KEYS` of each dict are looked at.
    """
    mro = real_mro(type(holder))
    if any(klass is type for klass in mro):  # a class: dir() lists its MRO's names
        yield from _class_names(real_mro(cast("type", holder)))
        return
    yield from itertools.islice(_own_attributes(holder), _HINT_KEYS)
    yield from _class_names(mro)


def _class_names(mro: tuple[type, ...]) -> Iterable[object]:
    for klass in mro:
        yield from itertools.islice(_class_dict(klass), _HINT_KEYS)


def _plain_names(text: str) -> str:
    return (
        text.replace(_PROGRAM_QUALIFIER, "")
        .replace(_PROGRAM_MODULE, "")
        .replace(_PROGRAM_LOCALS, "")
    )


# A class of the program is named `<model>.Name` (build_class drops the
# `__codemode_main__.<locals>.` of its qualified name; other names keep it).
_PROGRAM_QUALIFIER: Final = f"{MODEL_MODULE}.{MAIN_NAME}.<locals>."
_PROGRAM_MODULE: Final = f"{MODEL_MODULE}."
# A function of the program's top level is `__codemode_main__.<locals>.f` to the
# interpreter (`f() missing 1 required positional argument`): `f`, as in a script.
_PROGRAM_LOCALS: Final = f"{MAIN_NAME}.<locals>."


def program_frames(
    tb: object, lines: list[str], bound: list[tuple[str, ...]] | None = None
) -> list[traceback.FrameSummary]:
    """The program's own frames in traceback ``tb``, outermost first, as summaries.

    The one place the runtime reads frames (``tb_frame``, ``f_code``) once a
    program runs, and the tripwire exempts exactly this function's code for
    those reads: it reads nothing a program controls (the traceback, frame and
    code objects are the interpreter's own types) and hands out only file
    name, line, function name and source line, never a frame or a code object.
    Given a ``bound`` list, it also appends, frame by frame, the names each
    frame's code binds (its variables, cells and free variables: tuples of
    ``str`` the compiler made), for a misspelt name's suggestion.
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
            if type(bound) is list:
                list.append(bound, code.co_varnames + code.co_cellvars + code.co_freevars)
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
