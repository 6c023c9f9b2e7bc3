"""What library code returns to a program never hides a class (SECURITY.md, rule 9).

Library code applies the real ``type()`` to what a program gives it. With a
program's class among the data, that is the class's metaclass: ``statistics``
takes ``type()`` of each data point as the type of its result and calls it, so
``mean([C])`` could hand back ``type(whatever the program's __truediv__
returns)``, the real ``ABCMeta`` for an ``abc.ABC`` class - a class factory
that skips every check the class statement makes. Every library function a
façade lists, and every public method, property, class method and static
method of the library classes a program reaches, has its return value checked:
a hidden class (a metaclass, or a class the builtins and façades never expose),
as the value or as an item of a tuple, list, set or dict at any depth, is refused.
"""

from __future__ import annotations

import abc
import collections
import contextlib
import sys
import types
from dataclasses import KW_ONLY, InitVar
from typing import TYPE_CHECKING, Any, ClassVar, cast

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import WorkerPool, _facades, _library, _program
from sandbox._library import handed_out, result_checked
from sandbox.testing import EchoHandler

from .test_language_support import run_error, run_ok

if TYPE_CHECKING:
    from collections.abc import Callable

#: A data point whose type is a class's metaclass, and a total whose division
#: returns an ``abc.ABC`` class: the result type the statistics functions call.
_GADGET = """\
import statistics, abc
class Base(abc.ABC):
    pass
class Total:
    def __radd__(self, other):
        return self
    def __add__(self, other):
        return self
    def __mul__(self, other):
        return self
    def is_finite(self):
        return False
    def __truediv__(self, other):
        return Base
total = Total()
class Point:
    @staticmethod
    def as_integer_ratio():
        return (total, None)
"""


@pytest.mark.parametrize("call", ["mean([Point])", "variance([Point, Point])",
                                  "pvariance([Point, Point])"])
def test_statistics_never_hands_back_the_metaclass_of_a_class_in_its_data(call: str) -> None:
    kind, message = run_error(f"{_GADGET}made = statistics.{call}\nreturn repr(made)")
    assert kind == "exception"
    name = call.split("(")[0]
    assert f"TypeError: statistics.{name} returned a class that run_code hides" in message
    assert "pass it data values" in message


def test_statistics_on_numbers_is_unchanged() -> None:
    assert run_ok(
        "import statistics\n"
        "return [statistics.mean([1, 2, 3, 4]), statistics.variance([1, 2, 3, 4]),"
        " statistics.median([3, 1, 2])]"
    ) == [2.5, pytest.approx(1.6666666666666667), 2]


def test_a_library_function_may_return_the_classes_a_program_can_hold() -> None:
    # The classes of the builtins and the façades, and the program's own.
    assert run_ok(
        "import functools, heapq\n"
        "class Mine:\n    pass\n"
        "first = functools.reduce(lambda a, b: a, [int, Mine])\n"
        "top = heapq.nsmallest(2, [str, Mine, int], key=lambda c: c.__name__)\n"
        "return [first is int, [c.__name__ for c in top]]"
    ) == [True, ["Mine", "int"]]


# -- the functional forms of typing's class makers ------------------------------------


def test_typing_namedtuple_and_typeddict_called_make_checked_program_classes() -> None:
    assert run_ok(
        "import typing\n"
        'P = typing.NamedTuple("P", [("x", int), ("y", int)])\n'
        'TD = typing.TypedDict("TD", {"a": int})\n'
        "class Q(P):\n    pass\n"  # a program class may derive from it: it is the program's
        "match Q(1, 2):\n    case P(x, y):\n        total = x + y\n"
        'return [repr(P(1, 2)), TD(a=1), total]'
    ) == ["P(x=1, y=2)", {"a": 1}, 3]


def test_a_namedtuple_made_by_the_functional_form_has_its_field_names_checked() -> None:
    kind, message = run_error(
        'import typing\nP = typing.NamedTuple("P", [("gi_frame", int)])\nreturn 1'
    )
    assert kind == "exception"
    assert "gi_frame" in message


