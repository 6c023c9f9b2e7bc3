"""The command line's MCP tool specs: ``mcp+stdio:COMMAND ARG…`` and ``mcp+http:URL``.

``codemode run|sdk|serve-mcp --tools SPEC`` hands a spec starting with ``mcp+``
here. The rest of a stdio spec is split the way a POSIX shell splits words
(``mcp+stdio:python "my server.py" --flag``). Tools whose schemas are outside
the enforced subset, or named so they cannot be registered (``""``,
``run_code``, a name listed twice), are left out, and each is reported on
stderr with every offending path, so the remaining tools stay usable and
nothing is loosened. The connection has :class:`McpTools`' default deadlines
(handshake, ``tools/list``, each call), so a silent server ends the command
with one ``Error:`` line instead of hanging it.

An HTTP server that needs a header (``Authorization``, an API key) gets it
from ``--mcp-header NAME=VAR``: the value is read from the environment
variable ``VAR`` (:func:`header_from_env`), so no secret is on the command
line, and no message repeats it.
"""

from __future__ import annotations

import os
import re
import shlex
import sys
import warnings
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, Literal, final

from .._errors import RegistrationError
from .._loading import ToolSpecError
from .._registry import Registry
from ._client import McpTools
from ._headers import FIELD_NAME as _FIELD_NAME
from ._headers import shown_url
from ._results import McpCallError

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from .._registry import Mode

__all__ = [
    "MCP_PREFIX", "McpSpec", "header_from_env", "is_mcp_spec", "open_spec", "parse_spec",
]

#: What every MCP tool spec starts with.
MCP_PREFIX: Final = "mcp+"
_STDIO: Final = "mcp+stdio:"
_HTTP: Final = "mcp+http:"


@final
@dataclass(frozen=True, slots=True)
class McpSpec:
    """A parsed MCP tool spec: a stdio command line or an HTTP URL."""

    transport: Literal["stdio", "http"]
    argv: tuple[str, ...] = ()
    url: str = ""
    #: Sent with every HTTP request; never in the repr.
    headers: tuple[tuple[str, str], ...] = field(default=(), repr=False, compare=False)

    def __repr__(self) -> str:
        # The URL as labels show it: it may hold a key.
        if self.transport == "http":
            return f"McpSpec(transport='http', url={shown_url(self.url)!r})"
        return f"McpSpec(transport={self.transport!r}, argv={self.argv!r})"

    def connection(self) -> McpTools:
        """A not yet entered connection to the server this spec names."""
        if self.transport == "stdio":
            return McpTools.stdio(self.argv[0], self.argv[1:])
        return McpTools.http(self.url, headers=dict(self.headers))


_ENV_NAME: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_HEADER_OPTION: Final = "--mcp-header"


def header_from_env(option: str) -> tuple[str, str]:
    """The header an ``--mcp-header NAME=VAR`` value names: ``NAME`` and the value of ``$VAR``.

    Raises:
        ToolSpecError: the value is not ``NAME=VAR``, or ``VAR`` is not set.
            Neither the value nor ``VAR`` is shown (either may be a secret
            given by mistake: ``Authorization=Bearer …``, ``X-Api-Key=sk_live_…``).
    """
    name, equals, variable = option.partition("=")
    if not equals or not name or _ENV_NAME.fullmatch(variable) is None:
        raise ToolSpecError(
            f"{_HEADER_OPTION} takes NAME=VAR, VAR naming the environment variable that holds "
            f"the value (e.g. {_HEADER_OPTION} Authorization=MCP_AUTH with MCP_AUTH='Bearer "
            "…'); the value itself never goes on the command line. The argument given is not "
            "shown"
        )
    value = os.environ.get(variable)
    if value is None:
        shown = repr(name) if _FIELD_NAME.fullmatch(name) else "a header"
        raise ToolSpecError(
            f"{_HEADER_OPTION}: the environment variable named for {shown} is not set (its "
            "name is not shown, in case a value was given in its place)"
        )
    return name, value


def is_mcp_spec(spec: str) -> bool:
    """Whether a ``--tools`` value names an MCP server rather than a Python module."""
    return spec.startswith(MCP_PREFIX)


