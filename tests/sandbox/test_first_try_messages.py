"""First-try fixes: copying slotted program objects, and refusals that say what to write instead.

Found in programs written as models write them: ``copy``/``deepcopy`` refused the program's own
classes with ``__slots__`` (``@dataclass(slots=True)`` included), and a few
refusals named the problem without the replacement a model needs.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import anyio
import pytest

from bridge._answers import ToolCallFailed
from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler

from .test_language_support import compile_errors, run, run_error, run_ok

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

# -- copy and deepcopy of slotted program classes --------------------------------------------


def test_copy_of_a_slotted_class_copies_its_slots() -> None:
    source = """\
import copy
class Point:
    __slots__ = ("x", "y")
    def __init__(self, x, y):
        self.x, self.y = x, y
p = Point(1, [2])
c = copy.copy(p)
d = copy.deepcopy(p)
d.y.append(3)
return [c.x, c.y is p.y, d.x, d.y, p.y, type(c) is Point, c is not p]
"""
    assert run_ok(source) == [1, True, 1, [2, 3], [2], True, True]


def test_deepcopy_of_a_slots_dataclass() -> None:
    source = """\
import copy
from dataclasses import dataclass, replace
@dataclass(slots=True)
class Ticket:
    id: str
    tags: list
t = Ticket("t1", ["a"])
d = copy.deepcopy(t)
d.tags.append("b")
s = copy.copy(t)
return [t.tags, d.tags, d == Ticket("t1", ["a", "b"]), s.tags is t.tags, repr(replace(s, id="t2"))]
"""
    assert run_ok(source) == [
        ["a"],
        ["a", "b"],
        True,
        True,
        "Ticket(id='t2', tags=['a'])",
    ]


def test_copy_of_a_class_mixing_dict_and_slots_keeps_both_and_private_slots() -> None:
    source = """\
import copy
class Base:
    def __init__(self):
        self.a = [1]
class Slotted(Base):
    __slots__ = ("b", "__secret")
    def __init__(self):
        super().__init__()
        self.b = [2]
        self.__secret = "s"
    def secret(self):
        return self.__secret
o = Slotted()
o.extra = "e"
d = copy.deepcopy(o)
d.a.append(9)
d.b.append(9)
return [o.a, o.b, d.a, d.b, d.secret(), d.extra, vars(d) == {"a": [1, 9], "extra": "e"}]
"""
    assert run_ok(source) == [[1], [2], [1, 9], [2, 9], "s", "e", True]


def test_unset_slots_stay_unset_in_the_copy() -> None:
    source = """\
import copy
class Lazy:
    __slots__ = ("ready", "cached")
l = Lazy()
l.ready = True
out = []
for c in (copy.copy(l), copy.deepcopy(l)):
    out.append([c.ready, hasattr(c, "cached")])
return out
"""
    assert run_ok(source) == [[True, False], [True, False]]


def test_nested_deep_copies_of_slotted_objects_keep_sharing_and_cycles() -> None:
    source = """\
import copy
class Node:
    __slots__ = ("value", "next", "data")
a = Node()
b = Node()
shared = {"k": [1]}
a.value, a.next, a.data = 1, b, shared
b.value, b.next, b.data = 2, a, shared
c = copy.deepcopy([a, b])
first, second = c
second.data["k"].append(2)
return [
    first.next is second, second.next is first, first.data is second.data,
    first.data is not shared, shared, first.data, first.value, second.value,
]
"""
    assert run_ok(source) == [True, True, True, True, {"k": [1]}, {"k": [1, 2]}, 1, 2]


def test_what_copy_cannot_rebuild_is_still_refused() -> None:
    # A program class holding a built-in type's data was copied without it: an
    # empty dict with the attributes. Library objects stay refused.
    source = """\
import copy, io, collections
class Config(dict):
    pass
return copy.{function}({make})
"""
    cases = [
        ("Config(a=1)", "Config", "copy does not rebuild the dict data a program class inherits; "
         "make a new one from its contents, e.g. Config(value)"),
        ("io.StringIO()", "StringIO", "copy works on plain data"),
        ("collections.namedtuple('P', 'x y')(1, 2)", "P", "copy does not rebuild the tuple "
         "data a program class inherits; make a new one from its contents, e.g. P(*value)"),
        ("iter([1])", "list_iterator", "copy works on plain data"),
    ]  # fmt: skip
    for make, name, why in cases:
        for function in ("copy", "deepcopy"):
            message = run_error(source.format(function=function, make=make))[1]
            assert f"TypeError: cannot copy a {name} object in run_code: {why}" in message


# -- refusals that say what to write instead -------------------------------------------------


def test_an_enum_hook_names_a_classmethod_lookup() -> None:
    source = """\
import enum
class Tier(enum.Enum):
    FREE = 1
    @classmethod
    def _missing_(cls, value):
        return cls.FREE
