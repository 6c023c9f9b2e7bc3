"""Imports: façades of allowed modules only, holding allow-listed attributes only."""

from __future__ import annotations

import asyncio
import types
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox._facades import (
    ALLOWED_MODULES,
    _Facade,
    _members_of,
    build_facades,
    make_importer,
)

from .test_language_support import compile_errors, run_error, run_ok

if TYPE_CHECKING:
    from collections.abc import Generator

ISSUE_MODULES = [
    "json", "math", "cmath", "re", "datetime", "time", "itertools", "functools", "operator",
    "collections", "statistics", "string", "textwrap", "random", "decimal", "fractions", "heapq",
    "bisect", "copy", "base64", "unicodedata", "io", "contextlib", "dataclasses", "typing",
    "enum", "asyncio",
]  # fmt: skip


def test_every_module_the_issue_lists_is_allowed() -> None:
    assert set(ISSUE_MODULES) <= set(ALLOWED_MODULES)


@pytest.mark.parametrize("module", ALLOWED_MODULES)
def test_allowed_module_imports_as_a_facade(module: str) -> None:
    top = module.partition(".")[0]
    # The façade's class prints as a module of that name, naming no host module.
    assert run_ok(f"import {module}\nreturn repr(type({top}))") == f"<class '{top}.module'>"


def test_import_as_and_from_import_work() -> None:
    source = """\
import json as j
from math import sqrt, pi as PI
return [j.dumps([1]), sqrt(4.0), PI > 3]
"""
    assert run_ok(source) == ["[1]", 2.0, True]


def test_a_dotted_allowed_module_imports() -> None:
    source = """\
import collections.abc
from collections.abc import Mapping
return isinstance({}, collections.abc.Mapping) and isinstance({}, Mapping)
"""
    assert run_ok(source) is True


def test_no_facade_member_is_a_real_module() -> None:
    for name, facade in build_facades().items():
        for attr, value in vars(type(facade)).items():
            if isinstance(value, staticmethod):
                value = value.__func__
            assert not isinstance(value, types.ModuleType), f"{name}.{attr}"


def test_a_forbidden_import_names_the_allowed_modules() -> None:
    kind, message = run_error("import xml")
    assert kind == "exception"
    assert message.endswith(
        "ModuleNotFoundError: module 'xml' is not available in run_code; allowed modules: "
        + ", ".join(ALLOWED_MODULES)
    )


@pytest.mark.parametrize(
    ("module", "hint"),
    [
        ("sys", "to end the program, return its value at the top level (`return value`); "
                "print() writes the program's only output stream"),
        ("os", "programs have no file system, environment or processes; use the tools"),
        ("requests", "programs have no network; use the tools they are given. "),
        ("logging", "print() the lines to show"),
        ("traceback", "str(error) or repr(error) give an exception's text"),
        ("zoneinfo", "fixed offsets work: datetime.timezone(datetime.timedelta(hours=2))"),
        ("logging", "print() the lines to show (they come back with the result), or append "
                    "them to a list of your own to return them"),
        ("shlex", "split on whitespace with str.split(), or keep quoted parts together"),
        ("dateutil.parser", "parse dates with datetime.datetime.fromisoformat(text) or "),
        ("concurrent.futures", "programs have no threads or processes; run tool calls "
                               "concurrently with `await asyncio.gather(*calls)`"),
        ("threading", "programs have no threads or processes"),
        ("queue", "use asyncio.Queue between tasks"),
        ("pydantic", "declare a @dataclasses.dataclass, check the fields in its __post_init__"),
        ("numpy", "use lists and dicts with the statistics, math, collections and itertools"),
        ("typing_extensions", "import the names from typing: "),
        ("httpx", "programs have no network; use the tools they are given. "),
        ("tools", "`tools` is already defined in every program, with no import: call a tool "
                  "as `await tools.name(...)`. "),
        ("inspect", "asyncio.iscoroutinefunction(fn) and asyncio.iscoroutine(value) tell "
                    "async from plain"),
        ("numbers", "test the built-in types: `isinstance(x, (int, float))`"),
        ("ipaddress", "split an IPv4 address into its numbers"),
        ("contextvars", "pass the value down as an argument"),
        ("hmac", "hashlib makes the same HMAC: "),
        ("zlib", "there is no compression; for a stable hash of a key"),
        ("binascii", "there is no compression; for a stable hash of a key"),
    ],
)
def test_a_forbidden_import_programs_reach_for_says_what_to_do(module: str, hint: str) -> None:
    kind, message = run_error(f"import {module}")
    assert kind == "exception"
    assert f"ModuleNotFoundError: module {module!r} is not available in run_code; {hint}" in message
    assert message.endswith(", ".join(ALLOWED_MODULES))


