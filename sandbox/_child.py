"""One sandboxed child: set up the OS layer, say READY, run one program, exit.

:func:`run_child` runs in a process the zygote has just forked. In order:

1. its own session and process group (the host kills the whole group);
2. standard streams and every descriptor but the two protocol pipes closed;
3. the private working directory the host made for it;
4. with the OS layer: the drop to the uid/gid the host chose for this child
   alone (all capabilities go with it), the parent-death signal (after the uid
   switch, which would clear it), ``no_new_privs``, transparent huge pages
   switched off (:func:`_disable_transparent_huge_pages`), the process made
   non-dumpable (:func:`_make_undumpable`) and the rlimits (or
   the stricter ones the zygote inherited);
5. the seccomp filter (compiled once in the zygote; loading it is one syscall),
   which allows ``mremap`` only where the zygote sealed its file mappings;
6. a warm-up run of a constant program with two tool calls at once, the run's
   fresh globals and event loop (:class:`sandbox._runtime.PreparedRun`), made
   by the channel so that it batches calls, and the tripwire's audit hook
   (:mod:`sandbox._tripwire`), then READY and a blocking wait for ``Run``;
7. for a program the host sent as source, compiling it here, under every limit
   above (a refused program ends the run as ``compile``);
8. the program, on what was prepared, with the ``tools`` bindings; the
   tripwire is armed once the program's code is loaded, before any of it runs;
9. ``Done``, a wait until the host closes its end of the pipe (so that the
   teardown of the exit does not hold the host off the CPU it was woken onto to
   read ``Done``), and ``os._exit`` (no interpreter shutdown, no atexit handlers).

A protection that should apply but cannot ends the child with that step's exit
code (``sandbox._zygote.EXIT_CODES``) before any program code runs.

This module is imported by the zygote: child side only (no anyio, nothing from
the host side of ``sandbox``).
"""

from __future__ import annotations

import marshal
import os
import resource
import signal
import socket
import sys
from typing import TYPE_CHECKING, NoReturn

from bridge.child import ChildChannel, RunLoop, event_loop_ahead, recv_run, send_ready
from bridge.protocol import HEADER_BYTES, FrameBuffer, Reply, Run, encode_frame
from bridge.proxy import make_bindings
from sandbox import _classes, _guards, _library, _limits, _seccomp, _tripwire
from sandbox._builtins import SAFE_BUILTINS, make_globals
from sandbox._compile import ProgramCompileError, compile_program
from sandbox._facades import check_library_internals
from sandbox._runtime import PreparedRun, hide_host_locations
from sandbox._where import install_stop_reports

if TYPE_CHECKING:
    from collections.abc import Callable
    from types import CodeType

    from sandbox._limits import PlatformPlan
    from sandbox._zygote import ChildSettings

__all__ = ["prepare", "run_child", "take_trusted_steps"]

_WARM_UP_TOOL = "rehearsal"

#: A program run before READY: the first runs in a fresh fork pay for
#: copy-on-write page faults and lazy set-up all over the interpreter;
#: paying that while the child waits keeps it off the request path. It makes
#: two tool calls at once, the path nearly every program takes (the
#: ``asyncio`` façade and ``gather``, the stubs, the batched call frames, the
#: reply reader, the replies' decoding), answered by the child itself.
_WARM_UP_SOURCE = (
    "import asyncio\n"
    f"first, second = await asyncio.gather(tools.{_WARM_UP_TOOL}(), tools.{_WARM_UP_TOOL}())\n"
    "return first + second"
)
_WARM_UP_RUNS = 1
#: Runs of it in the zygote. CPython 3.11 rewrites a function's bytecode in
#: place as it warms up (quickening after 8 calls, then specialising each
#: instruction), and in a child every such write copies a page shared with
#: the zygote. Run often enough in the zygote, the rewriting is done once
#: there: each child then faults about 50 pages (0.2 MiB, 6%) fewer before
#: READY, for about 4 ms more of the zygote's start (measured).
_ZYGOTE_WARM_UP_RUNS = 10
_warm_up_code: dict[bool, CodeType] = {}
#: The warm-up's calls, each answered with 1.
_WARM_UP_CALLS = 2
#: Globals made in the zygote for a child's runs, by ``restricted``: one for
#: its warm-up, one for its program (see :func:`_globals_ahead_for`).
_globals_ahead: dict[bool, list[dict[str, object]]] = {}
#: Event loops made in the zygote for a child's runs: one for its warm-up, one
#: for its program (see :func:`_loop_ahead`).
_loops_ahead: list[RunLoop] = []
#: The tripwire's exempt steps, taken in the zygote (see :func:`take_trusted_steps`).
_trusted_steps: tuple[tuple[str, CodeType], ...] | None = None


