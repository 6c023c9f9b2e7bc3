"""Compiling a program costs work linear in its size, whatever its nesting.

The work is counted, not timed: every step of every Python-level walk over the
syntax tree (the policy's transformer, its scope walks, location fixing) goes
through ``ast.iter_child_nodes`` or ``ast.iter_fields``, which the tests count
(:func:`tests.nesting.counting_walks`). For each kind of nesting the steps per
node of the program must stay below one bound at every depth and must not grow
with the depth (a quadratic walk doubles its steps per node with each doubling of
the depth, an exponential one passes any budget). The parser and the compiler are
C code and are not counted here; where they run is the subject of the pool's tests.
"""

from __future__ import annotations

from contextlib import suppress

import pytest

from bridge.protocol import ToolSignature
from sandbox._calls import MAX_LISTED_PROBLEMS, check_tool_calls
from sandbox._compile import ProgramCompileError, compile_program
from tests.nesting import MAX_DEPTH, NESTINGS, WIDTHS, count_nodes, counting_walks

#: Walk steps per node that no program may need: the transformer visits each node
#: once, the scope walks and the final location pass a few times more.
STEPS_PER_NODE = 24
#: Steps per node may differ this much between the shallowest and deepest
#: program of a kind (small programs carry a fixed cost of their own).
GROWTH = 1.15
DEPTHS = (8, 16, 32, MAX_DEPTH)
WIDTH_STEPS = (25, 50, 100, 200)


#: The pre-flight check runs in the same compile step: count it too.
SIGNATURES = (ToolSignature("search", ("query", "limit"), ("query",), open=False),)


def compile_steps(source: str) -> float:
    """Walk steps per node of checking and compiling ``source`` with the language policy."""
    nodes = count_nodes(source)
    # Refused programs (too many nested blocks, calls that cannot succeed) count too.
    with counting_walks(budget=4 * STEPS_PER_NODE * nodes) as steps, suppress(ProgramCompileError):
        compile_program(source, signatures=SIGNATURES)
    return steps[0] / nodes


def assert_linear(ratios: dict[int, float]) -> None:
    sizes = sorted(ratios)
    assert max(ratios.values()) <= STEPS_PER_NODE, ratios
    assert ratios[sizes[-1]] <= ratios[sizes[1]] * GROWTH, ratios


@pytest.mark.parametrize("kind", sorted(NESTINGS))
def test_compile_work_per_node_does_not_grow_with_nesting_depth(kind: str) -> None:
    generate = NESTINGS[kind]
    assert_linear({depth: compile_steps(generate(depth)) for depth in DEPTHS})


@pytest.mark.parametrize("kind", sorted(WIDTHS))
def test_compile_work_per_node_does_not_grow_with_program_width(kind: str) -> None:
    generate = WIDTHS[kind]
    assert_linear({width: compile_steps(generate(width)) for width in WIDTH_STEPS})


def test_the_pre_flight_check_lists_a_bounded_number_of_problems() -> None:
    # Each listed problem costs a difflib suggestion; the rest are only counted.
    check = check_tool_calls(WIDTHS["unknown-tool-calls"](500), SIGNATURES)
    assert len(check.problems) == MAX_LISTED_PROBLEMS
    assert check.unlisted == 500 - MAX_LISTED_PROBLEMS
    unlisted = 500 - MAX_LISTED_PROBLEMS
    assert check.describe().endswith(f"\n... and {unlisted} more calls that cannot succeed")


def test_the_counter_sees_quadratic_work() -> None:
    # The instrument itself: a walk per node of a chain is quadratic, and counted so.
    import ast

    def quadratic(source: str) -> float:
        tree = ast.parse(source)
        nodes = count_nodes(source)
        with counting_walks(budget=10**9) as steps:
            for node in ast.walk(tree):
                ast.fix_missing_locations(node)
        return steps[0] / nodes

    shallow, deep = quadratic(NESTINGS["calls"](8)), quadratic(NESTINGS["calls"](MAX_DEPTH))
    assert deep > 4 * shallow


def test_a_chained_assignment_evaluates_its_value_once() -> None:
    from .test_language_support import run_ok

    program = (
        "calls = []\n"
        "def value():\n"
        "    calls.append(1)\n"
        "    return [1, 2]\n"
        "x = (a, b) = y = [c, d] = value()\n"
        "return [len(calls), x, a, b, y, c, d]\n"
    )
    assert run_ok(program) == [1, [1, 2], 1, 2, [1, 2], 1, 2]


def test_a_chained_assignment_in_a_class_leaves_no_temporary_behind() -> None:
    from .test_language_support import run_ok

    program = (
        "class K:\n"
        "    x = (a, b) = [1, 2]\n"
        "return sorted(name for name in dir(K) if not name.startswith('__'))\n"
    )
    assert run_ok(program) == ["a", "b", "x"]