return 1
"""
    (error,) = compile_errors(source)
    assert error == (
        'Line 5: "_missing_" is an invalid name: names starting and ending with "_" belong to '
        "the runtime; an enum cannot define hooks; look values up in a @classmethod of your "
        "own: `def parse(cls, value): return next((m for m in cls if m.value == value), "
        "cls.DEFAULT)`"
    )


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        (
            "try:\n    raise ValueError('x')\nexcept ValueError as e:\n    return e.__notes__",
            "; notes are shown in the error's traceback; to read them back, keep them in a "
            "list next to the error (`notes.append(text)`), or in an attribute of your own "
            "exception class",
        ),
        (
            "def f():\n    pass\nreturn f.__wrapped__",
            "; keep a reference to the undecorated function: `raw = f` before decorating, or "
            "decorate by a call, `g = deco(f)`, and keep using f",
        ),
        (
            "from typing import TypedDict\nclass T(TypedDict):\n    a: int\n"
            "return list(T.__required_keys__)",
            '; keep the key names in a tuple next to the TypedDict: REQUIRED = ("id", "subject")',
        ),
        (
            "from typing import TypedDict\nclass T(TypedDict):\n    a: int\n"
            "return list(T.__optional_keys__)",
            '; keep the key names in a tuple next to the TypedDict: OPTIONAL = ("notes",)',
        ),
        (
            "from typing import TypedDict\nclass T(TypedDict):\n    a: int\nreturn T.__total__",
            "; keep the key names in tuples next to the TypedDict (REQUIRED, OPTIONAL)",
        ),
        (
            "from typing import TypedDict\nclass T(TypedDict):\n    a: int\n"
            "return list(T.__annotations__)",
            "; use dataclasses.fields(cls) for a dataclass's fields; for a TypedDict keep the key "
            'names in a tuple next to it: KEYS = ("id", "subject")',
        ),
        (
            "def deco(f):\n    def inner():\n        return f()\n    inner.__name__ = f.__name__\n"
            "    return inner\nreturn deco(len)",
            "; to give a wrapper the name and docstring of the function it wraps, decorate it "
            "with @functools.wraps(f)",
        ),
        (
            "def f():\n    pass\nf.__doc__ = 'Adds.'\nreturn 1",
            "; to give a wrapper the name and docstring of the function it wraps, decorate it "
            "with @functools.wraps(f)",
        ),
        (
            "try:\n    1 / 0\nexcept ZeroDivisionError as e:\n    return e.__traceback__ is None",
            "; an exception the program does not catch comes back with its traceback; str(e) or "
            "repr(e) give its text, and type(e).__name__ its class's name",
        ),
    ],
    ids=[
        "notes", "wrapped", "required-keys", "optional-keys", "total", "typeddict-annotations",
        "function-name", "function-doc", "traceback",
    ],
)
def test_an_underscore_attribute_names_what_to_write(source: str, hint: str) -> None:
    (error,) = compile_errors(source)
    assert error.endswith('is an invalid attribute name because it starts with "_"' + hint)


def test_what_the_underscore_hints_suggest_works() -> None:
    source = """\
import functools
from dataclasses import dataclass
from typing import TypedDict
@dataclass(frozen=True)
class User:
    email: str
    name: str
    @classmethod
    def of(cls, email, name):
        return cls(email.strip().casefold(), name.title())
class Ticket(TypedDict):
    id: str
    subject: str
KEYS = ("id", "subject")
def deco(f):
    @functools.wraps(f)
    def inner(*args):
        return f(*args)
    return inner
@deco
def add(a, b):
    "Adds."
    return a + b
return [repr(User.of(" Ann@Example.COM ", "ann lee")), list(KEYS), add.__name__, add.__doc__]
"""
    assert run_ok(source) == [
        "User(email='ann@example.com', name='Ann Lee')", ["id", "subject"], "add", "Adds."
    ]


@pytest.mark.parametrize(
    ("attribute", "hint"),
    [
        (
            "_value2member_map_",
            "; use SomeEnum(value) for the member with that value, or "
            "{m.value: m for m in SomeEnum} for the mapping",
        ),
        (
            "_member_map_",
            "; use SomeEnum[name] for a member by name, or SomeEnum.__members__ (a dict)",
        ),
        ("_member_names_", "; use [m.name for m in SomeEnum]"),
    ],
)
def test_an_enum_s_private_tables_name_what_to_write(attribute: str, hint: str) -> None:
    source = f"from enum import Enum\nclass Color(Enum):\n    RED = 1\nreturn Color.{attribute}"
    (error,) = compile_errors(source)
    assert error.endswith(
        f'"{attribute}" is an invalid attribute name because it starts with "_" (it is reserved '
        "for the runtime and libraries)" + hint
    )


@pytest.mark.parametrize("name", ["__copy__", "__deepcopy__"])
def test_a_copy_hook_names_a_method_of_the_program_s_own(name: str) -> None:
    (error,) = compile_errors(f"class Order:\n    def {name}(self, *memo):\n        return self")
    assert error == (
        f'Line 2: "{name}" is an invalid name: names starting and ending with "__" belong to the '
        "runtime (a class body may define the reviewed special methods); copy.copy and "
        "copy.deepcopy already copy a program object's attributes (deepcopy copies what they "
        "hold too); for a copy of your own, write a method: "
        "`def clone(self): return Order(self.id, list(self.lines))`"
    )


def test_a_hash_taken_from_the_base_names_super() -> None:
    source = """\
class P:
    def __eq__(self, other):
        return isinstance(other, P)
    def __hash__(self):
        return 1
class Q(P):
    def __eq__(self, other):
        return super().__eq__(other) and type(other) is Q
    __hash__ = P.__hash__
"""
    (error,) = compile_errors(source)
    assert error.endswith(
        "to call one from another, write `def __str__(self): return repr(self)`; to keep a "
        "subclass that overrides __eq__ hashable as its base hashes, write "
        "`def __hash__(self): return super().__hash__()`"
    )
    # The hint is for __hash__ alone.
    (error,) = compile_errors("class A:\n    __repr__ = object.__repr__")
    assert error.endswith("write `def __str__(self): return repr(self)`")


def test_what_the_copy_enum_hash_and_traceback_hints_suggest_works() -> None:
    source = """\
import copy
from enum import Enum
class Color(Enum):
    RED = 1
    GREEN = 2
class Order:
    def __init__(self, id, lines):
        self.id, self.lines = id, lines
    def clone(self):
        return Order(self.id, list(self.lines))
class P:
    def __init__(self, x):
        self.x = x
    def __eq__(self, other):
        return isinstance(other, P) and self.x == other.x
    def __hash__(self):
        return hash(self.x)
class Q(P):
    def __eq__(self, other):
        return super().__eq__(other) and type(other) is Q
    def __hash__(self):
        return super().__hash__()
o = Order("o1", [1])
c = o.clone()
c.lines.append(2)
d = copy.deepcopy(o)
try:
    1 / 0
except ZeroDivisionError as e:
    text = [str(e), repr(e), type(e).__name__]