@pytest.mark.parametrize(
    ("statement", "hint"),
    [
        ("from functools import singledispatch", "dispatch on the type with `match value:`"),
        ("from typing import runtime_checkable", "test for the methods you need with hasattr("),
        ("from typing import get_args", "type hints cannot be inspected at run time; "),
        ("import calendar\ncalendar.TextCalendar", "calendar.month(year, month) and "),
        ("from itertools import batched", "take fixed-size chunks with islice: "),
        ("import itertools\nitertools.batched([1, 2, 3], 2)", "take fixed-size chunks with "),
        ("import math\nmath.sumprod([1], [2])", "write `sum(a * b for a, b in zip(xs, ys))`"),
        ("from typing import override", "it only marks a method for type checkers"),
        ("import asyncio\nasyncio.to_thread", "programs have no threads: call a plain function"),
        ("import asyncio\nasyncio.timeout_at", "give the delay in seconds instead: "),
        ("import operator\noperator.call", "call the function directly: "),
        ("import time\ntime.localtime(0)", "a program has no local time zone: time.gmtime("),
        ("import time\ntime.strptime", "parse with datetime.datetime.strptime(text, format)"),
        ("import calendar\ncalendar.setfirstweekday(6)", "pass the first day to a calendar "),
        ("import calendar\ncalendar.Month", "use the numbers: calendar.month_name[6] is "),
        ("from enum import verify", "decorate the class with @enum.unique to require"),
        ("import enum\nenum.property", "a plain @property works on members"),
        ("import re\nre.Scanner", "loop over one pattern's matches with named alternatives"),
    ],
)
def test_a_missing_member_programs_reach_for_says_what_to_do(statement: str, hint: str) -> None:
    _, message = run_error(statement + "\nreturn 1")
    assert f"in run_code; {hint}" in message
    assert "available: " in message


ISCOROUTINE_PROGRAM = """
import asyncio, functools
async def fetch(x):
    return x
def plain(x):
    return x
class Client:
    async def get(self):
        return 1
    def put(self):
        return 2
class Caller:
    async def __call__(self):
        return 3
client = Client()
pending = fetch(1)
answers = [
    asyncio.iscoroutinefunction(fetch), asyncio.iscoroutinefunction(plain),
    asyncio.iscoroutinefunction(client.get), asyncio.iscoroutinefunction(client.put),
    asyncio.iscoroutinefunction(functools.partial(fetch, 1)),
    asyncio.iscoroutinefunction(Caller()), asyncio.iscoroutinefunction(client),
    asyncio.iscoroutinefunction(len), asyncio.iscoroutinefunction(lambda: 1),
    asyncio.iscoroutine(pending), asyncio.iscoroutine(fetch), asyncio.iscoroutine(client),
    asyncio.iscoroutine(1), asyncio.iscoroutinefunction(asyncio.sleep),
]
await pending
return answers
"""


async def _iscoroutine_program_in_plain_python() -> Any:
    namespace: dict[str, Any] = {}
    body = "".join(f"    {line}\n" for line in ISCOROUTINE_PROGRAM.strip().splitlines())
    exec(f"async def main():\n{body}", namespace)  # the test's own program, in plain Python
    return await namespace["main"]()


def test_iscoroutinefunction_and_iscoroutine_answer_as_in_python_and_run_nothing() -> None:
    answers = run_ok(ISCOROUTINE_PROGRAM)
    assert answers == asyncio.run(_iscoroutine_program_in_plain_python())
    assert answers == [True, False, True, False, True, False, False, False, False,
                       True, False, False, False, True]


