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
    process of the child's own unprivileged uid, not the program's own, is alive,
    untraced, and keeps its priority, CPU affinity and limits), ``ipc`` (no
    System V IPC object with the stage's key exists), ``liveness`` (the next run
    succeeds and the child left no process behind), ``handler`` (the host's tool
    handler saw only declared names and lossless arguments), ``state`` (a probe
    program run afterwards sees pristine modules), ``leak`` (the result does not
    match the ``leak`` pattern; judged only with the language layer on, since
    disclosing interpreter internals is that layer's concern), ``bounded`` (the
    result is no larger than the output caps allow), ``limit`` (the run ends
    with one of ``kinds``: the host's limits, not the program, ended it) and
    ``host`` (the host did no more than a fixed amount of work on the run's
    untrusted input where it stalls other runs: walk steps compiling the
    program, counted on any host thread, JSON text decoded in one piece on
    the event loop's thread, frames decoded that were not tool calls, and
    reads of the child's pipe beyond what its frames and bytes pay for;
    counted, never timed).
``expect``
    Error kinds the run must end with whenever the language layer is on;
    ``refused`` stands for ``exception`` or ``compile``.
``kinds``
    Error kinds the run must end with in every mode (``expect`` wins when the
    language layer is on, ``tripwire: stops`` in the tripwire-alone mode).
``applies``
    Which of the modes ``all``, ``language`` and ``os`` the case runs in (default
    all three); a memory bomb, for instance, needs the address-space rlimit and
    is not run with the OS layer off. The ``tripwire`` mode is chosen by the
    ``tripwire`` line.
``tripwire``
    What the tripwire alone (language and OS layers off) does with the case, one of:
    ``stops <event> [<detail>]``: the run must end as ``sandbox-violation`` at that
    audit event (with that member read, for ``object.__getattr__``, or module
    imported, for ``import``), with no harm; ``harmless (<reason>)``: the tripwire need not stop it,
    and every harm check still holds in that mode (the host's limits and checks
    stop it, as in every mode); ``misses (<reason>)``: the case is not run in
    that mode, because the tripwire cannot stop it and it would do real harm
    (no audit event on its route, or memory that only the OS layer bounds).
``plain``
    ``skip (<reason>)`` keeps the case out of the plain-CPython validation;
    ``as-nobody (<reason>)`` runs it there as the victim's unprivileged uid
    (``stage.VICTIM_UID``, which a child shares with its victim, when the host
    is root; otherwise the host's own uid, which the victim then runs as too).
``leak``
    A regular expression for the ``leak`` signal (at most
    ``MAX_LEAK_PATTERN_CHARS`` characters; one that does not compile is a
    malformed header). The corpus's pattern is run on output the case's own
    program chose, so it is matched in a separate process under a CPU limit
    (``_runner.LEAK_MATCH_CPU_SECONDS``): a pattern that backtracks past it is
    reported as a harm (the signal could not be judged), never waited out.
``repeat``
    The program is the body after the header, repeated this many times (for
    programs too large to keep in the repository): a whole number from 1 to
    ``MAX_REPEAT``, and the repeated body is at most ``MAX_PROGRAM_BYTES``
    (checked before anything is built). Such cases run alone, after the
    others, since they may load the host itself.
``source``
    Where the technique comes from: an advisory id or a short description.
``python``
    The interpreters the technique exists on, when not every supported one:
    ``>=<version>``, ``<<version>`` or both, then ``(<reason>)`` (for instance
    ``>=3.11.7 <3.12 (typing's Annotated cache is typed from 3.11.7)``). On any
    other interpreter the case still runs in its modes and must do no harm, but
    nothing claims that it could: the plain-CPython validation skips it, and a
    ``tripwire: stops`` line is read as ``harmless`` (the program never reaches
    the watched event).

Placeholders the runner substitutes: ``{SECRET_PATH}``, ``{MARKER_PATH}``,
``{MARKER_DIR}``, ``{CANARY_PORT}``, ``{UNIX_SOCKET}``, ``{VICTIM_PID}`` and ``{IPC_KEY}``
(the abstract Unix canary is ``"\\0codemode-{IPC_KEY}"``).
"""

from __future__ import annotations

import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Final, Literal, TypeAlias, get_args

__all__ = [
    "CORPUS_DIR",
    "HARM_SIGNALS",
    "KNOWN_MEANING_GAPS",
    "LANGUAGE_MODES",
    "LEGIT_DIR",
    "LEGIT_NAME",
    "MODES",
    "SIGNALS",
    "Case",
    "LegitProgram",
    "Mode",
    "load_cases",
    "load_legit_programs",
]

#: The ablation modes: all three layers, the language layer alone, the tripwire
#: alone, the OS layer alone.
Mode: TypeAlias = Literal["all", "language", "tripwire", "os"]
MODES: Final[tuple[Mode, ...]] = get_args(Mode)
#: The modes with the language layer on.
LANGUAGE_MODES: Final = frozenset({"all", "language"})
#: Modes an ``applies`` line may name (the tripwire mode is chosen by the ``tripwire`` line).
_APPLIES_MODES: Final = ("all", "language", "os")

_MAIN_GUARD: Final = (
    "with the language layer off the program's globals name it '<model>', so "
    "`if __name__ == \"__main__\":` is false; with the layer on it reads '__main__'"
)
#: Legitimate programs whose meaning an ablation switch still changes, by (mode,
#: program id), each with the reason: in that mode they run, but return another
#: value. The tests expect each to fail there (strictly: remove the entry when
#: the gap closes); the allow-list's measurement does not check their value.
KNOWN_MEANING_GAPS: Final[dict[tuple[Mode, str], str]] = {
    (mode, "main_guard_and_module_name"): _MAIN_GUARD for mode in ("os", "tripwire")
}

#: The project's own corpus: shipped inside the wheel as ``codemode/escapes/corpus``, and
#: read from the source tree's ``tests/escapes/corpus`` in a checkout (and editable installs).
_SHIPPED: Final = Path(__file__).parent / "corpus"
CORPUS_DIR: Final = (
    _SHIPPED if _SHIPPED.is_dir()
    else Path(__file__).resolve().parents[2] / "tests" / "escapes" / "corpus"
)
#: Legitimate programs live beside the escape cases so that the linters skip them too.
LEGIT_NAME: Final = "legit"
LEGIT_DIR: Final = CORPUS_DIR / LEGIT_NAME

SIGNALS: Final = frozenset(
    {"secret", "marker", "canary", "victim", "ipc", "liveness", "handler", "state", "leak",
     "bounded", "limit", "host"}
)
#: Signals whose harm is a change to the world outside the child; the plain-CPython
#: validation shows that these fire when nothing protects the host.
HARM_SIGNALS: Final = frozenset({"secret", "marker", "canary", "victim", "ipc"})

_KINDS: Final = frozenset(
    {"exception", "compile", "timeout", "abort", "worker-exit", "invalid-output", "output-limit",
     "sandbox-violation"}
)
_HEADER_LINE: Final = re.compile(r"^# (?P<key>[a-z-]+): (?P<value>.*)$")
_KEYS: Final = frozenset(
    {"category", "signal", "expect", "kinds", "applies", "plain", "leak", "source", "repeat",
     "tripwire", "python"}
)
#: ``>=3.11.7 <3.12 (<reason>)``: one bound or both, then the reason.
_PYTHON_LINE: Final = re.compile(
    r"^(?=[<>])(?:>=(?P<low>[0-9]{1,3}(?:\.[0-9]{1,3}){1,2}) ?)?"
    r"(?:<(?P<high>[0-9]{1,3}(?:\.[0-9]{1,3}){1,2}) )?\((?P<reason>.+)\)$"
)
#: ``stops <event> [<detail>]`` / ``harmless (<reason>)`` / ``misses (<reason>)``.
_TRIPWIRE_LINE: Final = re.compile(
    r"^(?:stops (?P<event>[!-~]+)(?: (?P<detail>[!-~]+))?"
    r"|(?P<verdict>harmless|misses) \((?P<reason>.+)\))$"
)
#: ``ok`` in a kinds line: the run may also succeed.
_OK: Final = "ok"


#: The largest case or legitimate program file read (its text, header included).
MAX_CASE_FILE_BYTES: Final = 1024 * 1024
#: The largest ``repeat`` a header may ask for.
MAX_REPEAT: Final = 1_000_000
#: The largest program a ``repeat`` header may build (UTF-8 bytes, before
#: placeholders are substituted): room for programs over the sandbox's
#: ``max_source_bytes``, which the exhaustion cases need, and no more.
MAX_PROGRAM_BYTES: Final = 4 * 1024 * 1024
#: The longest ``leak`` pattern.
MAX_LEAK_PATTERN_CHARS: Final = 1000
_REPEAT_VALUE: Final = re.compile(r"[0-9]{1,7}")


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
    tripwire_event: str | None = None
    tripwire_detail: str = ""
    tripwire_reason: str = ""
    repeat: int = 1
    python_from: tuple[int, ...] = ()
    python_below: tuple[int, ...] | None = None
    python_reason: str = ""

    @property
    def technique_here(self) -> bool:
        """Whether the technique exists on the running interpreter (its ``python`` line)."""
        version = sys.version_info[:3]
        return version >= self.python_from and (
            self.python_below is None or version < self.python_below
        )

    def program(self, substitutions: dict[str, str]) -> str:
        """Return the program text with every placeholder replaced."""
        text = self.text
        if self.repeat > 1:
            text = _body(text)
        # Substituted before repeating: the work is linear in the file, and
        # the one repetition is bounded by the header check.
        for key, value in substitutions.items():
            text = text.replace("{" + key + "}", value)
        return text * self.repeat if self.repeat > 1 else text

    def expected_kinds(self, mode: Mode) -> frozenset[str] | None:
        """The error kinds this case may end with in ``mode`` (``None``: any outcome)."""
        if mode in LANGUAGE_MODES and self.expect is not None:
            return self.expect
        if mode == "tripwire" and self.stopped_by_tripwire:
            return frozenset({"sandbox-violation"})
        return self.kinds

    @property
    def stopped_by_tripwire(self) -> bool:
        """Whether the tripwire alone must end the run at ``tripwire_event`` here."""
        return self.tripwire_event is not None and self.technique_here


@dataclass(frozen=True, slots=True)
class LegitProgram:
    """A legitimate program and the value (and optionally the logs) it must produce."""

    id: str
    path: Path
    text: str
    value: object
    logs: tuple[str, ...] | None


def _body(text: str) -> str:
    """A repeated case's body: its text without the header comment lines."""
    return "".join(line + "\n" for line in text.splitlines() if not line.startswith("# "))


def _read(path: Path) -> str:
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        data = handle.read(min(size, MAX_CASE_FILE_BYTES) + 1)
    if len(data) > MAX_CASE_FILE_BYTES:
        raise ValueError(
            f"{path}: the file is over {MAX_CASE_FILE_BYTES} bytes; use a repeat header for "
            "large programs"
        )
    return data.decode("utf-8")


def _repeat(path: Path, value: str | None, text: str) -> int:
    if value is None:
        return 1
    if not _REPEAT_VALUE.fullmatch(value) or not 1 <= int(value) <= MAX_REPEAT:
        raise ValueError(
            f"{path}: repeat={value!r}; expected a whole number from 1 to {MAX_REPEAT}"
        )
    repeat = int(value)
    size = len(_body(text).encode("utf-8")) * repeat
    if size > MAX_PROGRAM_BYTES:
        raise ValueError(
            f"{path}: repeat={repeat} would build a {size}-byte program, over the limit of "
            f"{MAX_PROGRAM_BYTES} bytes"
        )
    return repeat


def _python(path: Path, value: str | None) -> tuple[tuple[int, ...], tuple[int, ...] | None, str]:
    if value is None:
        return (), None, ""
    match = _PYTHON_LINE.match(value)
    if match is None or not (match["low"] or match["high"]):
        raise ValueError(
            f"{path}: python={value!r}; say '>=<version>', '<<version>' or both, then "
            "'(<reason>)'"
        )

    def version(text: str | None) -> tuple[int, ...] | None:
        return None if text is None else tuple(int(part) for part in text.split("."))

    return version(match["low"]) or (), version(match["high"]), match["reason"]


def _leak(path: Path, value: str | None) -> re.Pattern[str] | None:
    if value is None:
        return None
    if len(value) > MAX_LEAK_PATTERN_CHARS:
        raise ValueError(
            f"{path}: the leak pattern is {len(value)} characters, over {MAX_LEAK_PATTERN_CHARS}"
        )
    try:
        return re.compile(value)
    except (re.error, RecursionError, OverflowError) as error:
        raise ValueError(f"{path}: leak={value!r} is not a regular expression: {error}") from None


def _header(path: Path) -> tuple[dict[str, str], str]:
    text = _read(path)
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
    applies_words = frozenset(meta.get("applies", " ".join(_APPLIES_MODES)).split())
    if not applies_words or not applies_words <= set(_APPLIES_MODES):
        raise ValueError(
            f"{path}: applies={meta.get('applies')!r}; use some of {_APPLIES_MODES}"
        )
    tripwire = _TRIPWIRE_LINE.match(meta.get("tripwire", ""))
    if tripwire is None:
        raise ValueError(
            f"{path}: tripwire={meta.get('tripwire')!r}; say what the tripwire alone does with "
            "the case: 'stops <event>', 'harmless (<reason>)' or 'misses (<reason>)'"
        )
    if tripwire["verdict"] != "misses":
        applies_words |= {"tripwire"}
    applies = frozenset(mode for mode in MODES if mode in applies_words)
    kinds = _kinds(path, "kinds", meta.get("kinds"))
    if "limit" in signals and kinds is None:
        raise ValueError(f"{path}: a limit case needs a kinds line")
    leak = meta.get("leak")
    if ("leak" in signals) != (leak is not None):
        raise ValueError(f"{path}: the leak signal and the leak pattern go together")
    if "source" not in meta:
        raise ValueError(f"{path}: every case names its source")
    python_from, python_below, python_reason = _python(path, meta.get("python"))
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
        leak=_leak(path, leak),
        source=meta["source"],
        tripwire_event=tripwire["event"],
        tripwire_detail=tripwire["detail"] or "",
        tripwire_reason=tripwire["reason"] or "",
        repeat=_repeat(path, meta.get("repeat"), text),
        python_from=python_from,
        python_below=python_below,
        python_reason=python_reason,
    )


def load_cases(directory: Path = CORPUS_DIR) -> tuple[Case, ...]:
    """Load every escape case under ``directory`` (the ``legit`` programs excluded), sorted."""
    paths = sorted(
        path for path in directory.glob("*/*.py") if path.parent.name != LEGIT_NAME
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
