"""Importing the tools of an MCP server into a registry, as raw tool definitions.

:class:`McpTools` holds one client session of the official MCP SDK (stdio or
streamable HTTP) for as long as it is entered; each imported tool's body sends
``tools/call`` over that session. The SDK is imported only when a connection
is made, so ``import codemode`` never needs it.
"""

from __future__ import annotations

import functools
import math
import re
import sys
import threading
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any, Final, Literal, TextIO, final

import anyio
import anyio.to_thread

from .._errors import (
    AbortError,
    RegistrationError,
    ToolArgsError,
    ToolOutputError,
)
from .._json import thaw
from .._tools import ToolDefinition, ToolOutput, define_tool, render_json
from ._headers import check_headers, shown_url
from ._imported import (
    ImportedTools,
    SkippedTool,
    UnsupportedMcpToolsError,
    naming_error,
    unimportable_name,
    warn_skipped,
)
from ._listing import (
    ListedTool,
    ListingBudget,
    name_problem,
    one_line,
    shown_name,
    visible_text,
)
from ._results import McpCallError, McpToolError, error_text, render_value, value_of
from ._schemas import exact_rewrite, import_problems
from ._transport import (
    DEFAULT_MAX_MESSAGE_BYTES,
    REFUSED_BY_CLIENT,
    Guard,
    stdio_transport,
)

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
    "DEFAULT_CALL_TIMEOUT",
    "DEFAULT_CONNECT_TIMEOUT",
    "DEFAULT_LIST_TIMEOUT",
    "McpTools",
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

#: Seconds the server has to complete the handshake (``initialize``) once started.
DEFAULT_CONNECT_TIMEOUT: Final = 30.0
#: Seconds the server has to answer the whole ``tools/list`` (every page).
DEFAULT_LIST_TIMEOUT: Final = 30.0
#: Each imported tool's deadline in seconds, unless ``call_timeout`` says otherwise.
DEFAULT_CALL_TIMEOUT: Final = 60.0
#: Seconds closing the session may take: more than a stdio server's exit needs
#: (at most three 2 s waits, see ``_transport``), then it is abandoned.
CLOSE_TIMEOUT: Final = 10.0

_INSTALL_HINT: Final = "install the MCP SDK: pip install 'codemode[mcp]'"
#: How much of a reason a server chose (its error message, a parse error) a failure keeps.
_MAX_REASON_CHARS: Final = 2000
#: How much of one problem of a skipped tool is reported (a schema key is the server's text).
_MAX_PROBLEM_CHARS: Final = 1000


