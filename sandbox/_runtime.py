"""Run one compiled program inside the child: its event loop and the check of its value.

:func:`run_program` executes the module code made by
:func:`sandbox._compile.compile_program`, runs the program's async main
function on a fresh event loop, and turns whatever happens into an
:class:`Outcome`: the returned value (lossless JSON within a byte cap) or an
error kind with a message. Everything the program raises is contained,
``SystemExit`` and ``KeyboardInterrupt`` included; the message is the
traceback :mod:`sandbox._tracebacks` makes (the program's own frames only, no
host path). Printed text goes to the capture of :mod:`sandbox._output`.
:class:`PreparedRun` splits the same work in two: what does not depend on the
program (globals, print capture, event loop) is made first, so that a child can
do it before it says READY, and :meth:`PreparedRun.run` runs the one program.
"""

from __future__ import annotations

import asyncio
import contextvars
import itertools
import re
import sys
import types
import warnings
from typing import TYPE_CHECKING, Any, Final, Literal, NamedTuple, TypeAlias, final

import msgspec

from bridge.lossless import JsonValue, LossyJsonError, collection_paused, materialize
from bridge.proxy import unawaited_reason

from ._builtins import check_binding_names, make_globals, make_print
from ._compile import MAIN_NAME, MODEL_FILENAME, SOURCE_NAME
from ._facades_async import ProgramTask
from ._library import withhold_loop_objects
from ._output import _Output
from ._program import is_program_class, real_mro
from ._tracebacks import (
    _out_of_memory_line,
    _plain_names,
    _with_memory_limit,
    format_program_exception,
)
from ._where import program_line

if TYPE_CHECKING:
    from collections.abc import Callable, Coroutine, Iterable, Mapping

__all__ = [
    "ErrorKind",
    "Outcome",
    "PreparedRun",
    "run_program",
]

ErrorKind: TypeAlias = Literal["exception", "invalid-output", "output-limit"]

# After the main function returns, tasks it left running get this many loop
# iterations to handle their cancellation; a task that ignores it is dropped.
_CLEANUP_ITERATIONS: Final = 3


class Outcome(NamedTuple):
    """How a program ended: its value, or an error ``(kind, message)``."""

    value: JsonValue
    error: tuple[ErrorKind, str] | None


def run_program(
    code: types.CodeType,
    *,
    restricted: bool,
    bindings: Mapping[str, object],
    max_log_bytes: int,
    max_value_bytes: int,
    emit_log: Callable[[str], None],
    after_run: Callable[[], str | None] | None = None,
    loop: asyncio.AbstractEventLoop | None = None,
) -> Outcome:
    """Run a compiled program to completion on a fresh event loop.

    Args:
        code: module code from :func:`sandbox._compile.compile_program`.
        restricted: whether the code was compiled with the language policy
            (selects the restricted or the full globals).
        bindings: the program's extra globals (``tools``, ``ToolCallError``).
        max_log_bytes: the byte budget of printed output.
        max_value_bytes: the byte cap of the return value as compact JSON.
        emit_log: receives each printed line, in order, as it completes.
        after_run: called last; a returned message (a tool call that was
            never awaited) makes the run an ``exception``.
        loop: the fresh loop to run on (one that was never run), instead of a
            new default one; it is closed after the run.

    Returns:
        The program's value, or an error kind and message.
    """
    return PreparedRun(restricted=restricted, emit_log=emit_log, loop=loop).run(
        code,
        bindings=bindings,
        max_log_bytes=max_log_bytes,
        max_value_bytes=max_value_bytes,
        after_run=after_run,
    )


