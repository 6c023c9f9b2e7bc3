"""``python -m benchmarks``: codemode and its peers on W1–W7, cold start and memory, in one run.

Run from the project root (the peers come with ``pip install '.[bench]'``)::

    python -m benchmarks                      # the full run (a few minutes)
    python -m benchmarks --quick              # fewer rounds and samples
    python -m benchmarks --json figures.json  # also write the figures
    python -m benchmarks --systems codemode_full,monty
    python -m benchmarks --systems codemode_full --profile codemode_full --quick

It waits (``--quiet-wait`` seconds at most) for the machine's load average to
drop below ``--quiet-load``, then measures every system round by round and
prints one Markdown table of medians, p90s and ratios, with each target and
whether codemode's two columns meet it. Every run's result is checked; a wrong
one stops the benchmark with an error. Exit status: 0 measured, 1 a system
returned a wrong result, 2 usage error.
"""

from __future__ import annotations

import argparse
import shlex
import sys

from benchmarks._contenders import ORDER, BenchmarkError
from benchmarks._suite import Options, run


def _systems(text: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in text.split(",") if name.strip())
    unknown = [name for name in names if name not in ORDER]
    if unknown or not names:
        raise argparse.ArgumentTypeError(
            f"unknown system(s) {', '.join(unknown) or '(none given)'}; "
            f"choose from {', '.join(ORDER)}"
        )
    return names


ROWS = ("w1", "w2", "w3", "w4", "w5", "w6", "w7", "cold", "memory")


def _rows(text: str) -> tuple[str, ...]:
    rows = tuple(row.strip().lower() for row in text.split(",") if row.strip())
    unknown = [row for row in rows if row not in ROWS]
    if unknown or not rows:
        raise argparse.ArgumentTypeError(
            f"unknown row(s) {', '.join(unknown) or '(none given)'}; choose from {', '.join(ROWS)}"
        )
    return rows


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks", description=(__doc__ or "").splitlines()[0]
    )
    parser.add_argument("--rounds", type=int, default=None, help="rounds (default 10, quick 3)")
    parser.add_argument("--quick", action="store_true", help="3 rounds, a quarter of the samples")
    parser.add_argument(
        "--smoke", action="store_true",
        help="one round of one sample each, no waiting: checks that everything runs",
    )
    parser.add_argument("--json", metavar="FILE", help="write the figures to FILE as JSON")
    parser.add_argument(
        "--systems", type=_systems, default=ORDER,
        help=f"comma-separated, from {','.join(ORDER)} (default: all installed)",
    )
    parser.add_argument(
        "--quiet-wait", type=float, default=120.0, metavar="SECONDS",
        help="longest wait for a quiet machine before measuring anyway (default 120)",
    )
    parser.add_argument(
        "--quiet-load", type=float, default=0.5, metavar="LOAD",
        help="the 1-minute load average that counts as quiet (default 0.5)",
    )
    parser.add_argument(
        "--only", type=_rows, default=(), metavar="ROWS",
        help=f"comma-separated rows to measure, from {','.join(ROWS)} (default: all)",
    )
    parser.add_argument(
        "--profile", choices=ORDER, metavar="SYSTEM",
        help="cProfile the host side of SYSTEM's measured runs and print the top functions",
    )
    args = parser.parse_args(argv)
    rounds = args.rounds
    if rounds is None:
        rounds = 1 if args.smoke else 3 if args.quick else 10
    if rounds < 1:
        parser.error(f"--rounds must be 1 or more; got {rounds}")
    options = Options(
        rounds=rounds,
        cpu_scale=0.01 if args.smoke else 1.0,
        sample_scale=0.01 if args.smoke else 0.25 if args.quick else 1.0,
        systems=args.systems,
        quiet_seconds=0.0 if args.smoke else max(0.0, args.quiet_wait),
        quiet_load=args.quiet_load,
        command=shlex.join(
            ["python", "-m", "benchmarks", *(sys.argv[1:] if argv is None else argv)]
        ),
        log=lambda line: print(line, file=sys.stderr, flush=True),
        profile=args.profile,
        only=args.only,
    )
    try:
        report = run(options)
    except BenchmarkError as exc:
        print(f"benchmark stopped: {exc}", file=sys.stderr)
        return 1
    print(report.table())
    print()
    print(f"{report.rounds} round(s); {report.quiet}; load average before "
          f"{report.load_before[0]:.2f}, after {report.load_after[0]:.2f}")
    for name, why in report.missing.items():
        print(f"{name}: {why}")
    if args.json:
        report.write_json(args.json)
    return 0


if __name__ == "__main__":
    sys.exit(main())
