"""The corpus itself: its size and shape, and proof that every harm case is a real attack.

The second half runs cases with no protection at all (plain ``exec`` in a
throwaway subprocess) and checks that their success signal fires: a case that
could never do harm would pass the sandbox tests without proving anything.
"""

from __future__ import annotations

import sys
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from codemode.escapes._format import HARM_SIGNALS, SIGNALS, Case, load_cases, load_legit_programs
from sandbox._tripwire import FORBIDDEN_EVENTS, FORBIDDEN_MODULES

from .plain import run_plain_all

if TYPE_CHECKING:
    from pathlib import Path

    from _pytest.mark.structures import ParameterSet

CASES = load_cases()


def watched(event: str) -> bool:
    """Whether ``event`` can end a run at all (some are watched only for some callers)."""
    decided = {"sys._getframe", "object.__getattr__", "exec", "compile", "import"}
    module = event.partition(".")[0]
    return event in decided or event in FORBIDDEN_EVENTS or module in FORBIDDEN_MODULES


PLAIN_CASES = [case for case in CASES if case.plain and case.signals & HARM_SIGNALS]

#: The categories the issue asks for, by the directory names used here.
REQUIRED_CATEGORIES = {
    "filesystem-read",
    "filesystem-write",
    "process",
    "network",
    "forbidden-imports",
    "module-attributes",
    "introspection",
    "dynamic-code",
    "format-string",
    "bridge",
    "exhaustion",
    "advisories",
    "state",
    "real-metaclasses",
    "native-readers",
    "decorator-metadata",
    "descriptors",
    "facade-bypass",
    "check-then-use",
    "hand-stepped-coroutines",
    "own-names",
    "host-cost",
}


def test_corpus_holds_at_least_120_cases() -> None:
    assert len(CASES) >= 120


def test_corpus_covers_every_required_category_with_several_cases() -> None:
    counts = Counter(case.category for case in CASES)
    assert {category for category, count in counts.items() if count >= 5} >= REQUIRED_CATEGORIES


def test_every_signal_kind_is_used_by_some_case() -> None:
    used = set().union(*(case.signals for case in CASES))
    assert used == SIGNALS


def test_every_case_runs_in_at_least_one_mode_with_the_os_layer_on() -> None:
    assert [case.id for case in CASES if not case.applies & {"all", "os"}] == []


def test_only_exhaustion_cases_skip_the_language_or_the_os_mode() -> None:
    partial = {case.category for case in CASES if not {"all", "language", "os"} <= case.applies}
    assert partial <= {"exhaustion"}


def test_a_case_skips_the_tripwire_mode_only_with_a_reason() -> None:
    skipped = [case for case in CASES if "tripwire" not in case.applies]
    assert all(case.tripwire_event is None and case.tripwire_reason for case in skipped)


def test_the_tripwire_alone_stops_most_of_the_corpus() -> None:
    # Everything but exhaustion (the host's limits), attacks on the host through
    # the bridge (the host's checks) and routes without an audit event (a
    # value rewritten inside the runtime's own routines, a library's raw
    # function handed over): about 60 % of the cases. The share moves with the
    # corpus's mix (bridge and exhaustion cases are out of the tripwire's
    # reach by design), so the firm bound is on the cases that do harm below.
    assert sum(case.tripwire_event is not None for case in CASES) >= 0.55 * len(CASES)


def test_the_tripwire_alone_stops_nearly_every_case_that_does_harm() -> None:
    # A case that reads a secret, writes a marker, reaches a canary or touches
    # another process makes a system call the audit hooks see on almost every
    # route (over 90 %); the rest say why in their `misses` or `harmless` line.
    harm_cases = [case for case in CASES if case.signals & HARM_SIGNALS]
    stopped = sum(case.tripwire_event is not None for case in harm_cases)
    assert stopped >= 0.9 * len(harm_cases)


