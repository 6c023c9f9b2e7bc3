"""A hostile corpus: headers cannot set host memory, bad patterns are usage errors, and a
backtracking ``leak`` pattern costs a bounded, killed child.

Counting and size assertions; the ReDoS check waits on a CPU rlimit, not a timer.
"""

from __future__ import annotations

import subprocess
import sys
import tracemalloc
from typing import TYPE_CHECKING

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.escapes._format import (
    MAX_CASE_FILE_BYTES,
    MAX_PROGRAM_BYTES,
    MAX_REPEAT,
    load_cases,
)
from codemode.escapes._runner import leak_harms

if TYPE_CHECKING:
    from pathlib import Path

HEADER = "# category: cat\n# signal: {signal}\n# source: x\n# tripwire: harmless (x)\n"


def corpus(root: Path, extra: str, body: str = "x = 1\n", signal: str = "bounded") -> Path:
    (root / "cat").mkdir(parents=True, exist_ok=True)
    (root / "cat" / "a.py").write_text(HEADER.format(signal=signal) + extra + body)
    return root


@pytest.mark.parametrize(
    "value", ["100000000", "40000000000", "many", "0", "-1", "1e9", "", "1" * 5000, "٣"]
)
def test_a_repeat_out_of_range_is_refused_without_building_anything(
    tmp_path: Path, value: str
) -> None:
    root = corpus(tmp_path, f"# repeat: {value}\n")
    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"a\.py: repeat="):
            load_cases(root)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 1024 * 1024


def test_a_repeat_whose_program_is_too_large_is_refused(tmp_path: Path) -> None:
    body = "y" * 99 + "\n"  # 100 bytes a copy
    too_many = MAX_PROGRAM_BYTES // 100 + 1
    with pytest.raises(ValueError, match="over the limit"):
        load_cases(corpus(tmp_path, f"# repeat: {too_many}\n", body))


@settings(max_examples=100, deadline=None)
@given(body_bytes=st.integers(1, 2000), repeat=st.integers(1, 10 * MAX_REPEAT))
def test_an_accepted_repeat_builds_at_most_the_program_limit(
    body_bytes: int, repeat: int, tmp_path_factory: pytest.TempPathFactory
) -> None:
    root = tmp_path_factory.mktemp("c")
    body = "z" * (body_bytes - 1) + "\n"
    try:
        [case] = load_cases(corpus(root, f"# repeat: {repeat}\n", body))
    except ValueError:
        assert repeat > MAX_REPEAT or body_bytes * repeat > MAX_PROGRAM_BYTES
        return
    assert len(case.program({}).encode()) <= MAX_PROGRAM_BYTES


def test_placeholders_are_substituted_in_every_copy(tmp_path: Path) -> None:
    [case] = load_cases(corpus(tmp_path, "# repeat: 3\n", "p('{MARKER_PATH}')\n"))
    assert case.program({"MARKER_PATH": "/m"}) == "p('/m')\n" * 3


def test_a_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    root = corpus(tmp_path, "", "#" * (MAX_CASE_FILE_BYTES + 1))
    with pytest.raises(ValueError, match="over"):
        load_cases(root)


@pytest.mark.parametrize("pattern", ["([unclosed", "a{2,1}", "(?P<x", "x" * 2000])
def test_a_leak_pattern_that_does_not_compile_is_a_header_error(
    tmp_path: Path, pattern: str
) -> None:
    root = corpus(tmp_path, f"# leak: {pattern}\n", signal="leak")
    with pytest.raises(ValueError, match=r"a\.py: .*leak"):
        load_cases(root)


@pytest.mark.parametrize(
    ("extra", "signal"),
    [("# repeat: 100000000\n", "bounded"), ("# repeat: many\n", "bounded"),
     ("# leak: ([unclosed\n", "leak")],
)
def test_the_command_exits_2_naming_the_file(tmp_path: Path, extra: str, signal: str) -> None:
    root = corpus(tmp_path, extra, signal=signal)
    done = subprocess.run(
        [sys.executable, "-m", "codemode", "escape-test", str(root), "--layers", "language"],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 2
    assert "a.py" in done.stderr
    assert "Traceback" not in done.stderr


# -- the leak check --------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_matching_leak_pattern_is_a_harm() -> None:
    harms = await leak_harms("<module 'builtins'", ("1", "x <module 'builtins' y", ""))
    assert harms == ["the output discloses \"<module 'builtins'\""]
    assert await leak_harms("<module 'builtins'", ("1", "nothing", "")) == []


@pytest.mark.anyio
async def test_a_backtracking_leak_pattern_is_stopped_and_reported() -> None:
    # (a|aa)+c on 60 a's: about 1.6**60 steps if left to run.
    harms = await leak_harms("(a|aa)+c", ("a" * 60 + "b", "", ""), cpu_seconds=1)
    assert len(harms) == 1
    assert "could not be judged" in harms[0]
    assert "(a|aa)+c" in harms[0]
