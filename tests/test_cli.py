"""The ``codemode`` command (issue item 8): fast cases in-process, two through a real process."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from codemode.cli import main

REPO = Path(__file__).resolve().parent.parent
BOOKSHOP = ["run", "examples/programs/bookshop.py", "--tools", "examples/bookshop_tools.py"]

#: What the README says the first command prints.
BOOKSHOP_OUTPUT = """\
A Wizard of Earthsea (1968): £8.59
The Left Hand of Darkness (1969): £9.46
tool "get_price" raised KeyError: "no book with id 'nope'"
{
  "count": 2,
  "total_gbp": 18.05
}
"""

TOOLS = '''
from codemode import tool


def shout(text: str) -> str:
    """Upper-case the text."""
    return text.upper()


def fail(reason: str) -> str:
    """Always fail."""
    raise RuntimeError(reason)


def untyped(x):
    return x


def _private(x: int) -> int:
    return x


@tool(name="add-one")
def add_one(n: int) -> int:
    """Add one."""
    return n + 1


BOTH = [shout, add_one]
NOT_TOOLS = 42
'''


@pytest.fixture
def tools_file(tmp_path: Path) -> Path:
    path = tmp_path / "my_tools.py"
    path.write_text(TOOLS)
    return path


def program(tmp_path: Path, source: str) -> str:
    path = tmp_path / "program.py"
    path.write_text(textwrap.dedent(source))
    return str(path)


def invoke(*args: str) -> Any:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


#: The root call id `codemode run` gives its program: `run-` and 8 random hex digits.
RUN_ID = re.compile(r"run-[0-9a-f]{8}")


def run_root(calls: list[dict[str, Any]]) -> str:
    """The one root id every listed sub-call id (`<root>:code:<n>`, n from 1) is made of."""
    roots: set[str] = {call["id"].rsplit(":code:", 1)[0] for call in calls}
    [root] = roots
    assert RUN_ID.fullmatch(root), root
    assert [call["id"] for call in calls] == [f"{root}:code:{n}" for n in range(1, len(calls) + 1)]
    return root


def without_root(calls: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``calls`` with each id's root (checked by :func:`run_root`) written as ``run``."""
    root = run_root(calls)
    return [{**call, "id": "run" + call["id"][len(root):]} for call in calls]


def run_json(*args: str) -> tuple[int, dict[str, Any]]:
    result = invoke(*args, "--json")
    [line] = result.stdout.splitlines()
    parsed: dict[str, Any] = json.loads(line)
    return result.exit_code, parsed


# -- real processes -------------------------------------------------------------------------------


def test_the_readme_command_prints_what_the_readme_says_and_exits_zero() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from codemode.cli import main; main()", *BOOKSHOP],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == BOOKSHOP_OUTPUT


def test_the_json_output_is_exactly_one_object_in_a_real_process() -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from codemode.cli import main; main()", *BOOKSHOP, "--json"],
        cwd=REPO, capture_output=True, text=True, timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    outcome = json.loads(done.stdout)
    outcome["calls"] = without_root(outcome["calls"])
    assert outcome == {
        "ok": True,
        "result": {"count": 2, "total_gbp": 18.05},
        "logs": BOOKSHOP_OUTPUT.splitlines()[:3],
        "error": None,
        "calls": [
            {"id": "run:code:1", "name": "search_books", "is_error": False},
            {"id": "run:code:2", "name": "get_price", "is_error": False},
            {"id": "run:code:3", "name": "get_price", "is_error": False},
            {"id": "run:code:4", "name": "get_price", "is_error": True},
        ],
    }


# -- in-process -----------------------------------------------------------------------------------


def test_every_public_annotated_function_becomes_a_tool(tools_file: Path, tmp_path: Path) -> None:
    code, outcome = run_json(
        "run", program(tmp_path, "return [await tools.shout(text='hi'), "
                                 "await tools['add-one'](n=1)]"),
        "--tools", str(tools_file),
    )
    assert code == 0
    assert outcome["result"] == ["HI", 2]
    sdk = invoke("sdk", "--tools", str(tools_file)).stdout
    assert "async def shout(" in sdk
    assert "async def fail(" in sdk
    assert "untyped" not in sdk
    assert "_private" not in sdk


def test_an_attribute_names_a_list_of_tools(tools_file: Path, tmp_path: Path) -> None:
    code, outcome = run_json(
        "run", program(tmp_path, "return await tools.shout(text='x')"),
        "--tools", f"{tools_file}:BOTH",
    )
    assert (code, outcome["result"]) == (0, "X")
    sdk = invoke("sdk", "--tools", f"{tools_file}:BOTH").stdout
    assert "async def fail(" not in sdk


