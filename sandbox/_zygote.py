"""The zygote: a pre-imported process that forks one fresh child per program.

The host starts it once per pool as ``python -I`` with an empty environment and
talks to it over a ``SOCK_SEQPACKET`` socket pair (one message per packet):

* ``Spawn`` (with the child's two protocol pipe ends attached as
  ``SCM_RIGHTS``): fork a child that applies the OS layer and serves one
  program over those pipes. The zygote answers ``Spawned`` with the pid.
* ``ReportLine``: send a child the signal that asks it for its program's
  current line (``sandbox._where``), before a stop; same pid rule as ``Kill``.
* ``Kill``: kill a child's process group. The zygote is the child's parent and
  the only process that reaps it, so it can kill without a pid-reuse race: a pid
  it has not reaped yet cannot belong to anyone else.

The zygote watches each child through a pidfd, reaps it with ``wait4`` and
reports ``Exited`` with the raw wait status and the CPU time used, which is how
the host tells a CPU timeout (``SIGXCPU``) from a crash.

The zygote dies with the host (parent-death signal, and end of file on the
control socket); its children die with it (their own parent-death signal).

Importing this module is cheap (the host imports it for the message types);
:func:`main` imports the child side.
"""

from __future__ import annotations

import array
import contextlib
import gc
import os
import select
import signal
import socket
import sys
import time
from typing import TYPE_CHECKING, Final, TypeAlias, final

import msgspec

from sandbox._where import STOP_SIGNAL

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from sandbox._limits import PlatformPlan

__all__ = [
    "EXIT_CODES",
    "PRELOADED_MODULES",
    "RUN_EXIT_CODES",
    "TRIPPED_EXIT",
    "ChildSettings",
    "Exited",
    "HostRequest",
    "Kill",
    "ReportLine",
    "Spawn",
    "SpawnFailed",
    "Spawned",
    "ZygoteMessage",
    "ZygoteReady",
    "main",
]

#: Largest control packet either side sends (messages are small and fixed in shape).
MAX_PACKET_BYTES: Final = 65536

#: Exit codes of a child that could not set itself up. It fails closed: a
#: protection that should apply but cannot ends the child before any program
#: runs. The host turns each into a ``worker-exit`` message.
EXIT_CODES: Final[dict[int, str]] = {
    70: "the child failed while setting itself up",
    71: "the child could not drop its privileges (uid_drop)",
    72: "the child could not set its resource limits (rlimits)",
    73: "the child could not set no_new_privs",
    74: "the child could not install its seccomp filter",
    75: "the child could not set its parent-death signal",
    76: "the child could not enter its private working directory",
    77: "the child broke the protocol before its program ran",
    78: "the child's runtime failed outside the program",
    81: "the child could not switch transparent huge pages off (thp_disable)",
    82: "the child could not make itself non-dumpable (dumpable)",
}

#: The statuses of :data:`EXIT_CODES` a child's own steps can still exit with
#: once it said READY (the protocol, the runtime around the program). Every
#: other step is done before READY, and after it the program can exit with any
#: status it likes: the host names a setup step only for a child that never
#: said READY.
RUN_EXIT_CODES: Final = frozenset({77, 78})

#: The exit status of a child its tripwire ended (``sandbox._tripwire``): the
#: host reports the run as ``sandbox-violation`` even when the frame naming the
#: event did not arrive.
TRIPPED_EXIT: Final = 80  # 79 is the CPU-limit report's (sandbox._where)

#: Modules whose at-fork handlers the zygote does not register (see
#: :func:`_withholding_fork_handlers`): they repair thread state and locks that
#: a fork from a process with other threads may catch half-way.
WITHHELD_FORK_HANDLERS: Final = frozenset({"threading", "logging", "concurrent.futures.thread"})

#: Stdlib modules the façades and the runtime may import lazily. The seccomp
#: filter forbids opening files once a program runs, so everything a program
#: can reach must already be imported when the zygote forks.
PRELOADED_MODULES: Final[tuple[str, ...]] = (
    "_strptime", "asyncio", "base64", "binascii", "bisect", "cmath", "collections",
    "collections.abc", "concurrent.futures.thread", "contextlib", "copy", "dataclasses",
    "datetime", "decimal", "enum", "fractions", "functools", "heapq", "inspect", "io",
    "itertools", "json", "json.decoder", "json.encoder", "json.scanner", "linecache",
    "marshal", "math", "numbers", "operator", "random", "re", "resource", "statistics",
    "string", "struct", "textwrap", "time", "traceback", "tokenize", "typing",
    "unicodedata", "warnings", "weakref", "zlib",
)


