"""The ``asyncio`` façade: concurrency for programs without the event loop.

A real ``asyncio`` module handed to a program is an escape: a Task gives its
coroutine (whose frame leads to globals), its stack of frames and its event
loop, and the loop can start processes and open sockets. This façade wraps
the few functions programs use so that only their results cross over: tasks
are :class:`ProgramTask` objects exposing ``done``/``result``/``exception``/
``cancel``/``cancelled``, a name, done callbacks (which receive the
:class:`ProgramTask`) and ``await``, never the real Task or Future.
``current_task()`` answers with that same object, and only inside a task the
façade started for the program (``create_task``, a task group, ``gather``,
``wait``, ``wait_for`` with a timeout): never for the runtime's own task, in
which the program's top level runs.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import inspect
import types
import weakref
from typing import TYPE_CHECKING, Any, Final, cast, final

from bridge.proxy import hand_over, is_tool, is_tool_call

from ._guards import guarded_getattr
from ._library import handed_out, wraps_coroutine_function
from ._program import ran_by_a_task

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable, Generator, Iterator

__all__ = [
    "ProgramTask",
    "ProgramTaskGroup",
    "as_completed",
    "create_task",
    "current_task",
    "gather",
    "iscoroutine",
    "iscoroutinefunction",
    "run",
    "wait",
    "wait_for",
]


@final
class ProgramTask:
    """A task started by a program: the safe subset of ``asyncio.Task``."""

    __slots__ = ("__callbacks", "__name", "__task", "__weakref__")
    __task: asyncio.Future[Any]
    __name: str
    __callbacks: list[tuple[Callable[[ProgramTask], object], Callable[[Any], None]]]

    def __init__(self, task: asyncio.Future[Any], name: str | None = None) -> None:
        if type(self) is not ProgramTask:
            raise TypeError("task objects are made by asyncio.create_task")
        if not issubclass(type(task), asyncio.Future):
            # What the factory guarantees, the class type() reveals holds too:
            # wrapping any object would hand it asyncio's own callbacks
            # (asyncio.wait's _on_completion) and this class's relay.
            raise TypeError("task objects are made by asyncio.create_task, from a coroutine")
        if name is None:
            name = task.get_name() if isinstance(task, asyncio.Task) else "Task"
        elif isinstance(task, asyncio.Task):
            task.set_name(name)  # kept by the real task too, for current_task()
        object.__setattr__(self, "_ProgramTask__task", task)
        object.__setattr__(self, "_ProgramTask__name", name)
        object.__setattr__(self, "_ProgramTask__callbacks", [])
        _started.add(task)
        _facades.setdefault(task, self)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("task objects are read-only")

    def __await__(self) -> Generator[Any, None, Any]:
        return self.__task.__await__()

    def done(self) -> bool:
        """Whether the task has finished (with a result, an exception or cancelled)."""
        return self.__task.done()

    def cancelled(self) -> bool:
        """Whether the task was cancelled."""
        return self.__task.cancelled()

    def cancel(self, msg: str | None = None) -> bool:
        """Ask the task to stop; returns ``False`` if it has already finished."""
        return self.__task.cancel(msg)

    def result(self) -> Any:
        """The task's value; raises its exception, or ``InvalidStateError`` if not done."""
        return self.__task.result()

    def exception(self) -> BaseException | None:
        """The task's exception, or ``None``."""
        return self.__task.exception()

    def get_name(self) -> str:
        """The task's name: the ``name=`` it was created with, or ``Task-N``."""
        return self.__name

    def set_name(self, value: object) -> None:
        """Rename the task (the name is ``str(value)``, as asyncio makes it)."""
        name = _name_text(value)
        if isinstance(self.__task, asyncio.Task):
            self.__task.set_name(name)
        object.__setattr__(self, "_ProgramTask__name", name)

    def add_done_callback(
        self, fn: Callable[[ProgramTask], object], *, context: None = None
    ) -> None:
        """Call ``fn(task)`` once the task is done, with this task object, never the real one.

        As in asyncio, the call is scheduled on the loop and what ``fn`` raises
        is not propagated (an ``Exception`` is dropped; ``SystemExit`` and the
        like end the program, as anywhere else).
        """
        if context is not None:
            raise TypeError("add_done_callback() takes no context in run_code")
        if not callable(fn):
            raise TypeError("add_done_callback() needs a callable")

        def relay(real: object) -> None:
            # The real future is never passed on: the callback gets the façade.
            with contextlib.suppress(Exception):
                fn(self)

        self.__callbacks.append((fn, relay))
        self.__task.add_done_callback(relay)

    def remove_done_callback(self, fn: Callable[[ProgramTask], object]) -> int:
        """Remove every registration of ``fn``; returns how many were removed."""
        kept = []
        removed = 0
        for registered, relay in list(self.__callbacks):
            if registered == fn:
                self.__task.remove_done_callback(relay)
                removed += 1
            else:
                kept.append((registered, relay))
        object.__setattr__(self, "_ProgramTask__callbacks", kept)
        return removed

    def __repr__(self) -> str:
        state = (
            "cancelled" if self.__task.cancelled() else "done" if self.__task.done() else "pending"
        )
        return f"<Task {state}>"


