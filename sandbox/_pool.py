"""The host side of the sandbox: warm children, one program each, limits enforced.

:class:`WorkerPool` owns a task group with two tasks: a supervisor that keeps
one zygote process alive (restarting it if it dies) and a refiller that keeps
``size`` children forked from it waiting on READY. :meth:`WorkerPool.run` takes
a warm child (or forks one when none fits), sends it the compiled program,
serves its tool calls through :class:`bridge.host.HostEndpoint`, enforces the
wall clock and the abort callback, and always ends with the child reaped, its
pipes closed and its working directory removed.

Only the zygote may reap or kill a child (see ``sandbox._zygote``); the host
asks it to and learns each exit status from its ``Exited`` reports.
"""

from __future__ import annotations

import asyncio
import functools
import marshal
import os
import threading
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Final, final

import anyio
import anyio.lowlevel
import anyio.to_thread

from bridge.host import CallHandler, HostEndpoint, OutputCallback
from bridge.protocol import HEADER_BYTES, ProtocolError, Run, ToolSignature, encode_frame
from sandbox import _limits, _zygote
from sandbox._children import (
    REAP_SECONDS,
    ZYGOTE_START_SECONDS,
    Child,
    Zygote,
    exit_error,
    startup_failure,
)
from sandbox._compile import (
    ProgramCompileError,
    check_cached_calls,
    compile_with_calls,
    parsed_names_are_freed,
)
from sandbox._config import (
    ERROR_KINDS,
    Layers,
    Limits,
    PoolStatistics,
    RunError,
    RunResult,
    format_seconds,
)
from sandbox._pool_interface import (
    AbortCallback,
    AbortSource,
    Pool,
    checked_run_arguments,
    is_abort_source,
)
from sandbox._reclaim import (
    make_pool_directory,
    reclaim_abandoned,
    remove_pool_directory,
    remove_tree,
)
from sandbox._uids import (
    DEFAULT_UID_RANGE,
    ChildUids,
    NoFreeUid,
    check_no_account_in,
    check_uid_range,
)
from sandbox._where import STOP_REPORT_SECONDS, stopped_at

if TYPE_CHECKING:
    import types
    from collections.abc import Sequence

    from anyio.abc import TaskGroup, TaskStatus

    from bridge.lossless import JsonValue
    from sandbox._calls import CallSite
    from sandbox._config import ErrorKind

__all__ = ["AbortCallback", "WorkerPool"]

#: Time allowed for the zygote to fork a child and for the child to set
#: itself up and send READY.
_CHILD_READY_SECONDS: Final = 20.0
#: Time a child that sent Done or closed its pipe gets to exit on its own.
_EXIT_GRACE_SECONDS: Final = 2.0
#: While a warm child remains, one taken by a run is replaced once a run
#: returns, so that the fork and the new child's set-up do not compete with the
#: run for the CPUs; a run that lasts longer than this has its replacement
#: started anyway, so that a long program does not leave the pool short.
_REFILL_DEFER_SECONDS: Final = 0.05
#: The replacement's fork request (file-system calls and a uid on the event
#: loop) and the finished child's release (closing its input pipe, on which it
#: exits) wait this long after the run returned, so that the caller's work
#: after the run (``run_code`` settles, renders and logs its result) does not
#: queue behind them.
_AFTER_RUN_SECONDS: Final = 0.002
#: Compiled programs kept per pool (marshalled, with their tool calls), keyed by
#: ``(source, restricted)``.
_COMPILE_CACHE_SIZE: Final = 256
#: Programs up to this many bytes of source are compiled (and their calls
#: checked) by the host, in a worker thread, and cached by source; a cached
#: program costs the event loop a dictionary lookup and a check of its recorded
#: calls. Compiling one costs at most a few milliseconds of CPU, of which the
#: parser and the compiler, which hold the GIL, take a fraction (BENCHMARKS.md):
#: a bound that no program can raise. Every longer program is sent as source and
#: compiled by the child that runs it, under the child's CPU, memory and
#: wall-clock limits. A longer program must not be compiled on the host at all:
#: the parser and compiler hold the GIL throughout (over a second for a program
#: of max_source_bytes, stalling the loop whatever thread they run in), and the
#: compiler is superlinear in some shapes (thousands of identical functions
#: took seconds).
HOST_COMPILE_BYTES: Final = 1024
#: Whether the host compiles short programs at all. Where the parser makes the
#: names it reads immortal (CPython 3.12 and later), every name of every
#: program the host parsed would stay in the host for good (about 2.4 KB a
#: run for a 1 KiB program of fresh names, measured through a pool on 3.12.1):
#: memory that grows with untrusted input without bound. There every program
#: is compiled by the child that runs it, whose names end with it.
HOST_COMPILES: Final = parsed_names_are_freed()

