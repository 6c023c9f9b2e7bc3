"""What the CLI writes to a terminal: a program's words never carry a control the terminal acts on.

A program (or a logged result) that prints an escape sequence could clear the
operator's screen, draw over earlier lines, set the window title or write the
clipboard. Every control is written as its ``\\uXXXX`` escape, in text and in
JSON alike, and JSON still decodes to exactly what the program produced.
"""

from __future__ import annotations

import json
import textwrap
from typing import TYPE_CHECKING

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from codemode._terminal import terminal_safe
from codemode.cli import main

if TYPE_CHECKING:
    from pathlib import Path

#: Every character a terminal or a bidirectional renderer acts on, and tab and newline.
BIDI = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
HOSTILE = "".join(chr(code) for code in range(0xA0)) + BIDI
#: Of those, the ones a terminal acts on (tab and newline are kept as they are).
ACTED_ON = frozenset(
    [chr(code) for code in range(0x20) if chr(code) not in "\t\n"]
    + [chr(code) for code in range(0x7F, 0xA0)]
    + list(BIDI)
)


def acted_on(text: str) -> list[str]:
    """The characters of ``text`` a terminal would act on."""
    return sorted(ACTED_ON.intersection(text))


@given(st.text())
def test_safe_text_holds_no_control_and_keeps_json_exact(text: str) -> None:
    assert acted_on(terminal_safe(text)) == []
    assert json.loads(terminal_safe(json.dumps(text, ensure_ascii=False))) == text


def test_every_control_is_shown_as_its_escape() -> None:
    shown = terminal_safe("a\x1b[2Jb\u202ec\x9bd\te\n")
    assert shown == "a\\u001b[2Jb\\u202ec\\u009bd\te\n"


TOOLS = '''
def echo(text: str) -> str:
    """Return the text."""
    return text
'''


def run_cli(tmp_path: Path, source: str, *extra: str) -> tuple[int, str, str]:
    tools = tmp_path / "tools.py"
    tools.write_text(TOOLS)
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(source))
    result = CliRunner().invoke(
        main, ["run", str(program), "--tools", str(tools), *extra], catch_exceptions=False
    )
    return result.exit_code, result.stdout, result.stderr


PRINTS_AND_RETURNS = f"""
hostile = {HOSTILE!r}
print("printed:" + hostile)
return "returned:" + await tools.echo(text=hostile)
"""

RAISES = f"""
raise ValueError("raised:" + {HOSTILE!r})
"""


def test_run_shows_printed_and_returned_controls_as_escapes(tmp_path: Path) -> None:
    code, stdout, stderr = run_cli(tmp_path, PRINTS_AND_RETURNS)
    assert code == 0, stderr
    assert acted_on(stdout + stderr) == []
    assert "printed:" in stdout
    assert "returned:" in stdout
    assert "\\u001b" in stdout
    assert "\\u202e" in stdout


def test_a_raised_message_on_stderr_shows_its_controls_as_escapes(tmp_path: Path) -> None:
    code, stdout, stderr = run_cli(tmp_path, RAISES)
    assert code == 1
    assert "raised:" in stderr
    assert acted_on(stdout + stderr) == []


def test_run_json_carries_the_exact_text_with_no_raw_control(tmp_path: Path) -> None:
    code, stdout, stderr = run_cli(tmp_path, PRINTS_AND_RETURNS, "--json")
    assert code == 0, stderr
    assert acted_on(stdout) == []
    outcome = json.loads(stdout)
    assert outcome["logs"] == ("printed:" + HOSTILE).split("\n")
    assert outcome["result"] == "returned:" + HOSTILE


def test_replay_shows_logged_controls_as_escapes(tmp_path: Path) -> None:
    log = tmp_path / "session.jsonl"
    code, _, stderr = run_cli(
        tmp_path, 'return await tools.echo(text="\\x1b]0;title\\x07\\u202eok")', "--log", str(log)
    )
    assert code == 0, stderr
    tree = CliRunner().invoke(main, ["replay", str(log)], catch_exceptions=False)
    assert tree.exit_code == 0
    assert "echo" in tree.stdout
    assert acted_on(tree.stdout) == []
    assert "\\u001b]0;title\\u0007\\u202eok" in tree.stdout
    as_json = CliRunner().invoke(main, ["replay", str(log), "--json"], catch_exceptions=False)
    assert acted_on(as_json.stdout) == []
    [sub_call] = json.loads(as_json.stdout)[0]["children"]
    assert sub_call["content"][0]["text"] == "\x1b]0;title\x07\u202eok"
