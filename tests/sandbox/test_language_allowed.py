"""What models write works under the language policy: one construct per test."""

from __future__ import annotations

import types

from sandbox._compile import compile_program

from .test_language_support import run_error, run_ok


def test_async_def_and_await() -> None:
    source = "async def double(x):\n    return x * 2\nreturn await double(21)"
    assert run_ok(source) == 42


def test_async_for_over_an_async_generator() -> None:
    source = """
async def numbers():
    for i in range(3):
        yield i
out = []
async for n in numbers():
    out.append(n)
return out
"""
    assert run_ok(source) == [0, 1, 2]


def test_async_for_with_tuple_unpacking() -> None:
    source = """
async def pairs():
    yield 1, 2
    yield 3, 4
return [a + b async for a_b in pairs() for a, b in [a_b]]
"""
    assert run_ok(source) == [3, 7]


def test_an_async_comprehension_unpacks_its_target_in_every_kind_of_comprehension() -> None:
    source = """
async def pairs():
    yield 1, (2, 3)
    yield 4, (5, 6)
    yield 7, (8, 9)
listed = [a + b + c async for a, (b, c) in pairs() if a > 1 if c < 9]
mapped = {str(a): c async for a, (b, c) in pairs()}
collected = {b async for a, (b, c) in pairs()}
summed = sum([n async for n in (a * c async for a, (_b, c) in pairs())])
return [listed, mapped, sorted(collected), summed]
"""
    assert run_ok(source) == [[15], {"1": 3, "4": 6, "7": 9}, [2, 5, 8], 3 + 24 + 63]


def test_an_async_comprehension_unpacks_through_the_guard() -> None:
    # As a synchronous clause does: through `_iter_unpack_sequence_`.
    def names(code: types.CodeType) -> set[str]:
        found = set(code.co_names)
        for const in code.co_consts:
            if isinstance(const, types.CodeType):
                found |= names(const)
        return found

    code = compile_program(
        "async def items():\n    yield (1, 2)\nreturn [a async for a, b in items()]",
        restricted=True,
    )
    assert "_iter_unpack_sequence_" in names(code)
    source = "async def items():\n    yield (1, 2)\nreturn [b async for a, b in items()]"
    assert run_ok(source) == [2]


def test_async_for_statement_unpacks_its_target() -> None:
    source = """
async def pairs():
    yield 1, 2
total = 0
async for a, b in pairs():
    total += a * b
return total
"""
    assert run_ok(source) == 2


def test_async_with() -> None:
    source = """
import contextlib
events = []
@contextlib.asynccontextmanager
async def opened():
    events.append("open")
    yield "resource"
    events.append("close")
async with opened() as r:
    events.append(r)
return events
"""
    assert run_ok(source) == ["open", "resource", "close"]


def test_class_with_init_and_attributes() -> None:
    source = """
class Point:
    def __init__(self, x, y):
        self.x = x
        self.y = y
p = Point(1, 2)
p.x = 10
return [p.x, p.y]
"""
    assert run_ok(source) == [10, 2]


def test_comparison_dunders_and_sorting() -> None:
    source = """
class Version:
    def __init__(self, n):
        self.n = n
    def __lt__(self, other):
        return self.n < other.n
    def __eq__(self, other):
        return self.n == other.n
    def __repr__(self):
        return f"v{self.n}"
return [repr(v) for v in sorted([Version(3), Version(1), Version(2)])] + [Version(1) == Version(1)]
"""
    assert run_ok(source) == ["v1", "v2", "v3", True]


def test_super_and_inheritance() -> None:
    source = """
class Base:
    def __init__(self, name):
        self.name = name
    def describe(self):
        return "base " + self.name
class Child(Base):
    def __init__(self, name):
        super().__init__(name.upper())
    def describe(self):
        return "child of " + super().describe()
return Child("x").describe()
"""
    assert run_ok(source) == "child of base X"


