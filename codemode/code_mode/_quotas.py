"""Per-run quotas on the sub-calls a ``run_code`` program may make, and on what they persist."""

from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Final, final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["DEFAULT_MAX_PERSISTED_BYTES", "DEFAULT_MAX_SPILL_FILES", "QuotaCounter", "Quotas"]

#: The default of :attr:`Quotas.max_persisted_bytes`: 64 MiB, the most tool
#: data one run may have in flight at once. A legitimate run records far less
#: (arguments are usually a few hundred bytes, and large results are spilled
#: to files and logged as a preview); without a bound, a program looping over
#: a call with large arguments wrote about 200 MB a second to the session log.
DEFAULT_MAX_PERSISTED_BYTES: Final = 64 * 1024 * 1024

#: The default of :attr:`Quotas.max_spill_files`: files a run's sub-call
#: results may be spilled to (each at least ``SpillPolicy.max_inline_bytes``).
DEFAULT_MAX_SPILL_FILES: Final = 256


@final
@dataclass(frozen=True, kw_only=True)
class Quotas:
    """How many sub-calls one program may make, and how much they may persist.

    Args:
        max_calls: total sub-calls per run; ``None`` means no limit.
        per_tool: a limit per tool name, e.g. ``{"send_email": 1}``.
        default_per_tool: a limit for every tool not named in ``per_tool``.
        max_persisted_bytes: the most bytes the host persists on behalf of one
            run (default 64 MiB): its sub-calls' dispatch events in the session
            log (each call's arguments are in both of its events) and the
            files their results are spilled to. ``None`` means no limit.
        max_spill_files: the most spill files one run's sub-call results may
            be written to (default 256); ``None`` means no limit.

    A call over a quota is not dispatched and uses no call number; the program
    sees ``ToolCallError`` with ``code == "QUOTA_EXCEEDED"``. That includes a
    call whose two dispatch events would not fit in what is left of
    ``max_persisted_bytes``. A result whose logged copy does not fit is logged
    as a bounded preview with its size and SHA-256, saying so; one that may not
    be spilled any more is logged as a preview that says why (the program
    always gets the complete value).
    """

    max_calls: int | None = None
    per_tool: Mapping[str, int] = field(default_factory=dict)
    default_per_tool: int | None = None
    max_persisted_bytes: int | None = DEFAULT_MAX_PERSISTED_BYTES
    max_spill_files: int | None = DEFAULT_MAX_SPILL_FILES

    def __post_init__(self) -> None:
        limits = (
            ("max_calls", self.max_calls),
            ("default_per_tool", self.default_per_tool),
            ("max_persisted_bytes", self.max_persisted_bytes),
            ("max_spill_files", self.max_spill_files),
        )
        for name, value in limits:
            if value is not None and (type(value) is not int or value < 0):
                raise ValueError(f"{name}={value!r}: expected a non-negative int or None")
        for tool, limit in self.per_tool.items():
            if type(limit) is not int or limit < 0:
                raise ValueError(f"per_tool[{tool!r}]={limit!r}: expected a non-negative int")
        # A private copy, so a caller mutating its dict later cannot change the quota.
        object.__setattr__(self, "per_tool", MappingProxyType(dict(self.per_tool)))


@final
class QuotaCounter:
    """Counts one run's sub-calls against its :class:`Quotas`."""

    def __init__(self, quotas: Quotas) -> None:
        self._quotas = quotas
        self._total = 0
        self._per_tool: dict[str, int] = {}

    def admit(self, name: str) -> str | None:
        """Count a call to ``name``; return why it is refused, or ``None`` when admitted."""
        quotas = self._quotas
        if quotas.max_calls is not None and self._total >= quotas.max_calls:
            return (
                f"quota exceeded: this run may make at most {quotas.max_calls} tool calls; "
                f'"{name}" was not dispatched. Batch the work into fewer calls.'
            )
        limit = quotas.per_tool.get(name, quotas.default_per_tool)
        if limit is not None and self._per_tool.get(name, 0) >= limit:
            times = f"time{'s' if limit != 1 else ''}"
            return (
                f'quota exceeded: this run may call "{name}" at most {limit} {times}; '
                f'the call was not dispatched. Make at most {limit} "{name}" call'
                f"{'s' if limit != 1 else ''} in one program, and return the rest as "
                "still to do."
            )
        self._total += 1
        self._per_tool[name] = self._per_tool.get(name, 0) + 1
        return None
