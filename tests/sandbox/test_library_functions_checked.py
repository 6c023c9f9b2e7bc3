"""The doors by which library code handed a program its own functions raw, each closed.

``Template.substitute`` calls ``self.pattern.sub(convert, ...)``: with a
program object as ``pattern`` (however it got there: a write, a dataclass's
generated ``__init__``, a base's property), the program was handed the
library's ``convert`` closure. A task class revealed by ``type()`` wrapped any object, to which
``asyncio.wait`` then handed its ``_on_completion``. ``lru_cache`` keeps a lambda
of its own on its wrapper. Each test would see the raw function without its fix.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio
import pytest

from sandbox import Limits, WorkerPool, _library
from sandbox.testing import EchoHandler

from .test_language_support import run_ok

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from bridge.lossless import JsonValue

GUARD = 30  # seconds; a guard against hangs, never a timing assertion

#: Every way a program object can end up with a `pattern` of its own choosing.
PATTERN_ROUTES = {
    "attribute": "t = T('$who')\nt.pattern = Spy()",
    "setattr": "t = T('$who')\nsetattr(t, 'pattern', Spy())",
    "class attribute": "T.pattern = Spy()\nt = T('$who')",
    "vars": "t = T('$who')\nvars(t)['pattern'] = Spy()",
    "a string": "t = T('$who')\nt.pattern = 'not compiled'",
    # The __init__ dataclass generates stores its fields natively.
    "dataclass field": (
        "@dataclasses.dataclass\nclass D(string.Template):\n    template: str\n"
        "    pattern: object\nt = D('$who', Spy())"
    ),
    "dataclasses.replace": (
        "@dataclasses.dataclass(frozen=True)\nclass F(string.Template):\n    template: str\n"
        "    pattern: object\nt = dataclasses.replace(F('$who', 0), pattern=Spy())"
    ),
    # A base's property, uncovered once the class's compiled pattern is deleted.
    "a base's property": (
        "class Base:\n    @property\n    def pattern(self):\n        return Spy()\n"
        "class P(Base, string.Template):\n    pass\ndel P.pattern\nt = P('$who')"
    ),
}

_PATTERN_PROGRAM = """
import dataclasses, string
handed = []
class Spy:
    def sub(self, function, text):
        handed.append(repr(function))
        return text
class T(string.Template):
    pass
{route}
outcome = []
for method in (t.substitute, t.safe_substitute):
    try:
        outcome.append(method(who="x"))
    except TypeError as error:
        outcome.append(str(error))
return [outcome, handed]
"""


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    # The check lives in the child's zygote (it changes the library class), so
    # these programs run in real children.
    async with WorkerPool(size=1, limits=Limits(wall_seconds=GUARD)) as shared:
        yield shared


async def _run(pool: WorkerPool, source: str) -> JsonValue:
    with anyio.fail_after(GUARD):
        result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    return result.value


@pytest.mark.parametrize("route", sorted(PATTERN_ROUTES))
async def test_a_template_substitutes_only_with_a_compiled_pattern(
    pool: WorkerPool, route: str
) -> None:
    value = await _run(pool, _PATTERN_PROGRAM.format(route=PATTERN_ROUTES[route]))
    assert isinstance(value, list)
    outcome, handed = value
    assert handed == []
    assert isinstance(outcome, list)
    for text in outcome:
        assert isinstance(text, str)
        assert ".pattern must be a compiled regular expression (re.Pattern)" in text


async def test_a_template_with_its_own_compiled_pattern_substitutes_as_in_python(
    pool: WorkerPool,
) -> None:
    source = r"""
import re, string
class Percent(string.Template):
    delimiter = "%"
class T(string.Template):
    pass
t = T("%who and $who")
t.pattern = re.compile(r"%(?:(?P<escaped>%)|(?P<named>[a-z]+)|\b\B(?P<braced>)|(?P<invalid>))")
t.count = 1
t.count += 1
out = [t.substitute(who="ok"), t.safe_substitute(), t.count, Percent("%a %% $b").substitute(a=1)]
try:
    string.Template("$").substitute()
except ValueError as error:
    out.append(str(error))
return out
"""
    assert await _run(pool, source) == [
        "ok and $who", "%who and $who", 2, "1 % $b", "Invalid placeholder in string: line 1, col 1"
    ]


def test_the_task_class_wraps_only_tasks() -> None:
    source = """
import asyncio
async def work():
    return 1
task = asyncio.create_task(work())
await task
class Fake:
    def add_done_callback(self, callback):
        handed.append(repr(callback))
handed = []
try:
    type(task)(Fake())
except TypeError as error:
    return [str(error), handed]
return ["wrapped", handed]
"""
    assert run_ok(source) == ["task objects are made by asyncio.create_task, from a coroutine", []]


def test_a_cache_wrapper_hands_out_its_parameters_through_a_checked_function() -> None:
    source = """
import functools
@functools.lru_cache(maxsize=8)
def square(x):
    return x * x
return [square(3), square.cache_parameters(), checked(square.cache_parameters)]
"""
    outcome = run_ok(source, bindings={"checked": _library._wrapped})
    assert outcome == [9, {"maxsize": 8, "typed": False}, True]


def test_a_library_function_behind_a_cache_is_listed_checked() -> None:
    source = """
import urllib.parse
return [urllib.parse.urlsplit("http://host/path").netloc,
        hasattr(urllib.parse.urlsplit, "cache_parameters")]
"""
    assert run_ok(source) == ["host", False]