_OS_PROTECTIONS: Final = ("rlimits", "uid_drop", "no_new_privs", "seccomp")
_DEFAULT_LIMITS: Final = Limits()


@final
class WorkerPool(Pool):
    """Runs programs in fresh sandboxed children kept warm ahead of time.

    An ``async with`` resource: entering starts the zygote (``python -I`` with
    an empty environment) and begins forking ``size`` warm children; leaving
    kills every child and the zygote and removes their working directories::

        async with WorkerPool(limits=Limits(wall_seconds=10), size=2) as pool:
            result = await pool.run(
                "return await tools.add(a=1, b=2)", tool_names=["add"], handler=handler
            )

    Each run uses one fresh child that is never reused. A run whose limits need
    different child settings than the pool's (``cpu_seconds``,
    ``memory_bytes``, ``max_open_files``, ``max_frame_bytes`` or a layer
    switch) gets a child forked for it on the spot.

    When the host runs as root, each child drops to a uid (and gid) of its own
    from ``uid_range``, held from its fork until it is reaped: no two live
    children on the machine share one, whichever pool or process forked them.

    Args:
        limits: The default limits of every run.
        size: Warm children kept waiting (0 forks each child on demand).
        uid_range: The uids children drop to when the host runs as root; by
            default 65536 uids from ``0x70000000``, where no distribution or
            container manager allocates. It must hold no account's uid or gid
            (checked when the pool opens) and at least as many uids as
            children can be alive at once (warm plus running).

    Raises:
        TypeError: ``limits`` is not a :class:`Limits`, ``size`` not an int or
            ``uid_range`` not a ``range``.
        ValueError: ``size`` is negative, or ``uid_range`` is empty, has a step
            other than 1 or contains root or ``(uid_t) -1``.
    """

    def __init__(
        self,
        *,
        limits: Limits = _DEFAULT_LIMITS,
        size: int = 2,
        uid_range: range = DEFAULT_UID_RANGE,
    ) -> None:
        if not isinstance(limits, Limits):
            raise TypeError(f"WorkerPool limits must be a Limits; got limits={limits!r}")
        if isinstance(size, bool) or not isinstance(size, int):
            raise TypeError(f"WorkerPool size must be an int; got size={size!r}")
        if size < 0:
            raise ValueError(f"WorkerPool size must be 0 or more; got size={size!r}")
        self._limits = limits
        self._size = size
        self._uids = ChildUids(check_uid_range(uid_range))
        self._probe = False  # set by sandbox.testing only
        self._seccomp = True  # set by sandbox.testing only
        #: The last answer of layers(): its limits, platform and seccomp switch, and it.
        self._last_layers: tuple[Limits, object, bool, Layers] | None = None
        self._probe_pidfd = 0  # set by sandbox.testing only
        self._closed = False
        self._directory = ""
        self._run_directories = 0  # made so far: the next one's number
        self._task_group: TaskGroup | None = None
        self._zygote: Zygote | None = None
        self._platform: _zygote.ZygoteReady | None = None
        self._zygote_up = asyncio.Event()
        self._zygote_error: str | None = None
        self._refill_wanted = asyncio.Event()
        #: A run took a warm child since the refill task last looked.
        self._taken = False
        self._run_returned = asyncio.Event()
        self._idle_changed = asyncio.Event()
        self._idle: list[Child] = []
        self._busy = 0
        self._exiting = 0
        self._starting = 0
        self._started = 0
        self._killed = 0
        self._crashed = 0
        self._runs = 0
        self._zygote_starts = 0
        self._compiled: OrderedDict[
            tuple[str, bool], tuple[bytes, tuple[CallSite, ...] | None]
        ] = OrderedDict()

    # ------------------------------------------------------------------ lifecycle

    async def __aenter__(self) -> WorkerPool:
        if self._task_group is not None:
            raise RuntimeError("this WorkerPool is already open; a pool can be entered once")
        if os.geteuid() == 0:
            check_no_account_in(self._uids.range)
        # Every child's working directory lives in this one (0700, the host's),
        # so that closing the pool removes whatever a child left behind. A child
        # enters its own directory before it drops its privileges. A host killed
        # outright never closes its pool: the next pool reclaims its directory.
        await anyio.to_thread.run_sync(reclaim_abandoned)
        self._directory = make_pool_directory()
        task_group = anyio.create_task_group()
        await task_group.__aenter__()
        self._task_group = task_group
        try:
            await task_group.start(self._supervise)
        except BaseException as exc:
            task_group.cancel_scope.cancel()
            try:
                await task_group.__aexit__(type(exc), exc, exc.__traceback__)
            finally:
                remove_pool_directory(self._directory)
            raise
        task_group.start_soon(self._refill)
        return self

    async def __aexit__(self, *exc_info: object) -> bool | None:
        assert self._task_group is not None
        self._closed = True
        self._task_group.cancel_scope.cancel()
        try:
            return await self._task_group.__aexit__(*exc_info)  # type: ignore[arg-type]
        finally:
            remove_pool_directory(self._directory)
            # Every zygote of this pool has been reaped, and with it every child.
            self._uids.release_all()

    async def _supervise(self, *, task_status: TaskStatus[None]) -> None:
        failures = 0
        while True:
            try:
                zygote = await Zygote.start(self._child_gone)
            except Exception as exc:
                if self._zygote_starts == 0:
                    raise
                self._zygote_error = f"{type(exc).__name__}: {exc}"
                failures += 1
                # Back off so that a zygote that cannot start does not spin.
                await anyio.sleep(min(0.05 * 2**failures, 5.0))
                continue
            failures = 0
            self._zygote = zygote
            self._platform = zygote.ready
            self._zygote_error = None
            self._zygote_starts += 1
            self._zygote_up.set()
            self._want_refill()
            if self._zygote_starts == 1:
                task_status.started()
            try:
                await zygote.serve()
            finally:
                with anyio.CancelScope(shield=True):
                    self._zygote = None
                    self._zygote_up = asyncio.Event()
                    # The warm children die with the zygote (parent-death
                    # signal, or the zygote kills them as it closes).
                    idle, self._idle = self._idle, []
                    for child in idle:
                        self._release(child)
                    self._notify_idle()
                    await zygote.aclose()
            self._zygote_error = "the sandbox zygote exited"

    async def _refill(self) -> None:
        settings = self._settings_for(self._limits)
        failures = 0
        while True:
            # One fork at a time: the zygote forks serially anyway, and runs
            # that find no warm child fork their own.
            while len(self._idle) < self._size and not self._closed:
                try:
                    child = await self._start_child(settings)
                except Exception:
                    # The supervisor restarts a dead zygote; a child that cannot
                    # start is reported by the next run that needs one. Back
                    # off so that a broken set-up does not fork in a loop.
                    failures += 1
                    await anyio.sleep(min(0.01 * 2**failures, 2.0))
                    continue
                failures = 0
                child.state = "idle"
                self._idle.append(child)
                assert self._task_group is not None
                self._task_group.start_soon(self._watch, child)
                self._notify_idle()
            await self._refill_wanted.wait()
            self._refill_wanted = asyncio.Event()
            taken, self._taken = self._taken, False
            if (self._busy or taken) and self._idle:
                # A warm child is still there for the next run: let the busy
                # one finish first. With none left, a run arriving now would
                # fork its own, on its own path: refill at once. A run can
                # take its child and return before this task runs at all (it
                # need not yield when the child answers at once): the caller's
                # next steps still come first.
                if self._busy:
                    with anyio.move_on_after(_REFILL_DEFER_SECONDS):
                        await self._run_returned.wait()
                await anyio.sleep(_AFTER_RUN_SECONDS)

    async def _watch(self, child: Child) -> None:
        """Wait for a warm child's exit, for its whole life.

        A warm child that dies while waiting (killed from outside, the zygote
        gone) leaves the pool and is replaced. One whose run ended well is
        reaped and released here once it exits: its run marked it
        ``finishing`` and gave this wait a deadline, past which it is killed.
        The task was there all along, so the run spawns none (a task costs
        tens of microseconds on the run's path).
        """
        try:
            with anyio.CancelScope() as scope:
                child.watch = scope
                await child.exited.wait()
        finally:
            child.watch = None
            if child.state == "finishing":
                with anyio.CancelScope(shield=True):
                    await self._dispose(child, self._zygote)
                    self._exiting -= 1
        if child.state == "idle":
            self._idle.remove(child)
            self._crashed += 1
            self._release(child)
            self._want_refill()
            self._notify_idle()

    def _want_refill(self) -> None:
        self._refill_wanted.set()

    def _notify_idle(self) -> None:
        event, self._idle_changed = self._idle_changed, asyncio.Event()
        event.set()

    def _task_group_or_fail(self) -> TaskGroup:
        if self._closed:
            raise RuntimeError("this WorkerPool is closed; open a new one to run programs")
        if self._task_group is None:
            raise RuntimeError("open the WorkerPool first: `async with WorkerPool() as pool:`")
        return self._task_group

    # ------------------------------------------------------------------ children

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

    # ------------------------------------------------------------------ running

    def statistics(self) -> PoolStatistics:
        """A snapshot of the pool's children and counters."""
        return PoolStatistics(
            idle=len(self._idle),
            busy=self._busy,
            exiting=self._exiting,
            starting=self._starting,
            started=self._started,
            killed=self._killed,
            crashed=self._crashed,
            runs=self._runs,
            zygote_starts=self._zygote_starts,
        )

    def layers(self, limits: Limits | None = None) -> Layers:
        """The protections a run with ``limits`` gets on this platform.

        Raises:
            RuntimeError: The pool has not been opened yet.
        """
        limits = self._limits if limits is None else limits
        # Every run reports its layers: those of the last limits asked about are
        # kept, with the platform and the seccomp switch they were worked out
        # for (Limits is frozen, so the same object means the same values).
        platform, seccomp = self._platform, self._seccomp
        last = self._last_layers
        if last is not None and last[0] is limits and last[1] is platform and last[2] == seccomp:
            return last[3]
        layers = self._layers(limits)
        if platform is not None:  # the answer before the pool opens is an error
            self._last_layers = (limits, platform, seccomp, layers)
        return layers

    def _layers(self, limits: Limits) -> Layers:
        reasons: list[str] = []
        if not limits.language_layer:
            reasons.append("language_layer: switched off (language_layer=False)")
        if not limits.tripwire:
            reasons.append("tripwire: switched off (tripwire=False)")
        if not limits.os_layer:
            reasons.extend(f"{name}: switched off (os_layer=False)" for name in _OS_PROTECTIONS)
            return Layers(
                language_layer=limits.language_layer,
                tripwire=limits.tripwire,
                rlimits=False,
                uid_drop=False,
                no_new_privs=False,
                seccomp=False,
                reasons=tuple(reasons),
            )
        ready = self._platform
        if ready is None:
            raise RuntimeError("open the WorkerPool first: the platform is probed by its zygote")
        linux, seccomp = ready.linux, ready.seccomp and self._seccomp
        reasons.extend(ready.reasons)
        if ready.seccomp and not self._seccomp:
            reasons.append("seccomp: switched off (test hook)")
        values = _limits.rlimit_values(
            cpu_seconds=limits.cpu_seconds,
            memory_bytes=limits.memory_bytes,
            max_open_files=limits.max_open_files,
            ceilings=ready.ceilings,
        )
        return Layers(
            language_layer=limits.language_layer,
            tripwire=limits.tripwire,
            rlimits=linux,
            uid_drop=linux and ready.uid_drop,
            no_new_privs=linux,
            seccomp=linux and seccomp,
            reasons=tuple(reasons),
            cpu_seconds=values.cpu_soft if linux else None,
            memory_bytes=values.memory_bytes if linux else None,
            max_open_files=values.max_open_files if linux else None,
        )

    async def _host_compile(
        self, source: str, restricted: bool, signatures: tuple[ToolSignature, ...] | None
    ) -> bytes:
        """The marshalled code of a short program (at most ``HOST_COMPILE_BYTES``).

        Raises:
            ProgramCompileError: the program is refused.
        """
        key = (source, restricted)
        cached = self._compiled.get(key)
        if cached is not None:
            self._compiled.move_to_end(key)
            code, sites = cached
            if signatures is not None:
                check_cached_calls(sites, signatures)
            return code
        compiled, sites = await anyio.to_thread.run_sync(
            functools.partial(
                _compile_one_at_a_time, source, restricted=restricted, signatures=signatures
            ),
            abandon_on_cancel=True,
        )
        code = marshal.dumps(compiled)
        self._compiled[key] = (code, sites)
        if len(self._compiled) > _COMPILE_CACHE_SIZE:
            self._compiled.popitem(last=False)
        return code

    async def run(
        self,
        source: str,
        *,
        tool_names: Sequence[str],
        handler: CallHandler,
        abort: AbortCallback | None = None,
        limits: Limits | None = None,
        signatures: Sequence[ToolSignature] | None = None,
        on_output: OutputCallback | None = None,
    ) -> RunResult:
        """Run one program in a fresh child and return its result.

        Args:
            source: The program: the body of an async function.
            tool_names: The tools the program's ``tools`` proxy declares.
            handler: Serves the program's tool calls.
            abort: Optional async callable; if it returns before the program
                finishes, the child is killed and the run ends as ``abort``
                with the returned text as its message. If it is also an
                :class:`~sandbox.AbortSource`, the pool subscribes to it
                instead of awaiting it (no watcher task).
            limits: Limits for this run instead of the pool's.
            signatures: Check the program's statically visible tool calls
                against these before it runs (the pre-flight check); a call
                that cannot succeed ends the run as ``compile`` and nothing runs.
            on_output: Called on the event loop with each batch of printed lines
                as it arrives, while the program runs (within the output cap);
                it must not block. One that raises is logged and not called
                again for this run. The result's ``logs`` hold every line either way.

        Returns:
            The result; every failure of the program or its child is a
            :class:`RunResult` with an error, never an exception.

        Raises:
            TypeError: An argument has the wrong type.
            RuntimeError: The pool is not open.

        Cancelling the awaiting task kills the child's process group, waits for
        it to be reaped (shielded) and re-raises the cancellation.
        """
        limits, names, checked = checked_run_arguments(
            default_limits=self._limits,
            source=source,
            tool_names=tool_names,
            handler=handler,
            abort=abort,
            limits=limits,
            signatures=signatures,
            on_output=on_output,
        )
        self._task_group_or_fail()
        await anyio.lowlevel.checkpoint_if_cancelled()
        started = time.perf_counter()

        def refused(kind: ErrorKind, message: str) -> RunResult:
            # A run that ended before any child ran it.
            self._runs += 1
            return RunResult(
                None, (), RunError(kind, message), self.layers(limits),
                time.perf_counter() - started, 0.0, None,
            )

        size = len(source.encode("utf-8", "surrogatepass"))
        if size > limits.max_source_bytes:
            return refused(
                "compile",
                f"the program is {size} bytes, over the limit of {limits.max_source_bytes} "
                "bytes (max_source_bytes); send a shorter program",
            )
        code, sent_source = b"", ""
        if HOST_COMPILES and size <= HOST_COMPILE_BYTES:
            try:
                code = await self._host_compile(source, limits.language_layer, checked)
            except ProgramCompileError as exc:
                return refused("compile", exc.message)
        else:
            try:
                source.encode("utf-8")
            except UnicodeEncodeError as exc:  # a lone surrogate: the parser says the same
                return refused("compile", f"Line 1: {exc}")
            sent_source = source
        message = _run_message(code, sent_source, checked, names, limits)
        if sent_source and len(encode_frame(message)) - HEADER_BYTES > limits.max_frame_bytes:
            return refused(
                "compile",
                f"the program is {size} bytes, too large to send to the sandbox in one frame "
                f"of max_frame_bytes={limits.max_frame_bytes}; send a shorter program",
            )
        settings = self._settings_for(limits)
        child = self._take_idle(settings)
        sent = child is None
        if child is None:
            try:
                # No warm child: this run waits for its own, which skips the
                # warm-up (it would cost the run more than it saves it) and
                # has its program before it is ready.
                child = await self._start_child(settings, warm=False, run=message)
            except RuntimeError as exc:
                return refused("worker-exit", str(exc))
        child.state = "busy"
        self._busy += 1
        try:
            endpoint = child.endpoint
            assert endpoint is not None
            if not sent:
                # The child wakes up to its program while the rest is set up here.
                endpoint.send_run(message)
            layers = self.layers(limits)
            return await self._drive(
                child, message, handler, abort, limits, layers, started, source, on_output
            )
        except BaseException:
            with anyio.CancelScope(shield=True):
                await self._dispose(child, self._zygote)
            raise
        finally:
            self._busy -= 1
            self._runs += 1
            returned, self._run_returned = self._run_returned, asyncio.Event()
            returned.set()

    def _take_idle(self, settings: _zygote.ChildSettings) -> Child | None:
        for index, child in enumerate(self._idle):
            if child.settings == settings and not child.exited.is_set():
                del self._idle[index]
                self._taken = True
                self._want_refill()
                return child
        return None

    async def _drive(
        self,
        child: Child,
        message: Run,
        handler: CallHandler,
        abort: AbortCallback | None,
        limits: Limits,
        layers: Layers,
        started: float,
        source: str,
        on_output: OutputCallback | None,
    ) -> RunResult:
        endpoint = child.endpoint
        assert endpoint is not None
        aborted: list[str] = []
        remaining = limits.wall_seconds - (time.perf_counter() - started)
        with anyio.CancelScope(deadline=anyio.current_time() + remaining) as scope:
            if abort is None or is_abort_source(abort):
                # No abort, or one that calls back: no watcher task (its task
                # group would add its cost to every run).
                dispose = None if abort is None else abort.on_abort(
                    functools.partial(_aborted_by, abort, aborted, scope)
                )
                try:
                    outcome = await endpoint.serve(
                        message,
                        handler,
                        max_pending_calls=limits.max_pending_calls,
                        on_output=on_output,
                    )
                finally:
                    if dispose is not None:
                        dispose()
            else:
                async with anyio.create_task_group() as watchers:
                    watchers.start_soon(_watch_abort, abort, aborted, scope)
                    outcome = await endpoint.serve(
                        message,
                        handler,
                        max_pending_calls=limits.max_pending_calls,
                        on_output=on_output,
                    )
                    watchers.cancel_scope.cancel()
        error: RunError | None
        if scope.cancelled_caught:
            if aborted:
                error = RunError("abort", aborted[0])
            else:
                line = await _ask_line(self._zygote, child, endpoint)
                error = RunError(
                    "timeout",
                    f"wall-clock limit of {format_seconds(limits.wall_seconds)} reached "
                    f"(Limits.wall_seconds){stopped_at(source, line)}",
                )
            with anyio.CancelScope(shield=True):
                await self._dispose(child, self._zygote)
            value: JsonValue = None
            logs = endpoint.logs
            tool_wait = endpoint.tool_wait_seconds
        else:
            value, logs, tool_wait = outcome.value, outcome.logs, outcome.tool_wait_seconds
            error = _run_error(outcome.error)
            if error is not None and error.kind == "worker-exit":
                # The child died or broke the protocol: its exit status says
                # which (a CPU timeout is a SIGXCPU), so wait for it briefly.
                with anyio.move_on_after(_EXIT_GRACE_SECONDS):
                    await child.exited.wait()
                if child.exited.is_set():
                    cpu_limit = layers.cpu_seconds or limits.cpu_seconds
                    error, crashed = exit_error(child, cpu_limit, error)
                    self._crashed += crashed
                if error.kind == "timeout":  # the CPU limit: the child may have said where
                    error = RunError(
                        "timeout", error.message + stopped_at(source, endpoint.reported_line)
                    )
                with anyio.CancelScope(shield=True):
                    await self._dispose(child, self._zygote)
            else:
                # The child is done and exits once its input pipe closes.
                # Its exit tears an address space down (about a millisecond
                # of CPU), and the close wakes it onto this CPU, where it
                # would preempt the caller's work after the run: the pipe is
                # closed a little later instead. Reaping it and removing its
                # directory are off the caller's path too.
                asyncio.get_running_loop().call_later(
                    _AFTER_RUN_SECONDS, _close_to_child, child
                )
                self._exiting += 1
                if child.watch is not None and not self._closed:
                    child.state = "finishing"
                    child.watch.deadline = anyio.current_time() + _EXIT_GRACE_SECONDS
                elif self._closed:
                    await self._finish(child)
                else:
                    self._task_group_or_fail().start_soon(self._finish, child)
        return RunResult(
            value,
            logs,
            error,
            layers,
            time.perf_counter() - started,
            tool_wait,
            child.pid,
        )


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


