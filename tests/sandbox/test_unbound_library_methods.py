"""A library class's Python method never reaches a program unbound without checking its self.

Read from a class (or from ``super()`` over a class), a plain-Python method is
the function itself, and runs with any ``self`` it is handed:
``UserList.__getitem__(K, slice(None))`` builds ``K.__class__(...)``, for a
class its metaclass, the real ``type``. The attribute guard makes every such
method check its ``self`` whichever class it is read from: the library's own,
or a program class deriving from one (which an earlier guard trusted). ``_x``
names of a library base are refused on a program class outright, since their
read stays native. The scan covers every inert base a program may derive from.
"""

from __future__ import annotations

import types
from typing import Any

import pytest

import sandbox._facades
import sandbox._facades_async
import sandbox._facades_contextlib
import sandbox._facades_data
import sandbox._facades_decorators
import sandbox._facades_enum
import sandbox._facades_members
import sandbox._facades_text
from sandbox._classes import INERT_BASES
from sandbox._guards import guarded_getattr, guarded_own
from sandbox._library import self_checked
from sandbox._program import is_program_function

from .test_language_support import run, run_error, run_ok

_FACADES = (
    sandbox._facades,
    sandbox._facades_async,
    sandbox._facades_contextlib,
    sandbox._facades_data,
    sandbox._facades_decorators,
    sandbox._facades_enum,
    sandbox._facades_members,
    sandbox._facades_text,
)


def _program_class(source: str) -> type:
    made: list[type] = []
    result = run(source + "\nkeep(Made)", bindings={"keep": made.append})
    assert result.error is None, result.error
    return made[0]


#: A ``self`` no library method was written for: an object of the program's own,
#: so that a constructor's write check (which passes it) is not what refuses it.
_Stranger = _program_class("class Made:\n    pass")


def _program_subclass(base: type) -> type | None:
    """A class the program defines over ``base``, or ``None`` if a program cannot."""
    made: list[type] = []
    source = "class Mine(Base):\n    pass\nkeep(Mine)"
    result = run(source, bindings={"Base": base, "keep": made.append})
    return made[0] if result.error is None else None


def _first_found(order: tuple[type, ...]) -> dict[str, object]:
    """What a read of each name finds first, looking through ``order``."""
    found: dict[str, object] = {}
    for klass in order:
        for name, value in vars(klass).items():
            found.setdefault(name, value)
    return found


def _library_methods(cls: type) -> list[tuple[str, str, Any]]:
    """``(name, how, target)`` for each read that finds a library plain-Python function.

    Read from the class, and from ``super()`` over it (the lookup skips the class).
    """
    reads = []
    for how, target, order in (
        ("class", cls, cls.__mro__),
        ("super", super(cls, cls), cls.__mro__[1:]),
    ):
        for name, value in sorted(_first_found(order).items()):
            if type(value) is types.FunctionType and not is_program_function(value):
                reads.append((name, how, target))
    return reads


def _subclasses() -> list[tuple[str, type]]:
    cases = []
    for base in sorted(INERT_BASES, key=lambda b: f"{b.__module__}.{b.__qualname__}"):
        mine = _program_subclass(base)
        if mine is not None and _library_methods(mine):
            cases.append((f"{base.__module__}.{base.__qualname__}", mine))
    return cases


SUBCLASSES = _subclasses()


def test_the_scan_covers_the_bases_with_python_methods() -> None:
    names = {name for name, _ in SUBCLASSES}
    assert {"collections.UserList", "collections.UserDict", "collections.Counter"} <= names
    assert len(SUBCLASSES) >= 20, names


@pytest.mark.parametrize(("base", "mine"), SUBCLASSES, ids=[name for name, _ in SUBCLASSES])
def test_no_library_method_runs_with_a_self_the_program_chose(base: str, mine: type) -> None:
    for name, how, target in _library_methods(mine):
        if name[:1] != "_":
            continue  # public names: the zygote's check_library_selves wraps them in place
        if not name.startswith("__"):
            # `Mine._x` stays a native read once `_own_` lets it through.
            with pytest.raises(AttributeError, match="method of a library base class"):
                guarded_own(target, name)
            continue
        try:
            method = guarded_getattr(target, name)
        except AttributeError:
            continue  # not a name a program may read there
        assert type(method) is types.FunctionType, (how, name, method)
        with pytest.raises(TypeError, match=f"needs a {mine.__qualname__} object"):
            method(_Stranger())


