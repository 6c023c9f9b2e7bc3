"""What to write instead of a module or member a program reaches for but has not got.

The importer and the façades' missing-attribute errors (``sandbox/_facades.py``)
add these hints to their refusals: models write ``import threading`` or
``itertools.batched`` from habit, and the message says what works here.
This module runs in the child.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["MISSING_MEMBER_HINTS", "MISSING_MODULE_HINTS"]


#: What to do instead of importing a module that programs reach for but have not got.
MISSING_MODULE_HINTS: Final[Mapping[str, str]] = {
    "sys": (
        "to end the program, return its value at the top level (`return value`); print() "
        "writes the program's only output stream (there is no sys.stdout or sys.stderr)"
    ),
    "logging": (
        "print() the lines to show (they come back with the result), or append them to a "
        'list of your own to return them: `log.append(f"WARNING:{name}:{message}")`'
    ),
    "traceback": (
        "str(error) or repr(error) give an exception's text, and an exception the program "
        "does not catch comes back with its traceback"
    ),
    "zoneinfo": (
        "fixed offsets work: datetime.timezone(datetime.timedelta(hours=2)); datetime.UTC "
        "is UTC"
    ),
    "os": "programs have no file system, environment or processes; use the tools they are given",
    "pathlib": "programs have no file system; use the tools they are given",
    "subprocess": "programs cannot start processes; use the tools they are given",
    "requests": "programs have no network; use the tools they are given",
    # The SDK's `tools` is a name every program already has, not a module.
    "tools": (
        "`tools` is already defined in every program, with no import: call a tool as "
        "`await tools.name(...)`"
    ),
    "socket": "programs have no network; use the tools they are given",
    "urllib.request": "programs have no network; use the tools they are given",
    **dict.fromkeys(
        ["http", "http.client", "urllib3", "httpx", "aiohttp"],
        "programs have no network; use the tools they are given",
    ),
    **dict.fromkeys(
        ["glob", "shutil", "tempfile", "sqlite3"],
        "programs have no file system; use the tools they are given",
    ),
    **dict.fromkeys(
        ["threading", "concurrent.futures", "multiprocessing"],
        "programs have no threads or processes; run tool calls concurrently with "
        "`await asyncio.gather(*calls)` or in an asyncio.TaskGroup",
    ),
    "queue": (
        "use asyncio.Queue between tasks (`await q.get()`, `q.put_nowait(x)`), or "
        "collections.deque for a plain first-in first-out list"
    ),
    "shlex": (
        "split on whitespace with str.split(), or keep quoted parts together with "
        """`[p.strip('"') for p in re.findall(r'"[^"]*"|\\S+', text)]`"""
    ),
    **dict.fromkeys(
        ["dateutil", "dateutil.parser", "dateutil.relativedelta", "arrow", "pendulum"],
        "parse dates with datetime.datetime.fromisoformat(text) or "
        "datetime.datetime.strptime(text, format); add days with datetime.timedelta and "
        "months with date.replace(year=..., month=...)",
    ),
    "pytz": (
        "fixed offsets work: datetime.timezone(datetime.timedelta(hours=2)); datetime.UTC "
        "is UTC"
    ),
    **dict.fromkeys(
        ["numpy", "pandas"],
        "use lists and dicts with the statistics, math, collections and itertools modules "
        "(statistics.mean, statistics.quantiles, collections.Counter, itertools.groupby)",
    ),
    "pickle": "serialise with json.dumps and json.loads; copy objects with copy.deepcopy",
    "struct": (
        "convert integers to bytes and back with int.to_bytes(n, 'big') and "
        "int.from_bytes(data, 'big')"
    ),
    "typing_extensions": (
        "import the names from typing: TypedDict, NotRequired, Required, Self, Literal, "
        "Protocol and the rest are there"
    ),
    **dict.fromkeys(
        ["pydantic", "attrs", "attr"],
        "declare a @dataclasses.dataclass, check the fields in its __post_init__, and "
        "convert it with dataclasses.asdict()",
    ),
    "inspect": (
        "asyncio.iscoroutinefunction(fn) and asyncio.iscoroutine(value) tell async from "
        "plain (or call it and await what is awaitable: "
        "`if isinstance(result, collections.abc.Awaitable): result = await result`); "
        "dataclasses.fields(cls) lists a dataclass's fields"
    ),
    "numbers": (
        "test the built-in types: `isinstance(x, (int, float))` (bool is an int: test "
        "`isinstance(x, bool)` first), with decimal.Decimal, fractions.Fraction or complex "
        "added where they can occur"
    ),
    "ipaddress": (
        "split an IPv4 address into its numbers, `a, b, c, d = map(int, ip.split('.'))`, and "
        "compare them (private: 10.x.x.x, 172.16-31.x.x, 192.168.x.x, 127.x.x.x loopback)"
    ),
    "contextvars": (
        "pass the value down as an argument (`async def lookup(cid, request_id)`), or keep "
        "it in a dict keyed by the task: `state[asyncio.current_task()] = value`"
    ),
    "hmac": (
        "hashlib makes the same HMAC: `k = key.ljust(64, b'\\0')` (hashlib.sha256(key)"
        ".digest() first for a key over 64 bytes), `inner = hashlib.sha256(bytes(b ^ 0x36 for "
        "b in k) + msg).digest()`, `mac = hashlib.sha256(bytes(b ^ 0x5C for b in k) + inner)"
        ".hexdigest()`; compare digests with secrets.compare_digest(a, b)"
    ),
    **dict.fromkeys(
        ["zlib", "binascii", "gzip"],
        "there is no compression; for a stable hash of a key (to pick a shard or bucket) use "
        "hashlib: `int(hashlib.sha256(key.encode()).hexdigest(), 16) % n`, and base64 for "
        "text encodings of bytes",
    ),
    "locale": (
        "format numbers with a format spec (f'{n:,.2f}') and swap the separators with "
        "str.translate for other conventions"
    ),
}


#: The way to keep what type hints would say, for the hints on reading them.
_HINTS_AS_DATA: Final = (
    'describe the record as data: `FIELDS = {"id": str, "status": ("pending", "paid"), '
    '"total": float}`, then test values with isinstance() and `in`'
)

#: What to write instead of a module member that programs reach for but have not got.
MISSING_MEMBER_HINTS: Final[Mapping[tuple[str, str], str]] = {
    ("functools", "singledispatch"): (
        "dispatch on the type with `match value:` and class patterns (`case dict():`, "
        "`case list():`) or an isinstance() chain"
    ),
    ("functools", "singledispatchmethod"): (
        "dispatch on the type with `match value:` and class patterns or an isinstance() chain"
    ),
    ("typing", "runtime_checkable"): (
        "test for the methods you need with hasattr(obj, 'name'), or derive from an "
        "abc.ABC and use isinstance(); typing.Protocol itself is available for annotations"
    ),
    ("typing", "get_type_hints"): (
        "type hints cannot be read at run time; for a dataclass, "
        "`{f.name: f.type for f in dataclasses.fields(cls)}` gives its fields' types; "
        f"otherwise {_HINTS_AS_DATA}"
    ),
    ("typing", "get_args"): f"type hints cannot be inspected at run time; {_HINTS_AS_DATA}",
    ("typing", "get_origin"): f"type hints cannot be inspected at run time; {_HINTS_AS_DATA}",
    ("asyncio", "shield"): (
        "await the task itself; to keep a task running past a timeout, wait with "
        "`done, pending = await asyncio.wait([task], timeout=...)` instead of wait_for"
    ),
    # loop.run_until_complete(main()) is the likeliest use, so its replacement leads.
    **dict.fromkeys(
        [("asyncio", "get_running_loop"), ("asyncio", "get_event_loop"),
         ("asyncio", "new_event_loop")],
        "the event loop is not available; the program is already the body of an async "
        "function, so `await main()` runs a coroutine (not loop.run_until_complete(main())); "
        "to share one result among several awaiters, keep the task: "
        "`task = asyncio.create_task(coro)`, then `await task` in each; for a clock use "
        "time.monotonic()",
    ),
    ("asyncio", "Future"): (
        "to share one result among several awaiters, keep the task: "
        "`task = asyncio.create_task(coro)`, then `await task` in each"
    ),
    ("asyncio", "all_tasks"): (
        "keep the tasks you start in a list or set of your own "
        "(`tasks.append(asyncio.create_task(coro))`), or start them in an asyncio.TaskGroup, "
        "which waits for all of them"
    ),
    ("asyncio", "Barrier"): (
        "run each phase with `await asyncio.gather(*phase)`, or count arrivals under an "
        "asyncio.Condition (`await cond.wait_for(lambda: arrived == n)`)"
    ),
    ("contextlib", "ContextDecorator"): (
        "a @contextlib.contextmanager function already works as a decorator: "
        '`@step("score")` above a def'
    ),
    ("string", "Formatter"): (
        "use str.format(...) or str.format_map(mapping), which read fields through the same "
        "checks; for other field handling, format each value in an f-string"
    ),
    ("csv", "unregister_dialect"): (
        "a dialect registered with csv.register_dialect lasts only for this run; there is no "
        "need to remove it"
    ),
    **dict.fromkeys(
        [("random", "SystemRandom"), ("secrets", "SystemRandom")],
        "use secrets.choice(seq), secrets.randbelow(n) or secrets.token_hex(n), which draw "
        "from the operating system's random source",
    ),
    ("dataclasses", "make_dataclass"): (
        "declare the class with @dataclass, a line per field (`sku: str`); for fields known "
        "only at run time keep each row a dict"
    ),
    ("types", "MappingProxyType"): (
        "pass a copy (dict(d)) where a read-only view is wanted, or use a frozen dataclass"
    ),
    ("hashlib", "new"): (
        "call the constructor by name: hashlib.sha256(data), or getattr(hashlib, name)(data)"
    ),
    ("itertools", "batched"): (
        "take fixed-size chunks with islice: `it = iter(items)`, then "
        "`while chunk := tuple(itertools.islice(it, n)):`; or slice a list: "
        "`[items[i:i + n] for i in range(0, len(items), n)]`"
    ),
    ("math", "sumprod"): "write `sum(a * b for a, b in zip(xs, ys))`",
    ("typing", "override"): (
        "it only marks a method for type checkers: leave the decorator out"
    ),
    ("asyncio", "to_thread"): (
        "programs have no threads: call a plain function directly (`f(x)`), and run tool "
        "calls concurrently with asyncio.gather"
    ),
    ("asyncio", "timeout_at"): (
        "give the delay in seconds instead: `async with asyncio.timeout(seconds):`"
    ),
    ("operator", "call"): "call the function directly: `f(*args, **kwargs)`",
    **dict.fromkeys(
        [("time", "localtime"), ("time", "mktime"), ("time", "ctime"), ("time", "asctime")],
        "a program has no local time zone: time.gmtime(seconds) gives UTC, "
        "calendar.timegm(struct) converts back, and "
        "datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc) gives a datetime",
    ),
    ("time", "strptime"): (
        "parse with datetime.datetime.strptime(text, format), and .timetuple() gives a "
        "struct_time"
    ),
    ("calendar", "setfirstweekday"): (
        "pass the first day to a calendar instead: "
        "`calendar.Calendar(firstweekday=calendar.SUNDAY).monthdayscalendar(year, month)`"
    ),
    **dict.fromkeys(
        [("calendar", "Month"), ("calendar", "Day")],
        "use the numbers: calendar.month_name[6] is 'June', and calendar.MONDAY to "
        "calendar.SUNDAY (0 to 6) name the weekdays",
    ),
    **dict.fromkeys(
        [("enum", "verify"), ("enum", "UNIQUE"), ("enum", "CONTINUOUS"), ("enum", "NAMED_FLAGS")],
        "decorate the class with @enum.unique to require distinct values; check other "
        "rules in a @classmethod of your own",
    ),
    **dict.fromkeys(
        [("enum", "property"), ("enum", "member"), ("enum", "nonmember")],
        "a plain @property works on members; keep a constant that is not a member outside "
        "the enum class",
    ),
    ("re", "Scanner"): (
        "loop over one pattern's matches with named alternatives: "
        "`for m in pattern.finditer(text): kind = m.lastgroup`"
    ),
    ("calendar", "TextCalendar"): (
        "calendar.month(year, month) and calendar.calendar(year) give the same text, weeks "
        "starting on Monday"
    ),
}