def test_explicit_base_init_call() -> None:
    source = """
class Problem(Exception):
    def __init__(self, message, code):
        Exception.__init__(self, message)
        self.code = code
e = Problem("bad", 7)
return [str(e), e.code]
"""
    assert run_ok(source) == ["bad", 7]


def test_property_staticmethod_and_classmethod() -> None:
    source = """
class Square:
    def __init__(self, side):
        self.side = side
    @property
    def area(self):
        return self.side * self.side
    @staticmethod
    def kind():
        return "square"
    @classmethod
    def unit(cls):
        return cls(1)
return [Square(3).area, Square.kind(), Square.unit().side]
"""
    assert run_ok(source) == [9, "square", 1]


def test_decorators() -> None:
    source = """
import functools
def twice(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args) * 2
    return wrapper
@twice
def three():
    return 3
return [three(), three.__name__]
"""
    assert run_ok(source) == [6, "three"]


def test_custom_exception_classes() -> None:
    source = """
class AppError(Exception):
    pass
class NotFound(AppError):
    pass
try:
    raise NotFound("missing")
except AppError as e:
    return [type(e).__name__, str(e)]
"""
    assert run_ok(source) == ["NotFound", "missing"]


def test_comprehensions() -> None:
    source = """
xs = [1, 2, 3]
return [[x * x for x in xs], {str(x): x for x in xs}, sorted({x % 2 for x in xs}),
        sum(x for x in xs)]
"""
    assert run_ok(source) == [[1, 4, 9], {"1": 1, "2": 2, "3": 3}, [0, 1], 6]


def test_generators_and_yield_from() -> None:
    source = """
def inner():
    yield 1
    yield 2
def outer():
    yield 0
    yield from inner()
return list(outer())
"""
    assert run_ok(source) == [0, 1, 2]


def test_f_strings_and_str_format() -> None:
    source = """
name = "ada"
data = {"n": 3}
return [f"{name!r:>6}|{data['n']:03d}", "{} and {k}".format(1, k=2), "{0[n]}".format(data),
        "{n}".format_map(data), str.format("{}-{}", 1, 2)]
"""
    assert run_ok(source) == [" 'ada'|003", "1 and 2", "3", "3", "1-2"]


def test_match_statement() -> None:
    source = """
from dataclasses import dataclass
@dataclass
class Point:
    x: int
    y: int
def where(value):
    match value:
        case {"kind": "circle", "r": r}:
            return f"circle {r}"
        case [first, *rest]:
            return f"list {first} {len(rest)}"
        case Point(x=0, y=y):
            return f"on axis {y}"
        case Point(x, y) if x == y:
            return "diagonal"
        case str() | bytes():
            return "text"
        case None:
            return "none"
        case _:
            return "other"
return [where({"kind": "circle", "r": 2}), where([1, 2, 3]), where(Point(0, 5)),
        where(Point(2, 2)), where("s"), where(None), where(1.5)]
"""
    assert run_ok(source) == [
        "circle 2",
        "list 1 2",
        "on axis 5",
        "diagonal",
        "text",
        "none",
        "other",
    ]


def test_match_on_enum_members() -> None:
    source = """
import enum
class Color(enum.Enum):
    RED = 1
    BLUE = 2
match Color.BLUE:
    case Color.RED:
        return "red"
    case Color.BLUE:
        return "blue"
"""
    assert run_ok(source) == "blue"


def test_walrus() -> None:
    source = """\
values = [1, 5, 9]
if (n := len(values)) > 2:
    return [n, [y for x in values if (y := x * 2) > 5]]
"""
    assert run_ok(source) == [3, [10, 18]]


def test_lambdas_closures_and_nonlocal() -> None:
    source = """
def counter():
    count = 0
    def bump():
        nonlocal count
        count += 1
        return count
    return bump
c = counter()
c(); c()
square = lambda x: x * x
return [c(), square(4)]
"""
    assert run_ok(source) == [3, 16]