def test_what_the_member_hints_suggest_works() -> None:
    import calendar

    value = run_ok(
        "import calendar\n"
        "PRIORITIES = ('low', 'high')\n"
        "def describe(value):\n"
        "    match value:\n"
        "        case dict():\n            return 'mapping'\n"
        "        case list():\n            return 'sequence'\n"
        "    return 'other'\n"
        "class Reader:\n    def read(self):\n        return 1\n"
        "return [describe({}), describe([]), hasattr(Reader(), 'read'), 'low' in PRIORITIES,"
        " calendar.month(2024, 6)]"
    )
    textual = calendar.TextCalendar(calendar.MONDAY).formatmonth(2024, 6)
    assert value == ["mapping", "sequence", True, True, textual]


def test_what_the_new_module_and_member_hints_suggest_works() -> None:
    # Each line is the code a hint above writes out, run as a program writes it.
    value = run_ok(
        "import asyncio, calendar, datetime, itertools, re, time\n"
        "pattern, names = 'M?-*', ['MS-02', 'MN-27', 'KB-01']\n"
        "matched = [n for n in names if re.fullmatch("
        "re.escape(pattern).replace(r'\\*', '.*').replace(r'\\?', '.'), n)]\n"
        "text = 'tag \"big spender\" vip'\n"
        "words = [p.strip('\"') for p in re.findall(r'\"[^\"]*\"|\\S+', text)]\n"
        "items = list(range(7))\n"
        "it = iter(items)\n"
        "chunks = []\n"
        "while chunk := tuple(itertools.islice(it, 3)):\n"
        "    chunks.append(chunk)\n"
        "sliced = [items[i:i + 3] for i in range(0, len(items), 3)]\n"
        "xs, ys = [1, 2], [3, 4]\n"
        "dot = sum(a * b for a, b in zip(xs, ys))\n"
        "week = calendar.Calendar(firstweekday=calendar.SUNDAY).monthdayscalendar(2024, 6)[0]\n"
        "utc = [calendar.timegm(time.gmtime(100)),\n"
        "       datetime.datetime.fromtimestamp(100, datetime.timezone.utc).isoformat(),\n"
        "       datetime.datetime.strptime('2024', '%Y').timetuple().tm_year]\n"
        "async with asyncio.timeout(5):\n"
        "    await asyncio.sleep(0)\n"
        "return [matched, words, chunks, sliced, dot, week, utc, calendar.month_name[6]]"
    )
    assert value == [
        ["MS-02", "MN-27"], ["tag", "big spender", "vip"], [[0, 1, 2], [3, 4, 5], [6]],
        [[0, 1, 2], [3, 4, 5], [6]], 11, [0, 0, 0, 0, 0, 0, 1],
        [100, "1970-01-01T00:01:40+00:00", 2024], "June",
    ]


def test_a_key_function_hint_for_getitem_works() -> None:
    _, message = run_error("d = {'a': 2, 'b': 1}\nreturn max(d, key=d.__getitem__)")
    assert "as a key function, lambda k: x[k] (d.get for a dict)" in message
    suggested = "d = {'a': 2, 'b': 1}\nreturn [max(d, key=d.get), max(d, key=lambda k: d[k])]"
    assert run_ok(suggested) == ["a", "a"]


def test_the_getitem_hint_fits_a_list_too() -> None:
    # The argmax idiom: a list has no .get, so the hint leads with the lambda.
    source = "gaps = [3, 9, 4]\nreturn max(range(len(gaps)), key=gaps.__getitem__)"
    _, message = run_error(source)
    assert "as a key function, lambda k: x[k]" in message
    assert run_ok("gaps = [3, 9, 4]\nreturn max(range(len(gaps)), key=lambda k: gaps[k])") == 1


def test_an_unavailable_module_raises_module_not_found_error() -> None:
    # The optional-import idiom takes its fallback, as for a module not installed.
    assert run_ok(
        "try:\n    import yaml\nexcept ModuleNotFoundError as missing:\n"
        "    return [missing.name, 'allowed modules' in str(missing)]"
    ) == ["yaml", True]
    _, message = run_error("from json import nothing_here\nreturn 1")
    assert "ImportError: cannot import name 'nothing_here' from 'json'" in message
    assert "ModuleNotFoundError" not in message


