"""Guards against hand-stepped awaitables, real classes behind façades, and ABC registration.

Stepping a coroutine or an awaitable by hand (``send``, ``next()``) yields what
it awaits - a real future or task, the way to the event loop. ``mro()`` would
list the real classes a façade replaces. ``ABC.register`` makes ``isinstance``
lie about program objects. Each test names the real object the program would
get without the guard.
"""

from __future__ import annotations

import gc
from typing import TYPE_CHECKING

import pytest

from .test_language_support import run, run_ok

if TYPE_CHECKING:
    from collections.abc import Iterator

# The refused programs leave the coroutines they tried to step unawaited.
pytestmark = [
    pytest.mark.filterwarnings("ignore:coroutine .* was never awaited:RuntimeWarning"),
    pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning"),
]


@pytest.fixture(autouse=True)
def _collect_unawaited() -> Iterator[None]:
    # Collected here, under this module's filters, not in whichever test runs next.
    yield
    gc.collect()


def _refused(source: str, *needles: str) -> str:
    result = run(source)
    assert result.error is not None, f"ran: {result.value!r}"
    for needle in needles:
        assert needle in result.error[1]
    return result.error[1]


@pytest.mark.parametrize(
    "steps",
    [
        # each would yield the real asyncio.Future that sleep() awaits
        "c = asyncio.sleep(1)\nc.send(None)",
        "c = asyncio.sleep(1)\nc.throw(ValueError)",
        "c = asyncio.gather(asyncio.sleep(1))\nc.send(None)",
        "c = asyncio.wait_for(asyncio.sleep(1), 5)\nc.send(None)",
        "q = asyncio.Queue()\nc = q.get()\nc.send(None)",
        "e = asyncio.Event()\nc = e.wait()\nc.send(None)",
        "async def mine():\n    await asyncio.sleep(1)\nc = mine()\nc.send(None)",
        # the bound method read first, then called
        "c = asyncio.sleep(1)\nstep = getattr(c, 'send')\nstep(None)",
    ],
)
def test_coroutines_cannot_be_stepped_by_hand(steps: str) -> None:
    source = f"import asyncio\n{steps}\nreturn 1"
    _refused(source, "cannot be stepped by hand")


@pytest.mark.parametrize(
    "awaitable",
    [
        "asyncio.create_task(asyncio.sleep(0))",  # a real Task is iterable and yields itself
        "asyncio.sleep(1)",
        "asyncio.gather(asyncio.sleep(1))",
        "asyncio.wait_for(asyncio.sleep(1), 5)",
        "asyncio.Event().wait()",
        "asyncio.Queue().get()",
        "anext(agen)",
        "agen.asend(None)",
    ],
)
def test_a_programs_generator_cannot_delegate_to_a_library_awaitable(awaitable: str) -> None:
    # A program steps its own generator, which steps what it delegates to with no
    # guard (the sub-iterator's `send`, `throw` and `close` are called by name):
    # nothing steppable a library hands out may be iterable.
    source = (
        "import asyncio\n"
        "async def numbers():\n"
        "    await asyncio.sleep(1)\n"
        "    yield 1\n"
        "agen = numbers()\n"
        "def delegate(awaitable):\n"
        "    yield from awaitable\n"
        f"target = {awaitable}\n"
        "try:\n"
        "    first = delegate(target).send(None)\n"
        "finally:\n"
        "    close = getattr(target, 'close', None)\n"
        "    if close is not None:\n"
        "        close()\n"
        "return repr(first)"
    )
    last = _refused(source).splitlines()[-1]
    assert last in (
        "TypeError: 'ProgramTask' object is not iterable",
        "TypeError: cannot 'yield from' a coroutine object in a non-coroutine generator",
    )


@pytest.mark.parametrize(
    "steps",
    [
        # async_generator_asend / anext_awaitable objects are iterators: next()
        # on them runs the generator up to its first await and yields the future.
        "next(agen.asend(None))",
        "next(agen.athrow(ValueError))",
        "next(agen.aclose())",
        "next(anext(agen))",
        "next(anext(agen, 0))",
        "agen.asend(None).send(None)",
        "anext(agen).send(None)",
    ],
)
def test_async_generator_steps_are_coroutines(steps: str) -> None:
    source = (
        "import asyncio\n"
        "async def numbers():\n"
        "    await asyncio.sleep(1)\n"
        "    yield 1\n"
        "agen = numbers()\n"
        f"{steps}\n"
        "return 1"
    )
    _refused(source)
    assert "Future" not in str(run(source).value)


