"""Per-child uids: no two live children share one, on this machine.

When the host runs as root, every child drops to a uid (and the gid of the
same number) of its own, taken from the pool's ``uid_range``, so that the
kernel's own permission checks keep children apart (signals, ``ptrace``,
``/proc``) even where a seccomp rule were missing.

A uid is *held* from the fork request until the child is reaped (or, for a
child lost with its zygote, until the zygote itself is reaped, when the kernel
has sent every child the parent-death ``SIGKILL``) and its working directory
removed; only then can it go to another child. What a dead child could leave
behind under its uid: no process (``RLIMIT_NPROC=0`` and no ``fork``/``clone``
in the filter), no file (no file-creating call in the filter, ``RLIMIT_FSIZE=0``,
its directory removed before the uid is released) and no IPC object (System V
IPC and POSIX queues are not in the filter).

Holding a uid means holding a socket bound to the abstract Unix name
``codemode-uid-<uid>``: binding fails while any process on the machine (in this
network namespace) holds that name, and the kernel releases it when the socket
is closed or its process dies. So pools in one process, and hosts in several
processes that use overlapping ranges, never hand out the same uid twice, and
a crashed host frees its uids with nothing to clean up.
"""

from __future__ import annotations

import asyncio
import grp
import pwd
import socket
from typing import Final, final

import anyio
import anyio.lowlevel

__all__ = [
    "DEFAULT_UID_RANGE",
    "ChildUids",
    "NoFreeUid",
    "UidAllocator",
    "check_no_account_in",
    "check_uid_range",
]

#: 65536 uids where no distribution, systemd or container manager allocates:
#: above systemd's container ranges (which end at 0x6FFFFFFF) and below the
#: ids that tools may read as negative (0x80000000 and up).
DEFAULT_UID_RANGE: Final = range(0x70000000, 0x70010000)

#: The largest uid a range may contain: 0xFFFFFFFF is ``(uid_t) -1``, which
#: ``setresuid`` reads as "leave unchanged".
_MAX_UID: Final = 0xFFFFFFFE
#: 65535 is the 16-bit ``(uid_t) -1``, which old interfaces also treat as "unchanged".
_SPECIAL_UIDS: Final = frozenset({0, 65535, 0xFFFFFFFF})
#: Abstract names one allocation tries before it stops (a bound on the system
#: calls of one step on the event loop): the range is walked from where the
#: last allocation stopped, a successful one or one cut short at this budget,
#: so the uids this host holds are skipped without a system call, only uids
#: held elsewhere cost one, and no run of them, however long, is tried twice
#: before the rest of the range.
_MAX_PROBES: Final = 256
#: How often a fork waiting for a uid tries again when the uids it lacks are
#: held by other processes (its own pool's come back with an event).
_RETRY_SECONDS: Final = 0.5
#: How long a fork waits for a free uid before its run fails.
WAIT_SECONDS: Final = 10.0


def check_uid_range(uids: object) -> range:
    """Validate a pool's ``uid_range``; return it.

    Raises:
        TypeError: ``uids`` is not a ``range``.
        ValueError: It is empty, has a step other than 1, or includes root,
            ``(uid_t) -1`` or its 16-bit form.
    """
    if not isinstance(uids, range):
        raise TypeError(f"WorkerPool uid_range must be a range of uids; got uid_range={uids!r}")
    if uids.step != 1 or len(uids) == 0:
        raise ValueError(
            f"WorkerPool uid_range must be a non-empty range with step 1; got uid_range={uids!r}"
        )
    if uids.start < 1 or uids[-1] > _MAX_UID:
        raise ValueError(
            f"WorkerPool uid_range must lie within 1..{_MAX_UID} (never root, never "
            f"(uid_t) -1); got uid_range={uids!r}"
        )
    special = sorted(uid for uid in _SPECIAL_UIDS if uid in uids)
    if special:
        raise ValueError(
            f"WorkerPool uid_range must not contain {special[0]} (a special uid); "
            f"got uid_range={uids!r}"
        )
    return uids


def check_no_account_in(uids: range) -> None:
    """Refuse a range that holds a uid or gid of an account of this machine.

    Raises:
        ValueError: Naming the first user or group found in the range.
    """
    for user in pwd.getpwall():
        if user.pw_uid in uids:
            raise ValueError(
                f"WorkerPool uid_range {uids!r} contains uid {user.pw_uid} of the user "
                f"{user.pw_name!r}; choose a range no account uses"
            )
    for group in grp.getgrall():
        if group.gr_gid in uids:
            raise ValueError(
                f"WorkerPool uid_range {uids!r} contains gid {group.gr_gid} of the group "
                f"{group.gr_name!r}; children use the gid of their uid's number, so choose "
                "a range no group uses"
            )