def prepare() -> None:
    """Compile and run the warm-up program in the zygote, before any fork.

    Running it in the zygote also imports whatever the runtime imports
    lazily, which a child could not do under its seccomp filter, and leaves
    the runtime's bytecode quickened in the pages every child shares. Then
    it makes the globals of each child's runs (:func:`_globals_ahead_for`).
    """
    # Before the sweep: it then wraps the replaced methods like any other.
    check_library_internals()
    _library.check_library_selves(_guards.visible_classes())
    _classes.install_program_module(SAFE_BUILTINS)
    hide_host_locations()
    for restricted in (True, False):
        _warm_up_code[restricted] = compile_program(_WARM_UP_SOURCE, restricted=restricted)
        _warm_up(restricted, runs=_ZYGOTE_WARM_UP_RUNS)
        _globals_ahead[restricted] = [
            make_globals(restricted=restricted, bindings={}, print_line=_discard)
            for _ in range(2)
        ]
    _loops_ahead[:] = [event_loop_ahead() for _ in range(2)]


def take_trusted_steps() -> None:
    """Take the tripwire's exempt steps (:func:`sandbox._tripwire.trusted_steps`) now.

    For the zygote, after its last import and before the fork. A child that
    took them itself read the code of every exempt function, in six modules,
    and wrote the reference counts of those functions, their code and their
    modules: about 60 page faults before READY (measured). They are the same
    code objects either way, taken from the same loaded modules before any
    program runs; the hook holds them in its closure once it is built.
    """
    global _trusted_steps
    _trusted_steps = _tripwire.trusted_steps()


def _globals_ahead_for(restricted: bool) -> dict[str, object] | None:
    """Globals the zygote made for this child's next run, or ``None`` once they are used.

    Building a run's globals copies the allow-listed builtins and the guards,
    writing the reference count of every one of them: the first such copy in
    a fresh child took 157 page faults (measured). Made in the zygote, before
    the fork, they are this child's own copy-on-write copy, and a run writes
    only the pages of what its program uses. Each serves one run: no program
    sees globals another one ran with, nor the zygote's own warm-ups' (those
    make theirs).
    """
    ahead = _globals_ahead.get(restricted)
    return ahead.pop() if ahead else None


def _loop_ahead() -> RunLoop | None:
    """An event loop the zygote made for this child's next run, or ``None`` once both are used.

    Made in the zygote, asyncio's set-up code runs once there, not in every
    child: a child forked for a waiting run took 729 page faults for
    ``return 1`` with loops made in the child, 688 with the zygote's; an idle
    warm child, 804 and 766 (``ru_minflt``, and a USS 0.13 MiB smaller). It
    holds no descriptor (:func:`bridge.child.event_loop_ahead`): the child's
    channel opens its selector and registers its pipe. Each serves one run.
    """
    return _loops_ahead.pop() if _loops_ahead else None