def test_what_the_import_hints_suggest_works() -> None:
    value = run_ok(
        "import datetime, uuid, random\n"
        "zone = datetime.timezone(datetime.timedelta(hours=2))\n"
        "at = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC).astimezone(zone)\n"
        "try:\n    int('x')\nexcept ValueError as error:\n    text = str(error)\n"
        "return [at.hour, len(uuid.uuid4().hex), random.getrandbits(128) >= 0, text]"
    )
    assert value == [2, 32, True, "invalid literal for int() with base 10: 'x'"]


@pytest.mark.parametrize(
    "name",
    [
        "os",
        "sys",
        "subprocess",
        "os.path",
        "json.decoder",
        "importlib",
        "builtins",
        "asyncio.events",
        "ctypes",
        "socket",
    ],
)
def test_forbidden_modules_cannot_be_imported(name: str) -> None:
    _, message = run_error(f"import {name}")
    assert f"ModuleNotFoundError: module {name!r} is not available in run_code" in message


def test_from_import_of_a_missing_name_does_not_reach_submodules() -> None:
    # The interpreter would fall back to sys.modules["json.decoder"].
    _, message = run_error("from json import decoder")
    assert "cannot import name 'decoder' from 'json' in run_code; available:" in message
    assert "json.decoder" not in message


@pytest.mark.parametrize(
    ("module", "attr"),
    [
        ("re", "enum"),
        ("re", "functools"),
        ("datetime", "sys"),
        ("json", "codecs"),
        ("json", "decoder"),
        ("random", "SystemRandom"),
        ("base64", "binascii"),
        ("typing", "sys"),
        ("typing", "get_type_hints"),
        ("typing", "ForwardRef"),
        ("asyncio", "events"),
        ("asyncio", "get_event_loop"),
        ("asyncio", "get_running_loop"),
        ("asyncio", "ensure_future"),
        ("string", "Formatter"),
        ("collections", "UserString"),
        ("time", "localtime"),
        ("dataclasses", "make_dataclass"),
        ("enum", "EnumMeta"),
        ("uuid", "uuid1"),
        ("uuid", "getnode"),
        ("hashlib", "new"),
        ("pprint", "PrettyPrinter"),
        ("csv", "unregister_dialect"),
        ("csv", "field_size_limit"),
        ("secrets", "SystemRandom"),
        ("types", "FunctionType"),
        ("contextlib", "redirect_stderr"),
    ],
)
def test_facades_lack_attributes_that_lead_out(module: str, attr: str) -> None:
    _, message = run_error(f"import {module}\nreturn getattr({module}, {attr!r}) and 1")
    assert f"AttributeError: module {module!r} has no attribute {attr!r} in run_code" in message


def test_facades_have_no_module_name_to_fall_back_on() -> None:
    assert run_ok("import json\nreturn hasattr(json, '__name__')") is False


def test_asyncio_gather_with_return_exceptions() -> None:
    source = """
import asyncio
async def ok():
    return 1
async def bad():
    raise ValueError("no")
results = await asyncio.gather(ok(), bad(), tools.echo(x=2), return_exceptions=True)
return [results[0], type(results[1]).__name__, results[2]]
"""
    assert run_ok(source) == [1, "ValueError", {"x": 2}]


def test_asyncio_tasks_expose_only_safe_methods() -> None:
    source = """
import asyncio
async def work():
    return 5
task = asyncio.create_task(work())
value = await task
return [value, task.done(), task.cancelled(), task.result(), task.exception() is None,
        hasattr(task, "get_coro"), hasattr(task, "get_loop"), hasattr(task, "add_done_callback")]
"""
    assert run_ok(source) == [5, True, False, 5, True, False, False, True]


