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

The pool is built in layers, one module each: ``sandbox._pool_children``
starts and ends its children, ``sandbox._pool_tasks`` runs the supervisor, the
refiller and the watch on each warm child, and ``sandbox._host_compile``
compiles and caches short programs. This module holds the pool's interface:
opening and closing it, its layers and statistics, and the run path.
"""

from __future__ import annotations

import asyncio
import functools
import os
import time
from collections import OrderedDict
from typing import TYPE_CHECKING, Final, final

import anyio
import anyio.lowlevel
import anyio.to_thread

from bridge.protocol import HEADER_BYTES, Run, ToolSignature, encode_frame
from sandbox import _limits
from sandbox._children import exit_error
from sandbox._compile import ProgramCompileError
from sandbox._config import (
    ERROR_KINDS,
    Layers,
    Limits,
    PoolStatistics,
    RunError,
    RunResult,
    format_seconds,
)
from sandbox._host_compile import HOST_COMPILE_BYTES, HOST_COMPILES, HostCompiler
from sandbox._pool_children import _EXIT_GRACE_SECONDS, _close_to_child
from sandbox._pool_interface import (
    AbortCallback,
    AbortSource,
    Pool,
    checked_run_arguments,
    is_abort_source,
)
from sandbox._pool_tasks import _AFTER_RUN_SECONDS, PoolTasks
from sandbox._reclaim import (
    make_pool_directory,
    reclaim_abandoned,
    remove_pool_directory,
)
from sandbox._uids import (
    DEFAULT_UID_RANGE,
    ChildUids,
    check_no_account_in,
    check_uid_range,
)
from sandbox._where import STOP_REPORT_SECONDS, stopped_at

if TYPE_CHECKING:
    from collections.abc import Sequence

    from anyio.abc import TaskGroup

    from bridge.host import CallHandler, HostEndpoint, OutputCallback
    from bridge.lossless import JsonValue
    from sandbox import _zygote
    from sandbox._calls import CallSite
    from sandbox._children import Child, Zygote
    from sandbox._config import ErrorKind

__all__ = ["AbortCallback", "WorkerPool"]


_OS_PROTECTIONS: Final = ("rlimits", "uid_drop", "no_new_privs", "seccomp")
_DEFAULT_LIMITS: Final = Limits()


@final
class WorkerPool(PoolTasks, HostCompiler, Pool):
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

    def _task_group_or_fail(self) -> TaskGroup:
        if self._closed:
            raise RuntimeError("this WorkerPool is closed; open a new one to run programs")
        if self._task_group is None:
            raise RuntimeError("open the WorkerPool first: `async with WorkerPool() as pool:`")
        return self._task_group

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