def test_the_class_forms_of_namedtuple_and_typeddict_still_work() -> None:
    assert run_ok(
        "from typing import NamedTuple, TypedDict\n"
        "class P(NamedTuple):\n    x: int\n    y: int = 0\n"
        "class TD(TypedDict, total=False):\n    a: int\n"
        "return [P(1)._asdict(), TD(a=2)]"
    ) == [{"x": 1, "y": 0}, {"a": 2}]


# -- the checks themselves ---------------------------------------------------------------

#: A class a program may hold (the builtins'), and classes it may not.
_HIDDEN: tuple[type, ...] = (type, abc.ABCMeta, types.FrameType, types.TracebackType)
_VISIBLE_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
    | st.sampled_from([int, str, list, dict]),
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=4)
    | st.frozensets(st.integers(), max_size=3),
    max_leaves=12,
)


@pytest.fixture(autouse=True)
def _visible_builtins() -> None:
    # A run builds the builtins and façades, which record the classes they
    # expose; the checks below read that record.
    run_ok("return 1")
    assert {int, str, list, dict} <= _program.VISIBLE_CLASSES


@given(_VISIBLE_DATA)
def test_what_hides_no_class_is_handed_out_as_it_is(value: object) -> None:
    assert handed_out(value, "lib.f") is value


@given(_VISIBLE_DATA, st.sampled_from(_HIDDEN), st.sampled_from(["value", "list", "tuple",
                                                                  "set", "key", "item"]))
def test_a_hidden_class_as_the_value_or_one_of_its_items_is_refused(
    data: object, hidden: type, where: str
) -> None:
    value: object = {
        "value": hidden,
        "list": [data, hidden],
        "tuple": (hidden, data),
        "set": {hidden},
        "key": {hidden: 1},
        "item": {"k": hidden},
    }[where]
    with pytest.raises(TypeError, match=r"^lib\.f returned a class that run_code hides"):
        handed_out(value, "lib.f")


class _ListOfItsOwn(list[object]):
    """A list subclass whose own iteration would hide what it holds."""

    def __iter__(self) -> Any:
        return iter(())

    def __len__(self) -> int:
        return 0


_Pair = collections.namedtuple("_Pair", "first second")


def _wrapped(inner: object, data: object, how: str) -> object:
    """``inner`` one level deeper, in a container of kind ``how``."""
    hashable = True
    try:
        hash(inner)
    except TypeError:
        hashable = False
    if how == "set" and hashable:
        return frozenset({inner})
    if how == "key" and hashable:
        return {inner: data}
    if how == "tuple":
        return (data, inner)
    if how == "named-tuple":
        return _Pair(data, inner)
    if how == "list-subclass":
        return _ListOfItsOwn([inner])
    if how == "dict-subclass":
        return collections.OrderedDict(k=inner)
    if how == "exception":
        return ValueError("wrapped", inner)
    return [data, inner]


@given(
    _VISIBLE_DATA,
    st.sampled_from(_HIDDEN),
    st.lists(
        st.sampled_from(["list", "tuple", "set", "key", "item", "named-tuple", "list-subclass",
                         "dict-subclass", "exception"]),
        min_size=1,
        max_size=6,
    ),
)
def test_a_hidden_class_at_any_depth_is_refused(
    data: object, hidden: type, path: list[str]
) -> None:
    # Regression: only the first level of an exact container was looked at.
    value: object = hidden
    for how in path:
        value = {"k": value} if how == "item" else _wrapped(value, data, how)
    with pytest.raises(TypeError, match=r"(returned a class that run_code hides|holds a class)"):
        handed_out(value, "lib.f")


def test_a_cycle_among_the_containers_ends_the_walk() -> None:
    looped: list[object] = [1]
    looped.append(looped)
    nested: dict[str, object] = {"self": looped}
    looped.append(nested)
    assert handed_out(looped, "lib.f") is looped


def test_a_result_checked_function_checks_what_it_returns_and_keeps_its_name() -> None:
    def lookup(value: object) -> object:
        """Doc."""
        return type(value)

    checked = result_checked(lookup, "lib.lookup")
    assert checked(3) is int
    with pytest.raises(TypeError, match=r"lib\.lookup returned a class"):
        checked(int)  # type(int) is the real `type`
    assert (checked.__name__, checked.__doc__) == ("lookup", "Doc.")