@final
class ChildSettings(msgspec.Struct, frozen=True, array_like=True, forbid_unknown_fields=True):
    """What a child applies when it starts; children are pooled by equal settings.

    Attributes:
        restricted: Whether the language layer applies to the program.
        os_layer: Whether the OS layer applies (``False`` only in ablation tests).
        cpu_seconds: ``RLIMIT_CPU`` soft limit.
        memory_bytes: ``RLIMIT_AS``.
        max_open_files: ``RLIMIT_NOFILE``.
        max_frame_bytes: The largest frame the child accepts from the host.
        probe: Test hook: hand the program an ``os_probe`` dict describing the
            process as the child saw it just before the seccomp filter.
        seccomp: Test hook: ``False`` applies every protection of the OS layer
            but the seccomp filter, to show what the kernel alone would allow.
        probe_pidfd: Test hook: a pid to open a pidfd for before the filter,
            handed to the program as ``os_probe_pidfd`` (0 for none).
        tripwire: Whether the child arms its tripwire before the program runs.
    """

    restricted: bool
    os_layer: bool
    cpu_seconds: int
    memory_bytes: int
    max_open_files: int
    max_frame_bytes: int
    probe: bool = False
    seccomp: bool = True
    probe_pidfd: int = 0
    tripwire: bool = True


@final
class Spawn(msgspec.Struct, frozen=True, tag="spawn", array_like=True, forbid_unknown_fields=True):
    """host -> zygote: fork a child; its pipe ends travel as ``SCM_RIGHTS``.

    Attributes:
        id: The request's number, echoed in the answer.
        settings: What the child applies.
        cwd: The child's private working directory (made by the host).
        uid: The uid and gid the child drops to, which no other live child
            holds; ``None`` when the zygote does not run as root or the OS
            layer is off.
        warm: Whether the child runs its warm-up before READY: for a child
            that will wait in the pool, not for one forked for a run that
            waits for it (see ``sandbox._child.run_child``).
    """

    id: int
    settings: ChildSettings
    cwd: str
    uid: int | None
    warm: bool = True


@final
class Kill(msgspec.Struct, frozen=True, tag="kill", array_like=True, forbid_unknown_fields=True):
    """host -> zygote: kill the process group of child ``pid`` if it is still unreaped."""

    pid: int


@final
class ReportLine(
    msgspec.Struct, frozen=True, tag="report-line", array_like=True, forbid_unknown_fields=True
):
    """host -> zygote: ask child ``pid`` (if still unreaped) which line its program is on."""

    pid: int


@final
class ZygoteReady(
    msgspec.Struct, frozen=True, tag="ready", array_like=True, forbid_unknown_fields=True
):
    """zygote -> host: imports are done; what this platform offers.

    Attributes:
        pid: The zygote's pid.
        uid_drop: Whether children drop to a uid of their own (the zygote is root).
        seccomp: Whether a seccomp filter is available (and refuses, not only logs).
        linux: Whether rlimits, ``no_new_privs`` and the uid drop are available.
        ceilings: The hard ``RLIMIT_CPU``, ``RLIMIT_AS`` and ``RLIMIT_NOFILE``
            the zygote inherited (``-1`` for unlimited); a child keeps any that
            is lower than configured.
        reasons: One line per protection the platform cannot offer.
    """

    pid: int
    uid_drop: bool
    seccomp: bool
    linux: bool
    ceilings: tuple[int, int, int]
    reasons: tuple[str, ...]


@final
class Spawned(
    msgspec.Struct, frozen=True, tag="spawned", array_like=True, forbid_unknown_fields=True
):
    """zygote -> host: request ``id`` became child ``pid``."""

    id: int
    pid: int


@final
class SpawnFailed(
    msgspec.Struct, frozen=True, tag="spawn-failed", array_like=True, forbid_unknown_fields=True
):
    """zygote -> host: request ``id`` could not fork."""

    id: int
    message: str


@final
class Exited(
    msgspec.Struct, frozen=True, tag="exited", array_like=True, forbid_unknown_fields=True
):
    """zygote -> host: child ``pid`` was reaped.

    Attributes:
        pid: The child.
        status: The raw ``wait`` status (``os.waitstatus_to_exitcode`` decodes it).
        cpu_seconds: User plus system CPU time the child used.
    """

    pid: int
    status: int
    cpu_seconds: float


HostRequest: TypeAlias = Spawn | Kill | ReportLine
ZygoteMessage: TypeAlias = ZygoteReady | Spawned | SpawnFailed | Exited

_encoder: Final = msgspec.msgpack.Encoder()
_request_decoder: Final = msgspec.msgpack.Decoder(HostRequest)


def encode(message: HostRequest | ZygoteMessage) -> bytes:
    """Encode one control message (one packet)."""
    return _encoder.encode(message)


