"""An agent loop driving Code Mode, with a scripted model standing in for an LLM.

Each turn the loop sends the model the system prompt (the code-only rule and the
SDK), the tool list (just ``run_code``) and the history; it runs the model's
tool calls with ``run_turn`` and appends the results, until the model answers
in text. Run it with ``python examples/agent_loop.py``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from codemode import (
    AbortSignal,
    Agent,
    MemoryStore,
    ModelToolCall,
    Registry,
    SessionLog,
    ToolSchema,
    model_messages,
    run_turn,
    text_of,
    tool,
)
from codemode.code_mode import CodeMode

if TYPE_CHECKING:
    from collections.abc import Sequence

_STOCK = {"apples": 12, "pears": 0, "plums": 5}


@tool(concurrency_safe=True)
def stock(item: str) -> int:
    """How many of an item are in stock."""
    return _STOCK.get(item, 0)


@dataclass
class Reply:
    """What the model answered: tool calls, or final text."""

    calls: Sequence[ModelToolCall] = ()
    text: str = ""


class ScriptedModel:
    """Plays back fixed replies; a real integration would call an LLM here."""

    def __init__(self) -> None:
        program = (
            "import asyncio\n"
            "items = ['apples', 'pears', 'plums']\n"
            "counts = await asyncio.gather(*(tools.stock(item=i) for i in items))\n"
            "return [i for i, n in zip(items, counts) if n == 0]"
        )
        arguments = json.dumps({"code": program, "description": "Find items out of stock"})
        self._replies = [
            Reply(calls=[ModelToolCall(call_id="call-1", name="run_code", arguments=arguments)]),
            Reply(text="Out of stock: pears."),
        ]

    async def reply(self, system: str, tools: list[ToolSchema], history: list[object]) -> Reply:
        assert [t["name"] for t in tools] == ["run_code"]
        assert "def stock(" in system
        return self._replies.pop(0)


async def main() -> None:
    registry = Registry(mode="code")
    registry.register(stock)
    agent = Agent("assistant")
    log = SessionLog(MemoryStore())
    model = ScriptedModel()
    async with CodeMode(registry, log=log, pool_size=1) as code_mode:
        for turn in range(1, 5):
            history: list[object] = list(model_messages(log.events()))
            reply = await model.reply(
                code_mode.system_prompt(agent), registry.wire_schemas(agent), history
            )
            if not reply.calls:
                print(f"assistant: {reply.text}")
                break
            results = await run_turn(
                registry, reply.calls, agent=agent, signal=AbortSignal(), log=log, turn=turn
            )
            for call, result in zip(reply.calls, results, strict=True):
                print(f"{call.name} -> {text_of(result.content)!r}")


if __name__ == "__main__":
    anyio.run(main)
