"""``object.__setattr__(self, name, value)``: a write to the program's own object, as ``setattr``.

A frozen dataclass's ``__post_init__`` normalises its fields this way (the
``dataclasses`` documentation's own advice). The guard hands out, for
``object.__setattr__`` alone, a function that checks the object and the name as
``setattr(obj, name, value)`` does and skips only the class's own
``__setattr__``: the allowed use matches plain Python, and every write that
``setattr`` refuses (a library object, a façade, a tool, a function, a ``_``
name that is not the program's, ``__class__``) is refused here too.
"""

from __future__ import annotations

import pytest

from sandbox._guards import guarded_getattr

from .test_language_support import compile_errors, run_error, run_ok

FROZEN = """
from dataclasses import dataclass, field, FrozenInstanceError

@dataclass(frozen=True, order=True)
class Contact:
    email: str
    name: str = field(compare=False)

    def __post_init__(self):
        object.__setattr__(self, "email", self.email.strip().casefold())
        object.__setattr__(self, "name", " ".join(self.name.split()).title())
        object.__setattr__(self, "_seen", 1)

@dataclass(frozen=True, slots=True)
class Point:
    x: int
    y: int
    norm: int = field(init=False)

    def __post_init__(self):
        set_ = object.__setattr__
        set_(self, "norm", abs(self.x) + abs(self.y))

class Plain:
    pass

p = Plain()
object.__setattr__(p, "label", "x")
a, b = Contact(" ADA@Example.com ", "ada  lovelace"), Contact("ada@example.com", "Ada Lovelace")
try:
    a.email = "other"
    frozen = "changed"
except FrozenInstanceError:
    frozen = "frozen"
pt = Point(3, -4)
return [a.email, a.name, a._seen, a == b, len({a, b}), frozen, pt.norm, p.label,
        object.__setattr__.__name__]
"""


def test_object_setattr_in_a_frozen_dataclass_works_as_in_python() -> None:
    value = run_ok(FROZEN)
    assert value == run_ok(FROZEN, restricted=False)
    assert value == ["ada@example.com", "Ada Lovelace", 1, True, 1, "frozen", 7, "x", "__setattr__"]


@pytest.mark.parametrize(
    ("target", "name", "refusal"),
    [
        # objects the program did not make: the write guard's refusal, as setattr's
        ("json", "dumps", "cannot change"),
        ("tools", "get_weather", "cannot change"),
        ("asyncio.create_task(asyncio.sleep(0))", "name", "cannot change"),
        ("functools.partial(print)", "func", "cannot change"),
        ("dataclasses.field()", "default", "cannot change"),
        ("functools.partialmethod(Mine.method)", "func", "cannot change"),
        ("print", "x", "cannot change"),
        ("helper", "calls", "cannot set an attribute on a function"),
        ("ValueError", "x", "cannot change"),
        # names no write may use, on the program's own object
        ("Mine()", "__class__", 'starts with "_"'),
        ("Mine()", "__dict__", 'starts with "_"'),
        ("Mine()", "_loop", 'starts with "_"'),
        ("Mine()", "_asyncio_future_blocking", 'starts with "_"'),
        ("Mine()", "gi_frame", "restricted attribute"),
        ("Mine()", "__setattr__", 'starts with "_"'),
    ],
)
def test_object_setattr_refuses_what_setattr_refuses(target: str, name: str, refusal: str) -> None:
    source = f"""\
import asyncio, dataclasses, functools, json
class Mine:
    def method(self):
        return 1
def helper():
    pass
target = {target}
try:
    setattr(target, {name!r}, 1)
    via_setattr = "set"
except (AttributeError, TypeError) as error:
    via_setattr = str(error)
try:
    object.__setattr__(target, {name!r}, 1)
    via_object = "set"
except (AttributeError, TypeError) as error:
    via_object = str(error)
return [via_setattr, via_object]
"""
    value = run_ok(source)
    assert isinstance(value, list)
    via_setattr, via_object = value
    assert isinstance(via_object, str)
    assert refusal in via_object
    assert via_setattr == via_object


def test_object_setattr_takes_only_an_exact_str_name() -> None:
    source = """\
class Name(str):
    def __hash__(self):
        return 0
class Mine:
    pass
out = []
for name in (Name("x"), 3, b"x"):
    try:
        object.__setattr__(Mine(), name, 1)
        out.append("set")
    except TypeError as error:
        out.append(str(error))
return out
"""
    assert run_ok(source) == [
        "attribute name must be a str, not Name",
        "attribute name must be a str, not int",
        "attribute name must be a str, not bytes",
    ]


def test_object_setattr_on_a_class_or_an_enum_member_fails_as_in_python() -> None:
    source = """\
import enum
class Color(enum.Enum):
    RED = 1
class Mine:
    pass
out = []
for target, name in ((Mine, "x"), (Color.RED, "value"), (Color, "GREEN")):
    try:
        object.__setattr__(target, name, 2)
        out.append("set")
    except (AttributeError, TypeError) as error:
        out.append(type(error).__name__)
return [out, Color.RED.value, hasattr(Mine, "x")]
"""
    value = run_ok(source)
    assert value == run_ok(source, restricted=False)
    assert value == [["TypeError", "AttributeError", "TypeError"], 1, False]


@pytest.mark.parametrize(
    "expression",
    [
        "super().__setattr__('x', 1)",
        "self.__setattr__('x', 1)",
        "type(self).__setattr__(self, 'x', 1)",
        "Point.__setattr__(self, 'x', 1)",
        "getattr(int, '__setattr__')",
        "getattr(Point, '__setattr__')",
        "getattr(self, '__setattr__')",
        "getattr(super(), '__setattr__')",
    ],
)
def test_only_object_s_setattr_is_handed_out(expression: str) -> None:
    source = f"""\
from dataclasses import dataclass
@dataclass(frozen=True)
class Point:
    x: int
    def __post_init__(self):
        {expression}
Point(0)
"""
    kind, message = run_error(source)
    assert kind == "exception"
    assert "only object.__setattr__ can be read" in message


def test_the_function_handed_out_reaches_nothing() -> None:
    function = guarded_getattr(object, "__setattr__")
    assert function is guarded_getattr(object, "__setattr__")
    source = """\
out = []
for name in ("__globals__", "__closure__", "__code__", "__wrapped__", "__dict__", "__self__"):
    try:
        getattr(object.__setattr__, name)
        out.append("reached " + name)
    except AttributeError:
        out.append("refused")
return out
"""
    assert run_ok(source) == ["refused"] * 6


def test_writing_or_deleting_object_s_setattr_stays_a_compile_error() -> None:
    for line in ("object.__setattr__ = print", "del object.__setattr__", "x = object.__delattr__"):
        assert any('starts with "_"' in e for e in compile_errors(line))
