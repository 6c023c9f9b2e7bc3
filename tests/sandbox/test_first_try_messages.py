"""First-try fixes: copying slotted program objects, and refusals that say what to write instead.

From the fourth first-try sweep: ``copy``/``deepcopy`` refused the program's own
classes with ``__slots__`` (``@dataclass(slots=True)`` included), and a few
refusals named the problem without the replacement a model needs.
"""

from __future__ import annotations

import pytest

from .test_language_support import compile_errors, run_error, run_ok

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
            "; notes are shown in the error's traceback; to read them back, keep the text in an "
            "attribute of your own exception class, or in a list next to it",
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
    ],
    ids=["notes", "wrapped", "required-keys", "optional-keys", "total"],
)
def test_an_underscore_attribute_names_what_to_write(source: str, hint: str) -> None:
    (error,) = compile_errors(source)
    assert error.endswith('is an invalid attribute name because it starts with "_"' + hint)


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
    ],
    ids=["shield", "mapping-proxy", "hashlib-new", "from-hashlib-import-new"],
)
def test_a_missing_facade_member_names_what_to_write(source: str, hint: str) -> None:
    assert hint in run_error(source)[1]
    # What the hints suggest works.
    named = "import hashlib\nreturn getattr(hashlib, 'sha256')(b'x').hexdigest()[:8]"
    assert run_ok(named) == "2d711642"


@pytest.mark.parametrize(
    ("value", "shown"),
    [
        ("{'channel': Channel.EMAIL}", "a value of type Channel (an enum member: use "
         "Channel.EMAIL.value) is not JSON - at `$.channel`"),
        ("[Tier.GOLD]", "a value of type Tier (an enum member: use Tier.GOLD.value) is not "
         "JSON - at `$[0]`"),
        ("{Channel.EMAIL: 1}", "a dict key of type Channel (an enum member: use "
         "Channel.EMAIL.value) is not allowed"),
        ("Perm.R | Perm.W", "a value of type Perm (an enum member: use its .value) is not JSON"),
    ],
    ids=["str-enum", "enum", "key", "flag-combination"],
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
