"""``codemode escape-test``: a corpus through the real sandbox, judged per category.

Each test runs ``python -m codemode escape-test`` in a subprocess: the project's
own corpus (a few cases of it), a corpus written here with a case that escapes
its header's promise and a legitimate program that breaks, the ablation modes,
malformed corpora, and the progress display on a terminal and off one.
"""

from __future__ import annotations

import json
import os
import pty
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from codemode.escapes import CORPUS_DIR
from codemode.escapes._report import Report, render_report

REPO = Path(__file__).resolve().parent.parent
COMMAND = [sys.executable, "-m", "codemode", "escape-test"]

CONTAINED = """\
# category: files
# signal: secret
# expect: refused
# tripwire: stops open
# source: the builtin open() on the secret
return open("{SECRET_PATH}").read()
"""
#: Harmless, but its header promises the language layer refuses it: a broken promise
#: is an escape (the layer let through what the case says it stops).
PROMISE_BROKEN = """\
# category: promises
# signal: liveness
# expect: refused
# tripwire: harmless (it does nothing)
# source: a case whose header is wrong on purpose
return 1
"""
LANGUAGE_ONLY = """\
# category: promises
# signal: liveness
# applies: all language
# tripwire: misses (not run without the language layer)
# source: runs only where the language layer is on
return 2
"""
LEGIT_OK = "# value: 3\nreturn 1 + 2\n"
LEGIT_BROKEN = "# value: 5\nreturn 1 + 2\n"


def escape_test(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMAND, *args], cwd=cwd, capture_output=True, text=True, timeout=600, check=False,
    )


