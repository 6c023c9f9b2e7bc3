"""Published escapes, replayed against the language layer alone (in this process).

Each test names the advisory it covers. The whole-sandbox corpus lives in
``tests/escapes``; these show that the language layer refuses each technique
by itself, at compile time or with an exception, and never hands out the
object the technique was after.
"""

from __future__ import annotations

import pytest

from sandbox._compile import ProgramCompileError, compile_program

from .test_language_support import run_error


def refused(source: str) -> str:
    """Assert the program is refused (compile or exception); return the message."""
    try:
        compile_program(source)
    except ProgramCompileError as exc:
        return str(exc)
    kind, message = run_error(source)
    assert kind == "exception"
    return message


# -- CVE-2023-37271: generator and frame attributes reached host frames ------------------


@pytest.mark.parametrize(
    "source",
    [
        "g = (x for x in [1])\nreturn g.gi_frame.f_back.f_globals",
        "g = (x for x in [1])\nreturn getattr(getattr(g, 'gi_frame'), 'f_back')",
        "async def c():\n    pass\nco = c()\n"
        "try:\n    return getattr(co, 'cr_frame')\nfinally:\n    co.close()",
        "async def a():\n    yield 1\nreturn getattr(a(), 'ag_frame')",
        "def g():\n    yield 1\nreturn getattr(g(), 'gi_code')",
        "try:\n    1/0\nexcept Exception as e:\n    return getattr(e, '__traceback__')",
    ],
)
def test_cve_2023_37271_frames_are_unreachable(source: str) -> None:
    message = refused(source)
    assert "restricted attribute" in message or "starts with" in message


# -- CVE-2023-41039: str.format / format_map walked attributes -------------------------


@pytest.mark.parametrize(
    "source",
    [
        "return '{0.__class__.__mro__}'.format(1)",
        "return '{a.__class__}'.format_map({'a': 1})",
        "f = 'x'.format\nreturn '{0.__globals__}'.format(f)",
        "return str.format_map('{a.__init__.__globals__}', {'a': ''})",
        "return '{0:{1.__class__}}'.format(1, 2)",
    ],
)
def test_cve_2023_41039_format_cannot_walk_attributes(source: str) -> None:
    assert "starts with" in refused(source)


# -- GHSA-hp3v-5vw7-fx9w: string.Formatter traversal ------------------------------------


def test_ghsa_hp3v_5vw7_fx9w_string_formatter_is_unavailable() -> None:
    message = refused("import string\nreturn string.Formatter().get_field('0.__class__', [1], {})")
    assert "module 'string' has no attribute 'Formatter' in run_code" in message


def test_ghsa_hp3v_5vw7_fx9w_formatter_cannot_be_imported_by_name() -> None:
    message = refused("from string import Formatter")
    assert "cannot import name 'Formatter' from 'string' in run_code" in message


# -- CVE-2024-47532: AttributeError.obj and the string module leaked objects --------------


def test_cve_2024_47532_attribute_error_obj_is_withheld() -> None:
    source = (
        "import string\ntry:\n    string.missing\n"
        "except AttributeError as e:\n    return getattr(e, 'obj')"
    )
    assert '"obj" of an AttributeError is not available' in refused(source)


# -- CVE-2025-22153: except* trusted a group's split() (a type confusion in CPython) ------


def test_cve_2025_22153_a_group_with_a_lying_split_cannot_be_made() -> None:
    # The published proof of concept crashes CPython 3.11-3.13 (python/cpython#128049).
    message = refused(
        "class Evil(BaseExceptionGroup):\n"
        "    def split(self, *args):\n"
        "        return 'NOT A TUPLE!'\n"
        "try:\n"
        "    raise Evil('wow!', [Exception()])\n"
        "except* Exception:\n"
        "    pass"
    )
    assert "cannot derive from BaseExceptionGroup" in message


def test_cve_2025_22153_except_star_gives_no_traceback_frames() -> None:
    message = refused(
        "try:\n    raise ExceptionGroup('g', [ValueError()])\n"
        "except* ValueError as eg:\n    frame = eg.__traceback__.tb_frame"
    )
    assert '"__traceback__" is an invalid attribute name' in message


# -- GHSA-ffg3-p8fm-mjx2: guard hooks shadowed by positional-only parameters --------------


@pytest.mark.parametrize("hook", ["_getattr_", "_getitem_", "_write_", "_getiter_", "_apply_"])
def test_ghsa_ffg3_p8fm_mjx2_guard_hooks_cannot_be_shadowed(hook: str) -> None:
    message = refused(f"def f({hook}, /):\n    return 1\nreturn f(getattr)")
    assert f'"{hook}" is an invalid name: names starting and ending with "_" belong to' in message


# -- smolagents CVE-2025-5120: builtins and allowed modules used as values reached os -------


@pytest.mark.parametrize(
    "source",
    [
        "import random\nreturn random._os",
        "import random\nreturn getattr(random, '_os')",
        "import random\nreturn getattr(random.Random.seed, '__globals__')",
        "import json\nreturn getattr(json.dumps, '__globals__')['sys']",
        "import re\nreturn re.enum",
        "import datetime\nreturn datetime.sys",
        "import json\nreturn json.codecs",
        "import functools\nreturn getattr(functools.partial(print).func, '__self__')",
        "return getattr(print, '__globals__')",
        "return getattr(len, '__self__')",
    ],
)
def test_cve_2025_5120_allowed_modules_do_not_lead_to_os(source: str) -> None:
    refused(source)


# -- smolagents CVE-2025-9959: incomplete dunder validation -------------------------------


@pytest.mark.parametrize(
    "source",
    [
        "return ().__class__.__bases__[0].__subclasses__()",
        "return getattr(getattr((), '__class__'), '__base__')",
        "return getattr(object, '__subclasses__')()",
        "return [c for c in type(()).mro()[-1].__subclasses__()]",
        "return getattr(type, '__subclasses__')(object)",
        "f = getattr\nreturn f(f(1, '__class__'), '__mro__')",
        "return type.__call__(type, 'X', (), {})",
    ],
)
def test_cve_2025_9959_dunder_walks_are_refused(source: str) -> None:
    refused(source)


# -- a real asyncio handed to RestrictedPython (peer project) ------------------------------

TASK = "import asyncio\nasync def f():\n    pass\nt = asyncio.create_task(f())\n"


@pytest.mark.parametrize(
    "source",
    [
        "import asyncio\nreturn asyncio.get_event_loop()",
        "import asyncio\nreturn asyncio.events",
        TASK + "return t.get_coro()",
        TASK + "return getattr(t, 'get_loop')()",
        TASK + "return getattr(t, '_ProgramTask__task')",
        "import asyncio\nreturn getattr(asyncio.sleep, '__globals__')",
        "import asyncio\nlock = asyncio.Lock()\nreturn getattr(lock, '_loop')",
    ],
)
def test_asyncio_never_hands_out_the_loop_or_a_real_task(source: str) -> None:
    refused(source)


# -- copy protocol abuse: __reduce_ex__ results applied with unguarded setattr ----------------


def test_reduce_hooks_cannot_be_defined_in_a_class() -> None:
    message = refused(
        "class E:\n    def __reduce_ex__(self, proto):\n        return (print, ())\nreturn 1"
    )
    assert '"__reduce_ex__" is an invalid name' in message


def test_deepcopy_refuses_host_objects_it_cannot_rebuild_safely() -> None:
    message = refused("import copy, json\nreturn copy.deepcopy(json.JSONDecoder())")
    assert "cannot copy a JSONDecoder object in run_code" in message
