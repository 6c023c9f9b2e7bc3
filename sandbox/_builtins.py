"""The builtins of restricted programs, and the globals of one run.

:data:`SAFE_BUILTINS` is the allow-list: one entry per name with the reason
it is there; names left out are listed as comments with the reason.
:func:`make_globals` builds fresh globals for one run: the builtins, the
guard functions the transformer's rewrites call, ``__name__`` (which marks
the program's classes for the write guard) and the caller's bindings
(``tools``, ``ToolCallError``).
"""

from __future__ import annotations

import builtins
import keyword
import sys
from typing import TYPE_CHECKING, Any, Final

from . import _output
from ._classes import build_class
from ._facades import (
    FACADE_RESULT_CLASSES,
    build_facades,
    classes_behind,
    make_importer,
    named_as,
)
from ._guards import (
    MODEL_MODULE,
    guarded_apply,
    guarded_delattr,
    guarded_getattr,
    guarded_getitem,
    guarded_hasattr,
    guarded_iter_unpack_sequence,
    guarded_own,
    guarded_setattr,
    guarded_unpack_sequence,
    guarded_write,
    safe_anext,
    set_visible_classes,
)
from ._guards_vars import safe_vars
from ._hints import UNAVAILABLE_BUILTINS
from ._library import handed_out
from ._policy import CAUGHT_GUARD, UNAVAILABLE_NAME_GUARD
from ._types import SafeClassMethod, SafeType

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = ["SAFE_BUILTINS", "check_binding_names", "make_globals", "make_print"]

_b = builtins

