"""The command's contract under hostile tools modules, driven through the real command.

stdout carries only what the command prints (one JSON object under ``--json``);
whatever a tools module or a tool prints goes to stderr; a tool raising
``SystemExit``, ``KeyboardInterrupt`` or any ``BaseException`` is that call's
failure; a tools module that cannot be loaded is one readable line with exit
status 2; the current folder is importable; ``--help`` tells how to use each
command. Every case runs the installed console script or ``python -m codemode``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
SCRIPT = Path(sys.executable).with_name("codemode")
COMMANDS = {"script": [str(SCRIPT)], "module": [sys.executable, "-m", "codemode"]}

HOSTILE = '''
import os
import subprocess
import sys

print("tools module says hello at import")


class Custom(BaseException):
    pass


def chatty(text: str) -> str:
    """Print in three ways, then answer."""
    print("chatty print", text)
    sys.stdout.write("chatty sys.stdout\\n")
    os.write(1, b"chatty fd 1\\n")
    subprocess.run(["echo", "chatty subprocess"], check=True)
    return text.upper()


def exits(code: int) -> str:
    """sys.exit with the given status."""
    sys.exit(code)


def interrupts() -> str:
    """Raise KeyboardInterrupt."""
    raise KeyboardInterrupt


def custom() -> str:
    """Raise a BaseException subclass."""
    raise Custom("odd one")
'''

CATCH_ALL = '''
out = {"chatty": await tools.chatty(text="hi")}
for name, call in [("exits", lambda: tools.exits(code=3)), ("interrupts", tools.interrupts),
                   ("custom", tools.custom)]:
    try:
        await call()
    except ToolCallError as error:
        out[name] = str(error)
print("program line")
return out
'''


def command(kind: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*COMMANDS[kind], *args], cwd=cwd, capture_output=True, text=True, timeout=180,
        check=False,
    )


@pytest.fixture
def hostile(tmp_path: Path) -> Path:
    (tmp_path / "hostile.py").write_text(HOSTILE)
    (tmp_path / "catch_all.py").write_text(CATCH_ALL)
    (tmp_path / "uncaught.py").write_text("return await tools.exits(code=4)\n")
    return tmp_path


def one_object(stdout: str) -> dict[str, Any]:
    [line] = stdout.splitlines()
    parsed: dict[str, Any] = json.loads(line)
    return parsed


def test_the_console_script_exists() -> None:
    assert SCRIPT.is_file(), "install the package (pip install -e .) to get the console script"


@pytest.mark.parametrize("kind", sorted(COMMANDS))
def test_prints_go_to_stderr_and_base_exceptions_are_call_failures(
    kind: str, hostile: Path
) -> None:
    done = command(kind, "run", "catch_all.py", "--tools", "hostile", "--json", cwd=hostile)
    assert done.returncode == 0, done.stderr
    outcome = one_object(done.stdout)
    assert outcome["result"] == {
        "chatty": "HI",
        "exits": 'tool "exits" raised SystemExit: 3',
        "interrupts": 'tool "interrupts" raised KeyboardInterrupt',
        "custom": 'tool "custom" raised Custom: odd one',
    }
    assert outcome["logs"] == ["program line"]
    assert [c["is_error"] for c in outcome["calls"]] == [False, True, True, True]
    for text in ("tools module says hello at import", "chatty print hi", "chatty sys.stdout",
                 "chatty fd 1", "chatty subprocess"):
        assert text in done.stderr
    assert "Traceback" not in done.stderr


def test_without_json_stdout_is_only_what_the_program_printed_and_returned(
    hostile: Path,
) -> None:
    done = command("script", "run", "catch_all.py", "--tools", "hostile.py", cwd=hostile)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("program line\n{\n")
    assert "chatty" not in done.stdout.replace('"chatty": "HI"', "")
    assert "chatty fd 1" in done.stderr


def test_an_uncaught_system_exit_in_a_tool_fails_the_program_with_status_one(
    hostile: Path,
) -> None:
    done = command("script", "run", "uncaught.py", "--tools", "hostile", "--json", cwd=hostile)
    assert done.returncode == 1, done.stderr
    outcome = one_object(done.stdout)
    assert outcome["ok"] is False
    assert outcome["error"]["kind"] == "exception"
    assert 'tool "exits" raised SystemExit: 4' in outcome["error"]["message"]
    assert "Traceback" not in done.stderr


def test_a_policy_listener_raising_system_exit_is_still_one_object_and_status_one(
    tmp_path: Path,
) -> None:
    (tmp_path / "guarded.py").write_text(textwrap.dedent('''
        import sys
        from codemode import Registry, tool

        @tool
        def ping() -> str:
            """Answer."""
            return "pong"

        def leave(execution):
            sys.exit(7)

        REGISTRY = Registry()
        REGISTRY.register(ping)
        REGISTRY.guard(leave)
    '''))
    (tmp_path / "program.py").write_text("return await tools.ping()\n")
    done = command("script", "run", "program.py", "--tools", "guarded.py:REGISTRY", "--json",
                   cwd=tmp_path)
    assert done.returncode == 1, done.stderr
    outcome = one_object(done.stdout)
    assert outcome["ok"] is False
    assert outcome["error"] == {"kind": "error", "message": "SystemExit: 7"}
    assert "Traceback" not in done.stderr


def test_sdk_and_schemas_print_only_their_own_output(hostile: Path) -> None:
    sdk = command("script", "sdk", "--tools", "hostile", cwd=hostile)
    assert sdk.returncode == 0, sdk.stderr
    assert "async def chatty(" in sdk.stdout
    assert "hello at import" not in sdk.stdout
    schemas = command("script", "schemas", "--tools", "hostile", "--mode", "native",
                      "--format", "anthropic", cwd=hostile)
    assert schemas.returncode == 0, schemas.stderr
    names = [entry["name"] for entry in json.loads(schemas.stdout)]
    assert names == ["chatty", "exits", "interrupts", "custom"]
    assert "hello at import" in schemas.stderr


BROKEN = {
    "syntax.py": "def broken(:\n    pass\n",
    "imports.py": "import no_such_dependency_anywhere\n",
    "exits.py": "import sys\nsys.exit(5)\n",
    "interrupts.py": "raise KeyboardInterrupt\n",
    "names.py": "undefined_name + 1\n",
    "multiline.py": "raise RuntimeError('first line\\nsecond line')\n",
    "unprintable.py": (
        "class Hostile(Exception):\n"
        "    def __str__(self):\n"
        "        raise KeyboardInterrupt\n"
        "raise Hostile()\n"
    ),
}


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("syntax.py", "--tools 'syntax.py': syntax error in syntax.py, line 1: "),
        ("syntax", "--tools 'syntax': syntax error in syntax.py, line 1: "),
        ("imports.py", "--tools 'imports.py': importing it failed: ModuleNotFoundError: "
                       "No module named 'no_such_dependency_anywhere'"),
        ("imports", "--tools 'imports': importing it failed: ModuleNotFoundError: "
                    "No module named 'no_such_dependency_anywhere'"),
        ("exits.py", "--tools 'exits.py': importing it failed: SystemExit: 5"),
        ("interrupts.py", "--tools 'interrupts.py': importing it failed: KeyboardInterrupt"),
        ("names.py", "--tools 'names.py': importing it failed: NameError: "
                     "name 'undefined_name' is not defined"),
        ("multiline.py", "--tools 'multiline.py': importing it failed: RuntimeError: "
                         "first line second line"),
        # Its __str__ raised KeyboardInterrupt: "Aborted!" and status 1 before.
        ("unprintable.py", "--tools 'unprintable.py': importing it failed: Hostile: "
                           "<unprintable thrown value>"),
        ("absent.py", "--tools 'absent.py': no such file"),
        ("absent_module", "--tools 'absent_module': no module of that name"),
        ("syntax.py:", "--tools 'syntax.py:': nothing after ':'; name an attribute"),
        (":TOOLS", "--tools ':TOOLS': nothing before ':'"),
        ("syntax.py:not-a-name",
         "--tools 'syntax.py:not-a-name': 'not-a-name' after ':' is not a Python identifier"),
    ],
)
def test_every_tools_file_problem_is_one_readable_line_with_status_two(
    spec: str, message: str, tmp_path: Path
) -> None:
    for name, text in BROKEN.items():
        (tmp_path / name).write_text(text)
    (tmp_path / "program.py").write_text("return 1\n")
    done = command("script", "run", "program.py", "--tools", spec, "--json", cwd=tmp_path)
    assert done.returncode == 2
    assert done.stdout == ""
    assert "Traceback" not in done.stderr
    [error] = [line for line in done.stderr.splitlines() if line.startswith("Error: ")]
    assert error.startswith("Error: " + message), done.stderr


def test_the_current_folder_is_importable_for_a_module_name(tmp_path: Path) -> None:
    (tmp_path / "mytools.py").write_text(textwrap.dedent('''
        def double(n: int) -> int:
            """Double it."""
            return 2 * n
    '''))
    (tmp_path / "program.py").write_text("return await tools.double(n=21)\n")
    done = command("script", "run", "program.py", "--tools", "mytools", "--json", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert one_object(done.stdout)["result"] == 42


# -- help -----------------------------------------------------------------------------------------

SUBCOMMANDS = ["run", "sdk", "schemas", "replay", "escape-test", "serve-mcp"]
WITH_JSON = ["run", "replay", "escape-test"]


def test_bare_codemode_prints_help_and_exits_zero(tmp_path: Path) -> None:
    done = command("script", cwd=tmp_path)
    assert done.returncode == 0
    assert done.stdout.startswith("Usage: codemode")
    listed = done.stdout.split("Commands:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    summaries = {line.split()[0]: " ".join(line.split()[1:]) for line in listed}
    assert sorted(summaries) == sorted(SUBCOMMANDS)
    for name, summary in summaries.items():
        assert summary.endswith("."), (name, summary)
        assert not summary.endswith("..."), (name, summary)


@pytest.mark.parametrize("name", SUBCOMMANDS)
def test_every_command_has_help_with_an_example_and_its_exit_statuses(
    name: str, tmp_path: Path
) -> None:
    done = command("module", name, "--help", cwd=tmp_path)
    assert done.returncode == 0
    text = done.stdout
    assert f"Usage: codemode {name}" in text
    example = text.split("Example:\n", 1)[1].splitlines()[0].strip()
    assert example.startswith(f"codemode {name}")
    assert "Exit status: 0 " in text
    if name in WITH_JSON:
        assert "--json prints" in text
