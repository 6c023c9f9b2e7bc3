"""The child's seccomp filter: an allow-list of the system calls it needs.

Everything not allowed here is refused with ``EPERM``; a system call of another
ABI (i386 through ``int 0x80``, x32 numbers on x86_64) kills the process.

The list has three parts:

* :data:`MEASURED_SYSCALLS` (``sandbox/_syscalls.py``): what children were seen
  to call once their filter was in, while running every legitimate workload.
  ``tools/derive_syscalls.py`` measures it (``strace`` of real children under a
  filter that allows and logs everything) and writes that file.
* :data:`REASONED_SYSCALLS`: calls a measurement on one machine may not see
  but the runtime can make on another, each with its reason.
* :data:`ARGUMENT_RULES`: calls allowed only with the arguments the runtime
  uses: the clock calls, which could otherwise name another process, and the
  memory calls, which could otherwise place memory where the program chooses
  or make memory ``RLIMIT_AS`` does not count (huge pages).

:data:`NEVER_ALLOWED` names the calls no part of the list may ever contain
(process creation, signals, tracing, files, sockets, IPC, ...); the tests and
the measurement tool check it, so that a measurement that saw one fails loudly
instead of widening the filter.

The filter is compiled once in the zygote (:func:`compile_filter`); each child
only loads the resulting BPF program (:func:`load_filter`). ``mremap`` is in it
only where the zygote sealed its file mappings (:func:`seal_file_mappings`), so
that no child can grow or move one of them to read the rest of its file.

This module runs in the child: stdlib and ``pyseccomp`` only.
"""

from __future__ import annotations

import ctypes
import errno
import os
from dataclasses import dataclass
from typing import Final

from sandbox._syscalls import MEASURED_SYSCALLS

__all__ = [
    "ALLOWED_SYSCALLS",
    "ARGUMENT_RULES",
    "MEASURED_SYSCALLS",
    "NEVER_ALLOWED",
    "REASONED_SYSCALLS",
    "ArgumentRule",
    "FilterProgram",
    "compile_filter",
    "file_mappings",
    "files_sealed",
    "load_filter",
    "seal_file_mappings",
    "sealing_available",
]

_PR_SET_SECCOMP: Final = 22
_SECCOMP_MODE_FILTER: Final = 2

#: Calls the runtime can make that one machine's measurement may miss.
REASONED_SYSCALLS: Final[dict[str, str]] = {
    # The clocks are read through the vDSO, without a system call, where the
    # clock source allows it; elsewhere (some virtual machines) glibc falls
    # back to the real call.
    "gettimeofday": "vDSO fallback of the wall clock",
    "time": "vDSO fallback of time()",
    "rt_sigreturn": "returning from the SIGALRM handler that flushes the log, whenever it runs",
    # A sleep or wait interrupted by a stop and continue (a debugger, a
    # SIGSTOP from root) is resumed by the kernel through this call.
    "restart_syscall": "the kernel resuming an interrupted sleep",
    # Architectures without epoll_wait (arm64) have only this form.
    "epoll_pwait": "the event loop's wait where the architecture has no epoll_wait",
}

@dataclass(frozen=True, slots=True)
class ArgumentRule:
    """One system call allowed only when its arguments match.

    Attributes:
        syscall: The call's name.
        conditions: ``(argument index, operator, a, b)`` tuples in libseccomp's
            terms, all of which must hold: for ``"EQ"`` and the other single
            comparisons ``a`` is the value (``b`` is 0); for ``"MASKED_EQ"``
            the argument masked with ``a`` must equal ``b``. Comparisons are on
            the full 64 bits, so a value with stray high bits does not match
            and is refused.
        why: What needs the call, and why other arguments are refused.
        needs_sealed_files: The rule is left out of a filter for children whose
            file mappings are not sealed (see :func:`compile_filter`).
    """

    syscall: str
    conditions: tuple[tuple[int, str, int, int], ...]
    why: str
    needs_sealed_files: bool = False


#: The clock ids a clock call may name: the kernel's fixed clocks, 0 to 15
#: (``CLOCK_REALTIME`` 0, ``CLOCK_MONOTONIC`` 1, the process's and thread's own
#: CPU clocks 2 and 3, ``CLOCK_BOOTTIME`` 7, ``CLOCK_TAI`` 11, ...). A negative
#: id names another process's CPU clock (``(~pid << 3) | 2``) or a clock device
#: by descriptor, and the kernel checks no permission on a process's clock: any
#: process on the machine could be found, timed and given a CPU timer. Compared
#: on all 64 bits, so a small id with stray high bits, which the kernel would
#: cut to a negative ``int``, is refused too.
_FIXED_CLOCKS: Final = (0, "MASKED_EQ", 0xFFFF_FFFF_FFFF_FFF0, 0)

