"""The tripwire: an audit hook that ends the run at the first event a program never needs.

CPython raises an *audit event* (PEP 578) for operations such as opening a
file, reading a frame's code, importing a module or creating a socket.
:func:`make_tripwire` builds a hook that the child installs with
``sys.addaudithook`` once the program's code is loaded and before any of it
runs. On a watched event the hook writes one :class:`bridge.protocol.Tripped`
frame naming the event (and the member read, or the module imported) and calls
``os._exit`` with ``TRIPPED_EXIT``: the run ends there, as ``sandbox-violation``,
and nothing the program does can catch it. Audit hooks cannot be removed from
Python.

Watched events (the reasons are in SECURITY.md, "Tripwire"):

* decided by the caller: ``sys._getframe``, ``exec``, ``compile``,
  ``import`` (a module not loaded yet) and ``object.__getattr__`` for the
  members in :data:`RESTRICTED_MEMBERS`; a few trusted steps of the runtime
  and of the standard library are exempt (:func:`trusted_steps`);
* always: :data:`FORBIDDEN_EVENTS` and every event of a module in
  :data:`FORBIDDEN_MODULES` (``os.*``, ``socket.*``, ``ctypes.*``, ...).

The exemption is the *identity of the code object* of the frame that caused
the event, compared with ``is`` against code objects taken from the loaded
modules before the program starts. A program cannot make a frame run one of
those code objects except by calling the trusted function itself, and every
trusted function keeps what it reads: it passes it to no function looked up at
run time (which a program could replace), and returns a line number, a
summary, a signature or a class, never a frame or a code object. To find that frame the
hook looks at its own frame (``sys._getframe(0)``) and its ``f_back``; it
recognises its own frames, and so its own nested events, by their globals: a
private dictionary that only the hook's frames hold.

The hook holds nothing a program could change to switch it off: frozensets,
tuples of code objects, builtin functions, types and ints, all bound in its
closure (not looked up in a module a program could patch), and it calls no
Python function and no method of an event's arguments. A failure while deciding
counts as a violation, except the recursion limit: at that depth every call
fails, so the audited operation fails (and does not happen) as well.

This module runs in the child: stdlib, msgspec and the child side only.
"""

from __future__ import annotations

import collections
import dataclasses
import enum
import inspect
import os
import sys
import types
import typing
from typing import TYPE_CHECKING, Final

import msgspec

import bridge.proxy
import sandbox._facades_async
import sandbox._guards
import sandbox._tracebacks
import sandbox._where
from bridge.protocol import MAX_EVENT_NAME_CHARS
from sandbox._zygote import TRIPPED_EXIT

if TYPE_CHECKING:
    from collections.abc import Callable, Sized

__all__ = [
    "FORBIDDEN_EVENTS",
    "FORBIDDEN_MODULES",
    "RESTRICTED_MEMBERS",
    "make_tripwire",
    "trusted_steps",
]

#: Attributes whose read CPython audits as ``object.__getattr__`` and that hand
#: out a frame or a code object. (``__defaults__`` and ``__kwdefaults__`` are
#: audited too but hand out only values; ``inspect.signature`` reads them.)
RESTRICTED_MEMBERS: Final = frozenset({
    "f_code",  # frame -> code
    "__code__",  # function -> code
    "tb_frame",  # traceback -> frame
    "gi_frame", "gi_code",  # generator
    "cr_frame", "cr_code",  # coroutine
    "ag_frame", "ag_code",  # async generator
})

#: Events decided by who caused them (see :func:`trusted_steps`).
_DECIDED: Final = frozenset({"sys._getframe", "object.__getattr__", "exec", "compile", "import"})

#: Events that end the run whoever causes them.
FORBIDDEN_EVENTS: Final = frozenset({
    "open",  # open(), os.open(), io.open_code(): the program has no files
    "sys._current_frames",  # the frame of every thread
    "sys._current_exceptions",  # the traceback, and so the frames, of every thread
    "sys.settrace", "sys.setprofile",  # a trace function receives every frame
    # A program's own hook would receive the arguments of every event,
    # frames and code objects of the exempt steps included.
    "sys.addaudithook",
    "code.__new__",  # building code objects (also code.replace())
    "function.__new__",  # a function from a code object, with chosen globals
    "pickle.find_class",  # unpickling reaches any global by name
    "builtins.breakpoint",  # starts a debugger, which traces frames
    "builtins.input",  # the child has no standard input
    "setopencode",  # replaces the hook io.open_code() uses
})

