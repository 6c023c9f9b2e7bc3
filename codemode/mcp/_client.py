"""Importing the tools of an MCP server into a registry, as raw tool definitions.

:class:`McpTools` holds one client session of the official MCP SDK (stdio or
streamable HTTP) for as long as it is entered; each imported tool's body sends
``tools/call`` over that session. The SDK is imported only when a connection
is made, so ``import codemode`` never needs it.
"""

from __future__ import annotations

import sys
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO, final

from .._errors import AbortError, ToolArgsError, ToolOutputError, UnsupportedSchemaError
from .._json import thaw
from .._tools import ToolDefinition, ToolOutput, define_tool, render_json
from ._results import McpCallError, McpToolError, error_text, render_value, value_of
from ._schemas import exact_rewrite, import_problems

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence
    from pathlib import Path
    from types import TracebackType

    from mcp import Client

    from bridge.lossless import JsonValue

    from .._execution import ScopeKey, ToolRunContext
    from .._registry import Registry

__all__ = [
    "CONTENT_SCHEMA",
    "ImportedTools",
    "McpTools",
    "SkippedTool",
    "UnsupportedMcpToolsError",
    "require_sdk",
]

Unsupported = Literal["refuse", "skip"]
Parallel = Literal["read-only", "all", "none"]

#: The value of a tool without an output schema: its text, or its blocks (see ``_results``).
CONTENT_SCHEMA: Final[Mapping[str, JsonValue]] = {
    "oneOf": [
        {"type": "string", "description": "The text of the result."},
        {
            "type": "array",
            "description": "The result's content blocks, when not all are text.",
            "items": {
                "title": "McpContentBlock",
                "type": "object",
                "properties": {"type": {"type": "string"}},
                "required": ["type"],
            },
        },
    ]
}

#: Pages of ``tools/list`` read before the import stops: a server that never ends
#: its listing cannot keep the host busy.
MAX_LIST_PAGES: Final = 100

_INSTALL_HINT: Final = "install the MCP SDK: pip install 'codemode[mcp]'"


def require_sdk() -> None:
    """Raise ``ModuleNotFoundError`` saying how to install the SDK, if it is missing."""
    try:
        import mcp  # noqa: F401
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(f"codemode.mcp needs the `mcp` package: {_INSTALL_HINT}") from exc


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