return [
    Color(2).name, {m.name: m.value for m in Color}, o.lines, c.lines, d.lines is not o.lines,
    Q(1) == Q(1), len({Q(1), Q(1)}), text,
]
"""
    value = run_ok(source)
    assert value == run_ok(source, restricted=False)
    assert value == [
        "GREEN", {"RED": 1, "GREEN": 2}, [1], [1, 2], True, True, 1,
        ["division by zero", "ZeroDivisionError('division by zero')", "ZeroDivisionError"],
    ]  # fmt: skip


def test_a_dunder_read_by_getattr_names_what_to_write_too() -> None:
    message = run_error("def f():\n    pass\nreturn getattr(f, '__wrapped__')")[1]
    assert message.endswith(
        "AttributeError: \"__wrapped__\" is an invalid attribute name because it starts with "
        '"_"; keep a reference to the undecorated function: `raw = f` before decorating, or '
        "decorate by a call, `g = deco(f)`, and keep using f"
    )


def test_an_attribute_dict_class_names_simple_namespace() -> None:
    source = "class AttrDict(dict):\n    def __getattr__(self, name):\n        return self[name]"
    (error,) = compile_errors(source)
    assert error.endswith(
        "; for attribute access to a dict use types.SimpleNamespace(**d) (convert nested dicts "
        'too), or keep d["key"]; otherwise give the class the attributes it needs'
    )
    source = "class AttrDict(dict):\n    def __setattr__(self, name, value):\n        pass"
    (error,) = compile_errors(source)
    assert error.endswith("; for a dict with attribute access use types.SimpleNamespace(**d)")


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        (
            "import asyncio\nreturn asyncio.shield",
            "'shield' in run_code; await the task itself; to keep a task running past a "
            "timeout, wait with `done, pending = await asyncio.wait([task], timeout=...)` "
            "instead of wait_for. available: ",
        ),
        (
            "import types\nreturn types.MappingProxyType({})",
            "'MappingProxyType' in run_code; pass a copy (dict(d)) where a read-only view is "
            "wanted, or use a frozen dataclass. available: ",
        ),
        (
            "import hashlib\nreturn hashlib.new('sha256', b'x').hexdigest()",
            "'new' in run_code; call the constructor by name: hashlib.sha256(data), or "
            "getattr(hashlib, name)(data). available: ",
        ),
        (
            "from hashlib import new\nreturn 1",
            "'new' from 'hashlib' in run_code; call the constructor by name: "
            "hashlib.sha256(data), or getattr(hashlib, name)(data). available: ",
        ),
        *(
            (
                f"import asyncio\nloop = asyncio.{name}()\nreturn 1",
                f"'{name}' in run_code; the event loop is not available; the program is "
                "already the body of an async function, so `await main()` runs a coroutine "
                "(not loop.run_until_complete(main())); to share one result among several "
                "awaiters, keep the task: `task = asyncio.create_task(coro)`, then `await task` "
                "in each; for a clock use time.monotonic(). available: ",
            )
            for name in ("get_running_loop", "get_event_loop", "new_event_loop")
        ),
        (
            "import asyncio\nreturn asyncio.Future()",
            "'Future' in run_code; to share one result among several awaiters, keep the task: "
            "`task = asyncio.create_task(coro)`, then `await task` in each. available: ",
        ),
        (
            "import asyncio\nreturn len(asyncio.all_tasks())",
            "'all_tasks' in run_code; keep the tasks you start in a list or set of your own "
            "(`tasks.append(asyncio.create_task(coro))`), or start them in an asyncio.TaskGroup, "
            "which waits for all of them. available: ",
        ),
        (
            "import asyncio\nbarrier = asyncio.Barrier(3)\nreturn 1",
            "'Barrier' in run_code; run each phase with `await asyncio.gather(*phase)`, or count "
            "arrivals under an asyncio.Condition (`await cond.wait_for(lambda: arrived == n)`). "
            "available: ",
        ),
        (
            "import typing\nreturn typing.get_type_hints(dict)",
            "'get_type_hints' in run_code; type hints cannot be read at run time; for a "
            "dataclass, `{f.name: f.type for f in dataclasses.fields(cls)}` gives its fields' "
            'types; otherwise describe the record as data: `FIELDS = {"id": str, "status": '
            '("pending", "paid"), "total": float}`, then test values with isinstance() and '
            "`in`. available: ",
        ),
        *(
            (
                f"from typing import {name}\nreturn 1",
                f"'{name}' from 'typing' in run_code; type hints cannot be inspected at run time; "
                'describe the record as data: `FIELDS = {"id": str, "status": ("pending", '
                '"paid"), "total": float}`, then test values with isinstance() and `in`. '
                "available: ",
            )
            for name in ("get_origin", "get_args")
        ),
        (
            "import contextlib\nclass step(contextlib.ContextDecorator):\n    pass\nreturn 1",
            "'ContextDecorator' in run_code; a @contextlib.contextmanager function already "
            'works as a decorator: `@step("score")` above a def. available: ',
        ),
        (
            "import string\nreturn string.Formatter().format('{0}', 1)",
            "'Formatter' in run_code; use str.format(...) or str.format_map(mapping), which "
            "read fields through the same checks; for other field handling, format each value "
            "in an f-string. available: ",
        ),
        (
            "import csv\ncsv.unregister_dialect('pipes')\nreturn 1",
            "'unregister_dialect' in run_code; a dialect registered with csv.register_dialect "
            "lasts only for this run; there is no need to remove it. available: ",
        ),
        *(
            (
                f"import {module}\nreturn {module}.SystemRandom().random()",
                "'SystemRandom' in run_code; use secrets.choice(seq), secrets.randbelow(n) or "
                "secrets.token_hex(n), which draw from the operating system's random source. "
                "available: ",
            )
            for module in ("random", "secrets")
        ),
        (
            "import dataclasses\nRow = dataclasses.make_dataclass('Row', ['sku'])\nreturn 1",
            "'make_dataclass' in run_code; declare the class with @dataclass, a line per field "
            "(`sku: str`); for fields known only at run time keep each row a dict. available: ",
        ),
    ],
    ids=[
        "shield", "mapping-proxy", "hashlib-new", "from-hashlib-import-new", "get-running-loop",
        "get-event-loop", "new-event-loop", "future", "all-tasks", "barrier", "get-type-hints",
        "get-origin", "get-args", "context-decorator", "string-formatter", "csv-unregister-dialect",
        "random-system-random", "secrets-system-random", "make-dataclass",
    ],
)
def test_a_missing_facade_member_names_what_to_write(source: str, hint: str) -> None:
    assert hint in run_error(source)[1]
    # What the hints suggest works.
    named = "import hashlib\nreturn getattr(hashlib, 'sha256')(b'x').hexdigest()[:8]"
    assert run_ok(named) == "2d711642"


def test_what_the_asyncio_hints_suggest_works() -> None:
    source = """\