#: The real tasks the façade started for the program, while they live: the
#: only tasks :func:`current_task` answers in (never the runtime's own).
_started: weakref.WeakSet[asyncio.Future[Any]] = weakref.WeakSet()
#: The program's task object of each, while the program (or a callback) holds
#: it: what :func:`current_task` answers with, so that it is the object
#: ``create_task`` returned. Neither table keeps a task or its result alive.
_facades: weakref.WeakValueDictionary[asyncio.Future[Any], ProgramTask] = (
    weakref.WeakValueDictionary()
)


def current_task(loop: None = None) -> ProgramTask:
    """The task running the caller: the program's own task object, as ``create_task`` gave it.

    Only inside a task the façade started for the program; the program's top
    level (and what it awaits directly) runs in the runtime's own task, which
    is never handed out: its result is the run's outcome.
    """
    if loop is not None:
        raise TypeError("current_task() takes no loop in run_code (the loop is not available)")
    real = asyncio.current_task()
    if real is None or real not in _started:
        raise RuntimeError(
            "asyncio.current_task() in run_code answers only inside a task the program "
            "started (asyncio.create_task, a TaskGroup, gather, wait, or wait_for with a "
            "timeout); the program's top level, and what it awaits directly, run in the "
            "runtime's own task. Pass the name into the coroutine, or keep the task that "
            "`asyncio.create_task(coro, name=...)` returned and call its .get_name()"
        )
    task = _facades.get(real)
    # One the program dropped (gather's, or a task it did not keep) is made again:
    # the name is the real task's, which every rename sets too.
    return ProgramTask(real) if task is None else task


def _unwrap(aw: Any) -> Any:
    """The awaitable asyncio is handed for ``aw``: a task's real one; a tool call, handed over."""
    if type(aw) is ProgramTask:
        return aw._ProgramTask__task  # type: ignore[attr-defined]
    hand_over(aw)
    return aw


async def _await(aw: Awaitable[Any]) -> Any:
    # asyncio.TaskGroup takes only coroutines; a tool call is an awaitable.
    return await aw


def _task_name(name: object) -> str | None:
    return None if name is None else _name_text(name)


def _name_text(name: object) -> str:
    """``str(name)``, as asyncio makes a task's name, as an exact ``str``.

    A ``str`` subclass that ``__str__`` returns keeps the program's methods,
    and the real task keeps the name (asyncio's own ``str()`` of it would call
    them again, and its reprs show it): only its characters are kept.
    """
    text = str(name)
    return text if type(text) is str else str.__str__(text)


def _started_for(aw: Any, made: dict[int, Any]) -> Any:
    """What asyncio is handed for ``aw``: a coroutine started as the program's task first.

    ``gather``, ``wait_for`` and ``as_completed`` start a task for each coroutine
    they are given, as asyncio does (same order, same names): here it is one
    :func:`current_task` knows. One task per coroutine object, as asyncio keeps
    it (``made``, by identity: no program code runs to tell them apart).
    """
    if not asyncio.iscoroutine(aw):
        return _unwrap(aw)
    key = id(aw)
    if key not in made:
        made[key] = (aw, _unwrap(create_task(aw)))
    return made[key][1]


def _refuse_running(coro: object) -> None:
    """Refuse a coroutine a task is running already: only that task steps it (rule 5).

    A second task would step it from wherever the first one left it, and the
    first would find it ended or moved on; ``await`` of such a coroutine is
    refused by the interpreter itself ("coroutine is being awaited already").
    """
    if ran_by_a_task(coro):
        raise RuntimeError(
            "this coroutine is already running in a task in run_code: await that task (the "
            "object asyncio.create_task returned) instead of starting the coroutine again"
        )


