"""SECURITY.md's audit table covers every name a program can reach; nothing withdrawn is exposed."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Final

import pytest

from sandbox._builtins import SAFE_BUILTINS
from sandbox._facades_members import _module_members

_DOC: Final = Path(__file__).parents[2] / "SECURITY.md"
_VERDICTS: Final = frozenset({"safe", "wrapped", "withdrawn"})
#: Names the runtime binds per run, beside the allow-listed builtins.
_PER_RUN_BUILTINS: Final = frozenset({"print", "__import__"})


def _audit_rows() -> list[tuple[list[str], str, set[str], str]]:
    text = _DOC.read_text(encoding="utf-8")
    section = text.split("#### Audit: every class and callable a program can reach", 1)[1]
    section = section.split("\n#", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) != 4 or cells[0] in ("module", "---"):
            continue
        modules = [name.strip() for name in cells[0].split(",")]
        names = set(re.findall(r"`([^`]+)`", cells[1]))
        rows.append((modules, cells[1], names, cells[2]))
    return rows


def _exposed() -> dict[str, set[str]]:
    exposed = {module: set(members) for module, members in _module_members().items()}
    exposed["builtins"] = set(SAFE_BUILTINS) | _PER_RUN_BUILTINS
    return exposed


def test_every_row_has_a_verdict() -> None:
    rows = _audit_rows()
    assert len(rows) > 40
    assert {verdict for *_, verdict in rows} <= _VERDICTS


@pytest.mark.parametrize("module", sorted(_exposed()))
def test_every_exposed_name_has_a_row(module: str) -> None:
    covered: set[str] = set()
    for modules, cell, names, verdict in _audit_rows():
        if module not in modules or verdict == "withdrawn":
            continue
        if cell.startswith("all members"):
            covered |= _exposed()[module]
        covered |= names
    missing = _exposed()[module] - covered
    assert not missing, f"{module}: no audit row for {sorted(missing)}"


def test_nothing_withdrawn_is_exposed() -> None:
    exposed = _exposed()
    for modules, _cell, names, verdict in _audit_rows():
        if verdict != "withdrawn":
            continue
        for module in modules:
            assert not names & exposed[module], f"{module}: withdrawn but exposed"
