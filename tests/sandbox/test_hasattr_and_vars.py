"""``hasattr`` and ``vars`` answer as in Python, without handing out what the guards keep.

``hasattr(x, "__iter__")`` read a name the guard refuses as absent, so a
``flatten`` returned its input unflattened and a sync-or-async helper left a
tool call unawaited, both silently. ``vars(self).update(kw)`` changed a copy
and set nothing. Each test compares the sandbox with the same program run as
plain Python.
"""

from __future__ import annotations

import pytest

from .test_language_support import run, run_error, run_ok

#: Objects of every kind a program asks about, and special names it asks for.
HASATTR_MATRIX = """
class Money:
    def __add__(self, other):
        return self
    def __len__(self):
        return 0
class Slotted:
    __slots__ = ("a",)
async def coro():
    return 1
def gen():
    yield 1
def plain():
    pass
noted = ValueError("x")
noted.add_note("a note")
objects = [
    [1], {}, "s", 1, 2.5, None, (1,), {1}, range(3), Money(), Money, Slotted(), Slotted,
    noted, ValueError("y"), gen(), plain, lambda: 0, len, type(None), iter([]),
]
names = [
    "__iter__", "__len__", "__add__", "__radd__", "__await__", "__getitem__", "__contains__",
    "__notes__", "__call__", "__enter__", "__aiter__", "__next__", "__code__", "__globals__",
    "__class__", "__dict__", "__name__", "__doc__", "__slots__", "__hash__", "__eq__",
    "__nope__", "__init__", "__traceback__", "__wrapped__",
]
return [[hasattr(obj, name) for name in names] for obj in objects]
"""


def test_hasattr_of_special_names_answers_as_python_does() -> None:
    assert run_ok(HASATTR_MATRIX) == run_ok(HASATTR_MATRIX, restricted=False)


#: Library objects that keep special attributes in their own dict (typing's
#: aliases keep ``__origin__`` and ``__args__`` there), and the builtin aliases,
#: which relay reads to their origin.
HASATTR_LIBRARY_MATRIX = """
import abc, typing, json, decimal
class Shape(abc.ABC):
    @abc.abstractmethod
    def area(self):
        ...
class Noted:
    size: int
class Bare:
    pass
objects = [
    typing.List[int], typing.Optional[str], typing.Dict[str, int], typing.Callable[[int], str],
    typing.Tuple[int, ...], list[int], dict[str, int], tuple[int, ...], json.JSONDecoder(),
    decimal.Context(), typing.Union[int, str], typing.Annotated[int, "x"], list, Shape,
    Noted, Bare,
]
names = [
    "__origin__", "__args__", "__parameters__", "__metadata__", "__mro__", "__iter__",
    "__module__", "__qualname__", "__call__", "__nope__", "__dict__", "__getitem__",
    "__or__", "__unpacked__", "__name__", "__abstractmethods__", "__annotations__",
]
return [[hasattr(obj, name) for name in names] for obj in objects]
"""


def test_hasattr_of_a_library_object_s_own_special_attributes_answers_as_python_does() -> None:
    # typing.List[int] keeps __origin__ in its own dict: hasattr said False.
    value = run_ok(HASATTR_LIBRARY_MATRIX)
    assert value == run_ok(HASATTR_LIBRARY_MATRIX, restricted=False)
    assert isinstance(value, list)
    assert isinstance(value[0], list)
    assert value[0][:2] == [True, True]  # typing.List[int]: __origin__, __args__


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            "def flatten(x):\n"
            "    if isinstance(x, str) or not hasattr(x, '__iter__'):\n"
            "        yield x\n"
            "    else:\n"
            "        for item in x:\n"
            "            yield from flatten(item)\n"
            "return list(flatten([1, [2, [3, 'ab']]]))",
            [1, 2, 3, "ab"],
        ),
        (
            "async def fetch():\n    return 7\n"
            "r = fetch()\n"
            "if hasattr(r, '__await__'):\n    r = await r\n"
            "return r",
            7,
        ),
    ],
)
def test_programs_that_test_for_special_methods_get_the_right_value(
    source: str, expected: object
) -> None:
    assert run_ok(source) == expected


VARS_WRITES = """
import copy, json
class Rec:
    def __init__(self, **kw):
        vars(self).update(kw)
r = Rec(a=1, b=2, _c=3)
v = vars(r)
v["d"] = 4
v.setdefault("e", 5)
v.setdefault("a", 99)
del v["b"]
popped = v.pop("e")
missing = v.pop("zz", "default")
v |= {"f": 6}
snapshot = [sorted(vars(r).items()), r.a, r.d, r._c, popped, missing, hasattr(r, "b")]
last = vars(r).popitem()
plain_copy = copy.copy(vars(r))
plain_copy["g"] = 7
deep = copy.deepcopy(vars(r))
deep["h"] = 8
after = [last, hasattr(r, "f"), hasattr(r, "g"), hasattr(r, "h"), json.dumps(vars(r))]
vars(r).clear()
return [snapshot, after, vars(r), hasattr(r, "a"), vars(Rec(x=[1]))]
"""


def test_changes_to_vars_of_a_program_object_set_its_attributes_as_in_python() -> None:
    assert run_ok(VARS_WRITES) == run_ok(VARS_WRITES, restricted=False)


@pytest.mark.parametrize(
    ("write", "message"),
    [
        ('vars(r)["__class__"] = int', "starts with"),
        ('vars(r).update({"_asyncio_future_blocking": True})', "starts with"),
        ('vars(r)[1] = 2', "attribute name must be a str"),
        ('vars(r).setdefault("__dict__", {})', "starts with"),
    ],
)
def test_vars_writes_pass_the_write_guard_before_anything_changes(write: str, message: str) -> None:
    source = f"""
class Rec:
    pass
r = Rec()
r.kept = 1
try:
    {write}
except (AttributeError, TypeError) as error:
    return [str(error), sorted(vars(r).items())]
return "written"
"""
    outcome = run_ok(source)
    assert isinstance(outcome, list)
    text, items = outcome
    assert isinstance(text, str)
    assert message in text
    assert items == [["kept", 1]]


def test_the_class_vars_returns_cannot_write_to_a_library_object() -> None:
    # Its constructor takes any object to write through to: the writes still
    # pass the write guard, which refuses objects the program did not create.
    kind, message = run_error(
        """
import datetime
class Rec:
    pass
Attributes = type(vars(Rec()))
view = Attributes(datetime.date(2020, 1, 1), {})
view["year"] = 1999
"""
    )
    assert kind == "exception"
    assert "cannot change a date object" in message


def test_vars_of_a_program_object_is_json_for_a_tool_and_the_value() -> None:
    result = run(
        """
class Rec:
    def __init__(self):
        self.a = [1]
echoed = await tools.echo(record=vars(Rec()))
return [echoed, vars(Rec())]
"""
    )
    assert result.error is None, result.error
    assert result.value == [{"record": {"a": [1]}}, {"a": [1]}]
