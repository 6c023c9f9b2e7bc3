"""``--log``: a log the session log refuses is a usage error, and `run`'s call ids are new to it.

A log whose events break the session log's invariants (a dispatch line
from another session, say) is one ``Error:`` line and exit status 2 for every
command that appends to it (``run --log``, ``serve-mcp --log``), before any
tool is loaded or any call runs; ``replay`` still shows it, with a warning.

``codemode run`` gives its program the call id ``run-`` and 8 random hex
digits, never one the log already holds, so runs that share a log (one of
them killed mid-run, say) never share ids.

Whatever escapes the pipeline is still one JSON object,
also when its ``__str__`` raises.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, NoReturn

import pytest
from click.testing import CliRunner

import codemode.cli as cli
from codemode.cli import main

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

RUN_ID = re.compile(r"run-[0-9a-f]{8}")

TOOLS = '''
def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()
'''

#: One dispatch line of another session: its root call is not open in this log.
FOREIGN = {
    "kind": "tool/code-dispatch", "seq": 1, "time": 1.0, "root_call_id": "other",
    "parent_call_id": "other", "sub_call_id": "other:code:1", "name": "x", "arguments": {},
    "is_error": False, "content": [],
}


@pytest.fixture
def tools(tmp_path: Path) -> Path:
    path = tmp_path / "my_tools.py"
    path.write_text(TOOLS)
    return path


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "program.py"
    path.write_text("return await tools.shout(text='a')\n")
    return path


def write_lines(path: Path, *events: dict[str, Any]) -> bytes:
    path.write_text("".join(json.dumps(event) + "\n" for event in events))
    return path.read_bytes()


def error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("Error: ")]


# -- a log that breaks the invariants ---------------------------------------------------------


def test_run_with_a_log_that_breaks_the_invariants_is_a_usage_error(
    tmp_path: Path, tools: Path, program: Path
) -> None:
    log = tmp_path / "foreign.jsonl"
    before = write_lines(log, FOREIGN)
    result = CliRunner().invoke(
        main, ["run", str(program), "--tools", str(tools), "--log", str(log), "--json"]
    )
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    [error] = error_lines(result.stderr)
    assert error.startswith(f"Error: --log {str(log)!r}: tool/code-dispatch event refused")
    assert 'root call "other" is not open' in error
    assert "Traceback" not in result.output
    assert log.read_bytes() == before  # nothing ran, nothing was appended


def test_serve_mcp_with_a_log_that_breaks_the_invariants_is_a_usage_error(
    tmp_path: Path, tools: Path
) -> None:
    pytest.importorskip("mcp")
    log = tmp_path / "foreign.jsonl"
    before = write_lines(log, FOREIGN)
    result = CliRunner().invoke(main, ["serve-mcp", "--tools", str(tools), "--log", str(log)])
    assert result.exit_code == 2, result.output
    [error] = error_lines(result.stderr)
    assert 'root call "other" is not open' in error
    assert "Traceback" not in result.output
    assert log.read_bytes() == before


@pytest.mark.parametrize("command", ["run", "serve-mcp"])
def test_the_refusal_is_one_line_whatever_the_ids_in_the_log_hold(
    command: str, tmp_path: Path, tools: Path, program: Path
) -> None:
    if command == "serve-mcp":
        pytest.importorskip("mcp")
    log = tmp_path / "forged.jsonl"
    forged = "other\nError: forged second line\u2028and a third"
    write_lines(log, {**FOREIGN, "root_call_id": forged, "parent_call_id": forged})
    args = ["run", str(program)] if command == "run" else ["serve-mcp"]
    result = CliRunner().invoke(main, [*args, "--tools", str(tools), "--log", str(log)])
    assert result.exit_code == 2, result.output
    [error] = error_lines(result.stderr)
    assert "other\\u000aError: forged second line\\u2028and a third" in error
    assert len(result.stderr.split("Error: ", 1)[1].splitlines()) == 1


def test_replay_shows_such_a_log_and_warns(tmp_path: Path) -> None:
    log = tmp_path / "foreign.jsonl"
    write_lines(log, FOREIGN, {**FOREIGN, "seq": 2, "sub_call_id": "other:code:2"})
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == ["other:code:1 x ok ?", "other:code:2 x ok ?"]
    [warning] = result.stderr.splitlines()
    assert warning.startswith(f"warning: {log}: 2 events break the session log's invariants")
    assert "the tool/code-dispatch event seq=1" in warning
    assert 'root call "other" is not open' in warning
    as_json = CliRunner().invoke(main, ["replay", "--json", str(log)])
    assert as_json.exit_code == 0
    assert [node["call_id"] for node in json.loads(as_json.stdout)] == [
        "other:code:1", "other:code:2"
    ]
    assert as_json.stderr.startswith("warning: ")


def test_replay_of_a_log_that_keeps_the_invariants_says_nothing_more(tmp_path: Path) -> None:
    log = tmp_path / "fine.jsonl"
    write_lines(
        log,
        {"kind": "tool/call", "seq": 1, "time": 1.0, "turn": 1, "step": 0, "call_id": "c1",
         "name": "run_code", "arguments": "{}"},
        {**FOREIGN, "seq": 2, "root_call_id": "c1", "parent_call_id": "c1",
         "sub_call_id": "c1:code:1"},
    )
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    assert result.stderr == ""


# -- the program's call id is new to the log --------------------------------------------------


def run_json(program: Path, tools: Path, log: Path) -> dict[str, Any]:
    result = CliRunner().invoke(
        main, ["run", str(program), "--tools", str(tools), "--log", str(log), "--json"]
    )
    assert result.exit_code == 0, result.output
    outcome: dict[str, Any] = json.loads(result.stdout)
    return outcome


def root_of(outcome: dict[str, Any]) -> str:
    [call] = outcome["calls"]
    root, number = call["id"].rsplit(":code:", 1)
    assert number == "1"
    assert RUN_ID.fullmatch(root), root
    return str(root)


def roots_in(log: Path) -> list[str]:
    return [
        event["call_id"] for event in map(json.loads, log.read_text().splitlines())
        if event["kind"] == "tool/call"
    ]


def test_each_run_on_a_log_has_a_call_id_of_its_own(
    tmp_path: Path, tools: Path, program: Path
) -> None:
    log = tmp_path / "session.jsonl"
    first = root_of(run_json(program, tools, log))
    second = root_of(run_json(program, tools, log))
    assert first != second
    assert roots_in(log) == [first, second]


@pytest.fixture
def drawn(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The suffixes `codemode run` draws, in order: the test appends what the next draws give."""
    suffixes: list[str] = []
    draws: Iterator[str] = iter(suffixes)

    def draw() -> str:
        return next(draws)

    monkeypatch.setattr(cli, "_run_call_id_suffix", draw)
    return suffixes