import asyncio, time
started = time.monotonic()
loads = []
cache = {}
async def load(key):
    loads.append(key)
    await asyncio.sleep(0)
    return key * 2
async def get(key):
    # One task per key: every awaiter shares its result.
    if key not in cache:
        cache[key] = asyncio.create_task(load(key))
    return await cache[key]
shared = await asyncio.gather(get(1), get(1), get(2))
async def work(n):
    await asyncio.sleep(0)
    return n
named = [asyncio.create_task(work(n), name=f"job-{n}") for n in range(2)]
await asyncio.gather(*named)
phases = []
async def step(phase, n):
    await asyncio.sleep(0)
    phases.append((phase, n))
for phase in range(2):
    await asyncio.gather(*[step(phase, n) for n in range(2)])
cond = asyncio.Condition()
arrived = 0
async def arrive(n):
    global arrived
    async with cond:
        arrived += 1
        cond.notify_all()
        await cond.wait_for(lambda: arrived == 3)
    return n
met = await asyncio.gather(*[arrive(n) for n in range(3)])
return [shared, loads, [t.get_name() for t in named], phases, met, time.monotonic() >= started]
"""
    assert run_ok(source) == [
        [2, 2, 4], [1, 2], ["job-0", "job-1"], [[0, 0], [0, 1], [1, 0], [1, 1]], [0, 1, 2], True
    ]


def test_what_the_other_member_hints_suggest_works() -> None:
    source = """\
import contextlib, dataclasses
from dataclasses import dataclass
@contextlib.contextmanager
def step(name):
    print("start", name)
    yield
    print("end", name)
@step("score")
def score(x):
    return x * 2
class Scaler:
    def __init__(self, k):
        self.k = k
    def scale(self, n):
        return self.k * n
    def double(self):
        return self.scale(2)
@dataclass
class Row:
    sku: str
    price: float
FIELDS = {"id": str, "status": ("pending", "paid"), "total": float}
record = {"id": "o1", "status": "paid", "total": 9.5}
valid = all(
    record[k] in kind if isinstance(kind, tuple) else isinstance(record[k], kind)
    for k, kind in FIELDS.items()
)
hints = {f.name: f.type for f in dataclasses.fields(Row)}
typed = hints == {"sku": str, "price": float}
return [score(3), Scaler(5).double(), repr(Row("KB-01", 9.5)), valid, typed]
"""
    result = run(source)
    assert result.error is None, result.error
    assert result.value == [6, 10, "Row(sku='KB-01', price=9.5)", True, True]
    assert result.logs == ["start score", "end score"]


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("{'tier': Tier.GOLD}", "a value of type Tier (an enum member: use "
         "Tier.GOLD.value) is not JSON - at `$.tier`"),
        ("[Tier.GOLD]", "a value of type Tier (an enum member: use Tier.GOLD.value) is not "
         "JSON - at `$[0]`"),
        ("{Tier.GOLD: 1}", "a dict key of type Tier (an enum member: use "
         "Tier.GOLD.value) is not allowed"),
        ("Perm.R | Perm.W", "a value of type Perm (an enum member: use its .value) is not JSON"),
    ],
    ids=["in-a-dict", "in-a-list", "key", "flag-combination"],
)  # fmt: skip
def test_an_enum_member_in_the_return_value_names_its_value(value: str, shown: str) -> None:
    source = f"""\
import enum
class Channel(enum.StrEnum):
    EMAIL = "email"
class Tier(enum.Enum):
    GOLD = 3
class Perm(enum.Flag):
    R = enum.auto()
    W = enum.auto()
return {value}
"""
    kind, message = run_error(source)
    assert kind == "invalid-output"
    assert shown in message


def test_a_str_or_int_enum_member_is_returned_as_its_value_as_json_dumps_writes_it() -> None:
    source = """\
import enum, json
class Channel(enum.StrEnum):
    EMAIL = "email"
class Status(str, enum.Enum):
    PENDING = "pending"
class Level(enum.IntEnum):
    HIGH = 3
value = {"channel": Channel.EMAIL, Status.PENDING: [Level.HIGH]}
return [value, json.loads(json.dumps(value))]
"""
    result = run(source)
    assert result.error is None, result.error
    assert result.value == [{"channel": "email", "pending": [3]}] * 2


# -- private dataclass fields ------------------------------------------------------------------

_FIELD_RULE = (
    "is not allowed in run_code: the names a dataclass hands to `match` and to its generated "
    "methods must be public"
)


@pytest.mark.parametrize(
    ("field", "hint"),
    [
        (
            "_hits: int = field(default=0, repr=False)",
            "TypeError: dataclass field name '_hits' "
            f"{_FIELD_RULE}; name it `hits` (field(repr=False) keeps it out of the repr), or "
            "set `self._hits` in __post_init__ and leave it out of the fields",
        ),
        (
            "_cache: dict = field(default_factory=dict, init=False, repr=False)",
            "TypeError: dataclass field name '_cache' "
            f"{_FIELD_RULE}; name it `cache` (field(repr=False) keeps it out of the repr), or "
            "set `self._cache` in __post_init__ and leave it out of the fields",
        ),
        (
            "__secret: str = ''",
            "TypeError: dataclass field name '_Cache__secret' "
            f"{_FIELD_RULE}; name it `secret` (field(repr=False) keeps it out of the repr), or "
            "set `self.__secret` in __post_init__ and leave it out of the fields",
        ),
        (
            "_registry: ClassVar[dict] = {}",
            "TypeError: dataclass field name '_registry' "
            f"{_FIELD_RULE}; for a class attribute leave out the annotation: `_registry = ...`",
        ),
    ],
    ids=["private", "init-false", "mangled", "class-var"],
)
def test_a_private_dataclass_field_says_why_and_what_to_write(field: str, hint: str) -> None:
    source = f"""\