def write_corpus(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    return write_corpus(tmp_path / "corpus", {
        "files/read_secret.py": CONTAINED,
        "promises/wrong_header.py": PROMISE_BROKEN,
        "promises/language_only.py": LANGUAGE_ONLY,
        "legit/adds.py": LEGIT_OK,
        "legit/wrong_value.py": LEGIT_BROKEN,
    })


def one_object(stdout: str) -> dict[str, Any]:
    [line] = stdout.splitlines()
    parsed: dict[str, Any] = json.loads(line)
    return parsed


def test_the_default_corpus_is_the_projects_own() -> None:
    done = escape_test("--case", "advisories/*", "--json")
    assert done.returncode == 0, done.stderr
    report = one_object(done.stdout)
    assert report["corpus"] == str(CORPUS_DIR)
    assert report["mode"] == "all"
    advisories = len(list((CORPUS_DIR / "advisories").glob("*.py")))
    assert report["categories"] == {
        "advisories": {"cases": advisories, "contained": advisories, "escaped": 0}
    }
    assert (report["ok"], report["escapes"], report["pool"]) == (True, [], [])
    assert report["legitimate"] == {"run": 0, "broken": []}


def test_an_escape_exits_one_and_is_listed_with_its_harm(corpus: Path) -> None:
    done = escape_test(str(corpus), "--json")
    assert done.returncode == 1, done.stderr
    report = one_object(done.stdout)
    assert report["ok"] is False
    assert report["categories"] == {
        "files": {"cases": 1, "contained": 1, "escaped": 0},
        "promises": {"cases": 2, "contained": 1, "escaped": 1},
    }
    [escape] = report["escapes"]
    assert escape["id"] == "promises/wrong_header"
    assert escape["source"] == "a case whose header is wrong on purpose"
    [harm] = escape["harms"]
    assert harm.startswith("the run ended as 'ok', expected one of ['compile', 'exception']")
    assert report["legitimate"] == {
        "run": 2, "broken": [{"id": "legit/wrong_value", "problem": "returned 3, expected 5"}],
    }


def test_the_table_shows_contained_escaped_and_broken_legitimate_per_category(
    corpus: Path,
) -> None:
    done = escape_test(str(corpus))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == f"escape-test of {corpus} with all three layers: language layer, " \
                       "tripwire, OS layer"
    rows = [line.split() for line in lines[2:9] if line and not line.startswith("-")]
    assert rows == [
        ["category", "cases", "contained", "escaped", "broken-legitimate"],
        ["files", "1", "1", "0", "-"],
        ["promises", "2", "1", "1", "-"],
        ["legit", "2", "-", "-", "1"],
        ["total", "5", "2", "1", "1"],
    ], done.stdout
    assert any(line.startswith("ESCAPED promises/wrong_header (a case whose header is wrong")
               for line in lines)
    assert "BROKEN legit/wrong_value: returned 3, expected 5" in lines
    assert lines[-1] == "result: 1 case(s) escaped"


def test_a_broken_legitimate_program_alone_does_not_fail_the_run(corpus: Path) -> None:
    done = escape_test(str(corpus), "--case", "files/*", "--case", "legit/*", "--json")
    assert done.returncode == 0, done.stderr
    report = one_object(done.stdout)
    assert report["ok"] is True
    assert [b["id"] for b in report["legitimate"]["broken"]] == ["legit/wrong_value"]


@pytest.mark.parametrize(
    ("layers", "promises"),
    [
        ("language", {"cases": 2, "contained": 1, "escaped": 1}),
        # Without the language layer `expect` does not apply and language_only is not run.
        ("os", {"cases": 1, "contained": 1, "escaped": 0}),
        ("tripwire", {"cases": 1, "contained": 1, "escaped": 0}),
    ],
)
def test_the_layers_option_runs_one_ablation_mode(
    layers: str, promises: dict[str, int], corpus: Path
) -> None:
    done = escape_test(str(corpus), "--layers", layers, "--case", "files/*",
                       "--case", "promises/*", "--json")
    report = one_object(done.stdout)
    assert report["mode"] == layers
    assert report["categories"] == {
        "files": {"cases": 1, "contained": 1, "escaped": 0}, "promises": promises,
    }
    assert done.returncode == (1 if promises["escaped"] else 0), done.stderr


def test_a_malformed_header_is_a_usage_error_naming_the_file(tmp_path: Path) -> None:
    bad = write_corpus(tmp_path / "bad", {"files/no_source.py": textwrap.dedent("""\
        # category: files
        # signal: secret
        # tripwire: stops open
        return 1
    """)})
    done = escape_test(str(bad))
    assert done.returncode == 2
    [error] = [line for line in done.stderr.splitlines() if line.startswith("Error: ")]
    assert "no_source.py: every case names its source" in error
    assert "Traceback" not in done.stderr


def test_selecting_no_case_is_a_usage_error(corpus: Path) -> None:
    done = escape_test(str(corpus), "--case", "nothing/*")
    assert done.returncode == 2
    assert f"Error: no case of {corpus} applies to --layers all and matches nothing/*" in (
        done.stderr
    )


def test_pointing_at_a_category_folder_says_to_pass_its_parent(corpus: Path) -> None:
    done = escape_test(str(corpus / "files"))
    assert done.returncode == 2
    assert "holds read_secret.py directly: pass its parent" in done.stderr


def test_off_a_terminal_progress_is_a_counter_on_stderr(corpus: Path) -> None:
    done = escape_test(str(corpus), "--json")
    counters = [line for line in done.stderr.splitlines() if line.startswith("escape-test: ")]
    assert counters[-1] == "escape-test: 5/5 run"
    assert "escape-test" not in done.stdout.replace(str(corpus), "")


def test_on_a_terminal_progress_is_a_bar_on_stderr(corpus: Path) -> None:
    controller, terminal = pty.openpty()
    with subprocess.Popen(
        [*COMMAND, str(corpus), "--json"], cwd=REPO, stdout=subprocess.PIPE, stderr=terminal,
        stdin=subprocess.DEVNULL, text=True,
    ) as process:
        os.close(terminal)
        shown = b""
        while True:
            try:
                chunk = os.read(controller, 4096)
            except OSError:  # the terminal's other end closed: the process exited
                break
            if not chunk:
                break
            shown += chunk
        stdout = process.stdout.read() if process.stdout is not None else ""
        process.wait(timeout=600)
    os.close(controller)
    text = shown.decode(errors="replace")
    assert "100%" in text
    assert "#" in text
    assert "escape-test: 1/5 run" not in text
    assert one_object(stdout)["ok"] is False


def test_each_escaped_or_broken_case_is_one_line_whatever_its_fields_hold() -> None:
    # The id and source come from corpus files, the harms and problems from
    # what a program did: a line break in one printed a line of its own that
    # read like another case's.
    report = Report(corpus="c", mode="all")
    report.categories["files"] = Counter(escaped=1)
    report.escapes.append({
        "id": "files/a\nESCAPED files/forged (x): y",
        "source": "s\u2028t",
        "harms": ["read\rit", "wrote\x85it"],
    })
    report.legit_run = 1
    report.broken.append({"id": "legit/b\nBROKEN legit/forged", "problem": "p\nq"})
    lines = render_report(report).splitlines()
    assert [line.split(" ")[0] for line in lines if line.startswith(("ESCAPED", "BROKEN"))] == [
        "ESCAPED", "BROKEN"
    ]
    assert not any("forged" in line and line.startswith(("ESCAPED files/forged",
                                                         "BROKEN legit/forged"))
                   for line in lines)