def create_task(coro: Awaitable[Any], *, name: object = None) -> ProgramTask:
    """Start ``coro`` concurrently; returns a :class:`ProgramTask` named ``name``."""
    _refuse_running(coro)
    if asyncio.iscoroutine(coro):
        return ProgramTask(asyncio.get_running_loop().create_task(coro), _task_name(name))
    return ProgramTask(asyncio.ensure_future(_unwrap(coro)), _task_name(name))


#: What a program hands ``gather`` its calls in, by mistake, instead of as arguments.
_COLLECTIONS: Final = (list, tuple, set)


async def gather(*aws: Awaitable[Any], return_exceptions: bool = False) -> list[Any]:
    """Run awaitables concurrently and return their results as a list, in order."""
    for aw in aws:
        if type(cast("object", aw)) in _COLLECTIONS:
            # asyncio's own words would be "unhashable type: 'list'".
            raise TypeError(
                f"asyncio.gather takes the awaitables as separate arguments, not a "
                f"{type(aw).__name__}: write `await asyncio.gather(*calls)`"
            )
    made: dict[int, Any] = {}
    started = [_started_for(a, made) for a in aws]
    results = await asyncio.gather(*started, return_exceptions=return_exceptions)
    # With return_exceptions, library exceptions are among the values (rule 9).
    handed_out(results, "asyncio.gather")
    return results


async def wait_for(aw: Awaitable[Any], timeout: float | None) -> Any:  # noqa: ASYNC109 - asyncio.wait_for's own signature
    """Await ``aw``, cancelling it and raising ``TimeoutError`` after ``timeout`` seconds.

    As in Python 3.11, a coroutine runs in a task of its own when there is a
    timeout, and in the caller's task when there is none.
    """
    if timeout is None:
        return await asyncio.wait_for(_unwrap(aw), timeout)
    return await asyncio.wait_for(_started_for(aw, {}), timeout)


def _as_task(aw: Any) -> ProgramTask:
    return aw if type(aw) is ProgramTask else create_task(aw)


async def wait(
    aws: Any,
    *,
    timeout: float | None = None,  # noqa: ASYNC109 - asyncio.wait's own signature
    return_when: str = asyncio.ALL_COMPLETED,
) -> tuple[set[ProgramTask], set[ProgramTask]]:
    """``asyncio.wait``: ``(done, pending)`` sets of :class:`ProgramTask` objects.

    Awaitables that are not tasks yet are started as tasks first (what asyncio
    itself asks for); the real tasks never cross over.
    """
    tasks = [_as_task(aw) for aw in list(aws)]
    if not tasks:
        raise ValueError("wait() needs at least one awaitable")
    by_real = {_unwrap(task): task for task in tasks}
    done, pending = await asyncio.wait(by_real, timeout=timeout, return_when=return_when)
    return {by_real[f] for f in done}, {by_real[f] for f in pending}


def as_completed(aws: Any, *, timeout: float | None = None) -> Iterator[Any]:
    """``asyncio.as_completed``: coroutines giving the results in the order they finish.

    asyncio starts the coroutines in the order of ``set(aws)``; so does this.
    """
    given = [_unwrap(aw) for aw in list(aws)]
    made: dict[int, Any] = {}
    for aw in set(given):
        _started_for(aw, made)
    return _completions(
        [_started_for(aw, made) for aw in given], timeout, asyncio.get_running_loop()
    )


