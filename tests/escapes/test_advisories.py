"""Regression tests for published escapes of RestrictedPython and of peer sandboxes.

Each advisory below has at least one corpus case whose ``source`` line names it;
those cases must do no harm in any ablation mode, and with the language layer on
they must be refused outright (most of them at compile time or by a guard). A
case listed in ``KNOWN_ESCAPES`` is a strict expected failure here too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from codemode.escapes._format import MODES, Case, Mode, load_cases

from .test_escapes import KNOWN_ESCAPES

if TYPE_CHECKING:
    from _pytest.mark.structures import ParameterSet

    from codemode.escapes._runner import AblationRuns

pytestmark = pytest.mark.slow

#: Advisory id -> what it was, for the test ids and failure messages.
ADVISORIES = {
    "CVE-2023-37271": "RestrictedPython: generator and frame attributes reached host frames",
    "CVE-2023-41039": "RestrictedPython: str.format / format_map walked attributes",
    "CVE-2024-47532": "RestrictedPython: AttributeError.obj and the string module leaked objects",
    "CVE-2025-22153": "RestrictedPython: try/except* exposed exception groups and frames",
    "GHSA-ffg3-p8fm-mjx2": "RestrictedPython: guards shadowed by positional-only parameters",
    "GHSA-hp3v-5vw7-fx9w": "RestrictedPython: string.Formatter traversal returned real objects",
    "CVE-2025-5120": "smolagents: builtins and allowed modules used as values reached os",
    "CVE-2025-9959": "smolagents: incomplete dunder validation",
    "real asyncio": "peer: a real asyncio module handed to RestrictedPython",
}

CASES = load_cases()


def cases_for(advisory: str) -> list[Case]:
    return [case for case in CASES if advisory in case.source]


@pytest.mark.parametrize("advisory", sorted(ADVISORIES))
def test_advisory_has_regression_cases(advisory: str) -> None:
    assert cases_for(advisory), ADVISORIES[advisory]


def _param(mode: Mode, case: Case, *values: object, id: str) -> ParameterSet:
    """``values`` as a test parameter, a strict expected failure if ``case`` is a known escape."""
    reason = KNOWN_ESCAPES.get((mode, case.id))
    marks = [pytest.mark.xfail(strict=True, reason=reason)] if reason is not None else []
    return pytest.param(*values, marks=marks, id=id)


PAIRS = [
    _param(mode, case, advisory, mode, case, id=f"{advisory}-{mode}-{case.id}")
    for advisory in sorted(ADVISORIES)
    for mode in MODES
    for case in cases_for(advisory)
    if mode in case.applies
]


@pytest.mark.parametrize(("advisory", "mode", "case"), PAIRS)
def test_advisory_case_does_no_harm(
    advisory: str, mode: Mode, case: Case, ablation: AblationRuns
) -> None:
    outcome = ablation.get(mode).outcomes[case.id]
    assert outcome.harms == [], ADVISORIES[advisory]


@pytest.mark.parametrize(
    ("advisory", "case"),
    [
        _param("language", case, advisory, case, id=f"{advisory}-{case.id}")
        for advisory in sorted(ADVISORIES)
        for case in cases_for(advisory)
    ],
)
def test_language_layer_alone_refuses_the_advisory_case(
    advisory: str, case: Case, ablation: AblationRuns
) -> None:
    result = ablation.get("language").outcomes[case.id].result
    assert result is not None
    assert result.error is not None, ADVISORIES[advisory]
    assert result.error.kind in {"compile", "exception"}, result.error
