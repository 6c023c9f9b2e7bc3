"""``codemode run`` shows printed lines as the program prints them; ``--json`` stays one object."""

from __future__ import annotations

import fcntl
import json
import os
import select
import subprocess
import sys
import textwrap
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path

GUARD = 60  # seconds; a guard against hangs, never a timing assertion

TOOLS = '''
from codemode import tool


@tool(blocking=True)
def wait_for(path: str) -> str:
    """Read one line from a named pipe (blocks until the test writes it)."""
    with open(path, encoding="utf-8") as pipe:
        return pipe.readline().strip()
'''

PROGRAM = """
print("waiting for the go-ahead")
word = await tools.wait_for(path={fifo!r})
print("got", word)
return {{"word": word}}
"""


def start(tmp_path: Path, *options: str) -> tuple[subprocess.Popen[str], Path]:
    fifo = tmp_path / "go"
    os.mkfifo(fifo)
    (tmp_path / "live_tools.py").write_text(TOOLS)
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(PROGRAM.format(fifo=str(fifo))))
    command = [sys.executable, "-c", "from codemode.cli import main; main()", "run",
               str(program), "--tools", str(tmp_path / "live_tools.py"), *options]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    return process, fifo


def send(fifo: Path, line: str) -> int:
    """Write ``line`` to the pipe without waiting for a reader (O_RDWR never blocks)."""
    end = os.open(fifo, os.O_RDWR)
    os.write(end, line.encode())
    return end


def test_a_line_is_shown_before_the_program_ends(tmp_path: Path) -> None:
    process, fifo = start(tmp_path)
    try:
        assert process.stdout is not None
        # The program is blocked in its tool call until this test writes to the
        # pipe: the line can only be here if it was shown while the program ran.
        ready, _, _ = select.select([process.stdout], [], [], GUARD)
        assert ready, "nothing was printed while the program waited"
        assert process.stdout.readline() == "waiting for the go-ahead\n"
        end = send(fifo, "onward\n")
        rest, errors = process.communicate(timeout=GUARD)
        os.close(end)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 0, errors
    # Each line once, then the returned value.
    assert rest == 'got onward\n{\n  "word": "onward"\n}\n'


def test_json_prints_one_object_at_the_end_with_every_line(tmp_path: Path) -> None:
    process, fifo = start(tmp_path, "--json")
    try:
        # Nothing is printed while the program runs: writing to the pipe is
        # what lets it finish, so the output is read only afterwards.
        end = send(fifo, "onward\n")
        out, errors = process.communicate(timeout=GUARD)
        os.close(end)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 0, errors
    [line] = out.splitlines()
    outcome = json.loads(line)
    assert outcome["logs"] == ["waiting for the go-ahead", "got onward"]
    assert outcome["result"] == {"word": "onward"}


STALLED_TOOLS = TOOLS + '''

@tool(blocking=True)
def signal(path: str) -> str:
    """Write one line to a named pipe the test reads."""
    with open(path, "w", encoding="utf-8") as pipe:
        pipe.write("reached\\n")
    return "ok"
'''

STALLED_PROGRAM = """
print("waiting for the go-ahead")
await tools.wait_for(path={go!r})
for number in range(300):
    print(number, "x" * 60)
await tools.signal(path={reached!r})
return "done"
"""


def test_a_stdout_nobody_reads_does_not_stop_the_run(tmp_path: Path) -> None:
    # Lines were written on the event loop: with stdout full, every task stopped
    # there, the next tool call and the run's wall clock included.
    go, reached = tmp_path / "go", tmp_path / "reached"
    os.mkfifo(go)
    os.mkfifo(reached)
    (tmp_path / "live_tools.py").write_text(STALLED_TOOLS)
    program = tmp_path / "program.py"
    program.write_text(textwrap.dedent(STALLED_PROGRAM.format(go=str(go), reached=str(reached))))
    command = [sys.executable, "-c", "from codemode.cli import main; main()", "run",
               str(program), "--tools", str(tmp_path / "live_tools.py")]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=tmp_path
    )
    signalled = os.open(reached, os.O_RDONLY | os.O_NONBLOCK)
    end = None
    try:
        assert process.stdout is not None
        # 4 KiB of pipe: the 300 lines (19 KB) fill it while this test reads nothing.
        fcntl.fcntl(process.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)
        assert process.stdout.readline() == "waiting for the go-ahead\n"
        end = send(go, "onward\n")
        ready, _, _ = select.select([signalled], [], [], GUARD)
        assert ready, "the tool call after the printing never ran"
        assert os.read(signalled, 64) == b"reached\n"
        rest, errors = process.communicate(timeout=GUARD)
    finally:
        os.close(signalled)
        if end is not None:
            os.close(end)
        process.kill()
        process.wait()
    assert process.returncode == 0, errors
    # Nothing lost, in order, then the value.
    lines = rest.splitlines()
    assert lines[:300] == [f"{number} {'x' * 60}" for number in range(300)]
    assert lines[300:] == ["done"]
