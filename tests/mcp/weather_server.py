"""A real MCP server, defined with the official SDK, that the MCP tests start.

``python weather_server.py`` serves stdio; ``python weather_server.py http``
binds a free loopback port, prints ``listening at URL`` on stderr once the
socket listens, and serves streamable HTTP there.

Besides ordinary tools (structured, text, image, failing, an unsupported
schema) it has tools that prove things without timing: ``ping`` and ``pong``
each wait for the other, so a program that gets both answers ran them at the
same time; ``hang`` runs until cancelled and records the cancellation, which
``was_cancelled`` waits for. ``refuse`` answers with a JSON-RPC error, and
``crash`` ends the process in the middle of its call.
"""

from __future__ import annotations

import os
import socket
import sys
from typing import Annotated, TypedDict

import anyio
from mcp import MCPError
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import INVALID_PARAMS, ImageContent, TextContent, ToolAnnotations
from pydantic import Field

server = MCPServer("weather")
READ_ONLY = ToolAnnotations(read_only_hint=True)

#: One event per (tool, key): set when that side of a meeting or a hang got there.
_events: dict[tuple[str, str], anyio.Event] = {}


def _event(kind: str, key: str) -> anyio.Event:
    return _events.setdefault((kind, key), anyio.Event())


class Forecast(TypedDict):
    city: str
    celsius: float
    sky: str


_FORECASTS = {"Paris": (21.5, "sunny"), "Oslo": (4.0, "snow")}


@server.tool(annotations=READ_ONLY)
def forecast(city: str) -> Forecast:
    """Tomorrow's forecast for a city."""
    if city not in _FORECASTS:
        raise ToolError(f"no forecast for {city}")
    celsius, sky = _FORECASTS[city]
    return {"city": city, "celsius": celsius, "sky": sky}


@server.tool(annotations=READ_ONLY)
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool(structured_output=False)
def shout(text: str, times: int | None = None) -> str:
    """Upper-case the text, repeated `times` times."""
    return " ".join([text.upper()] * (times or 1))


@server.tool(structured_output=False)
def snapshot(city: str) -> list[TextContent | ImageContent]:
    """A caption and a (one-pixel) picture of the sky over a city."""
    return [
        TextContent(type="text", text=f"the sky over {city}"),
        ImageContent(type="image", data="iVBORw0KGgo=", mime_type="image/png"),
    ]


@server.tool()
def pick(word: Annotated[str, Field(min_length=2, pattern="^[a-z]+$")]) -> str:
    """A tool whose schema uses keywords the enforced subset does not have."""
    return word


@server.tool(annotations=READ_ONLY)
async def ping(key: str) -> str:
    """Answer once `pong` with the same key has been called."""
    _event("ping", key).set()
    await _event("pong", key).wait()
    return f"ping {key}"


@server.tool(annotations=READ_ONLY)
async def pong(key: str) -> str:
    """Answer once `ping` with the same key has been called."""
    _event("pong", key).set()
    await _event("ping", key).wait()
    return f"pong {key}"


@server.tool()
async def hang(key: str) -> str:
    """Run until cancelled; the cancellation is recorded for `was_cancelled`."""
    _event("hang", key).set()
    try:
        await anyio.sleep_forever()
    finally:
        _event("cancelled", key).set()
    return "never"


@server.tool(annotations=READ_ONLY)
async def has_started(key: str) -> bool:
    """Wait until `hang` with this key is running."""
    await _event("hang", key).wait()
    return True


@server.tool(annotations=READ_ONLY)
async def was_cancelled(key: str) -> bool:
    """Wait until `hang` with this key has been cancelled."""
    await _event("cancelled", key).wait()
    return True


@server.tool()
def refuse(reason: str) -> str:
    """Answer with a JSON-RPC error instead of a result."""
    raise MCPError(code=INVALID_PARAMS, message=reason)


@server.tool()
def crash() -> str:
    """End the server process in the middle of the call."""
    os._exit(3)


async def _serve_http() -> None:
    import uvicorn

    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(64)
    url = f"http://127.0.0.1:{listener.getsockname()[1]}/mcp"
    config = uvicorn.Config(server.streamable_http_app(), log_level="warning")
    print(f"listening at {url}", file=sys.stderr, flush=True)
    await uvicorn.Server(config).serve(sockets=[listener])


if __name__ == "__main__":
    if sys.argv[1:] == ["http"]:
        anyio.run(_serve_http)
    else:
        server.run()
