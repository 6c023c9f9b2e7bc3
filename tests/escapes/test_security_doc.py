"""SECURITY.md stays in sync with the code: every limit with its default, every advisory."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

from sandbox import Limits

from .test_advisories import ADVISORIES

SECURITY_MD = Path(__file__).resolve().parents[2] / "SECURITY.md"
_KIB = 1024
_MIB = 1024 * _KIB


def rendered(value: object) -> str:
    """A default as SECURITY.md writes it: ``60``, ``512 MiB``, ``64 KiB``, ``True``."""
    if isinstance(value, bool):
        return f"`{value}`"
    if isinstance(value, int) and value >= _MIB and value % _MIB == 0:
        return f"{value // _MIB} MiB"
    if isinstance(value, int) and value >= _KIB and value % _KIB == 0:
        return f"{value // _KIB} KiB"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def limit_rows() -> dict[str, str]:
    rows = {}
    for line in SECURITY_MD.read_text(encoding="utf-8").splitlines():
        match = re.match(r"^\| `(?P<name>[a-z_]+)` \| (?P<default>[^|]+) \|", line)
        if match:
            rows[match["name"]] = match["default"].strip()
    return rows


@pytest.mark.parametrize("field", [f.name for f in dataclasses.fields(Limits)])
def test_security_md_lists_every_limit_with_its_default(field: str) -> None:
    default = getattr(Limits(), field)
    assert limit_rows()[field].startswith(rendered(default))


@pytest.mark.parametrize("advisory", sorted(ADVISORIES))
def test_security_md_names_every_regression_tested_advisory(advisory: str) -> None:
    if advisory == "real asyncio":
        assert "real `asyncio`" in SECURITY_MD.read_text(encoding="utf-8")
    else:
        assert advisory in SECURITY_MD.read_text(encoding="utf-8")