from dataclasses import dataclass, field
from typing import ClassVar
@dataclass
class Cache:
    name: str
    {field}
return 1
"""
    assert run_error(source)[1].endswith(hint)


def test_what_the_private_field_hint_suggests_works() -> None:
    source = """\
from dataclasses import dataclass, field
@dataclass
class Cache:
    name: str
    hits: int = field(default=0, repr=False)
    _registry = {}
    def __post_init__(self):
        self._store = {}
        Cache._registry[self.name] = self
    def get(self, key):
        self.hits += 1
        return self._store.get(key)
c = Cache("prices")
c._store["a"] = 1
match c:
    case Cache(name=n):
        matched = n
return [repr(c), c.get("a"), c.hits, matched, list(Cache._registry)]
"""
    assert run_ok(source) == ["Cache(name='prices')", 1, 1, "prices", ["prices"]]


# -- classes deriving from a library type ---------------------------------------------------


def test_a_class_deriving_from_a_library_type_names_a_wrapper() -> None:
    source = "from datetime import date\nclass BizDate(date):\n    pass\nreturn 1"
    assert run_error(source)[1].endswith(
        "the enum classes and the program's own classes; wrap the value in a class of your "
        "own (`self.value = value`) or use functions that take a date"
    )
    wrapped = """\
from datetime import date, timedelta
class BizDate:
    def __init__(self, day):
        self.day = day
    def next_business_day(self):
        day = self.day + timedelta(days=1)
        while day.weekday() >= 5:
            day += timedelta(days=1)
        return BizDate(day)
return BizDate(date(2024, 1, 5)).next_business_day().day.isoformat()
"""
    assert run_ok(wrapped) == "2024-01-08"


# -- a call returned without await ----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "path"),
    [("fetch(2)", "$"), ("{'totals': [fetch(2)]}", "$.totals[0]")],
    ids=["value", "nested"],
)
# In this process the dropped coroutine warns as it is collected, as in plain Python.
@pytest.mark.filterwarnings("ignore:coroutine .* was never awaited:RuntimeWarning")
@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_returned_coroutine_says_it_was_never_awaited(value: str, path: str) -> None:
    source = f"async def fetch(n):\n    return n\nreturn {value}"
    kind, message = run_error(source)
    assert kind == "invalid-output"
    assert message == (
        "The program's return value is not lossless JSON: fetch(...) is a call of an async "
        f"function that was never awaited; write `await fetch(...)` for its value - at `{path}`."
    )


#: Programs that use a tool call's object where its value belongs, and what the model reads.
_UNAWAITED_TOOL_CALLS = {
    "returned": (
        "return tools.echo(sku='KB-01')",
        "invalid-output",
        "The program's return value is not lossless JSON: tools.echo(...) is a tool call that "
        "was never awaited; write `await tools.echo(...)` for its value - at `$`.",
    ),
    "in the value": (
        "return {'stock': [tools.echo(sku='KB-01')]}",
        "invalid-output",
        "The program's return value is not lossless JSON: tools.echo(...) is a tool call that "
        "was never awaited; write `await tools.echo(...)` for its value - at `$.stock[0]`.",
    ),
    # Not "a dict key of type bridge.proxy._ToolCall": the call is named here too.
    "as a key": (
        "return {tools.echo(sku='KB-01'): 1}",
        "invalid-output",
        "The program's return value is not lossless JSON: a dict key: tools.echo(...) is a tool "
        "call that was never awaited; write `await tools.echo(...)` for its value (JSON object "
        "keys must be str) - at `$`.",
    ),
    "as a key in another call's arguments": (
        "return await tools.echo(item={tools.echo(sku='KB-01'): 1})",
        "exception",
        'ToolCallError: tool "echo" was not called: its arguments must be lossless JSON: '
        "a dict key: tools.echo(...) is a tool call that was never awaited; write `await "
        "tools.echo(...)` for its value (JSON object keys must be str) - at `$.item`",
    ),
    "in another call's arguments": (
        "return await tools.echo(item=tools.echo(sku='KB-01'))",
        "exception",
        'ToolCallError: tool "echo" was not called: its arguments must be lossless JSON: '
        "tools.echo(...) is a tool call that was never awaited; write `await tools.echo(...)` "
        "for its value - at `$.item`",
    ),
}

_NEVER_AWAITED: Final = (
    "tools.echo(...) is a tool call that was never awaited; write `await tools.echo(...)` "
    "for its value"
)
#: Each way a program uses a tool call's object as if it were the value.
_USED_AS_THE_VALUE: Final = {
    "iterated": ("[row for row in rows]", f"TypeError: {_NEVER_AWAITED}"),
    "indexed": ("rows[0]", f"TypeError: {_NEVER_AWAITED}"),
    "keyed": ("rows['sku']", f"TypeError: {_NEVER_AWAITED}"),
    "measured": ("len(rows)", f"TypeError: {_NEVER_AWAITED}"),
    "searched": ("'KB-01' in rows", f"TypeError: {_NEVER_AWAITED}"),
    "a method read": ("rows.get('sku')", f"AttributeError: {_NEVER_AWAITED} (then .get)"),
    "unpacked": ("first, *rest = rows", f"TypeError: {_NEVER_AWAITED}"),
    # Not true whatever the tool answers.
    "tested": ("assert rows", f"TypeError: {_NEVER_AWAITED}"),
    "a default": ("rows or []", f"TypeError: {_NEVER_AWAITED}"),
}


async def test_a_tool_call_used_without_await_says_so() -> None:
    # The real child: `tools` is the proxy, whose calls are objects of its own.
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            for case, (source, kind, shown) in _UNAWAITED_TOOL_CALLS.items():
                result = await pool.run(source, tool_names=["echo"], handler=EchoHandler())
                assert result.error is not None, case
                assert result.error.kind == kind, case
                if kind == "invalid-output":
                    # Nothing else: the list of JSON types does not apply to a slip.
                    assert result.error.message == shown, case
                else:
                    assert shown in result.error.message, case
            awaited = "return {'stock': [await tools.echo(sku='KB-01')]}"
            result = await pool.run(awaited, tool_names=["echo"], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == {"stock": [{"sku": "KB-01"}]}


async def test_a_tool_call_used_as_its_value_names_the_call_and_the_await() -> None:
    # Not "'_ToolCall' object is not iterable": the model reads which call lacks its await.
    checks = "\n".join(
        f"try:\n    {use}\nexcept Exception as error:\n"
        f"    seen[{case!r}] = f'{{type(error).__name__}}: {{error}}'"
        for case, (use, _) in _USED_AS_THE_VALUE.items()
    )
    source = f"seen = {{}}\nrows = tools.echo(sku='KB-01')\n{checks}\nawait rows\nreturn seen"
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            result = await pool.run(source, tool_names=["echo"], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == {case: shown for case, (_, shown) in _USED_AS_THE_VALUE.items()}


# -- an uncaught failed tool call that an `except` of the program meant to catch ------------


class _RaisingHandler:
    """Fails every call as a tool that raised ``KeyError`` would."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        raise ToolCallFailed("tool \"lookup\" raised KeyError: 'zz'", exception_type="KeyError")


