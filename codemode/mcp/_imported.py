"""What importing an MCP server's tools produced, and how a tool that could not be imported is told.

:class:`~codemode.mcp.McpTools` builds these; they hold no connection, so a
caller can keep them after the session ends.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, final

from .._errors import RegistrationError, UnsupportedSchemaError
from ._listing import name_problem

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from .._tools import ToolDefinition

__all__ = [
    "ImportedTools",
    "SkippedTool",
    "UnsupportedMcpToolsError",
    "naming_error",
    "unimportable_name",
    "warn_skipped",
]


@final
@dataclass(frozen=True, slots=True)
class SkippedTool:
    """An MCP tool that was not imported, and every path of its schemas that is unsupported."""

    name: str
    problems: tuple[str, ...]


@final
@dataclass(frozen=True, slots=True)
class ImportedTools:
    """What an import produced: the definitions, the tools skipped, and how to undo it.

    ``dispose()`` removes the definitions from the registry they were registered
    in (it does nothing for :meth:`McpTools.definitions`).
    """

    definitions: tuple[ToolDefinition, ...]
    skipped: tuple[SkippedTool, ...] = ()
    dispose: Callable[[], None] = field(default=lambda: None, repr=False)

    @property
    def names(self) -> list[str]:
        """The imported tools' names, in the server's order."""
        return [d.name for d in self.definitions]


class UnsupportedMcpToolsError(UnsupportedSchemaError):
    """Some tools of an MCP server have schemas outside the enforced subset (``refuse``).

    ``tools`` lists each such tool with its problems; nothing was imported.
    """

    def __init__(self, server: str, tools: Sequence[SkippedTool]) -> None:
        self.tools = tuple(tools)
        problems = [f'tool "{t.name}": {p}' for t in self.tools for p in t.problems]
        super().__init__(problems)
        count = len(self.tools)
        listed = "\n".join(f"  - {p}" for p in problems)
        self.message = (
            f"{count} tool{'s' if count != 1 else ''} of {server} "
            f"{'use' if count != 1 else 'uses'} JSON Schema outside the supported subset "
            f"({len(problems)} problem{'s' if len(problems) != 1 else ''}):\n{listed}\n"
            "Nothing was imported. Import the other tools with unsupported='skip', "
            "or change these schemas on the server."
        )
        self.args = (self.message,)


def unimportable_name(remote: str, name: str, seen: set[str]) -> str | None:
    """Why a listed tool's name ``remote`` (``name`` with the prefix) cannot be imported."""
    problem = name_problem(remote)
    if problem is None and name in seen:
        return "the server lists this tool name more than once (the first one is kept)"
    return problem


def warn_skipped(label: str, tool: SkippedTool) -> None:
    """Warn, at the importing caller's line, that ``tool`` of server ``label`` was skipped."""
    warnings.warn(
        f'skipped MCP tool "{tool.name:.200}" of {label}: {"; ".join(tool.problems)}',
        RuntimeWarning, stacklevel=3,
    )


def naming_error(label: str, tools: Sequence[SkippedTool]) -> RegistrationError:
    """The error of an import refused because ``tools`` of server ``label`` cannot be named."""
    listed = "; ".join(f'tool "{t.name:.200}": {"; ".join(t.problems)}' for t in tools)
    return RegistrationError(
        f"{label} lists tools that cannot be registered ({listed}). Nothing was imported; "
        "import the other tools with unsupported='skip' or a prefix."
    )
