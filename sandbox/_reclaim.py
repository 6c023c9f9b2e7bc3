"""Pool directories whose owner is gone: recorded when a pool opens, reclaimed by the next.

Each :class:`~sandbox.WorkerPool` keeps its children's working directories in
one private directory of the temporary folder, removed when the pool closes. A
host killed outright (``SIGKILL`` from a supervisor's timeout, the OOM killer)
never closes its pool, and its directory would stay behind for good. So each
pool directory holds an ``owner`` file naming the process that made it (its pid
and the kernel's start time of that pid, which tells a reused pid apart), and
every pool that opens removes the directories of this user whose owner is no
longer running.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
import stat
import tempfile
from typing import Final

__all__ = ["POOL_PREFIX", "make_pool_directory", "reclaim_abandoned"]

_log = logging.getLogger("sandbox")

#: The name every pool directory starts with, in the temporary folder.
POOL_PREFIX: Final = "codemode-pool-"
_OWNER_FILE: Final = "owner"
#: An owner record is two decimal numbers; anything longer is not ours.
_OWNER_MAX_BYTES: Final = 64


def _start_time(pid: int) -> str | None:
    """The kernel's start time of ``pid`` (clock ticks since boot), or ``None`` if it is gone."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as file:
            data = file.read()
    except OSError:
        return None
    # The command name (field 2) may hold spaces and parentheses: split after the last ")".
    fields = data[data.rfind(b")") + 2 :].split()
    # Field 22 (starttime) is the 20th after the name.
    return fields[19].decode("ascii") if len(fields) > 19 else None


def _owner_record() -> str:
    pid = os.getpid()
    return f"{pid} {_start_time(pid) or 0}\n"


def make_pool_directory() -> str:
    """Make this pool's private directory (0700) in the temporary folder, owner recorded."""
    directory = tempfile.mkdtemp(prefix=POOL_PREFIX)
    try:
        descriptor = os.open(
            os.path.join(directory, _OWNER_FILE),
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW,
            0o600,
        )
        try:
            os.write(descriptor, _owner_record().encode("ascii"))
        finally:
            os.close(descriptor)
    except BaseException:
        shutil.rmtree(directory, ignore_errors=True)
        raise
    return directory


def _owner_gone(directory: str) -> bool:
    """Whether the process recorded in ``directory`` is no longer running."""
    try:
        descriptor = os.open(
            os.path.join(directory, _OWNER_FILE), os.O_RDONLY | os.O_CLOEXEC | os.O_NOFOLLOW
        )
    except OSError:
        # Not made by a pool that records its owner (or being made right now).
        return False
    try:
        record = os.read(descriptor, _OWNER_MAX_BYTES + 1)
    finally:
        os.close(descriptor)
    parts = record.split()
    if len(record) > _OWNER_MAX_BYTES or len(parts) != 2 or not all(p.isdigit() for p in parts):
        return False
    pid, started = int(parts[0]), parts[1].decode("ascii")
    if pid == os.getpid():
        return False
    now = _start_time(pid)
    return now is None or (started != "0" and now != started)


def reclaim_abandoned(folder: str | None = None) -> list[str]:
    """Remove this user's pool directories whose owner is gone; return what was removed.

    Only directories (never symbolic links) named :data:`POOL_PREFIX`…, owned by
    this process's effective uid, with a readable owner record naming a process
    that no longer runs, are removed. Nothing here raises: a directory that
    cannot be judged or removed is left alone.
    """
    folder = tempfile.gettempdir() if folder is None else folder
    removed: list[str] = []
    try:
        entries = [e for e in os.scandir(folder) if e.name.startswith(POOL_PREFIX)]
    except OSError:
        return removed
    uid = os.geteuid()
    for entry in entries:
        with contextlib.suppress(OSError):
            info = entry.stat(follow_symlinks=False)
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != uid:
                continue
            if not _owner_gone(entry.path):
                continue
            shutil.rmtree(entry.path)
            removed.append(entry.path)
    if removed:
        _log.info("removed %d pool directories left by hosts that are gone", len(removed))
    return removed
