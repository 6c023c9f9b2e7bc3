"""What the interpreter itself hands a program: its own classes, a traceback, a wrapped descriptor.

``type(lambda: 0)`` was the real ``FunctionType`` (a function of any code
object), an exit got the real traceback, and ``classmethod`` ran a wrapped
descriptor's ``__get__`` with the class as its instance (Python 3.11 chains
it), which let ``functools.cached_property`` read a class's own namespace.
"""

from __future__ import annotations

import anyio
import pytest

from sandbox import Limits, WorkerPool
from sandbox.testing import EchoHandler

from .test_language_support import run_error, run_ok


def test_the_interpreter_s_classes_are_stand_ins_that_cannot_be_called() -> None:
    assert run_ok(
        "def f():\n    pass\n"
        "def g():\n    yield 1\n"
        "F = type(f)\n"
        "made = []\n"
        "try:\n    F(1, {})\nexcept TypeError as error:\n    made.append(str(error))\n"
        "kinds = {type(f): 'function', type(g()): 'generator'}\n"
        "return [repr(F), isinstance(f, F), isinstance(1, F), F is type(lambda: 0),"
        " kinds[type(lambda: 0)], kinds[type(g())], repr(type(g())), made]"
    ) == [
        "<class 'function'>", True, False, True, "function", "generator", "<class 'generator'>",
        ["function() cannot be called in run_code: objects of the interpreter's own classes "
         "(functions, code, frames, tracebacks, cells) come only from the program's own "
         "statements (def, lambda)"],
    ]


def test_a_module_s_class_names_no_host_module() -> None:
    source = "import json, collections\nreturn [repr(type(json)), repr(type(collections))]"
    assert run_ok(source) == ["<class 'json.module'>", "<class 'collections.module'>"]


def test_an_exit_gets_no_traceback() -> None:
    # The traceback is the runtime's own object, its frames the host's.
    assert run_ok(
        "import contextlib\n"
        "seen = []\n"
        "class Guard:\n"
        "    def __enter__(self):\n        return self\n"
        "    def __exit__(self, kind, error, tb):\n"
        "        seen.append([kind.__name__, str(error), tb])\n"
        "        return True\n"
        "with Guard():\n    1 / 0\n"
        "def pushed(kind, error, tb):\n"
        "    seen.append([kind.__name__, str(error), tb])\n"
        "    return True\n"
        "with contextlib.ExitStack() as stack:\n"
        "    stack.push(pushed)\n"
        "    raise KeyError('k')\n"
        "return seen"
    ) == [["ZeroDivisionError", "division by zero", None], ["KeyError", "'k'", None]]


def test_a_classmethod_binds_what_it_wraps_to_the_class() -> None:
    assert run_ok(
        "import functools\n"
        "class Units:\n"
        "    factor = 10\n"
        "    @classmethod\n"
        "    def scale(cls, n):\n        return n * cls.factor\n"
        "    @classmethod\n"
        "    @functools.lru_cache(maxsize=None)\n"
        "    def cached(cls, n):\n        return n + cls.factor\n"
        "class Bigger(Units):\n    factor = 100\n"
        "return [Units.scale(2), Bigger.scale(2), Bigger().scale(3), Units.cached(1),"
        " Bigger.cached(1)]"
    ) == [20, 200, 300, 11, 101]


@pytest.mark.parametrize(
    "wrapped",
    ["functools.cached_property(lambda self: 1)", "property(lambda self: 1)", "1"],
)
def test_a_classmethod_does_not_pass_the_class_to_a_descriptor(wrapped: str) -> None:
    # A cached_property given the class as its instance read the class's own
    # namespace (a namedtuple's raw _replace) past every guard.
    kind, message = run_error(
        "import functools, typing\n"
        "class Point(typing.NamedTuple):\n    x: int\n"
        f"Point.peek = classmethod({wrapped})\n"
        "return repr(Point.peek)"
    )
    assert kind == "exception"
    assert "classmethod() in run_code wraps a function, not a" in message, message


@pytest.mark.slow
async def test_revealing_a_facade_s_class_trips_nothing() -> None:
    # The sweep that type() starts read each wrapper's __code__ to tell it from
    # a raw method, an event the tripwire ends a run on.
    from sandbox import ALLOWED_MODULES

    imports = "\n".join(f"import {name}" for name in ALLOWED_MODULES)
    names = ", ".join(f"type({name}).__name__" for name in ALLOWED_MODULES)
    async with WorkerPool(size=0, limits=Limits()) as pool:
        with anyio.fail_after(60):
            result = await pool.run(
                f"{imports}\nreturn sorted(set([{names}]))", tool_names=[], handler=EchoHandler()
            )
    assert result.error is None, result.error
    assert result.value == ["module"]


