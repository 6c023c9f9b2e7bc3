"""Escape-test a corpus of your own, in every ablation mode, through the real sandbox.

``examples/escape_corpus/`` holds three attack programs (read a secret file,
write a marker file, run a shell command) and one legitimate program that must
keep working. Each attack's header names the harm the runner checks from
outside the child. This script runs the corpus with all three layers, then with
each layer alone, and prints the table ``codemode escape-test`` prints::

    codemode escape-test examples/escape_corpus --layers os

Run it with ``python examples/escape_test_corpus.py``.
"""

from __future__ import annotations

from pathlib import Path

import anyio

from codemode.escapes import (
    MODES,
    POOL_SIZE,
    build_report,
    load_cases,
    load_legit_programs,
    render_report,
    run_corpus,
    run_legit,
)

CORPUS = Path(__file__).parent / "escape_corpus"


async def main() -> None:
    cases = load_cases(CORPUS)
    programs = load_legit_programs(CORPUS / "legit")
    for mode in MODES:
        run = await run_corpus(mode, tuple(c for c in cases if mode in c.applies))
        results = await run_legit(mode, programs)
        legit = {p.id: (p, results[p.id]) for p in programs}
        report = build_report(CORPUS.relative_to(CORPUS.parent.parent), run, legit,
                              pool_size=POOL_SIZE)
        print(render_report(report))
        print()


if __name__ == "__main__":
    anyio.run(main)