def test_a_subclass_of_userlist_cannot_hand_out_the_real_type() -> None:
    source = (
        "import collections\n"
        "class L(collections.UserList):\n"
        "    pass\n"
        "class D:\n"
        "    def __getitem__(self, i):\n"
        "        return int\n"
        "class K:\n"
        "    data = D()\n"
        "out = []\n"
        "for read in (lambda: L.__getitem__, lambda: super(L, L).__getitem__,\n"
        "             lambda: getattr(L, '__getitem__'), lambda: L[int].__getitem__):\n"
        "    try:\n"
        "        out.append(repr(read()(K, slice(None))))\n"
        "    except (TypeError, AttributeError) as error:\n"
        "        out.append(str(error))\n"
        "return out"
    )
    refused = "L.__getitem__ needs a L object, not a type object"
    assert run_ok(source) == [
        refused,
        refused,
        refused,
        '"__getitem__" is an invalid attribute name because it starts with "_"; use x[key]; '
        "as a key function, lambda k: x[k] (d.get for a dict)",
    ]


def test_methods_read_from_a_class_still_work_on_its_instances() -> None:
    source = (
        "import collections\n"
        "class Stack(collections.UserList):\n"
        "    def __getitem__(self, i):\n"
        "        return collections.UserList.__getitem__(self, i)\n"
        "    def __eq__(self, other):\n"
        "        return super(Stack, Stack).__eq__(self, other)\n"
        "class Top(Stack):\n"
        "    def __len__(self):\n"
        "        return Stack.__len__(self) + 0\n"
        "s = Top([1, 2, 3])\n"
        "return [s[0], list(s[1:]), s == [1, 2, 3], len(s)]"
    )
    assert run_ok(source) == [1, [2, 3], True, 3]


def test_an_underscore_method_of_a_library_base_is_refused_on_the_class() -> None:
    source = (
        "import collections\n"
        "class Tally(collections.Counter):\n"
        "    pass\n"
        "return Tally._keep_positive(Tally())"
    )
    result = run(source)
    assert result.error is not None
    assert "method of a library base class" in result.error[1]


def test_the_self_check_is_not_an_isinstance_a_class_can_answer() -> None:
    # An ABC's isinstance() asks __subclasshook__ and its registry: the check
    # reads the interpreter's MRO of the object's real type instead.
    class Agreeable(type):
        def __instancecheck__(cls, other: object) -> bool:
            return True

    class Owner(metaclass=Agreeable):
        def method(self) -> str:
            return "ran"

    method = self_checked(Owner.method, Owner)
    assert isinstance(_Stranger(), Owner)
    refused = r"Owner\.method needs a \S*Owner object, not a Made object"
    with pytest.raises(TypeError, match=refused):
        method(_Stranger())
    assert method(Owner()) == "ran"


def test_vars_of_a_program_class_holds_no_raw_library_function_or_descriptor() -> None:
    # A namedtuple's own dict holds collections' `_replace`; an enum with a member
    # called `name` holds enum's redirecting property, whose fget is Enum.name's.
    source = (
        "import collections, enum\n"
        "NT = collections.namedtuple('NT', 'a b')\n"
        "class E(enum.Enum):\n"
        "    name = 1\n"
        "    value = 2\n"
        "class Other:\n"
        "    pass\n"
        "replace = vars(NT)['_replace']\n"
        "try:\n"
        "    replace(Other())\n"
        "    ran = 'ran'\n"
        "except TypeError as error:\n"
        "    ran = str(error)\n"
        "return [ran, replace(NT(1, 2), a=3) == NT(3, 2), sorted(vars(E))]"
    )
    result = run_ok(source)
    assert isinstance(result, list)
    ran, works, enum_names = result
    assert isinstance(enum_names, list)
    assert ran == "NT._replace needs a NT object, not a Other object"
    assert works is True
    assert "name" not in enum_names
    assert "value" not in enum_names


class _Library:
    """Stands for a library class no façade lists (a Timeout, a typing alias)."""

    def method(self) -> str:
        return "ran"


