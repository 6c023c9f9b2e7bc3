"""First-try allowances of the seventh sweep: what a model writes that harms nothing now works.

Each allowance was reviewed against SECURITY.md's rules; each block tests the
allowed use against plain Python (the same program run unrestricted) and an
attack through it that must still fail:

* a program object calling a special method its own class defines
  (``self.__add__(other)`` in ``__radd__``), never a library's;
* ``__match_args__`` read from the program's own classes, an exact tuple of
  exact strings;
* ``functools.partialmethod`` over the program's functions, and
  ``functools.update_wrapper`` onto the program's own function or object;
* ``asyncio.current_task()`` inside a task the program started: the same task
  object ``create_task`` gave it, never the runtime's task;
* ``csv``'s dialect registry (``list_dialects``, ``get_dialect``,
  ``register_dialect``), keyed by exact strings;
* the ``graphlib`` and ``secrets`` modules.
"""

from __future__ import annotations

import csv
from typing import TYPE_CHECKING

import anyio
import pytest

from sandbox import Limits, WorkerPool
from sandbox._guards import guarded_getattr, guarded_hasattr
from sandbox._program import record_program_class
from sandbox.testing import EchoHandler

from .test_language_support import run, run_error, run_ok

if TYPE_CHECKING:
    from collections.abc import Iterator


def _same_as_plain(source: str) -> object:
    """The value of ``source`` in the sandbox, checked equal to plain Python's."""
    value = run_ok(source)
    assert value == run_ok(source, restricted=False)
    return value


# -- calling a special method the program's class defines, on its own object --------------

NUMERIC_DELEGATION = """
from functools import total_ordering
class Qty:
    def __init__(self, n):
        self.n = n
    def __add__(self, other):
        if isinstance(other, Qty):
            return Qty(self.n + other.n)
        if isinstance(other, int):
            return Qty(self.n + other)
        return NotImplemented
    def __radd__(self, other):
        return self.__add__(other)
    def __eq__(self, other):
        return isinstance(other, Qty) and self.n == other.n
    def __ne__(self, other):
        return not self.__eq__(other)
    __hash__ = None
    def __repr__(self):
        return f"Qty({self.n})"
    def __str__(self):
        return self.__repr__() + "!"
    def __len__(self):
        return self.n
    def size(self):
        return self.__len__()
class Box(Qty):
    def __add__(self, other):
        return Box(super().__add__(other).n * 10)
    def twice(self, other):
        return self.__add__(other).__add__(other)
class Bag(dict):
    def __setitem__(self, key, value):
        super().__setitem__(key.lower(), value)
    def put(self, key, value):
        self.__setitem__(key, value)
        return self
class Acc:
    def __init__(self):
        self.items = []
    def __iadd__(self, item):
        self.items.append(item)
        return self
    def add(self, item):
        return self.__iadd__(item)
    def __init_again(self):
        self.__init__()
        return self
    def reset(self):
        return self.__init_again()
s = sum([Qty(1), Qty(2)], 0)
return [
    repr(s), Qty(1) != Qty(2), Qty(1) != Qty(1), str(Qty(3)), Qty(4).size(),
    repr(Box(1).twice(Box(1))), dict(Bag().put("A", 1)), Acc().add(1).add(2).items,
    Acc().add(1).reset().items,
    [hasattr(Qty(1), name) for name in ("__add__", "__radd__", "__len__", "__mul__")],
]
"""


def test_a_program_object_calls_the_special_methods_its_class_defines() -> None:
    assert _same_as_plain(NUMERIC_DELEGATION) == [
        "Qty(3)", True, False, "Qty(3)!", 4, "Qty(210)", {"a": 1}, [1, 2], [],
        [True, True, True, False],
    ]  # fmt: skip


def test_a_slots_dataclass_keeps_its_own_special_methods_callable() -> None:
    # dataclass(slots=True) makes a new class of the decorated one's dict.
    source = """\
from dataclasses import dataclass
@dataclass(slots=True, frozen=True)
class Money:
    cents: int
    def __add__(self, other):
        if isinstance(other, int):
            return Money(self.cents + other)
        return Money(self.cents + other.cents)
    def __radd__(self, other):
        return self.__add__(other)
return [sum([Money(1), Money(2)]).cents, Money(1).__add__(Money(5)).cents]
"""
    assert _same_as_plain(source) == [3, 6]


