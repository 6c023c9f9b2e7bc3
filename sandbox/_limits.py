"""The OS layer's primitives, applied inside a freshly forked child.

Each function applies one protection and raises :class:`ProtectionError` naming
it when it cannot; the child then exits with that protection's exit code (it
fails closed). What the platform cannot offer at all (no seccomp, not Linux,
not root) is found once by :func:`probe_platform` in the zygote and reported
in every run's ``Layers``, so nothing is downgraded silently. The seccomp
filter itself is built in ``sandbox._seccomp``.

This module runs in the child: stdlib and ``pyseccomp`` only.
"""

from __future__ import annotations

import ctypes
import os
import resource
import sys
from dataclasses import dataclass, replace
from typing import Final

from sandbox import _seccomp

__all__ = [
    "CEILING_RESOURCES",
    "PlatformPlan",
    "ProtectionError",
    "RlimitValues",
    "apply_rlimits",
    "drop_privileges",
    "empty_bounding_set",
    "load_seccomp",
    "probe_platform",
    "rlimit_values",
    "set_no_new_privs",
    "set_parent_death_signal",
]

_PR_SET_PDEATHSIG: Final = 1
_PR_CAPBSET_READ: Final = 23
_PR_CAPBSET_DROP: Final = 24
_PR_SET_NO_NEW_PRIVS: Final = 38
_PR_GET_NO_NEW_PRIVS: Final = 39
_PR_CAP_AMBIENT: Final = 47
_PR_CAP_AMBIENT_CLEAR_ALL: Final = 4
_LINUX_CAPABILITY_VERSION_3: Final = 0x20080522

#: Set to ``True`` only by ``tools/derive_syscalls.py``, in the zygote it
#: starts: the filter then logs and performs what it would refuse.
MEASURING = False

#: The limits whose inherited hard value can be lower than the configured one,
#: in the order :class:`PlatformPlan` reports them (CPU, address space, files).
CEILING_RESOURCES: Final = (resource.RLIMIT_CPU, resource.RLIMIT_AS, resource.RLIMIT_NOFILE)

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


class _CapHeader(ctypes.Structure):
    _fields_ = (("version", ctypes.c_uint32), ("pid", ctypes.c_int))


class _CapData(ctypes.Structure):
    _fields_ = (
        ("effective", ctypes.c_uint32),
        ("permitted", ctypes.c_uint32),
        ("inheritable", ctypes.c_uint32),
    )


# Made in the zygote, once: a child that made them itself (the function
# pointer, the array type, the instances) paid for it in page faults on
# every fork. Each child writes its own copy-on-write copy, which ``capget``
# overwrites.
_LIBC.capget.restype = ctypes.c_int
_LIBC.capget.argtypes = (ctypes.c_void_p, ctypes.c_void_p)
_CAP_HEADER: Final = _CapHeader(_LINUX_CAPABILITY_VERSION_3, 0)
_CAP_DATA: Final = (_CapData * 2)()


@dataclass(frozen=True, slots=True)
class PlatformPlan:
    """What this platform offers, found once in the zygote before any fork.

    Attributes:
        linux: Running on Linux (prctl, seccomp and the rlimits used exist).
        uid_drop: The zygote runs as root, so each child drops to a uid of its
            own (which the host names in each spawn request).
        last_capability: The highest capability number, for the bounding set.
        bounding_set_empty: The zygote emptied its capability bounding set
            (:func:`empty_bounding_set`), so every child inherits an empty one.
        seccomp_program: The compiled filter, ready to load; ``None`` when
            seccomp is unavailable.
        ceilings: The hard limits the zygote inherited for
            :data:`CEILING_RESOURCES`, ``resource.RLIM_INFINITY`` for none.
            A child cannot raise a limit above them, so it keeps the lower one.
        reasons: One line per protection this platform cannot offer.
    """

    linux: bool
    uid_drop: bool
    last_capability: int
    seccomp_program: _seccomp.FilterProgram | None
    ceilings: tuple[int, int, int]
    reasons: tuple[str, ...]
    bounding_set_empty: bool = False


def probe_platform() -> PlatformPlan:
    """Find which protections this platform offers and compile the seccomp filter."""
    unlimited = (resource.RLIM_INFINITY,) * 3
    if not sys.platform.startswith("linux"):
        reason = f"the platform is {sys.platform!r}, not Linux"
        return PlatformPlan(
            linux=False,
            uid_drop=False,
            last_capability=0,
            seccomp_program=None,
            ceilings=unlimited,
            reasons=tuple(
                f"{name}: {reason}" for name in ("rlimits", "uid_drop", "no_new_privs", "seccomp")
            ),
        )
    reasons: list[str] = []
    uid_drop = os.geteuid() == 0
    if not uid_drop:
        reasons.append(
            f"uid_drop: the host does not run as root (uid {os.geteuid()}), "
            "so the child keeps that unprivileged uid"
        )
    try:
        with open("/proc/sys/kernel/cap_last_cap", encoding="ascii") as stream:
            last_capability = int(stream.read())
    except (OSError, ValueError):
        last_capability = 40
    program: _seccomp.FilterProgram | None = None
    try:
        program = _seccomp.compile_filter(measuring=MEASURING)
    except Exception as exc:  # any failure means no filter; it is reported, not hidden
        reasons.append(f"seccomp: the filter could not be built: {type(exc).__name__}: {exc}")
    if program is not None and MEASURING:
        reasons.append("seccomp: measuring: calls off the allow-list are logged, not refused")
    cpu, memory, files = (resource.getrlimit(which)[1] for which in CEILING_RESOURCES)
    return PlatformPlan(
        linux=True,
        uid_drop=uid_drop,
        last_capability=last_capability,
        seccomp_program=program,
        ceilings=(cpu, memory, files),
        reasons=tuple(reasons),
    )


