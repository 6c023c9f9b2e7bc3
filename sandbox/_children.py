"""Host-side handles on the zygote process and the children it forks.

:class:`Zygote` owns the control socket: it asks for forks and kills, and
reads the zygote's reports (a fork's pid, a child's exit status and CPU time).
:class:`Child` follows one child from the fork request until it is reaped.
:func:`exit_error` turns an exit status into the run's error: ``SIGXCPU`` (or
``SIGKILL`` at the CPU hard limit) is a CPU timeout, the tripwire's exit status
a ``sandbox-violation`` (its frame naming the event did not arrive), anything
else before ``Done`` a ``worker-exit`` naming the signal or status.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio
import msgspec

import sandbox
from bridge.host import tripped_message
from sandbox import _zygote
from sandbox._config import RunError, format_seconds
from sandbox._where import CPU_LIMIT_EXIT

if TYPE_CHECKING:
    from collections.abc import Callable

    from anyio.abc import Process

    from bridge.host import HostEndpoint

__all__ = [
    "REAP_SECONDS",
    "ZYGOTE_START_SECONDS",
    "Child",
    "Zygote",
    "exit_error",
    "startup_failure",
]

#: Time allowed for the zygote to import the child side and report READY.
ZYGOTE_START_SECONDS: Final = 60.0
#: Time a killed child (or the zygote on shutdown) gets to be reaped; only a
#: guard against a wedged kernel, never reached in practice.
REAP_SECONDS: Final = 10.0

_PROJECT_ROOT: Final = str(Path(sandbox.__file__).resolve().parent.parent)
_BOOTSTRAP: Final = (
    "import sys; sys.path.insert(0, sys.argv[1]); "
    "from sandbox._zygote import main; main()"
)


class Child:
    """One forked child, from Spawn to reaping."""

    __slots__ = (
        "cpu_seconds", "cwd", "cwd_removed", "endpoint", "exited", "from_child", "gone", "pid",
        "settings", "state", "status", "to_child", "uid", "watch", "zygote_died",
    )

    def __init__(
        self, settings: _zygote.ChildSettings, cwd: str, to_child: int, from_child: int
    ) -> None:
        self.settings = settings
        self.cwd = cwd
        #: Whether ``cwd`` was removed already (see ``WorkerPool``'s ``_close_to_child``).
        self.cwd_removed = False
        self.to_child = to_child
        self.from_child = from_child
        self.pid = 0
        self.state = "starting"  # starting -> idle -> busy -> (finishing ->) done
        self.exited = asyncio.Event()
        self.status: int | None = None
        self.cpu_seconds = 0.0
        self.zygote_died = False
        self.endpoint: HostEndpoint | None = None
        #: The uid this child drops to (held for it alone), or ``None``.
        self.uid: int | None = None
        #: The process can no longer run: reaped, never forked, or its zygote
        #: reaped (which sent it the parent-death SIGKILL). Only then may its
        #: uid go to another child.
        self.gone = False
        #: The scope of the pool task that waits for this warm child's exit
        #: (see ``WorkerPool._watch``), while it waits.
        self.watch: anyio.CancelScope | None = None


class Zygote:
    """The host's handle on one zygote process and its control socket.

    ``on_gone`` is called once for each child whose process can no longer run
    (``child.gone`` is then set): when the zygote reports it reaped, could not
    fork it, or, for the children it had when it died, once the zygote itself
    is reaped.
    """

    def __init__(
        self,
        process: Process,
        control: socket.socket,
        ready: _zygote.ZygoteReady,
        on_gone: Callable[[Child], None],
    ):
        self.process = process
        self.control = control
        self.ready = ready
        self.on_gone = on_gone
        self.children: dict[int, Child] = {}
        self.spawns: dict[int, tuple[asyncio.Event, Child, list[int | str]]] = {}
        #: Spawn requests sent whose requester gave up: the child is killed
        #: as soon as its pid is known, and followed until it is reaped.
        self.orphans: dict[int, Child] = {}
        #: Children the zygote had when it died; gone once it is reaped.
        self.lost: list[Child] = []
        self.next_id = 0
        self.dead = False

    def _gone(self, child: Child) -> None:
        child.gone = True
        self.on_gone(child)

    @classmethod
    async def start(cls, on_gone: Callable[[Child], None]) -> Zygote:
        host_end, zygote_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        try:
            process = await anyio.open_process(
                [sys.executable, "-I", "-c", _BOOTSTRAP, _PROJECT_ROOT, str(zygote_end.fileno())],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=None,
                env={},
                pass_fds=(zygote_end.fileno(),),
                start_new_session=True,
            )
        except BaseException:
            host_end.close()
            raise
        finally:
            zygote_end.close()
        host_end.setblocking(False)
        try:
            with anyio.fail_after(ZYGOTE_START_SECONDS):
                data = await recv_packet(host_end)
            message = _decoder.decode(data) if data else None
            if not isinstance(message, _zygote.ZygoteReady):
                raise RuntimeError(
                    f"the sandbox zygote exited or misbehaved while starting (got {message!r}); "
                    "its error output went to this process's standard error"
                )
        except BaseException:
            with anyio.CancelScope(shield=True):
                host_end.close()
                process.kill()
                await process.wait()
            raise
        return cls(process, host_end, message, on_gone)

    async def serve(self) -> None:
        """Read the zygote's reports until it exits; then fail whatever waits on it."""
        try:
            while True:
                data = await recv_packet(self.control)
                if not data:
                    return
                message = _decoder.decode(data)
                if isinstance(message, _zygote.Exited):
                    child = self.children.pop(message.pid, None)
                    if child is not None:
                        child.status = message.status
                        child.cpu_seconds = message.cpu_seconds
                        child.exited.set()
                        self._gone(child)
                elif isinstance(message, _zygote.Spawned):
                    waiter = self.spawns.pop(message.id, None)
                    if waiter is None:
                        # Its requester was cancelled: the child is nobody's.
                        orphan = self.orphans.pop(message.id, None)
                        if orphan is not None:
                            orphan.pid = message.pid
                            self.children[message.pid] = orphan
                        with contextlib.suppress(OSError):
                            await self._send(_zygote.encode(_zygote.Kill(message.pid)), [])
                        continue
                    event, child, box = waiter
                    # Tracked at once, so that an Exited right behind is not lost.
                    child.pid = message.pid
                    self.children[message.pid] = child
                    box.append(message.pid)
                    event.set()
                elif isinstance(message, _zygote.SpawnFailed):
                    waiter = self.spawns.pop(message.id, None)
                    if waiter is not None:
                        self._gone(waiter[1])
                        waiter[2].append(message.message)
                        waiter[0].set()
                    orphan = self.orphans.pop(message.id, None)
                    if orphan is not None:
                        self._gone(orphan)
        finally:
            self.dead = True
            for event, child, box in self.spawns.values():
                self.lost.append(child)
                box.append("the sandbox zygote exited")
                event.set()
            self.spawns.clear()
            self.lost.extend(self.orphans.values())
            self.orphans.clear()
            for child in self.children.values():
                self.lost.append(child)
                child.zygote_died = True
                child.exited.set()
            self.children.clear()

    async def spawn(self, child: Child, fds: tuple[int, int], *, warm: bool = True) -> None:
        """Ask for a fork; on return ``child.pid`` is set and its exit is tracked.

        ``warm``: the child runs its warm-up before READY (see ``Spawn.warm``).
        """
        if self.dead:
            self._gone(child)
            raise RuntimeError("the sandbox zygote exited")
        request_id = self.next_id
        self.next_id += 1
        event, box = asyncio.Event(), list[int | str]()
        self.spawns[request_id] = (event, child, box)
        message = _zygote.Spawn(request_id, child.settings, child.cwd, child.uid, warm)
        ancillary = [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
        sent = False
        try:
            await self._send(_zygote.encode(message), ancillary)
            sent = True
            await event.wait()
        except BaseException:
            if self.spawns.pop(request_id, None) is not None:
                if sent:
                    # The zygote may fork it yet: follow it until it is reaped.
                    self.orphans[request_id] = child
                else:
                    self._gone(child)
            raise
        (result,) = box
        if isinstance(result, str):
            raise RuntimeError(f"the sandbox zygote could not fork a child: {result}")

    async def kill(self, child: Child) -> None:
        """Ask the zygote to kill the child's process group (if it is still alive)."""
        if self.dead or child.exited.is_set() or not child.pid:
            return
        # If the zygote is gone, so are its children (parent-death signal).
        with contextlib.suppress(OSError):
            await self._send(_zygote.encode(_zygote.Kill(child.pid)), [])

    async def ask_line(self, child: Child) -> None:
        """Ask the child for its program's current line (it answers ``Where``, if it can)."""
        if self.dead or child.exited.is_set() or not child.pid:
            return
        with contextlib.suppress(OSError):
            await self._send(_zygote.encode(_zygote.ReportLine(child.pid)), [])

    async def _send(self, data: bytes, ancillary: list[tuple[int, int, array.array[int]]]) -> None:
        while True:
            try:
                self.control.sendmsg([data], ancillary)
                return
            except BlockingIOError:
                await anyio.wait_writable(self.control)

    async def aclose(self) -> None:
        """Close the control socket (the zygote kills its children and exits) and reap it."""
        if self.control.fileno() >= 0:
            anyio.notify_closing(self.control)
            self.control.close()
        with anyio.CancelScope(shield=True):
            with anyio.move_on_after(REAP_SECONDS):
                await self.process.wait()
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()
        # The zygote is reaped: the kernel sent each of its children the
        # parent-death SIGKILL when it exited, so none of them runs again.
        lost, self.lost = self.lost, []
        for child in lost:
            self._gone(child)


_decoder: Final = msgspec.msgpack.Decoder(_zygote.ZygoteMessage)


async def recv_packet(control: socket.socket) -> bytes:
    """Wait for the next control packet; ``b""`` once the zygote is gone."""
    while True:
        await anyio.wait_readable(control)
        try:
            return control.recv(_zygote.MAX_PACKET_BYTES)
        except BlockingIOError:
            continue
        except OSError:
            return b""


def startup_failure(child: Child) -> str:
    """Why a child that never sent READY failed, for a message."""
    status = child.status
    if child.zygote_died:
        return "the sandbox zygote exited"
    if status is None:
        return "it did not send READY in time"
    if os.WIFSIGNALED(status):
        return f"it exited with signal {os.WTERMSIG(status)} before READY"
    code = os.WEXITSTATUS(status)
    return f"{_zygote.EXIT_CODES.get(code, 'it exited')} (exit status {code})"


def cpu_limit_message(cpu_seconds: int) -> str:
    """The message of a run that reached its CPU time limit (before where it was)."""
    return f"CPU time limit of {format_seconds(cpu_seconds)} reached (Limits.cpu_seconds)"


def exit_error(child: Child, cpu_seconds: int, fallback: RunError) -> tuple[RunError, bool]:
    """The error for a child that ended before ``Done``, and whether it crashed.

    ``cpu_seconds`` is the CPU limit in force (the configured one, or a lower
    one the environment imposed). ``fallback`` (what the protocol layer saw) is
    kept when the exit status says nothing more (the child exited normally or
    was never reaped).
    """
    status = child.status
    if child.zygote_died:
        message = "the sandbox zygote exited during the run, taking the child with it"
        return RunError("worker-exit", message), False
    if status is None:
        return fallback, False
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        cpu_hit = child.cpu_seconds >= cpu_seconds
        if number == signal.SIGXCPU or (number == signal.SIGKILL and cpu_hit):
            return RunError("timeout", cpu_limit_message(cpu_seconds)), False
        if number == signal.SIGSYS:
            message = (
                "the seccomp filter killed the child (signal 31, SIGSYS) for a system call "
                "of a foreign architecture or ABI"
            )
        elif number == signal.SIGSEGV:
            # CPython's C stack overflows on values nested too deeply for the
            # recursion limit to see: a million chained map()/filter() objects,
            # generator expressions over generator expressions.
            message = (
                "the child crashed (signal 11, SIGSEGV) before finishing, most often from "
                "iterators or generators nested too deeply (map() over map() a million "
                "times): build such chains in a loop that consumes each step"
            )
        else:
            message = f"the child exited with signal {number} before finishing"
        return RunError("worker-exit", message), True
    code = os.WEXITSTATUS(status)
    if code == 0:
        return fallback, False
    # Once its program runs, a child may exit with any status the program
    # chooses: a status names a step of the child only where that step can
    # still end it, under the layers this child has.
    if code == CPU_LIMIT_EXIT and child.settings.os_layer:
        # The child handled SIGXCPU: it reported its line, then left.
        return RunError("timeout", cpu_limit_message(cpu_seconds)), False
    if code == _zygote.TRIPPED_EXIT and child.settings.tripwire:
        # The tripwire exits with this status (a program that calls
        # os._exit(80) itself only ends its own run this way).
        message = tripped_message("") + " (the child could not report which event)"
        return RunError("sandbox-violation", message), False
    if code in _zygote.RUN_EXIT_CODES:
        message = f"{_zygote.EXIT_CODES[code]} (exit status {code})"
    else:
        message = f"the child exited with status {code} before finishing"
    return RunError("worker-exit", message), True
