"""Serving a registry's Code Mode as an MCP server (stdio, or streamable HTTP on loopback).

The server lists exactly ``run_code`` in ``code`` mode (its description carries
the rule and the SDK section a program is written against) or every tool and
then ``run_code`` in ``both``. Each ``tools/call`` is one model turn of the
registry (:func:`codemode.run_turn`): the same pipeline, policies and session
log as any other call. A ``run_code`` result carries what the program printed,
what it returned and its sub-calls, in the text and in ``structuredContent``;
a denied sub-call is whatever the program made of the ``ToolCallError`` it got.
"""

from __future__ import annotations

import ipaddress
import json
import os
import secrets
import socket
import sys
from typing import TYPE_CHECKING, Any, Final, Literal, final

import anyio

from bridge.lossless import LossyJsonError

from .._log import ModelToolCall, SessionLog, ToolCallEvent, check_event
from .._registry import Agent
from .._results import ImageBlock, TextBlock, ToolFailure
from .._signal import AbortSignal
from .._turns import run_turn
from ..code_mode import CodeMode, CodeRun
from ..code_mode._wire import RUN_CODE_DESCRIPTION, RUN_CODE_NAME
from ._client import require_sdk
from ._server_http import LOOPBACK_NAMES, MAKE_TOKEN, HttpAdmission, check_token
from ._server_wire import (
    DEFAULT_MAX_MESSAGE_BYTES,
    PENDING_SPARE,
    SERVER_BUSY,
    Backlog,
    current_ticket,
    stdio_wire,
)

if TYPE_CHECKING:
    from collections.abc import Callable

    from mcp.server import Server

    from bridge.lossless import JsonValue

    from .._registry import Registry
    from .._results import ToolResult

__all__ = [
    "DEFAULT_MAX_MESSAGE_BYTES",
    "HTTP_MAX_SESSIONS",
    "RUN_CODE_MCP_OUTPUT_SCHEMA",
    "SERVER_BUSY",
    "McpCodeServer",
    "ServerBusyError",
    "UnloggableCallError",
    "announce",
    "default_max_concurrent",
    "read_token_file",
    "serve",
    "serve_http",
    "serve_stdio",
]

ServeMode = Literal["code", "both"]

#: How many MCP sessions an HTTP server holds open at once by default: about
#: 10 MB of sessions (the SDK's own bound, 10,000, is about 400 MB).
HTTP_MAX_SESSIONS: Final = 256

#: What ``structuredContent`` of a ``run_code`` result holds, success or failure.
RUN_CODE_MCP_OUTPUT_SCHEMA: Final[dict[str, Any]] = {
    "type": "object",
    "properties": {
        "logs": {"type": "array", "items": {"type": "string"}},
        "result": {"description": "What the program returned (absent when it failed)."},
        "error": {
            "type": "object",
            "description": "Why the run failed (absent when it succeeded).",
            "properties": {
                "kind": {"type": "string"},
                "message": {"type": "string"},
            },
            "required": ["kind", "message"],
        },
        "calls": {
            "type": "array",
            "description": "The tool calls the program made, in the order they finished.",
            "items": {
                "type": "object",
                "properties": {
                    "id": {"type": "string"},
                    "name": {"type": "string"},
                    "is_error": {"type": "boolean"},
                },
                "required": ["id", "name", "is_error"],
            },
        },
    },
    "required": ["logs", "calls"],
}


#: Calls that may wait for a slot, per slot, unless ``max_queued`` says otherwise.
_QUEUED_PER_SLOT: Final = 4


def default_max_concurrent(pool_size: int | None = None) -> int:
    """The default bound on calls in flight: the pool size when given, else the CPU count.

    Each ``run_code`` call holds a sandbox child (up to ``Limits.memory_bytes``),
    and the pool forks beyond its warm children on demand, so this bound is
    what caps the children (and their memory) one server commits.
    """
    if pool_size is not None and pool_size > 0:
        return pool_size
    return max(1, os.cpu_count() or 1)


@final
class ServerBusyError(RuntimeError):
    """A ``tools/call`` refused: ``max_concurrent`` are admitted and ``max_queued`` waiting."""


@final
class UnloggableCallError(ValueError):
    """A ``tools/call`` refused before it ran: its tool name cannot be logged (or answered).

    A JSON string may hold a lone surrogate (``"\\ud800"``); such a name has
    no UTF-8 form, so no session log, and no answer that repeats it, can carry
    it. The server answers with the JSON-RPC error ``-32602`` (invalid params).
    """


