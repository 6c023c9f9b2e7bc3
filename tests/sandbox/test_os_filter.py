"""The seccomp allow-list, call by call, each against a target the kernel would let it reach.

Every case runs twice in a real child with the OS layer in force: once with
the filter (the call must be refused with ``EPERM``, the filter's answer) and
once with every protection *but* the filter (the kernel must let the call
through: it succeeds, or fails with an error only the kernel gives). The
target is a victim process of the child's own uid (the pool's uid range is
that one uid), a file the child could read, its own working directory or
descriptors, so the uid drop, the rlimits and the file modes alone do not
explain a refusal: removing the filter's refusal of any one call fails its case.

Programs use ``Limits(language_layer=False, tripwire=False)`` (plain Python) and reach the
kernel through ``os``, ``socket`` and raw ``syscall()`` from ``ctypes``.
"""

from __future__ import annotations

import contextlib
import ctypes
import errno
import json
import os
import platform
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

import anyio
import pytest

from sandbox import Limits, RunResult
from sandbox._seccomp import (
    ALLOWED_SYSCALLS,
    ARGUMENT_RULES,
    MEASURED_SYSCALLS,
    NEVER_ALLOWED,
    REASONED_SYSCALLS,
)
from sandbox.testing import EchoHandler, probing_pool

if TYPE_CHECKING:
    from collections.abc import Iterator

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(os.geteuid() != 0, reason="a victim of the child's uid needs root"),
    pytest.mark.skipif(platform.machine() != "x86_64", reason="raw x86_64 syscall numbers"),
]

GUARD = 60
#: The one uid the children of these tests drop to; the victim runs as it too.
TARGET_UID: Final = 0x7002_0000
PLAIN: Final = Limits(language_layer=False, tripwire=False, wall_seconds=10)
_EPERM: Final = errno.EPERM
_LIBC: Final = ctypes.CDLL(None, use_errno=True)

_PRELUDE: Final = """\
import ctypes, errno, fcntl, os, resource, socket, struct
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
def raw(number, *args):
    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(a) for a in args])
    if result == -1:
        raise OSError(ctypes.get_errno(), 'refused')
    return result
def buffer(size):
    return ctypes.create_string_buffer(size)
def address(buf):
    return ctypes.addressof(buf)
VICTIM = {victim}
READABLE = {readable}
WRITABLE = {writable}
WRITABLE_BYTES = {writable_bytes!r}
"""


@dataclass(frozen=True)
class Case:
    """One refused call: set-up (allowed calls only), the call, and what the kernel does alone.

    ``unfiltered`` is ``"allowed"`` when the call succeeds without the filter,
    or the errno only the kernel gives (never ``EPERM``), which shows the call
    got past where the filter would have stopped it.
    """

    id: str
    call: str
    unfiltered: str | int = "allowed"
    setup: str = ""
    cleanup_ipc: bool = False


_SIGINFO = "info = buffer(128); struct.pack_into('iii', info, 0, 0, 0, -1)"  # si_code SI_QUEUE
_PIPE = "FD = os_probe['read_fd']"
_TS = "ts = buffer(16)"  # a struct timespec of zeros
_FAR = 1 << 44  # an address far from anything mapped (16 TiB)
_PAGE = "page = raw(9, 0, 4096, 3, 0x22, -1, 0)"  # the one form the filter allows
_KEY = (
    "kind = ctypes.create_string_buffer(b'user')\n"
    "description = ctypes.create_string_buffer(b'codemode-filter-test')\n"
    "absent = ctypes.create_string_buffer(b'codemode-filter-test-absent')\n"
    "payload = ctypes.create_string_buffer(b'x')"
)

