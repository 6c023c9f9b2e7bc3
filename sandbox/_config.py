"""Limits, run results and pool statistics: the sandbox's public data types.

Everything here is plain data with no host-only imports, so the types can be
built and inspected anywhere. :class:`Limits` validates every value when it is
built; its messages show ``name=value`` so the caller sees what was wrong.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, TypeAlias, final

if TYPE_CHECKING:
    from bridge.lossless import JsonValue

__all__ = [
    "ERROR_KINDS",
    "ErrorKind",
    "Layers",
    "Limits",
    "PoolStatistics",
    "RunError",
    "RunResult",
    "format_seconds",
]

ErrorKind: TypeAlias = Literal[
    "exception",
    "compile",
    "timeout",
    "abort",
    "worker-exit",
    "invalid-output",
    "output-limit",
    "sandbox-violation",
]

#: Every failure kind a run can end with, in the order the documentation lists them.
ERROR_KINDS: Final[tuple[ErrorKind, ...]] = (
    "exception",
    "compile",
    "timeout",
    "abort",
    "worker-exit",
    "invalid-output",
    "output-limit",
    "sandbox-violation",
)

_MIB: Final = 1024 * 1024

#: The smallest address-space limit accepted: the child is a fork of a Python
#: process that has already imported the child side, so anything much smaller
#: fails before the program's first line.
MIN_MEMORY_BYTES: Final = 64 * _MIB

#: The largest value of any integer limit: far beyond every machine (4 EiB, or
#: 146 billion years of CPU), and still a value the protocol carries (MessagePack's
#: 64 bits) and ``setrlimit`` takes (a signed 64-bit ``rlim_t``, the CPU limit's
#: hard value one more). A larger one was accepted here and then failed the run:
#: ``memory_bytes=2**64`` raised ``OverflowError`` out of ``WorkerPool.run``, and
#: ``cpu_seconds=2**63`` ended every run as ``worker-exit`` (rlimits). The CPU
#: limit and the frame cap have lower bounds of their own, below.
MAX_LIMIT: Final = 2**62

#: The largest frame cap: a frame's length prefix is 4 bytes.
MAX_FRAME_BYTES: Final = 2**32 - 1

#: The largest CPU limit, 136 years: the kernel counts ``RLIMIT_CPU`` in
#: nanoseconds, and a limit past about 1.8e10 seconds wraps around 2**64 to a
#: much smaller one (``cpu_seconds=2**62`` sent ``SIGXCPU`` to a child before it
#: ran anything).
MAX_CPU_SECONDS: Final = 2**32


def format_seconds(value: float) -> str:
    """Render a duration for a message: ``60s``, ``0.5s``."""
    return f"{value:g}s"


@final
@dataclass(frozen=True, slots=True)
class Limits:
    """Resource limits for one program run; every value is checked when built.

    Args:
        wall_seconds: Wall-clock time for the whole run, measured on the host.
            Time the program spends sleeping or waiting for tools counts. Default 60.
        cpu_seconds: CPU time of the child (``RLIMIT_CPU``, whole seconds). Default 30.
        memory_bytes: Address-space limit of the child (``RLIMIT_AS``). Default 512 MiB;
            at least 64 MiB.
        max_log_bytes: Bytes of ``print`` output kept; later output is replaced by
            one truncation marker line. Default 64 KiB.
        max_value_bytes: Size of the program's return value as compact JSON; a
            larger value ends the run as ``output-limit``. Default 1 MiB.
        max_frame_bytes: Largest protocol frame either side accepts; the size is
            checked before anything is allocated. Default 16 MiB.
        max_pending_calls: Tool calls a program may have in flight at once. Default 128.
            A program that starts more (``asyncio.gather`` over a long list) is not
            refused: the child holds the later calls back and sends each when an
            earlier one returns. A child that sends more anyway ends its run as
            ``worker-exit``.
        max_open_files: ``RLIMIT_NOFILE`` of the child. Default 32.
        max_source_bytes: Size of the program's source (UTF-8). A larger program
            is refused as ``compile`` before the host spends any time compiling
            it. Default 256 KiB.
        language_layer: Testing switch for the ablation tests only: ``False`` runs
            the program as plain Python, without the RestrictedPython policy.
        os_layer: Testing switch for the ablation tests only: ``False`` still runs a
            separate child process, but without rlimits, the uid drop,
            ``no_new_privs`` and seccomp.
        tripwire: Testing switch for the ablation tests only: ``False`` runs the
            program without the child's audit hook, which otherwise ends the
            run as ``sandbox-violation`` at the first event a program never
            needs (a frame read, ``open``, ``os.*``, ...).

    Every integer limit is at most :data:`MAX_LIMIT` (2**62), ``cpu_seconds`` at
    most 2**32 (the kernel's count of CPU time wraps past about 1.8e10 seconds)
    and ``max_frame_bytes`` at most 2**32 - 1 (a frame's length prefix has 4 bytes).

    Raises:
        ValueError: A value is out of range; the message shows ``name=value``.
        TypeError: A value has the wrong type.
    """

    wall_seconds: float = 60.0
    cpu_seconds: int = 30
    memory_bytes: int = 512 * _MIB
    max_log_bytes: int = 64 * 1024
    max_value_bytes: int = _MIB
    max_frame_bytes: int = 16 * _MIB
    max_pending_calls: int = 128
    max_open_files: int = 32
    max_source_bytes: int = 256 * 1024
    language_layer: bool = True
    os_layer: bool = True
    tripwire: bool = True

    def __post_init__(self) -> None:
        _check_seconds("wall_seconds", self.wall_seconds)
        _check_int("cpu_seconds", self.cpu_seconds, minimum=1, maximum=MAX_CPU_SECONDS)
        _check_int("memory_bytes", self.memory_bytes, minimum=MIN_MEMORY_BYTES)
        _check_int("max_log_bytes", self.max_log_bytes, minimum=1)
        _check_int("max_value_bytes", self.max_value_bytes, minimum=1)
        # A frame must at least hold the largest value plus its envelope.
        _check_int(
            "max_frame_bytes", self.max_frame_bytes, minimum=4096, maximum=MAX_FRAME_BYTES
        )
        _check_int("max_pending_calls", self.max_pending_calls, minimum=1)
        # The child needs its two protocol pipes, the event loop's epoll fd and
        # its self-pipe socket pair, with room to spare.
        _check_int("max_open_files", self.max_open_files, minimum=16)
        _check_int("max_source_bytes", self.max_source_bytes, minimum=1)
        for name in ("language_layer", "os_layer", "tripwire"):
            value = getattr(self, name)
            if not isinstance(value, bool):
                raise TypeError(f"Limits.{name} must be True or False; got {name}={value!r}.")
        if self.max_frame_bytes < self.max_value_bytes + 4096:
            raise ValueError(
                "Limits.max_frame_bytes must exceed max_value_bytes by at least 4096 bytes "
                "so that the largest allowed value fits in a frame; got "
                f"max_frame_bytes={self.max_frame_bytes!r}, "
                f"max_value_bytes={self.max_value_bytes!r}."
            )


def _check_seconds(name: str, value: object) -> None:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"Limits.{name} must be a number of seconds; got {name}={value!r}.")
    if not (math.isfinite(value) and value > 0):
        raise ValueError(
            f"Limits.{name} must be a positive, finite number of seconds; got {name}={value!r}."
        )


def _check_int(name: str, value: object, *, minimum: int, maximum: int = MAX_LIMIT) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"Limits.{name} must be an int; got {name}={value!r}.")
    if value < minimum:
        raise ValueError(f"Limits.{name} must be at least {minimum}; got {name}={value!r}.")
    if value > maximum:
        raise ValueError(f"Limits.{name} must be at most {maximum}; got {name}={value!r}.")


#: The fields of :class:`Layers` that say whether a protection was in force.
_PROTECTIONS: Final = (
    "language_layer", "tripwire", "rlimits", "uid_drop", "no_new_privs", "seccomp"
)


@final
@dataclass(frozen=True, slots=True)
class Layers:
    """Which protections were in force for one run, and why any was not.

    Nothing is downgraded silently: every ``False`` field has an entry in
    ``reasons`` that starts with the field's name.

    Attributes:
        language_layer: The RestrictedPython policy compiled and guarded the program.
        tripwire: The child's audit hook watched the program (a watched event
            ends the run as ``sandbox-violation``).
        rlimits: CPU, address-space, process, file-size, open-file and core limits.
        uid_drop: The child dropped to an unprivileged uid/gid and all capabilities.
        no_new_privs: ``PR_SET_NO_NEW_PRIVS`` was set in the child.
        seccomp: The seccomp filter allowing only the system calls the child
            needs was installed before the program ran.
        reasons: One line per protection not in force, e.g.
            ``"seccomp: pyseccomp could not be imported: ..."``.
        cpu_seconds: The ``RLIMIT_CPU`` in force, in seconds: the configured
            limit, or a lower one the environment imposed (a lower hard limit
            inherited from a container, systemd or a CI runner is kept, never
            raised). ``None`` when rlimits are not in force.
        memory_bytes: The ``RLIMIT_AS`` in force, likewise.
        max_open_files: The ``RLIMIT_NOFILE`` in force, likewise.
    """

    language_layer: bool
    tripwire: bool
    rlimits: bool
    uid_drop: bool
    no_new_privs: bool
    seccomp: bool
    reasons: tuple[str, ...] = ()
    cpu_seconds: int | None = None
    memory_bytes: int | None = None
    max_open_files: int | None = None

    @property
    def complete(self) -> bool:
        """Whether every protection was in force."""
        return all(getattr(self, name) for name in _PROTECTIONS)


@final
@dataclass(frozen=True, slots=True)
class RunError:
    """Why a run failed.

    Attributes:
        kind: One of :data:`ERROR_KINDS`.
        message: What happened, naming the limit and its value where one was hit.
    """

    kind: ErrorKind
    message: str

    def __post_init__(self) -> None:
        if self.kind not in ERROR_KINDS:
            raise ValueError(
                f"RunError.kind must be one of {', '.join(ERROR_KINDS)}; got kind={self.kind!r}."
            )


@final
@dataclass(frozen=True, slots=True)
class RunResult:
    """The outcome of one program run.

    Attributes:
        value: The program's return value (lossless JSON); ``None`` on failure.
        logs: The lines the program printed, in order (possibly ending with the
            truncation marker).
        error: Why the run failed, or ``None`` when it succeeded.
        layers: The protections in force.
        wall_seconds: Host-side wall-clock time of the run.
        tool_wait_seconds: Of that, the time the program spent waiting for tools.
        pid: The child's process id, or ``None`` when no child was used (a
            compile error).
    """

    value: JsonValue
    logs: tuple[str, ...]
    error: RunError | None
    layers: Layers
    wall_seconds: float
    tool_wait_seconds: float
    pid: int | None

    @property
    def ok(self) -> bool:
        """Whether the run succeeded (``error is None``)."""
        return self.error is None


@final
@dataclass(frozen=True, slots=True)
class PoolStatistics:
    """A snapshot of a :class:`~sandbox.WorkerPool`'s children.

    Attributes:
        idle: Warm children that have sent READY and wait for a program.
        busy: Children running a program.
        exiting: Children that finished their program and are being reaped.
        starting: Children asked of the zygote that have not sent READY yet.
        started: Children forked since the pool opened.
        killed: Children the pool killed (timeouts, cancellations, aborts, shutdown).
        crashed: Children that exited without finishing their program.
        runs: Runs finished, whatever their outcome (compile errors included).
        zygote_starts: Times the zygote was started (more than one after a restart).
    """

    idle: int
    busy: int
    exiting: int
    starting: int
    started: int
    killed: int
    crashed: int
    runs: int
    zygote_starts: int
