"""run_program: event loop, containment, tracebacks, print capture and result checks."""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.host import LOG_SLACK_BYTES
from sandbox._builtins import make_globals
from sandbox._compile import compile_program
from sandbox._output import TRUNCATION_MARKER, _Output
from sandbox._runtime import PreparedRun
from tests.strategies import json_values

from .test_language_support import run, run_error, run_ok

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

# -- containment -----------------------------------------------------------------------------


@pytest.mark.parametrize("raised", ["SystemExit(3)", "KeyboardInterrupt()", "GeneratorExit()"])
def test_base_exceptions_end_only_the_program(raised: str) -> None:
    kind, message = run_error(f"raise {raised}")
    assert kind == "exception"
    lines = message.splitlines()
    if raised.startswith("SystemExit"):
        # Followed by the hint to return a value instead.
        assert lines.pop().startswith("(SystemExit ends a program as a failure")
    assert lines[-1].startswith(raised.partition("(")[0])


def test_system_exit_inside_a_task_ends_only_the_program() -> None:
    source = (
        "import asyncio\nasync def leave():\n    raise SystemExit(1)\n"
        "await asyncio.create_task(leave())"
    )
    assert run_error(source)[0] == "exception"


def test_the_caller_keeps_running_after_a_program_exits() -> None:
    run("raise SystemExit(0)")
    assert run_ok("return 'still here'") == "still here"


def test_tasks_left_running_are_cancelled_when_the_program_returns() -> None:
    source = """
import asyncio
async def forever():
    await asyncio.Event().wait()
asyncio.create_task(forever())
return "done"
"""
    assert run_ok(source) == "done"


# -- tracebacks --------------------------------------------------------------------------------


def test_tracebacks_keep_only_program_frames() -> None:
    source = "import json\ndef parse(text):\n    return json.loads(text)\nparse('{')"
    _, message = run_error(source)
    assert message.splitlines()[:5] == [
        "Traceback (most recent call last):",
        '  File "<model>", line 4, in <module>',
        "    parse('{')",
        '  File "<model>", line 3, in parse',
        "    return json.loads(text)",
    ]
    assert ".py" not in message
    assert "/" not in message.replace("</", "")


def test_tracebacks_of_a_guard_refusal_show_no_host_frames() -> None:
    _, message = run_error("def f():\n    pass\nreturn getattr(f, '__code__')")
    assert message == (
        "Traceback (most recent call last):\n"
        '  File "<model>", line 3, in <module>\n'
        "    return getattr(f, '__code__')\n"
        'AttributeError: "__code__" is an invalid attribute name because it starts with "_"'
    )


def test_chained_exceptions_keep_their_program_frames() -> None:
    source = "try:\n    {}['k']\nexcept KeyError as e:\n    raise ValueError('bad') from e"
    _, message = run_error(source)
    assert "KeyError: 'k'" in message
    assert "The above exception was the direct cause of the following exception:" in message
    assert message.endswith("ValueError: bad")


def test_a_chain_of_thousands_of_exceptions_keeps_the_program_frames_of_each() -> None:
    source = (
        "error = None\nfor i in range(3000):\n    try:\n        raise ValueError(i) from error\n"
        "    except ValueError as caught:\n        error = caught\nraise error"
    )
    _, message = run_error(source)
    assert message.count("The above exception was the direct cause") == 2999
    assert message.count('File "<model>", line 4, in <module>') == 3000
    assert message.endswith("ValueError: 2999")


def test_exception_groups_nested_thousands_deep_are_formatted() -> None:
    source = (
        "group = ValueError('leaf')\nfor _ in range(2000):\n"
        "    group = ExceptionGroup('level', [group])\nraise group"
    )
    _, message = run_error(source)
    assert message.startswith("  + Exception Group Traceback (most recent call last):")
    assert 'File "<model>", line 4, in <module>' in message


def test_a_failed_programs_frames_are_read_by_program_frames_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The tripwire exempts exactly that function for frame reads; the
    # traceback module must read none of them (its walkers are not exempt).
    walked: list[object] = []
    real_walk = traceback._walk_tb_with_full_positions  # type: ignore[attr-defined]

    def walk(tb: object) -> object:
        for item in real_walk(tb):
            walked.append(item)
            yield item

    monkeypatch.setattr(traceback, "_walk_tb_with_full_positions", walk)
    _, message = run_error("def fail():\n    raise KeyError('k')\nfail()")
    assert 'File "<model>", line 2, in fail' in message
    assert walked == []


