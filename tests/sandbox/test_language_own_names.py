"""The program's own ``_`` names: they work on its objects and nowhere else.

Names and attributes starting with ``_`` are what models write (``self._orders``,
``self.__secret``, ``def _helper``, ``if __name__ == "__main__":``). The rule: a
``_x`` attribute is used only on the program's own objects (instances of its
classes and those classes, whose bases are all inert); dunders stay limited to
the reviewed lists; names starting and ending with ``_`` belong to the runtime.
"""

from __future__ import annotations

import collections
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox._attribute_names import RESERVED_PRIVATE_ATTRIBUTES
from sandbox._classes import register_program_class
from sandbox._guards import guarded_getattr, guarded_own, guarded_setattr

from .test_language_support import compile_errors, run, run_ok


def test_private_attributes_of_the_programs_objects() -> None:
    source = (
        "class Account:\n"
        "    def __init__(self, orders):\n"
        "        self._orders = orders\n"
        "        self.__secret = 42\n"
        "    def secret(self):\n"
        "        return self.__secret\n"
        "    def _count(self):\n"
        "        return len(self._orders)\n"
        "    def add(self, order):\n"
        "        self._orders.append(order)\n"
        "        self._total = getattr(self, '_total', 0) + order\n"
        "a = Account([1])\n"
        "a.add(2)\n"
        "del a._total\n"
        "return [a._orders, a.secret(), a._count(), a._Account__secret, hasattr(a, '_total')]"
    )
    assert run_ok(source) == [[1, 2], 42, 2, 42, False]


def test_private_names_and_the_main_guard() -> None:
    source = (
        "_rate = 3\n"
        "def _double(x):\n"
        "    return 2 * x\n"
        "def main():\n"
        "    return _double(_rate)\n"
        "if __name__ == '__main__':\n"
        "    return [main(), __name__]\n"
        "return 'not run as a script'"
    )
    assert run_ok(source) == [6, "__main__"]


def test_class_level_private_state_and_super() -> None:
    source = (
        "class Counter:\n"
        "    _instances = 0\n"
        "    def __init__(self):\n"
        "        type(self)._instances += 1\n"
        "    def _label(self):\n"
        "        return 'counter'\n"
        "class Named(Counter):\n"
        "    def _label(self):\n"
        "        return 'named ' + super()._label()\n"
        "Counter()\n"
        "n = Named()\n"
        "return [Counter._instances, Named._instances, n._label()]"
    )
    assert run_ok(source) == [1, 2, "named counter"]


def test_namedtuple_helpers() -> None:
    source = (
        "from collections import namedtuple\n"
        "Point = namedtuple('Point', 'x y', defaults=[0])\n"
        "p = Point(1)\n"
        "return [p._asdict(), list(p._replace(x=5)), list(Point._fields),"
        " list(Point._make([3, 4])), Point._field_defaults]"
    )
    assert run_ok(source) == [{"x": 1, "y": 0}, [5, 0], ["x", "y"], [3, 4], {"y": 0}]


def test_slots_in_program_classes() -> None:
    source = (
        "class Vec:\n"
        "    __slots__ = ('x', '_y')\n"
        "    def __init__(self):\n"
        "        self.x = 1\n"
        "        self._y = 2\n"
        "v = Vec()\n"
        "try:\n"
        "    v.z = 3\n"
        "except AttributeError:\n"
        "    return [v.x, v._y, 'no z']\n"
        "return 'z was set'"
    )
    assert run_ok(source) == [1, 2, "no z"]


@pytest.mark.parametrize(
    "slots",
    ["names", "('__dict__',)", "('gi_frame',)", "('_x_',)", "['a', 1]"],
)
def test_slots_are_literal_allowed_names(slots: str) -> None:
    errors = compile_errors(f"names = ('a',)\nclass V:\n    __slots__ = {slots}\n")
    assert errors


def test_exception_chaining_reads() -> None:
    source = (
        "try:\n"
        "    try:\n"
        "        raise KeyError('inner')\n"
        "    except KeyError as inner:\n"
        "        raise ValueError('outer') from inner\n"
        "except ValueError as error:\n"
        "    return [repr(error.__cause__), repr(error.__context__)]"
    )
    assert run_ok(source) == ["KeyError('inner')", "KeyError('inner')"]


# -- what the rule does not open -----------------------------------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "import random\nreturn str(random._os)",  # façades: compiled, refused at run time
        "import json\nreturn str(getattr(json, '_default_decoder'))",
        "import asyncio\nq = asyncio.Queue()\nreturn q._maxsize",  # asyncio state
        "import asyncio\nt = asyncio.create_task(asyncio.sleep(0))\n"
        "return str(t._ProgramTask__task)",
        "try:\n    1 / 0\nexcept Exception as error:\n    return str(error._x)",
        "import collections.abc\n"
        "class M(collections.abc.Sized):\n"
        "    def __len__(self):\n"
        "        return 0\n"
        "M._dump_registry()",  # a metaclass helper found through a program class
        "return str(print._x)",
    ],
)
def test_private_attributes_of_library_objects_are_refused(source: str) -> None:
    result = run(source)
    assert result.error is not None, result.value
    assert "starts with" in result.error[1] or "invalid attribute name" in result.error[1]