_PROT_READ_WRITE: Final = 0x3
_MAP_PRIVATE_ANONYMOUS: Final = 0x22
_MREMAP_MAYMOVE: Final = 0x1
#: The advice values the allocators give: glibc's ``malloc_trim`` and heap
#: shrinking, and its thread stacks, ``MADV_DONTNEED``; mimalloc (CPython 3.13's
#: free-threaded build) ``MADV_FREE`` first. Both only give pages back.
_MADV_DONTNEED: Final = 4
_MADV_FREE: Final = 8

#: Calls allowed with these arguments only (several rules for one call are
#: alternatives). Every allowed call whose argument can name something outside
#: the child - another process, a device, a file behind a mapping - has one,
#: and so has every call whose argument decides what it costs the host beyond
#: the child's limits (where in the address space memory lands decides the
#: kernel memory its page tables take, and ``madvise``'s advice whether a 4 KiB
#: page of address space holds 2 MiB of RAM: no call may make memory that
#: ``RLIMIT_AS`` does not count); the others name only the child's own
#: descriptors, memory, signals and timers. ``socketpair`` (only
#: ``AF_UNIX``, ``SOCK_STREAM``) and ``ioctl`` (only ``FIONBIO``) were here for
#: the event loop's self-pipe, which the run's loop no longer has; a child under
#: its filter makes no socket and no ``ioctl`` at all.
ARGUMENT_RULES: Final[tuple[ArgumentRule, ...]] = (
    ArgumentRule(
        "mmap",
        ((0, "EQ", 0, 0), (2, "EQ", _PROT_READ_WRITE, 0), (3, "EQ", _MAP_PRIVATE_ANONYMOUS, 0)),
        "the allocators' fresh memory (pymalloc's arenas, malloc's large blocks), the one form "
        "measured: no address of the program's choosing (scattered single pages pin page tables "
        "RLIMIT_AS does not count), nothing executable, shared, locked or huge",
    ),
    *(
        ArgumentRule(
            "mremap",
            ((3, "EQ", flags, 0),),
            "realloc of a large block; never MREMAP_FIXED or MREMAP_DONTUNMAP, which place "
            "memory at an address of the program's choosing; and only where every file "
            "mapping the child inherits is sealed: grown, one page of a library's mapping "
            "maps the rest of its file, which the kernel checks no permission for (glibc's "
            "realloc copies instead where the call is refused)",
            needs_sealed_files=True,
        )
        for flags in (0, _MREMAP_MAYMOVE)
    ),
    *(
        ArgumentRule(
            "madvise",
            ((2, "EQ", advice, 0),),
            "the allocators giving freed pages back (MADV_DONTNEED, MADV_FREE); never "
            "MADV_HUGEPAGE or MADV_COLLAPSE (a 2 MiB page behind 4 KiB of address space, "
            "which RLIMIT_AS does not count), MADV_MERGEABLE (memory shared with other "
            "processes), MADV_POPULATE_*, MADV_PAGEOUT or any other",
        )
        for advice in (_MADV_DONTNEED, _MADV_FREE)
    ),
    ArgumentRule(
        "clock_gettime",
        (_FIXED_CLOCKS,),
        "the vDSO fallback of time.time, time.monotonic and time.perf_counter (where the "
        "clock source allows, the clocks are read without a system call); only fixed clocks",
    ),
    ArgumentRule(
        "clock_nanosleep",
        (_FIXED_CLOCKS,),
        "time.sleep (CLOCK_MONOTONIC); only fixed clocks",
    ),
)