def test_awaiting_the_async_generator_steps_still_works() -> None:
    source = (
        "import contextlib\n"
        "async def numbers():\n"
        "    yield 1\n"
        "    yield 2\n"
        "agen = numbers()\n"
        "first = await anext(agen)\n"
        "second = await agen.asend(None)\n"
        "await agen.aclose()\n"
        "async with contextlib.aclosing(numbers()) as again:\n"
        "    third = [x async for x in again]\n"
        "return [first, second, third, await anext(numbers(), 9)]"
    )
    assert run_ok(source) == [1, 2, [1, 2], 1]


def test_the_programs_generators_and_objects_keep_send() -> None:
    source = (
        "def running_total():\n"
        "    total = 0\n"
        "    while True:\n"
        "        total += yield total\n"
        "acc = running_total()\n"
        "next(acc)\n"
        "acc.send(2)\n"
        "class Mailer:\n"
        "    def send(self, text):\n"
        "        return 'sent ' + text\n"
        "    def throw(self):\n"
        "        return 'thrown'\n"
        "return [acc.send(3), Mailer().send('x'), Mailer().throw()]"
    )
    assert run_ok(source) == [5, "sent x", "thrown"]


@pytest.mark.parametrize("read", ["running.close()", "getattr(running, 'close')()"])
def test_a_coroutine_a_task_runs_cannot_be_closed_under_it(read: str) -> None:
    # Closed, the task's next step finds a finished coroutine ("cannot reuse already
    # awaited coroutine"); from Python 3.13 close() also returns its return value.
    _refused(
        "import asyncio\nq = asyncio.Queue()\nrunning = q.get()\n"
        "task = asyncio.create_task(running)\nawait asyncio.sleep(0)\n"
        f"{read}",
        '"close" of a coroutine a task is running is not available',
        "task.cancel()",
    )


#: A coroutine a task is running (waiting on a queue), and a managed object whose
#: decorated function returned that coroutine instead of a generator.
_RUNNING = (
    "import asyncio, contextlib\n"
    "q = asyncio.Queue()\nrunning = q.get()\n"
    "task = asyncio.create_task(running)\nawait asyncio.sleep(0)\n"
    "@contextlib.contextmanager\ndef managed():\n    return running\n"
    "@contextlib.asynccontextmanager\ndef amanaged():\n    return running\n"
)


@pytest.mark.parametrize(
    "forward",
    [
        # library code calling close() natively on what it holds
        "with contextlib.closing(running):\n        pass",
        "async with contextlib.aclosing(running):\n        pass",
        "with contextlib.ExitStack() as stack:\n"
        "        stack.enter_context(contextlib.closing(running))",
        # the contextmanager wrappers, reached from the managed object
        "managed().gen.close()",
        "held = managed()\n    type(held).__exit__(held, KeyError, KeyError('k'), None)",
        "held = amanaged()\n    await type(held).__aexit__(held, KeyError, KeyError('k'), None)",
        # the asyncio facade's run(), which closes the coroutine it refuses to run
        "asyncio.run(running)",
        # the library method behind a facade's override, reached through super()
        "held = contextlib.closing(running)\n"
        "    super(type(held), held).__exit__(None, None, None)",
        "held = contextlib.aclosing(running)\n"
        "    await super(type(held), held).__aexit__(None, None, None)",
        "with contextlib.ExitStack() as stack:\n"
        "        held = contextlib.closing(running)\n"
        "        stack.push(super(type(held), held).__exit__)",
    ],
)
def test_a_coroutine_a_task_runs_is_not_closed_or_stepped_by_a_forwarder(forward: str) -> None:
    # Each forwarder called close() or throw() natively, past the guard: the task
    # then found its coroutine ended ("cannot reuse already awaited coroutine").
    value = run_ok(
        f"{_RUNNING}refused = None\ntry:\n    {forward}\n"
        "except (AttributeError, RuntimeError) as error:\n    refused = str(error)\n"
        "q.put_nowait(7)\nreturn [await task, refused]"
    )
    assert isinstance(value, list)
    assert value[0] == 7
    assert value[1] is not None