#: How much of a refused tool name a refusal shows.
_SHOWN_NAME_CHARS: Final = 80


def _unloggable_name(name: str) -> str | None:
    """Why a call of tool ``name`` could not be logged as a ``tool/call``, or None."""
    probe = ToolCallEvent(turn=0, step=0, call_id="mcp", name=name, arguments="{}", time=0.0)
    try:
        check_event(probe)
    except LossyJsonError as exc:
        shown = ascii(name) if type(name) is str else f"<{type(name).__name__}>"
        if len(shown) > _SHOWN_NAME_CHARS:
            shown = shown[: _SHOWN_NAME_CHARS - 3] + "..."
        shown = shown.encode("ascii", "backslashreplace").decode("ascii")
        return f"tools/call refused: the tool name {shown} cannot be logged: {exc.reason}"
    return None


@final
class McpCodeServer:
    """The MCP request handlers for one registry, with the Code Mode they run programs in.

    Enter it to start Code Mode (and its sandbox pool), then serve it with
    :func:`serve_stdio` or :func:`serve_http`::

        async with McpCodeServer(registry, mode="code") as server:
            await serve_stdio(server)

    Args:
        registry: the tools, policies and modes to serve.
        mode: ``"code"`` lists only ``run_code``; ``"both"`` lists every tool too.
        log: the session log that records each call as one turn, or ``None``.
        name: the server's name in the MCP handshake.
        max_concurrent: the most ``tools/call`` requests run at once (each
            ``run_code`` holds one sandbox child); default
            :func:`default_max_concurrent` of ``pool_size``.
        max_queued: the most further calls that wait, in arrival order, for
            one to finish; a call past that is refused at once with the MCP
            error :data:`SERVER_BUSY`. Default ``4 * max_concurrent``.
        max_pending: the most requests of any method read from clients and
            not yet answered (over stdio, per connection; over HTTP, in all).
            A request counts until its answer has been written, so a client
            that does not read its answers holds at most this many: past it,
            stdio stops reading (the client's writes block) and HTTP answers
            :data:`SERVER_BUSY`. Their request text is held to
            ``max_message_bytes`` and their JSON values to
            ``MAX_MESSAGE_VALUES`` (one request alone always fits). Default
            ``max_concurrent + max_queued + PENDING_SPARE``.
        max_message_bytes: the longest message a client may send over stdio
            (default 16 MiB, as for the servers :class:`McpTools` reads);
            over HTTP a body is also held to the SDK's 4 MiB.
        code_mode_options: passed to :class:`~codemode.code_mode.CodeMode`
            (``limits=``, ``quotas=``, ``pool_size=``, ...).

    Each call is a root call with the id ``mcp-<8 hex digits>-<n>``: the hex
    part is drawn at random for each server, so the ids stay unique in a
    log that several servers (one after another, or a server that crashed
    and its successor) write.
    """

    __slots__ = ("_agent", "_code_mode", "_dispose", "_id_prefix", "_log", "_mode", "_name",
                 "_queued", "_registry", "_runs", "_slots", "_turns", "backlog",
                 "max_concurrent", "max_message_bytes", "max_queued")

    def __init__(
        self,
        registry: Registry,
        *,
        mode: ServeMode = "code",
        log: SessionLog | None = None,
        name: str = "codemode",
        max_concurrent: int | None = None,
        max_queued: int | None = None,
        max_pending: int | None = None,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        **code_mode_options: Any,
    ) -> None:
        if mode not in ("code", "both"):
            raise ValueError(f"mode must be 'code' or 'both', got mode={mode!r}")
        pool_size = code_mode_options.get("pool_size")
        if max_concurrent is None:
            max_concurrent = default_max_concurrent(pool_size if type(pool_size) is int else None)
        if type(max_concurrent) is not int or max_concurrent < 1:
            raise ValueError(f"max_concurrent={max_concurrent!r}: expected a positive int")
        if max_queued is None:
            max_queued = _QUEUED_PER_SLOT * max_concurrent
        if type(max_queued) is not int or max_queued < 0:
            raise ValueError(f"max_queued={max_queued!r}: expected a non-negative int")
        if max_pending is None:
            max_pending = max_concurrent + max_queued + PENDING_SPARE
        if type(max_pending) is not int or max_pending < 1:
            raise ValueError(f"max_pending={max_pending!r}: expected a positive int")
        if type(max_message_bytes) is not int or max_message_bytes < 1024:
            raise ValueError(
                f"max_message_bytes={max_message_bytes!r}: expected an int of at least 1024"
            )
        self.max_concurrent = max_concurrent
        self.max_queued = max_queued
        self.max_message_bytes = max_message_bytes
        #: The requests read and not yet answered, and what they hold.
        self.backlog = Backlog(max_requests=max_pending, max_bytes=max_message_bytes)
        # anyio's semaphore wakes its waiters in arrival order.
        self._slots = anyio.Semaphore(max_concurrent)
        self._queued = 0
        self._registry = registry
        self._mode: ServeMode = mode
        self._log = log
        self._name = name
        self._agent = Agent("mcp")
        self._turns = 0
        # Unique per server, not per process, so a log written by several keeps one id per call.
        self._id_prefix = f"mcp-{secrets.token_hex(4)}-"
        self._runs: dict[str, CodeRun] = {}
        self._code_mode = CodeMode(registry, log=log, on_run=self.record, **code_mode_options)
        self._dispose: Callable[[], None] | None = None

    async def __aenter__(self) -> McpCodeServer:
        self._dispose = self._registry.present_as(self._agent, self._mode)
        try:
            await self._code_mode.__aenter__()
        except BaseException:
            self._dispose()
            raise
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        try:
            await self._code_mode.__aexit__(None, None, None)
        finally:
            if self._dispose is not None:
                self._dispose()
                self._dispose = None

    def record(self, run: CodeRun) -> None:
        """The ``on_run`` callback of the :class:`CodeMode` this server uses."""
        self._runs[run.call_id] = run

    def tools(self) -> list[dict[str, Any]]:
        """The tool list, as MCP ``Tool`` objects in JSON form (the registry's ``mcp`` format).

        ``run_code``'s description gains the rule and the SDK section, and its
        ``outputSchema`` says what this server puts in ``structuredContent``.
        """
        listed = self._registry.wire_schemas(self._agent, format="mcp")
        for entry in listed:
            if entry["name"] == RUN_CODE_NAME:
                entry["description"] = (
                    RUN_CODE_DESCRIPTION + "\n\n" + self._code_mode.system_prompt(self._agent)
                )
                entry["outputSchema"] = RUN_CODE_MCP_OUTPUT_SCHEMA
        return listed

    @property
    def max_pending(self) -> int:
        """The most requests read and not yet answered."""
        return self.backlog.max_requests

    @property
    def in_flight(self) -> int:
        """Calls admitted now: running, or done with their answer not written yet."""
        return self.max_concurrent - self._slots.value

    @property
    def queued(self) -> int:
        """Calls waiting for a slot now."""
        return self._queued

    async def call(self, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
        """Run one ``tools/call`` as one turn; return the ``CallToolResult`` in JSON form.

        At most ``max_concurrent`` are admitted at once; later calls wait in
        order, and past ``max_queued`` waiting ones a call raises
        :class:`ServerBusyError`. A call read by one of this module's transports
        keeps its slot until its answer has been written (or dropped), so
        finished answers a client does not read are at most ``max_concurrent``;
        called directly, it keeps the slot until it returns.

        Raises:
            ServerBusyError: ``max_queued`` calls are waiting already.
            UnloggableCallError: the tool name cannot be logged (a lone
                surrogate); nothing ran and no slot was taken.
        """
        unloggable = _unloggable_name(name)
        if unloggable is not None:
            raise UnloggableCallError(unloggable)
        if self._slots.value == 0 and self._queued >= self.max_queued:
            raise ServerBusyError(
                f"the server is busy: {self.max_concurrent} calls are running and "
                f"{self._queued} waiting (max_concurrent={self.max_concurrent}, "
                f"max_queued={self.max_queued}); retry later"
            )
        self._queued += 1
        try:
            await self._slots.acquire()
        finally:
            self._queued -= 1
        # The slot is given back once the call has returned and its answer has been
        # written or dropped, whichever is later: an HTTP client that went away
        # settles its request while the run may still go on.
        holds = [2]

        def let_go() -> None:
            holds[0] -= 1
            if holds[0] == 0:
                self._slots.release()

        ticket = current_ticket()
        if ticket is None:
            holds[0] = 1  # called directly: the slot is held until the call returns
        else:
            ticket.on_settle(let_go)
        try:
            return await self._admitted(name, arguments)
        finally:
            let_go()

    async def _admitted(self, name: str, arguments: dict[str, Any] | None) -> dict[str, Any]:
        self._turns += 1
        turn = self._turns
        call_id = f"{self._id_prefix}{turn}"
        try:
            [result] = await run_turn(
                self._registry,
                [ModelToolCall(call_id=call_id, name=name, arguments=json.dumps(arguments or {}))],
                agent=self._agent,
                signal=AbortSignal(),
                log=self._log,
                turn=turn,
            )
        finally:
            run = self._runs.pop(call_id, None)  # also when the client cancelled the call
        out: dict[str, Any] = {
            "content": [_content(block) for block in result.content],
            "isError": result.is_error,
        }
        structured = self._structured(name, result, run)
        if structured is not None:
            out["structuredContent"] = structured
        return out

    def _structured(self, name: str, result: ToolResult, run: CodeRun | None) -> Any:
        if name == RUN_CODE_NAME and run is not None:
            body: dict[str, JsonValue] = {
                "logs": list(run.logs),
                "calls": [{"id": c.id, "name": c.name, "is_error": c.is_error} for c in run.calls],
            }
            if run.error is not None:
                body["error"] = {"kind": run.error[0], "message": run.error[1]}
            else:
                body["result"] = run.value
            return json.loads(json.dumps(body))
        if isinstance(result, ToolFailure) or name == RUN_CODE_NAME:
            return None
        definition = self._registry.get(name, self._agent)
        if definition is None or definition.output.schema.get("type") != "object":
            return None
        return json.loads(json.dumps(result.value))

    def build(self) -> Server[Any]:
        """The SDK's low-level server with this object's handlers."""
        require_sdk()
        import mcp.types as types
        from mcp.server import Server

        async def list_tools(ctx: Any, params: Any) -> types.ListToolsResult:
            return types.ListToolsResult.model_validate({"tools": self.tools()})

        async def call_tool(ctx: Any, params: types.CallToolRequestParams) -> types.CallToolResult:
            try:
                answer = await self.call(params.name, params.arguments)
            except ServerBusyError as exc:
                from mcp.shared.exceptions import MCPError

                raise MCPError(code=SERVER_BUSY, message=str(exc)) from None
            except UnloggableCallError as exc:
                from mcp.shared.exceptions import MCPError

                raise MCPError(code=types.INVALID_PARAMS, message=str(exc)) from None
            return types.CallToolResult.model_validate(answer)

        return Server(self._name, on_list_tools=list_tools, on_call_tool=call_tool)


def _content(block: TextBlock | ImageBlock) -> dict[str, str]:
    if isinstance(block, ImageBlock):
        return {"type": "image", "data": block.data, "mimeType": block.mime_type}
    return {"type": "text", "text": block.text}


async def serve_stdio(
    server: McpCodeServer, *, stdin: int | None = None, stdout: int | None = None
) -> None:
    """Serve over this process's stdin and stdout until the client closes them.

    While serving, fd 0 reads ``/dev/null`` and fd 1 writes to stderr, so
    nothing a tool reads or prints touches the protocol stream. ``stdin`` and
    ``stdout`` (both or neither) serve over those file descriptors instead.
    Messages are read within ``server.max_message_bytes`` and the server's
    backlog (see :class:`McpCodeServer`); every request gets an answer.
    """
    lowlevel = server.build()
    async with stdio_wire(
        server.backlog, server.max_message_bytes, stdin=stdin, stdout=stdout
    ) as (read_stream, write_stream):
        await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())