def test_a_module_name_on_the_path_with_a_registry_attribute(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "shop_registry.py").write_text(
        TOOLS + "\nfrom codemode import Registry\nREGISTRY = Registry()\n"
        "REGISTRY.register(add_one)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    code, outcome = run_json(
        "run", program(tmp_path, "return await tools['add-one'](n=41)"),
        "--tools", "shop_registry:REGISTRY",
    )
    assert (code, outcome["result"]) == (0, 42)


def test_a_failed_program_exits_one_with_its_kind_message_and_output(
    tools_file: Path, tmp_path: Path
) -> None:
    source = "print('before')\nawait tools.shout(text='a')\nraise ValueError('bad input')"
    code, outcome = run_json("run", program(tmp_path, source), "--tools", str(tools_file))
    assert code == 1
    assert outcome["ok"] is False
    assert outcome["result"] is None
    assert outcome["logs"] == ["before"]
    assert outcome["error"]["kind"] == "exception"
    assert "ValueError: bad input" in outcome["error"]["message"]
    assert without_root(outcome["calls"]) == [
        {"id": "run:code:1", "name": "shout", "is_error": False}
    ]
    plain = invoke("run", program(tmp_path, source), "--tools", str(tools_file))
    assert plain.exit_code == 1
    assert plain.stdout == "before\n"
    assert plain.stderr.startswith("error (exception): ")


def test_a_failed_tool_call_is_listed_as_an_error_call(tools_file: Path, tmp_path: Path) -> None:
    source = (
        "try:\n    await tools.fail(reason='no')\nexcept ToolCallError as e:\n    return str(e)"
    )
    code, outcome = run_json("run", program(tmp_path, source), "--tools", str(tools_file))
    assert (code, outcome["result"]) == (0, 'tool "fail" raised RuntimeError: no')
    assert without_root(outcome["calls"]) == [
        {"id": "run:code:1", "name": "fail", "is_error": True}
    ]


def test_a_program_calling_an_unknown_tool_is_rejected_before_it_runs(
    tools_file: Path, tmp_path: Path
) -> None:
    code, outcome = run_json(
        "run", program(tmp_path, "await tools.shout(text='a')\nawait tools.nope()"),
        "--tools", str(tools_file),
    )
    assert code == 1
    assert outcome["error"]["kind"] == "compile"
    assert 'unknown tool "nope"' in outcome["error"]["message"]
    assert outcome["calls"] == []


def test_the_timeout_option_bounds_the_program(tools_file: Path, tmp_path: Path) -> None:
    code, outcome = run_json(
        "run", program(tmp_path, "while True:\n    pass"), "--tools", str(tools_file),
        "--timeout", "0.5",
    )
    assert code == 1
    assert outcome["error"]["kind"] == "timeout"


GUARDED = '''
import sys
from codemode import Registry, tool

@tool
def ping() -> str:
    """Answer."""
    return "pong"

def leave(execution):
    sys.exit({code})

REGISTRY = Registry()
REGISTRY.register(ping)
REGISTRY.guard(leave)
'''


@pytest.mark.parametrize(("code", "message"), [("7", "SystemExit: 7"), ("", "SystemExit")])
def test_a_policy_listener_that_raises_is_named_in_the_error(
    code: str, message: str, tmp_path: Path
) -> None:
    tools = tmp_path / "guarded.py"
    tools.write_text(GUARDED.format(code=code))
    exit_code, outcome = run_json(
        "run", program(tmp_path, "return await tools.ping()"), "--tools", f"{tools}:REGISTRY"
    )
    assert exit_code == 1
    assert outcome["error"] == {"kind": "error", "message": message}


def test_the_log_option_writes_a_session_log_that_replays(
    tools_file: Path, tmp_path: Path
) -> None:
    log = tmp_path / "session.jsonl"
    result = invoke("run", program(tmp_path, "return await tools.shout(text='a')"),
                    "--tools", str(tools_file), "--log", str(log))
    assert result.exit_code == 0
    kinds = [json.loads(line).get("kind") for line in log.read_text().splitlines()]
    assert kinds[-4:] == ["tool/call", "tool/code-dispatch-start", "tool/code-dispatch",
                          "tool/result"]
    tree = invoke("replay", str(log)).stdout
    assert "run_code" in tree
    assert "shout" in tree
    as_json = json.loads(invoke("replay", str(log), "--json").stdout)
    root = as_json[0]["call_id"]
    assert RUN_ID.fullmatch(root), root
    assert as_json[0]["children"][0]["call_id"] == f"{root}:code:1"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("missing_dir/tools.py", "no such file"),
        ("no_such_module_anywhere", "no module of that name"),
        ("{tools}:MISSING", "has no attribute 'MISSING'"),
        ("{tools}:NOT_TOOLS", "not a tool or a typed function"),
        ("{empty}", "no public function with type annotations"),
        ("{broken}", "importing it failed"),
        ("{tools}:untyped", "untyped() cannot be a tool"),
        ("{dupes}", "twice"),
    ],
)
def test_a_bad_tools_value_is_a_usage_error_with_a_clear_message(
    spec: str, message: str, tools_file: Path, tmp_path: Path
) -> None:
    empty = tmp_path / "empty_tools.py"
    empty.write_text("X = 1\n")
    broken = tmp_path / "broken_tools.py"
    broken.write_text("raise ImportError('nope')\n")
    dupes = tmp_path / "dupe_tools.py"
    dupes.write_text(
        "from codemode import tool\n"
        "@tool(name='twice')\ndef a() -> int:\n    return 1\n"
        "@tool(name='twice')\ndef b() -> int:\n    return 2\n"
    )
    value = spec.format(tools=tools_file, empty=empty, broken=broken, dupes=dupes)
    result = CliRunner().invoke(main, ["run", program(tmp_path, "return 1"), "--tools", value])
    assert result.exit_code == 2
    assert message in result.stderr
    assert "--tools" in result.stderr


