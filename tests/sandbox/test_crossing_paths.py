"""The doors outside rule 9's check hand a program nothing of the runtime's (SECURITY.md, rule 9).

``sandbox._library.handed_out`` checks what library code returns and every
exception a program is about to hold. Three kinds of door are not that check:
what a library iterator yields to a program's loop, what an awaited library
coroutine returns, and the arguments library code passes to a program's
callables (a key function, a hook, a callback, an exit). SECURITY.md says why
each is safe without a check of its own; these tests hold each door open with
the language layer alone and classify, in the test's own process, every value
that comes through: none may be one of the runtime's own objects
(``HIDDEN_OBJECTS``: a frame, traceback or code object, a class namespace, a real
future, task, loop, handle or selector), a class the program may not hold, or a
library's plain Python function in its raw form.
"""

from __future__ import annotations

import collections
import sys
import types
from typing import Any

from sandbox import _library
from sandbox._library import items_reader
from sandbox._program import HIDDEN_OBJECTS, hidden_class, is_program_function

from .test_language_support import run_ok

_PLAIN = (int, float, complex, str, bool, bytes, type(None))


def _kind(value: object) -> str:
    """What ``value`` is, as far as the rule goes: ``runtime`` for what must never cross."""
    pending = [value]
    seen: set[int] = set()
    while pending:
        item = pending.pop()
        if type(item) in _PLAIN or id(item) in seen:
            continue
        seen.add(id(item))
        if isinstance(item, HIDDEN_OBJECTS) or hidden_class(item):
            return f"runtime: {type(item).__name__}"
        if type(item) is types.FunctionType and not (
            is_program_function(item) or _library._wrapped(item)
        ):
            return f"runtime: raw library function {item.__qualname__}"
        if isinstance(item, BaseException):
            pending.extend(item.args)
            if isinstance(item, BaseExceptionGroup):
                pending.extend(item.exceptions)
            # Not __traceback__: every exception has one, and no program reads
            # it (an underscore name); __context__ and __cause__ it reads.
            for chained in (item.__context__, item.__cause__):
                if chained is not None:
                    pending.append(chained)
            continue
        reader = items_reader(type(item))
        if reader is not None:
            pending.extend(reader(item))
    return "data"


class _Seen:
    """The program's ``seen(tag, *values)``: records what each door handed over."""

    def __init__(self) -> None:
        self.kinds: dict[str, set[str]] = collections.defaultdict(set)

    def __call__(self, tag: str, *values: Any) -> bool:
        self.kinds[tag].update(_kind(value) for value in values)
        if not values:
            self.kinds[tag].add("data")
        return False


def _doors(source: str) -> dict[str, set[str]]:
    seen = _Seen()
    run_ok(source, bindings={"seen": seen})
    assert seen.kinds, "no door was opened"
    return dict(seen.kinds)


def _assert_nothing_of_the_runtime(kinds: dict[str, set[str]], expected: set[str]) -> None:
    assert set(kinds) == expected, sorted(expected ^ set(kinds))
    crossed = {tag: sorted(found) for tag, found in kinds.items() if found != {"data"}}
    assert crossed == {}


EXITS = """
import contextlib
class Exit:
    def __enter__(self):
        return self
    def __exit__(self, *details):
        seen("exit", *details)
        return True
class AsyncExit:
    async def __aenter__(self):
        return self
    async def __aexit__(self, *details):
        seen("aexit", *details)
        return True
@contextlib.contextmanager
def managed():
    try:
        yield
    except BaseException as error:
        seen("contextmanager", error)
@contextlib.asynccontextmanager
async def managed_async():
    try:
        yield
    except BaseException as error:
        seen("asynccontextmanager", error)
async def async_exit(*details):
    seen("push_async_exit", *details)
    return True
with Exit():
    1 / 0
with managed():
    [][1]
with contextlib.ExitStack() as stack:
    stack.push(lambda *details: seen("push", *details) or True)
    stack.callback(seen, "callback", 1)
    stack.enter_context(Exit())
    {}["k"]
async with AsyncExit():
    int("x")
async with managed_async():
    None.attribute
async with contextlib.AsyncExitStack() as stack:
    stack.push_async_exit(async_exit)
    await stack.enter_async_context(AsyncExit())
    raise KeyError(1)
return 1
"""


