"""An exception reaches a program only once nothing in it hides a class (SECURITY.md, rule 9).

Library code fills the arguments of what it raises as it likes: ``decimal``
raises ``InvalidOperation([<class 'decimal.ConversionSyntax'>])``, a class no
façade lists. Every way an exception comes into a program's hands - ``except
... as``, ``except* ... as``, the value a ``with`` statement or an exit stack
hands an exit, ``__context__`` and ``__cause__``, what ``asyncio.gather`` and
library methods return - goes through ``sandbox._library.handed_out``: the classes
in it are swept as ``type()`` sweeps a class it reveals, and a hidden one (a
metaclass, a class of the runtime's own) is refused.

The library stand-in below (``lib_raise``, a binding, so host code) raises a
``KeyError`` whose argument holds the real ``ABCMeta``: with it, a program
could make classes that no check of the class statement sees.
"""

from __future__ import annotations

import abc
import asyncio
import types
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import _library
from sandbox._library import CAUGHT_LIMIT, handed_out

from .test_language_support import run_error, run_ok


def caught(error: BaseException) -> BaseException:
    """``error`` as the program's ``except ... as`` would be handed it."""
    return handed_out(error, "except ... as")  # type: ignore[no-any-return]


def _lib_raise(where: str = "args") -> None:
    """Library code that raises with a hidden class among the exception's arguments."""
    if where == "group":
        raise ExceptionGroup("many", [ValueError("fine"), KeyError([abc.ABCMeta])])
    if where == "cause":
        raise ValueError("outer") from KeyError([abc.ABCMeta])
    raise KeyError(["ok", (1, {"cls": abc.ABCMeta})])


_BINDINGS: dict[str, object] = {"lib_raise": _lib_raise}

#: Each way a program can come to hold what library code raised.
_ROUTES = {
    "except": "try:\n    lib_raise()\nexcept KeyError as e:\n    held = e\n",
    "except*": (
        "try:\n    lib_raise('group')\nexcept* KeyError as group:\n    held = group\n"
    ),
    "context": (
        "try:\n    try:\n        lib_raise()\n    except KeyError:\n        raise ValueError('x')\n"
        "except ValueError as outer:\n    held = outer.__context__\n"
    ),
    "cause": (
        "try:\n    lib_raise('cause')\nexcept ValueError as outer:\n    held = outer.__cause__\n"
    ),
    "__exit__": (
        "class Keep:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, kind, error, tb):\n        global held\n        held = error\n"
        "        return True\nwith Keep():\n    lib_raise()\n"
    ),
    "ExitStack.push": (
        "import contextlib\nheld = None\ndef keep(kind, error, tb):\n    global held\n"
        "    held = error\n    return True\nwith contextlib.ExitStack() as stack:\n"
        "    stack.push(keep)\n    lib_raise()\n"
    ),
    "gather": (
        "import asyncio\nasync def fails():\n    lib_raise()\n"
        "held = (await asyncio.gather(fails(), return_exceptions=True))[0]\n"
    ),
}


@pytest.mark.parametrize("route", sorted(_ROUTES))
def test_no_route_hands_a_program_an_exception_holding_a_hidden_class(route: str) -> None:
    source = _ROUTES[route] + "return repr(held)"
    kind, message = run_error(source, bindings=_BINDINGS)
    assert kind == "exception"
    assert "holds a class run_code hides" in message
    assert "catch it without `as`" in message


def test_the_refusal_names_the_exception_and_the_program_can_catch_it() -> None:
    assert run_ok(
        "try:\n    try:\n        lib_raise()\n    except KeyError as e:\n        return 'held'\n"
        "except TypeError as refused:\n    return str(refused).split(' that ')[0]",
        bindings=_BINDINGS,
    ) == "an exception (KeyError)"


def test_an_exception_caught_without_a_name_needs_no_check() -> None:
    assert run_ok(
        "try:\n    lib_raise()\nexcept KeyError:\n    return 'caught'", bindings=_BINDINGS
    ) == "caught"


def test_exceptions_that_hold_only_data_reach_the_program_as_they_are() -> None:
    assert run_ok(
        "import asyncio, contextlib, decimal\n"
        "seen = []\n"
        "try:\n    decimal.Decimal('x')\nexcept decimal.InvalidOperation as e:\n"
        "    seen.append(e.args[0][0].__name__)\n"
        "def keep(kind, error, tb):\n    seen.append([kind.__name__, str(error)])\n"
        "    return True\n"
        "with contextlib.ExitStack() as stack:\n    stack.push(keep)\n    raise ValueError('v')\n"
        "async def fails():\n    raise KeyError('k')\n"
        "got = await asyncio.gather(fails(), return_exceptions=True)\n"
        "seen.append(repr(got[0]))\n"
        "try:\n    try:\n        {}['missing']\n    except KeyError as first:\n"
        "        raise ValueError('second') from first\n"
        "except ValueError as second:\n    seen.append(repr(second.__cause__))\n"
        "return seen",
    ) == ["ConversionSyntax", ["ValueError", "v"], "KeyError('k')", "KeyError('missing')"]


# -- the check itself -------------------------------------------------------------------

_HIDDEN: tuple[type, ...] = (type, abc.ABCMeta, types.FrameType, types.CodeType)
_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5)
    | st.sampled_from([int, str, ValueError]),
    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner, inner)
    | st.dictionaries(st.text(max_size=3), inner, max_size=3)
    | st.frozensets(st.integers(), max_size=3),
    max_leaves=10,
)


@pytest.fixture(autouse=True)
def _visible_builtins() -> None:
    # A run builds the builtins and façades, which record the classes they expose.
    run_ok("return 1")