async def _ask_line(zygote: Zygote | None, child: Child, endpoint: HostEndpoint) -> int | None:
    """Ask a child being stopped which line its program is on; wait briefly for the answer."""
    if zygote is None:
        return None
    with anyio.move_on_after(STOP_REPORT_SECONDS):
        await zygote.ask_line(child)
        return await endpoint.read_where()
    return None


def _run_message(
    code: bytes,
    source: str,
    signatures: tuple[ToolSignature, ...] | None,
    tool_names: tuple[str, ...],
    limits: Limits,
) -> Run:
    return Run(
        code=code,
        restricted=limits.language_layer,
        tool_names=tool_names,
        max_log_bytes=limits.max_log_bytes,
        max_value_bytes=limits.max_value_bytes,
        max_frame_bytes=limits.max_frame_bytes,
        cpu_seconds=limits.cpu_seconds,
        memory_bytes=limits.memory_bytes,
        max_open_files=limits.max_open_files,
        os_layer=limits.os_layer,
        tripwire=limits.tripwire,
        max_pending_calls=limits.max_pending_calls,
        # The child compiles (and checks) a program sent as source; a program
        # the host compiled has had its calls checked already.
        source=source,
        signatures=signatures if source else None,
    )


def _aborted_by(source: AbortSource, aborted: list[str], scope: anyio.CancelScope) -> None:
    if not aborted:
        reason = source.reason
        aborted.append(reason if isinstance(reason, str) and reason else "aborted")
    scope.cancel()


