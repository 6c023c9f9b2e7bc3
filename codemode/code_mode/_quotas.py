"""Per-run quotas on the sub-calls a ``run_code`` program may make."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["QuotaCounter", "Quotas"]


@final
@dataclass(frozen=True, kw_only=True)
class Quotas:
    """How many sub-calls one program may make.

    Args:
        max_calls: total sub-calls per run; ``None`` means no limit.
        per_tool: a limit per tool name, e.g. ``{"send_email": 1}``.
        default_per_tool: a limit for every tool not named in ``per_tool``.

    A call over a quota is not dispatched and uses no call number; the program
    sees ``ToolCallError`` with ``code == "QUOTA_EXCEEDED"``.
    """

    max_calls: int | None = None
    per_tool: Mapping[str, int] = field(default_factory=dict)
    default_per_tool: int | None = None

    def __post_init__(self) -> None:
        limits = (("max_calls", self.max_calls), ("default_per_tool", self.default_per_tool))
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
        self._per_tool: Counter[str] = Counter()

    def admit(self, name: str) -> str | None:
        """Count a call to ``name``; return why it is refused, or ``None`` when admitted."""
        quotas = self._quotas
        if quotas.max_calls is not None and self._total >= quotas.max_calls:
            return (
                f"quota exceeded: this run may make at most {quotas.max_calls} tool calls; "
                f'"{name}" was not dispatched. Batch the work into fewer calls.'
            )
        limit = quotas.per_tool.get(name, quotas.default_per_tool)
        if limit is not None and self._per_tool[name] >= limit:
            return (
                f'quota exceeded: this run may call "{name}" at most {limit} '
                f"time{'s' if limit != 1 else ''}; the call was not dispatched."
            )
        self._total += 1
        self._per_tool[name] += 1
        return None