def _warm_up(
    restricted: bool,
    *,
    runs: int = _WARM_UP_RUNS,
    pair: tuple[socket.socket, socket.socket] | None = None,
) -> None:
    # In a child, once: the first run in a fork costs about 1.4 ms and 470
    # page faults, a second one 0.25 ms and 7 faults, a third 0.23 ms
    # (measured). The second took about 10 faults off a trivial run that
    # follows (13 instead of 23), too few to tell its W1 apart in alternated
    # sessions, for 0.25 ms of every child's start.
    for _ in range(runs):
        # A socket pair: the program's end, and the far end, where a reader on
        # the same loop plays the host and answers each call frame. A child
        # passes the one it made before loading its filter, which refuses one.
        near, far = socket.socketpair() if pair is None else pair
        pair = None
        with near, far:
            channel = ChildChannel(near.fileno(), near.fileno())
            loop = channel.new_event_loop(_loop_ahead())
            loop.add_reader(far.fileno(), _HostStandIn(far.fileno()).answer)
            bindings, on_return, after_run = make_bindings(channel, (_WARM_UP_TOOL,))
            prepared = PreparedRun(
                restricted=restricted,
                emit_log=_discard,
                loop=loop,
                namespace=_globals_ahead_for(restricted),
            )
            outcome = prepared.run(
                _warm_up_code[restricted],
                bindings=bindings,
                max_log_bytes=1024,
                max_value_bytes=1024,
                after_run=after_run,
                on_return=on_return,
            )
        if outcome.error is not None or outcome.value != _WARM_UP_CALLS:
            raise RuntimeError(f"the warm-up program failed: {outcome}")


class _HostStandIn:
    """The far end of a warm-up: answers every call frame it reads with 1, by id."""

    __slots__ = ("_answered", "_fd", "_frames")

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._frames = FrameBuffer()
        self._answered = 0

    def answer(self) -> None:
        self._frames.feed(os.read(self._fd, 65536))
        while self._frames.next_body() is not None:
            os.write(self._fd, encode_frame(Reply(self._answered, value=b"1")))
            self._answered += 1


def _discard(line: str) -> None:
    pass


def _rehearse_receipt(channel: ChildChannel, settings: ChildSettings) -> None:
    """Take a ``Run`` apart the way the real one will be, before READY.

    Decoding the frame, loading its code and building the ``tools`` bindings
    write to pages the child shares with the zygote (and draw fresh ones from
    the allocator): about 25 page faults that a fork pays once, at about 5 µs
    each on a virtual machine, measured with ``ru_minflt``. Paid here, they are
    off the request path. Nothing is sent, and the channel is left as it was.
    """
    rehearsal = Run(
        code=marshal.dumps(_warm_up_code[settings.restricted]),
        restricted=settings.restricted,
        tool_names=("rehearsal_a", "rehearsal_b"),
        max_log_bytes=1,
        max_value_bytes=1,
        max_frame_bytes=settings.max_frame_bytes,
        cpu_seconds=1,
        memory_bytes=1,
        max_open_files=1,
        os_layer=settings.os_layer,
        tripwire=settings.tripwire,
    )
    received = channel.decode_host_frame(encode_frame(rehearsal)[HEADER_BYTES:])
    assert isinstance(received, Run)
    marshal.loads(received.code)
    make_bindings(channel, received.tool_names)


# Exit codes, one per step (see ``sandbox._zygote.EXIT_CODES`` for the messages).
_SETUP, _UID, _RLIMITS, _NNP, _SECCOMP, _PDEATH, _CWD, _PROTOCOL, _RUNNING = range(70, 79)
_THP = 81  # 79 is the CPU-limit report's, 80 the tripwire's
_DUMPABLE = 82

_PR_SET_DUMPABLE = 4
_PR_GET_DUMPABLE = 3

_PR_SET_THP_DISABLE = 41
_PR_GET_THP_DISABLE = 42


def _disable_transparent_huge_pages() -> None:
    """Switch transparent huge pages off for this process, for good, and verify it.

    With them a child could make memory ``RLIMIT_AS`` does not count: touch one
    byte of a 2 MiB-aligned region (after ``madvise(MADV_HUGEPAGE)``, or with no
    advice on a host whose THP setting is ``always``), which allocates a whole
    2 MiB page, then unmap all of it but 4 KiB: the kernel keeps the 2 MiB page
    until memory runs short, 512 times the address space that is left mapped
    and not in the child's RSS (about 1 GiB held under the default 512 MiB
    limit). With the flag set no fault, ``madvise`` or ``khugepaged`` gives the
    process a huge page; the filter refuses ``prctl``, so the program cannot
    clear it.
    """
    _limits._prctl(_PR_SET_THP_DISABLE, 1, protection="thp_disable")
    # 1: off completely (newer kernels also know "off except where advised", 3).
    state = _limits._prctl(_PR_GET_THP_DISABLE, protection="thp_disable")
    if state != 1:
        raise _limits.ProtectionError(
            "thp_disable", f"PR_GET_THP_DISABLE says {state} after PR_SET_THP_DISABLE"
        )


