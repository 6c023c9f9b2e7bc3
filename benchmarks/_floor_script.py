"""The command line the floor scripts share: rounds and samples in, a table and JSON out."""

from __future__ import annotations

import argparse
import functools
import json
import os
import sys
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable

__all__ = ["run_floor_script"]


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
