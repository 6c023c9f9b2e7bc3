"""The doors by which library code handed a program its own functions raw, each closed.

``Template.substitute`` calls ``self.pattern.sub(convert, ...)``: with a
program object as ``pattern``, the program was handed the library's ``convert``
closure. A task class revealed by ``type()`` wrapped any object, to which
``asyncio.wait`` then handed its ``_on_completion``. ``lru_cache`` keeps a lambda
of its own on its wrapper. Each test would see the raw function without its fix.
"""

from __future__ import annotations

import pytest

from sandbox import _classes

from .test_language_support import run_ok

PATTERN_WRITES = [
    "t.pattern = Spy()",
    "setattr(t, 'pattern', Spy())",
    "T.pattern = Spy()",
    "vars(t)['pattern'] = Spy()",
    "t.pattern = 'a compiled pattern is expected'",
]


@pytest.mark.parametrize("write", PATTERN_WRITES)
def test_a_template_pattern_must_be_a_compiled_pattern(write: str) -> None:
    source = f"""
import string
handed = []
class Spy:
    def sub(self, function, text):
        handed.append(repr(function))
        return text
class T(string.Template):
    pass
t = T("$who")
try:
    {write}
except TypeError as error:
    return ["refused", str(error), t.substitute(who="ok"), handed]
return ["written", t.substitute(who="ok"), handed]
"""
    outcome = run_ok(source)
    assert isinstance(outcome, list)
    assert outcome[0] == "refused", outcome
    assert isinstance(outcome[1], str)
    assert "must be a re.Pattern" in outcome[1]
    assert outcome[2:] == ["ok", []]


def test_a_template_takes_a_compiled_pattern_and_ordinary_attributes() -> None:
    source = r"""
import re, string
class T(string.Template):
    pass
t = T("%who and $who")
t.pattern = re.compile(r"%(?:(?P<escaped>%)|(?P<named>[a-z]+)|\b\B(?P<braced>)|(?P<invalid>))")
t.count = 1
t.count += 1
return [t.substitute(who="ok"), t.count]
"""
    assert run_ok(source) == ["ok and $who", 2]


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
    outcome = run_ok(source, bindings={"checked": _classes._wrapped})
    assert outcome == [9, {"maxsize": 8, "typed": False}, True]


def test_a_library_function_behind_a_cache_is_listed_checked() -> None:
    source = """
import urllib.parse
return [urllib.parse.urlsplit("http://host/path").netloc,
        hasattr(urllib.parse.urlsplit, "cache_parameters")]
"""
    assert run_ok(source) == ["host", False]