@pytest.mark.parametrize(
    "source",
    [
        "class A:\n    pass\nA()._value_ = 1",  # enum's and the runtime's sunder names
        "class F:\n    def __init__(self):\n        self._asyncio_future_blocking = True",
        "class P:\n    _is_protocol = True\nP()._is_protocol",
        "x = type(1).__dict__",
        "x = __builtins__",
        "_getattr_ = getattr",
        "__name__ = 'x'",
        "class P:\n    pass\nmatch P():\n    case P(_x=1):\n        pass",  # native read
    ],
)
def test_names_of_the_runtime_and_libraries_stay_refused(source: str) -> None:
    assert compile_errors(source)


class _Lookalike:
    """A class made outside the program, even one named like a program's."""


_Lookalike.__module__ = "<model>"


class _Mine:
    """Stands in for a class the program made."""


register_program_class(_Mine)

_LIBRARY_OBJECTS = [[], {}, "text", 3, print, string, _Lookalike, _Lookalike()]
_PRIVATE_NAMES = st.text(
    alphabet=string.ascii_letters + string.digits + "_", min_size=1, max_size=12
).map(lambda tail: "_" + tail)


@given(_PRIVATE_NAMES)
def test_private_names_work_on_program_objects_unless_reserved(name: str) -> None:
    mine = _Mine()
    reserved = name.endswith("_") or name in RESERVED_PRIVATE_ATTRIBUTES
    if reserved:
        with pytest.raises(AttributeError):
            guarded_setattr(mine, name, 1)
    else:
        guarded_setattr(mine, name, 1)
        assert guarded_getattr(mine, name) == 1


@given(_PRIVATE_NAMES)
def test_no_private_name_reads_or_writes_a_library_object(name: str) -> None:
    for obj in _LIBRARY_OBJECTS:
        with pytest.raises((AttributeError, TypeError)):
            guarded_getattr(obj, name)
        with pytest.raises((AttributeError, TypeError)):
            guarded_setattr(obj, name, 1)
        with pytest.raises(AttributeError):
            guarded_own(obj, name)


# -- a library namedtuple's own API ------------------------------------------------------


def test_a_library_namedtuple_instance_offers_its_namedtuple_api() -> None:
    value = run_ok(
        "import urllib.parse, statistics\n"
        'url = urllib.parse.urlparse("https://a.example/b?x=1")\n'
        "fit = statistics.linear_regression([1, 2, 3], [2, 4, 6])\n"
        'return [url._replace(query="y=2").geturl(), url._asdict()["netloc"], url._fields[:2],\n'
        '        url._make(["s", "n", "/p", "", "", ""]).geturl(), fit._asdict(),\n'
        "        fit._field_defaults]"
    )
    assert value == [
        "https://a.example/b?y=2", "a.example", ["scheme", "netloc"], "s://n/p",
        {"slope": 2.0, "intercept": 0.0}, {},
    ]


class _Redefined(collections.namedtuple("_Base", "x")):
    """A library namedtuple subclass whose ``_replace`` is its own code, not namedtuple's."""

    def _replace(self, **changes: object) -> _Redefined:
        return self


@pytest.mark.parametrize(
    ("source", "bindings"),
    [
        # Read from the class: the namedtuple API is an instance's only.
        ('import urllib.parse\nreturn urllib.parse.ParseResult._make', {}),
        # Not the namedtuple API: the library's own private names.
        ('import urllib.parse\nreturn urllib.parse.urlparse("https://a/b")._hostinfo', {}),
        # Redefined by a subclass of the namedtuple: not namedtuple's code.
        ("return lib(1)._replace(x=2)", {"lib": _Redefined}),
        # Not a namedtuple at all.
        ("import json\nreturn json.JSONDecoder()._replace", {}),
    ],
)
def test_only_a_library_namedtuples_own_api_is_readable(
    source: str, bindings: dict[str, object]
) -> None:
    result = run(source, bindings=bindings)
    assert result.error is not None
    assert 'starts with "_": such attributes can be used only on' in result.error[1]


class _Unslotted(collections.namedtuple("_Base", "x")):
    """A library namedtuple subclass without ``__slots__``: its instances take attributes."""


@pytest.mark.parametrize(
    "write", ["thing._replace = 1", "del thing._asdict", "setattr(thing, '_fields', 1)",
              "thing._make += 1"],
)
def test_a_library_namedtuple_is_not_written_through_its_api_names(write: str) -> None:
    thing = _Unslotted(1)
    result = run(write, bindings={"thing": thing})
    assert result.error is not None
    assert (
        'starts with "_": such attributes can be used only on' in result.error[1]
        or "cannot change a _Unslotted object" in result.error[1]
    )
    assert vars(thing) == {}