def test_a_missing_program_file_is_a_usage_error(tools_file: Path, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["run", str(tmp_path / "absent.py"), "--tools", str(tools_file)]
    )
    assert result.exit_code == 2
    assert "absent.py" in result.stderr
    assert "does not exist" in result.stderr


@pytest.mark.parametrize("value", ["inf", "1e400", "nan"])
def test_a_timeout_that_is_not_finite_is_a_usage_error(
    tools_file: Path, tmp_path: Path, value: str
) -> None:
    # Refused before anything runs, not reported as the program's failure (exit 1).
    result = CliRunner().invoke(
        main, ["run", program(tmp_path, "return 1"), "--tools", str(tools_file),
               "--timeout", value],
    )
    assert result.exit_code == 2
    assert "--timeout must be a finite number of seconds" in result.stderr


def test_replaying_a_damaged_log_is_a_usage_error_naming_the_line(tmp_path: Path) -> None:
    log = tmp_path / "damaged.jsonl"
    log.write_text('{"kind": "tool/call", "turn": "one"}\n')
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 2
    assert "line 1" in result.stderr
    assert "LOG_FILE" in result.stderr


def test_logging_to_a_damaged_log_is_a_usage_error_before_anything_runs(
    tools_file: Path, tmp_path: Path
) -> None:
    log = tmp_path / "damaged.jsonl"
    log.write_text("garbage\n")
    result = CliRunner().invoke(
        main, ["run", program(tmp_path, "return 1"), "--tools", str(tools_file), "--log", str(log)]
    )
    assert result.exit_code == 2
    assert "--log" in result.stderr
    assert "line 1" in result.stderr


# -- schemas --------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "names"),
    [("native", ["shout", "fail", "add-one"]), ("code", ["run_code"]),
     ("both", ["shout", "fail", "add-one", "run_code"])],
)
def test_schemas_lists_the_tools_of_the_mode(mode: str, names: list[str], tools_file: Path) -> None:
    result = invoke("schemas", "--tools", f"{tools_file}", "--mode", mode)
    assert result.exit_code == 0
    listed = json.loads(result.stdout)
    assert sorted(entry["name"] for entry in listed) == sorted(names)
    assert all(set(entry) == {"name", "description", "parameters"} for entry in listed)


def test_schemas_in_the_openai_format_say_on_stderr_why_a_tool_is_not_strict(
    tools_file: Path,
) -> None:
    result = invoke("schemas", "--tools", f"{tools_file}:BOTH", "--mode", "both",
                    "--format", "openai")
    assert result.exit_code == 0
    listed = json.loads(result.stdout)
    assert [(e["type"], e["function"]["name"], e["function"]["strict"]) for e in listed] == [
        ("function", "shout", True), ("function", "add-one", True),
        ("function", "run_code", False),
    ]
    assert result.stderr.startswith(
        'note: run_code is sent with strict: false: $: the object is not closed with '
        '"additionalProperties": false'
    )


def test_schemas_refuse_a_name_the_provider_refuses_as_a_usage_error(tmp_path: Path) -> None:
    tools = tmp_path / "dotted.py"
    tools.write_text(
        "from codemode import tool\n@tool(name='files.read')\ndef read() -> str:\n"
        "    '''Read.'''\n    return ''\n"
    )
    result = CliRunner().invoke(main, ["schemas", "--tools", str(tools), "--mode", "native",
                                       "--format", "anthropic"])
    assert result.exit_code == 2
    assert "tool 'files.read' cannot be sent in the 'anthropic' format" in result.stderr
    mcp = invoke("schemas", "--tools", str(tools), "--mode", "native", "--format", "mcp")
    assert json.loads(mcp.stdout)[0]["name"] == "files.read"