def _make_undumpable() -> None:
    """Make this process non-dumpable, for good, and verify it.

    ``RLIMIT_CORE=0`` stops only a core *file*: where the machine pipes core
    dumps to a program (``kernel.core_pattern`` starting with ``|``: apport,
    systemd-coredump) the kernel ignores the limit, starts that program as
    root and writes the whole address space to it. Whether it dumps at all is
    the process's dumpable flag, which the uid switch sets from
    ``fs.suid_dumpable`` (2 where apport runs) and which a child without a uid
    switch keeps at 1. Cleared here, after the uid switch (which would set it
    again), no crash of the child starts a process or writes a dump anywhere;
    the filter refuses ``prctl``, so the program cannot set it back.
    """
    _limits._prctl(_PR_SET_DUMPABLE, 0, protection="dumpable")
    state = _limits._prctl(_PR_GET_DUMPABLE, protection="dumpable")
    if state != 0:
        raise _limits.ProtectionError("dumpable", f"PR_GET_DUMPABLE says {state}")


def run_child(
    settings: ChildSettings,
    plan: PlatformPlan,
    read_fd: int,
    write_fd: int,
    cwd: str,
    uid: int | None,
    zygote: int,
    *,
    warm: bool = True,
) -> NoReturn:
    """Become a sandboxed child and serve one program over the two pipes; never returns.

    ``warm``: run the warm-up program (and rehearse the receipt of ``Run``)
    before READY, as a child that will wait in the pool does: that takes about
    1.4 ms of CPU and 470 page faults in a fresh fork, and saves its program
    about 0.3 ms. A child forked for a run that is already waiting for it
    skips them, since the run would wait for all of it.
    """
    step = _SETUP
    # Test hook: the standard streams the zygote left the child, before it drops them.
    streams = _inherited_streams() if settings.probe else []
    try:
        os.setsid()
        _close_descriptors(read_fd, write_fd)
        step = _CWD
        os.chdir(cwd)
        os_layer = settings.os_layer and plan.linux
        if os_layer and plan.uid_drop:
            step = _UID
            if uid is None or uid <= 0:
                # Fail closed: a child the host sent no uid for stays root.
                raise _limits.ProtectionError("uid_drop", f"no uid to drop to (got {uid!r})")
            _limits.drop_privileges(
                uid,
                last_capability=plan.last_capability,
                bounding_set_empty=plan.bounding_set_empty,
            )
        step = _PDEATH
        _limits.set_parent_death_signal(signal.SIGKILL, parent=zygote)
        if os_layer:
            step = _NNP
            _limits.set_no_new_privs()
            step = _THP
            _disable_transparent_huge_pages()
            step = _DUMPABLE
            _make_undumpable()
            step = _RLIMITS
            _limits.apply_rlimits(
                cpu_seconds=settings.cpu_seconds,
                memory_bytes=settings.memory_bytes,
                max_open_files=settings.max_open_files,
            )
        step = _SETUP  # the test hooks' probes: a failure there is not the rlimits'
        probe = _probe(settings.max_open_files, streams, read_fd) if settings.probe else None
        status_now = _status_reader() if settings.probe else None
        pidfd = os.pidfd_open(settings.probe_pidfd) if settings.probe_pidfd else None
        # The warm-up's stand-in host talks to it over a socket pair, made now:
        # the filter refuses one (no program needs one).
        warm_up_pair = socket.socketpair() if warm else None
        if os_layer and plan.seccomp_program is not None and settings.seccomp:
            # Installed before READY, so that a warm child is a fully armed
            # one and loading the filter (~0.3 ms) stays off the request path;
            # and before the warm-up, so that nothing runs unfiltered for long.
            # From here on the child can only use the descriptors it holds.
            step = _SECCOMP
            if plan.seccomp_program.allows_mremap and not _seccomp.files_sealed():
                # A filter that lets mremap grow a mapping, in a child whose
                # zygote did not seal its file mappings: a library's mapping
                # grown to its file's length would read all of that file.
                raise _limits.ProtectionError(
                    "seccomp", "the filter allows mremap but the file mappings are not sealed"
                )
            _limits.load_seccomp(plan.seccomp_program)
        step = _PROTOCOL
        channel = ChildChannel(
            read_fd, write_fd, max_frame_bytes=settings.max_frame_bytes, flush_with_alarm=True
        )
        step = _SETUP
        if warm_up_pair is not None:
            _warm_up(settings.restricted, pair=warm_up_pair)
            _rehearse_receipt(channel, settings)
        # Everything the run needs that does not depend on the program: its
        # fresh globals, the print capture and the event loop. This child runs
        # one program only, so they are still that program's alone.
        # The tripwire is built now and armed by the run once the program's
        # code is loaded: the hook is not in any module, so nothing the
        # program can import holds it.
        # The run's loop comes from the channel: it batches the calls the
        # program starts together, and has the reply reader on it already.
        prepared = PreparedRun(
            restricted=settings.restricted,
            emit_log=channel.emit_log,
            own_process=True,
            tripwire=(
                _tripwire.make_tripwire(write_fd, steps=_trusted_steps)
                if settings.tripwire
                else None
            ),
            loop=channel.new_event_loop(_loop_ahead()),
            namespace=_globals_ahead_for(settings.restricted),
        )
        # A stopped run tells the host the line its program was on.
        install_stop_reports(channel, prepared, cpu_limit=os_layer)
        step = _PROTOCOL
        send_ready(channel, unprotected=_unprotected(settings, plan))
        run = recv_run(channel)
        if (run.restricted, run.os_layer, run.tripwire) != (
            settings.restricted,
            settings.os_layer,
            settings.tripwire,
        ):
            # The host pools children by settings; a mismatch is a host bug
            # that must not silently run a program with the wrong layers.
            os._exit(_PROTOCOL)
        step = _RUNNING
        if run.code:
            code = marshal.loads(run.code)
        else:
            try:
                code = compile_program(
                    run.source, restricted=run.restricted, signatures=run.signatures
                )
            except ProgramCompileError as exc:
                channel.send_done(None, ("compile", exc.message))
                _wait_for_release(read_fd)
                os._exit(0)
        step = _PROTOCOL
        bindings, on_return, after_run = make_bindings(channel, run.tool_names)
        if probe is not None and status_now is not None:
            bindings["os_probe"] = probe
            bindings["os_probe_status"] = status_now
        if pidfd is not None:
            bindings["os_probe_pidfd"] = pidfd
        step = _RUNNING
        outcome = prepared.run(
            code,
            bindings=bindings,
            max_log_bytes=run.max_log_bytes,
            max_value_bytes=run.max_value_bytes,
            after_run=after_run,
            on_return=on_return,
            # The limit the rlimits above set, for the message of a MemoryError.
            memory_bytes=settings.memory_bytes if os_layer else None,
        )
        channel.send_done(outcome.value, outcome.error)
        _wait_for_release(read_fd)
    except BaseException:
        os._exit(step)
    os._exit(0)