@pytest.mark.parametrize(
    "start",
    [
        "asyncio.create_task(running)\nq.put_nowait(7)",
        "async with asyncio.TaskGroup() as group:\n"
        "    group.create_task(running)\n    q.put_nowait(7)",
    ],
)
def test_a_coroutine_a_task_runs_is_not_started_again(start: str) -> None:
    # A second task would step it from where the first one left it (gather, wait,
    # wait_for and as_completed start their tasks through create_task).
    _refused(f"{_RUNNING}{start}\nreturn await task", "already running in a task")


@pytest.mark.parametrize(
    "read",
    [
        "super(type(held), held).__aexit__",
        "getattr(super(type(held), held), '__aexit__')",
    ],
)
def test_super_does_not_reach_past_a_facade_override(read: str) -> None:
    # A facade's override is its check: the library method behind it, bound to
    # the same object, would do natively what the override judges (rule 5).
    _refused(
        "import contextlib\nheld = contextlib.aclosing(None)\n"
        f"{read}\nreturn 1",
        "cannot be read through super()",
    )


def test_super_still_reaches_past_the_programs_own_classes() -> None:
    assert run_ok(
        "class Base(dict):\n    def __setitem__(self, key, value):\n"
        "        super().__setitem__(key, value * 2)\n"
        "class Child(Base):\n    def __setitem__(self, key, value):\n"
        "        super().__setitem__(key, value + 1)\n"
        "class Stack(list):\n    def push(self, item):\n        super().append(item)\n"
        "        return super().__len__()\n"
        "c = Child()\nc['a'] = 1\ns = Stack()\n"
        "return [c['a'], s.push(4)]"
    ) == [4, 1]


def test_closing_and_the_managers_still_close_and_throw_what_is_the_programs() -> None:
    assert run_ok(
        "import contextlib, io\nseen = []\nstream = io.StringIO()\n"
        "with contextlib.closing(stream):\n    pass\nseen.append(stream.closed)\n"
        "@contextlib.contextmanager\ndef tag():\n    try:\n        yield 1\n"
        "    except KeyError:\n        seen.append('caught')\n"
        "with tag():\n    raise KeyError(1)\n"
        "@contextlib.asynccontextmanager\nasync def atag():\n    try:\n        yield 2\n"
        "    except KeyError:\n        seen.append('acaught')\n"
        "async with atag():\n    raise KeyError(2)\n"
        "async def numbers():\n    yield 1\n    yield 2\n"
        "agen = numbers()\nasync with contextlib.aclosing(agen):\n"
        "    seen.append(await anext(agen))\n"
        "seen.append(type(contextlib.closing(stream)).__name__)\n"
        "return seen"
    ) == [True, "caught", "acaught", 1, "closing"]


def test_a_coroutine_not_started_and_library_objects_still_close() -> None:
    assert run_ok(
        "import asyncio, io\nasync def mine():\n    return 1\nm = mine()\nm.close()\n"
        "stream = io.StringIO('x')\nstream.close()\n"
        "q = asyncio.Queue()\nwaiting = q.get()\nwaiting.close()\nreturn stream.closed"
    ) is True


@pytest.mark.parametrize(
    "read",
    [
        "type(call).__await__(call)",  # the real future's iterator behind a tool call
        "type(asyncio.sleep(0)).__await__",
        "type(numbers()).__anext__(numbers())",
    ],
)
def test_stepping_dunders_are_not_read_from_library_classes(read: str) -> None:
    source = (
        "import asyncio\n"
        "async def numbers():\n"
        "    yield 1\n"
        "call = tools.echo()\n"
        f"x = {read}\n"
        "return 1"
    )
    _refused(source, "__a")


def test_a_program_class_still_defines_and_reads_await() -> None:
    source = (
        "class Ready:\n"
        "    def __await__(self):\n"
        "        yield from []\n"
        "        return 7\n"
        "return [await Ready(), Ready.__await__ is not None]"
    )
    assert run_ok(source) == [7, True]


