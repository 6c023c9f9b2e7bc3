"""MCP both ways: import an MCP server's tools into a registry, and serve a registry over MCP.

Needs the optional extra (``pip install 'codemode[mcp]'``, the official ``mcp``
SDK, 2.x); the SDK is imported only when a connection or a server is made.

* :class:`McpTools` connects to a server (stdio or streamable HTTP) and imports
  its tools as raw definitions (``_client``; results mapped by ``_results``,
  schemas checked by ``_schemas``, what an import produced in ``_imported``).
* :class:`McpCodeServer` with :func:`serve_stdio` / :func:`serve_http` serves a
  registry's Code Mode (``_server``).
* ``_spec`` reads the command line's ``mcp+stdio:COMMAND …`` and
  ``mcp+http:URL`` tool specs.
"""

from ._client import McpTools as McpTools
from ._imported import ImportedTools as ImportedTools
from ._imported import SkippedTool as SkippedTool
from ._imported import UnsupportedMcpToolsError as UnsupportedMcpToolsError
from ._results import MCP_CALL_FAILED as MCP_CALL_FAILED
from ._results import MCP_TOOL_ERROR as MCP_TOOL_ERROR
from ._results import McpCallError as McpCallError
from ._results import McpToolError as McpToolError
from ._server import McpCodeServer as McpCodeServer
from ._server import serve_http as serve_http
from ._server import serve_stdio as serve_stdio

__all__ = [
    "MCP_CALL_FAILED",
    "MCP_TOOL_ERROR",
    "ImportedTools",
    "McpCallError",
    "McpCodeServer",
    "McpToolError",
    "McpTools",
    "SkippedTool",
    "UnsupportedMcpToolsError",
    "serve_http",
    "serve_stdio",
]