async def serve_http(
    server: McpCodeServer,
    *,
    port: int,
    host: str = "127.0.0.1",
    on_ready: Callable[[str], object] | None = None,
    token: str | None = None,
    max_sessions: int = HTTP_MAX_SESSIONS,
) -> None:
    """Serve streamable HTTP at ``http://HOST:PORT/mcp`` until cancelled.

    The socket is bound and listening before ``on_ready`` is called with the
    URL (port 0 picks a free port), so a client may connect as soon as it
    hears of it. Every POST counts in the server's backlog until its answer
    has been sent; one that finds it full is answered at once with
    :data:`SERVER_BUSY` (HTTP 503).

    Cancelled, it shuts down as on SIGTERM before it returns: it stops
    listening, closes idle connections, gives requests in progress (a call
    still running, an event stream) :data:`HTTP_SHUTDOWN_GRACE_SECONDS`, then
    cancels them, ends the SDK's sessions, and drops a connection still
    writing to a client that does not read. No listener, connection, session
    or call outlives it.

    It listens on loopback only, token or not (it has no TLS): a ``host``
    that binds any other address (``0.0.0.0``, ``""``, a LAN address, a name
    that resolves to one) raises :class:`ValueError` before it listens. A
    request is answered only if its ``Host`` (and ``Origin``, if it has one)
    names ``localhost``, ``127.0.0.1``, ``[::1]`` or ``host`` itself, then, with
    a ``token``, only if it carries exactly one ``Authorization: Bearer
    <token>`` header (compared in constant time; else 401 with
    ``WWW-Authenticate: Bearer``), and a POST only if it is
    ``application/json``; others are refused before their body is read and
    take no place in the backlog (see :class:`HttpAdmission`). Without a
    token, any local process that reaches the port may call the tools. A
    connection that has not sent a complete request head within
    ``HTTP_HEAD_TIMEOUT`` of opening or of its last answer is closed, and at
    most ``connection_limit()`` are held at once (one more closes the one that
    has waited longest for a head, one never answered first): no client, token or not, holds the
    server's descriptors by sending nothing. A refused request's answer
    closes its connection, and one whose client reads none of an answer for
    ``HTTP_WRITE_TIMEOUT`` is closed: none holds them by reading nothing.

    At most ``max_sessions`` MCP sessions are open at once (each holds about
    40 KB until its client deletes it or it has been idle 30 minutes); an
    ``initialize`` past that is answered 503 "Too many open sessions", and
    the sessions already open go on.

    Raises:
        ValueError: ``host`` is not a loopback address, ``token`` is not
            at least 16 characters of RFC 6750's ``b64token`` alphabet (the
            message says how to make one, and never shows it), or
            ``max_sessions`` is not a positive int.
    """
    import uvicorn
    from mcp.server.transport_security import (
        DEFAULT_MAX_REQUEST_BODY_SIZE,
        TransportSecuritySettings,
    )

    if token is not None:
        check_token(token)  # before anything listens
    if type(max_sessions) is not int or max_sessions < 1:
        raise ValueError(f"max_sessions={max_sessions!r}: expected a positive int")
    listener = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET)
    try:
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind((host, port))
        # Checked on the address bound, before listening: nothing was accepted on it.
        _require_loopback(host, listener.getsockname()[0])
        listener.listen(128)
    except BaseException:
        listener.close()
        raise
    bound = listener.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    names = tuple(dict.fromkeys([*LOOPBACK_NAMES, shown.lower()]))
    # The SDK's own check, given the same names (it keeps one only for three host strings).
    security = TransportSecuritySettings(
        enable_dns_rebinding_protection=True,
        allowed_hosts=[form for name in names for form in (name, f"{name}:*")],
        allowed_origins=[
            form
            for scheme in ("http", "https")
            for name in names
            for form in (f"{scheme}://{name}", f"{scheme}://{name}:*")
        ],
    )
    lowlevel = server.build()
    max_body = min(server.max_message_bytes, DEFAULT_MAX_REQUEST_BODY_SIZE)
    app = HttpAdmission(
        lowlevel.streamable_http_app(
            host=host, max_request_body_size=max_body, transport_security=security,
            max_sessions=max_sessions,
        ),
        server.backlog,
        max_body,
        names=names,
        token=token,
    )
    from ._server_connections import bounded_protocol, connection_limit

    config = uvicorn.Config(
        app, log_level="warning", lifespan="on",
        timeout_graceful_shutdown=HTTP_SHUTDOWN_GRACE_SECONDS,
        # A connection costs a descriptor only while a request on it is served.
        http=bounded_protocol(connection_limit()),
    )
    uvicorn_server = uvicorn.Server(config)
    stopped = anyio.Event()

    async def run_uvicorn() -> None:
        # Shielded: once started, uvicorn ends only through its own shutdown, which
        # closes its listening server and connections and ends the app's lifespan
        # (the SDK's sessions). Cancelled half-way it would leave all three behind.
        with anyio.CancelScope(shield=True):
            try:
                await uvicorn_server.serve(sockets=[listener])
            finally:
                # A connection whose client reads nothing is left closing with its
                # answer unsent, for as long as the client stays: drop it.
                for connection in list(uvicorn_server.server_state.connections):
                    connection.transport.abort()
                stopped.set()

    try:
        if on_ready is not None:
            on_ready(f"http://{shown}:{bound}/mcp")
        async with anyio.create_task_group() as group:
            group.start_soon(run_uvicorn)
            try:
                await stopped.wait()
            finally:
                # Cancelled: ask uvicorn to shut down, and wait for it (the group does).
                uvicorn_server.should_exit = True
    finally:
        listener.close()