def test_super_special_methods_read_as_before() -> None:
    source = """\
class Money(int):
    def __add__(self, other):
        return Money(super().__add__(other))
    def __repr__(self):
        return "Money(" + super().__repr__() + ")"
class Tagged(Money):
    def __add__(self, other):
        return "tagged " + repr(super().__add__(other))
return [repr(Money(2) + 3), Tagged(1) + 1]
"""
    assert _same_as_plain(source) == ["Money(5)", "tagged Money(2)"]


@pytest.mark.parametrize(
    ("source", "hint"),
    [
        # Inherited from a library class: the program did not write it.
        ("class Bag(dict):\n    pass\nreturn Bag(a=1).__getitem__('a')", "use x[key]"),
        ("class Num(int):\n    def inc(self):\n        return self.__add__(1)\nreturn Num(1).inc()",
         "use x + y"),
        ("class A:\n    def show(self):\n        return self.__repr__()\nreturn A().show()",
         "use repr(x)"),
        ("import collections\nclass L(collections.UserList):\n    pass\n"
         "return L([1]).__eq__([1])", "use x == y"),
        # Set on the class by library code after the class statement.
        ("import dataclasses\n@dataclasses.dataclass\nclass P:\n    x: int\n"
         "return P(1).__eq__(P(1))", "use x == y"),
        ("import functools\n@functools.total_ordering\nclass P:\n"
         "    def __init__(self, x):\n        self.x = x\n"
         "    def __eq__(self, o):\n        return self.x == o.x\n"
         "    def __lt__(self, o):\n        return self.x < o.x\n"
         "return P(1).__le__(P(2))", "use x <= y"),
        # A decorator made it something other than the program's own function.
        ("def library(f):\n    return len\nclass A:\n    @library\n    def __len__(self):\n"
         "        return 1\nreturn A().__len__()", "use len(x)"),
        # Not on the program's objects at all.
        ("return (1).__add__(2)", "use x + y"),
        ("import json\nreturn json.JSONEncoder().__init__()", "call super().__init__(...)"),
        # An enum the program defines, with the library's methods.
        ("import enum\nclass Color(enum.Enum):\n    RED = 1\nreturn Color.RED.__repr__()",
         "use repr(x)"),
    ],
    ids=[
        "dict-base", "int-base", "object-default", "userlist-base", "dataclass-generated",
        "total-ordering", "decorated-library-callable", "int", "library-init", "enum",
    ],
)  # fmt: skip
def test_a_special_method_the_program_did_not_write_is_still_refused(
    source: str, hint: str
) -> None:
    message = run_error(source)[1]
    assert 'is an invalid attribute name because it starts with "_"; ' + hint in message


def test_an_instance_attribute_in_front_of_the_class_s_method_is_not_handed_out() -> None:
    # No program write can put a special name in an object's own dict; library
    # code could. Python's own lookup would then find that value first, so the
    # guard does not hand out the class's method in its place, nor that value.
    def plant(obj: object) -> None:
        vars(obj)["__add__"] = len

    source = """\
class Qty:
    def __add__(self, other):
        return "class"
    def plus(self, other):
        return self.__add__(other)
q = Qty()
plant(q)
return [q + 1, q.plus(1)]
"""
    message = run_error(source, bindings={"plant": plant})[1]
    assert message.endswith('AttributeError: "__add__" is an invalid attribute name because it '
                            'starts with "_"; use x + y')


def test_the_bound_special_method_hands_out_nothing_new() -> None:
    source = """\
class A:
    def __eq__(self, other):
        return True
    __hash__ = None
method = A().__eq__
out = []
for name in ("__func__", "__self__", "__globals__", "__closure__"):
    try:
        getattr(method, name)
        out.append(name)
    except AttributeError:
        pass
return [out, method(1), type(A).__name__]
"""
    assert run_ok(source) == [[], True, "type"]


# -- __match_args__ of the program's own classes ----------------------------------------

