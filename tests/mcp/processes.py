"""Starting the MCP tests' real server processes, and waiting for them properly.

An HTTP server says where it listens on its stderr once its socket is
listening; the tests read that line (a blocking read, no sleep) and drain the
rest in a thread so the server never blocks on a full pipe. Every process is
killed and reaped when its fixture ends.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

REPO = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
WEATHER_SERVER = HERE / "weather_server.py"
#: The command line's entry point, run from this checkout.
CODEMODE = [sys.executable, "-c", "from codemode.cli import main; main()"]
#: Generous: only a deadlock ever reaches it.
GUARD_SECONDS = 120

_URL = re.compile(r"(http://127\.0\.0\.1:\d+/mcp)")


def checkout_env() -> dict[str, str]:
    """This process's environment with the checkout first on ``PYTHONPATH``."""
    return {**os.environ, "PYTHONPATH": str(REPO)}


@contextmanager
def http_server(argv: Sequence[str]) -> Iterator[str]:
    """Start ``argv``, wait for the URL it announces on stderr, yield it; kill it afterwards."""
    process = subprocess.Popen(
        list(argv), cwd=REPO, env=checkout_env(), stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        assert process.stderr is not None
        seen: list[str] = []
        for line in process.stderr:
            seen.append(line)
            found = _URL.search(line)
            if found:
                break
        else:
            raise AssertionError(f"{argv} exited before listening:\n{''.join(seen)}")
        drain = threading.Thread(target=process.stderr.read, daemon=True)
        drain.start()
        yield found[1]
    finally:
        stop(process)
        if process.stderr is not None:
            if "drain" in locals():
                drain.join(timeout=GUARD_SECONDS)  # the pipe ends with the process
            process.stderr.close()


def stop(process: subprocess.Popen[str]) -> None:
    """SIGTERM (a server shuts down cleanly on it), then reap; SIGKILL its group if it hangs."""
    process.terminate()
    try:
        process.wait(timeout=GUARD_SECONDS)
    except subprocess.TimeoutExpired:
        with suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        process.wait(timeout=GUARD_SECONDS)
