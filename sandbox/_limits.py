"""The OS layer's primitives, applied inside a freshly forked child.

Each function applies one protection and raises :class:`ProtectionError` naming
it when it cannot; the child then exits with that protection's exit code (it
fails closed). What the platform cannot offer at all (no seccomp, not Linux,
not root) is found once by :func:`probe_platform` in the zygote and reported
in every run's ``Layers``, so nothing is downgraded silently.

This module runs in the child: stdlib and ``pyseccomp`` only.
"""

from __future__ import annotations

import ctypes
import errno
import os
import platform
import resource
import sys
from dataclasses import dataclass
from typing import Final

__all__ = [
    "DENIED_SYSCALLS",
    "NOBODY",
    "PlatformPlan",
    "ProtectionError",
    "apply_rlimits",
    "drop_privileges",
    "load_seccomp",
    "probe_platform",
    "set_no_new_privs",
    "set_parent_death_signal",
]

#: The uid and gid a child drops to when the host runs as root (``nobody``).
NOBODY: Final = 65534

_PR_SET_PDEATHSIG: Final = 1
_PR_SET_SECCOMP: Final = 22
_PR_CAPBSET_DROP: Final = 24
_PR_SET_NO_NEW_PRIVS: Final = 38
_PR_GET_NO_NEW_PRIVS: Final = 39
_PR_CAP_AMBIENT: Final = 47
_PR_CAP_AMBIENT_CLEAR_ALL: Final = 4
_SECCOMP_MODE_FILTER: Final = 2
_F_SETOWN: Final = 8
_F_SETOWN_EX: Final = 15
_FIOSETOWN: Final = 0x8901
_SIOCSPGRP: Final = 0x8902
_LINUX_CAPABILITY_VERSION_3: Final = 0x20080522

#: Syscalls the filter answers with ``EPERM``. Everything else is allowed: the
#: interpreter and its event loop need memory, time, epoll and reads/writes on
#: the descriptors they already hold.
DENIED_SYSCALLS: Final[tuple[str, ...]] = (
    # Process creation: no child of the child, no new program image.
    "fork", "vfork", "clone", "clone3", "execve", "execveat",
    # Signals and tracing aimed at other processes (other children share the
    # unprivileged uid, so plain permission checks would let one kill another).
    "kill", "tkill", "tgkill", "rt_sigqueueinfo", "rt_tgsigqueueinfo",
    "pidfd_open", "pidfd_send_signal", "pidfd_getfd", "ptrace",
    "process_vm_readv", "process_vm_writev", "process_madvise",
    # Leaving the process group the host kills as a whole; prctl would let a
    # program clear its parent-death signal and outlive a dead zygote.
    "setpgid", "setsid", "prctl",
    # Reaching other processes of the same unprivileged uid (other children):
    # their scheduling, priority and memory placement. prlimit64 is allowed
    # for the child itself only (a rule below), which is how setrlimit works.
    "setpriority", "sched_setscheduler", "sched_setparam", "sched_setaffinity",
    "sched_setattr", "ioprio_set", "migrate_pages", "move_pages", "kcmp",
    # State that outlives the child and could reach a later run: System V IPC
    # objects and POSIX message queues persist until removed.
    "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semctl",
    "shmget", "shmat", "shmdt", "shmctl",
    "mq_open", "mq_unlink", "mq_timedsend", "mq_timedreceive", "mq_notify", "mq_getsetattr",
    # Network: no socket of any family. The event loop's self-pipe is a
    # socketpair, which stays allowed for AF_UNIX only (a rule below).
    "socket", "connect", "bind", "listen", "accept", "accept4",
    # Opening and changing files.
    "open", "openat", "openat2", "creat", "open_by_handle_at", "name_to_handle_at",
    "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat", "renameat2",
    "link", "linkat", "symlink", "symlinkat", "chmod", "fchmod", "fchmodat",
    "chown", "fchown", "lchown", "fchownat", "truncate", "ftruncate", "mknod", "mknodat",
    "utime", "utimes", "utimensat", "futimesat",
    "setxattr", "lsetxattr", "fsetxattr", "removexattr", "lremovexattr", "fremovexattr",
    "memfd_create", "memfd_secret", "inotify_init", "inotify_init1", "fanotify_init",
    "chdir", "fchdir", "chroot",
    # Kernel surfaces that bypass the rules above or widen the attack surface:
    # io_uring performs opens and connects without passing through seccomp.
    "io_uring_setup", "io_uring_enter", "io_uring_register",
    "bpf", "perf_event_open", "userfaultfd", "keyctl", "add_key", "request_key",
    "unshare", "setns", "personality", "mount", "umount2", "pivot_root",
    "open_tree", "move_mount", "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr",
    "init_module", "finit_module", "delete_module", "kexec_load", "kexec_file_load",
    "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog",
    "settimeofday", "clock_settime", "adjtimex", "clock_adjtime",
    "sethostname", "setdomainname", "iopl", "ioperm",
    # Newer xattr and mount calls (numbers below for libseccomp versions that
    # do not know them yet).
    "setxattrat", "removexattrat", "open_tree_attr", "fchmodat2",
)