CASES: Final[tuple[Case, ...]] = (
    # Files: a world-readable file, the child's own directory (owned by its uid).
    Case("open-read", "open('/etc/hostname').read()"),
    Case("open-create", "open('new-file', 'w').close()"),
    Case("mkdir", "os.mkdir('d')"),
    Case("listdir", "os.listdir('/')"),
    Case("stat", "os.stat('/etc/hostname')"),
    Case("readlink", "os.readlink('/proc/self/exe')"),
    Case("chdir", "os.chdir('/')"),
    Case("memfd_create", "os.memfd_create('x')"),
    Case("inotify_init1", "raw(294, 0)"),
    # Network.
    Case("socket-inet", "socket.socket(socket.AF_INET, socket.SOCK_STREAM).close()"),
    Case("socket-unix", "socket.socket(socket.AF_UNIX, socket.SOCK_STREAM).close()"),
    Case("socketpair-inet6", "socket.socketpair(socket.AF_INET6)", errno.EOPNOTSUPP),
    Case("socketpair-dgram", "socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)"),
    Case(
        "socketpair-seqpacket",
        "socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET | socket.SOCK_CLOEXEC)",
    ),
    Case("socketpair-protocol", "socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM, 1)"),
    # Not even the Unix stream pair an event loop's self-pipe once needed.
    Case("socketpair-unix-stream", "socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)"),
    # Processes: RLIMIT_NPROC=0 stops a fork in the kernel too, with another error.
    Case("fork", "os.fork()", errno.EAGAIN),
    # A path in the child's own empty directory: missing whatever the machine holds.
    Case("execve", "os.execv('./missing', ['x'])", errno.ENOENT),
    # Signals and tracing aimed at the victim, a process of the child's own uid.
    Case("kill", "os.kill(VICTIM, 0)"),
    Case("tkill", "raw(200, VICTIM, 0)"),
    Case("tgkill", "raw(234, VICTIM, VICTIM, 0)"),
    Case("rt_sigqueueinfo", "raw(129, VICTIM, 0, address(info))", setup=_SIGINFO),
    Case("rt_tgsigqueueinfo", "raw(297, VICTIM, VICTIM, 0, address(info))", setup=_SIGINFO),
    Case("pidfd_open", "raw(434, VICTIM, 0)"),
    Case("pidfd_send_signal", "raw(424, os_probe_pidfd, 0, 0, 0)"),
    Case("pidfd_getfd", "raw(438, os_probe_pidfd, 0, 0)"),
    Case("ptrace-seize", "raw(101, 0x4206, VICTIM, 0, 0)"),
    Case("kcmp", "raw(312, os.getpid(), VICTIM, 1, 0, 0)"),
    # Another process's CPU clock, named by its pid: the kernel checks no permission.
    Case("clock_gettime-of-victim", "raw(228, (~VICTIM << 3) | 2, address(ts))", setup=_TS),
    Case(
        "clock_nanosleep-on-victim",
        "raw(230, (~VICTIM << 3) | 2, 0, address(ts), 0)",
        setup=_TS,
    ),
    # A fixed clock's id with stray high bits: the kernel cuts it to an int (1).
    Case("clock_gettime-high-bits", "raw(228, (1 << 32) | 1, address(ts))", setup=_TS),
    Case(
        "process_vm_readv",
        "raw(310, VICTIM, address(local), 1, address(remote), 1, 0)",
        setup="data = buffer(8)\n"
        "local = buffer(16); struct.pack_into('QQ', local, 0, address(data), 8)\n"
        "remote = buffer(16); struct.pack_into('QQ', remote, 0, READABLE, 8)",
    ),
    Case(
        # Writes back the bytes that are there (read in the set-up, as the kernel allows).
        "process_vm_writev",
        "raw(311, VICTIM, address(local), 1, address(remote), 1, 0)",
        setup="data = buffer(8)\n"
        "local = buffer(16); struct.pack_into('QQ', local, 0, address(data), 8)\n"
        "remote = buffer(16); struct.pack_into('QQ', remote, 0, WRITABLE, 8)\n"
        "data.raw = WRITABLE_BYTES",
    ),
    # The victim's scheduling and limits, set to the values it has (no change, same checks).
    Case("setpriority", "os.setpriority(os.PRIO_PROCESS, VICTIM, 0)"),
    Case("sched_setaffinity", "os.sched_setaffinity(VICTIM, AFFINITY)",
         setup=f"AFFINITY = {sorted(os.sched_getaffinity(0))!r}"),
    Case("sched_setscheduler", "os.sched_setscheduler(VICTIM, os.SCHED_OTHER, os.sched_param(0))"),
    Case("sched_setparam", "os.sched_setparam(VICTIM, os.sched_param(0))"),
    Case("prlimit-victim", "resource.prlimit(VICTIM, resource.RLIMIT_NOFILE)"),
    # setrlimit on itself (prlimit64 with pid 0), lowering RLIMIT_NOFILE to 16.
    Case("setrlimit-self", "raw(302, 0, 7, address(new), 0)",
         setup="new = buffer(16); struct.pack_into('QQ', new, 0, 16, 16)"),
    # Signals on I/O: naming the victim as a descriptor's owner. The child's
    # only descriptors under its filter are its protocol pipes: the read end.
    Case("fcntl-setown", "fcntl.fcntl(FD, fcntl.F_SETOWN, VICTIM)", setup=_PIPE),
    Case("fcntl-setown-high-bits", "raw(72, FD, (1 << 32) | 8, VICTIM)", setup=_PIPE),
    Case("fcntl-getfl", "fcntl.fcntl(FD, fcntl.F_GETFL)", setup=_PIPE),
    # On a pipe the kernel refuses these itself (they are a socket's requests).
    Case("ioctl-fiosetown", "fcntl.ioctl(FD, 0x8901, struct.pack('i', VICTIM))", errno.ENOTTY,
         setup=_PIPE),
    Case("ioctl-siocspgrp", "fcntl.ioctl(FD, 0x8902, struct.pack('i', VICTIM))", errno.ENOTTY,
         setup=_PIPE),
    Case("ioctl-tcgets", "fcntl.ioctl(FD, 0x5401, bytes(60))", errno.ENOTTY, setup=_PIPE),
    # No ioctl at all: FIONBIO was allowed for the event loop's self-pipe once.
    Case("ioctl-fionbio", "raw(16, FD, 0x5421, address(one))",
         setup=f"{_PIPE}\none = buffer(4); one[0] = 1"),
    Case("ioctl-fionbio-high-bits", "raw(16, FD, (1 << 32) | 0x5421, address(one))",
         setup=f"{_PIPE}\none = buffer(4); one[0] = 1"),
    # State that outlives the child.
    Case("shmget", "libc.shmget(0, 4096, 0o600) != -1 or raw(-1)", cleanup_ipc=True),
    Case("msgget", "libc.msgget(0, 0o600) != -1 or raw(-1)", cleanup_ipc=True),
    Case("semget", "libc.semget(0, 1, 0o600) != -1 or raw(-1)", cleanup_ipc=True),
    Case("mq_open", "libc.mq_open(QUEUE, os.O_CREAT | os.O_RDWR, 0o600, None) != -1 or raw(-1)",
         setup="QUEUE = b'/codemode-filter-test'", cleanup_ipc=True),
    # The parent-death signal, the process group, credentials.
    Case("prctl-pdeathsig", "libc.prctl(1, 0, 0, 0, 0) != -1 or raw(-1)"),
    Case("setuid-own", "os.setuid(os.getuid())"),
    # Kernel surfaces.
    # Keys: a uid's user keyring outlives its last process, so a key left there
    # reaches the next child given the uid. Cleared again last (unfiltered).
    Case("add_key-user-keyring",
         "raw(248, address(kind), address(description), address(payload), 1, -4)", setup=_KEY),
    Case("request_key", "raw(249, address(kind), address(absent), 0, 0)", errno.ENOKEY,
         setup=_KEY),
    Case("keyctl-clear-user-keyring", "raw(250, 7, -4)"),  # KEYCTL_CLEAR, KEY_SPEC_USER_KEYRING
    Case("io_uring_setup", "raw(425, 1, address(params))", setup="params = buffer(120)"),
    Case("userfaultfd", "raw(323, 1)"),  # UFFD_USER_MODE_ONLY: open to unprivileged users
    Case("unshare-user", "raw(272, 0x10000000)"),
    Case("personality", "raw(135, 0xFFFFFFFF)"),
    Case("seccomp", "raw(317, 2, 0, address(action))",
         setup="action = buffer(4); struct.pack_into('I', action, 0, 0x7FFF0000)"),
    # Memory at an address of the program's choosing: single pages scattered
    # across the address space pin page tables (kernel memory) that RLIMIT_AS
    # does not count. And memory that is executable, shared, locked or huge.
    Case("mmap-hint", f"raw(9, {_FAR}, 4096, 3, 0x22, -1, 0)"),
    Case("mmap-fixed-noreplace", f"raw(9, {_FAR}, 4096, 3, 0x22 | 0x100000, -1, 0)"),
    Case("mmap-executable", "raw(9, 0, 4096, 7, 0x22, -1, 0)"),
    Case("mmap-shared", "raw(9, 0, 4096, 3, 0x21, -1, 0)"),
    Case("mmap-locked", "raw(9, 0, 4096, 3, 0x22 | 0x2000, -1, 0)"),
    Case("mmap-populate", "raw(9, 0, 4096, 3, 0x22 | 0x8000, -1, 0)"),
    Case("mmap-flags-high-bits", "raw(9, 0, 4096, 3, (1 << 32) | 0x22, -1, 0)"),
    Case("mremap-fixed", f"raw(25, page, 4096, 4096, 1 | 2, {_FAR})", setup=_PAGE),
    Case("mremap-dontunmap", "raw(25, page, 4096, 4096, 1 | 4, 0)", setup=_PAGE),
    # A file's pages: no mapping of a descriptor (the child's are pipes, which
    # the kernel cannot map, and it can open none).
    Case("mmap-file", "raw(9, 0, 4096, 1, 0x02, FD, 0)", errno.ENODEV, setup=_PIPE),
    # Advice that makes memory RLIMIT_AS does not count (a 2 MiB page behind
    # 4 KiB of address space; the child has huge pages switched off as well,
    # and MADV_COLLAPSE then fails in the kernel), shares it with other
    # processes, or reaches past the allocators' needs: only MADV_DONTNEED and
    # MADV_FREE pass.
    Case("madvise-hugepage", "raw(28, page, 4096, 14)", setup=_PAGE),
    Case("madvise-hugepage-high-bits", "raw(28, page, 4096, (1 << 32) | 14)", setup=_PAGE),
    Case("madvise-collapse", "raw(28, page, 4096, 25)", errno.EINVAL, setup=_PAGE),
    Case("madvise-mergeable", "raw(28, page, 4096, 12)", setup=_PAGE),
    Case("madvise-populate-write", "raw(28, page, 4096, 23)", setup=_PAGE),
    Case("madvise-pageout", "raw(28, page, 4096, 21)", setup=_PAGE),
    Case("madvise-wipeonfork", "raw(28, page, 4096, 18)", setup=_PAGE),
    # Harmless calls the child does not need are refused like the rest.
    Case("uname", "os.uname()"),
    Case("getcwd", "os.getcwd()"),
    Case("pipe", "os.pipe()"),
)