def test_an_exception_the_host_was_handling_is_not_shown() -> None:
    try:
        raise RuntimeError("host secret")
    except RuntimeError:
        _, message = run_error("raise ValueError('x')")
    assert "host secret" not in message
    assert "During handling" not in message


def test_tool_errors_carry_their_tool_name_and_code() -> None:
    source = """
try:
    await tools.fail()
except ToolCallError as e:
    return [e.tool_name, e.code, str(e)]
"""
    assert run_ok(source) == ["fail", "E_PURPOSE", "the tool failed on purpose"]


def test_tools_are_called_by_attribute_and_by_item() -> None:
    source = "a = await tools.echo(q='x')\nb = await tools['odd-name']()\nreturn [a, b]"
    assert run_ok(source) == [{"q": "x"}, "odd"]


# -- print capture ---------------------------------------------------------------------------


def test_print_output_is_captured_line_by_line() -> None:
    result = run("print('a')\nprint('b', 'c', sep='-')\nprint('d\\ne')")
    assert result.logs == ["a", "b-c", "d", "e"]


def test_prints_without_a_newline_are_coalesced() -> None:
    result = run("print('a', end='')\nprint('b', end='')\nprint('c')\nprint('tail', end='')")
    assert result.logs == ["abc", "tail"]


def test_output_past_the_budget_is_cut_and_marked_once() -> None:
    result = run("print('12345')\nprint('abcdefghij')\nprint('more')", max_log_bytes=10)
    assert result.logs == ["12345", "abc", TRUNCATION_MARKER.format(limit=10)]
    assert TRUNCATION_MARKER.format(limit=10) == (
        "[codemode] output truncated at 10 bytes (Limits.max_log_bytes)"
    )


def test_output_printed_before_a_failure_is_kept() -> None:
    result = run("print('before')\nraise ValueError('x')")
    assert result.logs == ["before"]
    assert result.error is not None


def test_non_ascii_output_counts_utf8_bytes() -> None:
    result = run("print('ééé')", max_log_bytes=5)
    assert result.logs == ["éé", TRUNCATION_MARKER.format(limit=5)]


def test_a_lone_surrogate_in_output_is_escaped() -> None:
    assert run("print('a\\ud800b')").logs == ["a\\ud800b"]


def test_escaped_surrogates_count_at_their_escaped_size() -> None:
    # Six bytes each as escapes, three as code points: 19 bytes of escapes fit in
    # 20 (with the newline), not six code points.
    result = run("print('\\ud800' * 10)", max_log_bytes=20)
    assert result.logs == ["\\ud800" * 3 + "\\", TRUNCATION_MARKER.format(limit=20)]


def test_print_works_without_the_language_layer() -> None:
    assert run("print('plain')", restricted=False).logs == ["plain"]


@given(st.lists(st.text(st.characters(codec="utf-8"), max_size=12), max_size=12))
def test_captured_lines_are_the_printed_text_split_at_newlines(chunks: list[str]) -> None:
    lines: list[str] = []
    output = _Output(10_000, lines.append)
    for chunk in chunks:
        output.write(chunk)
    output.flush()
    text = "".join(chunks)
    expected = text.split("\n")
    if expected[-1] == "":
        expected.pop()
    assert lines == expected


@given(st.integers(min_value=1, max_value=40), st.integers(min_value=0, max_value=3))
def test_output_printed_from_inside_an_emit_stays_within_the_budget(
    budget: int, reentries: int
) -> None:
    # A collector finalizer can print from inside the hand-over of a line: it
    # must find the state already updated (the cut line was sent twice).
    lines: list[str] = []
    nested = [reentries]

    def emit(line: str) -> None:
        lines.append(line)
        if nested[0]:
            nested[0] -= 1
            output.write("x" * budget + "\n")

    output = _Output(budget, emit)
    output.write("y" * (2 * budget) + "\n")
    output.write("after\n")
    output.flush()
    marker = TRUNCATION_MARKER.format(limit=budget)
    body = [line for line in lines if line != marker]
    assert sum(len(line.encode("utf-8")) + 1 for line in body) <= budget
    assert lines.count(marker) == 1