#: x86_64 numbers of denied syscalls that an older libseccomp cannot name.
_NEWER_X86_64: Final[dict[str, int]] = {
    "fchmodat2": 452,
    "setxattrat": 463,
    "removexattrat": 466,
    "open_tree_attr": 467,
}


class ProtectionError(Exception):
    """A protection could not be applied in the child; the child must not run."""

    def __init__(self, protection: str, detail: str) -> None:
        self.protection = protection
        self.detail = detail
        super().__init__(f"{protection}: {detail}")


def _libc() -> ctypes.CDLL:
    return ctypes.CDLL(None, use_errno=True)


_LIBC: Final = _libc()
_LIBC.prctl.restype = ctypes.c_int
_LIBC.prctl.argtypes = (
    ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong
)


def _prctl(option: int, arg2: int = 0, arg3: int = 0, protection: str = "prctl") -> int:
    result: int = _LIBC.prctl(option, arg2, arg3, 0, 0)
    if result < 0:
        code = ctypes.get_errno()
        raise ProtectionError(protection, f"prctl({option}) failed: {os.strerror(code)}")
    return result


class _SockFilter(ctypes.Structure):
    _fields_ = (
        ("code", ctypes.c_uint16),
        ("jt", ctypes.c_uint8),
        ("jf", ctypes.c_uint8),
        ("k", ctypes.c_uint32),
    )


class _SockFprog(ctypes.Structure):
    _fields_ = (("len", ctypes.c_ushort), ("filter", ctypes.POINTER(_SockFilter)))


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    )


@dataclass(frozen=True, slots=True)
class PlatformPlan:
    """What this platform offers, found once in the zygote before any fork.

    Attributes:
        linux: Running on Linux (prctl, seccomp and the rlimits used exist).
        drop_to: The uid/gid a child drops to, or ``None`` when the zygote does
            not run as root (there is nothing to drop).
        last_capability: The highest capability number, for the bounding set.
        seccomp_program: The compiled filter, ready to load; ``None`` when
            seccomp is unavailable.
        reasons: One line per protection this platform cannot offer.
    """

    linux: bool
    drop_to: int | None
    last_capability: int
    seccomp_program: _SockFprog | None
    reasons: tuple[str, ...]


def probe_platform() -> PlatformPlan:
    """Find which protections this platform offers and compile the seccomp filter."""
    if not sys.platform.startswith("linux"):
        reason = f"the platform is {sys.platform!r}, not Linux"
        return PlatformPlan(
            linux=False,
            drop_to=None,
            last_capability=0,
            seccomp_program=None,
            reasons=tuple(
                f"{name}: {reason}" for name in ("rlimits", "uid_drop", "no_new_privs", "seccomp")
            ),
        )
    reasons: list[str] = []
    drop_to: int | None = NOBODY
    if os.geteuid() != 0:
        drop_to = None
        reasons.append(
            f"uid_drop: the host does not run as root (uid {os.geteuid()}), "
            "so the child keeps that unprivileged uid"
        )
    try:
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as stream:
            last_capability = int(stream.read())
    except (OSError, ValueError):
        last_capability = 40
    program: _SockFprog | None = None
    try:
        program = _compile_seccomp()
    except Exception as exc:  # any failure means no filter; it is reported, not hidden
        reasons.append(f"seccomp: the filter could not be built: {type(exc).__name__}: {exc}")
    return PlatformPlan(
        linux=True,
        drop_to=drop_to,
        last_capability=last_capability,
        seccomp_program=program,
        reasons=tuple(reasons),
    )


def _compile_seccomp() -> _SockFprog:
    # Compiled once in the zygote through libseccomp; each child only loads the
    # resulting BPF program, which takes microseconds instead of the ~0.3 ms
    # libseccomp needs to generate it.
    import socket

    import pyseccomp

    deny = pyseccomp.ERRNO(errno.EPERM)
    syscall_filter = pyseccomp.SyscallFilter(pyseccomp.ALLOW)
    native = pyseccomp.system_arch()
    for name in DENIED_SYSCALLS:
        number = pyseccomp.resolve_syscall(native, name)
        if number < 0 and platform.machine() == "x86_64":
            # Newer than this libseccomp: deny by number.
            number = _NEWER_X86_64.get(name, -1)
        if number < 0:
            # A syscall this architecture does not have (``open`` on arm64)
            # cannot be made either; nothing to deny.
            continue
        syscall_filter.add_rule(deny, number)
    syscall_filter.add_rule(deny, "socketpair", pyseccomp.Arg(0, pyseccomp.NE, socket.AF_UNIX))
    # Stream pairs only: a datagram socket can send to any named or abstract
    # Unix socket on the machine with sendto(), connect() or not.
    for kind in (socket.SOCK_DGRAM, socket.SOCK_SEQPACKET):
        type_bits = pyseccomp.Arg(1, pyseccomp.MASKED_EQ, 0xF, int(kind))
        syscall_filter.add_rule(deny, "socketpair", type_bits)
    syscall_filter.add_rule(deny, "prlimit64", pyseccomp.Arg(0, pyseccomp.NE, 0))
    # Naming a signal owner for a descriptor (then O_ASYNC) makes the kernel
    # signal that process on I/O: a kill of another same-uid process without
    # kill(). The command is an unsigned int: compare its low 32 bits only, or
    # a value with high bits set would pass the rule and still reach the kernel.
    for name, command in (
        ("fcntl", _F_SETOWN),
        ("fcntl", _F_SETOWN_EX),
        ("ioctl", _FIOSETOWN),
        ("ioctl", _SIOCSPGRP),
    ):
        low_bits = pyseccomp.Arg(1, pyseccomp.MASKED_EQ, 0xFFFFFFFF, command)
        syscall_filter.add_rule(deny, name, low_bits)
    read_end, write_end = os.pipe()
    try:
        with os.fdopen(write_end, "wb", closefd=True) as sink:
            syscall_filter.export_bpf(sink)
        data = b""
        while chunk := os.read(read_end, 65536):
            data += chunk
    finally:
        os.close(read_end)
    count = len(data) // ctypes.sizeof(_SockFilter)
    if count == 0 or len(data) % ctypes.sizeof(_SockFilter):
        raise RuntimeError(f"libseccomp exported a malformed program of {len(data)} bytes")
    instructions = (_SockFilter * count).from_buffer_copy(data)
    program = _SockFprog(count, ctypes.cast(instructions, ctypes.POINTER(_SockFilter)))
    # Keep the instructions alive as long as the program that points at them.
    program._instructions = instructions
    return program