#: Calls that no measurement, reason or rule may allow: with them a program
#: could create processes, reach other processes, open or change files, reach
#: the network, leave state for a later run, or widen the kernel's attack surface.
NEVER_ALLOWED: Final[frozenset[str]] = frozenset({
    "fork", "vfork", "clone", "clone3", "execve", "execveat",
    "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "ptrace",
    "process_vm_readv", "process_vm_writev", "process_madvise",
    "setpgid", "setsid", "prctl", "fcntl", "prlimit64",
    "setpriority", "sched_setscheduler", "sched_setparam", "sched_setaffinity",
    "sched_setattr", "ioprio_set", "migrate_pages", "move_pages", "kcmp",
    "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl",
    "shmget", "shmat", "shmdt", "shmctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    "socket", "socketpair", "connect", "bind", "listen", "accept", "accept4", "sendto", "sendmsg",
    "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
    "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
    "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat", "fchmodat2",
    "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "mknod", "mknodat",
    "utime", "utimes", "utimensat", "futimesat",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    "memfd_create", "memfd_secret", "inotify_init", "inotify_init1", "fanotify_init",
    "chdir", "fchdir", "chroot",
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "unshare", "setns", "personality", "mount", "umount2", "pivot_root",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "seccomp",
    "settimeofday", "clock_settime", "adjtimex", "clock_adjtime",
    "sethostname", "setdomainname", "iopl", "ioperm",
    "setuid", "setgid", "setreuid", "setregid", "setresuid", "setresgid", "setgroups",
    "setfsuid", "setfsgid", "capset",
    # Memory that is executable, locked, huge, shared or a file's: what the
    # memory rules refuse, by another call.
    "mprotect", "pkey_mprotect", "remap_file_pages", "mlock", "mlock2", "mlockall",
})

_CONDITIONAL: Final = frozenset(rule.syscall for rule in ARGUMENT_RULES)

#: Calls allowed whatever their arguments.
ALLOWED_SYSCALLS: Final[tuple[str, ...]] = tuple(
    sorted((set(MEASURED_SYSCALLS) | set(REASONED_SYSCALLS)) - _CONDITIONAL)
)


class _SockFilter(ctypes.Structure):
    _fields_ = (
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    )


class FilterProgram(ctypes.Structure):
    """A compiled BPF program (``struct sock_fprog``), ready for ``PR_SET_SECCOMP``.

    ``allows_mremap`` says whether the rules that need sealed file mappings
    (``mremap``) are in it (set by :func:`compile_filter`).
    """

    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter)))
    allows_mremap: bool


_LIBC: Final = ctypes.CDLL(None, use_errno=True)
_LIBC.prctl.restype = ctypes.c_int
_LIBC.prctl.argtypes = (
    ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong
)


def compile_filter(*, measuring: bool = False, files_sealed: bool | None = None) -> FilterProgram:
    """Build the filter through libseccomp and export it as a BPF program.

    Compiled once in the zygote; each child only loads the result, which takes
    microseconds instead of the ~0.3 ms libseccomp needs to generate it.

    Args:
        measuring: For ``tools/derive_syscalls.py`` only: a call that is not
            allowed is logged (``SCMP_ACT_LOG``) and performed instead of
            refused, so that a measurement run behaves as if everything were
            allowed and the kernel's log names whatever the list lacks.
        files_sealed: Whether the children's file mappings are sealed
            (:func:`seal_file_mappings`); ``None``: whether this kernel can
            seal them (:func:`sealing_available`). Without sealed mappings the
            rules marked ``needs_sealed_files`` are left out (``mremap`` is
            refused), and the zygote must seal before its first fork if it
            hands out a filter compiled with them (``allows_mremap``).

    Raises:
        ImportError: ``pyseccomp`` or libseccomp is not installed.
        RuntimeError: libseccomp exported a malformed program.
    """
    import pyseccomp

    refuse = pyseccomp.LOG if measuring else pyseccomp.ERRNO(errno.EPERM)
    syscall_filter = pyseccomp.SyscallFilter(refuse)
    # Any other ABI (i386, and x32 numbers on x86_64) kills the process:
    # nothing in the child ever uses one, and its numbers mean other calls.
    syscall_filter.set_attr(pyseccomp.Attr.ACT_BADARCH, pyseccomp.KILL_PROCESS)
    native = pyseccomp.system_arch()
    for name in ALLOWED_SYSCALLS:
        if pyseccomp.resolve_syscall(native, name) < 0:
            # A call this architecture does not have (``epoll_wait`` or
            # ``time`` on arm64) cannot be made there either.
            continue
        syscall_filter.add_rule(pyseccomp.ALLOW, name)
    if files_sealed is None:
        files_sealed = sealing_available()
    for rule in ARGUMENT_RULES:
        if rule.needs_sealed_files and not files_sealed:
            continue
        arguments = [
            pyseccomp.Arg(index, getattr(pyseccomp, operator), *_operands(operator, a, b))
            for index, operator, a, b in rule.conditions
        ]
        syscall_filter.add_rule(pyseccomp.ALLOW, rule.syscall, *arguments)
    program = _export(syscall_filter)
    program.allows_mremap = files_sealed
    return program


