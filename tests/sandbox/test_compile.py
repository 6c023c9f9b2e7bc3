"""compile_program: the program form, filename, line numbers and error reporting."""

from __future__ import annotations

import functools
import pickle
from typing import Any

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

import sandbox._compile
from sandbox import WorkerPool
from sandbox._compile import (
    MAIN_NAME,
    MODEL_FILENAME,
    SOURCE_NAME,
    ProgramCompileError,
    compile_program,
    compile_with_calls,
)
from sandbox._host_compile import HOST_COMPILES
from sandbox._policy import ProgramPolicy
from sandbox.testing import EchoHandler

from .test_language_support import compile_errors, run, run_error, run_ok


def test_code_is_compiled_under_the_model_filename() -> None:
    code = compile_program("return 1")
    assert code.co_filename == MODEL_FILENAME


def test_code_defines_the_main_function_and_the_source() -> None:
    namespace: dict[str, object] = {"__builtins__": {}}
    exec(compile_program("return 1", restricted=False), namespace)
    assert callable(namespace[MAIN_NAME])
    assert namespace[SOURCE_NAME] == "return 1"


def test_top_level_await_and_return_work() -> None:
    assert run_ok("import asyncio\nawait asyncio.sleep(0)\nreturn 'done'") == "done"


def test_an_empty_program_returns_null() -> None:
    assert run_ok("# nothing to do\n") is None


def test_every_policy_error_is_reported_with_its_line() -> None:
    errors = compile_errors("x = 1\na = _secret_\nb = x.__dict__\nc = 2\nexec('1')\n")
    assert errors == (
        'Line 2: "_secret_" is an invalid name: names starting and ending with "_" belong to '
        "the runtime",
        'Line 3: "__dict__" is an invalid attribute name because it starts with "_"; use '
        "vars(obj) for the attributes of the program's own objects (vars(self).update(kw) "
        "sets them)",
        "Line 5: Exec calls are not allowed. (write the code in the program itself)",
    )


def test_errors_are_listed_in_line_order() -> None:
    errors = compile_errors("class A:\n    _x_ = 1\n_y_ = 2\n")
    lines = [int(e.split(":")[0].removeprefix("Line ")) for e in errors]
    assert lines == sorted(lines)
    assert len(errors) == 2


def test_a_compiler_error_is_reported_alongside_policy_errors() -> None:
    errors = compile_errors("a = _x_\nclass B:\n    return 1\n")
    assert errors[0].startswith('Line 1: "_x_"')
    assert errors[1].startswith("Line 3: SyntaxError: 'return' outside function")


@pytest.mark.parametrize(
    ("source", "line"),
    [
        ("x = 1\ntry:\n    pass\nexcept* ValueError as eg:\n    print(eg)\n    return 1\n", 6),
        ("for i in range(3):\n    try:\n        pass\n    except* ValueError as eg:\n"
         "        break\n", 5),
        ("def f():\n    try:\n        pass\n    except* KeyError as e:\n        x = 1\n"
         "        return x\nreturn 1\n", 6),
    ],
)
def test_a_compiler_error_in_rewritten_code_names_the_line_the_program_wrote(
    source: str, line: int
) -> None:
    # The handler body of `except* E as name` is rewritten into try/finally; the
    # compiler's own check then has no line of its own to report (it said -1).
    # The line is shown under the message, without a caret: the compiler's
    # column is not the program's.
    written = source.splitlines()[line - 1].strip()
    assert compile_errors(source) == (
        f"Line {line}: SyntaxError: 'break', 'continue' and 'return' cannot appear in an "
        f"except* block\n    {written}",
    )


def test_a_syntax_error_names_its_line_and_statement() -> None:
    # As CPython prints it: the line, and a caret under the spot.
    assert compile_errors("x = 1\ny = = 2\n") == (
        "Line 2: SyntaxError: invalid syntax\n    y = = 2\n        ^",
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("xs = [1, 2\nreturn xs\n", "Line 1: SyntaxError: '[' was never closed\n"
         "    xs = [1, 2\n         ^"),
        ("for i in range(3)\n    print(i)\n", "Line 1: SyntaxError: expected ':'\n"
         "    for i in range(3)\n                     ^"),
        ("if True:\nprint(1)\n", "Line 2: IndentationError: expected an indented block "
         "after 'if' statement on line 1\n    print(1)\n    ^^^^^"),
        ("if True:\n    x = 1\n  y = 2\n", "Line 3: IndentationError: unindent does not "
         "match any outer indentation level\n    y = 2\n         ^"),
        ("def f():\n    if x:\n        y = = 2\n", "Line 3: SyntaxError: invalid syntax\n"
         "    y = = 2\n        ^"),
    ],
)
def test_a_syntax_error_shows_its_line_and_a_caret_as_cpython(source: str, expected: str) -> None:
    assert compile_errors(source) == (expected,)


