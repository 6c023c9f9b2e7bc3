"""Quickstart: give an agent Code Mode over two tools, with one denied by policy.

Run it with ``python examples/quickstart.py``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

import anyio

from codemode import (
    AbortSignal,
    Agent,
    CallInput,
    Deny,
    PreDecision,
    Registry,
    ToolExecution,
    text_of,
    tool,
)
from codemode.code_mode import CodeMode

if TYPE_CHECKING:
    from collections.abc import Awaitable, Callable


class Weather(TypedDict):
    celsius: float


@tool(concurrency_safe=True)
def weather(city: str) -> Weather:
    """Current temperature in a city, in degrees Celsius."""
    return {"celsius": {"Paris": 18.5, "Oslo": 4.0}.get(city, 20.0)}


@tool
def send_email(to: str, body: str) -> str:
    """Send an email."""
    return f"sent to {to}"


async def no_email(
    execution: ToolExecution, proceed: Callable[[], Awaitable[PreDecision]]
) -> PreDecision:
    # Policy runs for every sub-call of a program, exactly as for a direct call.
    if execution.name == "send_email":
        return Deny("sending email is not allowed for this agent")
    return await proceed()


PROGRAM = """
import asyncio
paris, oslo = await asyncio.gather(tools.weather(city="Paris"), tools.weather(city="Oslo"))
try:
    await tools.send_email(to="boss@example.com", body="warm")
except ToolCallError as error:
    print(error)  # names the tool: tool "send_email" failed: ...
return {"warmer": "Paris" if paris["celsius"] > oslo["celsius"] else "Oslo"}
"""


async def main() -> None:
    registry = Registry(mode="code")
    registry.register(weather)
    registry.register(send_email)
    registry.pre_execute(no_email)
    agent = Agent("assistant")
    async with CodeMode(registry) as code_mode:
        print([schema["name"] for schema in registry.wire_schemas(agent)])  # only run_code
        result = await registry.execute(
            CallInput(
                "call-1",
                "run_code",
                {"code": PROGRAM, "description": "Compare the weather"},
                AbortSignal(),
                agent=agent,
            )
        )
        print(text_of(result.content))
        assert code_mode.system_prompt(agent).count("async def") == 2


if __name__ == "__main__":
    anyio.run(main)