SAFE_BUILTINS: Final[Mapping[str, object]] = {
    # -- constants
    "Ellipsis": _b.Ellipsis,
    "NotImplemented": _b.NotImplemented,
    # -- plain data types and their constructors
    "bool": _b.bool,
    "int": _b.int,
    "float": _b.float,
    "complex": _b.complex,
    "str": _b.str,  # str.format/format_map are swapped for guarded ones by the getattr guard
    "bytes": _b.bytes,
    "bytearray": _b.bytearray,
    "list": _b.list,
    "tuple": _b.tuple,
    "dict": _b.dict,
    "set": _b.set,
    "frozenset": _b.frozenset,
    "range": _b.range,
    "slice": _b.slice,
    "object": _b.object,  # the root class, needed for classes; its dunders stay behind the guard
    # -- functions over values
    "abs": _b.abs,
    "all": _b.all,
    "any": _b.any,
    "ascii": _b.ascii,
    "bin": _b.bin,
    "callable": _b.callable,
    "chr": _b.chr,
    "divmod": _b.divmod,
    "format": _b.format,  # applies a format spec to one value; no field walking
    "hash": _b.hash,
    "hex": _b.hex,
    "id": _b.id,
    "len": _b.len,
    "max": _b.max,
    "min": _b.min,
    "oct": _b.oct,
    "ord": _b.ord,
    "pow": _b.pow,
    "repr": _b.repr,
    "round": _b.round,
    "sum": _b.sum,
    # -- iteration. Iterating in C (sorted, zip, ...) skips the _getiter_ hook;
    # in this policy that hook checks nothing (see sandbox._guards), so these
    # are as safe as a for loop.
    "aiter": _b.aiter,
    "anext": safe_anext,  # a coroutine: the real anext's awaitable can be stepped by hand
    "enumerate": _b.enumerate,
    "filter": _b.filter,
    "iter": _b.iter,
    "map": _b.map,
    "next": _b.next,
    "reversed": _b.reversed,
    "sorted": _b.sorted,
    "zip": _b.zip,
    # -- classes and introspection
    "classmethod": SafeClassMethod,  # binds what it wraps, never chains its __get__ (3.13)
    "staticmethod": _b.staticmethod,
    "property": _b.property,
    "super": _b.super,  # zero-argument super() works in methods (the __class__ cell)
    "isinstance": _b.isinstance,
    "issubclass": _b.issubclass,
    "dir": _b.dir,  # names only, as strings; reading them still goes through the guard
    "type": SafeType,  # type(x) only: the three-argument form builds classes unchecked
    "vars": safe_vars,  # vars(obj): a copy of a program object's attributes, nothing else
    "getattr": guarded_getattr,
    "hasattr": guarded_hasattr,
    "setattr": guarded_setattr,
    "delattr": guarded_delattr,
    # Class statements call this; programs cannot name it. It checks bases,
    # keywords and the new class, and records it as the program's (_classes).
    "__build_class__": build_class,
    # -- exceptions: plain classes to raise and catch. SystemExit and
    # KeyboardInterrupt end only the program (the runtime catches them).
    "BaseException": _b.BaseException,
    # Raised by TaskGroup and caught with `except*`; not bases of program classes.
    "BaseExceptionGroup": _b.BaseExceptionGroup,
    "Exception": _b.Exception,
    "ExceptionGroup": _b.ExceptionGroup,
    "ArithmeticError": _b.ArithmeticError,
    "AssertionError": _b.AssertionError,
    "AttributeError": _b.AttributeError,
    "BufferError": _b.BufferError,
    "EOFError": _b.EOFError,
    "FloatingPointError": _b.FloatingPointError,
    "GeneratorExit": _b.GeneratorExit,
    "ImportError": _b.ImportError,
    "IndexError": _b.IndexError,
    "KeyError": _b.KeyError,
    "KeyboardInterrupt": _b.KeyboardInterrupt,
    "LookupError": _b.LookupError,
    "MemoryError": _b.MemoryError,
    "ModuleNotFoundError": _b.ModuleNotFoundError,
    "NameError": _b.NameError,
    "NotImplementedError": _b.NotImplementedError,
    "OSError": _b.OSError,
    "OverflowError": _b.OverflowError,
    "RecursionError": _b.RecursionError,
    "ReferenceError": _b.ReferenceError,
    "RuntimeError": _b.RuntimeError,
    "StopAsyncIteration": _b.StopAsyncIteration,
    "StopIteration": _b.StopIteration,
    "SyntaxError": _b.SyntaxError,
    "SystemExit": _b.SystemExit,
    "TimeoutError": _b.TimeoutError,
    "TypeError": _b.TypeError,
    "UnboundLocalError": _b.UnboundLocalError,
    "UnicodeDecodeError": _b.UnicodeDecodeError,
    "UnicodeEncodeError": _b.UnicodeEncodeError,
    "UnicodeError": _b.UnicodeError,
    "ValueError": _b.ValueError,
    "ZeroDivisionError": _b.ZeroDivisionError,
    "Warning": _b.Warning,
    "UserWarning": _b.UserWarning,
    "DeprecationWarning": _b.DeprecationWarning,
    "RuntimeWarning": _b.RuntimeWarning,
    # Left out:
    # __import__   - replaced per run by the importer that hands out façades
    # exec, eval   - run new code outside the policy (also refused by the compiler)
    # compile      - makes code objects outside the policy
    # open         - the file system
    # input        - reads the process's stdin
    # breakpoint   - starts a debugger
    # help         - imports pydoc and reads the file system
    # globals      - the program's namespace, guard functions included
    # locals       - the namespace, guard functions included (vars() is the safe one above)
    # memoryview   - raw buffer access
    # exit, quit, copyright, credits, license - interactive-session helpers
    # print        - replaced per run by the capturing print (see make_print)
}

# A wrong call of `getattr` or `vars` is worded with the name the program wrote.
for _name, _value in SAFE_BUILTINS.items():
    if not _name.startswith("_"):
        named_as(_value, _name)


def make_print(write: Callable[[str], None]) -> Callable[..., None]:
    """A ``print`` that hands its text (with ``end``) to ``write`` instead of stdout.

    ``file=`` works with the program's own file-like objects (``io.StringIO``);
    inside ``contextlib.redirect_stdout(target)`` the text goes to ``target``.
    """
    _output.start_run(write)
    # Only plain Python (the language layer off) can swap the real stream.
    process_stdout = sys.stdout

    def print(
        *values: object,
        sep: str | None = " ",
        end: str | None = "\n",
        file: Any = None,
        flush: bool = False,
    ) -> None:
        if sep is None:
            sep = " "
        elif type(sep) is not str:
            raise TypeError(f"sep must be None or a string, not {type(sep).__name__}")
        if end is None:
            end = "\n"
        elif type(end) is not str:
            raise TypeError(f"end must be None or a string, not {type(end).__name__}")
        text = sep.join([str(value) for value in values]) + end
        if file is None:
            if sys.stdout is not process_stdout:
                sys.stdout.write(text)
            else:
                _output.emit(text, _write_of)
        else:
            _write_of(file)(text)

    named_as(print, "print")
    return print