#: Seconds a stopping HTTP server waits for requests in progress (a call still
#: running, an event stream) before it cancels them.
HTTP_SHUTDOWN_GRACE_SECONDS: Final = 5


def _require_loopback(host: str, bound: str) -> None:
    """Raise ``ValueError`` unless ``bound``, the address ``host`` bound, is a loopback address."""
    address = ipaddress.ip_address(bound.split("%", 1)[0])
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    if not address.is_loopback:
        raise ValueError(
            f"serve_http listens on loopback only (it has no TLS, so neither a bearer "
            f"token nor a call would be private on a network): "
            f"host={host!r} binds {bound}; use 127.0.0.1, ::1 or localhost"
        )


def announce(url: str, *, token_required: bool = False) -> None:
    """Say on stderr where the server listens (stdout may be a pipe someone parses).

    With ``token_required`` it says that requests need the bearer token; never the token.
    """
    note = " (every request needs the bearer token: Authorization: Bearer <token>)"
    print(f"serving MCP at {url}{note if token_required else ''}", file=sys.stderr, flush=True)


#: The most bytes of a token file read (a token is at most 1024 characters).
_TOKEN_FILE_BYTES: Final = 4096


def read_token_file(path: str | os.PathLike[str]) -> str:
    """The bearer token in the file at ``path``, checked; ``ValueError`` saying why not.

    The file holds the token alone; one trailing line break (``\\n`` or
    ``\\r\\n``) is dropped. It must be a regular file (or a pipe, as
    ``<(command)`` gives) that only its owner, this user or root, may read or
    write (``chmod 600``): whoever can read it can call the tools, whoever can
    write it can put a token of their own in. No message shows what it holds.
    """
    import stat

    shown = os.fspath(path)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC | os.O_NOCTTY)
    except OSError as exc:
        raise ValueError(f"cannot open {shown}: {exc.strerror or exc}") from None
    try:
        info = os.fstat(fd)
        if not (stat.S_ISREG(info.st_mode) or stat.S_ISFIFO(info.st_mode)):
            raise ValueError(f"{shown} is not a regular file")
        if info.st_uid not in (os.geteuid(), 0):
            raise ValueError(
                f"{shown} belongs to another user (uid {info.st_uid}), who could change the "
                "token; use a file of your own"
            )
        if info.st_mode & 0o077:
            raise ValueError(
                f"{shown} may be read or written by other users (mode "
                f"{stat.S_IMODE(info.st_mode):04o}); make it yours alone: chmod 600 {shown}"
            )
        data = bytearray()
        while len(data) <= _TOKEN_FILE_BYTES:
            chunk = os.read(fd, _TOKEN_FILE_BYTES + 1 - len(data))
            if not chunk:
                break
            data += chunk
    except OSError as exc:
        raise ValueError(f"cannot read {shown}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > _TOKEN_FILE_BYTES:
        raise ValueError(f"{shown} is longer than {_TOKEN_FILE_BYTES} bytes; it holds no token")
    if data.endswith(b"\n"):
        del data[-1:]
        if data.endswith(b"\r"):
            del data[-1:]
    try:
        token = data.decode("ascii")
    except UnicodeDecodeError:
        raise ValueError(
            f"{shown} holds bytes that are not ASCII, so no bearer token; make one with: "
            f"{MAKE_TOKEN} > {shown}"
        ) from None
    try:
        return check_token(token)
    except ValueError as exc:
        raise ValueError(f"{shown}: {exc} > {shown} && chmod 600 {shown}") from None


async def serve(
    registry: Registry,
    mode: ServeMode,
    port: int | None,
    log: SessionLog | None,
    max_concurrent: int | None = None,
    max_queued: int | None = None,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    token: str | None = None,
    max_sessions: int = HTTP_MAX_SESSIONS,
) -> None:
    """What ``codemode serve-mcp`` runs: stdio, or HTTP on loopback when ``port`` is set.

    ``log`` is the caller's to close: it opens the session log where it opens
    its file, so that a log it cannot append to is refused before serving.
    ``token`` is the bearer token every HTTP request must carry, if any.
    """
    async with McpCodeServer(
        registry, mode=mode, log=log, max_concurrent=max_concurrent, max_queued=max_queued,
        max_message_bytes=max_message_bytes,
    ) as server:
        if port is None:
            await serve_stdio(server)
        else:
            await serve_http(
                server, port=port, token=token, max_sessions=max_sessions,
                on_ready=lambda url: announce(url, token_required=token is not None),
            )