#: Modules every one of whose events ends the run: processes, files, sockets,
#: foreign memory, other processes' signals and limits, interpreter internals.
FORBIDDEN_MODULES: Final = frozenset({
    "os", "subprocess", "pty", "socket", "ctypes", "fcntl", "mmap", "resource", "signal",
    "shutil", "tempfile", "glob", "pathlib", "urllib", "http", "ftplib", "smtplib",
    "imaplib", "poplib", "nntplib", "telnetlib", "webbrowser", "sqlite3", "syslog",
    "ensurepip", "pdb", "msvcrt", "winreg", "_winapi",
    "marshal",  # code objects from bytes
    "gc",  # get_objects / get_referrers / get_referents reach any object, this hook too
    "_thread",  # a second thread beside the program (no such event in 3.11)
    "cpython",  # interpreter state: sub-interpreters, clearing the audit hooks
})

#: Modules a trusted step may still import after the program started. Every
#: module the façades and the runtime use is imported in the zygote, before
#: any fork, so this is empty; an import event for a loaded module never fires.
ALLOWED_IMPORTS: Final[frozenset[str]] = frozenset()


def trusted_steps() -> tuple[tuple[str, types.CodeType], ...]:
    """``(event or member, code)`` pairs: the steps that may cause a decided event.

    Each entry is a function that needs the event to do its job and hands out
    none of what it reads:

    * ``sys._getframe``: the tool stub (the caller's line, for "never
      awaited" messages), ``namedtuple``, the enum functional API and
      ``typing``'s ``TypeVar``/``NewType``/``TypedDict`` (the caller's
      ``__name__``, for the new class's ``__module__``), and
      ``typing_extensions`` (loaded by msgspec), which replaces a helper of
      ``typing`` subscripting (``List[int]``) with one that looks at its
      caller's frame;
    * ``tb_frame`` and ``f_code``: the traceback filter (``sandbox._tracebacks``);
    * ``__code__``: ``inspect.signature`` (a dataclass's ``__doc__``),
      ``typing.overload`` (the first line of the decorated function) and the
      asyncio façade's ``iscoroutinefunction`` (the code's flags alone);
    * ``exec`` and ``compile``: ``dataclasses`` (generated ``__init__``,
      ``__repr__``, ...), ``namedtuple`` (its ``__new__``) and, ``compile``
      only, ``typing.ForwardRef`` (a string annotation, compiled but not run).
    """
    stub_call = bridge.proxy._ToolStub.__call__.__code__
    namedtuple = collections.namedtuple.__code__
    create_fn = dataclasses._create_fn.__code__  # type: ignore[attr-defined]
    steps: list[tuple[str, types.CodeType]] = [
        ("sys._getframe", stub_call),
        ("sys._getframe", namedtuple),
        ("sys._getframe", enum.EnumType._create_.__code__),  # type: ignore[attr-defined]
        ("sys._getframe", typing._caller.__code__),  # type: ignore[attr-defined]
        ("tb_frame", sandbox._tracebacks.program_frames.__code__),
        ("f_code", sandbox._tracebacks.program_frames.__code__),
        ("__code__", inspect._signature_from_function.__code__),  # type: ignore[attr-defined]
        ("__code__", typing.overload.__code__),
        ("__code__", sandbox._facades_async.iscoroutinefunction.__code__),
        ("exec", create_fn),
        ("compile", create_fn),
        ("exec", namedtuple),
        ("compile", namedtuple),
        ("compile", typing.ForwardRef.__init__.__code__),
        # The stop report's line finder walks the program's suspended
        # coroutines (it passes no frame to any other function).
        ("cr_frame", sandbox._where.program_line.__code__),
        ("gi_frame", sandbox._where.program_line.__code__),
        # The attribute guard tells the program's own generators (whose send and
        # throw it allows) by their code's file name.
        ("gi_code", sandbox._guards._is_program_generator.__code__),
    ]
    extensions = sys.modules.get("typing_extensions")
    helper = getattr(extensions, "_has_generic_or_protocol_as_origin", None)
    if isinstance(helper, types.FunctionType):
        steps.append(("sys._getframe", helper.__code__))
    return tuple(steps)