@final
class UidAllocator:
    """Hands out the uids of one range, each to one holder at a time."""

    def __init__(self, uids: range) -> None:
        self._uids = uids
        self._next = 0
        self._claims: dict[int, socket.socket] = {}
        #: Whether the last :meth:`acquire` stopped at its probe budget before
        #: it had tried every uid of the range.
        self.cut_short = False

    @property
    def held(self) -> int:
        """Uids this allocator holds now."""
        return len(self._claims)

    def acquire(self) -> int | None:
        """Hold a free uid and return it, or ``None`` when none could be found.

        One call tries at most :data:`_MAX_PROBES` names held elsewhere; a
        walk cut short there (``cut_short`` is then true) is taken up where it
        stopped by the next call, never from the same place again: a run of
        uids held by other processes (other hosts' children, or anyone who
        binds the names, which takes no privilege) longer than one call's
        probes would otherwise hide every uid behind it, for as long as it is
        held.
        """
        size = len(self._uids)
        probes = 0
        self.cut_short = False
        for step in range(size):
            index = (self._next + step) % size
            uid = self._uids[index]
            if uid in self._claims:
                continue
            if probes >= _MAX_PROBES:
                self._next = index
                self.cut_short = True
                return None
            probes += 1
            claim = _claim(uid)
            if claim is None:
                continue
            self._next = (index + 1) % size
            self._claims[uid] = claim
            return uid
        return None

    def release(self, uid: int) -> None:
        """Give ``uid`` back (once no process of it can run any more)."""
        claim = self._claims.pop(uid, None)
        if claim is not None:
            claim.close()

    def release_all(self) -> None:
        """Give every uid back (the pool is closed and its zygotes are reaped)."""
        for uid in list(self._claims):
            self.release(uid)


class NoFreeUid(Exception):
    """Every uid of a pool's range stayed held; the message says what to do."""


@final
class ChildUids:
    """A pool's uids: held for its children, waited for (a bounded time) when all are held."""

    def __init__(self, uids: range) -> None:
        self.range = uids
        self._allocator = UidAllocator(uids)
        self._released = asyncio.Event()

    @property
    def held(self) -> int:
        """Uids the pool holds now (one per child that may still run)."""
        return self._allocator.held

    async def acquire(self) -> int:
        """Hold a uid no live child has.

        Raises:
            NoFreeUid: None came free within :data:`WAIT_SECONDS`.
        """
        # The common case first: a uid is free at once, and taking it needs
        # no timeout (a cancel scope costs the event loop more than the
        # claim's two system calls).
        uid = self._allocator.acquire()
        if uid is not None:
            return uid
        # Calls a walk of the whole range may take, each cut short at its
        # probe budget (the allocator goes on where the last one stopped).
        walks = -(-len(self.range) // _MAX_PROBES)
        with anyio.move_on_after(WAIT_SECONDS):
            while True:
                for _ in range(walks):
                    uid = self._allocator.acquire()
                    if uid is not None:
                        return uid
                    if not self._allocator.cut_short:
                        break
                    # The rest of the range is still to be tried: at once, but
                    # letting other tasks run between two budgets of probes.
                    await anyio.lowlevel.cancel_shielded_checkpoint()
                released = self._released
                with anyio.move_on_after(_RETRY_SECONDS):
                    await released.wait()
        raise NoFreeUid(
            f"no free uid in uid_range={self.range!r} after {WAIT_SECONDS:g}s "
            f"({self.held} held by this pool for children that may still run, the others "
            "by other processes); widen uid_range"
        )

    def release(self, uid: int) -> None:
        """Give ``uid`` back: its child can no longer run and its directory is gone."""
        self._allocator.release(uid)
        event, self._released = self._released, asyncio.Event()
        event.set()

    def release_all(self) -> None:
        """Give every uid back (the pool is closed and its zygotes reaped)."""
        self._allocator.release_all()


def _claim(uid: int) -> socket.socket | None:
    claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM | socket.SOCK_CLOEXEC)
    try:
        claim.bind(f"\0codemode-uid-{uid}")
    except OSError:
        claim.close()
        return None
    return claim