def test_exits_get_the_exception_and_no_traceback() -> None:
    # The with statement hands an exit (type, value, traceback); the traceback's
    # frames are the host's. Every exit a program defines, and every callback an
    # exit stack calls, gets None in its place; a contextmanager's generator is
    # thrown the exception alone.
    _assert_nothing_of_the_runtime(
        _doors(EXITS),
        {
            "exit", "aexit", "contextmanager", "asynccontextmanager", "push",
            "callback", "push_async_exit",
        },
    )


ASYNCIO = """
import asyncio
async def value(x):
    await asyncio.sleep(0)
    return x
async def fail():
    await asyncio.sleep(0)
    raise ValueError("failed")
async def forever():
    await asyncio.sleep(3600)
task = asyncio.create_task(value(1))
task.add_done_callback(lambda *given: seen("done callback", *given))
seen("awaited task", await task)
seen("gathered", await asyncio.gather(value(2), fail(), return_exceptions=True))
done, pending = await asyncio.wait([value(3)])
seen("waited", done, pending, *[t.result() for t in done], *[t.exception() for t in done])
seen("wait_for", await asyncio.wait_for(value(4), 5), await asyncio.wait_for(value(5), None))
for next_one in asyncio.as_completed([value(6), value(7)]):
    seen("as_completed item", next_one)
    seen("as_completed result", await next_one)
queue = asyncio.Queue()
queue.put_nowait(8)
seen("queue", await queue.get())
try:
    async with asyncio.TaskGroup() as group:
        member = group.create_task(fail())
        member.add_done_callback(lambda *given: seen("group callback", *given))
except* ValueError as errors:
    seen("task group", errors, *errors.exceptions)
async with asyncio.timeout(60) as deadline:
    seen("timeout", deadline, deadline.when())
lock = asyncio.Lock()
seen("lock", await lock.acquire())
lock.release()
event = asyncio.Event()
event.set()
seen("event", await event.wait())
condition = asyncio.Condition()
async with condition:
    seen("condition", await condition.wait_for(lambda *given: seen("predicate", *given) or 9))
stuck = asyncio.create_task(forever())
await asyncio.sleep(0)
stuck.cancel()
try:
    await stuck
except asyncio.CancelledError as error:
    seen("cancelled", error)
try:
    await asyncio.wait_for(forever(), 0)
except TimeoutError as error:
    seen("timed out", error)
class Awaitable:
    def __await__(self):
        seen("sent", (yield))
        return 10
seen("program awaitable", await asyncio.wait_for(Awaitable(), 5))
return 1
"""


def test_asyncio_hands_back_and_calls_back_with_the_program_s_objects_only() -> None:
    # Results, callbacks and exception groups come through the façade: a task
    # object, never the real task, future or loop.
    _assert_nothing_of_the_runtime(
        _doors(ASYNCIO),
        {
            "done callback", "awaited task", "gathered", "waited", "wait_for",
            "as_completed item", "as_completed result", "queue", "group callback", "task group",
            "timeout", "lock", "event", "predicate", "condition", "cancelled", "timed out",
            "sent", "program awaitable",
        },
    )