def _program(case: Case, victim: Victim) -> str:
    prelude = _PRELUDE.format(
        victim=victim.pid,
        readable=victim.readable,
        writable=victim.writable,
        writable_bytes=victim.writable_bytes,
    )
    setup = "".join(f"{line}\n" for line in case.setup.splitlines())
    return (
        f"{prelude}{setup}"
        "try:\n"
        f"    {case.call}\n"
        "except OSError as exc:\n"
        "    return ['refused', exc.errno]\n"
        "return ['allowed', None]"
    )


@dataclass
class Victim:
    """A sleeping process of the children's uid, and two addresses in it."""

    process: subprocess.Popen[bytes]
    readable: int
    writable: int
    writable_bytes: bytes

    @property
    def pid(self) -> int:
        return self.process.pid


def _start_victim() -> Victim:
    process = subprocess.Popen(
        ["sleep", "600"],
        start_new_session=True,
        stdin=subprocess.DEVNULL,
        user=TARGET_UID,
        group=TARGET_UID,
        extra_groups=[],
    )
    readable = writable = 0
    # Popen returns once the exec has happened, but the loader may still be
    # changing protections (RELRO). The first page of the image (its ELF
    # header) stays readable, and the lowest page of the stack mapping stays
    # writable and unused (the stack grows down from the top).
    for line in Path(f"/proc/{process.pid}/maps").read_text().splitlines():
        span, permissions = line.split()[:2]
        start = int(span.split("-")[0], 16)
        if permissions.startswith("r") and not readable:
            readable = start
        if line.endswith("[stack]"):
            writable = start
    with open(f"/proc/{process.pid}/mem", "rb") as memory:
        memory.seek(writable)
        writable_bytes = memory.read(8)
    return Victim(process, readable, writable, writable_bytes)