def main() -> None:
    """Entry point: ``python -I -c ... <root> <control fd>`` (see ``sandbox._pool``)."""
    control = socket.socket(fileno=int(sys.argv[2]))
    host = os.getppid()
    # The host starts the zygote with an empty environment, but the
    # interpreter's C-locale coercion (PEP 538) puts LC_CTYPE back.
    os.environ.clear()
    # The machine's time zone is the host's business: a program's local time is
    # UTC (datetime.now(), astimezone(), fromtimestamp()), whatever the zone,
    # read here once, before any child, so no child reads the host's zone file.
    os.environ["TZ"] = "UTC"
    time.tzset()
    # Keyboard interrupts aimed at the host's terminal are not for the zygote;
    # it ends when the host closes the control socket or dies.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # asyncio imports ssl if it can (OpenSSL's state: about 0.8 MiB of
    # anonymous memory here that every fork copies page tables for, and a
    # library no child can use: the filter allows no socket but a local pair).
    # Without it, asyncio leaves TLS out, as on an interpreter built without
    # OpenSSL.
    sys.modules["ssl"] = None  # type: ignore[assignment]
    # Nothing reads or writes the zygote's standard input and output (both
    # /dev/null). Dropped here, they are not finalized again in every child,
    # which cost each child about 0.1 ms and 28 page faults before READY
    # (measured). Standard error stays, for the zygote's own tracebacks.
    sys.stdin = sys.__stdin__ = sys.stdout = sys.__stdout__ = None  # type: ignore[misc]
    with _withholding_fork_handlers():
        from sandbox import _child, _limits

        with contextlib.suppress(_limits.ProtectionError):
            _limits.set_parent_death_signal(signal.SIGKILL, parent=host)
        _preload()
        _child.prepare()
        plan = _limits.probe_platform()
    if plan.uid_drop:
        plan = _limits.empty_bounding_set(plan)
    _child.take_trusted_steps()
    _check_one_thread()
    if plan.linux:
        plan = _seal_file_mappings(plan)
    # Objects that exist now are shared with every child, copy-on-write:
    # freezing them keeps the children's garbage collector from touching (and
    # so copying) those pages.
    gc.collect()
    gc.freeze()
    control.sendall(
        encode(
            ZygoteReady(
                pid=os.getpid(),
                uid_drop=plan.uid_drop,
                seccomp=plan.seccomp_program is not None and not _limits.MEASURING,
                linux=plan.linux,
                ceilings=plan.ceilings,
                reasons=plan.reasons,
            )
        )
    )
    _Server(control, plan, _child.run_child).serve()


@contextlib.contextmanager
def _withholding_fork_handlers() -> Iterator[None]:
    """Keep the modules of :data:`WITHHELD_FORK_HANDLERS` from registering at-fork handlers.

    Each child runs every registered handler before anything else:
    ``threading``'s and ``logging``'s (new locks, the thread table rebuilt,
    Python code run for the first time in that process) took 0.25-0.33 ms and
    125 page faults of a fresh child, 60 more faults before READY than without
    them (measured). They make a fork safe from a process with other threads,
    which the zygote is not (:func:`_check_one_thread`): it forks from its only
    thread, between its own steps, so no lock of theirs is held at a fork and
    no thread state needs repairing. Any other module's handlers (``random``
    reseeding the child's generator) are registered as usual.
    """
    register = os.register_at_fork

    def register_unless_withheld(
        *,
        before: Callable[[], object] | None = None,
        after_in_child: Callable[[], object] | None = None,
        after_in_parent: Callable[[], object] | None = None,
    ) -> None:
        if sys._getframe(1).f_globals.get("__name__") in WITHHELD_FORK_HANDLERS:
            return
        handlers = {
            "before": before, "after_in_child": after_in_child, "after_in_parent": after_in_parent
        }
        register(**{name: handler for name, handler in handlers.items() if handler is not None})

    os.register_at_fork = register_unless_withheld
    try:
        yield
    finally:
        os.register_at_fork = register


def _check_one_thread() -> None:
    """Refuse to fork from a zygote with a second thread (:func:`_withholding_fork_handlers`)."""
    import threading

    tasks = os.listdir("/proc/self/task") if os.path.isdir("/proc/self/task") else ["main"]
    if threading.active_count() != 1 or len(tasks) != 1:
        raise RuntimeError(
            "the sandbox zygote must fork from its only thread, but "
            f"{threading.active_count()} Python threads and {len(tasks)} threads in all run"
        )


def _seal_file_mappings(plan: PlatformPlan) -> PlatformPlan:
    """Seal every file mapping the children will inherit; the plan to fork them with.

    Last before the first fork: the zygote maps no file after its imports and
    the filter's compilation (it forks, reaps and relays messages). Children
    inherit the seal, so no ``mremap`` of theirs can grow a library's mapping
    over the rest of its file (``sandbox._seccomp.seal_file_mappings``). Where
    the kernel cannot seal (before Linux 6.10), the filter is compiled again
    without ``mremap``: glibc's ``realloc`` then copies a large block it grows.
    """
    from dataclasses import replace

    from sandbox import _limits, _seccomp

    try:
        _seccomp.seal_file_mappings()
    except OSError:
        program = plan.seccomp_program
        if program is not None and program.allows_mremap:
            program = _seccomp.compile_filter(measuring=_limits.MEASURING, files_sealed=False)
            return replace(plan, seccomp_program=program)
    return plan