@given(
    # Lone surrogates included: they are what a line's escaping makes longer.
    st.lists(
        st.lists(st.one_of(st.characters(), st.integers(0xD800, 0xDFFF).map(chr)), max_size=30)
        .map("".join),
        max_size=20,
    ),
    st.integers(min_value=1, max_value=60),
)
def test_captured_output_never_passes_its_budget(chunks: list[str], budget: int) -> None:
    lines: list[str] = []
    output = _Output(budget, lines.append)
    for chunk in chunks:
        output.write(chunk)
    output.flush()
    marker = TRUNCATION_MARKER.format(limit=budget)
    body = lines[:-1] if lines and lines[-1] == marker else lines
    # Counted as the host counts what it receives: strict UTF-8 (a lone
    # surrogate arrives escaped, six bytes where it was three).
    assert sum(len(line.encode("utf-8")) + 1 for line in body) <= budget
    assert lines.count(marker) <= 1


def test_the_marker_line_fits_the_hosts_slack_at_any_limit_a_run_can_carry() -> None:
    # A run's limits travel as MessagePack integers: at most 64 bits.
    assert len(TRUNCATION_MARKER.format(limit=2**64 - 1)) + 1 <= LOG_SLACK_BYTES


# -- the return value ------------------------------------------------------------------------


@pytest.mark.parametrize("source", ["return None", "x = 1", "pass\nreturn"])
def test_none_and_falling_off_the_end_give_null(source: str) -> None:
    result = run(source)
    assert result.error is None
    assert result.value is None


@pytest.mark.parametrize(
    ("source", "path"),
    [
        ("return {'a': [1, {2, 3}]}", "$.a[1]"),
        ("return ({'a': (1, {2})},)", "$[0].a[1]"),
        ("return {'x': float('nan')}", "$.x"),
        ("return [-0.0]", "$[0]"),
        ("return {1: 'a'}", "$"),
        ("return print", "$"),
        ("return [2 ** 80 + 1]", "$[0]"),
    ],
)
def test_values_that_are_not_lossless_json_are_invalid_output(source: str, path: str) -> None:
    kind, message = run_error(source)
    assert kind == "invalid-output"
    # The reason itself comes from bridge.lossless; the path is what matters here.
    assert message.startswith("The program's return value is not lossless JSON: ")
    assert message.endswith(
        f" - at `{path}`. Return dicts with str keys, lists (tuples become lists), str, int, "
        "finite float, bool or None."
    )


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("return 1, 'a'", [1, "a"]),
        ("return sorted({'b': 2, 'a': 1}.items())", [["a", 1], ["b", 2]]),
        ("return {'pairs': list(zip([1, 2], 'xy'))}", {"pairs": [[1, "x"], [2, "y"]]}),
        ("return [(), ((1,),)]", [[], [[1]]]),
    ],
)
def test_tuples_anywhere_in_the_value_become_lists_as_json_dumps_makes_them(
    source: str, value: JsonValue
) -> None:
    # Regression: `return a, b` failed as invalid-output after every call had run.
    assert run_ok(source) == value


def test_counters_ordered_dicts_defaultdicts_and_namedtuples_come_back_as_json_dumps_writes_them(
) -> None:
    source = """
import collections
point = collections.namedtuple("Point", "x y")
ordered = collections.OrderedDict(a=1, b=2)
ordered.move_to_end("a")
return {
    "counts": collections.Counter("abb"),
    "ordered": ordered,
    "grouped": collections.defaultdict(list, {"k": [1]}),
    "point": point(1, 2),
}
"""
    assert run_ok(source) == {
        "counts": {"a": 1, "b": 2},
        "ordered": {"b": 2, "a": 1},
        "grouped": {"k": [1]},
        "point": [1, 2],
    }