def require_sdk() -> None:
    """Raise ``ModuleNotFoundError`` saying how to install the SDK, if it is missing."""
    try:
        import mcp  # noqa: F401
    except ModuleNotFoundError as exc:
        raise ModuleNotFoundError(f"codemode.mcp needs the `mcp` package: {_INSTALL_HINT}") from exc


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
    in messages. Such a client keeps the SDK's own transport and its check of
    ``structuredContent``; :meth:`stdio` and :meth:`http` guard the connection
    (see :mod:`codemode.mcp._transport`).

    The server is a remote peer, so nothing waits on it forever:
    ``connect_timeout`` bounds starting it and the handshake,
    ``list_timeout`` the whole ``tools/list`` (defaults
    :data:`DEFAULT_CONNECT_TIMEOUT` and :data:`DEFAULT_LIST_TIMEOUT`), every
    imported tool gets ``call_timeout`` (:data:`DEFAULT_CALL_TIMEOUT`), and
    closing the session is abandoned after :data:`CLOSE_TIMEOUT`.
    """

    __slots__ = (
        "_client", "_connect_timeout", "_guard", "_label", "_list_timeout", "_make_client",
        "_make_guarded", "_max_message_bytes", "_stack",
    )

    def __init__(
        self,
        make_client: Callable[[], Client],
        *,
        label: str,
        connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
        list_timeout: float | None = DEFAULT_LIST_TIMEOUT,
    ) -> None:
        self._make_client = make_client
        self._make_guarded: Callable[[Guard], Client] | None = None
        self._max_message_bytes = DEFAULT_MAX_MESSAGE_BYTES
        self._label = label
        self._connect_timeout = _deadline("connect_timeout", connect_timeout)
        self._list_timeout = _deadline("list_timeout", list_timeout)
        self._client: Client | None = None
        self._guard: Guard | None = None
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
        connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
        list_timeout: float | None = DEFAULT_LIST_TIMEOUT,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
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
            connect_timeout: seconds to start the server and complete the
                handshake, or ``None`` for no deadline.
            list_timeout: seconds for the whole ``tools/list``, or ``None``.
            max_message_bytes: the longest message (one line) the server may
                send; a longer one closes the connection, and every pending
                request fails with ``MCP_CALL_FAILED`` saying so.

        Raises:
            TypeError: ``command`` is not a non-empty string or ``args`` is not
                a sequence of strings.
            ValueError: a timeout is not positive and finite, or
                ``max_message_bytes`` is below 1024.
        """
        if type(command) is not str or not command:
            raise TypeError(f"command must be a non-empty str, got command={command!r}")
        if isinstance(args, str) or not all(type(a) is str for a in args):
            raise TypeError(f"args must be a sequence of str, got args={args!r}")
        argv = list(args)
        extra = dict(env) if env is not None else None

        def make(guard: Guard) -> Client:
            from mcp import Client

            transport = stdio_transport(
                command, argv, guard, env=extra, cwd=cwd,
                errlog=errlog if errlog is not None else sys.stderr,
            )
            return Client(transport)

        shown = " ".join([command, *argv])
        made = cls(
            _unguarded, label=f"MCP server `{shown}` (stdio)",
            connect_timeout=connect_timeout, list_timeout=list_timeout,
        )
        made._guarded_by(make, max_message_bytes)
        return made

    @classmethod
    def http(
        cls,
        url: str,
        *,
        headers: Mapping[str, str] | None = None,
        connect_timeout: float | None = DEFAULT_CONNECT_TIMEOUT,
        list_timeout: float | None = DEFAULT_LIST_TIMEOUT,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    ) -> McpTools:
        """A server reached over streamable HTTP at ``url`` (e.g. ``http://127.0.0.1:8000/mcp``).

        The SDK's HTTP transport parses the messages; the result budgets
        (content blocks, JSON values) and the output-schema handling of
        :meth:`stdio` apply to what it parsed, and so do the deadlines.

        Args:
            url: the server's MCP endpoint. Its label, messages and repr show
                its user information and query values as ``***``, and so do
                the log records made by its session (the SDK's, ``httpx2``'s).
            headers: sent with every request of the session, e.g.
                ``{"Authorization": f"Bearer {token}"}`` or an API-key
                header. Names are HTTP tokens, none twice and none the
                transport sets itself (``Host``, ``Content-Length``,
                ``Content-Type``, ``Accept``, ``Mcp-Session-Id``, ... see
                :data:`codemode.mcp._headers.TRANSPORT_HEADERS`); values are
                visible ASCII with inner spaces. A redirect is followed only
                within the URL's origin, so they go nowhere else. No message,
                log line or repr shows a value. Over ``http://`` they cross
                the network in clear: use ``https://`` beyond loopback.
            connect_timeout: seconds to complete the handshake, or ``None``
                for no deadline.
            list_timeout: seconds for the whole ``tools/list``, or ``None``.
            max_message_bytes: the longest message the server may send: a
                JSON body (counted as it arrives, never read past the cap) or
                one event of an event stream. A longer one fails its request
                alone with ``MCP_CALL_FAILED`` saying so; the connection stays
                open. A compressed body, or one that breaks off, fails the same way.

        Raises:
            ValueError: ``url`` is not an ``http://`` or ``https://`` URL, a
                timeout is not positive and finite, ``max_message_bytes``
                is below 1024, or a header is malformed or the transport's
                (the message names the header, never its value).
            TypeError: ``headers`` is not a mapping of str to str.
        """
        if type(url) is not str or not url.startswith(("http://", "https://")):
            # Not shown: a URL may hold a key, and this one may not be read as a URL.
            raise ValueError(
                "url must be an http:// or https:// URL (lower case, nothing before it); "
                "its text is not shown"
            )
        sent = check_headers(headers if headers is not None else {})

        def make(guard: Guard) -> Client:
            from mcp import Client

            from ._http import http_transport

            return Client(http_transport(url, guard, sent))

        made = cls(
            _unguarded, label=f"MCP server at {shown_url(url)}",
            connect_timeout=connect_timeout, list_timeout=list_timeout,
        )
        made._guarded_by(make, max_message_bytes)
        return made

    def _guarded_by(self, make: Callable[[Guard], Client], max_message_bytes: int) -> None:
        Guard(self._label, max_message_bytes=max_message_bytes)  # checks the cap now
        self._make_guarded = make
        self._max_message_bytes = max_message_bytes

    async def __aenter__(self) -> McpTools:
        if self._stack is not None:
            raise RuntimeError(f"{self!r} is already entered")
        require_sdk()
        guard: Guard | None = None
        if self._make_guarded is not None:
            guard = Guard(self._label, max_message_bytes=self._max_message_bytes)
            client = self._make_guarded(guard)
        else:
            client = self._make_client()
        ready = anyio.Event()
        closing = anyio.Event()
        failed: list[BaseException] = []

        async def own() -> None:
            # The session lives in a task of its own, so a handshake that never
            # ends can be abandoned by cancelling this task alone.
            try:
                with anyio.CancelScope() as closed:
                    async with client:
                        self._client = client
                        ready.set()
                        await closing.wait()
                        # Closing waits on the server too (the DELETE that ends
                        # an HTTP session, read with the SDK's 300 s timeout).
                        closed.deadline = anyio.current_time() + CLOSE_TIMEOUT
            except Exception as exc:
                if not ready.is_set():
                    failed.append(exc)
            finally:
                self._client = None
                ready.set()

        stack = AsyncExitStack()
        try:
            group = await stack.enter_async_context(anyio.create_task_group())
            stack.callback(closing.set)
            group.start_soon(own)
            with anyio.move_on_after(_seconds(self._connect_timeout)):
                await ready.wait()
        except BaseException:
            await stack.aclose()
            raise
        answered = ready.is_set()
        if answered and not failed:
            self._guard = guard
            self._stack = stack
            return self
        group.cancel_scope.cancel()
        await stack.aclose()
        if not answered:
            raise TimeoutError(
                f"{self._label} did not complete the MCP handshake (initialize) within "
                f"{self._connect_timeout:g} s (connect_timeout)"
            )
        if guard is not None and guard.failure is not None:
            raise McpCallError("initialize", guard.failure)
        raise self._handshake_error(failed[0])

    def _handshake_error(self, exc: BaseException) -> BaseException:
        """What the caller gets for a handshake that failed with ``exc``.

        The SDK's task groups wrap what ended the session; the caller gets the
        one error inside (a command not found stays ``FileNotFoundError``), and
        a JSON-RPC error of the SDK's (the server closed the connection, or
        answered ``initialize`` with an error) becomes an ``McpCallError``
        naming the server.
        """
        from mcp import MCPError

        while isinstance(exc, BaseExceptionGroup) and len(exc.exceptions) == 1:
            exc = exc.exceptions[0]
        if isinstance(exc, MCPError):
            return McpCallError(
                "initialize",
                f"{self._label} ended the MCP handshake: {self._why(exc.error.message)}",
                rpc_code=self._rpc_code(exc.error.code),
            )
        return exc

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        stack, self._stack = self._stack, None
        self._client = None
        self._guard = None
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

    async def _listed(self) -> list[ListedTool]:
        """Every page of ``tools/list``, within the listing's budget (see ``_listing``)."""
        from mcp import MCPError
        from pydantic import ValidationError

        client = self.client
        budget = ListingBudget(self._label)
        tools: list[ListedTool] = []
        cursor: str | None = None
        with anyio.move_on_after(_seconds(self._list_timeout)):
            try:
                for _ in range(MAX_LIST_PAGES):
                    page = await client.list_tools(cursor=cursor, cache_mode="bypass")
                    tools.extend(await budget.take(page.tools))
                    cursor = page.next_cursor
                    if cursor is None:
                        return tools
            except McpCallError:
                raise
            except MCPError as exc:
                raise McpCallError("tools/list", self._why(exc.error.message),
                                   rpc_code=self._rpc_code(exc.error.code)) from None
            except ValidationError as exc:
                raise McpCallError(
                    "tools/list",
                    f"{self._label} answered with a malformed listing: {_reason(exc)}",
                ) from None
            except Exception as exc:
                # Whatever else the SDK raises on a listing it cannot handle (its
                # serializer's ValueError past about 255 levels, say) is this server's.
                raise McpCallError(
                    "tools/list",
                    f"{self._label} sent a listing this client cannot read ({_reason(exc)})",
                ) from None
            raise McpCallError(
                "tools/list", f"{self._label} listed more than {MAX_LIST_PAGES} pages of tools"
            )
        raise McpCallError(
            "tools/list",
            f"{self._label} did not answer tools/list within {self._list_timeout:g} s "
            "(list_timeout)",
        )

    def _why(self, message: str) -> str:
        """The reason a request failed: the guard's, when it closed the connection."""
        guard = self._guard
        if guard is not None and guard.failure is not None:
            return guard.failure
        return one_line(message, _MAX_REASON_CHARS)

    @staticmethod
    def _rpc_code(code: int) -> int | None:
        from mcp_types import CONNECTION_CLOSED

        return None if code in (CONNECTION_CLOSED, REFUSED_BY_CLIENT) else code

    async def definitions(
        self,
        *,
        unsupported: Unsupported = "refuse",
        prefix: str = "",
        parallel: Parallel = "read-only",
        call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
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
                registry's timeout policy; default :data:`DEFAULT_CALL_TIMEOUT`),
                or ``None`` for none.

        A tool whose name cannot be defined (not 1 to 128 of ``A-Z a-z 0-9
        _ - .``, as MCP requires, or listed twice) is judged with the
        schemas: ``"skip"`` leaves it out (reported in ``skipped``, its name
        escaped, and as a warning), ``"refuse"`` raises. Descriptions reach
        the model with every non-printable character escaped, each cut at
        :data:`~codemode.mcp._listing.MAX_DESCRIPTION_CHARS`. The listing
        as a whole has a budget (tools, schema values, text; see
        :mod:`codemode.mcp._listing`), checked as its pages arrive; the
        conversion runs in a worker thread, off the event loop.

        Raises:
            UnsupportedMcpToolsError: with ``unsupported="refuse"``, listing
                every unsupported tool and path.
            RegistrationError: with ``unsupported="refuse"``, a tool's name
                cannot be registered; the message names it.
            McpCallError: the listing failed, was refused (past its budget,
                or out of shape), or did not come within ``list_timeout``.
            ValueError: ``unsupported`` or ``parallel`` is not one of its
                values, or ``prefix`` is not made of the characters of a tool name.
        """
        if unsupported not in ("refuse", "skip"):
            raise ValueError(f"unsupported must be 'refuse' or 'skip', got {unsupported=!r}")
        if parallel not in ("read-only", "all", "none"):
            raise ValueError(f"parallel must be 'read-only', 'all' or 'none', got {parallel=!r}")
        if type(prefix) is not str:
            raise TypeError(f"prefix must be a str, got prefix={prefix!r}")
        if prefix and name_problem(prefix) is not None:
            raise ValueError(f"prefix must be made of A-Z, a-z, 0-9, '_', '-' and '.' "
                             f"(as a tool name), got prefix={prefix[:200]!r}")
        timeout = _deadline("call_timeout", call_timeout)
        listing = await self._listed()
        stop = threading.Event()
        try:
            # Converting costs microseconds per schema value and tens of them per
            # tool, up to the listing's budget: seconds the loop must not wait.
            definitions, skipped, badly_named = await anyio.to_thread.run_sync(
                functools.partial(
                    self._converted, listing, prefix=prefix, parallel=parallel,
                    timeout=timeout, stop=stop,
                ),
                abandon_on_cancel=True,
            )
        finally:
            stop.set()
        if unsupported == "refuse":
            if badly_named:
                raise naming_error(self._label, badly_named)
            if skipped:
                raise UnsupportedMcpToolsError(self._label, skipped)
        for tool in badly_named:
            warn_skipped(self._label, tool)
        return ImportedTools(tuple(definitions), tuple(badly_named + skipped))

    async def register(
        self,
        registry: Registry,
        agent: ScopeKey | None = None,
        *,
        unsupported: Unsupported = "refuse",
        prefix: str = "",
        parallel: Parallel = "read-only",
        call_timeout: float | None = DEFAULT_CALL_TIMEOUT,
    ) -> ImportedTools:
        """Import the server's tools into ``registry`` (for ``agent``, or globally).

        Takes the arguments of :meth:`definitions`. A tool whose name the
        registry already holds (in that layer) is skipped with a warning under
        ``unsupported="skip"``; under ``"refuse"`` the import raises and
        undoes the registrations made before it.

        Raises:
            UnsupportedMcpToolsError: as :meth:`definitions`.
            RegistrationError: with ``unsupported="refuse"``, a tool's name is
                taken, reserved, empty or listed twice; the message names it.
        """
        imported = await self.definitions(
            unsupported=unsupported, prefix=prefix, parallel=parallel,
            call_timeout=call_timeout,
        )
        disposers: list[Callable[[], None]] = []
        kept: list[ToolDefinition] = []
        clashes: list[SkippedTool] = []

        def dispose() -> None:
            while disposers:
                disposers.pop()()

        try:
            for definition in imported.definitions:
                try:
                    disposers.append(registry.register(definition, agent=agent))
                except RegistrationError as exc:
                    clash = SkippedTool(definition.name, (f"cannot be registered: {exc}",))
                    if unsupported == "refuse":
                        raise naming_error(self._label, [clash]) from None
                    warn_skipped(self._label, clash)
                    clashes.append(clash)
                else:
                    kept.append(definition)
        except BaseException:
            dispose()
            raise
        return ImportedTools(tuple(kept), (*imported.skipped, *clashes), dispose)

    def _converted(
        self,
        listing: Sequence[ListedTool],
        *,
        prefix: str,
        parallel: Parallel,
        timeout: float | None,
        stop: threading.Event,
    ) -> tuple[list[ToolDefinition], list[SkippedTool], list[SkippedTool]]:
        """The listing as definitions, tools skipped for their schemas, and tools badly named.

        Runs in a worker thread: it touches nothing but the listing it was
        given, and stops early (its result dropped) once ``stop`` is set.
        """
        definitions: list[ToolDefinition] = []
        skipped: list[SkippedTool] = []
        badly_named: list[SkippedTool] = []
        seen: set[str] = set()
        for listed in listing:
            if stop.is_set():
                break
            name = prefix + listed.name
            fault = unimportable_name(listed.name, name, seen)
            seen.add(name)
            if fault is not None:
                badly_named.append(SkippedTool(shown_name(listed.name), (fault,)))
                continue
            parameters = exact_rewrite(listed.input_schema, shown=visible_text)
            output = (
                None if listed.output_schema is None
                else exact_rewrite(listed.output_schema, shown=visible_text)
            )
            problems = import_problems(parameters, output)
            if problems:
                shown = (one_line(p, _MAX_PROBLEM_CHARS) for p in problems)
                skipped.append(SkippedTool(listed.name, tuple(shown)))
                continue
            overlaps = parallel == "all" or (parallel == "read-only" and listed.read_only)
            try:
                definitions.append(
                    self._definition(listed, name, parameters, output,
                                     overlaps=overlaps, timeout=timeout)
                )
            except (ValueError, TypeError) as exc:
                reason = one_line(str(exc), _MAX_PROBLEM_CHARS)
                badly_named.append(SkippedTool(listed.name, (f"cannot be defined: {reason}",)))
        return definitions, skipped, badly_named

    def _definition(
        self,
        listed: ListedTool,
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
            description=visible_text(listed.description),
            parameters=parameters,
            output=(
                ToolOutput(schema=output, render=render_json)
                if isinstance(output, dict) else _content_output()
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
                result = await _send_call(client, remote, arguments)
            except MCPError as exc:
                raise McpCallError(remote, self._why(exc.error.message),
                                   rpc_code=self._rpc_code(exc.error.code)) from None
            except ValidationError as exc:
                raise McpCallError(
                    remote, f"{self._label} answered with a malformed result: {_reason(exc)}"
                ) from None
            except RuntimeError as exc:
                if "structured content" in str(exc) or "Invalid schema" in str(exc):
                    # The SDK's own check of structuredContent against the output schema.
                    raise ToolOutputError(remote, str(exc)) from None
                raise McpCallError(remote, self._why(str(exc))) from None
            except (OSError, EOFError) as exc:
                raise McpCallError(remote, f"the connection failed: {exc}") from None
            except Exception as exc:
                # Whatever else the SDK raises on an answer it cannot handle (its
                # serializer's ValueError past about 255 levels, say) is this server's.
                raise McpCallError(
                    remote, f"{self._label} sent an answer this client cannot read ({_reason(exc)})"
                ) from None
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


async def _send_call(client: Client, name: str, arguments: dict[str, Any]) -> Any:
    """``tools/call`` through the session, without the SDK's check of ``structuredContent``.

    ``Client.call_tool`` validates the result against the server's own output
    schema with ``jsonschema``, on the event loop, at a cost the server
    chooses (an enum of n values checked against n items costs n²). The
    pipeline already holds the value to the imported, subset-checked schema,
    off the loop when it is large.
    """
    import mcp_types

    request = mcp_types.CallToolRequest(
        params=mcp_types.CallToolRequestParams(name=name, arguments=arguments)
    )
    return await client.session.send_request(request, mcp_types.CallToolResult)


@functools.cache
def _content_output() -> ToolOutput:
    """The output of every tool without an output schema: checked and frozen once, not per tool."""
    return ToolOutput(schema=CONTENT_SCHEMA, render=render_value)


#: How much of an exception's text past its first visible character :func:`_reason` reads.
_REASON_HEAD_CHARS: Final = 4096
_VISIBLE: Final = re.compile(r"\S")


def _reason(exc: BaseException) -> str:
    """An exception as one bounded, printable line (the server chose its text).

    A pydantic error's first lines say how many errors, where the first is and
    what it is; the rest (one per value, thousands for a large answer) is left out,
    and never read: the lines come from the text's head alone, not from a list
    of every line of it.
    """
    text = str(exc)
    start = _VISIBLE.search(text)
    head = "" if start is None else text[start.start() : start.start() + _REASON_HEAD_CHARS]
    lines = [line.strip() for line in head.rstrip().splitlines()[:3]]
    text = f"{type(exc).__name__}: {'; '.join(lines)}" if lines else type(exc).__name__
    return one_line(text, 500)


def _unguarded() -> Client:
    raise RuntimeError("this McpTools builds its client with a guard")


def _deadline(name: str, value: float | None) -> float | None:
    if value is None:
        return None
    if type(value) not in (int, float) or not math.isfinite(value) or value <= 0:
        raise ValueError(f"{name} must be a positive finite number of seconds or None, "
                         f"got {name}={value!r}")
    return float(value)


def _seconds(value: float | None) -> float:
    return math.inf if value is None else value


def _only(group: BaseExceptionGroup[BaseException], exc: BaseException) -> bool:
    """Whether ``group`` holds nothing but ``exc`` (at any depth)."""
    return all(
        item is exc or (isinstance(item, BaseExceptionGroup) and _only(item, exc))
        for item in group.exceptions
    )
