"""Policy and approvals: every tool call a program makes passes the same checks as a direct one.

A guard refuses deleting anything outside ``drafts/``, and moving money asks a
human (here, an approver that grants once). Run it with
``python examples/policy_and_approvals.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import anyio

from codemode import (
    AbortSignal,
    Agent,
    ApprovalOutcome,
    Ask,
    CallInput,
    PreDecision,
    Registry,
    ToolExecution,
    text_of,
    tool,
)
from codemode.code_mode import CodeMode

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable


@tool
def delete(path: str) -> str:
    """Delete a file."""
    return f"deleted {path}"


@tool
def pay(to: str, eur: float) -> str:
    """Send money."""
    return f"paid {eur:.2f} EUR to {to}"


def drafts_only(execution: ToolExecution) -> str | None:
    path = execution.arguments.get("path") if isinstance(execution.arguments, dict) else None
    if execution.name == "delete" and not str(path).startswith("drafts/"):
        return f"refusing to delete {path!r}: only drafts/ may be deleted"
    return None


async def ask_before_paying(
    execution: ToolExecution, proceed: Callable[[], Awaitable[PreDecision]]
) -> PreDecision:
    return Ask("payments need a human") if execution.name == "pay" else await proceed()


async def approve(execution: ToolExecution, reason: str | None) -> ApprovalOutcome:
    print(f"approval asked for {execution.call_id} ({reason}): granted")
    return "allowed-once"


PROGRAM = """
for path in ["drafts/old.txt", "reports/q3.txt"]:
    try:
        print(await tools.delete(path=path))
    except ToolCallError as error:
        print(error)  # names the tool and the reason
return await tools.pay(to="Ada", eur=12.5)
"""


async def main() -> None:
    registry = Registry(mode="code", approver=approve)
    registry.register(delete)
    registry.register(pay)
    registry.guard(drafts_only)
    registry.pre_execute(ask_before_paying)
    async with CodeMode(registry, pool_size=1):
        result = await registry.execute(
            CallInput("call-1", "run_code", {"code": PROGRAM, "description": "Tidy and pay"},
                      AbortSignal(), agent=Agent("assistant"))
        )
    print(text_of(result.content))


if __name__ == "__main__":
    anyio.run(main)
