"""Escape-testing the sandbox: a corpus of attack programs, run and judged from outside the child.

``codemode escape-test [DIR]`` runs a corpus through real sandbox children in
one ablation mode and reports, per category, which cases were contained and
which escaped (plus the legitimate programs a too-strict sandbox would break).
The corpus format is in :mod:`codemode.escapes._format`; the runner, which
builds a fresh stage (a secret file, a marker directory, canary sockets, a
victim process) for each case and reads every harm from outside the child, is
:mod:`codemode.escapes._runner`. The project's own corpus is :data:`CORPUS_DIR`.
"""

from __future__ import annotations

from ._format import CORPUS_DIR as CORPUS_DIR
from ._format import MODES as MODES
from ._format import Case as Case
from ._format import LegitProgram as LegitProgram
from ._format import Mode as Mode
from ._format import load_cases as load_cases
from ._format import load_legit_programs as load_legit_programs
from ._report import Report as Report
from ._report import build_report as build_report
from ._report import render_report as render_report
from ._runner import POOL_SIZE as POOL_SIZE
from ._runner import TOOL_NAMES as TOOL_NAMES
from ._runner import CaseOutcome as CaseOutcome
from ._runner import CorpusRun as CorpusRun
from ._runner import run_corpus as run_corpus
from ._runner import run_legit as run_legit

__all__ = [
    "CORPUS_DIR",
    "MODES",
    "POOL_SIZE",
    "TOOL_NAMES",
    "Case",
    "CaseOutcome",
    "CorpusRun",
    "LegitProgram",
    "Mode",
    "Report",
    "build_report",
    "load_cases",
    "load_legit_programs",
    "render_report",
    "run_corpus",
    "run_legit",
]