def test_a_class_type_reveals_checks_its_selves_once_sweeping_is_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import sandbox._library as classes
    from sandbox._types import class_of

    original = _Library.__dict__["method"]
    monkeypatch.setattr(classes, "_swept", set())
    monkeypatch.setattr(_Library, "method", original)
    # Off (the host, the tests' in-process runs): type() changes no class.
    monkeypatch.setattr(classes, "_sweeping_revealed", False)
    assert class_of(_Library()) is _Library
    assert _Library.__dict__["method"] is original
    # On (a child, after its zygote's sweep): the class checks its selves before
    # the program has it, and its instances work as before.
    monkeypatch.setattr(classes, "_sweeping_revealed", True)
    assert class_of(_Library()) is _Library
    with pytest.raises(TypeError, match=r"_Library\.method needs a _Library object, not a int"):
        _Library.method(1)  # type: ignore[arg-type]
    assert _Library().method() == "ran"
    assert _Library.method(_Library()) == "ran"


@pytest.mark.slow
async def test_in_the_child_a_class_type_reveals_refuses_a_foreign_self() -> None:
    import anyio

    from sandbox import WorkerPool
    from sandbox.testing import EchoHandler

    source = (
        "import asyncio, typing\n"
        "class Fake:\n"
        "    pass\n"
        "out = []\n"
        "for call in (lambda: type(asyncio.timeout(1)).expired(Fake()),\n"
        "             lambda: type(typing.List).copy_with(typing.Callable[[int], int], (str,))):\n"
        "    try:\n"
        "        call()\n"
        "        out.append('ran')\n"
        "    except TypeError as error:\n"
        "        out.append(str(error).partition(',')[0])\n"
        "async with asyncio.timeout(5) as deadline:\n"
        "    out.append(type(deadline).expired(deadline))\n"
        "return out"
    )
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == [
        "Timeout.expired needs a Timeout object",
        "_SpecialGenericAlias.copy_with needs a _SpecialGenericAlias object",
        False,
    ]


@pytest.mark.parametrize(
    "call",
    [
        "property.__init__(calendar.Calendar.firstweekday, lambda self: 0)",
        "BaseException.__init__(caught, 'changed')",
        "Exception.__init__(caught, 'changed')",
        "object.__init__(calendar.Calendar())",
        "super(Mine, Mine).__init__(caught, 'changed')",
        "super(ValueError, caught).__init__('changed')",
        "super(Exception, caught).__init__('changed')",
    ],
)
def test_a_library_constructor_does_not_change_an_object_the_program_did_not_make(
    call: str,
) -> None:
    # A constructor called on an existing object changes it past the write guard:
    # swapping a library property's getter, rewriting a library exception.
    source = (
        "import calendar\n"
        "class Mine(ValueError):\n    pass\n"
        "try:\n    int('x')\nexcept ValueError as error:\n    caught = error\n"
        f"{call}\nreturn str(caught)"
    )
    kind, message = run_error(source)
    assert kind == "exception"
    assert "TypeError: cannot change a" in message
    assert "a program may only change objects it created" in message


def test_a_constructor_of_a_base_still_sets_up_the_programs_own_objects() -> None:
    assert run_ok(
        "class Failure(Exception):\n"
        "    def __init__(self, message, code):\n"
        "        Exception.__init__(self, message)\n        self.code = code\n"
        "class Table(dict):\n"
        "    def __init__(self, **rows):\n        dict.__init__(self, **rows)\n"
        "class Base:\n    def __init__(self):\n        object.__init__(self)\n"
        "class Child(Base):\n"
        "    def __init__(self):\n        super().__init__()\n        Base.__init__(self)\n"
        "plain = {}\ndict.__init__(plain, a=1)\n"
        "return [str(Failure('m', 2)), Failure('m', 2).code, dict(Table(x=1)),"
        " type(Child()).__name__, plain]"
    ) == ["m", 2, {"x": 1}, "Child", {"a": 1}]


def test_super_over_the_programs_own_objects_keeps_its_special_methods() -> None:
    # super() over an object binds to it: allowed where the program may change it.
    assert run_ok(
        "class Box(dict):\n    def __setitem__(self, k, v):\n"
        "        super().__setitem__(k, v * 2)\n"
        "class Items(list):\n    pass\n"
        "box = Box()\nbox['a'] = 2\nitems = Items([1])\n"
        "super(Items, items).__iadd__([2])\nsuper(Box, box).__init__(b=3)\n"
        "return [box['a'], box['b'], list(items)]"
    ) == [4, 3, [1, 2]]
