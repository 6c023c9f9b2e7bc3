"""A pool's children from fork to release: started, killed, reaped, their uids given back.

:class:`PoolChildren` is the lowest layer of :class:`~sandbox.WorkerPool`. It
forks a child through the zygote (a numbered working directory in the pool's
own, two pipes, a uid of its own under root) and waits for its READY, sending
a waiting run's program ahead of it; and it ends every child the same way,
whatever ended its run: killed if still alive (through the zygote, which alone
reaps), its pipes closed, its directory removed (off the event loop when a
child without the filter filled it), and its uid released only once its
process cannot run and its directory is gone.

It is separate from the tasks that keep children warm (``sandbox._pool_tasks``)
and from the run path (``sandbox._pool``) because both end their children only
through it: a child's resources are given back in one place. Its state is made
by the pool's ``__init__``.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Final

import anyio
import anyio.to_thread

from bridge.host import HostEndpoint
from bridge.protocol import ProtocolError
from sandbox import _zygote
from sandbox._children import (
    REAP_SECONDS,
    ZYGOTE_START_SECONDS,
    Child,
    Zygote,
    startup_failure,
)
from sandbox._reclaim import remove_tree
from sandbox._uids import NoFreeUid

if TYPE_CHECKING:
    import asyncio

    from anyio.abc import TaskGroup

    from bridge.protocol import Run
    from sandbox._config import Limits
    from sandbox._uids import ChildUids

__all__ = ["PoolChildren"]

#: Time allowed for the zygote to fork a child and for the child to set
#: itself up and send READY.
_CHILD_READY_SECONDS: Final = 20.0
#: Time a child that sent Done or closed its pipe gets to exit on its own.
_EXIT_GRACE_SECONDS: Final = 2.0


class _ChildrenState:
    """The pool's state that :class:`PoolChildren` uses, made by ``WorkerPool.__init__``.

    Declared for the type checker in a class of its own: declared in
    :class:`PoolChildren`'s body, ``_zygote`` would hide this module's
    ``_zygote`` (``sandbox._zygote``) from the methods' annotations.
    """

    _closed: bool
    _directory: str
    _run_directories: int
    _task_group: TaskGroup | None
    _uids: ChildUids
    _probe: bool
    _probe_pidfd: int
    _seccomp: bool
    _zygote: Zygote | None
    _zygote_up: asyncio.Event
    _zygote_error: str | None
    _starting: int
    _started: int
    _killed: int
    _exiting: int


class PoolChildren(_ChildrenState):
    """The layer of :class:`~sandbox.WorkerPool` that starts its children and ends them."""


    def _settings_for(self, limits: Limits) -> _zygote.ChildSettings:
        return _zygote.ChildSettings(
            restricted=limits.language_layer,
            os_layer=limits.os_layer,
            cpu_seconds=limits.cpu_seconds,
            memory_bytes=limits.memory_bytes,
            max_open_files=limits.max_open_files,
            max_frame_bytes=limits.max_frame_bytes,
            probe=self._probe,
            seccomp=self._seccomp,
            probe_pidfd=self._probe_pidfd,
            tripwire=limits.tripwire,
        )

    async def _current_zygote(self) -> Zygote:
        with anyio.move_on_after(ZYGOTE_START_SECONDS):
            while True:
                zygote = self._zygote
                if zygote is not None and not zygote.dead:
                    return zygote
                await self._zygote_up.wait()
        raise RuntimeError(
            f"no sandbox zygote is running ({self._zygote_error or 'it is restarting'})"
        )

    async def _start_child(
        self, settings: _zygote.ChildSettings, *, warm: bool = True, run: Run | None = None
    ) -> Child:
        zygote = await self._current_zygote()
        self._starting += 1
        try:
            return await self._fork(zygote, settings, warm=warm, run=run)
        finally:
            self._starting -= 1

    async def _fork(
        self, zygote: Zygote, settings: _zygote.ChildSettings, *, warm: bool, run: Run | None
    ) -> Child:
        """Fork a child and wait for its READY.

        ``run``: the program of a run waiting for this child, sent as soon as
        the child exists, before its READY: it finds its program in the pipe as
        it says READY and goes on at once, instead of waiting for the host to
        wake, read READY and answer (a handoff between two processes, which on
        a virtual machine can cost more than the host's work in it). The child
        reads nothing before READY, when every protection is in force.
        """
        fds: list[int] = []
        cwd = ""
        try:
            cwd = self._make_run_directory()
            fds.extend(os.pipe())
            fds.extend(os.pipe())
        except OSError as exc:
            for fd in fds:
                os.close(fd)
            if cwd:
                remove_tree(cwd)
            raise RuntimeError(f"could not prepare a sandbox child: {exc}") from exc
        child_read, host_write, host_read, child_write = fds
        child = Child(settings, cwd, host_write, host_read)
        child_ends = [child_read, child_write]

        def close_child_ends() -> None:
            # The zygote holds its own copies once the request is sent.
            for fd in child_ends:
                os.close(fd)
            child_ends.clear()

        requested = False
        try:
            if zygote.ready.uid_drop and settings.os_layer:
                child.uid = await self._uids.acquire()
                # The child enters it as root, then drops to its uid; only that
                # uid (and root) can use it afterwards.
                os.chown(cwd, child.uid, child.uid)
            with anyio.fail_after(_CHILD_READY_SECONDS):
                try:
                    requested = True
                    await zygote.spawn(child, (child_read, child_write), warm=warm)
                finally:
                    close_child_ends()
                self._started += 1
                child.endpoint = HostEndpoint(
                    host_read, host_write, max_frame_bytes=settings.max_frame_bytes
                )
                if run is not None:
                    child.endpoint.send_run(run)
                await child.endpoint.receive_ready()
        except BaseException as exc:
            close_child_ends()
            if not requested:
                child.gone = True  # no process ever had its uid
            with anyio.CancelScope(shield=True):
                await self._dispose(child, zygote)
            if isinstance(exc, NoFreeUid):
                raise RuntimeError(str(exc)) from None
            if isinstance(exc, ProtocolError | TimeoutError):
                raise RuntimeError(
                    f"a sandbox child failed to start: {startup_failure(child)}"
                ) from exc
            if isinstance(exc, OSError):
                raise RuntimeError(f"could not start a sandbox child: {exc}") from exc
            raise
        return child

    def _make_run_directory(self) -> str:
        """A new empty directory (0700) for one child, in the pool's private one.

        Numbered, not random as ``tempfile.mkdtemp``'s: nobody but the pool can
        enter its directory, so a counter is unique, and drawing a random name
        was a third of the ~0.1 ms the host spent on each child's directory.
        """
        while True:
            self._run_directories += 1
            path = os.path.join(self._directory, f"run-{self._run_directories}")
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                continue  # left by someone else (it cannot be this pool): the next number
            return path

    async def _dispose(self, child: Child, zygote: Zygote | None) -> None:
        """Kill the child (if alive), wait for it to be reaped, and release it."""
        if not child.exited.is_set() and child.pid:
            if zygote is not None:
                await zygote.kill(child)
                self._killed += 1
            with anyio.move_on_after(REAP_SECONDS):
                await child.exited.wait()
        self._release(child)

    async def _finish(self, child: Child) -> None:
        try:
            with anyio.move_on_after(_EXIT_GRACE_SECONDS):
                await child.exited.wait()
        finally:
            with anyio.CancelScope(shield=True):
                await self._dispose(child, self._zygote)
                self._exiting -= 1

    def _release(self, child: Child) -> None:
        child.state = "done"
        for fd in (child.to_child, child.from_child):
            _close_pipe_end(fd)
        child.to_child = child.from_child = -1
        if not child.cwd_removed:
            try:
                os.rmdir(child.cwd)  # empty, as under the filter: at once
            except OSError:
                # What a child without the filter wrote there (any number of
                # files): removed off the event loop, its uid held until then.
                self._remove_later(child)
            else:
                child.cwd_removed = True
        self._child_gone(child)

    def _remove_later(self, child: Child) -> None:
        group = self._task_group
        if group is None or self._closed:
            remove_tree(child.cwd)  # closing: the pool's directory goes next anyway
            child.cwd_removed = True
            return

        async def remove() -> None:
            try:
                # Not abandoned on cancellation: the uid waits for the removal.
                await anyio.to_thread.run_sync(remove_tree, child.cwd)
            finally:
                child.cwd_removed = True
                self._child_gone(child)

        group.start_soon(remove)

    def _child_gone(self, child: Child) -> None:
        """Give the child's uid back once its process cannot run and its directory is gone."""
        if (
            child.uid is not None
            and child.gone
            and child.state == "done"
            and child.cwd_removed
        ):
            self._uids.release(child.uid)
            child.uid = None


def _close_pipe_end(fd: int) -> None:
    """Close one of the host's ends of a child's pipes (``-1``: already closed)."""
    if fd >= 0:
        anyio.notify_closing(fd)
        os.close(fd)


def _close_to_child(child: Child) -> None:
    """Close the host's end of the pipe to ``child``: the child, done, exits on the EOF.

    Its directory is removed first, while it is still the child's working
    directory: the removal then only unlinks it (about 20 µs), and the
    directory itself is freed by the child's exit, in the child's time. Once
    the process is gone, removing it also freed it, on the event loop: 0.1 to
    1.5 ms here, blocking every other run. A directory that is not empty (a
    child without the OS layer wrote in it) is left for ``_release``.
    """
    if not child.cwd_removed:
        try:
            os.rmdir(child.cwd)
        except OSError:
            pass
        else:
            child.cwd_removed = True
    fd, child.to_child = child.to_child, -1
    _close_pipe_end(fd)