def _victim_state(pid: int) -> tuple[bool, str, str, frozenset[int], int]:
    """Stopped or traced, nice value, limits, affinity, scheduling policy."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    limits = Path(f"/proc/{pid}/limits").read_text()
    affinity = frozenset(os.sched_getaffinity(pid))
    return fields[0] in "Tt", fields[16], limits, affinity, os.sched_getscheduler(pid)


def _remove_ipc_of(uid: int) -> None:
    for table, flag in (("shm", "-m"), ("msg", "-q"), ("sem", "-s")):
        with contextlib.suppress(OSError):
            for line in Path(f"/proc/sysvipc/{table}").read_text().splitlines()[1:]:
                parts = line.split()
                # key, id, perms, ..., uid is the column after the sizes/pids.
                if str(uid) in parts[3:]:
                    subprocess.run(["ipcrm", flag, parts[1]], check=False)
    _LIBC.mq_unlink(b"/codemode-filter-test")


async def _run_all(victim: Victim) -> dict[tuple[bool, str], RunResult]:
    results: dict[tuple[bool, str], RunResult] = {}
    for filtered in (True, False):
        pool = probing_pool(
            limits=PLAIN, size=0, uid_range=range(TARGET_UID, TARGET_UID + 1),
            seccomp=filtered, pidfd_of=victim.pid,
        )
        async with pool:
            for case in CASES:
                source = _program(case, victim)
                with anyio.fail_after(GUARD):
                    results[filtered, case.id] = await pool.run(
                        source, tool_names=[], handler=EchoHandler()
                    )
    return results


@pytest.fixture(scope="module")
def victim() -> Iterator[Victim]:
    started = _start_victim()
    try:
        yield started
    finally:
        started.process.kill()
        started.process.wait()
        _remove_ipc_of(TARGET_UID)


@pytest.fixture(scope="module")
def outcomes(victim: Victim) -> dict[tuple[bool, str], RunResult]:
    before = _victim_state(victim.pid)
    results = anyio.run(_run_all, victim)
    _remove_ipc_of(TARGET_UID)
    assert victim.process.poll() is None, "the victim died"
    assert _victim_state(victim.pid) == before, "the victim's state changed"
    return results


def _outcome(result: RunResult) -> list[Any]:
    assert result.error is None, result.error
    assert isinstance(result.value, list)
    return result.value


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_the_filter_refuses_the_call(
    case: Case, outcomes: dict[tuple[bool, str], RunResult]
) -> None:
    assert _outcome(outcomes[True, case.id]) == ["refused", _EPERM]


@pytest.mark.parametrize("case", CASES, ids=[case.id for case in CASES])
def test_without_the_filter_the_kernel_lets_the_call_through(
    case: Case, outcomes: dict[tuple[bool, str], RunResult]
) -> None:
    expected = ["allowed", None] if case.unfiltered == "allowed" else ["refused", case.unfiltered]
    assert case.unfiltered != _EPERM
    assert _outcome(outcomes[False, case.id]) == expected


def test_the_runs_used_the_victims_uid(outcomes: dict[tuple[bool, str], RunResult]) -> None:
    # A case proves nothing if the child had another uid than its target.
    for (filtered, _case), result in outcomes.items():
        assert result.layers.uid_drop
        assert result.layers.seccomp is filtered


# ---------------------------------------------------------------- every other number


#: Calls the kernel runs past every seccomp filter, by design: they work only
#: from the trampolines it installs for user-space probes, and otherwise send
#: SIGILL (uretprobe) or fail (uprobe).
_SECCOMP_PASSTHROUGH: Final = {335: "uretprobe", 336: "uprobe"}


async def test_every_system_call_off_the_list_is_refused() -> None:
    # Every x86_64 number up to past the newest call, with all-invalid
    # arguments, except those allowed unconditionally: the filter answers EPERM
    # to each (its default), before the kernel looks at the arguments.
    import pyseccomp

    native = pyseccomp.system_arch()
    allowed = sorted(
        {
            number
            for name in ALLOWED_SYSCALLS
            if (number := pyseccomp.resolve_syscall(native, name)) >= 0
        }
        | set(_SECCOMP_PASSTHROUGH)
    )
    source = (
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "libc.syscall.restype = ctypes.c_long\n"
        f"allowed = set({allowed!r})\n"
        "answers = {}\n"
        "for number in range(512):\n"
        "    if number in allowed:\n"
        "        continue\n"
        "    result = libc.syscall(ctypes.c_long(number), *[ctypes.c_long(-1)] * 6)\n"
        "    answers[number] = ctypes.get_errno() if result == -1 else 'ran'\n"
        "return [number for number, answer in answers.items() if answer != 1]"
    )
    async with probing_pool(limits=PLAIN, size=0) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == []


# ---------------------------------------------------------------- other ABIs

_I386_GETPID: Final = (
    # mov eax, 20 (getpid in the i386 table); int 0x80; ret
    # The filter refuses executable memory: the page was mapped before it.
    "import ctypes\n"
    "page = os_probe['code_page']\n"
    "code = b'\\xb8\\x14\\x00\\x00\\x00\\xcd\\x80\\xc3'\n"
    "ctypes.memmove(page, code, len(code))\n"
    "return ctypes.CFUNCTYPE(ctypes.c_int)(page)() == os_probe['pid']"
)
_X32_OPENAT: Final = (
    "import ctypes\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "libc.syscall(0x40000000 | 257, -100, ctypes.c_char_p(b'/etc/hostname'), 0)\n"
    "return ctypes.get_errno()"
)


async def _abi_run(source: str, *, filtered: bool) -> RunResult:
    async with probing_pool(limits=PLAIN, size=0, seccomp=filtered) as pool:
        with anyio.fail_after(GUARD):
            return await pool.run(source, tool_names=[], handler=EchoHandler())


def _killed_by_the_filter(result: RunResult) -> bool:
    return (
        result.error is not None
        and result.error.kind == "worker-exit"
        and "SIGSYS" in result.error.message
    )


async def test_an_i386_system_call_kills_the_child() -> None:
    # int 0x80 from a 64-bit process reaches the i386 table, where the numbers
    # mean other calls: libseccomp's filter refuses the foreign architecture.
    unfiltered = await _abi_run(_I386_GETPID, filtered=False)
    if unfiltered.value is not True:
        reason = unfiltered.error or unfiltered.value
        pytest.skip(f"this kernel runs no i386 system calls: {reason}")
    assert _killed_by_the_filter(await _abi_run(_I386_GETPID, filtered=True))


async def test_an_x32_system_call_kills_the_child() -> None:
    # x32 numbers (bit 30 set) reach the same table as x86_64 ones on kernels
    # built with x32: the filter kills the process instead of matching them.
    unfiltered = await _abi_run(_X32_OPENAT, filtered=False)
    assert unfiltered.error is None, unfiltered.error
    assert unfiltered.value in (0, errno.ENOSYS)  # the call reached the kernel
    assert _killed_by_the_filter(await _abi_run(_X32_OPENAT, filtered=True))


# ---------------------------------------------------------------- the memory the allocators need

_ALLOCATOR_ADVICE: Final = (
    "import ctypes\n"
    "libc = ctypes.CDLL(None, use_errno=True)\n"
    "libc.syscall.restype = ctypes.c_long\n"
    "libc.syscall.argtypes = (ctypes.c_long,) * 6\n"
    "page = libc.syscall(9, 0, 4096, 3, 0x22, -1, 0)\n"
    "return [libc.syscall(28, page, 4096, advice, 0, 0, 0) for advice in (4, 8)]"
)


async def test_the_advice_the_allocators_give_passes_the_filter() -> None:
    # MADV_DONTNEED (glibc's malloc_trim, heap shrinking and thread stacks) and
    # MADV_FREE (mimalloc): both only give pages back.
    result = await _abi_run(_ALLOCATOR_ADVICE, filtered=True)
    assert result.error is None, result.error
    assert result.value == [0, 0]


#: A process that loads the filter as compiled for children whose file
#: mappings are sealed or not, then grows an anonymous page with ``mremap``
#: and a bytearray to 32 MiB (glibc's ``realloc`` of a block it mapped whole).
_OWN_FILTER: Final = """\
import ctypes, json, os, sys
from sandbox._seccomp import compile_filter, load_filter
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = (ctypes.c_long,) * 6
program = compile_filter(files_sealed=sys.argv[1] == "sealed")
assert libc.prctl(38, 1, 0, 0, 0) == 0  # no_new_privs: a filter without privileges
load_filter(program)
page = libc.syscall(9, 0, 4096, 3, 0x22, -1, 0)
moved = libc.syscall(25, page, 4096, 1 << 20, 1, 0, 0)
refused = ctypes.get_errno() if moved == -1 else 0
grown = bytearray()
for _ in range(512):
    grown += bytes(65536)
