"""The first-try programs on disk: one model-style program a file, its expectations in a header.

Each ``programs/NNN_name.py`` is a ``run_code`` program (the body of an async
function) written the way a model writes one after reading the SDK section. The
three-digit number is the program's place in the set and unique in it (the first
round holds 001 to 099, later rounds continue from 100), so file-name order is
number order; the whole stem (``042_heapq_top_n``) is the program's id. It opens
with ``# key: value`` comment lines:

``description``
    The ``description`` argument the model would send with it.
``value``
    The JSON value the program returns when it works (what plain CPython gives
    with the same tools, a returned tuple written as a list, as ``json.dumps``
    writes it).
``logs``
    Optional: a JSON list of the exact lines it prints.
``limitation``
    Optional: the product limitation that makes it fail today. The program stays
    as the model wrote it; its test is a strict expected failure naming the
    limitation, so it turns red the day the limitation is lifted.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final

__all__ = ["PROGRAMS_DIR", "Program", "load_programs"]

PROGRAMS_DIR: Final = Path(__file__).parent / "programs"

_HEADER_LINE: Final = re.compile(r"^# (?P<key>[a-z]+): (?P<value>.*)$")
_KEYS: Final = frozenset({"description", "value", "logs", "limitation"})
_NAME: Final = re.compile(r"^(?P<number>\d{3})_[a-z0-9_]+\.py$")


@dataclass(frozen=True, slots=True)
class Program:
    """One model-style program and what it must produce."""

    id: str
    number: int
    path: Path
    text: str
    description: str
    value: object
    logs: tuple[str, ...] | None
    limitation: str | None


def _load(path: Path) -> Program:
    name = _NAME.match(path.name)
    if name is None:
        raise ValueError(f"{path}: name programs NNN_what_it_does.py (three digits)")
    text = path.read_text(encoding="utf-8")
    meta: dict[str, str] = {}
    for line in text.splitlines():
        match = _HEADER_LINE.match(line)
        if match is None:
            break
        key = match["key"]
        if key not in _KEYS or key in meta:
            raise ValueError(f"{path}: header key {key!r} is unknown or repeated")
        meta[key] = match["value"].strip()
    for key in ("description", "value"):
        if not meta.get(key):
            raise ValueError(f"{path}: the header needs a `# {key}: ...` line")
    logs = json.loads(meta["logs"]) if "logs" in meta else None
    if logs is not None and not (isinstance(logs, list) and all(isinstance(x, str) for x in logs)):
        raise ValueError(f"{path}: `# logs:` must be a JSON list of strings")
    return Program(
        id=path.stem,
        number=int(name["number"]),
        path=path,
        text=text,
        description=meta["description"],
        value=json.loads(meta["value"]),
        logs=tuple(logs) if logs is not None else None,
        limitation=meta.get("limitation") or None,
    )


def load_programs(directory: Path = PROGRAMS_DIR) -> tuple[Program, ...]:
    """Every program under ``directory``, in file-name (and so number) order."""
    return tuple(_load(path) for path in sorted(directory.glob("*.py")))