def test_a_dataclass_instance_in_the_value_suggests_asdict() -> None:
    source = (
        "import dataclasses\n@dataclasses.dataclass\nclass Point:\n    x: int\n"
        "return {'p': [Point(1)]}"
    )
    kind, message = run_error(source)
    assert kind == "invalid-output"
    assert (
        "a dataclass instance of type Point (convert it with dataclasses.asdict()) is not "
        "JSON - at `$.p[0]`"
    ) in message


@pytest.mark.parametrize(
    ("returned", "named"),
    [("type(Point)", "type"), ("Point", "Point"), ("int", "int"), ("[type(1)]", "int")],
)
def test_a_class_in_the_value_is_named_as_the_program_wrote_it(returned: str, named: str) -> None:
    source = f"class Point:\n    pass\nreturn {{'p': {returned}}}"
    kind, message = run_error(source)
    assert kind == "invalid-output"
    where = "$.p[0]" if returned.startswith("[") else "$.p"
    assert f"a class ({named}) is not JSON - at `{where}`" in message


def test_a_value_over_the_cap_is_an_output_limit() -> None:
    kind, message = run_error("return 'x' * 100", max_value_bytes=50)
    assert kind == "output-limit"
    assert message == (
        "The program's return value is 102 bytes as JSON, over the limit of 50 bytes "
        "(max_value_bytes); return less data."
    )


def test_a_value_at_the_cap_is_accepted() -> None:
    assert run_ok("return 'x' * 48", max_value_bytes=50) == "x" * 48


@given(json_values())
def test_lossless_values_come_back_unchanged(value: JsonValue) -> None:
    result = run("return data", bindings={"data": value}, max_value_bytes=10**7)
    assert result.error is None
    assert result.value == value


# -- after_run -------------------------------------------------------------------------------


def test_a_message_from_after_run_makes_the_run_an_exception() -> None:
    result = run("return 1", after_run=lambda: "Line 1: tools.echo(...) was never awaited")
    assert result.error == ("exception", "Line 1: tools.echo(...) was never awaited")
    assert result.value is None


def test_after_run_messages_are_added_to_a_program_exception() -> None:
    result = run("raise ValueError('x')", after_run=lambda: "never awaited")
    assert result.error is not None
    assert result.error[1].endswith("ValueError: x\nnever awaited")


def test_after_run_returning_none_keeps_the_value() -> None:
    assert run("return 2", after_run=lambda: None).value == 2


# -- globals ---------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["_tools", "1x", "class", "a-b"])
def test_binding_names_must_be_plain_identifiers(name: str) -> None:
    with pytest.raises(ValueError, match=r"^binding names must be identifiers that do not start"):
        make_globals(restricted=True, bindings={name: 1})


def test_each_run_gets_fresh_globals() -> None:
    first = make_globals(restricted=True, bindings={})
    second = make_globals(restricted=True, bindings={})
    assert first is not second
    assert first["__builtins__"] is not second["__builtins__"]


def test_an_async_generator_left_open_does_not_disturb_the_end_of_the_run() -> None:
    source = """
closed = []
async def numbers():
    try:
        yield 1
        yield 2
    finally:
        closed.append(True)
def keep(gen):
    global kept
    kept = gen
keep(numbers())
return await anext(kept)
"""
    # The generator outlives the main function (a global holds it).
    assert run_ok(source) == 1


def test_a_task_that_ignores_cancellation_does_not_keep_the_run_alive() -> None:
    source = """
import asyncio
async def stubborn():
    while True:
        try:
            await asyncio.sleep(10)
        except asyncio.CancelledError:
            pass
asyncio.create_task(stubborn())
await asyncio.sleep(0)
return "done"
"""
    assert run_ok(source) == "done"


def test_an_exception_whose_str_raises_system_exit_ends_only_the_program() -> None:
    source = """
class Nasty(Exception):
    def __str__(self):
        raise SystemExit("from __str__")
raise Nasty()
"""
    kind, message = run_error(source)
    assert kind == "exception"
    assert message.endswith("\nNasty: <exception str() failed>")


def test_the_programs_exception_classes_print_with_their_plain_names() -> None:
    source = "class AppError(Exception):\n    pass\nraise AppError('bad')"
    assert run_error(source)[1].endswith("\nAppError: bad")