def test_asyncio_tasks_have_names_and_done_callbacks_given_the_task_object() -> None:
    source = """
import asyncio
seen = []
async def work(n):
    await asyncio.sleep(0)
    return n * 2
def note(task):
    seen.append([task.get_name(), task.result(), task is t or task is t3])
def boom(task):
    raise ValueError("a failing callback does not stop the loop")
t = asyncio.create_task(work(2), name="double-2")
t.add_done_callback(boom)
t.add_done_callback(note)
t2 = asyncio.create_task(work(3))
t2.add_done_callback(note)
removed = [t2.remove_done_callback(note), t2.remove_done_callback(note)]
t2.set_name(7)
async with asyncio.TaskGroup() as group:
    t3 = group.create_task(work(4), name="in-group")
    t3.add_done_callback(note)
await t
await t2
await asyncio.sleep(0)
return [seen, removed, t2.get_name(), t.get_name(), t3.get_name(),
        asyncio.create_task(work(1)).get_name().startswith("Task-")]
"""
    assert run_ok(source) == [
        [["double-2", 4, True], ["in-group", 8, True]],
        [1, 0],
        "7",
        "double-2",
        "in-group",
        True,
    ]


def test_a_done_callback_never_receives_the_real_task() -> None:
    source = """
import asyncio
got = []
async def work():
    return 1
t = asyncio.create_task(work())
t.add_done_callback(got.append)
await t
await asyncio.sleep(0)
return [type(got[0]).__name__, got[0] is t, hasattr(got[0], "get_coro")]
"""
    assert run_ok(source) == ["ProgramTask", True, False]


def test_asyncio_task_group_semaphore_lock_and_event() -> None:
    source = """
import asyncio
sem = asyncio.Semaphore(2)
lock = asyncio.Lock()
ready = asyncio.Event()
done = []
async def work(i):
    async with sem:
        await ready.wait()
        async with lock:
            done.append(i)
async with asyncio.TaskGroup() as group:
    tasks = [group.create_task(work(i)) for i in range(3)]
    ready.set()
return [sorted(done), [t.done() for t in tasks], type(group).__name__]
"""
    assert run_ok(source) == [[0, 1, 2], [True, True, True], "ProgramTaskGroup"]


def test_asyncio_wait_for_and_timeout() -> None:
    source = """
import asyncio
async def slow():
    await asyncio.sleep(10)
out = []
try:
    await asyncio.wait_for(slow(), 0.01)
except TimeoutError:
    out.append("wait_for")
try:
    async with asyncio.timeout(0.01):
        await asyncio.sleep(10)
except TimeoutError:
    out.append("timeout")
return out
"""
    assert run_ok(source) == ["wait_for", "timeout"]


def test_time_facade_has_the_four_clocks() -> None:
    source = """\
import time
t = time.time()
time.sleep(0)
return [t > 0, time.monotonic() > 0, time.perf_counter() > 0]
"""
    assert run_ok(source) == [True, True, True]


@pytest.mark.parametrize(
    "statement",
    ["import _strptime", "from _strptime import _strptime_datetime", "import _thread",
     "import json._x", "import _strptime as strptime"],
)
def test_a_module_whose_name_starts_with_underscore_is_refused(statement: str) -> None:
    # Rule 6 makes `_x` names the program's own; a module's name never is.
    (error,) = compile_errors(statement + "\nreturn 1")
    assert "modules whose names start with \"_\" are the runtime's own" in error


@given(st.sampled_from([*ALLOWED_MODULES, "_strptime", "sys", "os", "_thread", "builtins",
                        "importlib", "json.decoder", "urllib"]) | st.text(max_size=12))
def test_the_importer_returns_only_facades(name: str) -> None:
    # The second line behind the compiler: whatever name reaches it (C code
    # imports through the program's __import__), never a real module.
    importer = make_importer(build_facades())
    try:
        module = importer(name)
    except (ImportError, TypeError):
        return
    assert isinstance(module, _Facade), (name, module)


def test_the_strptime_facade_holds_only_what_datetime_calls() -> None:
    facade = make_importer(build_facades())("_strptime")
    assert _members_of(facade) == []  # no public member
    assert [name for name in vars(type(facade)) if name.startswith("_strptime")] == [
        "_strptime_datetime"
    ]


def test_datetime_strptime_works_through_its_internal_import() -> None:
    source = """\
from datetime import datetime, timedelta
d = datetime.strptime('2024-01-02', '%Y-%m-%d')
return (d + timedelta(days=1)).isoformat()
"""
    assert run_ok(source) == "2024-01-03T00:00:00"