class _NotAWrapper:
    """An object that must be told from a sweep's wrapper without being asked anything."""

    @property
    def __code__(self) -> object:
        raise AssertionError("read __code__ (an event the tripwire ends a run on)")

    def __eq__(self, other: object) -> bool:
        raise AssertionError("compared by ==")

    __hash__ = object.__hash__


def test_a_sweep_tells_its_wrappers_by_identity() -> None:
    from sandbox import _library

    assert not _library._wrapped(_NotAWrapper())
    assert _library._wrapped(_library.result_checked(len, "len"))
    assert _library._wrapped(_library.self_checked(len, object))
    assert not _library._wrapped(len)


def test_a_context_manager_s_generator_is_thrown_the_exception_alone() -> None:
    # A generator paused in `yield from x` hands what it is thrown to x.throw, a
    # method a program class defines: Python 3.11's contextmanager threw the
    # real traceback along.
    assert run_ok(
        "import contextlib, collections.abc\n"
        "seen = []\n"
        "class Inner(collections.abc.Generator):\n"
        "    def send(self, value):\n        return 'step'\n"
        "    def throw(self, *args):\n"
        "        seen.append([type(a).__name__ for a in args])\n"
        "        raise StopIteration\n"
        "@contextlib.contextmanager\n"
        "def managed():\n    yield from Inner()\n"
        "with managed():\n    1 / 0\n"
        "@contextlib.contextmanager\n"
        "def tidy(log):\n"
        "    try:\n        yield 'ready'\n"
        "    except KeyError as error:\n        log.append('caught ' + str(error))\n"
        "    finally:\n        log.append('closed')\n"
        "log = []\n"
        "with tidy(log) as state:\n    log.append(state)\n    raise KeyError('k')\n"
        "try:\n"
        "    with tidy(log):\n        raise ValueError('v')\n"
        "except ValueError as error:\n    log.append('passed on ' + str(error))\n"
        "return [seen, log, tidy.__name__]"
    ) == [[["ZeroDivisionError"]], ["ready", "caught 'k'", "closed", "closed", "passed on v"],
          "tidy"]


async def test_an_async_context_manager_s_generator_is_thrown_the_exception_alone() -> None:
    from sandbox.testing import EchoHandler as Echo

    source = (
        "import contextlib\n"
        "log = []\n"
        "@contextlib.asynccontextmanager\n"
        "async def session():\n"
        "    try:\n        yield 1\n"
        "    except KeyError as error:\n        log.append('caught ' + str(error))\n"
        "    finally:\n        log.append('closed')\n"
        "async with session() as one:\n    log.append(one)\n    raise KeyError('x')\n"
        "return log"
    )
    async with WorkerPool(size=0, limits=Limits()) as pool:
        with anyio.fail_after(60):
            result = await pool.run(source, tool_names=[], handler=Echo())
    assert result.error is None, result.error
    assert result.value == [1, "caught 'x'", "closed"]


def _a_traceback() -> object:
    try:
        raise ValueError("here")
    except ValueError as error:
        return error.__traceback__


def test_the_interpreter_s_objects_are_withheld_as_values() -> None:
    import sys

    from sandbox import _library, _shield

    for value in (_a_traceback(), sys._getframe(), _a_traceback.__code__):
        assert _shield.holds_hidden_class(value, "__eq__")
        assert _shield.holds_hidden_class(("x", [value]), "__eq__")
        with pytest.raises(TypeError, match="the interpreter's own"):
            _library.handed_out(value, "library()")
        with pytest.raises(TypeError, match="the interpreter's own"):
            _library.handed_out([1, value], "library()")
        with pytest.raises(TypeError, match="the interpreter's own"):
            _library.handed_out(ValueError("wrapped", (value,)), "except ... as")


def test_vars_of_a_class_shows_its_class_methods() -> None:
    assert run_ok(
        "class C:\n"
        "    @classmethod\n    def make(cls):\n        return cls()\n"
        "    @staticmethod\n    def one():\n        return 1\n"
        "return sorted(name for name in vars(C) if name[0] != '_')"
    ) == ["make", "one"]


def test_the_context_manager_class_throws_the_exception_alone_whoever_calls_it() -> None:
    # type(managed()) is the class the factory builds: called directly with any
    # callable, it skipped the factory's wrapper and threw the traceback along.
    assert run_ok(
        "import contextlib\n"
        "seen = []\n"
        "class Steps:\n"
        "    def __next__(self):\n        return 'step'\n"
        "    def throw(self, *args):\n"
        "        seen.append([type(a).__name__ for a in args])\n"
        "        raise StopIteration\n"
        "@contextlib.contextmanager\n"
        "def managed():\n    yield\n"
        "Made = type(managed())\n"
        "with Made(lambda: Steps(), (), {}):\n    1 / 0\n"
        "return [seen, repr(Made).startswith(\"<class 'contextlib.\")]"
    ) == [[["ZeroDivisionError"]], True]