def test_an_invalid_value_of_a_program_class_is_named_plainly() -> None:
    _, message = run_error("class Point:\n    pass\nreturn Point()")
    assert (
        "an object of the program's class Point is not JSON; return a dict of the fields to "
        'send, e.g. vars(obj) or {"field": obj.field} - at `$`'
    ) in message
    # The advice made for a base wins over this one: an exception, a str subclass.
    _, message = run_error("class AppError(Exception):\n    pass\nreturn [AppError('x')]")
    assert "a value of type AppError (send str(error), or type(error).__name__)" in message
    _, message = run_error("class Name(str):\n    pass\nreturn {'n': Name('x')}")
    assert "a value of type Name (convert it with str(value)) is not JSON - at `$.n`" in message
    # A subclass of a namedtuple or of tuple: the list json.dumps would write.
    source = (
        "from collections import namedtuple\n"
        "class Line(namedtuple('Line', 'sku qty')):\n    __slots__ = ()\n"
        "return [Line('KB-01', 2)]"
    )
    _, message = run_error(source)
    assert "a value of type Line (convert it with list(value)) is not JSON - at `$[0]`" in message


def test_what_the_program_object_advice_suggests_works() -> None:
    source = (
        "class Point:\n    def __init__(self, x):\n        self.x = x\n"
        "p = Point(1)\nreturn [vars(p), {'x': p.x}]"
    )
    assert run_ok(source) == [{"x": 1}, {"x": 1}]


def test_a_returned_task_says_to_await_it() -> None:
    source = (
        "import asyncio\nasync def work():\n    return 1\n"
        "task = asyncio.create_task(work())\nreturn {'t': task}"
    )
    kind, message = run_error(source)
    assert kind == "invalid-output"
    assert (
        "a task is not JSON; write `await task` for its result (or task.result() once it "
        "is done) - at `$.t`"
    ) in message


def test_a_library_value_in_the_return_value_says_how_to_send_it() -> None:
    source = (
        "import datetime, decimal\nreturn [datetime.date(2024, 6, 15), decimal.Decimal('1.10')]"
    )
    _, message = run_error(source)
    assert "a value of type datetime.date (send value.isoformat()) is not JSON - at `$[0]`" in (
        message
    )


def test_context_variables_set_by_the_program_do_not_reach_the_caller() -> None:
    import decimal

    before = decimal.getcontext().prec
    run_ok("import decimal\ndecimal.getcontext().prec = 3\nreturn 1")
    assert decimal.getcontext().prec == before


def test_a_prepared_run_serves_exactly_one_program() -> None:
    lines: list[str] = []
    prepared = PreparedRun(restricted=True, emit_log=lines.append)
    code = compile_program("print('once')\nreturn 1")
    first = prepared.run(code, bindings={}, max_log_bytes=1000, max_value_bytes=1000)
    assert first.value == 1
    assert lines == ["once"]
    with pytest.raises(RuntimeError):
        prepared.run(code, bindings={}, max_log_bytes=1000, max_value_bytes=1000)


@pytest.mark.parametrize("restricted", [True, False])
def test_a_prepared_run_runs_on_globals_made_ahead_with_its_own_print(restricted: bool) -> None:
    made_ahead: list[str] = []
    namespace = make_globals(restricted=restricted, bindings={}, print_line=made_ahead.append)
    lines: list[str] = []
    prepared = PreparedRun(restricted=restricted, emit_log=lines.append, namespace=namespace)
    code = compile_program("print('mine')\nreturn seen", restricted=restricted)
    outcome = prepared.run(code, bindings={"seen": 1}, max_log_bytes=1000, max_value_bytes=1000)
    assert outcome == (1, None)
    assert namespace["seen"] == 1  # the program ran on that very dict
    assert lines == ["mine"]
    assert made_ahead == []


# -- out of memory --------------------------------------------------------------------------------


def run_with_memory_limit(source: str, memory_bytes: int | None) -> tuple[str, str]:
    prepared = PreparedRun(restricted=True, emit_log=lambda line: None)
    outcome = prepared.run(
        compile_program(source),
        bindings={},
        max_log_bytes=1000,
        max_value_bytes=1000,
        memory_bytes=memory_bytes,
    )
    assert outcome.error is not None
    return outcome.error