MATCH_ARGS = """
import collections
from dataclasses import dataclass, field
from typing import NamedTuple
@dataclass
class Point:
    x: int
    y: int
    tags: list = field(default_factory=list, kw_only=True)
@dataclass(slots=True, frozen=True)
class Frozen:
    a: int
class Row(NamedTuple):
    sku: str
    qty: int = 0
Pair = collections.namedtuple("Pair", "left right")
class Plain:
    pass
class Sub(Point):
    pass
out = []
for cls in (Point, Frozen, Row, Pair, Sub):
    names = cls.__match_args__
    out.append([list(names), type(names) is tuple, all(type(n) is str for n in names)])
return [
    out, list(Point(1, 2).__match_args__), getattr(Plain, "__match_args__", "none"),
    hasattr(Plain, "__match_args__"), hasattr(Row, "__match_args__"),
    hasattr(Row("a"), "__match_args__"),
]
"""


def test_match_args_of_the_program_classes_read_as_in_python() -> None:
    assert _same_as_plain(MATCH_ARGS) == [
        [
            [["x", "y"], True, True], [["a"], True, True], [["sku", "qty"], True, True],
            [["left", "right"], True, True], [["x", "y"], True, True],
        ],
        ["x", "y"], "none", False, True, True,
    ]  # fmt: skip


def test_a_class_without_match_args_says_so_as_python_does() -> None:
    message = run_error("class Plain:\n    pass\nreturn Plain.__match_args__")[1]
    assert message.endswith("AttributeError: type object 'Plain' has no attribute '__match_args__'")
    message = run_error("class Plain:\n    pass\nreturn Plain().__match_args__")[1]
    assert message.endswith("AttributeError: 'Plain' object has no attribute '__match_args__'")


def test_match_args_of_a_library_class_is_refused_with_a_hint() -> None:
    message = run_error("import urllib.parse\nreturn urllib.parse.urlparse('http://x').__match_args__")[1]
    assert message.endswith(
        '"__match_args__" is an invalid attribute name because it starts with "_"; it is '
        "readable on the program's own classes (a @dataclass, NamedTuple or namedtuple); for "
        "another class use C._fields for a namedtuple, or [f.name for f in "
        "dataclasses.fields(C)] for a dataclass"
    )
    # What the hint suggests works.
    fields = run_ok("import urllib.parse\nreturn urllib.parse.urlparse('http://x')._fields")
    assert isinstance(fields, list)
    assert fields[:2] == ["scheme", "netloc"]


class _Text(str):
    pass


def test_match_args_are_handed_out_only_as_an_exact_tuple_of_exact_strings() -> None:
    # Rule 2 checks every class a program makes; this class skips that check
    # (recorded by hand), so only the guard's own check stands between it and
    # the program.
    class Listed:
        __match_args__ = (_Text("x"),)

    class Subclassed:
        __match_args__ = type("Names", (tuple,), {})(("x",))

    class Plain:
        __match_args__ = ("x",)

    for cls in (Listed, Subclassed, Plain):
        record_program_class(cls)
    for cls in (Listed, Subclassed):
        with pytest.raises(AttributeError, match="__match_args__"):
            guarded_getattr(cls, "__match_args__")
    assert guarded_getattr(Plain, "__match_args__") == ("x",)


# -- functools.partialmethod and update_wrapper -------------------------------------------

PARTIAL_METHODS = """
from functools import partialmethod
class Order:
    def __init__(self):
        self.state = None
    def set_state(self, state, *, note=""):
        self.state = (state, note)
        return self
    def scale(self, factor, n):
        return factor * n
    ship = partialmethod(set_state, "shipped")
    cancel = partialmethod(set_state, "cancelled", note="by customer")
    quiet_cancel = partialmethod(cancel, note="")
    double = partialmethod(scale, 2)
o = Order()
return [
    o.ship().state, o.cancel().state, o.quiet_cancel().state, Order.ship(Order()).state,
    o.double(21), o.cancel(note="late").state, Order.ship.__name__,
]
"""


def test_partialmethod_over_the_program_functions_works_as_in_python() -> None:
    assert _same_as_plain(PARTIAL_METHODS) == [
        ["shipped", ""], ["cancelled", "by customer"], ["cancelled", ""], ["shipped", ""], 42,
        ["cancelled", "late"], "_method",
    ]  # fmt: skip