class _Library:
    """A library class whose every kind of public method hands out ``type()`` of its argument."""

    def method(self, value: object) -> object:
        return type(value)

    @property
    def prop(self) -> object:
        return type(type(self))

    @classmethod
    def klass(cls, value: object) -> object:
        return type(value)

    @staticmethod
    def static(value: object) -> object:
        return type(value)


def test_every_kind_of_swept_library_method_checks_what_it_returns(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_library, "_swept", set())
    _library._sweep((_Library,))
    instance: Any = _Library()
    calls: dict[str, Callable[[object], object]] = {
        "bound": lambda v: instance.method(v),
        "unbound": lambda v: _Library.method(instance, v),
        "classmethod": lambda v: _Library.klass(v),
        "staticmethod": lambda v: instance.static(v),
    }
    for how, call in calls.items():
        assert call(3) is int, how
        with pytest.raises(TypeError, match="returned a class that run_code hides"):
            call(int)
    with pytest.raises(TypeError, match=r"_Library\.prop returned a class"):
        instance.prop  # noqa: B018


def test_every_library_function_a_facade_lists_is_result_checked() -> None:
    wrapper_code = result_checked(len, "probe").__code__
    unchecked = []
    for label, facade in _facades.build_facades().items():
        for name in dir(type(facade)):
            value = vars(type(facade)).get(name)
            if isinstance(value, staticmethod):
                value = value.__func__
            if _facades._library_function(value) and (
                getattr(value, "__code__", None) is not wrapper_code
            ):
                unchecked.append(f"{label}.{name}")
    assert unchecked == []
    # The check above can fail: statistics.mean is library code, and is wrapped.
    statistics_facade = _facades.build_facades()["statistics"]
    assert type(statistics_facade).__dict__["mean"].__func__.__code__ is wrapper_code


def test_the_program_sees_the_wrapped_function_under_its_own_name() -> None:
    assert run_ok(
        "import statistics\n"
        'return [statistics.mean.__name__, repr(statistics.mean).startswith("<function mean ")]'
    ) == ["mean", True]


def test_an_object_a_library_returns_has_its_class_swept_first(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_library, "_swept", set())
    monkeypatch.setattr(_library, "_sweeping_revealed", True)

    class Made(_Library):
        """A class of a library's own that no façade lists."""

    made = result_checked(Made, "lib.make")()
    assert Made in _library._swept
    with pytest.raises(TypeError, match="returned a class that run_code hides"):
        made.method(int)
    with pytest.raises(TypeError, match="needs a"):
        Made.method(cast("Any", object()), 3)


async def test_a_class_a_library_makes_on_bases_a_program_holds_is_handed_out() -> None:
    # csv.Sniffer().sniff() returns a new csv.Dialect subclass, made by csv. A
    # library method's result is checked in a child, whose zygote swept the
    # library classes (rule 7): so through a pool.
    source = (
        "import csv, io\n"
        'sample = "name;age\\nann;3\\nbob;4\\n"\n'
        "dialect = csv.Sniffer().sniff(sample)\n"
        "return [dialect.delimiter, list(csv.reader(io.StringIO(sample), dialect))]"
    )
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == [";", [["name", "age"], ["ann", "3"], ["bob", "4"]]]


async def test_a_quoted_class_var_or_init_var_is_no_field_as_in_a_script() -> None:
    # dataclasses tells them by the names in the class's module: the program
    # module's stand-in, which only a child installs (this process has its own).
    source = """
import dataclasses, typing
from dataclasses import dataclass, fields
@dataclass
class Meter:
    reading: int
    unit: 'typing.ClassVar[str]' = 'kWh'
    seen: 'ClassVar[dict]' = {}
    scale: 'InitVar[int]' = 2
    offset: ' dataclasses . InitVar[int]' = 1
    note: 'typing.Optional[str]' = None
    def __post_init__(self, scale, offset):
        self.reading = self.reading * scale + offset
return [repr(Meter(5)), [f.name for f in fields(Meter)], Meter.unit, Meter.seen]
"""
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == ["Meter(reading=11, note=None)", ["reading", "note"], "kWh", {}]


