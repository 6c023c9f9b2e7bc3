"""MCP both ways: an MCP server's tools inside Code Mode, and Code Mode served over MCP.

1. Import: start an MCP server (``servers/weather_server.py``, written with the
   official SDK) over stdio, import its tools into a registry, and run one
   program that calls two of them at once.
2. Serve: start ``codemode serve-mcp`` on the bookshop tools and talk to it
   with the official SDK's client, as any MCP host (an IDE, a desktop app, an
   agent framework) would: list its tools (just ``run_code``), call ``run_code``.

Needs the extra: ``pip install 'codemode[mcp]'``. Run it with
``python examples/mcp_both_ways.py``.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import anyio
from mcp import Client, StdioServerParameters

from codemode import AbortSignal, CallInput, Registry, text_of
from codemode.code_mode import CodeMode
from codemode.mcp import McpTools

HERE = Path(__file__).resolve().parent

WEATHER_PROGRAM = """
import asyncio
paris, oslo = await asyncio.gather(tools.forecast(city="Paris"), tools.forecast(city="Oslo"))
try:
    await tools.forecast(city="Atlantis")
except ToolCallError as error:
    print(error.code)
return f"Paris {paris['celsius']}°C, Oslo {oslo['celsius']}°C"
"""

BOOKSHOP_PROGRAM = """
import asyncio
books = await tools.search_books(query="tolkien")
prices = await asyncio.gather(*(tools.get_price(book_id=b["id"]) for b in books))
return {b["title"]: p for b, p in zip(books, prices)}
"""


async def import_an_mcp_server() -> None:
    registry = Registry(mode="code")
    weather = McpTools.stdio(sys.executable, [str(HERE / "servers" / "weather_server.py")])
    async with weather, CodeMode(registry, pool_size=1):
        imported = await weather.register(registry)
        print(f"imported from MCP: {imported.names}")
        result = await registry.execute(CallInput(
            "call-1", "run_code", {"code": WEATHER_PROGRAM, "description": "Compare forecasts"},
            AbortSignal()))
        print(text_of(result.content))


async def serve_code_mode_over_mcp() -> None:
    server = StdioServerParameters(
        command=sys.executable,
        args=["-m", "codemode", "serve-mcp", "--tools", str(HERE / "bookshop_tools.py")],
        # The SDK starts servers with a small environment; keep this checkout importable.
        env={"PYTHONPATH": os.environ.get("PYTHONPATH", str(HERE.parent))},
    )
    async with Client(server) as client:
        listed = await client.list_tools()
        print(f"served over MCP: {[tool.name for tool in listed.tools]}")
        result = await client.call_tool(
            "run_code", {"code": BOOKSHOP_PROGRAM, "description": "Price Tolkien's books"})
        print(f"isError={result.is_error}, calls={len(result.structured_content['calls'])}")
        print(result.structured_content["result"])


async def main() -> None:
    await import_an_mcp_server()
    await serve_code_mode_over_mcp()


if __name__ == "__main__":
    anyio.run(main)