def apply_rlimits(*, cpu_seconds: int, memory_bytes: int, max_open_files: int) -> None:
    """Set the child's resource limits (soft and hard, so they cannot be raised).

    The CPU hard limit is one second above the soft one: the kernel first sends
    ``SIGXCPU`` (reported as a CPU timeout), then ``SIGKILL`` if that is ignored.
    """
    limits = (
        (resource.RLIMIT_CPU, cpu_seconds, cpu_seconds + 1),
        (resource.RLIMIT_AS, memory_bytes, memory_bytes),
        (resource.RLIMIT_NPROC, 0, 0),
        (resource.RLIMIT_FSIZE, 0, 0),
        (resource.RLIMIT_NOFILE, max_open_files, max_open_files),
        (resource.RLIMIT_CORE, 0, 0),
    )
    for which, soft, hard in limits:
        try:
            resource.setrlimit(which, (soft, hard))
        except (OSError, ValueError) as exc:
            raise ProtectionError("rlimits", f"setrlimit({which}, {soft}) failed: {exc}") from exc


def drop_privileges(uid: int, *, last_capability: int) -> None:
    """Become ``uid``/``uid`` with no groups and no capabilities, and verify it.

    Root ignores ``RLIMIT_NPROC`` and file permissions, so this must happen
    before anything of the program runs.
    """
    try:
        for capability in range(last_capability + 1):
            _prctl(_PR_CAPBSET_DROP, capability, protection="uid_drop")
        _prctl(_PR_CAP_AMBIENT, _PR_CAP_AMBIENT_CLEAR_ALL, protection="uid_drop")
        os.setgroups([])
        os.setresgid(uid, uid, uid)
        os.setresuid(uid, uid, uid)
    except OSError as exc:
        raise ProtectionError("uid_drop", f"could not switch to uid {uid}: {exc}") from exc
    if os.getresuid() != (uid, uid, uid) or os.getresgid() != (uid, uid, uid):
        raise ProtectionError("uid_drop", f"the ids are {os.getresuid()} / {os.getresgid()}")
    if os.getgroups():
        raise ProtectionError("uid_drop", f"supplementary groups remain: {os.getgroups()}")
    header = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
    data = (_CapData * 2)()
    if _LIBC.capget(ctypes.byref(header), data) != 0:
        raise ProtectionError("uid_drop", f"capget failed: {os.strerror(ctypes.get_errno())}")
    if any(part.effective or part.permitted or part.inheritable for part in data):
        raise ProtectionError("uid_drop", "capabilities remain after the uid switch")


def set_parent_death_signal(signal_number: int, *, parent: int) -> None:
    """Die with ``signal_number`` when ``parent`` dies.

    Call it after the uid switch: changing credentials clears the setting.
    If the parent is already gone, the child exits at once.
    """
    _prctl(_PR_SET_PDEATHSIG, signal_number, protection="parent_death_signal")
    if os.getppid() != parent:
        os._exit(1)


def set_no_new_privs() -> None:
    """Set ``PR_SET_NO_NEW_PRIVS``: nothing the child runs can gain privileges."""
    _prctl(_PR_SET_NO_NEW_PRIVS, 1, protection="no_new_privs")
    if _prctl(_PR_GET_NO_NEW_PRIVS, protection="no_new_privs") != 1:
        raise ProtectionError("no_new_privs", "the flag did not stick")


def load_seccomp(program: _SockFprog) -> None:
    """Install the compiled seccomp filter (requires ``no_new_privs`` or root)."""
    _prctl(_PR_SET_SECCOMP, _SECCOMP_MODE_FILTER, ctypes.addressof(program), protection="seccomp")