def _wait_for_release(read_fd: int) -> None:
    """Block until the host closes its end of the pipe; the child then exits.

    Exiting tears the address space down (about a millisecond on a virtual
    machine), and the host was just woken by ``Done``, often onto this very
    CPU (a pipe write hints that the writer is about to sleep): a child that
    exited at once held the host off its CPU, and ``Done`` unread, for the
    whole teardown. The pool closes the pipe a little after the run returned,
    so the teardown comes after its reading of ``Done`` and after the caller's
    next steps. Anything still arriving (a reply to a call the program did not
    await) is read and dropped; a child that is still there after the exit
    grace is killed by the host.
    """
    try:
        while os.read(read_fd, 65536):
            pass
    except OSError:
        pass  # the host is gone: nothing to wait for


def _close_descriptors(read_fd: int, write_fd: int) -> None:
    # Drop the Python objects of the standard streams first: once their
    # descriptors are closed the numbers get reused, and a stream object that
    # is later freed would close whatever holds the number then.
    sys.stdin = sys.stdout = sys.stderr = None
    sys.__stdin__ = sys.__stdout__ = sys.__stderr__ = None  # type: ignore[misc]
    low, high = sorted((read_fd, write_fd))
    os.closerange(0, low)
    os.closerange(low + 1, high)
    os.closerange(high + 1, 1 << 20)