def test_every_event_a_case_expects_is_one_the_tripwire_watches() -> None:
    for case in CASES:
        if case.tripwire_event is not None:
            assert watched(case.tripwire_event), case.id


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_case_uses_the_placeholders_its_signals_need(case: Case) -> None:
    needs = {
        "canary": ("{CANARY_PORT}", "{UNIX_SOCKET}", "codemode-{IPC_KEY}"),
        "victim": ("{VICTIM_PID}",),
        "secret": ("{SECRET_PATH}",),
        "marker": ("{MARKER_PATH}", "{MARKER_DIR}"),
        "ipc": ("{IPC_KEY}",),
    }
    for signal, placeholders in needs.items():
        if signal in case.signals:
            assert any(placeholder in case.text for placeholder in placeholders)


def test_most_harm_cases_are_validated_against_plain_cpython() -> None:
    harm_cases = [case for case in CASES if case.signals & HARM_SIGNALS]
    assert len(PLAIN_CASES) >= 0.9 * len(harm_cases)


def test_at_least_30_legitimate_programs_exist() -> None:
    assert len(load_legit_programs()) >= 30


@pytest.fixture(scope="module")
def plain_harms() -> dict[str, dict[str, list[str]]]:
    """Every validated case whose technique exists here, run once without protection."""
    return run_plain_all([case for case in PLAIN_CASES if case.technique_here])


def _plain_param(case: Case) -> ParameterSet:
    marks = [] if case.technique_here else [pytest.mark.skip(
        reason=f"the technique needs another Python than {sys.version.split()[0]}: "
        f"{case.python_reason}"
    )]
    return pytest.param(case, marks=marks, id=case.id)


@pytest.mark.parametrize("case", [_plain_param(case) for case in PLAIN_CASES])
def test_case_does_harm_without_the_sandbox(
    case: Case, plain_harms: dict[str, dict[str, list[str]]]
) -> None:
    harms = plain_harms[case.id]
    fired = {signal for signal, found in harms.items() if found}
    assert fired & case.signals, f"no harm signal of {sorted(case.signals)} fired: {harms}"


def _case_with_python(tmp_path: Path, line: str) -> Case:
    folder = tmp_path / "files"
    folder.mkdir(exist_ok=True)
    (folder / "case.py").write_text(
        "# category: files\n# signal: secret\n# tripwire: stops open\n"
        f"# python: {line}\n# source: a version-bound technique\n"
        'return open("{SECRET_PATH}").read()\n'
    )
    (case,) = load_cases(tmp_path)
    return case


def test_a_case_bound_to_other_pythons_is_claimed_neither_harmful_nor_stopped_here(
    tmp_path: Path,
) -> None:
    major, minor = sys.version_info[:2]
    elsewhere = _case_with_python(tmp_path, f">={major}.{minor + 1} (a later interpreter's)")
    assert (elsewhere.python_from, elsewhere.python_below) == ((major, minor + 1), None)
    assert elsewhere.python_reason == "a later interpreter's"
    assert not elsewhere.technique_here
    # The tripwire mode still runs it (it must do no harm), but expects no violation.
    assert "tripwire" in elsewhere.applies
    assert not elsewhere.stopped_by_tripwire
    assert elsewhere.expected_kinds("tripwire") is None


def test_a_case_bound_to_a_range_holding_this_python_keeps_its_claims(tmp_path: Path) -> None:
    major, minor, micro = sys.version_info[:3]
    here = _case_with_python(tmp_path, f">={major}.{minor}.{micro} <{major}.{minor + 1} (this one)")
    assert here.technique_here
    assert here.stopped_by_tripwire
    assert here.expected_kinds("tripwire") == frozenset({"sandbox-violation"})
    below = _case_with_python(tmp_path, f"<{major}.{minor}.{micro} (older ones)")
    assert not below.technique_here


@pytest.mark.parametrize("line", ["3.11", ">=3.11", "(no bound)", ">=3 (one part)", "<3.x (y)"])
def test_a_python_line_without_bounds_and_a_reason_is_malformed(
    tmp_path: Path, line: str
) -> None:
    with pytest.raises(ValueError, match="python="):
        _case_with_python(tmp_path, line)