CALLBACKS = """
import collections, collections.abc, csv, difflib, functools, graphlib, heapq, itertools
import json, re, string, textwrap, urllib.parse
def replace(match):
    seen("re.sub", match, match.re, match.string, match.regs, dict(match.re.groupindex))
    return ""
re.sub("(?P<a>x)", replace, "xx")
for match in re.finditer("x", "xx"):
    seen("re.finditer", match)
json.loads(
    '{"a": [1.5, NaN, 2]}',
    object_hook=lambda *given: seen("object_hook", *given) or {},
    parse_float=lambda *given: seen("parse_float", *given) or 0,
    parse_int=lambda *given: seen("parse_int", *given) or 0,
    parse_constant=lambda *given: seen("parse_constant", *given) or 0,
)
json.loads('{"a": 1}', object_pairs_hook=lambda *given: seen("object_pairs_hook", *given))
json.dumps(object(), default=lambda *given: seen("default", *given) or 0)
class Encoder(json.JSONEncoder):
    def default(self, *given):
        seen("JSONEncoder.default", *given)
        return 0
json.dumps([object()], cls=Encoder, indent=1)
for chunk in json.JSONEncoder(indent=1).iterencode({"a": [1]}):
    seen("iterencode", chunk)
sorted([3, 1, 2], key=lambda *given: seen("sorted key", *given) or 0)
min([1, 2], key=lambda *given: seen("min key", *given) or 0)
list(map(lambda *given: seen("map", *given), difflib.ndiff(["a"], ["b"])))
order = graphlib.TopologicalSorter({1: [2]}).static_order()
list(filter(lambda *given: seen("filter", *given), order))
functools.reduce(lambda *given: seen("reduce", *given), itertools.chain([1], [2], [3]))
for key, group in itertools.groupby([1, 1, 2], key=lambda *given: seen("groupby key", *given) or 0):
    seen("groupby", key, *group)
defaults = collections.defaultdict(lambda *given: seen("factory", *given) or 0)
defaults["k"]
difflib.SequenceMatcher(lambda *given: seen("isjunk", *given), "ab", "ac").ratio()
list(difflib.ndiff(
    ["a\\n"], ["b\\n"],
    linejunk=lambda *given: seen("linejunk", *given),
    charjunk=lambda *given: seen("charjunk", *given),
))
class File:
    def write(self, *given):
        seen("csv write", *given)
csv.writer(File()).writerow([1, "a"])
for row in csv.reader(["a,b"]):
    seen("csv row", row)
textwrap.indent("a\\n", " ", predicate=lambda *given: seen("indent predicate", *given))
urllib.parse.urlencode({"a": "b"}, quote_via=lambda *given: seen("quote_via", *given) or "")
class Mapping(dict):
    def __missing__(self, *given):
        seen("__missing__", *given)
        return ""
string.Template("$a").substitute(Mapping())
class Ordered:
    def __init__(self, n):
        self.n = n
    def __lt__(self, *given):
        seen("__lt__", *given)
        return False
    def __eq__(self, *given):
        seen("__eq__", *given)
        return False
    def __hash__(self):
        return hash(re.I)
heap = []
heapq.heappush(heap, Ordered(1))
heapq.heappush(heap, Ordered(2))
{re.I: 1, 0: 2}.get(Ordered(3))
class Set(collections.abc.Set):
    def __init__(self, items=()):
        self.items = list(items)
    def __contains__(self, item):
        return item in self.items
    def __iter__(self):
        return iter(self.items)
    def __len__(self):
        return len(self.items)
    @classmethod
    def _from_iterable(cls, *given):
        seen("_from_iterable", *given)
        for name in ("send", "throw"):
            try:
                getattr(given[0], name)
            except AttributeError:
                pass
            else:
                seen("stepped", getattr)
        return cls(given[0])
Set([1]) & Set([1, 2])
eg = ExceptionGroup("g", [ValueError(1), ExceptionGroup("h", [KeyError(2)])])
eg.subgroup(lambda *given: seen("subgroup", *given))
return 1
"""


def test_library_code_calls_the_program_back_with_data_only() -> None:
    # Key functions, hooks, junk filters, factories, file-likes and the special
    # methods library code calls: what they get is what the program gave, or
    # fresh data (a Match, a library generator that cannot be stepped by hand).
    _assert_nothing_of_the_runtime(
        _doors(CALLBACKS),
        {
            "re.sub", "re.finditer", "object_hook", "parse_float", "parse_int",
            "parse_constant", "object_pairs_hook", "default", "JSONEncoder.default",
            "iterencode", "sorted key", "min key", "map", "filter", "reduce", "groupby key",
            "groupby", "factory", "isjunk", "linejunk", "charjunk", "csv write", "csv row",
            "indent predicate", "quote_via", "__missing__", "__lt__", "__eq__",
            "_from_iterable", "subgroup",
        },
    )


def test_the_classifier_tells_a_runtime_object_wherever_it_is() -> None:
    frame = sys._getframe()
    assert _kind(frame) == "runtime: frame"
    assert _kind([{"k": (1, frame)}]) == "runtime: frame"
    assert _kind(ValueError(ExceptionGroup("g", [KeyError(frame)]))) == "runtime: frame"
    assert _kind(types.SimpleNamespace()) == "data"
