"""Runs a corpus case with no protection at all: plain ``exec`` in a throwaway subprocess.

A corpus whose programs could never do harm proves nothing. This runner wraps
a case's program in an ``async def`` exactly as the sandbox would, executes it
with the real builtins in a fresh ``python -I`` process (as the host's own user),
and reports which harm signals fired, so a test can show that each case is a
real attack that only the sandbox stops.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Final

from codemode.escapes._stage import VICTIM_UID, Stage

if TYPE_CHECKING:
    from collections.abc import Sequence

    from codemode.escapes._format import Case

__all__ = ["PLAIN_TIMEOUT_SECONDS", "run_plain", "run_plain_all"]

#: Generous: a few network cases wait a second for a reply that never comes.
PLAIN_TIMEOUT_SECONDS: Final = 20.0

# The program becomes the body of an async function, the way the sandbox runs it;
# ToolCallError is defined here because some cases reach for its methods' globals.
_WRAPPER: Final = r"""
import asyncio
import json
import sys

VICTIM_UID = {victim_uid}

class ToolCallError(Exception):
    def __init__(self, message, tool_name=None, code=None):
        super().__init__(message)
        self.tool_name = tool_name
        self.code = code

source = sys.stdin.read()
if sys.argv[1:] == ["as-nobody"]:
    # Drop to the victim's uid (the one a child shares with it) only after
    # start-up: the interpreter's own files may be unreadable to that uid, so
    # import what the cases need first.
    import ctypes, fcntl, os, resource, socket
    os.setgroups([])
    os.setgid(VICTIM_UID)
    os.setuid(VICTIM_UID)
body = "async def program():\n"
body += "".join("    " + line + "\n" for line in source.splitlines())
body += "    return None\n"
namespace = {"ToolCallError": ToolCallError, "__name__": "program"}
exec(compile(body, "<model>", "exec"), namespace)
print(json.dumps(asyncio.run(namespace["program"]()), default=repr))
"""


def run_plain(case: Case, stage: Stage) -> dict[str, list[str]]:
    """Run ``case`` unprotected against ``stage``; return the harms found, per signal."""
    workdir = stage.root / "cwd"
    workdir.mkdir(exist_ok=True)
    # An ``as-nobody`` case runs as the victim's uid. Under root that means
    # dropping to ``VICTIM_UID``, which the stage gave its victim; under any other
    # uid the stage's victim runs as the host's own unprivileged uid, which this
    # run already has (and could not leave).
    as_nobody = case.plain_as_nobody and os.geteuid() == 0
    process = subprocess.Popen(
        [
            sys.executable, "-I", "-c", _WRAPPER.replace("{victim_uid}", str(VICTIM_UID)),
            *(["as-nobody"] if as_nobody else []),
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=workdir,
        env={"PATH": "/usr/bin:/bin"},
        start_new_session=True,
    )
    try:
        stdout, stderr = process.communicate(
            case.program(stage.substitutions()).encode(), timeout=PLAIN_TIMEOUT_SECONDS
        )
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        stdout, stderr = process.communicate()
    finally:
        # Forked helpers of the case (fork, pty, multiprocessing) share its session.
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    output = stdout.decode(errors="replace") + stderr.decode(errors="replace")
    return {
        "secret": stage.secret_harm(output),
        "marker": stage.marker_harm(),
        "canary": stage.canary_harm(),
        "victim": stage.victim_harm(),
        "ipc": stage.ipc_harm(),
    }


def _run_in_stage(case: Case, parent: Path) -> dict[str, list[str]]:
    stage = Stage.create(
        parent, case.id.replace("/", "__"),
        canary="canary" in case.signals, victim="victim" in case.signals,
    )
    try:
        return run_plain(case, stage)
    finally:
        stage.close()


def run_plain_all(cases: Sequence[Case], *, workers: int = 6) -> dict[str, dict[str, list[str]]]:
    """Run ``cases`` unprotected, several at a time; return each case's harms by case id.

    Each case has its own stage, so the runs cannot see each other's signals.
    """
    parent = Path(tempfile.mkdtemp(prefix="codemode-plain-"))
    os.chmod(parent, 0o755)
    try:
        with concurrent.futures.ThreadPoolExecutor(workers) as executor:
            harms = executor.map(lambda case: _run_in_stage(case, parent), cases)
            return {case.id: found for case, found in zip(cases, harms, strict=True)}
    finally:
        shutil.rmtree(parent, ignore_errors=True)