def test_a_memory_error_says_which_limit_the_program_hit_and_its_value() -> None:
    # Regression: a MemoryError at the limit did not mention the limit.
    # No allocator can give 8 PiB, limit or not, so this is a real MemoryError.
    kind, message = run_with_memory_limit("rows = [0] * (1 << 50)", 512 << 20)
    assert kind == "exception"
    assert message == (
        "Traceback (most recent call last):\n"
        '  File "<model>", line 1, in <module>\n'
        "    rows = [0] * (1 << 50)\n"
        "MemoryError: the program ran out of memory (memory limit 512 MiB, Limits.memory_bytes)"
    )


@pytest.mark.parametrize(
    ("memory_bytes", "shown"),
    [
        (1 << 30, "1 GiB"),
        (3 << 20, "3 MiB"),
        (96 << 10, "96 KiB"),
        ((64 << 20) + 1, "67108865 bytes"),
    ],
)
def test_the_memory_limit_is_shown_in_the_largest_whole_unit(memory_bytes: int, shown: str) -> None:
    _, message = run_with_memory_limit("raise MemoryError", memory_bytes)
    assert message.endswith(f"(memory limit {shown}, Limits.memory_bytes)")


def test_a_memory_error_with_a_message_keeps_it_after_the_limit() -> None:
    _, message = run_with_memory_limit("raise MemoryError('cache is full')", 512 << 20)
    assert message.endswith(
        "\nMemoryError: the program ran out of memory (memory limit 512 MiB, "
        "Limits.memory_bytes); cache is full"
    )


def test_without_a_memory_limit_a_memory_error_is_reported_as_it_is() -> None:
    _, message = run_with_memory_limit("rows = [0] * (1 << 50)", None)
    assert message.endswith("\n    rows = [0] * (1 << 50)\nMemoryError")


def test_a_caught_memory_error_that_ends_in_another_exception_keeps_that_one() -> None:
    source = (
        "try:\n    rows = [0] * (1 << 50)\nexcept MemoryError:\n    raise ValueError('no room')"
    )
    _, message = run_with_memory_limit(source, 512 << 20)
    assert message.endswith("\nValueError: no room")


# -- the line a stopped program is on -------------------------------------------------------------


def lines_seen(source: str, *, later: bool, restricted: bool = True) -> list[int | None]:
    """Run ``source``, whose ``spy()`` asks for the program's line now or once it waits."""
    import asyncio
    import sys

    prepared = PreparedRun(restricted=restricted, emit_log=lambda line: None)
    seen: list[int | None] = []

    def spy() -> None:
        if later:
            # Runs from the event loop while the program is suspended in an await.
            asyncio.get_running_loop().call_soon(lambda: seen.append(prepared.program_line(None)))
        else:
            seen.append(prepared.program_line(sys._getframe()))

    outcome = prepared.run(
        compile_program(source, restricted=restricted),
        bindings={"spy": spy},
        max_log_bytes=1000,
        max_value_bytes=1000,
    )
    assert outcome.error is None, outcome.error
    return seen


def test_a_running_program_is_on_the_line_of_its_innermost_frame() -> None:
    source = "def inner():\n    spy()\ndef outer():\n    inner()\nouter()\nspy()"
    assert lines_seen(source, later=False) == [2, 6]


def test_a_suspended_program_is_on_the_line_of_its_innermost_await() -> None:
    source = (
        "import asyncio\nasync def pause():\n    spy()\n    await asyncio.sleep(0)\n"
        "await pause()\nspy()\nawait asyncio.gather(asyncio.sleep(0))"
    )
    assert lines_seen(source, later=True) == [4, 7]


def test_an_awaitable_of_the_programs_own_ends_the_walk_without_running_it() -> None:
    # Plain Python (the language layer refuses these names): the strongest program.
    source = """
class Once:
    waited = False
    def __await__(self):
        return self
    def __next__(self):
        if self.waited:
            raise StopIteration(None)
        self.waited = True
    def __getattr__(self, name):
        raise RuntimeError("the walk must not read my attributes")
spy()
await Once()
"""
    assert lines_seen(source, later=True, restricted=False) == [13]