def make_tripwire(
    write_fd: int, *, steps: tuple[tuple[str, types.CodeType], ...] | None = None
) -> Callable[[str, tuple[object, ...]], None]:
    """Build the hook for a child whose frames to the host go to ``write_fd``.

    Build it before the program's code arrives and install it with
    ``sys.addaudithook`` just before that code runs: everything the runtime does
    until then is trusted, and nothing of the program can run in between.
    ``steps`` replaces :func:`trusted_steps` (the tests drop one at a time to
    show that each is needed).
    """
    own: dict[str, object] = {}
    hook = _template(
        own=own,
        decided=_DECIDED,
        members=RESTRICTED_MEMBERS,
        allowed_imports=ALLOWED_IMPORTS,
        forbidden=FORBIDDEN_EVENTS,
        forbidden_modules=FORBIDDEN_MODULES,
        trusted=trusted_steps() if steps is None else steps,
        getframe=sys._getframe,
        encode=msgspec.msgpack.Encoder().encode,
        write=os.write,
        exit_now=os._exit,
        write_fd=write_fd,
        status=TRIPPED_EXIT,
        longest=MAX_EVENT_NAME_CHARS,
        length=len,
        type_of=type,
        text=str,
        frame_type=types.FrameType,
        stack_full=RecursionError,
        failure=BaseException,
    )
    # The same code and closure under the private globals: a frame whose
    # f_globals is `own` is one of the hook's own (it defines no functions and
    # reads no global, so `own` stays empty).
    return types.FunctionType(hook.__code__, own, "tripwire", None, hook.__closure__)


def _template(
    *,
    own: dict[str, object],
    decided: frozenset[str],
    members: frozenset[str],
    allowed_imports: frozenset[str],
    forbidden: frozenset[str],
    forbidden_modules: frozenset[str],
    trusted: tuple[tuple[str, types.CodeType], ...],
    getframe: Callable[[int], types.FrameType],
    encode: Callable[[object], bytes],
    write: Callable[[int, bytes], int],
    exit_now: Callable[[int], object],
    write_fd: int,
    status: int,
    longest: int,
    length: Callable[[Sized], int],
    type_of: Callable[[object], type],
    text: type[str],
    frame_type: type[types.FrameType],
    stack_full: type[RecursionError],
    failure: type[BaseException],
) -> Callable[[str, tuple[object, ...]], None]:
    # Everything the hook uses is a parameter of this function, so that the
    # hook reads closure cells only: no global or builtin a program could rebind.

    def hook(event: str, args: tuple[object, ...]) -> None:
        # `event` is always an exact str (CPython makes it from a C string);
        # the arguments may be anything (sys.audit takes any), so each is
        # type-checked before use: nothing here calls a program's method.
        first = args[0] if args else None
        if (
            event == "sys._getframe"
            and type_of(first) is frame_type
            and first.f_globals is own  # type: ignore[attr-defined]
        ):
            return  # the hook looking at its own frame (first, as it is the most frequent)
        detail = ""
        if event in decided:
            try:
                key = event
                if event == "object.__getattr__":
                    key = args[1]  # type: ignore[assignment]
                    if type_of(key) is text and key not in members:
                        return
                    detail = key
                elif event == "import" and type_of(first) is text:
                    if first in allowed_imports:
                        return
                    detail = first  # type: ignore[assignment]
                # The frame that caused the event called into C, which called
                # this hook: it is the hook's caller.
                caller = getframe(0).f_back
                if caller.f_globals is own:  # type: ignore[union-attr]
                    return  # the hook reading f_code to decide
                code = caller.f_code  # type: ignore[union-attr]
                for step, trusted_code in trusted:
                    if trusted_code is code and step == key:
                        return
            except stack_full:
                # The interpreter's recursion limit: every call fails here,
                # so the operation fails with it (it does not run).
                raise
            except failure:
                pass  # any other decision that cannot be made is a violation
        elif event not in forbidden and event.partition(".")[0] not in forbidden_modules:
            return
        try:
            # Shown only if the host's check will accept them (a program can
            # raise an event of any name, with any arguments, with sys.audit).
            name = event
            if length(name) > longest or not (name.isascii() and name.isprintable()):
                name = ""
            if type_of(detail) is not text or length(detail) > longest:
                detail = ""
            if not (detail.isascii() and detail.isprintable()):
                detail = ""
            if " " in name or " " in detail:
                name = detail = ""
            body = encode(("tripped", name, detail))
            write(write_fd, length(body).to_bytes(4, "big") + body)
        finally:
            exit_now(status)

    return hook
