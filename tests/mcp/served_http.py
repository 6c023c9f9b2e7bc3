"""``serve_http`` run in the test's own event loop, so the server's counts can be read.

uvicorn's ``Server.main_loop`` wakes every 0.1 s for as long as it serves
(``await asyncio.sleep(0.1)``), and ``anyio.wait_all_tasks_blocked`` looks
again every 0.1 s while a task is not blocked. A task whose sleep just ended
counts as not blocked until its wake-up runs, one loop pass later; when the
two timers fall due in the same pass, the test's first, it sees uvicorn's
ended sleep on every look and never returns. So while a server is served
here, ``anyio.wait_all_tasks_blocked`` raises at once: a test waits for the
condition it means (an event, the backlog, a slot coming back, bytes
arriving), never for the loop to go quiet.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, NamedTuple, NoReturn
from unittest import mock

import anyio

from codemode.mcp._server import HTTP_MAX_SESSIONS, McpCodeServer, serve_http

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from codemode import Registry

#: Seconds: a guard against hangs, never a timing assertion.
GUARD = 60


class Served(NamedTuple):
    """A server served over HTTP in this loop: the server, the URL it announced, and its port."""

    server: McpCodeServer
    url: str
    port: int


async def _never_quiet() -> NoReturn:
    raise AssertionError(
        "anyio.wait_all_tasks_blocked() may never return while uvicorn serves in this loop "
        "(its main loop wakes every 0.1 s): wait for the condition itself"
    )


@asynccontextmanager
async def served_http(
    registry: Registry, host: str = "127.0.0.1", *, token: str | None = None,
    max_sessions: int = HTTP_MAX_SESSIONS, **options: Any
) -> AsyncIterator[Served]:
    """``serve_http`` of ``registry`` (mode ``both``, no sandbox pool) in this loop, until exit.

    ``token`` is the bearer token the server requires, if any.
    """
    async with McpCodeServer(registry, mode="both", pool_size=0, **options) as server:
        ready = anyio.Event()
        where: list[str] = []

        def on_ready(url: str) -> None:
            where.append(url)
            ready.set()

        with anyio.fail_after(GUARD), mock.patch.object(
            anyio, "wait_all_tasks_blocked", _never_quiet
        ):
            async with anyio.create_task_group() as group:
                group.start_soon(lambda: serve_http(
                    server, port=0, host=host, on_ready=on_ready, token=token,
                    max_sessions=max_sessions,
                ))
                await ready.wait()
                try:
                    url = where[0]
                    yield Served(server, url, int(url.rsplit(":", 1)[1].split("/")[0]))
                finally:
                    group.cancel_scope.cancel()


async def slot_freed(server: McpCodeServer) -> None:
    """Wait until a call slot is free: take one and give it back at once.

    The slots are a semaphore that wakes its waiters in arrival order, so with
    no call queued this returns as soon as a running call gives its slot back.
    """
    async with server._slots:
        pass