def test_a_class_of_the_runtimes_own_or_a_metaclass_is_withheld_whatever_its_bases() -> None:
    class Meta(type):
        """A metaclass on a base the program holds (the stand-in aside, `type`)."""

    for hidden in (types.FunctionType, types.CodeType, Meta):
        with pytest.raises(TypeError, match="returned a class that run_code hides"):
            handed_out(hidden, "lib.f")


def test_a_programs_classes_are_in_main_as_a_scripts_are() -> None:
    # str() of a class, of a generic alias over it and of its instances' type
    # read the class's __module__: a script's classes are in __main__.
    assert run_ok(
        "from typing import Generic, TypeVar\n"
        "from dataclasses import dataclass\n"
        "from collections import namedtuple\n"
        "from enum import Enum\n"
        "T = TypeVar('T')\n"
        "class Cache(Generic[T]):\n    pass\n"
        "@dataclass\nclass Node:\n    kids: 'list[Node]'\n"
        "Row = namedtuple('Row', 'a b')\n"
        "Color = Enum('Color', 'RED GREEN')\n"
        "return [str(Cache[int]), str(Cache[Node]), repr(type(Node([]))), repr(Node([])),\n"
        "        str(Row), str(Color), __name__]"
    ) == [
        "__main__.Cache[int]", "__main__.Cache[__main__.Node]", "<class '__main__.Node'>",
        "Node(kids=[])", "<class '__main__.Row'>", "<enum 'Color'>", "__main__",
    ]  # fmt: skip


def test_the_program_module_stand_in_replaces_the_processs_main() -> None:
    from sandbox import _classes

    saved = {name: sys.modules.get(name) for name in ("__main__", "<model>")}
    sys.modules.pop("<model>", None)
    try:
        _classes.install_program_module({"len": len})
        stand_in = sys.modules["__main__"]
        assert stand_in is sys.modules["<model>"]
        assert stand_in is not saved["__main__"]
        assert stand_in.__dict__ == {
            "__builtins__": {"len": len}, "ClassVar": ClassVar, "InitVar": InitVar,
            "KW_ONLY": KW_ONLY,
        }
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module


def test_a_class_or_new_type_typing_makes_is_in_the_programs_module() -> None:
    assert run_ok(
        "import typing\n"
        'P = typing.NamedTuple("P", [("x", int)])\n'
        'TD = typing.TypedDict("TD", {"a": int})\n'
        "class Q:\n    pass\n"
        'UserId = typing.NewType("UserId", int)\n'
        "return [repr(P), repr(TD), repr(Q), repr(UserId), repr(UserId | None),\n"
        "        repr(type(UserId)), isinstance(UserId, typing.NewType), UserId(7)]"
    ) == ["<class '__main__.P'>", "<class '__main__.TD'>", "<class '__main__.Q'>",
          "__main__.UserId", "typing.Optional[__main__.UserId]", "<class 'typing.NewType'>",
          True, 7]


class _LibraryError(Exception):
    """A library's exception class that no façade lists, with a public Python method."""

    def details(self) -> object:
        return type(self)


def _raise_library_error() -> None:
    raise _LibraryError("from the library")


def test_a_with_statement_hands_the_programs_exit_a_swept_exception_class(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_library, "_swept", set())
    monkeypatch.setattr(_library, "_sweeping_revealed", True)
    source = (
        "got = []\n"
        "class Catch:\n"
        "    def __enter__(self):\n        return self\n"
        "    def __exit__(self, kind, error, tb):\n        got.append(kind)\n        return True\n"
        "with Catch():\n    fail()\n"
        "try:\n    got[0].details(Catch())\n    return 'ran with any self'\n"
        "except TypeError as error:\n    return str(error)"
    )
    assert run_ok(source, bindings={"fail": _raise_library_error}) == (
        "_LibraryError.details needs a _LibraryError object, not a Catch object"
    )
    assert _LibraryError in _library._swept