@dataclass(frozen=True, slots=True)
class RlimitValues:
    """The limits a child sets: the configured ones, or stricter inherited ones.

    Attributes:
        cpu_soft: ``RLIMIT_CPU`` soft limit (``SIGXCPU``), in seconds.
        cpu_hard: ``RLIMIT_CPU`` hard limit (``SIGKILL``), normally one more.
        memory_bytes: ``RLIMIT_AS``, soft and hard.
        max_open_files: ``RLIMIT_NOFILE``, soft and hard.
    """

    cpu_soft: int
    cpu_hard: int
    memory_bytes: int
    max_open_files: int


def _below(value: int, ceiling: int) -> int:
    return value if ceiling == resource.RLIM_INFINITY else min(value, ceiling)


def rlimit_values(
    *, cpu_seconds: int, memory_bytes: int, max_open_files: int, ceilings: tuple[int, int, int]
) -> RlimitValues:
    """The limits to set: each configured one, unless the inherited hard limit is lower.

    An unprivileged process cannot raise a hard limit, and a stricter limit
    set by the environment (a container, systemd, a CI runner) is no
    downgrade: the child keeps it. Under a CPU ceiling the soft limit stays one
    second below the hard one where it can, so that ``SIGXCPU`` still comes first.
    """
    cpu_ceiling, memory_ceiling, files_ceiling = ceilings
    cpu_hard = _below(cpu_seconds + 1, cpu_ceiling)
    cpu_soft = min(cpu_seconds, cpu_hard - 1) if cpu_hard > 1 else cpu_hard
    return RlimitValues(
        cpu_soft=cpu_soft,
        cpu_hard=cpu_hard,
        memory_bytes=_below(memory_bytes, memory_ceiling),
        max_open_files=_below(max_open_files, files_ceiling),
    )


def apply_rlimits(*, cpu_seconds: int, memory_bytes: int, max_open_files: int) -> RlimitValues:
    """Set the child's resource limits (soft and hard, so they cannot be raised).

    The CPU hard limit is one second above the soft one: the kernel first sends
    ``SIGXCPU`` (reported as a CPU timeout), then ``SIGKILL`` if that is ignored.
    A limit this process inherited lower than configured is kept
    (:func:`rlimit_values`). Returns the values set.
    """
    ceilings = tuple(resource.getrlimit(which)[1] for which in CEILING_RESOURCES)
    assert len(ceilings) == 3
    values = rlimit_values(
        cpu_seconds=cpu_seconds,
        memory_bytes=memory_bytes,
        max_open_files=max_open_files,
        ceilings=ceilings,
    )
    limits = (
        (resource.RLIMIT_CPU, values.cpu_soft, values.cpu_hard),
        (resource.RLIMIT_AS, values.memory_bytes, values.memory_bytes),
        (resource.RLIMIT_NPROC, 0, 0),
        (resource.RLIMIT_FSIZE, 0, 0),
        (resource.RLIMIT_NOFILE, values.max_open_files, values.max_open_files),
        (resource.RLIMIT_CORE, 0, 0),
    )
    for which, soft, hard in limits:
        try:
            resource.setrlimit(which, (soft, hard))
        except (OSError, ValueError) as exc:
            raise ProtectionError("rlimits", f"setrlimit({which}, {soft}) failed: {exc}") from exc
    return values


def empty_bounding_set(plan: PlatformPlan) -> PlatformPlan:
    """Empty this process's capability bounding set; ``plan`` saying so, if it worked.

    For the zygote, once, when it runs as root: its children inherit the empty
    set, and no process can put a capability back into its bounding set, so a
    child need not drop them itself (one ``prctl`` per capability, 41 here:
    about 0.2 ms of every child's start). The zygote keeps its effective
    capabilities, which it needs; the bounding set limits only what an
    ``execve`` could grant, and the zygote never executes anything. Where the
    drop fails, the plan is returned unchanged and each child drops the set
    itself, failing closed as before.
    """
    try:
        for capability in range(plan.last_capability + 1):
            _prctl(_PR_CAPBSET_DROP, capability, protection="uid_drop")
        for capability in range(plan.last_capability + 1):
            if _prctl(_PR_CAPBSET_READ, capability, protection="uid_drop") != 0:
                return plan
    except ProtectionError:
        return plan
    return replace(plan, bounding_set_empty=True)


def drop_privileges(uid: int, *, last_capability: int, bounding_set_empty: bool) -> None:
    """Become ``uid``/``uid`` with no groups and no capabilities, and verify it.

    Root ignores ``RLIMIT_NPROC`` and file permissions, so this must happen
    before anything of the program runs. ``bounding_set_empty``: this process
    inherited an empty bounding set (:func:`empty_bounding_set`), so only the
    other sets are left to clear.
    """
    try:
        if not bounding_set_empty:
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
    header, data = _CAP_HEADER, _CAP_DATA
    header.version, header.pid = _LINUX_CAPABILITY_VERSION_3, 0
    if _LIBC.capget(ctypes.addressof(header), ctypes.addressof(data)) != 0:
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


def load_seccomp(program: _seccomp.FilterProgram) -> None:
    """Install the compiled seccomp filter (requires ``no_new_privs`` or root)."""
    try:
        _seccomp.load_filter(program)
    except OSError as exc:
        raise ProtectionError("seccomp", str(exc)) from exc