def test_a_drawn_id_the_log_holds_is_drawn_again(
    tmp_path: Path, tools: Path, program: Path, drawn: list[str]
) -> None:
    log = tmp_path / "session.jsonl"
    drawn.extend(["0000aaaa", "0000aaaa", "0000bbbb"])
    assert root_of(run_json(program, tools, log)) == "run-0000aaaa"
    assert root_of(run_json(program, tools, log)) == "run-0000bbbb"
    assert roots_in(log) == ["run-0000aaaa", "run-0000bbbb"]


def test_a_run_after_a_run_that_died_mid_run_uses_a_new_id(
    tmp_path: Path, tools: Path, program: Path, drawn: list[str]
) -> None:
    """A writer killed mid-run left its call and a sub-call open; the next run is not refused."""
    log = tmp_path / "crashed.jsonl"
    dead = "run-0000dead"
    write_lines(
        log,
        {"kind": "tool/call", "seq": 1, "time": 1.0, "turn": 1, "step": 0, "call_id": dead,
         "name": "run_code", "arguments": "{}"},
        {"kind": "tool/code-dispatch-start", "seq": 2, "time": 1.0, "root_call_id": dead,
         "parent_call_id": dead, "sub_call_id": f"{dead}:code:1", "name": "shout",
         "arguments": {"text": "a"}},
    )
    drawn.extend(["0000dead", "0000beef"])
    outcome = run_json(program, tools, log)
    assert outcome["ok"] is True
    assert root_of(outcome) == "run-0000beef"


def test_without_a_log_the_id_has_the_same_form(tools: Path, program: Path) -> None:
    result = CliRunner().invoke(main, ["run", str(program), "--tools", str(tools), "--json"])
    assert result.exit_code == 0, result.output
    root_of(json.loads(result.stdout))


def test_a_new_run_call_id_is_none_of_the_used_ones(drawn: list[str]) -> None:
    drawn.extend(["00000001", "00000002", "00000003"])
    assert cli._new_run_call_id({"run-00000001", "run-00000002"}) == "run-00000003"


# -- what escapes the pipeline ------------------------------------------------


class Unprintable(Exception):
    def __str__(self) -> str:
        raise KeyboardInterrupt("from __str__")


@pytest.mark.parametrize("raised", [Unprintable(), SystemExit(Unprintable())])
def test_a_host_failure_that_cannot_be_printed_is_still_one_object(
    raised: BaseException, tmp_path: Path, tools: Path, program: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def escapes(*args: object) -> NoReturn:
        raise raised

    monkeypatch.setattr(cli, "_run_program", escapes)
    result = CliRunner().invoke(main, ["run", str(program), "--tools", str(tools), "--json"])
    assert result.exit_code == 1, result.output
    [line] = result.stdout.splitlines()
    assert json.loads(line)["error"] == {
        "kind": "error", "message": f"{type(raised).__name__}: <unprintable thrown value>",
    }


def test_a_host_failure_message_is_one_bounded_line() -> None:
    failure = cli._host_failure(RuntimeError("a\n" * 10_000))
    message = failure["error"]["message"]
    assert message.startswith("RuntimeError: a a a")
    assert "\n" not in message
    assert len(message) <= len("RuntimeError: ") + 500