sys.stdout.write(json.dumps([program.allows_mremap, refused, len(grown)]))
sys.stdout.flush()
os._exit(0)
"""


@pytest.mark.parametrize(("sealed", "refused"), [(True, 0), (False, _EPERM)])
def test_mremap_is_allowed_only_for_children_whose_file_mappings_are_sealed(
    sealed: bool, refused: int
) -> None:
    # Where the zygote cannot seal its file mappings (before Linux 6.10), the
    # filter has no mremap at all, and glibc's realloc copies instead.
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", _OWN_FILTER, "sealed" if sealed else "unsealed"],
        cwd=root, capture_output=True, text=True, timeout=GUARD, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [sealed, refused, 512 * 65536]


# ---------------------------------------------------------------- the list itself


def test_no_part_of_the_list_holds_a_call_that_must_stay_refused() -> None:
    assert not set(MEASURED_SYSCALLS) & NEVER_ALLOWED
    assert not set(REASONED_SYSCALLS) & NEVER_ALLOWED
    assert not set(ALLOWED_SYSCALLS) & NEVER_ALLOWED
    assert not {rule.syscall for rule in ARGUMENT_RULES} & NEVER_ALLOWED


def test_every_measured_call_is_allowed_with_or_without_argument_rules() -> None:
    conditional = {rule.syscall for rule in ARGUMENT_RULES}
    for name in MEASURED_SYSCALLS:
        assert name in ALLOWED_SYSCALLS or name in conditional, name


def test_calls_with_argument_rules_are_not_also_allowed_whole() -> None:
    for rule in ARGUMENT_RULES:
        assert rule.syscall not in ALLOWED_SYSCALLS


def test_madvise_is_allowed_only_with_the_advice_that_gives_pages_back() -> None:
    forms = {rule.conditions for rule in ARGUMENT_RULES if rule.syscall == "madvise"}
    assert forms == {((2, "EQ", 4, 0),), ((2, "EQ", 8, 0),)}  # MADV_DONTNEED, MADV_FREE
    assert "madvise" not in ALLOWED_SYSCALLS