@pytest.mark.parametrize(
    "func",
    ["len", "property(lambda self: 1)", "classmethod(lambda cls: 1)",
     "calendar.Calendar.iterweekdays", "json.JSONEncoder().encode", "staticmethod(len)"],
)  # fmt: skip
def test_partialmethod_takes_no_library_callable_or_descriptor(func: str) -> None:
    # The real one calls whatever func's __get__ is with the program's object.
    source = (
        "import calendar, json\nfrom functools import partialmethod\n"
        f"class A:\n    g = partialmethod({func})\nreturn 1"
    )
    message = run_error(source)[1]
    assert "TypeError: partialmethod() in run_code takes a function the program defines" in message


def test_a_partialmethod_object_cannot_be_changed_or_reinitialised() -> None:
    source = """\
import functools
class A:
    def f(self, x):
        return x
    g = functools.partialmethod(f, 1)
pm = vars(A).get("g") or functools.partialmethod(A.f, 1)
out = []
for attempt in (
    lambda: setattr(pm, "func", len),
    lambda: type(pm).__init__(pm, len),
    lambda: type(pm).__init__(pm, A.f, 2),
):
    try:
        attempt()
        out.append("changed")
    except (TypeError, AttributeError) as error:
        out.append(type(error).__name__)
return [out, A().g(), pm.func is A.f]
"""
    assert run_ok(source) == [["TypeError", "TypeError", "TypeError"], 1, True]


CLASS_DECORATOR = """
import functools
class counted:
    def __init__(self, fn):
        functools.update_wrapper(self, fn)
        self.fn = fn
        self.n = 0
    def __call__(self, *args):
        self.n += 1
        return self.fn(*args)
@counted
def double(x):
    "Doubles x."
    return x * 2
@counted
@counted
def triple(x):
    return x * 3
def plain(x):
    return x
def wrapper(*args):
    return plain(*args)
same = functools.update_wrapper(wrapper, plain)
double(1); double(2); triple(1)
return [
    double.n, double.__doc__, double.__name__, triple.__name__, triple.n, triple.fn.n,
    same is wrapper, wrapper.__name__, wrapper.__doc__,
]
"""


def test_update_wrapper_in_a_class_based_decorator_works_as_in_python() -> None:
    assert _same_as_plain(CLASS_DECORATOR) == [
        2, "Doubles x.", "double", "triple", 1, 1, True, "plain", None
    ]


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ("functools.update_wrapper(json.JSONEncoder(), f)", "update_wrapper() in run_code updates"),
        ("functools.update_wrapper(Holder, f)", "update_wrapper() in run_code updates"),
        ("functools.update_wrapper(len, f)", "update_wrapper() in run_code updates"),
        ("functools.update_wrapper(Holder(), f, assigned=('__class__',))",
         "update_wrapper() in run_code takes assigned as"),
        ("functools.update_wrapper(Holder(), f, updated=('__globals__',))",
         "update_wrapper() in run_code takes updated as"),
        # Functions carry no attributes in run_code: a program object's are not copied on.
        ("functools.update_wrapper(f, Holder.of(1))", "cannot set an attribute on a function"),
    ],
    ids=[
        "library-object", "class", "builtin", "assigned-class", "updated-globals",
        "dict-onto-function",
    ],
)
def test_update_wrapper_sets_nothing_on_what_the_program_may_not_change(
    call: str, message: str
) -> None:
    source = (
        "import functools, json\nclass Holder:\n    @classmethod\n    def of(cls, n):\n"
        "        made = cls()\n        made.n = n\n        return made\n"
        f"def f():\n    pass\n{call}\nreturn 1"
    )
    assert f"TypeError: {message}" in run_error(source)[1]


def test_update_wrapper_copies_no_library_namespace_and_no_wrapped_reference() -> None:
    # The real one copies str's class dictionary (the raw str.format among it)
    # onto the wrapper, and sets __wrapped__.
    source = """\
import functools
class Holder:
    pass
h = functools.update_wrapper(Holder(), str)
return [hasattr(h, "maketrans"), hasattr(h, "format"), hasattr(h, "__wrapped__"), h.__name__]
"""
    assert run_ok(source) == [False, False, False, "str"]
    assert run_ok(source, restricted=False) == [True, True, True, "str"]


# -- asyncio.current_task ----------------------------------------------------------------