@final
class McpTools:
    """One MCP server's tools, over a session of the official SDK, for a registry.

    Build it with :meth:`stdio` or :meth:`http`, enter it, then import::

        async with McpTools.stdio("python", ["weather_server.py"]) as server:
            imported = await server.register(registry, unsupported="skip")
            for skipped in imported.skipped:
                print(skipped.name, skipped.problems)
            ...  # run calls and programs while the session is open

    Each tool becomes a raw definition (:func:`codemode.define_tool`): its input
    schema as the server wrote it (checked against the enforced subset, see
    :mod:`codemode.mcp._schemas`), its output schema when it declares one. A call
    sends ``tools/call`` and stops when the call's signal aborts (the SDK then
    tells the server the request was cancelled).

    ``McpTools(make_client, label=...)`` takes any factory of an SDK ``mcp.Client``
    (another transport, headers or auth of your own); ``label`` names the server
    in messages.
    """

    __slots__ = ("_client", "_label", "_make_client", "_stack")

    def __init__(self, make_client: Callable[[], Client], *, label: str) -> None:
        self._make_client = make_client
        self._label = label
        self._client: Client | None = None
        self._stack: AsyncExitStack | None = None

    def __repr__(self) -> str:
        return f"<McpTools {self._label}>"

    @property
    def label(self) -> str:
        """How messages name the server: ``MCP server `python s.py` (stdio)``."""
        return self._label

    @classmethod
    def stdio(
        cls,
        command: str,
        args: Sequence[str] = (),
        *,
        env: Mapping[str, str] | None = None,
        cwd: str | Path | None = None,
        errlog: TextIO | None = None,
    ) -> McpTools:
        """A server started as ``command args…``, spoken to over its stdin and stdout.

        Args:
            command: the executable (looked up on ``PATH``).
            args: its arguments.
            env: variables added to the SDK's small default environment
                (``HOME``, ``PATH``, ``USER``, …): the server does not inherit
                this process's whole environment.
            cwd: the server's working directory.
            errlog: where the server's stderr goes (default: this process's).

        Raises:
            TypeError: ``command`` is not a non-empty string or ``args`` is not
                a sequence of strings.
        """
        if type(command) is not str or not command:
            raise TypeError(f"command must be a non-empty str, got command={command!r}")
        if isinstance(args, str) or not all(type(a) is str for a in args):
            raise TypeError(f"args must be a sequence of str, got args={args!r}")
        argv = list(args)
        extra = dict(env) if env is not None else None

        def make() -> Client:
            from mcp import Client, StdioServerParameters
            from mcp.client.stdio import stdio_client

            params = StdioServerParameters(command=command, args=argv, env=extra, cwd=cwd)
            return Client(stdio_client(params, errlog=errlog if errlog is not None else sys.stderr))

        shown = " ".join([command, *argv])
        return cls(make, label=f"MCP server `{shown}` (stdio)")

    @classmethod
    def http(cls, url: str) -> McpTools:
        """A server reached over streamable HTTP at ``url`` (e.g. ``http://127.0.0.1:8000/mcp``).

        Raises:
            ValueError: ``url`` is not an ``http://`` or ``https://`` URL.
        """
        if type(url) is not str or not url.startswith(("http://", "https://")):
            raise ValueError(f"url must be an http:// or https:// URL, got url={url!r}")

        def make() -> Client:
            from mcp import Client

            return Client(url)

        return cls(make, label=f"MCP server at {url}")

    async def __aenter__(self) -> McpTools:
        if self._stack is not None:
            raise RuntimeError(f"{self!r} is already entered")
        require_sdk()
        stack = AsyncExitStack()
        async with stack:
            self._client = await stack.enter_async_context(self._make_client())
            self._stack = stack.pop_all()
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        stack, self._stack = self._stack, None
        self._client = None
        if stack is None:
            return
        try:
            await stack.__aexit__(exc_type, exc, tb)
        except BaseExceptionGroup as group:
            # The SDK's task groups wrap what the block raised; the caller gets
            # its own exception back, as from any context manager.
            if exc is None or not _only(group, exc):
                raise


    @property
    def client(self) -> Client:
        """The SDK's client session (only while entered)."""
        if self._client is None:
            raise RuntimeError(f"{self!r} is not connected: use `async with` around it")
        return self._client

    async def _listed(self) -> list[Any]:
        tools: list[Any] = []
        cursor: str | None = None
        for _ in range(MAX_LIST_PAGES):
            page = await self.client.list_tools(cursor=cursor)
            tools.extend(page.tools)
            cursor = page.next_cursor
            if cursor is None:
                return tools
        raise McpCallError(
            "tools/list", f"{self._label} listed more than {MAX_LIST_PAGES} pages of tools"
        )

    async def definitions(
        self,
        *,
        unsupported: Unsupported = "refuse",
        prefix: str = "",
        parallel: Parallel = "read-only",
        call_timeout: float | None = None,
    ) -> ImportedTools:
        """The server's tools as raw definitions, without registering them.

        Args:
            unsupported: what to do with a tool whose schema is outside the
                enforced subset: ``"refuse"`` raises (nothing is imported),
                ``"skip"`` leaves that tool out and reports it in ``skipped``.
            prefix: put in front of every tool name (``"weather_"``), to keep
                two servers' tools apart.
            parallel: which calls may overlap with their siblings:
                ``"read-only"`` the tools whose annotations say
                ``readOnlyHint: true``, ``"all"`` or ``"none"``.
            call_timeout: each tool's deadline in seconds (enforced by the
                registry's timeout policy), or ``None``.

        Raises:
            UnsupportedMcpToolsError: with ``unsupported="refuse"``, listing
                every unsupported tool and path.
            ValueError: ``unsupported`` or ``parallel`` is not one of its values.
        """
        if unsupported not in ("refuse", "skip"):
            raise ValueError(f"unsupported must be 'refuse' or 'skip', got {unsupported=!r}")
        if parallel not in ("read-only", "all", "none"):
            raise ValueError(f"parallel must be 'read-only', 'all' or 'none', got {parallel=!r}")
        if type(prefix) is not str:
            raise TypeError(f"prefix must be a str, got prefix={prefix!r}")
        definitions: list[ToolDefinition] = []
        skipped: list[SkippedTool] = []
        for listed in await self._listed():
            parameters = exact_rewrite(listed.input_schema)
            output = None if listed.output_schema is None else exact_rewrite(listed.output_schema)
            problems = import_problems(parameters, output)
            if problems:
                skipped.append(SkippedTool(listed.name, tuple(problems)))
                continue
            read_only = listed.annotations is not None and listed.annotations.read_only_hint is True
            overlaps = parallel == "all" or (parallel == "read-only" and read_only)
            definitions.append(
                self._definition(listed, prefix + listed.name, parameters, output,
                                 overlaps=overlaps, timeout=call_timeout)
            )
        if skipped and unsupported == "refuse":
            raise UnsupportedMcpToolsError(self._label, skipped)
        return ImportedTools(tuple(definitions), tuple(skipped))

    async def register(
        self,
        registry: Registry,
        agent: ScopeKey | None = None,
        *,
        unsupported: Unsupported = "refuse",
        prefix: str = "",
        parallel: Parallel = "read-only",
        call_timeout: float | None = None,
    ) -> ImportedTools:
        """Import the server's tools into ``registry`` (for ``agent``, or globally).

        Takes the arguments of :meth:`definitions`. Every tool is registered or
        none is: a name clash undoes the ones registered before it.

        Raises:
            UnsupportedMcpToolsError: as :meth:`definitions`.
            RegistrationError: a tool's name is taken or reserved.
        """
        imported = await self.definitions(
            unsupported=unsupported, prefix=prefix, parallel=parallel,
            call_timeout=call_timeout,
        )
        disposers: list[Callable[[], None]] = []

        def dispose() -> None:
            while disposers:
                disposers.pop()()

        try:
            for definition in imported.definitions:
                disposers.append(registry.register(definition, agent=agent))
        except BaseException:
            dispose()
            raise
        return ImportedTools(imported.definitions, imported.skipped, dispose)

    def _definition(
        self,
        listed: Any,
        name: str,
        parameters: JsonValue,
        output: JsonValue | None,
        *,
        overlaps: bool,
        timeout: float | None,
    ) -> ToolDefinition:
        remote = listed.name
        structured = output is not None

        async def execute(args: JsonValue, ctx: ToolRunContext) -> JsonValue:
            return await self._call(remote, args, ctx, structured=structured)

        assert isinstance(parameters, dict)
        return define_tool(
            name=name,
            description=listed.description or "",
            parameters=parameters,
            output=ToolOutput(
                schema=output if isinstance(output, dict) else CONTENT_SCHEMA,
                render=render_json if structured else render_value,
            ),
            execute=execute,
            timeout=timeout,
            is_concurrency_safe=(lambda _args: True) if overlaps else None,
        )

    async def _call(
        self, remote: str, args: JsonValue, ctx: ToolRunContext, *, structured: bool
    ) -> JsonValue:
        from mcp import MCPError
        from pydantic import ValidationError

        arguments = thaw(args)
        if not isinstance(arguments, dict):
            # Raw tools get what the model sent; MCP carries an object or nothing.
            raise ToolArgsError([f"expected an object of arguments, got {arguments!r:.60}"])
        client = self._client
        if client is None:
            raise McpCallError(remote, f"the connection to {self._label} is closed")
        result = None
        with ctx.signal.cancel_scope():
            try:
                result = await client.call_tool(remote, arguments)
            except MCPError as exc:
                raise McpCallError(remote, exc.error.message, rpc_code=exc.error.code) from None
            except ValidationError as exc:
                raise McpCallError(remote, f"the server's answer is malformed: {exc}") from None
            except RuntimeError as exc:
                if "structured content" in str(exc) or "Invalid schema" in str(exc):
                    # The SDK's own check of structuredContent against the output schema.
                    raise ToolOutputError(remote, str(exc)) from None
                raise McpCallError(remote, str(exc)) from None
            except (OSError, EOFError) as exc:
                raise McpCallError(remote, f"the connection failed: {exc}") from None
        if result is None:
            # The call's signal aborted: the SDK sent the server notifications/cancelled.
            raise AbortError(before_dispatch=False)
        if result.is_error:
            raise McpToolError(remote, error_text(result.content))
        if structured and result.structured_content is None:
            raise ToolOutputError(
                remote, "the tool declares an output schema but returned no structuredContent"
            )
        return value_of(result, structured=structured)


def _only(group: BaseExceptionGroup[BaseException], exc: BaseException) -> bool:
    """Whether ``group`` holds nothing but ``exc`` (at any depth)."""
    return all(
        item is exc or (isinstance(item, BaseExceptionGroup) and _only(item, exc))
        for item in group.exceptions
    )
