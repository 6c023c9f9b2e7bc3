"""Every runnable example runs and prints what it should; so does the README's first command."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"

#: For each runnable example, lines its output must contain, in this order.
EXPECTED: dict[str, list[str]] = {
    "quickstart.py": [
        "['run_code']",
        'tool "send_email" failed: sending email is not allowed for this agent',
        "{",
        '  "warmer": "Paris"',
        "}",
    ],
    "policy_and_approvals.py": [
        "approval asked for call-1:code:3 (payments need a human): granted",
        "deleted drafts/old.txt",
        "tool \"delete\" failed: refusing to delete 'reports/q3.txt': only drafts/ may be deleted",
        "paid 12.50 EUR to Ada",
    ],
    "spill_and_replay.py": [
        "the report has 2000 rows",
        "...",
        "(Omitted 24860 bytes.",
        "call-1 run_code ok",
        "  call-1:code:1 report ok",
    ],
    "escape_test_corpus.py": [
        "escape-test of examples/escape_corpus with all three layers",
        "files          2          2        0                  -",
        "processes      1          1        0                  -",
        "legit          1          -        -                  0",
        "result: every case contained",
        "escape-test of examples/escape_corpus with the language layer alone",
        "escape-test of examples/escape_corpus with the tripwire alone",
        "escape-test of examples/escape_corpus with the OS layer alone",
    ],
    "agent_loop.py": [
        "run_code -> '[\\n  \"pears\"\\n]'",
        "assistant: Out of stock: pears.",
    ],
    "mcp_both_ways.py": [
        "imported from MCP: ['forecast']",
        "MCP_TOOL_ERROR",
        "Paris 21.5°C, Oslo 4.0°C",
        "served over MCP: ['run_code']",
        "isError=False, calls=3",
        "{'The Hobbit': 12.5, 'The Fellowship of the Ring': 14.0}",
    ],
    "agent_loop_mcp.py": [
        "user: Which Ursula K. Le Guin books do you have",
        "run_code -> '{\\n  \"A Wizard of Earthsea\": 8.59,\\n"
        "  \"The Left Hand of Darkness\": 9.46\\n}'",
        "assistant: We have A Wizard of Earthsea (£8.59), The Left Hand of Darkness (£9.46).",
    ],
}

#: Examples that use a real model API when its key is set; the expected output is the
#: scripted model's, so the key is kept from them here (and used by its own test below).
MODEL_KEYS = ("ANTHROPIC_API_KEY",)


def runnable_examples() -> list[str]:
    return sorted(
        path.name
        for path in EXAMPLES.glob("*.py")
        if 'if __name__ == "__main__":' in path.read_text(encoding="utf-8")
    )


def run_python(*args: str, keep_keys: bool = False) -> subprocess.CompletedProcess[str]:
    # The checkout's packages, not whichever copy the interpreter has installed.
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    if not keep_keys:
        for key in MODEL_KEYS:
            env.pop(key, None)
    return subprocess.run(
        [sys.executable, *args], cwd=REPO, capture_output=True, text=True, timeout=120,
        check=False, env=env,
    )


def test_every_runnable_example_has_expected_output() -> None:
    assert sorted(EXPECTED) == runnable_examples()


@pytest.mark.parametrize("name", runnable_examples())
def test_the_example_runs_and_prints_what_it_should(name: str) -> None:
    done = run_python(f"examples/{name}")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    positions = []
    for expected in EXPECTED[name]:
        matches = [i for i, line in enumerate(lines) if line.startswith(expected)]
        assert matches, f"{name}: no line starts with {expected!r} in:\n{done.stdout}"
        positions.append(matches[0])
    assert positions == sorted(positions), done.stdout


@pytest.mark.skipif(not os.environ.get("ANTHROPIC_API_KEY"), reason="ANTHROPIC_API_KEY is not set")
def test_the_mcp_agent_loop_reaches_an_answer_with_a_real_model() -> None:
    done = run_python("examples/agent_loop_mcp.py", keep_keys=True)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert any(line.startswith("run_code -> ") for line in lines), done.stdout
    assert lines[-1].startswith("assistant: "), done.stdout


def test_the_readmes_first_command_prints_the_readmes_output() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    command = re.search(r"codemode (run [^\n]+)", readme)
    expected = re.search(r"```text\n(.*?)```", readme, re.S)
    assert command is not None
    assert expected is not None
    done = run_python("-c", "from codemode.cli import main; main()", *shlex.split(command[1]))
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected[1]