_HANDLED_BY_NAME: dict[str, tuple[str, str | None]] = {
    "the tool's own class": ("except KeyError:", "KeyError"),
    "a base class, in a tuple": ("except (ValueError, LookupError) as error:", "LookupError"),
    "except*": ("except* KeyError:", "KeyError"),
    "an unrelated class": ("except ValueError:", None),
    "a class that catches ToolCallError too": ("except Exception as error:\n    raise", None),
}


@pytest.mark.parametrize("case", sorted(_HANDLED_BY_NAME))
async def test_an_uncaught_tool_error_names_the_except_clause_that_missed_it(case: str) -> None:
    clause, named = _HANDLED_BY_NAME[case]
    body = "    v = 0" if "raise" not in clause else ""
    source = f"try:\n    v = await tools.lookup(key='zz')\n{clause}\n{body}\nreturn v"
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            result = await pool.run(source, tool_names=["lookup"], handler=_RaisingHandler())
    assert result.error is not None
    assert result.error.kind == "exception"
    hint = (
        f"(the tool raised KeyError, and a failed tool call reaches the program as "
        f"ToolCallError, which `except {named}:` does not catch: write `except ToolCallError "
        "as error:` and test `error.type == 'KeyError'`)"
    )
    if named is None:
        assert "reaches the program as ToolCallError" not in result.error.message
    else:
        assert result.error.message.endswith(hint), result.error.message


# -- `value.key` for `value["key"]` on a dict ----------------------------------------------------

_DICT_KEY_HINT: Final = (
    "(the value is a dict with the key 'title': read it as value['title']; a tool returns "
    "plain dicts and lists)"
)


@pytest.mark.parametrize(
    ("source", "hinted"),
    [
        ("book = {'title': 'Dune'}\nreturn book.title", True),
        ("books = [{'title': 'Dune'}]\nreturn [b.title for b in books]", True),
        # No such key, another type, or a key that is not a str: the interpreter's line alone.
        ("book = {'name': 'Dune'}\nreturn book.title", False),
        ("return [1].title", False),
        ("class K:\n    def __eq__(self, other):\n        return True\n"
         "    def __hash__(self):\n        return hash('title')\n"
         "return {K(): 1}.title", False),
        ("raise AttributeError('no title', name='title', obj={'title': 1})", True),
    ],
)
def test_an_attribute_read_for_a_dicts_key_says_to_subscript(source: str, hinted: bool) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    assert "AttributeError" in message
    assert message.endswith(_DICT_KEY_HINT) is hinted, message


# -- `metaclass=` in a class statement -------------------------------------------------------------

_METACLASS_HINT: Final = (
    'The keyword argument "metaclass" is not allowed. A class takes the metaclass of its bases: '
    "for ABCMeta derive from abc.ABC (`from abc import ABC, abstractmethod`, then "
    "`class Base(ABC):`), for EnumMeta from enum.Enum (`class Color(Enum):`); other metaclasses "
    "are not available."
)


@pytest.mark.parametrize(
    "source",
    [
        "from abc import ABCMeta\nclass Base(metaclass=ABCMeta):\n    pass",
        "import abc\nclass Base(object, metaclass=abc.ABCMeta):\n    pass",
        "from enum import EnumMeta\nclass Color(metaclass=EnumMeta):\n    pass",
    ],
)
def test_a_metaclass_keyword_names_the_base_to_derive_from(source: str) -> None:
    (error,) = compile_errors(source)
    assert error.endswith(_METACLASS_HINT), error


def test_what_the_metaclass_hint_suggests_works() -> None:
    source = """\
from abc import ABC, abstractmethod
from enum import Enum
class Base(ABC):
    @abstractmethod
    def run(self): ...
class Impl(Base):
    def run(self):
        return "ran"
class Color(Enum):
    RED = 1
try:
    Base()
    refused = False
except TypeError:
    refused = True
return [Impl().run(), refused, Color.RED.name]
"""
    assert run_ok(source) == ["ran", True, "RED"]


# -- `error.message` of a ToolCallError, and TypeErrors a slip raises ------------------------------

_TOOL_ERROR_ATTRIBUTES_HINT: Final = (
    "(a ToolCallError has tool_name, code and type; its message is str(error), e.g. "
    "`except ToolCallError as error: print(error.tool_name, error)`)"
)


