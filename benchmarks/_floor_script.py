"""What the floor scripts share: the handle on their fork server, and their command line."""

from __future__ import annotations

import argparse
import functools
import json
import os
import socket
import subprocess
import sys
from typing import TYPE_CHECKING

import anyio

from benchmarks._contenders import BenchmarkError

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

__all__ = ["ForkServer", "run_floor_script"]


class ForkServer:
    """A fork server subprocess (``python -I -c code``), driven over a socket pair.

    ``code`` gets the socket's descriptor as ``sys.argv[1]`` and ``args`` after
    it. Asked for a child, it forks one and sends back the host's ends of its two
    pipes; any other request is the server's own business (:meth:`ask`).
    """

    def __init__(self, code: str, *args: str) -> None:
        self._sock, theirs = socket.socketpair()
        self._process = subprocess.Popen(
            [sys.executable, "-I", "-c", code, str(theirs.fileno()), *args],
            pass_fds=[theirs.fileno()],
        )
        theirs.close()

    def child(self) -> tuple[int, int]:
        """A new child's pipe ends: the one to write to and the one to read from."""
        self._sock.sendall(b"child")
        _, fds, _, _ = socket.recv_fds(self._sock, 64, 2)
        if len(fds) != 2:
            raise BenchmarkError("the fork server sent no pipes for a child")
        return fds[0], fds[1]

    def ask(self, request: bytes) -> bytes:
        """Send ``request`` and return the server's answer (at most 64 bytes)."""
        self._sock.sendall(request)
        return self._sock.recv(64)

    def close(self) -> None:
        self._sock.close()
        self._process.wait(timeout=30)


def run_floor_script(
    description: str | None,
    measure: Callable[..., Awaitable[dict[str, float]]],
    table: Callable[[dict[str, float]], str],
    argv: list[str] | None,
    *,
    samples_help: str,
) -> int:
    """Parse ``--rounds``, ``--samples`` and ``--json``, measure, print the table.

    ``measure(rounds, samples=...)`` returns the figures; ``table`` renders them.
    Returns the exit status (2 off Linux: the scripts fork and read ``/proc``).
    """
    parser = argparse.ArgumentParser(description=(description or "").splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--samples", type=int, default=20, help=samples_help)
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    args = parser.parse_args(argv)
    for name in ("rounds", "samples"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be 1 or more; got {getattr(args, name)}")
    if sys.platform != "linux":
        print("this benchmark needs Linux (fork, /proc/PID/smaps_rollup)", file=sys.stderr)
        return 2
    figures = anyio.run(functools.partial(measure, args.rounds, samples=args.samples))
    print(table(figures))
    print(f"\n{os.cpu_count()} CPUs; load average {os.getloadavg()[0]:.2f}; "
          f"Python {sys.version.split()[0]}")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as file:
            json.dump(figures, file, indent=2, sort_keys=True)
    return 0
