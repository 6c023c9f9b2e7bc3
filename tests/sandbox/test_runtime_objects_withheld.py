"""The runtime's own objects never cross from library code to a program (SECURITY.md, rule 9).

One check (``sandbox._library.handed_out``) holds every value library code
hands a program - returned, raised, or inside either - to one rule, and the
runtime's objects are part of it: a real asyncio future or task, an event
loop, a callback handle, the loop's selector, as well as frames, tracebacks,
code objects and class namespaces (``HIDDEN_OBJECTS``, the set rule 8's shield
refuses too). No library path hands one out today, so the paths here are the
tests' own: a library class swept as the zygote sweeps a listed one
(``tests/sandbox/runtime_objects.py``, in a process of its own) and a checked
library function given to a program as a binding.

asyncio's own ``as_completed`` passed real futures through an ``asyncio.Queue``,
whose checked methods would now refuse them (and recorded the real task class
as the program's): the façade keeps them in a queue of its own.
"""

from __future__ import annotations

import abc
import asyncio
import collections
import json
import selectors
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pytest

from sandbox import _library, _program
from sandbox._library import handed_out, result_checked

from .test_language_support import run_ok

ROOT = Path(__file__).resolve().parent.parent.parent


def _in_zygote(scenario: str) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, "-m", "tests.sandbox.runtime_objects", scenario],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, Any] = json.loads(done.stdout)
    assert report["error"] is None, report["error"]
    return report


def test_a_library_method_handing_out_a_runtime_object_is_refused_by_every_door() -> None:
    report = _in_zygote("library")
    assert report["value"] == {
        "task": "refused",
        "future": "refused",
        "loop": "refused",
        "handle": "refused",
        "selector": "refused",
        "namespace": "refused",
        "nested": "refused",
        "raised": "refused",
        "grouped": "refused",
        "data": "handed out",
    }
    assert report["recorded"] == []  # nothing refused is recorded as the program's


def test_asyncio_works_and_records_none_of_the_runtime_s_classes_as_the_program_s() -> None:
    # asyncio.as_completed's queue handed real tasks through Queue.get_nowait,
    # which recorded the real Task class as held by the program.
    report = _in_zygote("asyncio")
    assert report["value"] == {
        "gathered": [1, 4, 9],
        "grouped": [0, 1, 4],
        "completed": [16, 25],
        "waited": [[36, 49], 0, 64],
        "timed_out": ["as_completed", "wait_for", "timeout"],
        "drained": [0, 1, 2],
        "locked": True,
        "named": "mine",
    }
    assert report["recorded"] == []


def test_a_real_future_taken_out_of_a_checked_queue_is_refused() -> None:
    # Why the asyncio façade's as_completed keeps its futures in a queue of its own.
    report = _in_zygote("queue")
    assert report["value"].startswith("Queue.get_nowait would hand the program a Future object")
    assert report["recorded"] == []


def _runtime_objects(loop: asyncio.AbstractEventLoop) -> dict[str, object]:
    async def idle() -> None:
        await asyncio.sleep(0)

    task = loop.create_task(idle())
    loop.run_until_complete(task)
    return {
        "task": task,
        "future": loop.create_future(),
        "loop": loop,
        "handle": loop.call_soon(lambda: None),
        "timer": loop.call_later(3600, lambda: None),
        "selector": selectors.DefaultSelector(),
        "namespace": vars(collections.Counter),
        "frame": sys._getframe(),
        "code": _runtime_objects.__code__,
    }


def _placed(value: object, how: str) -> object:
    if how == "key":
        try:
            return {(1, value): 1}
        except TypeError:  # a mapping proxy is not hashable
            return {1: value}
    return {
        "value": value,
        "list": [1, value],
        "deque": collections.deque([value]),
        "view": {"k": value}.values(),
        "args": ValueError("wrapped", [value]),
        "group": ExceptionGroup("g", [KeyError(1), ValueError({"deep": value})]),
    }[how]