@pytest.mark.parametrize("name", ["message", "status_code"])
async def test_an_undeclared_attribute_of_a_tool_error_lists_the_declared_ones(name: str) -> None:
    source = (
        f"try:\n    await tools.lookup(key='zz')\nexcept ToolCallError as e:\n    return e.{name}"
    )
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            result = await pool.run(source, tool_names=["lookup"], handler=_RaisingHandler())
    assert result.error is not None
    assert f"has no attribute '{name}'" in result.error.message
    assert result.error.message.endswith(_TOOL_ERROR_ATTRIBUTES_HINT), result.error.message


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        (
            "import json, datetime\nreturn json.dumps({'at': datetime.date(2024, 1, 1)})",
            "(json.dumps writes only dicts, lists, str, int, float, bool and None: convert the "
            "value first, e.g. value.isoformat() for a date or datetime, str(value) for a "
            "Decimal, sorted(value) for a set, or pass `default=str`)",
        ),
        (
            "n = await len([1, 2])\nreturn n",
            "(only a tool call, a coroutine or a task can be awaited; this value is already "
            "computed: remove the `await`)",
        ),
        # Another TypeError, or one of a program's subclasses: the interpreter's line alone.
        ("return 1 + 'a'", None),
        (
            "class E(TypeError):\n    pass\n"
            "raise E('Object of type set is not JSON serializable')",
            None,
        ),
        (
            "from dataclasses import dataclass\n@dataclass\nclass Basket:\n    items: list = []\n"
            "return Basket().items",
            "(give each object its own list: `from dataclasses import field`, then "
            "`items: list = field(default_factory=list)`)",
        ),
        ("raise ValueError('bad')", None),
        # A module used without its import, as Python 3.12 would say.
        ("return json.dumps({})",
         "(did you forget to import 'json'? write `import json` first)"),
        ("return urllib.parse.quote('a b')",
         "(did you forget to import 'urllib'? write `import urllib.parse` first)"),
        (
            "print('oops', file=sys.stderr)",
            "(there is no module 'sys' in run_code: to end the program, return its value at "
            "the top level (`return value`); print() writes the program's only output stream "
            "(there is no sys.stdout or sys.stderr))",
        ),
        ("return totl", None),
        ("class E(NameError):\n    pass\nraise E(\"name 'json' is not defined\")", None),
    ],
)
def test_an_error_of_a_known_slip_says_what_to_write(source: str, hint: str | None) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    if hint is None:
        assert "\n(" not in message, message
    else:
        assert message.endswith(hint), message


@pytest.mark.parametrize(
    ("source", "hinted"),
    [
        ("books = [{'title': 'Dune'}]\nreturn [b['name'] for b in books]", True),
        ("key = 'name'\nreturn {}[key]", True),
        # A key that is no field name, or not a str: the interpreter's line alone.
        ("return {}['two words']", False),
        ("return {}[3]", False),
        ("class K(KeyError):\n    pass\nraise K('name')", False),
    ],
)
def test_a_missing_key_points_at_the_declared_keys(source: str, hinted: bool) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    hint = (
        "(no key 'name' in that dict: check its spelling; a tool's value holds the keys "
        "its TypedDict declares in the SDK; write value.get('name') when a key may be "
        "missing)"
    )
    assert message.endswith(hint) is hinted, message


# -- a misspelt name or attribute: CPython's "Did you mean" -----------------------------------
#
# CPython's interpreter adds it when it prints a traceback; a program's traceback is
# formatted by the runtime, which adds it too, from names read without running any
# code of the program's.


@pytest.mark.parametrize(
    ("source", "last_line"),
    [
        ("customer = {'name': 'Ada'}\nreturn custmer['name']",
         "NameError: name 'custmer' is not defined. Did you mean: 'customer'?"),
        ("def total(xs):\n    return sum(xs)\nreturn totl([1])",
         "NameError: name 'totl' is not defined. Did you mean: 'total'?"),
        ("def f():\n    amount = 3\n    return amont + 1\nreturn f()",
         "NameError: name 'amont' is not defined. Did you mean: 'amount'?"),
        # A top-level name read from a function: a script's global.
        ("customer = 1\ndef f():\n    return custmer\nreturn f()",
         "NameError: name 'custmer' is not defined. Did you mean: 'customer'?"),
        ("xs = [3, 1]\nreturn lenn(xs)",
         "NameError: name 'lenn' is not defined. Did you mean: 'len'?"),
        ("for rowx in [1]:\n    pass\nreturn [row for r in [1]]",
         "NameError: name 'row' is not defined. Did you mean: 'rowx'?"),
        ("class Order:\n    def __init__(self):\n        self.total = 3\nreturn Order().totl",
         "AttributeError: 'Order' object has no attribute 'totl'. Did you mean: 'total'?"),
        ("class Order:\n    def compute(self):\n        return 1\nreturn Order().compte()",
         "AttributeError: 'Order' object has no attribute 'compte'. Did you mean: 'compute'?"),
        ("class Order:\n    def compute(self):\n        return 1\nreturn Order.compte",
         "AttributeError: type object 'Order' has no attribute 'compte'. "
         "Did you mean: 'compute'?"),
        ("class P:\n    __slots__ = ('total',)\n    def __init__(self):\n        self.total = 1\n"
         "return P().totl",
         "AttributeError: 'P' object has no attribute 'totl'. Did you mean: 'total'?"),
        ("return {}.item()",
         "AttributeError: 'dict' object has no attribute 'item'. Did you mean: 'items'?"),
        ("return 'abc'.uper()",
         "AttributeError: 'str' object has no attribute 'uper'. Did you mean: 'upper'?"),
        ("import json\nreturn json.dump_s({})", ". Did you mean: 'dumps'?"),
        ("from json import dump_s\nreturn 1", ". Did you mean: 'dumps'?"),
    ],
)
def test_a_misspelt_name_or_attribute_suggests_the_close_one_as_cpython(
    source: str, last_line: str
) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    assert message.splitlines()[-1].endswith(last_line), message


@pytest.mark.parametrize(
    "source",
    [
        # Nothing close; a private name for a public one; an exception the program raised.
        "return zzzzzz",
        "_secret = 1\nreturn secret",
        "class E(NameError):\n    pass\nraise E(\"name 'lenn' is not defined\")",
        "class Order:\n    pass\nreturn Order().xyzzy",
        "return {}.nmae",
    ],
)
def test_no_suggestion_where_nothing_is_close(source: str) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    assert "Did you mean" not in message, message