def test_a_long_line_with_a_syntax_error_is_quoted_without_a_caret() -> None:
    line = "x = [" + "1, " * 200
    (error,) = compile_errors(line + "\n")
    assert error == f"Line 1: SyntaxError: '[' was never closed at statement: {line.strip()!r}"


def test_an_await_in_a_plain_function_shows_its_line_and_says_to_make_it_async() -> None:
    (error,) = compile_errors(
        "def get(cid):\n    return await tools.get_customer(customer_id=cid)\nreturn 1\n"
    )
    assert error.startswith("Line 2: SyntaxError: 'await' outside async function (")
    assert "`async def`" in error
    assert error.endswith("\n    return await tools.get_customer(customer_id=cid)")


@pytest.mark.parametrize("source", ["x = 1\nnonlocal x\nreturn x\n", "nonlocal y\nreturn 1\n"])
def test_nonlocal_at_the_top_level_says_so_as_a_script_would(source: str) -> None:
    (error,) = compile_errors(source)
    line = source.splitlines().index(next(s for s in source.splitlines() if "nonlocal" in s)) + 1
    assert error.startswith(
        f"Line {line}: SyntaxError: nonlocal declaration not allowed at module level"
    )


def test_a_null_character_is_a_compile_error() -> None:
    errors = compile_errors("x = 1\x00")
    assert len(errors) == 1
    assert errors[0].startswith("Line 1: ")


FUTURE_ANNOTATIONS = """
\"\"\"Order records.\"\"\"
from __future__ import annotations
from __future__ import generator_stop

from dataclasses import dataclass, field, fields, InitVar, KW_ONLY
import dataclasses
import typing
from typing import ClassVar, NamedTuple, Optional

class Line(NamedTuple):
    sku: str
    quantity: int = 1

@dataclass
class Order:
    id: str
    lines: list[Line] = field(default_factory=list)
    _: KW_ONLY
    vat: InitVar[float] = 0.2
    parent: Optional[Order] = None
    seen: ClassVar[int] = 0
    gross: float = field(init=False, default=0.0)

    def __post_init__(self, vat: float) -> None:
        Order.seen += 1
        self.gross = round(sum(l.quantity for l in self.lines) * (1 + vat), 2)

    def child(self, id: str) -> Order:
        return Order(id, parent=self, vat=0.0)

def untouched(x: open("/etc/passwd"), *a: __import__("os"), **k: tools) -> exec("1"):
    y: eval("2") = 3
    return y

@dataclass
class Qualified:
    id: str
    _: dataclasses.KW_ONLY
    total: typing.ClassVar[float] = 0.0
    note: str = ""

kid = Order("o-1", [Line("KB-01", 2)]).child("o-2")
return [[(f.name, f.type, f.kw_only) for f in fields(Order)], kid.parent.gross, Order.seen,
        untouched(1), Line._fields, [(f.name, f.kw_only) for f in fields(Qualified)]]
"""