CURRENT_TASKS = """
import asyncio
holder = []
async def same():
    await asyncio.sleep(0)
    return asyncio.current_task() is holder[0]
async def named():
    return asyncio.current_task().get_name()
async def in_group():
    return asyncio.current_task().get_name()
async def stable():
    task = asyncio.current_task()
    task.set_name("renamed")
    await asyncio.sleep(0)
    return [task is asyncio.current_task(), asyncio.current_task().get_name()]
async def renamed():
    asyncio.current_task().set_name("again")
    await asyncio.sleep(0)
    return asyncio.current_task().get_name()
holder.append(asyncio.create_task(same()))
identical = await holder[0]
gathered = await asyncio.gather(named(), named())
waited = await asyncio.wait_for(named(), timeout=5)
async with asyncio.TaskGroup() as group:
    grouped = group.create_task(in_group(), name="grouped")
done, _ = await asyncio.wait([asyncio.create_task(named())])
finished = [await c for c in asyncio.as_completed([named(), named()])]
kept = await asyncio.gather(stable(), renamed())
return [
    kept,
    identical, [n.startswith("Task-") for n in gathered], waited.startswith("Task-"),
    grouped.result(), [t.result().startswith("Task-") for t in done],
    [n.startswith("Task-") for n in finished],
    await asyncio.create_task(named(), name="namer"),
]
"""


def test_current_task_answers_in_every_task_the_program_starts() -> None:
    assert _same_as_plain(CURRENT_TASKS) == [
        [[True, "renamed"], "again"], True, [True, True], True, "grouped", [True], [True, True],
        "namer",
    ]


def test_current_task_at_the_top_level_says_what_to_write() -> None:
    # The top level runs in the runtime's own task, whose result is the run's outcome.
    for source in (
        "import asyncio\nreturn asyncio.current_task().get_name()",
        "import asyncio\nasync def name():\n    return asyncio.current_task().get_name()\n"
        "return await name()",
        "import asyncio\n"
        "return await asyncio.wait_for(asyncio.sleep(0, asyncio.current_task()), None)",
    ):
        message = run_error(source)[1]
        assert message.endswith(
            "RuntimeError: asyncio.current_task() in run_code answers only inside a task the "
            "program started (asyncio.create_task, a TaskGroup, gather, wait, or wait_for with a "
            "timeout); the program's top level, and what it awaits directly, run in the "
            "runtime's own task. Pass the name into the coroutine, or keep the task that "
            "`asyncio.create_task(coro, name=...)` returned and call its .get_name()"
        )


def test_current_task_reaches_no_loop_coroutine_or_real_task() -> None:
    source = """\
import asyncio
async def probe():
    task = asyncio.current_task()
    out = []
    for name in ("get_loop", "get_coro", "get_stack", "_ProgramTask__task", "__await__",
                 "_loop", "__self__"):
        try:
            getattr(task, name)
            out.append(name)
        except AttributeError:
            pass
    try:
        asyncio.current_task(loop=task)
        out.append("loop=")
    except TypeError:
        pass
    try:
        vars(task)
        out.append("vars")
    except TypeError:
        pass
    return [out, type(task) is type(outer), repr(task)]
outer = asyncio.create_task(probe())
return await outer
"""
    assert run_ok(source) == [[], True, "<Task pending>"]


def test_a_done_callback_has_no_current_task() -> None:
    source = """\
import asyncio
seen = []
def callback(task):
    try:
        asyncio.current_task()
        seen.append("task")
    except RuntimeError:
        seen.append("refused")
task = asyncio.create_task(asyncio.sleep(0))
task.add_done_callback(callback)
await task
await asyncio.sleep(0)
return seen
"""
    assert run_ok(source) == ["refused"]


def test_gather_and_wait_for_keep_their_order_and_sharing() -> None:
    source = """\
import asyncio
log = []
async def step(n):
    log.append(("start", n))
    await asyncio.sleep(0)
    log.append(("end", n))
    return n
twice = step(9)
values = await asyncio.gather(step(1), twice, step(2), twice, return_exceptions=True)
bad = []
try:
    await asyncio.gather(step(3), 5)
except TypeError:
    bad.append("TypeError")
await asyncio.sleep(0)
try:
    await asyncio.wait_for(asyncio.sleep(10), timeout=0)
except TimeoutError:
    bad.append("TimeoutError")
return [values, log, bad]
"""
    assert _same_as_plain(source) == [
        [1, 9, 2, 9],
        [["start", 1], ["start", 9], ["start", 2], ["end", 1], ["end", 9], ["end", 2],
         ["start", 3], ["end", 3]],
        ["TypeError", "TimeoutError"],
    ]  # fmt: skip