def _completions(
    fs: list[Any], timeout: float | None, loop: asyncio.AbstractEventLoop
) -> Iterator[Any]:
    """``as_completed``'s awaitables: each gives the result of the next future to finish.

    asyncio's own hands its finished futures through an ``asyncio.Queue``, a
    class programs hold, so its methods are checked as what crosses to the
    program (rule 9), and that check refuses a real future. Here the finished
    futures wait in a deque only these closures see; each awaitable sleeps on
    a future of its own (so cancelling one waiter cancels no other) until a
    future finishes or ``timeout`` passes, after which the awaitables still to
    come raise ``TimeoutError``, as asyncio's do.
    """
    pending = {asyncio.ensure_future(f, loop=loop) for f in set(fs)}
    finished: collections.deque[asyncio.Future[Any]] = collections.deque()
    sleepers: list[asyncio.Future[None]] = []
    state = {"expired": False, "left": len(pending)}
    deadline: list[asyncio.TimerHandle] = []

    def wake_all() -> None:
        for sleeper in sleepers:
            if not sleeper.done():
                sleeper.set_result(None)
        sleepers.clear()

    def on_done(future: asyncio.Future[Any]) -> None:
        if state["expired"]:
            return
        finished.append(future)
        state["left"] -= 1
        if not state["left"] and deadline:
            deadline[0].cancel()
        wake_all()

    def on_deadline() -> None:
        state["expired"] = True
        for future in pending:
            future.remove_done_callback(on_done)
        wake_all()

    async def next_result() -> Any:
        while not finished:
            if state["expired"]:
                raise TimeoutError
            sleeper = loop.create_future()
            sleepers.append(sleeper)
            try:
                await sleeper
            finally:
                if sleeper in sleepers:  # cancelled while asleep
                    sleepers.remove(sleeper)
        future = finished.popleft()
        return handed_out(future.result(), "asyncio.as_completed")  # or raises its error

    for future in pending:
        future.add_done_callback(on_done)
    if pending and timeout is not None:
        deadline.append(loop.call_later(timeout, on_deadline))
    for _ in range(len(pending)):
        yield next_result()


def iscoroutinefunction(func: object) -> bool:
    """``asyncio.iscoroutinefunction``: whether calling ``func`` gives a coroutine to await.

    True for an ``async def`` function of the program, a bound method or a
    ``functools.partial`` of one, and for a tool (``tools.name``: the SDK
    declares each as ``async def``). Decided by exact types and the function's
    code flags: nothing of ``func`` runs and no attribute is looked up through
    its class (the real one asks ``func._is_coroutine``, which a program
    class's ``__getattr__`` would answer, and unwraps any ``partial``
    subclass).
    """
    if is_tool(func) or wraps_coroutine_function(func):
        return True  # a tool, or a library one such as asyncio.sleep
    if type(func) is functools.partial:
        func = func.func
    if type(func) is types.MethodType:
        func = func.__func__
    return type(func) is types.FunctionType and bool(
        func.__code__.co_flags & inspect.CO_COROUTINE
    )


def iscoroutine(obj: object) -> bool:
    """``asyncio.iscoroutine``: whether ``obj`` is a coroutine (or a tool call) to await.

    A tool call counts, as the call of an ``async def`` function would: a
    program that awaits "what is a coroutine" awaits its tool calls too. Exact
    types only: the real one also asks ``isinstance(obj, Coroutine)``, whose
    check reads a program class's methods.
    """
    return type(obj) is types.CoroutineType or is_tool_call(obj)


def run(main: Any, **options: Any) -> None:
    """``asyncio.run`` is not needed: the program already runs on the event loop."""
    if asyncio.iscoroutine(main) and not ran_by_a_task(main):
        # Closed so that it is not reported as never awaited; never one a task runs,
        # and only through the close the guard hands the program (rule 5).
        guarded_getattr(main, "close")()
    raise RuntimeError(
        "asyncio.run() is not available in run_code: the program is already the body of an "
        "async function, so `await main()` (top-level await) runs it"
    )


@final
class ProgramTaskGroup:
    """``asyncio.TaskGroup`` whose ``create_task`` returns :class:`ProgramTask` objects."""

    __slots__ = ("__group",)
    __group: asyncio.TaskGroup

    def __init__(self) -> None:
        if type(self) is not ProgramTaskGroup:
            raise TypeError("TaskGroup.__init__ needs a TaskGroup object")
        object.__setattr__(self, "_ProgramTaskGroup__group", asyncio.TaskGroup())

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("task groups are read-only")

    async def __aenter__(self) -> ProgramTaskGroup:
        await self.__group.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self.__group.__aexit__(*exc_info)

    def create_task(self, coro: Awaitable[Any], *, name: object = None) -> ProgramTask:
        """Start ``coro`` in the group; the group waits for it on exit.

        Like the module-level :func:`create_task`, it takes any awaitable, so a
        tool call (an awaitable that is not a coroutine) can be started too.
        """
        _refuse_running(coro)
        if not asyncio.iscoroutine(coro):
            coro = _await(_unwrap(coro))
        return ProgramTask(self.__group.create_task(coro), _task_name(name))

    def __repr__(self) -> str:
        return "<TaskGroup>"