def _inherited_streams() -> list[str]:
    return [name for name in ("stdin", "stdout", "stderr") if getattr(sys, name) is not None]


def _unprotected(settings: ChildSettings, plan: PlatformPlan) -> list[str]:
    reasons = [] if settings.tripwire else ["tripwire: switched off (tripwire=False)"]
    if not settings.os_layer:
        return reasons + [
            f"{name}: switched off (os_layer=False)"
            for name in ("rlimits", "uid_drop", "no_new_privs", "seccomp")
        ]
    if not settings.seccomp:
        return [*reasons, *plan.reasons, "seccomp: switched off (test hook)"]
    return reasons + list(plan.reasons)


def _status_reader() -> Callable[[], str]:
    """Test hook: read ``/proc/self/status`` once, later, through a descriptor opened now.

    The kernel writes the file's text at the first read, so it shows the state
    then; a plain ``read`` is all the filter allows.
    """
    fd = os.open("/proc/self/status", os.O_RDONLY)

    def read_status() -> str:
        return os.read(fd, 1 << 16).decode("ascii")

    return read_status


def _probe(max_open_files: int, streams: list[str], read_fd: int) -> dict[str, object]:
    """Describe this process for the OS-layer tests (only with ``probe=True``).

    ``streams``: the standard streams the child had from the zygote;
    ``read_fd``: its end of the host's pipe (a descriptor a test's program can
    aim calls at, the child having no other once its filter is in).
    """
    with open("/proc/self/status", encoding="ascii") as stream:
        status = stream.read()
    open_fds = []
    for fd in range(max_open_files):
        try:
            os.fstat(fd)
        except OSError:
            continue
        open_fds.append(fd)
    names = ("RLIMIT_CPU", "RLIMIT_AS", "RLIMIT_NPROC", "RLIMIT_FSIZE", "RLIMIT_NOFILE",
             "RLIMIT_CORE")
    return {
        "code_page": _code_page(),
        "status": status,
        "thp_disable": _limits._prctl(_PR_GET_THP_DISABLE),
        "dumpable": _limits._prctl(_PR_GET_DUMPABLE),
        "files_sealed": _seccomp.files_sealed(),
        "rlimits": {name: list(resource.getrlimit(getattr(resource, name))) for name in names},
        "cwd": os.getcwd(),
        "cwd_entries": sorted(os.listdir(".")),
        "cwd_mode": os.stat(".").st_mode & 0o7777,
        "cwd_uid": os.stat(".").st_uid,
        "environ": dict(os.environ),
        "fds": open_fds,
        "pgid": os.getpgrp(),
        "sid": os.getsid(0),
        "pid": os.getpid(),
        "read_fd": read_fd,
        "streams": streams,
    }


def _code_page() -> int:
    """The address of a writable, executable page mapped before the filter (tests only).

    The filter refuses executable memory; the tests of what it does to machine
    code (another ABI's system calls) need a page to put that code in. Mapped
    through libc (``ctypes`` is loaded already; a new module may not be
    importable in a child), for the rest of the child's life.
    """
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    libc.mmap.restype = ctypes.c_void_p
    libc.mmap.argtypes = (
        ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long
    )
    read_write_execute, private_anonymous = 0x7, 0x22
    address = libc.mmap(None, 4096, read_write_execute, private_anonymous, -1, 0)
    if address in (None, ctypes.c_void_p(-1).value):
        raise OSError(ctypes.get_errno(), "mmap of the probe's code page failed")
    return int(address)