def test_star_unpacking() -> None:
    source = """
first, *middle, last = [1, 2, 3, 4]
(a, b), c = (5, 6), 7
def total(*args, **kwargs):
    return sum(args) + sum(kwargs.values())
return [first, middle, last, a, b, c, total(*[1, 2], **{"x": 3}), [*middle, *[9]], {**{"k": 1}}]
"""
    assert run_ok(source) == [1, [2, 3], 4, 5, 6, 7, 6, [2, 3, 9], {"k": 1}]


def test_for_loop_tuple_unpacking() -> None:
    source = """\
d = {'a': 1, 'b': 2}
out = []
for i, (k, v) in enumerate(sorted(d.items())):
    out.append([i, k, v])
return out
"""
    assert run_ok(source) == [[0, "a", 1], [1, "b", 2]]


def test_try_except_else_finally() -> None:
    source = """
log = []
for value in ["1", "x"]:
    try:
        n = int(value)
    except ValueError as e:
        log.append("bad")
    else:
        log.append(n)
    finally:
        log.append("done")
return log
"""
    assert run_ok(source) == [1, "done", "bad", "done"]


def test_bound_methods_as_values() -> None:
    source = """
d = {"a": 3, "b": 1, "c": 2}
words = []
add = words.append
for key in sorted(d, key=d.get):
    add(key)
return [words, list(map(str.upper, words)), max(d, key=d.get)]
"""
    assert run_ok(source) == [["b", "c", "a"], ["B", "C", "A"], "a"]


def test_reading_the_class_name_of_an_error() -> None:
    source = """\
try:
    1 / 0
except Exception as e:
    return [type(e).__name__, e.__class__.__name__, type(e).__qualname__]
"""
    assert run_ok(source) == ["ZeroDivisionError", "ZeroDivisionError", "ZeroDivisionError"]


def test_augmented_assignment_of_names_attributes_and_items() -> None:
    source = """
class Box:
    def __init__(self):
        self.count = 0
b = Box()
counts = {}
nums = [1, 2]
total = 0
for word in ["a", "b", "a"]:
    counts[word] = counts.get(word, 0) + 1
    counts[word] += 10
    b.count += 1
    total += 1
nums[0] *= 5
return [counts, b.count, total, nums]
"""
    assert run_ok(source) == [{"a": 22, "b": 11}, 3, 3, [5, 2]]


def test_annotations_on_variables_and_functions() -> None:
    source = """\
x: int = 3
y: list[str]
def f(a: int, b: 'str' = 'q') -> dict[str, int]:
    return {b: a}
return f(x)
"""
    assert run_ok(source) == {"q": 3}


def test_isinstance_with_type_and_one_argument_type() -> None:
    source = """\
class A:
    pass
return [isinstance(A, type), isinstance(1, type), type(A()) is A, type(A) is type]
"""
    assert run_ok(source) == [True, False, True, True]


def test_type_subscripts_work_in_annotations() -> None:
    source = "def make(kind: type[int]) -> int:\n    return kind(3)\nreturn make(int)"
    assert run_ok(source) == 3


def test_dataclasses_and_enums() -> None:
    source = """
from dataclasses import dataclass, field, asdict
from enum import Enum, auto
class Kind(Enum):
    A = auto()
    B = auto()
@dataclass(frozen=True)
class Item:
    name: str
    tags: list = field(default_factory=list)
item = Item("x", ["t"])
return [asdict(item), Kind.B.name, Kind.B.value, Item("x", ["t"]) == item]
"""
    assert run_ok(source) == [{"name": "x", "tags": ["t"]}, "B", 2, True]


def test_with_statement_and_tuple_targets() -> None:
    source = """
import contextlib
@contextlib.contextmanager
def pair():
    yield 1, 2
with pair() as (a, b):
    return a + b
"""
    assert run_ok(source) == 3


def test_getattr_hasattr_setattr_on_own_objects() -> None:
    source = """
class C:
    pass
c = C()
setattr(c, "value", 5)
return [getattr(c, "value"), hasattr(c, "value"), hasattr(c, "missing"), getattr(c, "missing", "d")]
"""
    assert run_ok(source) == [5, True, False, "d"]