# -- mro() -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "expression",
    [
        "enum.IntEnum.mro()",
        "Color.mro()",
        "typing.Type[int].mro(enum.IntEnum)",  # typing forwards .mro to the real `type`
        "type(Color.RED).mro()",
    ],
)
def test_mro_never_shows_the_real_class_a_facade_replaces(expression: str) -> None:
    source = (
        "import enum, typing\n"
        "class Color(enum.IntEnum):\n"
        "    RED = 1\n"
        f"return [c.__qualname__ for c in {expression}]"
    )
    names = run_ok(source)
    assert isinstance(names, list)
    # The façade's IntEnum is shown; the real enum.Enum / IntEnum / ReprEnum are not.
    assert "Enum" not in names
    assert "ReprEnum" not in names
    assert names.count("IntEnum") <= 1
    assert "int" in names
    assert names[-1] == "object"


def test_mro_of_program_classes_is_unchanged() -> None:
    source = (
        "class A:\n    pass\n"
        "class B(A):\n    pass\n"
        "class C(B, dict):\n    pass\n"
        "return [c.__name__ for c in C.mro()]"
    )
    assert run_ok(source) == ["C", "B", "A", "dict", "object"]


# -- ABC.register ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    ["collections.abc.Mapping", "collections.abc.Sized", "Mine", "typing.Protocol"],
)
def test_abc_register_is_refused(target: str) -> None:
    source = (
        "import collections.abc, typing\n"
        "class Mine(collections.abc.Sized):\n"
        "    def __len__(self):\n"
        "        return 0\n"
        "class Plain:\n"
        "    pass\n"
        f"{target}.register(Plain)\n"
        "return isinstance(Plain(), collections.abc.Mapping)"
    )
    _refused(source, '"register" of an abstract base class')


def test_a_register_method_of_a_program_object_works() -> None:
    source = (
        "class Registry:\n"
        "    def __init__(self):\n"
        "        self.items = []\n"
        "    def register(self, item):\n"
        "        self.items.append(item)\n"
        "registry = Registry()\n"
        "registry.register(1)\n"
        "return registry.items"
    )
    assert run_ok(source) == [1]


# -- class namespaces read with lookalike keys ---------------------------------------------------


def test_class_namespaces_are_read_with_exact_str_keys_only() -> None:
    # A str subclass that hashes like "__doc__" would find the private entry
    # whatever its own text says.
    source = (
        "import dataclasses\n"
        "class Key(str):\n"
        "    pass\n"
        "f = dataclasses.field(metadata={'a': 1})\n"
        "ns = f.metadata\n"
        "return ns[Key('a')]"
    )
    _refused(source, "keys of exact builtin types")


# -- generic aliases relay attribute reads to what they alias ----------------------------------


@pytest.mark.parametrize(
    "read",
    [
        # would be the real str.format, which walks {0.gi_frame} unguarded
        "typing.Annotated[str, 1].format('{0.gi_frame}', walker)",
        "type(list[int])(str, ()).format('{0.gi_frame}', walker)",
        "type(typing.List[int])(str, (int,)).format_map('{w.gi_frame}', {'w': walker})",
        # would be AttributeError.obj: the object whose lookup failed
        "type(list[int])(error, ()).obj",
        # would be the real future's send
        "type(list[int])(asyncio.sleep(1), ()).send(None)",
        "type(list[int])(collections.abc.Sized, ()).register(dict)",
    ],
)
def test_generic_aliases_do_not_relay_checked_names(read: str) -> None:
    source = (
        "import asyncio, collections.abc, typing\n"
        "def walk():\n"
        "    yield 1\n"
        "walker = walk()\n"
        "try:\n"
        "    typing.Type.missing\n"
        "except AttributeError as caught:\n"
        "    error = caught\n"
        f"return str({read})"
    )
    result = run(source)
    assert result.error is not None, result.value
    assert "frame" not in str(result.value)


def test_a_subscripted_program_class_still_formats() -> None:
    source = (
        "import typing\n"
        "T = typing.TypeVar('T')\n"
        "class Label(str, typing.Generic[T]):\n"
        "    pass\n"
        "return [Label[int].format('{0}-{1}', 'a', 1), typing.Annotated[str, 1].format('{}', 2)]"
    )
    assert run_ok(source) == ["a-1", "2"]
