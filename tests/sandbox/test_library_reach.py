"""No library function reaches a program raw, by any door (rules 7 and 9 of SECURITY.md).

A program walks everything it can reach from the allowed modules - members,
ordinary instances, their classes, what their methods return - and the host
classifies each value (``tests/sandbox/library_reach.py``, in a process of its
own: it sets library classes up as a child's zygote does). A library's Python
function must come in its checked form whether a class, an instance (json's
``parse_object``), a cache wrapper (``cache_parameters``) or a typing alias
(``copy_with``) holds it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent


def reach(*patch: str) -> dict[str, object]:
    """Run the walk; ``patch``: statements run first (to take a protection away)."""
    code = "\n".join(["import tests.sandbox.library_reach as reach", *patch, "reach.main()"])
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    report: dict[str, object] = json.loads(done.stdout)
    return report


def test_no_raw_library_function_hidden_class_or_interpreter_object_is_reachable() -> None:
    report = reach()
    assert report["error"] is None, report["error"]
    assert isinstance(report["reached"], int)
    assert report["reached"] > 1000  # the walk went wide, not stopped early
    assert report["findings"] == []


def test_the_walk_finds_what_a_missing_check_would_leave_raw() -> None:
    # Without the zygote's rebinding, JSONDecoder() keeps json's own functions.
    report = reach("reach.check_library_internals = lambda: None")
    findings = report["findings"]
    assert isinstance(findings, list)
    assert any("json.decoder.JSONObject" in finding for finding in findings), findings