def _operands(operator: str, value: int, extra: int) -> tuple[int, ...]:
    # MASKED_EQ takes (mask, value); the others take one value.
    return (value, extra) if operator == "MASKED_EQ" else (value,)


def _export(syscall_filter: object) -> FilterProgram:
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "wb", closefd=True) as sink:
            syscall_filter.export_bpf(sink)  # type: ignore[attr-defined]
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
    finally:
        os.close(read_end)
    size = ctypes.sizeof(_SockFilter)
    count = len(data) // size
    if count == 0 or len(data) % size:
        raise RuntimeError(f"libseccomp exported a malformed program of {len(data)} bytes")
    instructions = (_SockFilter * count).from_buffer_copy(data)
    program = FilterProgram(count, ctypes.cast(instructions, ctypes.POINTER(_SockFilter)))
    # Keep the instructions alive as long as the program that points at them.
    program._instructions = instructions
    return program


def load_filter(program: FilterProgram) -> None:
    """Install the compiled filter in this process (requires ``no_new_privs`` or root).

    Raises:
        OSError: The kernel refused the filter.
    """
    if _LIBC.prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(program), 0, 0) != 0:
        code = ctypes.get_errno()
        raise OSError(code, f"prctl(PR_SET_SECCOMP) failed: {os.strerror(code)}")


# ---------------------------------------------------------------- sealed file mappings

#: ``mseal`` (Linux 6.10): the same number in the tables of both architectures
#: the sandbox runs on.
_SYS_MSEAL: Final = {"x86_64": 462, "aarch64": 462}
_LIBC.syscall.restype = ctypes.c_long


def _mseal(start: int, length: int) -> int:
    """``mseal(start, length, 0)``: 0, or the errno (``ENOSYS`` where there is none)."""
    number = _SYS_MSEAL.get(os.uname().machine)
    if number is None:
        return errno.ENOSYS
    result = _LIBC.syscall(
        ctypes.c_long(number), ctypes.c_ulong(start), ctypes.c_size_t(length), ctypes.c_ulong(0)
    )
    return 0 if result == 0 else ctypes.get_errno()


def sealing_available() -> bool:
    """Whether this kernel seals mappings (``mseal``, Linux 6.10 and later, 64-bit)."""
    return _mseal(0, 0) == 0


def file_mappings() -> list[tuple[int, int]]:
    """This process's file-backed mappings, as ``(start, end)``, adjacent ones joined.

    A mapping is file-backed when ``/proc/self/maps`` gives it an inode: a
    library's, the interpreter's, the locale's, a deleted file's. Anonymous
    memory, the heap, the stack and the kernel's ``[vdso]``/``[vvar]`` have none.
    """
    ranges: list[tuple[int, int]] = []
    with open("/proc/self/maps", "rb") as maps:
        for line in maps:
            fields = line.split(None, 5)
            if len(fields) < 5 or fields[4] == b"0":
                continue
            low, _, high = fields[0].partition(b"-")
            start, end = int(low, 16), int(high, 16)
            if ranges and ranges[-1][1] == start:
                ranges[-1] = (ranges[-1][0], end)
            else:
                ranges.append((start, end))
    return ranges


_sealed = False


def files_sealed() -> bool:
    """Whether :func:`seal_file_mappings` sealed this process's (or, in a child, its zygote's)."""
    return _sealed


def seal_file_mappings() -> int:
    """Seal every file-backed mapping of this process; return how many ranges were sealed.

    For the zygote, after the last file it maps and before its first fork:
    a sealed mapping cannot be grown, moved, shrunk, unmapped or have its
    protection changed, by this process or any child it forks (children
    inherit the seal). ``mremap`` of one page of a library's mapping to the
    file's length would otherwise map the rest of that file, which the
    kernel checks no permission for: a child could read every file the
    zygote has mapped, from directories its uid cannot enter. Writing to a
    private mapping's pages (a library's data) is unaffected.

    Raises:
        OSError: The kernel refused to seal a mapping (``ENOSYS``: it cannot
            seal at all).
    """
    global _sealed
    ranges = file_mappings()
    for start, end in ranges:
        code = _mseal(start, end - start)
        if code:
            raise OSError(code, f"mseal of {start:#x}-{end:#x} failed: {os.strerror(code)}")
    _sealed = True
    return len(ranges)