def test_decimal_contexts_can_be_changed() -> None:
    source = """\
import decimal
decimal.getcontext().prec = 5
return str(decimal.Decimal(1) / decimal.Decimal(3))
"""
    assert run_ok(source) == "0.33333"


def test_a_decimal_contexts_traps_and_flags_can_be_set_by_item() -> None:
    source = """\
import decimal
ctx = decimal.getcontext()
ctx.traps[decimal.Inexact] = True
ctx.flags[decimal.Rounded] = False
try:
    decimal.Decimal(1) / decimal.Decimal(3)
    trapped = False
except decimal.Inexact:
    trapped = True
with decimal.localcontext() as local:
    local.traps[decimal.Inexact] = False
    third = str(decimal.Decimal(1) / decimal.Decimal(3))
own = decimal.Context(prec=3)
own.traps[decimal.DivisionByZero] = False
return [trapped, ctx.traps[decimal.Inexact], third, str(own.divide(1, 0))]
"""
    assert run_ok(source) == [True, True, "0.3333333333333333333333333333", "Infinity"]


def test_a_decimal_signal_dict_still_takes_only_signals() -> None:
    source = """\
import decimal
out = []
for key in ["Inexact", decimal.Decimal]:
    try:
        decimal.getcontext().traps[key] = True
    except KeyError:
        out.append("KeyError")
try:
    del decimal.getcontext().traps[decimal.Inexact]
except ValueError:
    out.append("ValueError")
return out
"""
    assert run_ok(source) == ["KeyError", "KeyError", "ValueError"]


def test_a_programs_decimal_traps_do_not_reach_the_caller() -> None:
    import decimal

    before = dict(decimal.getcontext().traps)
    template = dict(decimal.DefaultContext.traps)
    run_ok("import decimal\ndecimal.getcontext().traps[decimal.Inexact] = True\nreturn 1")
    assert dict(decimal.getcontext().traps) == before
    assert dict(decimal.DefaultContext.traps) == template


def test_io_stringio_works_with_print_file() -> None:
    source = (
        "import io\nbuf = io.StringIO()\nprint('a', 'b', sep='-', file=buf)\nreturn buf.getvalue()"
    )
    assert run_ok(source) == "a-b\n"


def test_operator_itemgetter_goes_through_the_item_guard() -> None:
    source = """\
from operator import itemgetter, add
rows = [[2, 'b'], [1, 'a']]
return [sorted(rows, key=itemgetter(0)), itemgetter(0, 1)(rows[0]) == (2, 'b'), add(1, 2)]
"""
    assert run_ok(source) == [[[1, "a"], [2, "b"]], True, 3]


def test_string_template_works() -> None:
    source = """\
from string import Template, ascii_lowercase
return [Template('$who!').substitute(who='x'), ascii_lowercase[:3]]
"""
    assert run_ok(source) == ["x!", "abc"]


def test_copy_and_deepcopy_of_plain_data_and_own_objects() -> None:
    source = """
import copy
class Node:
    def __init__(self, items):
        self.items = items
data = {"a": [1, {"b": 2}], "s": {1, 2}}
deep = copy.deepcopy(data)
deep["a"][1]["b"] = 3
node = Node([1])
clone = copy.deepcopy(node)
clone.items.append(2)
shallow = copy.copy(node)
return [data["a"][1]["b"], deep["a"][1]["b"], node.items, clone.items, shallow.items is node.items]
"""
    assert run_ok(source) == [2, 3, [1], [1, 2], True]


def test_copy_refuses_objects_that_rebuild_themselves() -> None:
    message = run_error("import copy, io\nreturn copy.deepcopy(io.StringIO())")[1]
    assert message.endswith(
        "TypeError: cannot copy a StringIO object in run_code: copy works on plain data "
        "(dict, list, set, tuple, str, numbers, dates), enums and instances of the program's own "
        "classes"
    )


def test_dataclass_only_decorates_the_programs_classes() -> None:
    message = run_error(
        "from dataclasses import dataclass\nimport json\ndataclass(json.JSONDecoder)"
    )[1]
    assert message.endswith(
        "TypeError: dataclass() can only be applied to a class defined by the program"
    )