def parse_spec(spec: str, headers: tuple[str, ...] = ()) -> McpSpec:
    """Parse ``mcp+stdio:COMMAND …`` or ``mcp+http:URL``, with ``--mcp-header`` values.

    ``headers`` are ``NAME=VAR`` values (:func:`header_from_env`), for an HTTP
    server only.

    Raises:
        ToolSpecError: the spec is malformed, a header is given for stdio or
            cannot be read or sent (the message names it, never its value),
            or the MCP SDK is not installed; the message says what to write
            instead.
    """
    if spec.startswith(_STDIO):
        try:
            argv = tuple(shlex.split(spec[len(_STDIO):]))
        except ValueError as exc:
            raise ToolSpecError(f"--tools {spec!r}: cannot split the command: {exc}") from None
        if not argv:
            raise ToolSpecError(
                f"--tools {spec!r}: no command after {_STDIO!r}; "
                "write e.g. 'mcp+stdio:python my_server.py'"
            )
        if headers:
            raise ToolSpecError(
                f"{_HEADER_OPTION} is for an HTTP server (--tools 'mcp+http:URL'); a stdio "
                "server gets no headers"
            )
        parsed = McpSpec("stdio", argv=argv)
    elif spec.startswith(_HTTP):
        url = spec[len(_HTTP):]
        if not url.startswith(("http://", "https://")):
            # Not shown: what follows may be a URL with a key, misspelt.
            raise ToolSpecError(
                f"--tools {_HTTP}…: expected an http:// or https:// URL (lower case) after "
                f"{_HTTP!r}, the value is not shown; write e.g. "
                "'mcp+http:http://127.0.0.1:8000/mcp'"
            )
        sent = tuple(header_from_env(option) for option in headers)
        try:
            McpTools.http(url, headers=dict(sent))  # checks the headers now
        except (TypeError, ValueError) as exc:
            raise ToolSpecError(f"{_HEADER_OPTION}: {exc}") from None
        if len({name.lower() for name, _ in sent}) != len(sent):
            raise ToolSpecError(f"{_HEADER_OPTION}: a header name is given twice")
        parsed = McpSpec("http", url=url, headers=sent)
    else:
        raise ToolSpecError(
            f"--tools {spec!r}: unknown MCP transport; write 'mcp+stdio:COMMAND ARG…' "
            "or 'mcp+http:URL'"
        )
    try:
        import mcp  # noqa: F401
    except ModuleNotFoundError:
        shown = f"{_HTTP}{shown_url(parsed.url)}" if parsed.transport == "http" else spec
        raise ToolSpecError(
            f"--tools {shown!r}: MCP tools need the MCP SDK; install it with "
            "pip install 'codemode[mcp]'"
        ) from None
    return parsed


@asynccontextmanager
async def open_spec(spec: McpSpec, *, mode: Mode = "code") -> AsyncIterator[Registry]:
    """A registry holding the server's tools, connected for as long as the block runs.

    Raises:
        ToolSpecError: the server could not be started or reached, or it
            offers no tool this registry can hold.
    """
    connection = spec.connection()
    try:
        await connection.__aenter__()
    except Exception as exc:
        raise ToolSpecError(f"{connection.label} could not be reached: {_reason(exc)}") from None
    try:
        registry = Registry(mode=mode)
        try:
            with warnings.catch_warnings():
                # Each skipped tool is reported below, once, on stderr.
                warnings.simplefilter("ignore", RuntimeWarning)
                imported = await connection.register(registry, unsupported="skip")
        except (McpCallError, RegistrationError) as exc:
            raise ToolSpecError(str(exc)) from None
        for skipped in imported.skipped:
            for problem in skipped.problems:
                print(f'skipped MCP tool "{skipped.name:.200}": {problem}', file=sys.stderr)
        if not imported.definitions:
            raise ToolSpecError(f"{connection.label} offers no tool that can be imported")
        yield registry
    except BaseException as exc:
        await connection.__aexit__(type(exc), exc, exc.__traceback__)
        raise
    else:
        await connection.__aexit__(None, None, None)


def _reason(exc: BaseException) -> str:
    """The first leaf of an exception group, as one line."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
