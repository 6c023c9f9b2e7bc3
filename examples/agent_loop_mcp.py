"""An agent loop whose tools are reached through an MCP client: ``codemode serve-mcp``.

The loop is an MCP host: it starts ``codemode serve-mcp`` on the bookshop tools,
lists the tools (just ``run_code``, whose description carries the SDK), hands
them to the model, runs each tool call the model makes with ``call_tool`` and
feeds the results back, until the model answers in text.

The model is scripted by default. With ``ANTHROPIC_API_KEY`` set, a real Claude
model answers instead (``ANTHROPIC_MODEL`` picks which; standard library HTTP,
no extra package). Run it with ``python examples/agent_loop_mcp.py``.
"""

from __future__ import annotations

import json
import os
import sys
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import anyio
from mcp import Client, StdioServerParameters
from mcp.types import TextContent, Tool

HERE = Path(__file__).resolve().parent
QUESTION = "Which Ursula K. Le Guin books do you have, and what do they cost in GBP?"


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]


@dataclass
class Reply:
    """What the model answered: tool calls, or final text."""

    calls: list[ToolCall] = field(default_factory=list)
    text: str = ""


class Model(Protocol):
    async def reply(self, tools: list[Tool]) -> Reply: ...
    def tool_result(self, call: ToolCall, text: str, is_error: bool) -> None: ...


class ScriptedModel:
    """Plays back a fixed conversation; checks it was shown what a real model would be."""

    def __init__(self) -> None:
        program = (
            "import asyncio\n"
            "books = await tools.search_books(query='le guin')\n"
            "prices = await asyncio.gather(\n"
            "    *(tools.get_price(book_id=b['id'], currency='GBP') for b in books))\n"
            "return {b['title']: p for b, p in zip(books, prices)}"
        )
        call = ToolCall("call-1", "run_code", {"code": program, "description": "Price Le Guin"})
        self._replies = [Reply(calls=[call])]
        self._results: list[str] = []

    async def reply(self, tools: list[Tool]) -> Reply:
        assert [t.name for t in tools] == ["run_code"]
        assert "async def search_books(" in (tools[0].description or "")
        if self._replies:
            return self._replies.pop(0)
        prices = json.loads(self._results[-1])
        listed = ", ".join(f"{title} (£{price})" for title, price in prices.items())
        return Reply(text=f"We have {listed}.")

    def tool_result(self, call: ToolCall, text: str, is_error: bool) -> None:
        self._results.append(text)


class AnthropicModel:
    """Claude through the Messages API (standard library HTTP), keeping the conversation."""

    def __init__(self, key: str) -> None:
        self._key = key
        self._model = os.environ.get("ANTHROPIC_MODEL", "claude-sonnet-4-5")
        self._messages: list[dict[str, Any]] = [{"role": "user", "content": QUESTION}]
        self._pending: list[dict[str, Any]] = []

    async def reply(self, tools: list[Tool]) -> Reply:
        if self._pending:
            self._messages.append({"role": "user", "content": self._pending})
            self._pending = []
        body = {
            "model": self._model,
            "max_tokens": 2048,
            "messages": self._messages,
            "tools": [
                {"name": t.name, "description": t.description or "", "input_schema": t.input_schema}
                for t in tools
            ],
        }
        answer = await anyio.to_thread.run_sync(self._post, body)
        self._messages.append({"role": "assistant", "content": answer["content"]})
        calls = [ToolCall(b["id"], b["name"], b["input"])
                 for b in answer["content"] if b["type"] == "tool_use"]
        text = "".join(b["text"] for b in answer["content"] if b["type"] == "text")
        return Reply(calls=calls, text=text)

    def tool_result(self, call: ToolCall, text: str, is_error: bool) -> None:
        self._pending.append(
            {"type": "tool_result", "tool_use_id": call.id, "content": text, "is_error": is_error}
        )

    def _post(self, body: dict[str, Any]) -> dict[str, Any]:
        request = urllib.request.Request(
            "https://api.anthropic.com/v1/messages",
            data=json.dumps(body).encode(),
            headers={"x-api-key": self._key, "anthropic-version": "2023-06-01",
                     "content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=120) as response:
            answer: dict[str, Any] = json.load(response)
            return answer


async def main() -> None:
    key = os.environ.get("ANTHROPIC_API_KEY")
    model: Model = AnthropicModel(key) if key else ScriptedModel()
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codemode", "serve-mcp", "--tools", str(HERE / "bookshop_tools.py")],
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", str(HERE.parent))},
    )
    print(f"user: {QUESTION}")
    async with Client(server) as client:
        tools = (await client.list_tools()).tools
        for _turn in range(8):
            reply = await model.reply(tools)
            if not reply.calls:
                print(f"assistant: {reply.text}")
                return
            for call in reply.calls:
                result = await client.call_tool(call.name, call.arguments)
                text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
                print(f"{call.name} -> {text!r}")
                model.tool_result(call, text, result.is_error)
        print("assistant: (no answer after 8 turns)")


if __name__ == "__main__":
    anyio.run(main)
