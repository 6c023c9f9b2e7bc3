"""The escape corpus on disk: one program per file, metadata in a header comment block.

Each file under ``corpus/<category>/<name>.py`` is a *program* (the body of an
async function, as the sandbox runs it), not a test module. It opens with
``# key: value`` lines:

``category``
    The directory it lives in (checked).
``signal``
    Space-separated harms checked from outside the child after the run:
    ``secret`` (the secret file's content appears nowhere in the result, and the
    file is intact), ``marker`` (nothing appeared in the marker directory),
    ``canary`` (neither the loopback TCP listener nor the Unix datagram sockets at
    ``{UNIX_SOCKET}`` and in the abstract namespace received anything), ``victim`` (a
    process of the children's unprivileged uid, not the program's own, is alive,
    untraced, and keeps its priority, CPU affinity and limits), ``ipc`` (no
    System V IPC object with the stage's key exists), ``liveness`` (the next run
    succeeds and the child left no process behind), ``handler`` (the host's tool
    handler saw only declared names and lossless arguments), ``state`` (a probe
    program run afterwards sees pristine modules), ``leak`` (the result does not
    match the ``leak`` pattern; judged only with the language layer on, since
    disclosing interpreter internals is that layer's concern), ``bounded`` (the
    result is no larger than the output caps allow) and ``limit`` (the run ends
    with one of ``kinds``: the host's limits, not the program, ended it).
``expect``
    Error kinds the run must end with whenever the language layer is on;
    ``refused`` stands for ``exception`` or ``compile``.
``kinds``
    Error kinds the run must end with in every mode (``expect`` wins when the
    language layer is on).
``applies``
    Ablation modes the case runs in (default all three); a memory bomb, for
    instance, needs the address-space rlimit and is not run with the OS layer off.
``plain``
    ``skip (<reason>)`` keeps the case out of the plain-CPython validation;
    ``as-nobody (<reason>)`` runs it there as the children's unprivileged uid.
``leak``
    A regular expression for the ``leak`` signal.
``repeat``
    The program is the body after the header, repeated this many times (for
    programs too large to keep in the repository). Such cases run alone, after
    the others, since they may load the host itself.
``source``
    Where the technique comes from: an advisory id or a short description.

Placeholders the runner substitutes: ``{SECRET_PATH}``, ``{MARKER_PATH}``,
``{MARKER_DIR}``, ``{CANARY_PORT}``, ``{UNIX_SOCKET}``, ``{VICTIM_PID}`` and ``{IPC_KEY}``
(the abstract Unix canary is ``"\\0codemode-{IPC_KEY}"``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TypeAlias, get_args

__all__ = [
    "CORPUS_DIR",
    "HARM_SIGNALS",
    "LEGIT_DIR",
    "MODES",
    "SIGNALS",
    "Case",
    "LegitProgram",
    "Mode",
    "load_cases",
    "load_legit_programs",
]

#: The three ablation modes: both layers, the language layer alone, the OS layer alone.
Mode: TypeAlias = Literal["both", "language", "os"]
MODES: Final[tuple[Mode, ...]] = get_args(Mode)

CORPUS_DIR: Final = Path(__file__).parent / "corpus"
#: Legitimate programs live beside the escape cases so that the linters skip them too.
LEGIT_DIR: Final = CORPUS_DIR / "legit"

SIGNALS: Final = frozenset(
    {"secret", "marker", "canary", "victim", "ipc", "liveness", "handler", "state", "leak",
     "bounded", "limit"}
)
#: Signals whose harm is a change to the world outside the child; the plain-CPython
#: validation shows that these fire when nothing protects the host.
HARM_SIGNALS: Final = frozenset({"secret", "marker", "canary", "victim", "ipc"})

_KINDS: Final = frozenset(
    {"exception", "compile", "timeout", "abort", "worker-exit", "invalid-output", "output-limit"}
)
_HEADER_LINE: Final = re.compile(r"^# (?P<key>[a-z-]+): (?P<value>.*)$")
_KEYS: Final = frozenset(
    {"category", "signal", "expect", "kinds", "applies", "plain", "leak", "source", "repeat"}
)
#: ``ok`` in a kinds line: the run may also succeed.
_OK: Final = "ok"


@dataclass(frozen=True, slots=True)
class Case:
    """One escape or abuse program and what the runner checks after it ran."""

    id: str
    category: str
    path: Path
    text: str
    signals: frozenset[str]
    expect: frozenset[str] | None
    kinds: frozenset[str] | None
    applies: frozenset[Mode]
    plain: bool
    plain_as_nobody: bool
    leak: re.Pattern[str] | None
    source: str
    repeat: int = 1

    def program(self, substitutions: dict[str, str]) -> str:
        """Return the program text with every placeholder replaced."""
        text = self.text
        if self.repeat > 1:
            body = "".join(line + "\n" for line in text.splitlines() if not line.startswith("# "))
            text = body * self.repeat
        for key, value in substitutions.items():
            text = text.replace("{" + key + "}", value)
        return text

    def expected_kinds(self, mode: Mode) -> frozenset[str] | None:
        """The error kinds this case may end with in ``mode`` (``None``: any outcome)."""
        if mode != "os" and self.expect is not None:
            return self.expect
        return self.kinds


@dataclass(frozen=True, slots=True)
class LegitProgram:
    """A legitimate program and the value (and optionally the logs) it must produce."""

    id: str
    path: Path
    text: str
    value: object
    logs: tuple[str, ...] | None


def _header(path: Path) -> tuple[dict[str, str], str]:
    text = path.read_text(encoding="utf-8")
    meta: dict[str, str] = {}
    for line in text.splitlines():
        match = _HEADER_LINE.match(line)
        if match is None:
            break
        key = match["key"]
        if key in meta:
            raise ValueError(f"{path}: header key {key!r} appears twice")
        meta[key] = match["value"].strip()
    return meta, text


def _kinds(path: Path, key: str, value: str | None) -> frozenset[str] | None:
    if value is None:
        return None
    words = set(value.split())
    if "refused" in words:
        words = (words - {"refused"}) | {"exception", "compile"}
    unknown = words - _KINDS - {_OK}
    if unknown or not words:
        raise ValueError(f"{path}: {key}={value!r} names unknown error kinds {sorted(unknown)}")
    return frozenset(words)


def _load_case(path: Path) -> Case:
    meta, text = _header(path)
    unknown = set(meta) - _KEYS
    if unknown:
        raise ValueError(f"{path}: unknown header keys {sorted(unknown)}")
    category = path.parent.name
    if meta.get("category") != category:
        raise ValueError(
            f"{path}: category={meta.get('category')!r} but the file is in {category!r}"
        )
    signals = frozenset(meta.get("signal", "").split())
    if not signals or not signals <= SIGNALS:
        raise ValueError(f"{path}: signal={meta.get('signal')!r}; use some of {sorted(SIGNALS)}")
    applies_words = frozenset(meta.get("applies", " ".join(MODES)).split())
    if not applies_words or not applies_words <= set(MODES):
        raise ValueError(f"{path}: applies={meta.get('applies')!r}; use some of {MODES}")
    applies = frozenset(mode for mode in MODES if mode in applies_words)
    kinds = _kinds(path, "kinds", meta.get("kinds"))
    if "limit" in signals and kinds is None:
        raise ValueError(f"{path}: a limit case needs a kinds line")
    leak = meta.get("leak")
    if ("leak" in signals) != (leak is not None):
        raise ValueError(f"{path}: the leak signal and the leak pattern go together")
    if "source" not in meta:
        raise ValueError(f"{path}: every case names its source")
    return Case(
        id=f"{category}/{path.stem}",
        category=category,
        path=path,
        text=text,
        signals=signals,
        expect=_kinds(path, "expect", meta.get("expect")),
        kinds=kinds,
        applies=applies,
        plain=not meta.get("plain", "").startswith("skip"),
        plain_as_nobody=meta.get("plain", "").startswith("as-nobody"),
        leak=re.compile(leak) if leak is not None else None,
        source=meta["source"],
        repeat=int(meta.get("repeat", "1")),
    )


def load_cases(directory: Path = CORPUS_DIR) -> tuple[Case, ...]:
    """Load every escape case under ``directory`` (the ``legit`` programs excluded), sorted."""
    paths = sorted(
        path for path in directory.glob("*/*.py") if path.parent.name != LEGIT_DIR.name
    )
    return tuple(_load_case(path) for path in paths)


def load_legit_programs(directory: Path = LEGIT_DIR) -> tuple[LegitProgram, ...]:
    """Load the legitimate programs: ``# value: <json>`` and optional ``# logs: <json list>``."""
    import json

    programs = []
    for path in sorted(directory.glob("*.py")):
        meta, text = _header(path)
        if "value" not in meta:
            raise ValueError(f"{path}: a legitimate program names its expected value")
        logs = meta.get("logs")
        programs.append(
            LegitProgram(
                id=path.stem,
                path=path,
                text=text,
                value=json.loads(meta["value"]),
                logs=tuple(json.loads(logs)) if logs is not None else None,
            )
        )
    return tuple(programs)