async def _watch_abort(abort: AbortCallback, aborted: list[str], scope: anyio.CancelScope) -> None:
    try:
        reason = await abort()
    except Exception as exc:
        reason = f"the abort callback failed: {type(exc).__name__}: {exc}"
    aborted.append(reason if isinstance(reason, str) and reason else "aborted")
    scope.cancel()


def _run_error(error: tuple[str, str] | None) -> RunError | None:
    if error is None:
        return None
    kind, message = error
    if kind not in ERROR_KINDS:
        return RunError("worker-exit", f"{kind}: {message}")
    return RunError(kind, message)


#: Host-side compiles run one at a time: CPython 3.11's AST validation keeps its
#: recursion depth per interpreter, not per thread, so two threads compiling at
#: once can fail with "SystemError: AST constructor recursion depth mismatch"
#: (python/cpython#106905). The programs compiled here are at most
#: HOST_COMPILE_BYTES long, so the lock is held briefly.
_COMPILE_LOCK: Final = threading.Lock()


def _compile_one_at_a_time(
    source: str, *, restricted: bool, signatures: tuple[ToolSignature, ...] | None
) -> tuple[types.CodeType, tuple[CallSite, ...] | None]:
    with _COMPILE_LOCK:
        return compile_with_calls(source, restricted=restricted, signatures=signatures)