def test_dataclass_kw_only_marker_and_kw_only_fields() -> None:
    source = """
from dataclasses import KW_ONLY, dataclass, field, fields
@dataclass(frozen=True, slots=True)
class Query:
    text: str
    _: KW_ONLY
    limit: int = 10
    tags: list = field(default_factory=list)
@dataclass
class Page:
    number: int = field(kw_only=True)
    size: int = 20
q = Query("rain", limit=3)
try:
    Query("rain", 3)
    positional = True
except TypeError:
    positional = False
match q:
    case Query(text):
        matched = text
return [repr(q), positional, [f.name for f in fields(Query)], matched, repr(Page(2, number=1))]
"""
    assert run_ok(source) == [
        "Query(text='rain', limit=3, tags=[])",
        False,
        ["text", "limit", "tags"],
        "rain",
        "Page(number=1, size=2)",
    ]


def test_only_the_real_kw_only_marker_lets_an_underscore_annotation_through() -> None:
    for marker in ("'KW_ONLY'", "int", "object"):
        source = (
            "from dataclasses import KW_ONLY, dataclass\n"
            f"@dataclass\nclass A:\n    _: {marker}\n    b: int = 2\nreturn 1"
        )
        assert run_error(source)[1].endswith(
            "TypeError: dataclass field name '_' is not allowed in run_code: the names a "
            "dataclass hands to `match` and to its generated methods must be public; to make "
            "the fields after it keyword-only, annotate `_` with dataclasses.KW_ONLY itself: "
            "`_: KW_ONLY`"
        ), marker


def test_functools_wraps_only_decorates_program_functions() -> None:
    message = run_error("import functools, json\nfunctools.wraps(len)(json.dumps)")[1]
    assert message.endswith(
        "TypeError: wraps() can only decorate a function defined by the program"
    )


def test_functools_total_ordering_and_lru_cache() -> None:
    source = """
import functools
@functools.total_ordering
class V:
    def __init__(self, n):
        self.n = n
    def __lt__(self, o):
        return self.n < o.n
    def __eq__(self, o):
        return self.n == o.n
@functools.lru_cache(maxsize=None)
def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)
return [V(2) >= V(1), fib(30), functools.reduce(lambda a, b: a + b, [1, 2, 3])]
"""
    assert run_ok(source) == [True, 832040, 6]


def test_json_re_statistics_and_itertools() -> None:
    source = """
import json, re, statistics, itertools
return [json.loads(json.dumps({"a": [1, 2.5]})), re.findall(r"\\d+", "a1b22"),
        statistics.mean([1, 2, 3]), list(itertools.islice(itertools.count(5), 3))]
"""
    assert run_ok(source) == [{"a": [1, 2.5]}, ["1", "22"], 2, [5, 6, 7]]


def test_deepcopy_of_a_facade_is_refused_and_classes_copy_as_themselves() -> None:
    message = run_error("import copy, json\nreturn copy.deepcopy(json)")[1]
    assert "TypeError: cannot copy a module object in run_code" in message
    source = "import copy\nclass A:\n    pass\nreturn copy.deepcopy(A) is A and copy.copy(A) is A"
    assert run_ok(source) is True


class _CallAwaitable:
    """Like a real tool call: an awaitable that is not a coroutine."""

    def __init__(self, value: int) -> None:
        self._value = value

    def __await__(self) -> Generator[Any, None, int]:
        yield from asyncio.sleep(0).__await__()
        return self._value


def test_a_task_group_starts_tool_calls_that_are_not_coroutines() -> None:
    source = """
import asyncio
async with asyncio.TaskGroup() as group:
    first = group.create_task(call(7))
    second = group.create_task(call(8))
return [first.result(), second.result()]
"""
    assert run_ok(source, bindings={"call": _CallAwaitable}) == [7, 8]


def test_the_contextlib_classes_print_as_contextlibs() -> None:
    import contextlib

    shown = [repr(contextlib.ExitStack), repr(contextlib.AsyncExitStack),
             repr(contextlib.closing), repr(contextlib.aclosing)]
    assert run_ok(
        "import contextlib\n"
        "return [repr(contextlib.ExitStack), repr(contextlib.AsyncExitStack),"
        " repr(contextlib.closing), repr(contextlib.aclosing)]"
    ) == shown