@pytest.fixture
def _language_layer(monkeypatch: pytest.MonkeyPatch) -> None:
    # As a run with the language layer sets it: the program's asyncio is the façade.
    monkeypatch.setattr(_library, "_loop_objects_withheld", [True])


@pytest.mark.usefixtures("_language_layer")
@pytest.mark.parametrize("how", ["value", "list", "key", "deque", "view", "args", "group"])
def test_every_runtime_object_is_refused_wherever_it_is(how: str) -> None:
    loop = asyncio.new_event_loop()
    try:
        for name, value in _runtime_objects(loop).items():
            before = set(_program.revealed)
            with pytest.raises(TypeError, match="one of the runtime's own"):
                handed_out(_placed(value, how), f"lib.{name}")
            assert set(_program.revealed) == before, name
    finally:
        loop.close()


def test_the_runtime_objects_are_the_shield_s_always_hidden_set() -> None:
    from sandbox import _shield

    assert _shield._ALWAYS_HIDDEN is _program.HIDDEN_OBJECTS
    for kind in (asyncio.Task, asyncio.TimerHandle, selectors.DefaultSelector,
                 types.MappingProxyType, types.TracebackType):
        assert issubclass(kind, _program.HIDDEN_OBJECTS)


def test_without_the_language_layer_the_program_s_own_real_tasks_cross() -> None:
    # An ablation-mode run gives the program the real asyncio: its tasks, and a
    # queue of them (asyncio's own as_completed), are the program's by design.
    report = _in_zygote("ablation")
    assert report["value"] == [[1], 2]


def test_each_run_says_whether_the_loop_s_objects_are_withheld(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_library, "_loop_objects_withheld", [True])
    run_ok("return 1", restricted=False)
    assert _library._loop_objects_withheld == [False]
    loop = asyncio.new_event_loop()
    try:
        future = loop.create_future()
        assert handed_out([future], "lib.f")[0] is future
        with pytest.raises(TypeError, match="one of the runtime's own"):
            handed_out([sys._getframe()], "lib.f")  # the interpreter's: in every mode
    finally:
        loop.close()
    run_ok("return 1")
    assert _library._loop_objects_withheld == [True]


def _current_task() -> object:
    return asyncio.current_task()


def test_a_checked_library_function_handing_out_the_runtime_s_task_is_refused() -> None:
    # A test-only façade entry: a library function in the checked form façades list.
    entry = result_checked(_current_task, "lib.current_task")
    assert run_ok(
        "try:\n    current_task()\nexcept TypeError as refusal:\n    return str(refusal)\n"
        "return 'handed out'",
        bindings={"current_task": entry},
    ).startswith("lib.current_task would hand the program a Task object")  # type: ignore[union-attr]


@pytest.mark.usefixtures("_language_layer")
@pytest.mark.parametrize("first", [True, False])
def test_nothing_of_a_refused_value_is_swept_or_recorded(
    monkeypatch: pytest.MonkeyPatch, first: bool
) -> None:
    run_ok("return 1")  # a run records the classes the builtins and façades expose
    monkeypatch.setattr(_library, "_swept", set())
    monkeypatch.setattr(_library, "_sweeping_revealed", True)

    class Made(ValueError):
        """A class a library made on a base the program holds, handed out swept."""

    class Kept:
        """A library class of its own, whose objects are handed out with it swept."""

    loop = asyncio.new_event_loop()
    try:
        for withheld in (abc.ABCMeta, loop.create_future()):
            # Whichever end the walk starts from, it meets Made and Kept() too.
            refused = [withheld, Kept(), Made] if first else [Made, Kept(), withheld]
            with pytest.raises(TypeError):
                handed_out(refused, "lib.f")
            assert Made not in _program.revealed
            assert Made not in _library._swept
            assert Kept not in _library._swept
        assert handed_out([Kept(), Made], "lib.f")[1] is Made
        assert Made in _program.revealed
        assert {Made, Kept} <= _library._swept
        assert Kept not in _program.revealed  # only its object crossed, not the class
    finally:
        loop.close()
