"""Legitimate model code keeps working through the sandbox.

Realistic programs (tool calls, ``asyncio.gather``, classes, dataclasses, json,
re, datetime, ``match``, f-strings, ``ToolCallError`` handling...) must produce
their expected value with all three layers on. They must also work with each
layer alone, which shows that the ablation switches change protection, not
meaning (and that no legitimate program trips the tripwire).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from codemode.escapes._format import (
    KNOWN_MEANING_GAPS,
    MODES,
    LegitProgram,
    Mode,
    load_legit_programs,
)

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

    from codemode.escapes._runner import LegitRuns

PROGRAMS = load_legit_programs()



def _pair(mode: Mode, program: LegitProgram) -> ParameterSet:
    reason = KNOWN_MEANING_GAPS.get((mode, program.id))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason is not None else []
    return pytest.param(mode, program, marks=marks, id=f"{mode}-{program.id}")


PAIRS = [_pair(mode, program) for mode in MODES for program in PROGRAMS]


def test_every_known_meaning_gap_names_a_legitimate_program() -> None:
    assert {program_id for _, program_id in KNOWN_MEANING_GAPS} <= {p.id for p in PROGRAMS}


@pytest.mark.parametrize(("mode", "program"), PAIRS)
def test_legitimate_program_returns_its_value(
    mode: Mode, program: LegitProgram, legit_runs: LegitRuns
) -> None:
    result = legit_runs.get(mode)[program.id]
    assert result.error is None, result.error
    assert result.value == program.value


@pytest.mark.parametrize(
    "program",
    [program for program in PROGRAMS if program.logs is not None],
    ids=lambda program: program.id,
)
def test_legitimate_program_prints_its_lines(program: LegitProgram, legit_runs: LegitRuns) -> None:
    assert legit_runs.get("all")[program.id].logs == program.logs


def test_legitimate_programs_run_with_every_layer_in_force(legit_runs: LegitRuns) -> None:
    for result in legit_runs.get("all").values():
        assert result.layers.language_layer
        assert result.layers.complete or result.layers.reasons