async def test_from_future_annotations_at_the_top_keeps_annotations_as_text() -> None:
    # As in a script (PEP 563): forward references work, annotations are the
    # text written and never evaluated, and a dataclass still tells ClassVar,
    # InitVar and KW_ONLY from their text (what a script gives, checked by hand:
    # the program's module, which dataclasses reads, is the child's stand-in).
    expected = [
        [["id", "str", False], ["lines", "list[Line]", False],
         ["parent", "Optional[Order]", True], ["gross", "float", True]],
        2.4, 2, 3, ["sku", "quantity"], [["id", False], ["note", True]],
    ]  # fmt: skip
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            result = await pool.run(FUTURE_ANNOTATIONS, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == expected


@pytest.mark.parametrize(
    "source",
    [
        "x = 1\nfrom __future__ import annotations\n",
        "from __future__ import braces\n",
        "from __future__ import barry_as_FLUFL\n",
        "def f():\n    from __future__ import annotations\n",
    ],
)
def test_other_from_future_imports_are_refused(source: str) -> None:
    errors = compile_errors(source)
    assert errors[0].endswith(
        "'from __future__' imports must be the program's first lines (after its docstring), "
        "and name only features Python 3.11 has, as in a script: "
        "`from __future__ import annotations` at the top works"
    ), errors


def test_without_from_future_annotations_they_are_evaluated() -> None:
    errors = run_error("class Node:\n    children: list[Node]\nreturn 1")
    assert "NameError" in errors[1]


def test_host_future_flags_do_not_leak_into_programs() -> None:
    # This test module uses `from __future__ import annotations`; the program
    # must still evaluate its annotations eagerly.
    value = run_ok(
        "def f(x: int) -> None:\n    pass\nreturn repr(f.__annotations__['x'])", restricted=False
    )
    assert value == "<class 'int'>"


def test_yield_at_the_top_level_is_refused() -> None:
    errors = compile_errors("yield 1\n")
    assert errors == (
        "Line 1: 'yield' is only allowed inside a function; the program itself returns its value",
    )


def test_the_main_function_name_cannot_be_read_or_bound() -> None:
    errors = compile_errors(f"{MAIN_NAME} = 1\nreturn {SOURCE_NAME}\n")
    assert len(errors) == 2


def test_the_main_function_is_gone_from_the_globals_while_the_program_runs() -> None:
    value = run_ok(f"return {MAIN_NAME!r} in globals()", restricted=False)
    assert value is False


def test_original_line_numbers_reach_tracebacks() -> None:
    kind, message = run_error("x = 1\n\n\nraise ValueError('boom')\n")
    assert kind == "exception"
    assert 'File "<model>", line 4, in <module>' in message


def test_restricted_false_compiles_plain_python() -> None:
    assert run_ok("_x = 41\nreturn _x + 1", restricted=False) == 42


def test_compile_error_message_joins_every_error() -> None:
    with pytest.raises(ProgramCompileError) as info:
        compile_program("a = _x_\nb = _y_\n")
    assert str(info.value) == "\n".join(info.value.errors)


def test_compile_error_survives_pickling() -> None:
    error = ProgramCompileError(("Line 1: one", "Line 2: two"))
    copy = pickle.loads(pickle.dumps(error))
    assert copy.errors == error.errors


def test_source_must_be_a_string() -> None:
    with pytest.raises(TypeError, match=r"^source must be a str, got source=b'return 1'$"):
        compile_program(b"return 1")  # type: ignore[arg-type]


def test_global_in_a_function_reaches_a_top_level_name() -> None:
    source = """\
counter = 0
def bump():
    global counter
    counter += 1
bump()
bump()
return counter
"""
    assert run_ok(source) == 2


def test_global_of_a_name_the_program_never_binds_at_top_level_stays_global() -> None:
    source = "def setup():\n    global seen\n    seen = 3\nsetup()\nreturn seen"
    assert run_ok(source) == 3


def test_a_program_that_only_fails_at_run_time_still_compiles() -> None:
    assert run("return undefined_name").error is not None


@pytest.mark.parametrize(
    "source", ["x = " + "-" * 100_000 + "1", "x = " + "+".join(["a"] * 20_000)]
)
def test_a_program_nested_too_deeply_is_a_compile_error(source: str) -> None:
    assert compile_errors(source) == (
        "Line 1: the program is nested too deeply to compile; split long or deeply nested "
        "expressions into several statements",
    )


@given(st.text(max_size=200))
def test_any_text_compiles_or_raises_a_compile_error(source: str) -> None:
    errors: tuple[str, ...] = ()
    try:
        code = compile_program(source)
    except ProgramCompileError as exc:
        errors = exc.errors
        assert errors
    else:
        assert code.co_filename == MODEL_FILENAME
    assert all(error.startswith("Line ") for error in errors)


@pytest.mark.skipif(
    not HOST_COMPILES,
    reason="this interpreter keeps every name it parses: the host compiles nothing",
)
async def test_host_compiles_run_one_at_a_time(monkeypatch: pytest.MonkeyPatch) -> None:
    # CPython 3.11's AST validation is not thread-safe (python/cpython#106905):
    # concurrent compiles in worker threads can fail with a SystemError, so
    # every compile on the host holds one lock.
    import anyio

    from sandbox import WorkerPool, _host_compile
    from sandbox.testing import EchoHandler

    held: list[bool] = []
    real = compile_with_calls

    def watched(*args: Any, **kwargs: Any) -> Any:
        held.append(_host_compile._COMPILE_LOCK.locked())
        return real(*args, **kwargs)

    monkeypatch.setattr(_host_compile, "compile_with_calls", watched)
    async with WorkerPool(size=0) as pool, anyio.create_task_group() as tasks:
        for n in range(4):
            tasks.start_soon(
                functools.partial(pool.run, f"return {n}", tool_names=[], handler=EchoHandler())
            )
    assert held == [True] * 4


class _FaultyPolicy(ProgramPolicy):
    """The policy with a fault of its own on one construct (a `while` loop)."""

    def visit_While(self, node: Any) -> Any:
        raise AssertionError("a fault in the transformer")


def test_a_fault_of_the_compiler_is_a_compile_error_not_a_crash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sandbox._compile, "ProgramPolicy", _FaultyPolicy)
    assert compile_errors("x = 1\nwhile x:\n    x = 0\nreturn x") == (
        "Line 1: the compiler failed on this program (AssertionError), a fault of "
        "run_code's, not of the program; writing the construct it stumbled on another way "
        "may avoid it",
    )
    assert run_ok("return 2") == 2


async def test_the_pool_reports_a_fault_of_its_compiler_and_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sandbox._compile, "ProgramPolicy", _FaultyPolicy)
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            failed = await pool.run("while False:\n    pass", tool_names=[], handler=EchoHandler())
            ran = await pool.run("return 3", tool_names=[], handler=EchoHandler())
    assert failed.error is not None
    assert failed.error.kind == "compile"
    assert "the compiler failed on this program (AssertionError)" in failed.error.message
    assert ran.error is None
    assert ran.value == 3