def test_an_exit_method_keeps_its_behaviour_for_the_programs_own_exceptions() -> None:
    assert run_ok(
        "import contextlib\n"
        "class Quiet:\n"
        "    def __enter__(self):\n        return self\n"
        "    def __exit__(self, kind, error, tb):\n"
        "        self.seen = (kind.__name__, str(error))\n        return kind is ValueError\n"
        "q = Quiet()\n"
        "with q:\n    raise ValueError('no')\n"
        "class AsyncQuiet:\n"
        "    async def __aenter__(self):\n        return self\n"
        "    async def __aexit__(self, kind, error, tb):\n        return True\n"
        "async with AsyncQuiet():\n    raise KeyError('k')\n"
        "return list(q.seen)"
    ) == ["ValueError", "no"]


class _ThreeMethods:
    """A library class whose sweep a test cuts short."""

    def first(self) -> object:
        return 1

    def second(self) -> object:
        return 2

    @property
    def third(self) -> object:
        return 3

    @classmethod
    def fourth(cls) -> object:
        return 4


def test_a_sweep_cut_short_leaves_the_class_unrecorded_and_the_next_finishes_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A program chooses its stack's depth: a RecursionError can stop a sweep after
    # any member. A class half swept must never count as swept (rule 7).
    for name in ("first", "second", "third", "fourth"):
        monkeypatch.setattr(_ThreeMethods, name, vars(_ThreeMethods)[name])  # restored after
    monkeypatch.setattr(_library, "_swept", set())
    real = _library._SelfChecked
    made: list[object] = []

    def cut_short(function: Any, owner: type) -> object:
        if made:
            raise RecursionError("maximum recursion depth exceeded")
        made.append(function)
        return real(function, owner)

    monkeypatch.setattr(_library, "_SelfChecked", cut_short)
    with pytest.raises(RecursionError):
        _library._sweep((_ThreeMethods,))
    assert _ThreeMethods not in _library._swept
    monkeypatch.setattr(_library, "_SelfChecked", real)
    _library._sweep((_ThreeMethods,))
    assert _ThreeMethods in _library._swept
    members = vars(_ThreeMethods)
    assert all(type(members[name]) is real for name in ("first", "second"))
    assert _library._wrapped(members["third"].fget)
    assert _library._wrapped(members["fourth"].__func__)
    # Swept again, nothing is wrapped twice.
    before = dict(members)
    _library._swept.discard(_ThreeMethods)
    _library._sweep((_ThreeMethods,))
    assert all(vars(_ThreeMethods)[name] is before[name] for name in before if name[:1] != "_")


class _Base:
    """A library base class, swept through a subclass a test cuts short."""

    def inherited(self) -> object:
        return 1

    def also_inherited(self) -> object:
        return 2


class _Derived(_Base):
    def own(self) -> object:
        return 3


_SELF_CHECKED = _library._SelfChecked


def _fully_swept(cls: type) -> bool:
    return all(
        type(value) is _SELF_CHECKED
        for klass in cls.__mro__[:-1]
        for name, value in vars(klass).items()
        if name[:1] != "_"
    )


@pytest.mark.parametrize("cut_after", range(4))
def test_a_class_counts_as_swept_only_once_its_bases_are(
    monkeypatch: pytest.MonkeyPatch, cut_after: int
) -> None:
    # The cut may come at any member of any class in the MRO: whichever class
    # is then recorded as swept has every inherited member checked too, so
    # reveal_class never hands out a class whose base still has raw methods.
    for library_class in (_Base, _Derived):
        for name, value in list(vars(library_class).items()):
            if name[:1] != "_":
                monkeypatch.setattr(library_class, name, value)  # restored after
    monkeypatch.setattr(_library, "_swept", set())
    real = _library._SelfChecked
    made: list[object] = []

    def cut_short(function: Any, owner: type) -> object:
        if len(made) == cut_after:
            raise RecursionError("maximum recursion depth exceeded")
        made.append(function)
        return real(function, owner)

    monkeypatch.setattr(_library, "_SelfChecked", cut_short)
    with contextlib.suppress(RecursionError):
        _library._sweep((_Derived,))
    for swept in _library._swept:
        assert _fully_swept(swept), (swept, cut_after)
    monkeypatch.setattr(_library, "_SelfChecked", real)
    _library._sweep((_Derived,))
    assert _Derived in _library._swept
    assert _fully_swept(_Derived)