def test_an_attribute_suggestion_runs_no_code_of_the_program_s() -> None:
    # CPython's dir() would call __dir__ and a __dict__ property; the suggestion
    # reads the class dicts and the interpreter's own __dict__ slot alone. (Such
    # special methods are refused by the language layer: here without it.)
    source = """\
class Base:
    def __init__(self):
        self.total = 1
class Spy(Base):
    @property
    def __dict__(self):
        print('__dict__ ran')
        return {'totl_from_dict': 1}
    def __dir__(self):
        print('__dir__ ran')
        return ['totl_from_dir']
    def __getattr__(self, name):
        print('__getattr__ ran for', name)
        raise AttributeError(f"'Spy' object has no attribute {name!r}", name=name, obj=self)
return Spy().totl
"""
    result = run(source, restricted=False)
    assert result.error is not None
    # The class's own __dict__ property shadows the slot: only class names are read.
    assert "Did you mean" not in result.error[1], result.error[1]
    assert result.logs == ["__getattr__ ran for totl"]
    result = run(source.replace("Spy(Base)", "Spy").replace("class Spy:", "class Spy(Base):")
                 .replace("    @property\n    def __dict__(self):\n        print('__dict__ ran')\n"
                          "        return {'totl_from_dict': 1}\n", ""), restricted=False)
    assert result.error is not None
    assert result.error[1].endswith("Did you mean: 'total'?"), result.error[1]
    assert result.logs == ["__getattr__ ran for totl"]


def test_a_suggestion_among_many_names_is_bounded() -> None:
    # A dict of 200 000 keys and a class of 5 000 attributes: the comparison
    # stops at a bounded number of names (CPython's 750).
    source = """\
big = {f'k{i}': i for i in range(200_000)}
class Wide:
    pass
for i in range(5_000):
    setattr(Wide, f'a{i}', i)
try:
    Wide().a99999
except AttributeError as error:
    first = str(error)
return big.k1999999
"""
    kind, message = run_error(source)
    assert kind == "exception"
    assert "AttributeError: 'dict' object has no attribute 'k1999999'" in message, message


async def test_a_misspelt_name_in_the_child_suggests_the_binding_and_the_builtin() -> None:
    # The real child: the program's globals are the pool's namespace.
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            tool = await pool.run(
                "return await tool.echo(x=1)", tool_names=["echo"], handler=EchoHandler()
            )
            builtin = await pool.run("return lenn([1])", tool_names=[], handler=EchoHandler())
    assert tool.error is not None
    assert builtin.error is not None
    assert tool.error.message.endswith(
        "NameError: name 'tool' is not defined. Did you mean: 'tools'?"
    ), tool.error.message
    assert builtin.error.message.endswith("Did you mean: 'len'?"), builtin.error.message


def test_a_dict_read_by_a_misspelt_attribute_names_the_close_key() -> None:
    kind, message = run_error("c = {'name': 'Ada', 'email': 'a@x'}\nreturn c.nmae")
    assert kind == "exception"
    assert message.endswith(
        "(the value is a dict, with the key 'name' but no 'nmae': read it as value['name']; "
        "a tool returns plain dicts and lists)"
    ), message


def test_a_program_function_is_named_as_a_script_names_it() -> None:
    # Not `__codemode_main__.<locals>.f()`: the program's top level is its module.
    for source, last in [
        ("def f(a, b):\n    return a\nreturn f(1)",
         "TypeError: f() missing 1 required positional argument: 'b'"),
        ("def f(amount):\n    return amount\nreturn f(amout=1)",
         "TypeError: f() got an unexpected keyword argument 'amout'"),
        ("def outer():\n    def inner(a):\n        return a\n    return inner()\nreturn outer()",
         "TypeError: outer.<locals>.inner() missing 1 required positional argument: 'a'"),
    ]:
        kind, message = run_error(source)
        assert kind == "exception"
        assert message.splitlines()[-1] == last, message


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        ("rows = [{'id': 'c1'}]\nreturn rows['c1']", "(a list is indexed by position;"),
        ("page = {'items': [], 'next_cursor': None}\nreturn [e['kind'] for e in page]",
         "(that value is a str; iterating a dict gives its keys"),
        ("page = {'items': []}\nreturn page[:3]", "(a dict cannot be sliced:"),
    ],
)
def test_a_value_of_the_wrong_shape_says_what_to_write(source: str, hint: str) -> None:
    kind, message = run_error(source)
    assert kind == "exception"
    assert message.splitlines()[-1].startswith(hint), message


def test_gather_of_a_list_says_to_spread_it() -> None:
    # (Of plain values here: coroutines left behind would warn in this process.)
    source = "import asyncio\nreturn await asyncio.gather([1, 2])"
    kind, message = run_error(source)
    assert kind == "exception"
    assert (
        "TypeError: asyncio.gather takes the awaitables as separate arguments, not a list: "
        "write `await asyncio.gather(*calls)`"
    ) in message, message


def test_a_hint_that_fails_leaves_the_traceback(monkeypatch: pytest.MonkeyPatch) -> None:
    import sandbox._tracebacks as tracebacks

    def broken(exc: BaseException) -> str:
        raise ValueError("a bug of the hint's")

    monkeypatch.setattr(tracebacks, "_slip_hint", broken)
    try:
        raise KeyError("name")
    except KeyError as error:
        text = tracebacks.format_program_exception(error, "")
    assert text == "KeyError: 'name'"


async def test_a_tool_read_as_its_value_says_to_call_and_await_it() -> None:
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            subscript = await pool.run(
                "f = tools.echo\nreturn f['name']", tool_names=["echo"], handler=EchoHandler()
            )
            attribute = await pool.run(
                "return tools.echo.name", tool_names=["echo"], handler=EchoHandler()
            )
    assert subscript.error is not None
    assert attribute.error is not None
    assert subscript.error.message.endswith(
        "TypeError: tools.echo is a tool, not its value: call it and await the call first, "
        "`value = await tools.echo(...)`, then read value[...]"
    ), subscript.error.message
    assert attribute.error.message.endswith(
        "AttributeError: tools.echo is a tool, not its value, and has no attribute 'name': "
        "call it and await the call first, `value = await tools.echo(...)`"
    ), attribute.error.message