def _write_of(target: object) -> Callable[[str], object]:
    write: Callable[[str], object] = guarded_getattr(target, "write")
    return write


#: One set of façades for every run: they are immutable.
_FACADES: Final = build_facades()
_IMPORT: Final = make_importer(_FACADES)


def _exposed_classes() -> set[type]:
    # The classes the builtins and facades list, and those whose objects the
    # facades' own functions hand out (a task from asyncio.create_task): the
    # zygote sweeps them all before any program runs (rules 7 and 9).
    classes = {value for value in SAFE_BUILTINS.values() if isinstance(value, type)}
    classes.update(FACADE_RESULT_CLASSES)
    for facade in _FACADES.values():
        classes.update(classes_behind(facade))
    return classes


set_visible_classes(_exposed_classes())

def caught_handled() -> BaseException:
    """``_caught_``: the exception the calling ``except`` handler is handling, checked.

    The compiler binds a handler's name to this, never to the exception the
    interpreter would store unchecked (``sandbox._policy``).
    """
    return handed_out(sys.exc_info()[1], "except ... as")  # type: ignore[no-any-return]


_GUARDS: Final[Mapping[str, object]] = {
    "_getattr_": guarded_getattr,
    "_getitem_": guarded_getitem,
    "_write_": guarded_write,
    "_own_": guarded_own,
    "_getiter_": iter,
    "_getaiter_": aiter,
    "_iter_unpack_sequence_": guarded_iter_unpack_sequence,
    "_unpack_sequence_": guarded_unpack_sequence,
    "_apply_": guarded_apply,
    CAUGHT_GUARD: caught_handled,
}


def make_globals(
    *,
    restricted: bool,
    bindings: Mapping[str, object],
    print_line: Callable[[str], None] | None = None,
) -> dict[str, object]:
    """Fresh globals for one run.

    Args:
        restricted: build the restricted environment (allow-listed builtins,
            guards, façades). ``False`` gives the real builtins, for the test
            that shows the OS layer holding on its own.
        bindings: names the program sees as globals (``tools``,
            ``ToolCallError``); each must be an identifier not starting with
            ``_``.
        print_line: receives the text of every ``print`` call, ``end``
            included; splitting it into lines is the caller's job. ``None``
            keeps the real ``print``.

    Raises:
        ValueError: for a binding name that a program could not use or that
            would shadow the runtime's own names.
    """
    check_binding_names(bindings)
    printer: object = make_print(print_line) if print_line is not None else _b.print
    if not restricted:
        real = dict(vars(_b))
        real["print"] = printer
        namespace: dict[str, object] = {"__builtins__": real, "__name__": MODEL_MODULE}
    else:
        safe = dict(SAFE_BUILTINS)
        safe["print"] = printer
        safe["__import__"] = _IMPORT
        namespace = {"__builtins__": safe, "__name__": MODEL_MODULE, **_GUARDS}
        namespace[UNAVAILABLE_NAME_GUARD] = _unavailable_name(namespace)
    namespace.update(bindings)
    return namespace


def _unavailable_name(namespace: Mapping[str, object]) -> Callable[[str], object]:
    """``_unavailable_``: a read of a builtin a program has not got (``open``, ``exit``, ...).

    The compiler emits it, with a name of ``UNAVAILABLE_BUILTINS`` only, where
    the program reads such a name and binds it nowhere. A binding of the
    caller's with that name is what the read finds, as without the rewrite;
    otherwise it is the ``NameError`` the read would raise, with a hint.
    """

    def unavailable(name: str) -> object:
        if name in namespace:
            return namespace[name]
        hint = UNAVAILABLE_BUILTINS.get(name, "")
        raise NameError(f"name {name!r} is not defined in run_code: {hint}", name=name)

    return unavailable


def check_binding_names(bindings: Mapping[str, object]) -> None:
    """Refuse binding names a program could not use or that would shadow the runtime's own.

    Raises:
        ValueError: for a name that is not an identifier, is a keyword or
            starts with ``_``.
    """
    for name in bindings:
        if (
            type(name) is not str
            or not name.isidentifier()
            or keyword.iskeyword(name)
            or name[:1] == "_"
        ):
            raise ValueError(
                f"binding names must be identifiers that do not start with '_', got name={name!r}"
            )
