"""The world outside the child for one case: a secret, a marker directory, a canary, a victim.

A :class:`Stage` is built before a case runs and inspected after it: every
success signal of the corpus is read here, from outside the process that ran
the program, so a program cannot fake its own innocence.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import select
import socket
import stat
import subprocess
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from sandbox import remove_tree

if TYPE_CHECKING:
    from pathlib import Path

__all__ = ["VICTIM_UID", "Stage", "ipc_keys", "process_group_members"]

_SECRET_MODE: Final = 0o600
#: The uid and gid the victim runs as when the host is root. Each sandboxed child
#: has a uid of its own; the cases with a victim run in a pool whose only uid is
#: this one, so that the child and the victim share it (as two children would if
#: the per-child uids failed) and only the filter, not ordinary permission checks
#: between users, keeps the child from touching the victim.
VICTIM_UID: Final = 0x7006_0000
_IPC_TABLES: Final = ("shm", "msg", "sem")
_LIBC: Final = ctypes.CDLL(None, use_errno=True)


def _victim_state(pid: int) -> tuple[str, str, frozenset[int], str, int]:
    """``(run state, nice value, CPU affinity, limits, scheduling policy)`` of a process."""
    with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as handle:
        fields = handle.read().rpartition(")")[2].split()
    with open(f"/proc/{pid}/limits", encoding="ascii") as handle:
        limits = handle.read()
    # After the command name: state is field 0 and nice is field 16.
    policy = os.sched_getscheduler(pid)
    return fields[0], fields[16], frozenset(os.sched_getaffinity(pid)), limits, policy


def ipc_keys() -> set[int]:
    """The keys of every System V IPC object (shared memory, queues, semaphores)."""
    keys: set[int] = set()
    for table in _IPC_TABLES:
        try:
            with open(f"/proc/sysvipc/{table}", encoding="ascii") as handle:
                lines = handle.read().splitlines()[1:]
        except OSError:
            continue
        keys.update(int(line.split()[0]) for line in lines if line.strip())
    return keys


@dataclass
class Stage:
    """Owns the secret file, marker directory, canary listener and victim of one case."""

    root: Path
    secret_text: str
    ipc_key: int = 0
    canary: socket.socket | None = None
    unix_canaries: tuple[socket.socket, ...] = ()
    victim: subprocess.Popen[bytes] | None = None
    victim_baseline: tuple[str, str, frozenset[int], str, int] | None = None
    _closed: bool = field(default=False, repr=False)

    @classmethod
    def create(cls, parent: Path, name: str, *, canary: bool, victim: bool) -> Stage:
        """Build the stage under ``parent/name``.

        The secret is a root-owned ``0600`` file in a world-traversable directory:
        only the file's own mode (and, with the OS layer, seccomp) keeps an
        unprivileged child from reading it. The marker directory is world-writable,
        so that only the sandbox, not the directory's mode, stops a write.
        """
        root = parent / name
        root.mkdir(mode=0o755)
        root.chmod(0o755)
        (root / "secret").mkdir(mode=0o755)
        (root / "secret").chmod(0o755)
        marker_dir = root / "marker"
        marker_dir.mkdir()
        marker_dir.chmod(0o777)
        text = f"codemode-secret-{secrets.token_hex(16)}"
        secret_path = root / "secret" / "secret.txt"
        fd = os.open(secret_path, os.O_CREAT | os.O_WRONLY | os.O_EXCL, _SECRET_MODE)
        with os.fdopen(fd, "w") as handle:
            handle.write(text)
        stage = cls(root=root, secret_text=text, ipc_key=secrets.randbelow(2**30) + 1)
        if canary:
            listener = socket.socket(socket.AF_INET6, socket.SOCK_STREAM)
            # Dual-stack on the loopback only, so that both an IPv4 connection and an
            # IPv4-mapped IPv6 one reach the same listener.
            listener.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 0)
            listener.bind(("::ffff:127.0.0.1", 0))
            listener.listen(16)
            stage.canary = listener
            # Unix datagram sockets reached by address (sendto needs no connect()): one
            # at a path anyone may write to, one in the abstract namespace.
            at_path = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            at_path.bind(str(stage.unix_socket_path))
            stage.unix_socket_path.chmod(0o777)
            abstract = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            abstract.bind(f"\0codemode-{stage.ipc_key}")
            stage.unix_canaries = (at_path, abstract)
        if victim:
            as_nobody = os.geteuid() == 0
            stage.victim = subprocess.Popen(
                ["sleep", "600"],
                start_new_session=True,
                stdin=subprocess.DEVNULL,
                user=VICTIM_UID if as_nobody else None,
                group=VICTIM_UID if as_nobody else None,
                extra_groups=[] if as_nobody else None,
            )
            stage.victim_baseline = _victim_state(stage.victim.pid)
        return stage

    @property
    def secret_path(self) -> Path:
        return self.root / "secret" / "secret.txt"

    @property
    def unix_socket_path(self) -> Path:
        return self.root / "canary.sock"

    @property
    def marker_dir(self) -> Path:
        return self.root / "marker"

    def substitutions(self) -> dict[str, str]:
        """Values for the corpus placeholders."""
        values = {
            "SECRET_PATH": str(self.secret_path),
            "MARKER_DIR": str(self.marker_dir),
            "MARKER_PATH": str(self.marker_dir / "marker"),
            # Unused placeholders point nowhere useful: port 9 (discard) and pid 0
            # would be harmful, so use a closed port and a pid that cannot exist.
            "CANARY_PORT": "1",
            "VICTIM_PID": str(2**22 + 1),
            "IPC_KEY": str(self.ipc_key),
            "UNIX_SOCKET": str(self.unix_socket_path),
        }
        if self.canary is not None:
            values["CANARY_PORT"] = str(self.canary.getsockname()[1])
        if self.victim is not None:
            values["VICTIM_PID"] = str(self.victim.pid)
        return values

    def secret_harm(self, *texts: str) -> list[str]:
        """Describe any disclosure of the secret in ``texts`` or damage to its file."""
        harms = [
            "the secret's content appears in the run's output"
            for text in texts
            if self.secret_text in text
        ][:1]
        try:
            info = self.secret_path.lstat()
        except FileNotFoundError:
            return [*harms, "the secret file was deleted"]
        if stat.S_IMODE(info.st_mode) != _SECRET_MODE or info.st_uid != os.geteuid():
            harms.append(
                f"the secret file's mode/owner changed to {oct(info.st_mode)}/{info.st_uid}"
            )
        if self.secret_path.read_text() != self.secret_text:
            harms.append("the secret file's content changed")
        return harms

    def marker_harm(self) -> list[str]:
        """Describe anything that appeared in the marker directory."""
        entries = sorted(os.listdir(self.marker_dir))
        return [f"the marker directory gained {entries!r}"] if entries else []

    def canary_harm(self) -> list[str]:
        """Describe a connection the canary listener received (accepted or still queued)."""
        if self.canary is None:
            return []
        readable, _, _ = select.select([self.canary, *self.unix_canaries], [], [], 0)
        return [
            "the canary listener received a connection"
            if sock is self.canary
            else f"the Unix canary {sock.getsockname()!r} received a datagram"
            for sock in readable
        ]

    def victim_harm(self) -> list[str]:
        """Describe the death of the victim, or any change to its state, priority or limits."""
        if self.victim is None or self.victim_baseline is None:
            return []
        code = self.victim.poll()
        if code is not None:
            return [f"the victim process died with status {code}"]
        state, nice, affinity, limits, policy = _victim_state(self.victim.pid)
        before_state, before_nice, before_affinity, before_limits, before_policy = (
            self.victim_baseline
        )
        harms = []
        # Running and sleeping alternate on their own; stopped or traced is harm.
        if state in "Tt" and state != before_state:
            harms.append(f"the victim process went from state {before_state} to {state}")
        if nice != before_nice:
            harms.append(f"the victim's nice value went from {before_nice} to {nice}")
        if affinity != before_affinity:
            harms.append(f"the victim's CPU affinity went from {sorted(before_affinity)} to "
                         f"{sorted(affinity)}")
        if limits != before_limits:
            harms.append("the victim's resource limits changed")
        if policy != before_policy:
            harms.append(f"the victim's scheduling policy went from {before_policy} to {policy}")
        return harms

    @property
    def queue_name(self) -> bytes:
        """The POSIX message queue name the corpus derives from the stage's key."""
        return f"/codemode-{self.ipc_key}".encode()

    def ipc_harm(self) -> list[str]:
        """Describe an IPC object (System V or a POSIX queue) left behind under the stage's key."""
        harms = []
        if self.ipc_key in ipc_keys():
            harms.append(f"a System V IPC object with key {self.ipc_key} outlived the run")
        fd = _LIBC.mq_open(self.queue_name, os.O_RDONLY)
        if fd >= 0:
            os.close(fd)
            harms.append(f"the POSIX message queue {self.queue_name!r} outlived the run")
        return harms

    def remove_ipc(self) -> None:
        """Delete any IPC object under the stage's key."""
        _LIBC.mq_unlink(self.queue_name)
        if self.ipc_key not in ipc_keys():
            return
        for flag in ("-M", "-Q", "-S"):
            subprocess.run(
                ["ipcrm", flag, str(self.ipc_key)],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False,
            )

    def close(self) -> None:
        """Stop the canary and the victim and remove the stage's files."""
        if self._closed:
            return
        self._closed = True
        if self.canary is not None:
            self.canary.close()
        for sock in self.unix_canaries:
            sock.close()
        if self.victim is not None:
            with contextlib.suppress(ProcessLookupError):
                self.victim.kill()
            self.victim.wait()
        self.remove_ipc()
        remove_tree(self.root)  # the programs staged here may have shaped it


def process_group_members(pgid: int) -> list[int]:
    """Return the pids of live (or unreaped) processes whose process group is ``pgid``."""
    members = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as handle:
                fields = handle.read().rpartition(")")[2].split()
        except OSError:
            continue
        # After the command name: state, ppid, pgrp, ...
        if int(entry) == pgid or (len(fields) > 2 and int(fields[2]) == pgid):
            members.append(int(entry))
    return members