def test_del_of_items_attributes_and_names() -> None:
    source = """
class C:
    pass
c = C()
c.a = 1
d = {"k": 1, "j": 2}
del d["k"], c.a
x = 1
del x
return [d, hasattr(c, "a")]
"""
    assert run_ok(source) == [{"j": 2}, False]


def test_builtins_that_iterate_in_c() -> None:
    source = (
        "return [sorted([3, 1]), [list(p) for p in zip([1, 2], 'ab')], list(reversed([1, 2])),\n"
        "        tuple([1]) == (1,), list(bytes([65]))]"
    )
    assert run_ok(source) == [[1, 3], [[1, "a"], [2, "b"]], [2, 1], True, [65]]


def test_while_loops_break_and_continue() -> None:
    source = """\
i = 0
out = []
while True:
    i += 1
    if i % 2:
        continue
    if i > 6:
        break
    out.append(i)
return out
"""
    assert run_ok(source) == [2, 4, 6]


def test_bare_underscore_is_a_valid_name() -> None:
    assert run_ok("for _ in range(2):\n    pass\n_ = 5\nreturn _") == 5


def test_dict_keys_starting_with_underscore_are_readable() -> None:
    source = "doc = {'_id': 7}\nkey = '_id'\nreturn [doc['_id'], doc[key], doc.get('_id')]"
    assert run_ok(source) == [7, 7, 7]


def _names_used(source: str) -> set[str]:
    names: set[str] = set()
    stack = [compile_program(source)]
    while stack:
        code = stack.pop()
        names.update(code.co_names)
        stack.extend(c for c in code.co_consts if isinstance(c, types.CodeType))
    return names


def test_plain_attribute_reads_and_literal_subscripts_compile_to_native_operations() -> None:
    # The fast paths of DESIGN.md §8: nothing for the guard to decide, no guard call.
    names = _names_used("x = [1]\nx.append(2)\ny = x[0] + x[-1] + x[0:1][0]\nz = {'k': 1}['k']")
    assert "_getattr_" not in names
    assert "_getitem_" not in names


def test_reads_the_guard_decides_at_run_time_still_call_it() -> None:
    names = _names_used("k = 0\nx = [1]\ny = x[k]\nz = 's'.format\nw = x.__class__")
    assert {"_getattr_", "_getitem_"} <= names


def test_a_class_may_define_reversed() -> None:
    source = """
class Countdown:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        return iter(range(self.n))
    def __reversed__(self):
        return iter(range(self.n - 1, -1, -1))
return [list(Countdown(3)), list(reversed(Countdown(3)))]
"""
    assert run_ok(source) == [[0, 1, 2], [2, 1, 0]]


def test_an_enum_s_members_by_name_are_a_dict_and_other_objects_have_none() -> None:
    source = """
import enum
class Color(enum.Enum):
    RED = 1
    GREEN = 2
    CRIMSON = 1
members = Color.__members__
out = [list(members), [m.name for m in members.values()], type(members).__name__]
class Plain:
    pass
try:
    Plain.__members__
except AttributeError as error:
    out.append(str(error).split(";")[1].strip())
try:
    "red" in Color
except TypeError as error:
    out.append(str(error))
return out
"""
    assert run_ok(source) == [
        ["RED", "GREEN", "CRIMSON"],
        ["RED", "GREEN", "RED"],
        "dict",
        "use list(SomeEnum) for an enum's members, or SomeEnum[name] for one by name",
        "unsupported operand type(s) for 'in': 'str' and 'EnumType'",
    ]


def test_deriving_from_an_exception_group_says_to_raise_a_plain_one() -> None:
    source = "class Batch(ExceptionGroup):\n    pass"
    kind, message = run_error(source)
    assert kind == "exception"
    assert "(not the exception groups)" in message
    assert "raise a plain ExceptionGroup(message, errors)" in message