# -- csv's dialect registry ---------------------------------------------------------------


@pytest.fixture
def dialects() -> Iterator[None]:
    """Remove what a test registers: in a child the registry is the run's, here the process's.

    The first-try oracle runs ``csv.list_dialects()`` in this process too (program 356).
    """
    before = set(csv.list_dialects())
    yield
    for name in set(csv.list_dialects()) - before:
        csv.unregister_dialect(name)


@pytest.mark.usefixtures("dialects")
def test_csv_dialects_register_and_read_back_as_in_python() -> None:
    source = """\
import csv, io
csv.register_dialect("first-try-pipes", delimiter="|", quoting=csv.QUOTE_MINIMAL)
class Semi:
    delimiter = ";"
    quotechar = '"'
    lineterminator = "\\n"
    quoting = csv.QUOTE_MINIMAL
csv.register_dialect("first-try-semi", Semi)
buf = io.StringIO()
csv.writer(buf, dialect="first-try-pipes").writerow(["a", "b|c"])
csv.writer(buf, dialect="first-try-semi").writerow(["d", "e"])
names = [n for n in csv.list_dialects() if n.startswith("first-try")]
pipes = csv.get_dialect("first-try-pipes")
return [
    buf.getvalue(), sorted(names), [type(n) is str for n in names], pipes.delimiter,
    list(csv.reader(["x|y"], dialect="first-try-pipes")), "excel" in csv.list_dialects(),
]
"""
    assert _same_as_plain(source) == [
        'a|"b|c"\r\nd;e\n', ["first-try-pipes", "first-try-semi"], [True, True], "|",
        [["x", "y"]], True,
    ]  # fmt: skip


@pytest.mark.usefixtures("dialects")
def test_csv_keeps_dialect_names_as_exact_strings() -> None:
    # A str subclass would hash and compare by the program's code in csv's
    # process-wide registry; the registry keeps its text alone.
    source = """\
import csv
class Name(str):
    def __hash__(self):
        return 0
    def __eq__(self, other):
        return True
csv.register_dialect(Name("first-try-named"), delimiter=";")
names = [n for n in csv.list_dialects() if n == "first-try-named"]
return [[type(n) is str for n in names], csv.get_dialect(Name("first-try-named")).delimiter]
"""
    assert run_ok(source) == [[True], ";"]


def test_csv_get_dialect_of_an_unknown_name_raises_csv_error() -> None:
    source = (
        "import csv\ntry:\n    csv.get_dialect('first-try-nope')\n"
        "except csv.Error as e:\n    return str(e)"
    )
    assert _same_as_plain(source) == "unknown dialect"


# -- graphlib and secrets ------------------------------------------------------------------

GRAPHLIB = """
from graphlib import CycleError, TopologicalSorter
steps = {"pack": {"pick"}, "pick": {"reserve"}, "label": {"pack"}, "charge": {"reserve"}}
order = list(TopologicalSorter(steps).static_order())
sorter = TopologicalSorter(steps)
sorter.prepare()
waves = []
while sorter.is_active():
    ready = sorted(sorter.get_ready())
    waves.append(ready)
    sorter.done(*ready)
loop = TopologicalSorter({"a": {"b"}, "b": {"a"}})
try:
    loop.prepare()
except CycleError as error:
    cycle = sorted(set(error.args[1]))
    text = error.args[0]
return [order, waves, cycle, text, bool(sorter), isinstance(CycleError("x"), ValueError)]
"""


def test_graphlib_orders_nodes_as_in_python() -> None:
    assert _same_as_plain(GRAPHLIB) == [
        ["reserve", "pick", "charge", "pack", "label"],
        [["reserve"], ["charge", "pick"], ["pack"], ["label"]],
        ["a", "b"], "nodes are in a cycle", False, True,
    ]  # fmt: skip


