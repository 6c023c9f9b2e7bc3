"""Compiling a program leaves the warnings machinery of the process compiling it alone.

CPython's parser and compiler report what they find odd in a text (``x is 0``,
``(1)(2)``, ``"\\d"``, ``assert (x, 1)``) through the process's ``warnings``
module. On the host that process is the caller's: its filters would decide
whether a short program compiles, and each warning would be written to its
standard error, where a pipe nobody drains stops the thread compiling for ever
(holding the compile lock, every later short program behind it). A program's
text has no effect on the process compiling it beyond the code made of it, and
compiles alike wherever it is compiled.
"""

from __future__ import annotations

import warnings

import pytest

from sandbox import ToolSignature, WorkerPool, check_tool_calls
from sandbox._compile import compile_program, program_warnings_kept_here
from sandbox._host_compile import HOST_COMPILE_BYTES
from sandbox.testing import EchoHandler

from .test_language_support import run_ok

#: Every line warns when compiled (the escape when parsed), none when run.
WARNING_PRONE = (
    "x = 0\n"
    "same = x is 0\n"
    'pattern = "\\d+"\n'
    "never = [(1)(2) for _ in ()]\n"
    "assert (x, 1)\n"
    "return [same, pattern]\n"
)


def test_the_program_text_warns_when_compiled_plainly() -> None:
    # The premise: these lines do warn, so the tests below prove something.
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        compile(WARNING_PRONE.replace("return", "result ="), "<model>", "exec")
    assert {type(w.message) for w in seen} >= {SyntaxWarning, DeprecationWarning}


@pytest.mark.parametrize("restricted", [True, False])
def test_compiling_shows_the_caller_no_warning(restricted: bool) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        compile_program(WARNING_PRONE, restricted=restricted)
    assert [str(w.message) for w in seen] == []


@pytest.mark.parametrize("restricted", [True, False])
def test_warnings_as_errors_do_not_refuse_a_program(restricted: bool) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        compile_program(WARNING_PRONE, restricted=restricted)
    assert run_ok(WARNING_PRONE) == [True, "\\d+"]


def test_the_call_check_reads_a_program_whatever_the_warnings_filters() -> None:
    search = ToolSignature("search", ("query",), ("query",), open=False)
    source = WARNING_PRONE.replace("return", "hits = await tools.serch(query=pattern)\nreturn")
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("error")
        problems = check_tool_calls(source, [search]).problems
    assert [problem.line for problem in problems] == [6]
    assert seen == []


def test_other_modules_warnings_keep_the_callers_filters() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        with program_warnings_kept_here():
            warnings.warn_explicit("the program's", SyntaxWarning, "<model>", 1)
            warnings.warn_explicit("another module's", UserWarning, "elsewhere.py", 1)
    assert [str(w.message) for w in seen] == ["another module's"]


async def test_a_short_program_compiled_by_the_host_warns_no_one() -> None:
    assert len(WARNING_PRONE.encode()) <= HOST_COMPILE_BYTES  # the host compiles it
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("error")
        async with WorkerPool(size=1) as pool:
            result = await pool.run(WARNING_PRONE, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == [True, "\\d+"]
    assert [str(w.message) for w in seen] == []


# -- threads: compiles on a worker thread overlap other threads' warnings blocks -----------------
# The blocks below are entered and left in the order two threads may take; one
# thread plays both, so the order is exact.


def test_a_compile_leaves_no_state_of_a_block_it_overlapped_behind() -> None:
    # The caller's block starts, a compile starts, the caller's block ends, the compile ends.
    with warnings.catch_warnings():
        found_show = warnings.showwarning
        found_filters = list(warnings.filters)
        callers = warnings.catch_warnings(record=True)
        compiling = program_warnings_kept_here()
        recorded = callers.__enter__()
        warnings.simplefilter("always")
        compiling.__enter__()
        callers.__exit__(None, None, None)
        compiling.__exit__(None, None, None)
        # Neither the caller's recorder nor its "always" outlives its block.
        assert warnings.showwarning is found_show
        assert [entry for entry in warnings.filters if entry[0] == "always"] == [
            entry for entry in found_filters if entry[0] == "always"
        ]
        assert recorded == []


def test_a_compile_ending_inside_a_callers_block_leaves_the_block_its_state() -> None:
    # A compile starts, the caller's block starts, the compile ends, the block goes on.
    with warnings.catch_warnings():
        compiling = program_warnings_kept_here()
        compiling.__enter__()
        with warnings.catch_warnings(record=True) as recorded:
            warnings.simplefilter("always")
            compiling.__exit__(None, None, None)
            warnings.warn_explicit("the caller's own", UserWarning, "elsewhere.py", 1)
        assert [str(w.message) for w in recorded] == ["the caller's own"]


def test_overlapping_compiles_each_ignore_the_programs_warnings() -> None:
    # Two compiles (a worker's and a pre-flight check's): the first ends while
    # the second still compiles.
    with warnings.catch_warnings(record=True) as recorded:
        warnings.simplefilter("always")
        first, second = program_warnings_kept_here(), program_warnings_kept_here()
        first.__enter__()
        second.__enter__()
        first.__exit__(None, None, None)
        warnings.warn_explicit("the program's", SyntaxWarning, "<model>", 1)
        second.__exit__(None, None, None)
        warnings.warn_explicit("another module's", UserWarning, "elsewhere.py", 1)
    assert [str(w.message) for w in recorded] == ["another module's"]
