"""Programs a model writes work the first time, measured through the real stack.

Every program under ``programs/`` is sent as a ``run_code`` call to a
``Registry(mode="code")`` holding the tools of :mod:`.tools`, through one shared
``CodeMode`` and its warm pool. Each must return its expected value (and print
its expected lines, where listed). A program that fails today because of a
product limitation is a strict expected failure naming the limitation: the
measurement stays honest, and the test turns red the day the limitation is
lifted, so its header is updated with the fix.

The expected values themselves are checked against plain CPython running the
same program with the same tools (:mod:`.plain`), so no expectation is merely
what the sandbox happened to return.
"""

from __future__ import annotations

from typing import Final

import anyio
import pytest

from bridge.protocol import Reply
from bridge.proxy import _failure_text

from .corpus import Program, load_programs
from .plain import failure_message, run_plain
from .runner import REPORT_KEY, Outcome, report, run_programs

PROGRAMS: Final = load_programs()
#: The tests that read the one run of every program (the module-scoped ``outcomes``)
#: share a worker under ``--dist loadgroup``, so the programs run once, not once per
#: worker. (pytest 9.2 with pytest-xdist 3.8 ignores the group, pytest-xdist issue
#: 1386: each worker then runs them, about 3 s of CPU.)
_ONE_RUN: Final = pytest.mark.xdist_group("first-try-programs")


def _param(program: Program) -> object:
    marks: tuple[pytest.MarkDecorator, ...] = ()
    if program.limitation is not None:
        marks = (
            pytest.mark.xfail(
                strict=True,
                raises=AssertionError,
                reason=f"product limitation: {program.limitation}",
            ),
        )
    return pytest.param(program, marks=marks, id=program.id)


@pytest.fixture(scope="module")
def outcomes(request: pytest.FixtureRequest) -> dict[str, Outcome]:
    """Every program run once through one CodeMode, a few at a time."""
    results = anyio.run(run_programs, PROGRAMS)
    request.config.stash[REPORT_KEY] = report(PROGRAMS, results)
    return results


@_ONE_RUN
@pytest.mark.parametrize("program", [_param(p) for p in PROGRAMS])
def test_program_works_the_first_time(program: Program, outcomes: dict[str, Outcome]) -> None:
    problem = outcomes[program.id].problem(program)
    assert problem is None, problem


@pytest.mark.parametrize("program", PROGRAMS, ids=[p.id for p in PROGRAMS])
async def test_expected_value_is_what_plain_python_returns(program: Program) -> None:
    plain = await run_plain(program.text)
    assert plain.error is None, plain.error
    assert plain.value == program.value
    if program.logs is not None:
        assert plain.logs == program.logs


@pytest.mark.parametrize(
    ("message", "code", "exception_type"),
    [
        ("no customer with id 'c9'", None, "LookupError"),
        ("", None, "RuntimeError"),
        ("RuntimeError", None, "RuntimeError"),
        ("invalid arguments: days must be an integer", "INVALID_ARGS", None),
        ("quota spent", "QUOTA_EXCEEDED", "ValueError"),
        ('tool "forecast" is not available', None, None),
        ("the host is busy", None, None),
        ("", "DENIED", None),
    ],
)
def test_the_oracle_words_a_failed_call_as_run_code_does(
    message: str, code: str | None, exception_type: str | None
) -> None:
    reply = Reply(1, error=message, code=code, exception_type=exception_type)
    assert failure_message("forecast", message, code, exception_type) == _failure_text(
        "forecast", reply
    )


@_ONE_RUN
def test_first_try_rate_counts_exactly_the_named_limitations(
    outcomes: dict[str, Outcome],
) -> None:
    measured = report(PROGRAMS, outcomes)
    print(measured.text())
    limited = {p.id for p in PROGRAMS if p.limitation is not None}
    assert set(measured.failures) == limited, measured.text()
    assert measured.succeeded == len(PROGRAMS) - len(limited)


def test_the_set_is_large_and_every_limitation_is_named() -> None:
    assert len(PROGRAMS) >= 60
    assert len({p.number for p in PROGRAMS}) == len(PROGRAMS), "program numbers repeat"
    for program in PROGRAMS:
        assert program.limitation is None or len(program.limitation.split()) >= 4, program.id