def test_graphlib_state_is_not_the_program_s() -> None:
    source = """\
import graphlib
sorter = graphlib.TopologicalSorter({"b": {"a"}})
out = []
for attempt in (
    lambda: getattr(sorter, "_node2info"),
    lambda: setattr(sorter, "extra", 1),
    lambda: vars(sorter),
):
    try:
        attempt()
        out.append("reached")
    except (AttributeError, TypeError) as error:
        out.append(type(error).__name__)
return out
"""
    assert run_ok(source) == ["AttributeError", "TypeError", "TypeError"]


SECRETS = """
import secrets, string
token = secrets.token_hex(16)
alphabet = string.ascii_letters + string.digits
password = "".join(secrets.choice(alphabet) for _ in range(12))
return [
    len(token), all(c in "0123456789abcdef" for c in token), len(secrets.token_bytes(8)),
    len(secrets.token_urlsafe(16)) >= 16, len(password), all(c in alphabet for c in password),
    0 <= secrets.randbelow(10) < 10, secrets.compare_digest("abc", "abc"),
    secrets.compare_digest(b"a", b"b"), secrets.DEFAULT_ENTROPY,
]
"""


def test_secrets_gives_random_tokens() -> None:
    assert _same_as_plain(SECRETS) == [32, True, 8, True, 12, True, True, True, False, 32]


def test_secrets_hands_out_no_system_random() -> None:
    source = """\
import secrets
out = []
for attempt in (
    lambda: getattr(secrets.choice, "__self__"),
    lambda: getattr(secrets.choice, "__wrapped__"),
    lambda: getattr(secrets.choice, "__closure__"),
    lambda: secrets.SystemRandom,
):
    try:
        attempt()
        out.append("reached")
    except AttributeError:
        out.append("refused")
return out
"""
    assert run_ok(source) == ["refused"] * 4
    message = run_error("import secrets\nreturn secrets.SystemRandom()")[1]
    assert "use secrets.choice(seq), secrets.randbelow(n) or secrets.token_hex(n)" in message


async def test_the_allowed_modules_run_in_a_real_child() -> None:
    # The child's seccomp filter allows getrandom (secrets reads it as uuid4
    # does); library classes there check their self (rule 7), graphlib's too.
    source = """\
import csv, graphlib, secrets
csv.register_dialect("pipes", delimiter="|")
refused = []
try:
    graphlib.TopologicalSorter.add(object(), 1)
except TypeError as error:
    refused.append(str(error))
async def name():
    return asyncio.current_task().get_name()
import asyncio
return [
    len(secrets.token_hex(16)), list(csv.reader(["a|b"], dialect="pipes")),
    list(graphlib.TopologicalSorter({"b": {"a"}}).static_order()), refused,
    await asyncio.create_task(name(), name="child"),
]
"""
    with anyio.fail_after(60):
        async with WorkerPool(size=1, limits=Limits(wall_seconds=30)) as pool:
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == [
        32, [["a", "b"]], ["a", "b"],
        ["TopologicalSorter.add needs a TopologicalSorter object, not a object object"],
        "child",
    ]  # fmt: skip


def test_hasattr_agrees_with_the_guard_for_the_allowed_names() -> None:
    source = """\
from dataclasses import dataclass
@dataclass
class P:
    x: int
    def __add__(self, other):
        return self
p = P(1)
return [hasattr(p, "__add__"), hasattr(P, "__match_args__"), hasattr(p, "__match_args__")]
"""
    assert run_ok(source) == [True, True, True]
    assert guarded_hasattr(1, "__add__") is True  # exists, though the guard refuses it
    assert run(source, restricted=False).value == [True, True, True]


def test_a_task_name_is_kept_as_plain_text_whatever_str_returns() -> None:
    # The real task keeps the name (current_task() answers with it), and
    # asyncio's own str() of a str subclass would call the program's methods.
    source = """\
import asyncio
class Sly(str):
    def __str__(self):
        return self
    def upper(self):
        return "program code"
class Name:
    def __str__(self):
        return Sly("hello")
async def work():
    return asyncio.current_task().get_name()
task = asyncio.create_task(work(), name=Name())
task.set_name(Name())
inside = await task
name = task.get_name()
return [type(name).__name__, name.upper(), type(inside).__name__, inside.upper()]
"""
    assert run_ok(source) == ["str", "HELLO", "str", "HELLO"]
