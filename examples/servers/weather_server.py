"""An MCP server written with the official SDK (``mcp``, 2.x), for ``examples/mcp_both_ways.py``.

Any MCP server works the same way; this one keeps the example self-contained.
Run it on its own with ``python examples/servers/weather_server.py`` (it speaks
MCP over stdin and stdout).
"""

from __future__ import annotations

from typing import TypedDict

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations

server = MCPServer("weather")


class Forecast(TypedDict):
    city: str
    celsius: float
    sky: str


_FORECASTS = {"Paris": Forecast(city="Paris", celsius=21.5, sky="sunny"),
              "Oslo": Forecast(city="Oslo", celsius=4.0, sky="snow")}


# readOnlyHint lets codemode run calls of this tool side by side.
@server.tool(annotations=ToolAnnotations(read_only_hint=True))
def forecast(city: str) -> Forecast:
    """Tomorrow's forecast for a city."""
    if city not in _FORECASTS:
        raise ToolError(f"no forecast for {city}")
    return _FORECASTS[city]


server.run()