def _preload() -> None:
    import importlib

    from sandbox._codecs import load_every_codec

    for name in PRELOADED_MODULES:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    # Codec lookups import their module on first use (``"x".encode("utf-16")``).
    load_every_codec()


class _Server:
    """The zygote's loop: fork on request, reap, report."""

    def __init__(
        self, control: socket.socket, plan: PlatformPlan, run_child: Callable[..., object]
    ) -> None:
        self._control = control
        self._plan = plan
        self._run_child = run_child
        self._poll = select.poll()
        self._poll.register(control.fileno(), select.POLLIN)
        self._pidfds: dict[int, int] = {}  # pidfd -> pid
        self._children: dict[int, int] = {}  # pid -> pidfd

    def serve(self) -> None:
        while True:
            for fd, _events in self._poll.poll():
                if fd == self._control.fileno():
                    if not self._handle_request():
                        self._shutdown()
                        return
                else:
                    self._reap(self._pidfds[fd])

    def _handle_request(self) -> bool:
        fds = array.array("i")
        try:
            data, ancillary, _flags, _address = self._control.recvmsg(
                MAX_PACKET_BYTES, socket.CMSG_SPACE(2 * fds.itemsize)
            )
        except ConnectionError:
            return False
        for level, kind, payload in ancillary:
            if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
                fds.frombytes(payload[: len(payload) - len(payload) % fds.itemsize])
        if not data:
            return False
        request = _request_decoder.decode(data)
        if isinstance(request, (Kill, ReportLine)):
            for fd in fds:
                os.close(fd)
            if isinstance(request, Kill):
                self._kill(request.pid)
            elif request.pid in self._children:  # unreaped, so the pid is still the child's
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(request.pid, STOP_SIGNAL)
        elif len(fds) != 2:
            for fd in fds:
                os.close(fd)
            self._send(SpawnFailed(request.id, f"expected 2 descriptors, got {len(fds)}"))
        else:
            self._spawn(request, fds[0], fds[1])
        return True

    def _spawn(self, request: Spawn, read_fd: int, write_fd: int) -> None:
        try:
            pid = os.fork()
        except OSError as exc:
            os.close(read_fd)
            os.close(write_fd)
            self._send(SpawnFailed(request.id, f"fork failed: {exc}"))
            return
        if pid == 0:  # the child: never returns
            # The child closes the descriptor itself; the socket object must
            # not close that number again once it belongs to something else.
            self._control.detach()
            self._run_child(
                request.settings,
                self._plan,
                read_fd,
                write_fd,
                request.cwd,
                request.uid,
                os.getppid(),
                warm=request.warm,
            )
            os._exit(70)
        os.close(read_fd)
        os.close(write_fd)
        # The pid stays ours (and so unambiguous) until we reap it.
        pidfd = os.pidfd_open(pid)
        self._children[pid] = pidfd
        self._pidfds[pidfd] = pid
        self._poll.register(pidfd, select.POLLIN)
        self._send(Spawned(request.id, pid))

    def _kill(self, pid: int) -> None:
        if pid not in self._children:
            return  # already reaped and reported: the pid may be someone else's now
        # The child may not have called setsid yet, so kill it by pid as well
        # as by group (the group is the child's own once setsid ran).
        for kill in (os.killpg, os.kill):
            with contextlib.suppress(ProcessLookupError, PermissionError):
                kill(pid, signal.SIGKILL)

    def _reap(self, pid: int) -> None:
        try:
            reaped, status, usage = os.wait4(pid, os.WNOHANG)
        except ChildProcessError:
            reaped, status, usage = pid, 0, None
        if reaped == 0:
            return
        pidfd = self._children.pop(pid)
        del self._pidfds[pidfd]
        self._poll.unregister(pidfd)
        os.close(pidfd)
        cpu = usage.ru_utime + usage.ru_stime if usage is not None else 0.0
        self._send(Exited(pid, status, cpu))

    def _send(self, message: ZygoteMessage) -> None:
        # Not contextlib.suppress: after a fork every page the zygote writes is
        # copied, and that class, its methods and its module were about 7 of
        # the zygote's page faults per fork (twice through here per child).
        try:  # noqa: SIM105
            self._control.sendall(_encoder.encode(message))
        except OSError:
            pass

    def _shutdown(self) -> None:
        # The host is gone or closing the pool: take every child with us.
        for pid in list(self._children):
            self._kill(pid)
        for pid in list(self._children):
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, 0)
        self._control.close()