@final
class PreparedRun:
    """The parts of one run that do not depend on its program, made ahead of it.

    A sandboxed child builds this before it says READY (the fresh globals, the
    print capture and the event loop), so that only the program's own work is
    left for the request. It serves exactly one program: :meth:`run` refuses a
    second call, so globals and loop are never shared between two programs.

    Args:
        restricted: whether the program will be compiled with the language
            policy (selects the restricted or the full globals).
        emit_log: receives each printed line, in order, as it completes.
        own_process: the caller is a process that exits right after this run:
            warnings are silenced for the whole process now (instead of around
            the run) and the loop's own descriptors are left open after it.
        tripwire: an audit hook (:func:`sandbox._tripwire.make_tripwire`) to
            install once the program's code is loaded, before any of it runs.
            Only for a process that runs this one program: a hook stays for
            the life of the process.
        loop: the fresh event loop to run the program on (one that was never
            run: a child's channel makes one that batches the program's calls,
            :meth:`bridge.child.ChildChannel.new_event_loop`); a new default
            loop if ``None``.
        namespace: globals made ahead for this run alone by
            :func:`sandbox._builtins.make_globals` with the same ``restricted``
            and no bindings, never used since (a child's are made in the
            zygote: see ``sandbox._child``); its ``print`` is made anew here,
            for this run's capture. ``None`` makes fresh globals.
    """

    __slots__ = (
        "_context",
        "_loop",
        "_namespace",
        "_output",
        "_own_process",
        "_restricted",
        "_task",
        "_tripwire",
        "_used",
    )

    def __init__(
        self,
        *,
        restricted: bool,
        emit_log: Callable[[str], None],
        own_process: bool = False,
        tripwire: Callable[[str, tuple[object, ...]], None] | None = None,
        loop: asyncio.AbstractEventLoop | None = None,
        namespace: dict[str, object] | None = None,
    ) -> None:
        self._restricted = restricted
        self._own_process = own_process
        self._tripwire = tripwire
        if own_process:
            # Warnings would print host file paths to the real stderr.
            warnings.simplefilter("ignore")
        # A fresh context: context variables the program sets (the current
        # decimal context, for one) never reach the caller's.
        self._context = contextvars.Context()
        self._output = _Output(0, emit_log)
        if namespace is None:
            namespace = make_globals(
                restricted=restricted, bindings={}, print_line=self._output.write
            )
        else:
            builtins = namespace["__builtins__"]
            assert type(builtins) is dict
            builtins["print"] = make_print(self._output.write)
        self._namespace = namespace
        self._loop = asyncio.new_event_loop() if loop is None else loop
        self._loop.set_exception_handler(_ignore_loop_errors)
        self._task: asyncio.Task[Any] | None = None
        self._used = False

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop the program will run on (not running until :meth:`run`)."""
        return self._loop

    def _global_names(self) -> Iterable[object]:
        """The names the program reads past its own: its bindings, then its builtins.

        The keys of the namespace the runtime made (a program adds only names
        to it, by ``global``); only exact ``str`` keys are ever compared.
        """
        namespace = self._namespace
        builtins = namespace.get("__builtins__")
        return itertools.chain(namespace, builtins if type(builtins) is dict else ())

    def program_line(self, frame: types.FrameType | None) -> int | None:
        """The line the running program is on, for a stop report (see :mod:`sandbox._where`).

        ``frame`` is the frame a signal handler was given; ``None`` when the
        program is in none of its own code.
        """
        return program_line(frame, self._namespace, self._task)

    def run(
        self,
        code: types.CodeType,
        *,
        bindings: Mapping[str, object],
        max_log_bytes: int,
        max_value_bytes: int,
        after_run: Callable[[], str | None] | None = None,
        memory_bytes: int | None = None,
        on_return: Callable[[], None] | None = None,
    ) -> Outcome:
        """Run a compiled program to completion on the prepared event loop.

        Args:
            code: module code from :func:`sandbox._compile.compile_program`,
                compiled with the same ``restricted`` as this object.
            bindings: the program's extra globals (``tools``, ``ToolCallError``).
            max_log_bytes: the byte budget of printed output.
            max_value_bytes: the byte cap of the return value as compact JSON.
            after_run: called last; a returned message (a tool call that was
                never awaited) makes the run an ``exception``.
            memory_bytes: the address-space limit in force, if any: a program
                that dies of a ``MemoryError`` is told that it hit this limit.
            on_return: called in the step the program's main coroutine returns
                or raises, before anything else of the program's runs (the
                tasks it left are cancelled after), and again as the loop is
                left however it is left (a ``SystemExit`` from a task ends the
                run with the main coroutine suspended): it must run no program
                code, and a second call must change nothing.

        Returns:
            The program's value, or an error kind and message.

        Raises:
            RuntimeError: this object has already run a program.
            ValueError: a binding name a program could not use.
        """
        if self._used:
            raise RuntimeError(
                "this PreparedRun has already run a program; prepare a new one for each program"
            )
        self._used = True
        check_binding_names(bindings)
        # The program's asyncio is the façade only with the language layer (rule 9).
        withhold_loop_objects(self._restricted)
        output = self._output
        output.set_limit(max_log_bytes)
        namespace = self._namespace
        namespace.update(bindings)
        exec(code, namespace)  # defines the main function and the source text; runs nothing else
        main = namespace.pop(MAIN_NAME)
        source = namespace.pop(SOURCE_NAME, "")
        assert callable(main)
        assert isinstance(source, str)
        tripwire, self._tripwire = self._tripwire, None
        if tripwire is not None:
            # Armed here: the program's code is loaded (the exec above is the
            # runtime's, not the program's) and none of it has run yet.
            sys.addaudithook(tripwire)

        error: tuple[ErrorKind, str] | None
        # Made now: once the program is out of memory, building text may fail too.
        out_of_memory = None if memory_bytes is None else _out_of_memory_line(memory_bytes)
        value: JsonValue
        if self._own_process:
            value, error = self._run_main(
                main, source, out_of_memory, max_value_bytes, on_return
            )
        else:
            # Warnings would print host file paths to the real stderr.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                value, error = self._run_main(
                    main, source, out_of_memory, max_value_bytes, on_return
                )
        output.flush()
        if after_run is not None:
            message = after_run()
            if message is not None:
                if error is None:
                    value, error = None, ("exception", message)
                elif error[0] == "exception":
                    error = ("exception", f"{error[1]}\n{message}")
        return Outcome(value, error)

    def _run_main(
        self, main: Callable[[], Any], source: str, out_of_memory: str | None,
        max_value_bytes: int, on_return: Callable[[], None] | None,
    ) -> tuple[JsonValue, tuple[ErrorKind, str] | None]:
        loop = self._loop
        try:
            try:
                task = self._task = loop.create_task(
                    _copied_on_return(main(), max_value_bytes, on_return),
                    context=self._context,
                )
                outcome: tuple[JsonValue, tuple[ErrorKind, str] | None] = (
                    loop.run_until_complete(task)
                )
                return outcome
            finally:
                # The run's outcome is fixed here, however the loop was left: a
                # `SystemExit` or `KeyboardInterrupt` from a task or a done
                # callback of the program's leaves it with the main coroutine
                # still suspended. Whatever of the program's runs from now on
                # (its exception's `__str__` in the traceback, the main
                # coroutine's handler of the cancellation that closing the loop
                # sends it, its tasks', its async generators' `finally`) runs
                # after the end and starts no tool call. Closing twice is harmless.
                if on_return is not None:
                    on_return()
        except MemoryError as exc:
            if out_of_memory is None:
                return None, (
                    "exception", format_program_exception(exc, source, self._global_names())
                )
            return None, ("exception", _with_memory_limit(exc, source, out_of_memory))
        except BaseException as exc:
            return None, (
                "exception", format_program_exception(exc, source, self._global_names())
            )
        finally:
            _close_loop(loop, close=not self._own_process)


def hide_host_locations() -> None:
    """Make asyncio's reprs of tasks, callbacks and coroutines name no host file (a child only).

    A real task's repr is text a program can read: the task's own step puts it
    in the ``RuntimeError`` it raises when the running program's ``__await__``
    yields something it cannot wait on (``yield was used instead of yield from
    ... in task <Task ...>``). asyncio writes each callback with the file and
    line it is defined at (``_run_until_complete_cb() at
    .../asyncio/base_events.py:180``) and each coroutine with the file it runs
    in. For the rest of the process, callbacks are written by name alone, and a
    coroutine's place only when it is the program's (``<model>:3``). The
    coroutine's code object is still read for that, as before: with the
    tripwire on, a program that makes a real task's repr still ends there.
    Changes asyncio for the whole process: only for a process that runs
    programs and nothing else.
    """
    import asyncio.coroutines
    import asyncio.format_helpers

    def no_source(func: object) -> None:
        return None

    asyncio.format_helpers._get_function_source = no_source  # type: ignore[assignment]
    formatted = asyncio.coroutines._format_coroutine  # type: ignore[attr-defined]
    host_place = re.compile(rf"(?:,? defined)? at (?!{re.escape(MODEL_FILENAME)}:).*:\d+$")

    def coroutine_text(coro: object) -> str:
        return host_place.sub("", formatted(coro))

    asyncio.coroutines._format_coroutine = coroutine_text  # type: ignore[attr-defined]


def _ignore_loop_errors(loop: asyncio.AbstractEventLoop, context: dict[str, object]) -> None:
    # "Task exception was never retrieved" and the like: the program's
    # business, and logging them would print host paths.
    return None


def _close_loop(loop: asyncio.AbstractEventLoop, *, close: bool = True) -> None:
    """Cancel what the program left running, close its async generators, close the loop.

    Each step gets a few loop iterations and no more: a program that ignores
    cancellation or awaits forever in a ``finally`` must not keep the run alive.
    ``close=False`` leaves the loop itself open (its selector and self-pipe).
    """
    try:
        pending = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for task in pending:
            task.cancel()
        _spin(loop, _CLEANUP_ITERATIONS if pending else 0)
        # The loop tracks the program's live async generators (a private
        # attribute of asyncio's base loop); skip the round trip when none is left.
        live = getattr(loop, "_asyncgens", None)
        if live is None or len(live):
            closing = loop.create_task(loop.shutdown_asyncgens())
            _spin(loop, _CLEANUP_ITERATIONS)
            closing.cancel()
            _spin(loop, 1)
    except BaseException:  # a task misbehaving while cancelled ends only that task
        pass
    finally:
        if close:
            loop.close()


def _spin(loop: asyncio.AbstractEventLoop, iterations: int) -> None:
    for _ in range(iterations):
        loop.call_soon(loop.stop)
        loop.run_forever()


async def _copied_on_return(
    main: Coroutine[Any, Any, object],
    max_value_bytes: int,
    on_return: Callable[[], None] | None = None,
) -> tuple[JsonValue, tuple[ErrorKind, str] | None]:
    """Run the program's main coroutine; copy its value in the same step as its return.

    Copied before the loop runs anything else: a task the program left ready,
    a callback of its timers, or a cancelled task's handlers are the program's
    code too, and would otherwise change the value after the program returned
    it. ``on_return`` runs in that step too, whether the program returned or
    raised (it closes the tool calls: none starts after the program ended).
    """
    try:
        value = await main
    finally:
        if on_return is not None:
            on_return()
    return _check_value(value, max_value_bytes)


# The main task's coroutine is this one: a task's repr (which a program can
# make a library put in an error) names it as the program's main, as before.
_copied_on_return.__name__ = _copied_on_return.__qualname__ = MAIN_NAME


def _check_value(
    result: object, max_value_bytes: int
) -> tuple[JsonValue, tuple[ErrorKind, str] | None]:
    unawaited: list[str] = []

    def describe(item: object) -> str | None:
        reason = _unawaited_reason(item)
        if reason is not None:
            unawaited.append(reason)
            return reason
        return _program_object_reason(item)

    try:
        # As json.dumps writes them: a tuple or namedtuple is an array, a Counter
        # an object, read without running any method a class could define, nor
        # a finalizer of the program's (the collector is paused).
        with collection_paused():
            value = materialize(result, accept_collections=True, describe=describe)
    except LossyJsonError as exc:
        # A call left without `await` is a slip, not a choice of types: the
        # list of JSON types would only mislead.
        advice = "" if unawaited else (
            " Return dicts with str keys, lists (tuples become lists), str, int, finite "
            "float, bool or None."
        )
        return None, (
            "invalid-output",
            f"The program's return value is not lossless JSON: {_plain_names(str(exc))}."
            + advice,
        )
    size = len(msgspec.json.encode(value))
    if size > max_value_bytes:
        return None, (
            "output-limit",
            f"The program's return value is {size} bytes as JSON, over the limit of "
            f"{max_value_bytes} bytes (max_value_bytes); return less data.",
        )
    return value, None


def _program_object_reason(value: object) -> str | None:
    """What to return instead of an object of a plain class of the program's, else ``None``.

    Only a class whose every base is the program's own (or ``object``): a
    dataclass, an enum or a subclass of a built-in type gets the advice made
    for it. Read from the interpreter's own MRO slot, never the class's names.
    """
    kind = type(value)
    if not is_program_class(kind):
        return None
    bases = real_mro(kind)
    if not all(base is object or is_program_class(base) for base in bases):
        return None
    if any("__dataclass_fields__" in vars(base) for base in bases):
        return None
    name = kind.__qualname__
    return (
        f"an object of the program's class {name} is not JSON; return a dict of the "
        f"fields to send, e.g. vars(obj) or {{\"field\": obj.field}}"
    )


def _unawaited_reason(value: object) -> str | None:
    """Why ``value`` is not JSON if it is a call never awaited or a task, else ``None``."""
    reason = unawaited_reason(value)
    if reason is None and type(value) is ProgramTask:
        # A task in the value is a task whose result was meant: say how to get it,
        # not the type of the façade's class.
        return (
            "a task is not JSON; write `await task` for its result (or task.result() "
            "once it is done)"
        )
    if reason is None and type(value) is types.CoroutineType:
        # An exact coroutine: its name is the interpreter's, not a program's attribute.
        call = f"{value.__name__}(...)"
        reason = (
            f"{call} is a call of an async function that was never awaited; write "
            f"`await {call}` for its value"
        )
    return reason
