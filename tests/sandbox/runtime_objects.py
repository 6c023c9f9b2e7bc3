"""The runtime's objects under a child's zygote setup: python -m tests.sandbox.runtime_objects NAME.

Sets this process up as a child's zygote is (library classes swept, stored
library functions checked: it changes library modules for good, hence a
process of its own), runs the scenario ``NAME`` and prints its report as JSON.

* ``library``: a program calls the methods of ``Scheduler``, a library class
  of this module's own, swept as the zygote sweeps a listed class (a test-only
  façade entry): each hands out one of the runtime's objects - a real task, a
  future, the loop, a timer handle, the selector, a class namespace - as its
  value, inside a container, or in what it raises. No library path does so
  today; rule 9 refuses one if a path appears.
* ``asyncio``: a program uses the asyncio façade throughout; the report says
  which of the runtime's classes the record then holds as the program's
  (``sandbox._program.revealed``): none, since no object of theirs reached it.
* ``queue``: a real future put in an ``asyncio.Queue`` (as asyncio's own
  ``as_completed`` does) and taken out through the queue's checked method.
* ``ablation``: a program run with the language layer off, whose asyncio is
  the real module: real tasks in a queue, and asyncio's own ``as_completed``.
"""

from __future__ import annotations

import asyncio
import json
import selectors
import sys
import types
from typing import Any, NoReturn

from sandbox import _classes, _guards, _library, _program
from sandbox._builtins import SAFE_BUILTINS
from sandbox._compile import compile_program
from sandbox._facades import check_library_internals
from sandbox._runtime import hide_host_locations, run_program

#: The runtime's classes, none of which the program ever holds.
_RUNTIME: tuple[type, ...] = (
    asyncio.Future, asyncio.AbstractEventLoop, asyncio.Handle, selectors.BaseSelector,
    types.MappingProxyType, types.FrameType, types.CodeType, types.TracebackType,
)


def _noop() -> None:
    pass


class Scheduler:
    """A library class that hands out the runtime's own objects, one path each."""

    def task(self) -> object:
        return asyncio.current_task()

    def future(self) -> object:
        return asyncio.get_running_loop().create_future()

    def loop(self) -> object:
        return asyncio.get_running_loop()

    def handle(self) -> object:
        handle = asyncio.get_running_loop().call_later(3600, _noop)
        handle.cancel()
        return handle

    def selector(self) -> object:
        return asyncio.get_running_loop()._selector  # type: ignore[attr-defined]

    def namespace(self) -> object:
        return vars(Scheduler)

    def nested(self) -> object:
        return [1, {"key": (asyncio.current_task(),)}]

    def raised(self) -> NoReturn:
        raise ValueError("late", [asyncio.get_running_loop().create_future()])

    def grouped(self) -> NoReturn:
        raise ExceptionGroup("many", [KeyError("fine"), KeyError(asyncio.get_running_loop())])

    def data(self) -> object:
        return [1, "two", (3.0,)]


_LIBRARY_PROGRAM = """
def attempt(name):
    try:
        try:
            getattr(scheduler, name)()
        except (ValueError, ExceptionGroup) as error:
            return "held " + type(error).__name__
        return "handed out"
    except TypeError as refusal:
        return "refused" if "runtime's own" in str(refusal) else str(refusal)

names = ["task", "future", "loop", "handle", "selector", "namespace", "nested", "raised",
         "grouped", "data"]
return {name: attempt(name) for name in names}
"""

_ASYNCIO_PROGRAM = """
import asyncio

async def square(n):
    await asyncio.sleep(0)
    return n * n

async def never(event):
    await event.wait()

gathered = await asyncio.gather(square(1), square(2), asyncio.create_task(square(3)))
async with asyncio.TaskGroup() as group:
    grouped = [group.create_task(square(n)) for n in range(3)]
completed = sorted([await c for c in asyncio.as_completed([square(4), square(5)])])
event = asyncio.Event()
timed_out = []
for c in asyncio.as_completed([never(event)], timeout=0.01):
    try:
        await c
    except TimeoutError:
        timed_out.append("as_completed")
done, pending = await asyncio.wait([square(6), asyncio.create_task(square(7))])
waited = await asyncio.wait_for(square(8), timeout=60)
try:
    await asyncio.wait_for(never(event), timeout=0.01)
except TimeoutError:
    timed_out.append("wait_for")
try:
    async with asyncio.timeout(0.01):
        await never(event)
except TimeoutError:
    timed_out.append("timeout")
queue = asyncio.Queue()
for n in range(3):
    queue.put_nowait(n)
drained = [await queue.get() for _ in range(3)]
lock = asyncio.Lock()
semaphore = asyncio.Semaphore(2)
async with lock, semaphore:
    locked = lock.locked()

async def named():
    return asyncio.current_task().get_name()

mine = asyncio.create_task(named(), name="mine")
return {
    "gathered": gathered,
    "grouped": [t.result() for t in grouped],
    "completed": completed,
    "waited": [sorted(t.result() for t in done), len(pending), waited],
    "timed_out": timed_out,
    "drained": drained,
    "locked": locked,
    "named": await mine,
}
"""


_ABLATION_PROGRAM = """
import asyncio

async def one(n):
    return n

queue = asyncio.Queue()
queue.put_nowait(asyncio.create_task(one(2)))
order = [await c for c in asyncio.as_completed([one(1)])]
return [order, await queue.get_nowait()]
"""


def _run(source: str, bindings: dict[str, object], *, restricted: bool = True) -> dict[str, Any]:
    outcome = run_program(
        compile_program(source, restricted=restricted),
        restricted=restricted,
        bindings=bindings,
        max_log_bytes=1 << 20,
        max_value_bytes=1 << 20,
        emit_log=lambda line: None,
    )
    return {"error": outcome.error, "value": outcome.value}


def _runtime_classes_recorded() -> list[str]:
    """The runtime's classes the record holds as the program's."""
    return sorted(
        f"{cls.__module__}.{cls.__qualname__}"
        for cls in _program.revealed
        if issubclass(cls, _RUNTIME)
    )


async def _through_a_queue() -> str:
    queue: asyncio.Queue[object] = asyncio.Queue()
    queue.put_nowait(asyncio.get_running_loop().create_future())
    try:
        queue.get_nowait()
    except TypeError as refusal:
        return str(refusal)
    return "handed out"


def main(scenario: str) -> None:
    check_library_internals()
    _library.check_library_selves(_guards.visible_classes())
    _classes.install_program_module(SAFE_BUILTINS)
    hide_host_locations()
    if scenario == "library":
        _library.reveal_class(Scheduler)
        report = _run(_LIBRARY_PROGRAM, {"scheduler": Scheduler()})
    elif scenario == "asyncio":
        report = _run(_ASYNCIO_PROGRAM, {})
    elif scenario == "ablation":
        report = _run(_ABLATION_PROGRAM, {}, restricted=False)
    else:
        report = {"error": None, "value": asyncio.run(_through_a_queue())}
    report["recorded"] = _runtime_classes_recorded()
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main(sys.argv[1])