def _bury(value: object, depth: int) -> object:
    """``value`` inside ``depth`` levels of the containers ``caught`` looks into."""
    for level in range(depth):
        value = [(value,), {"k": value}, {"x": 1, "y": [value]}][level % 3]
    return value


@given(st.lists(_DATA, max_size=3))
def test_an_exception_of_data_is_handed_out_as_it_is(args: list[object]) -> None:
    error = ValueError(*args)
    assert caught(error) is error
    group = ExceptionGroup("g", [error, KeyError(*args)])
    assert caught(group) is group


@given(_DATA, st.sampled_from(_HIDDEN), st.integers(0, 6), st.booleans())
def test_a_hidden_class_at_any_depth_of_the_arguments_is_refused(
    data: object, hidden: type, depth: int, in_group: bool
) -> None:
    error: Exception = ValueError(data, _bury(hidden, depth))
    if in_group:
        error = ExceptionGroup("outer", [KeyError(1), ExceptionGroup("inner", [error])])
    with pytest.raises(TypeError, match=r"holds a class run_code hides"):
        caught(error)


def test_cycles_in_the_arguments_end_the_walk() -> None:
    loop: list[Any] = []
    loop.append(loop)
    error = ValueError(loop, {"again": loop})
    assert caught(error) is error


def test_an_exception_with_more_values_than_the_limit_is_refused() -> None:
    assert caught(ValueError(list(range(CAUGHT_LIMIT - 1)))) is not None
    with pytest.raises(TypeError, match="too many to check"):
        caught(ValueError(list(range(CAUGHT_LIMIT + 1))))
    with pytest.raises(TypeError, match="too many to check"):
        caught(ExceptionGroup("g", [ValueError(*range(CAUGHT_LIMIT // 2)) for _ in range(3)]))


def test_a_returned_value_is_looked_at_whole_however_large() -> None:
    many = list(range(3 * CAUGHT_LIMIT))
    assert handed_out(many, "json.loads") is many
    with pytest.raises(TypeError, match="returned a class that run_code hides"):
        handed_out([*many, abc.ABCMeta], "json.loads")


def test_the_arguments_are_read_past_a_program_classs_own_args() -> None:
    # A class defining `args` cannot answer for what the exception really holds.
    class Lying(Exception):
        @property
        def args(self) -> tuple[object, ...]:  # type: ignore[override]
            return ()

    with pytest.raises(TypeError, match="holds a class run_code hides"):
        caught(Lying(abc.ABCMeta))


def test_the_classes_in_an_exception_are_swept_before_the_program_has_them(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(_library, "_swept", set())
    monkeypatch.setattr(_library, "_sweeping_revealed", True)

    class LibraryError(ValueError):
        """A library's exception class, which no façade lists."""

        def details(self) -> object:
            return type(self.args[0])

    class Condition(ValueError):
        """A library's class on a visible base, put among the arguments."""

        def reader(self) -> object:
            return self.__class__

    error = LibraryError(type, [Condition])
    with pytest.raises(TypeError, match="holds a class run_code hides"):
        caught(error)  # the real `type` among the arguments
    error = LibraryError(3, [Condition])
    assert caught(error) is error
    assert LibraryError in _library._swept
    assert Condition in _library._swept
    with pytest.raises(TypeError, match="needs a"):
        Condition.reader(int)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="returned a class that run_code hides"):
        LibraryError(int).details()


def test_a_tasks_exception_is_handed_out_as_except_hands_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Tasks are no facade's listed class, but create_task hands them out: the
    # zygote sweeps them, so what exception() returns goes through rule 9.
    from sandbox._facades_async import ProgramTask
    from sandbox._guards import visible_classes

    assert ProgramTask in visible_classes()
    for name, value in vars(ProgramTask).items():
        if name[:1] != "_":
            monkeypatch.setattr(ProgramTask, name, value)  # put back after the sweep
    monkeypatch.setattr(_library, "_swept", set())
    _library._sweep((ProgramTask,))

    async def fail() -> None:
        _lib_raise()

    async def main() -> None:
        task = ProgramTask(asyncio.ensure_future(fail()))
        await asyncio.sleep(0)
        with pytest.raises(TypeError, match="holds a class run_code hides"):
            task.exception()

    asyncio.run(main())


def test_an_enum_class_body_cannot_keep_an_unchecked_exception_as_a_member() -> None:
    # An enum class body's namespace keeps every name stored in it as a member, and
    # refuses to rebind it: an exception the interpreter stored under the handler's
    # name before the check would stay, and reach the members' `__init__`.
    source = (
        "import enum\nseen = []\n"
        "class E(enum.Enum):\n"
        "    try:\n"
        "        try:\n"
        "            lib_raise()\n"
        "        except KeyError as e:\n"
        "            pass\n"
        "    except TypeError:\n"
        "        pass\n"
        "    def __init__(self, *args):\n"
        "        seen.append(args)\n"
        "return [repr(m.value) for m in E], repr(seen)"
    )
    assert run_ok(source, bindings=_BINDINGS) == [[], "[]"]


def test_a_raw_library_function_among_the_arguments_is_refused() -> None:
    # A library's plain Python function is handed out only checked (rule 9):
    # not inside what it returns, nor inside what it raises.
    import json.decoder

    raw = json.decoder.py_scanstring  # type: ignore[attr-defined]
    holding = (KeyError(raw), ValueError("x", [{"f": raw}]), ExceptionGroup("g", [KeyError(raw)]))
    for error in holding:
        with pytest.raises(TypeError, match="library function"):
            caught(error)
    assert caught(KeyError("plain")).args == ("plain",)
