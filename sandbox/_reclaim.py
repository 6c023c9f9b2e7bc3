"""Pool directories whose owner is gone: recorded when a pool opens, reclaimed by the next.

Each :class:`~sandbox.WorkerPool` keeps its children's working directories in
one private directory of the temporary folder (:func:`pool_folder`), removed
when the pool closes. A host killed outright (``SIGKILL`` from a supervisor's
timeout, the OOM killer) never closes its pool, and its directory would stay
behind for good. So each pool directory holds an ``owner`` file, locked
(``flock``) by the process that made it for as long as its pool is open, and
every pool that opens removes the directories of this user whose owner's lock
is free. The kernel drops the lock when the owner dies, however it dies.

A lock, not the owner's pid: hosts that share the temporary folder need not
share a pid namespace (two containers of one pod share ``/dev/shm`` and each has
its own pids), and a pid recorded in one namespace names another process, or
none, in the next. Judged by pid, a host removed the live pool directory of a
host in another namespace, and every later run of that pool failed. The file
also records the pid and its start time (``<pid> <start> lock``); a record of
two fields without ``lock`` was written by an earlier version, which held no
lock, and is judged by its pid as it was then.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import stat
import tempfile
from typing import Final

__all__ = [
    "MEMORY_FOLDER",
    "POOL_PREFIX",
    "make_pool_directory",
    "pool_folder",
    "reclaim_abandoned",
    "remove_pool_directory",
    "remove_tree",
]

_log = logging.getLogger("sandbox")

#: The name every pool directory starts with, in the temporary folder.
POOL_PREFIX: Final = "codemode-pool-"
_OWNER_FILE: Final = "owner"
#: A memory file system for pool directories where there is one (Linux).
MEMORY_FOLDER: Final = "/dev/shm"
#: The folders tempfile picks when nothing chooses one.
_SYSTEM_TEMP_FOLDERS: Final = frozenset({"/tmp", "/var/tmp", "/usr/tmp"})
#: An owner record is two decimal numbers and the word ``lock``; anything longer is not ours.
_OWNER_MAX_BYTES: Final = 64
#: The last field of a record whose owner holds the file's lock.
_LOCKED: Final = b"lock"
#: The owner files this process holds locked, by pool directory: closed (which
#: drops the lock) by :func:`remove_pool_directory`, once the directory is gone.
_owner_locks: dict[str, int] = {}
#: How :func:`remove_tree` opens a directory: never through a symbolic link, and
#: never blocking (a FIFO or device put where a directory was fails at once).
_DIRECTORY_FLAGS: Final = (
    os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
)


def remove_tree(path: str | os.PathLike[str]) -> bool:
    """Remove the directory ``path`` and everything in it; whether it is gone. Never raises.

    What is in a child's directory (and so in a pool's) may have been shaped by
    the program: a child without the seccomp filter can make a tree of any
    depth, symbolic links, FIFOs and sockets there. So the walk is iterative
    (``shutil.rmtree`` recurses once per level up to Python 3.12, and raises
    ``RecursionError``, which ``ignore_errors`` does not cover, about 1,000
    levels down), holds at most two descriptors whatever the depth, never
    follows a link, and never opens anything but a directory. A directory that
    cannot be removed (one that changes under the walk included) is left.

    A process that is not root is held to the permission bits, which root is
    not: a directory of its own that the program made unreadable or unwritable
    (``chmod 0``) is given back its owner's read, write and search bits before
    it is walked (:func:`_open_directory`), as its owner may, so that such a
    host removes what a root one does.
    """
    path = os.fspath(path)
    try:
        os.rmdir(path)
        return True
    except FileNotFoundError:
        return True
    except OSError:
        pass
    try:
        descriptor = _open_directory(path)
    except OSError:
        return False
    # One entry per level: the directory's (device, inode), its name in its
    # parent, and the subdirectories still to remove in it.
    levels: list[tuple[tuple[int, int], str, list[str]]] = []
    try:
        name = ""
        while True:
            info = os.fstat(descriptor)
            subdirectories = []
            with os.scandir(descriptor) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        subdirectories.append(entry.name)
                    else:
                        os.unlink(entry.name, dir_fd=descriptor)
            levels.append(((info.st_dev, info.st_ino), name, subdirectories))
            while levels and not levels[-1][2]:
                _identity, name, _ = levels.pop()
                if not levels:
                    break
                parent = os.open("..", _DIRECTORY_FLAGS, dir_fd=descriptor)
                os.close(descriptor)
                descriptor = parent
                info = os.fstat(descriptor)
                if (info.st_dev, info.st_ino) != levels[-1][0]:
                    return False  # moved under the walk: not followed
                os.rmdir(name, dir_fd=descriptor)
            if not levels:
                break
            name = levels[-1][2].pop()
            child = _open_directory(name, descriptor)
            os.close(descriptor)
            descriptor = child
    except (OSError, ValueError):
        return False
    finally:
        os.close(descriptor)
    try:
        os.rmdir(path)
    except FileNotFoundError:
        pass
    except OSError:
        return False
    return True


def _open_directory(name: str, parent: int | None = None) -> int:
    """Open the directory ``name`` (in ``parent``) to empty it, never through a link.

    Root walks any directory. Any other uid needs read, write and search
    permission on one it empties, and a program running as that uid may have
    taken them off a directory of its own: the owner may put them back, so
    they are put back, on the directory opened and nothing else. Raises
    :class:`OSError` when the directory cannot be opened.
    """
    try:
        descriptor = os.open(name, _DIRECTORY_FLAGS, dir_fd=parent)
    except PermissionError:
        if os.geteuid() == 0 or not hasattr(os, "O_PATH"):  # O_PATH: Linux
            raise
        descriptor = _reopen_as_owner(name, parent)
    if os.geteuid() != 0:
        try:
            info = os.fstat(descriptor)
            if info.st_uid == os.geteuid() and info.st_mode & stat.S_IRWXU != stat.S_IRWXU:
                os.fchmod(descriptor, stat.S_IMODE(info.st_mode) | stat.S_IRWXU)
        except OSError:
            os.close(descriptor)
            raise
    return descriptor


def _reopen_as_owner(name: str, parent: int | None) -> int:
    """Open a directory of this uid that it may not read, after giving it back ``u+rwx``.

    The directory is first opened with ``O_PATH`` (which needs no permission on
    it, and follows no link), and its mode is changed through that descriptor's
    ``/proc/self/fd`` entry, so that what changes is the directory checked, even
    if the name is swapped under the walk; the name is opened again and must be
    that same directory.
    """
    handle = os.open(
        name, os.O_PATH | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC, dir_fd=parent
    )
    try:
        info = os.fstat(handle)
        if info.st_uid != os.geteuid():
            raise PermissionError(errno.EACCES, "a directory of another user", name)
        os.chmod(f"/proc/self/fd/{handle}", stat.S_IMODE(info.st_mode) | stat.S_IRWXU)
        descriptor = os.open(name, _DIRECTORY_FLAGS, dir_fd=parent)
    finally:
        os.close(handle)
    reopened = os.fstat(descriptor)
    if (reopened.st_dev, reopened.st_ino) != (info.st_dev, info.st_ino):
        os.close(descriptor)
        raise OSError(errno.ESTALE, "the directory changed under the walk", name)
    return descriptor


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


def _owner_record(*, locked: bool) -> str:
    pid = os.getpid()
    return f"{pid} {_start_time(pid) or 0}{' lock' if locked else ''}\n"


def pool_folder() -> str:
    """The folder pool directories are made in.

    The temporary folder the user chose (``TMPDIR``, ``TEMP`` or ``TMP``, or
    :data:`tempfile.tempdir` set to a folder of their own), if any. Otherwise
    :data:`MEMORY_FOLDER` when this process may make directories there and it
    is sticky, as a shared temporary folder must be (nobody can then remove
    or rename another user's entries): a child's directory is made and
    removed for every run, and on a disk's file system that took the host
    about 57 µs of CPU and 100 µs of its event loop's time per child (ext4),
    against 10 µs in memory (measured). Otherwise :mod:`tempfile`'s folder.
    """
    chosen = tempfile.gettempdir()
    if any(os.environ.get(name) for name in ("TMPDIR", "TEMP", "TMP")):
        return chosen
    if chosen not in _SYSTEM_TEMP_FOLDERS:
        return chosen  # set through tempfile.tempdir
    try:
        info = os.stat(MEMORY_FOLDER)
    except OSError:
        return chosen
    usable = stat.S_ISDIR(info.st_mode) and info.st_mode & stat.S_ISVTX
    if usable and os.access(MEMORY_FOLDER, os.W_OK | os.X_OK):
        return MEMORY_FOLDER
    return chosen


def make_pool_directory() -> str:
    """Make this pool's private directory (0700) in :func:`pool_folder`, owner recorded.

    Where the memory folder refuses it (full, or mounted read-only), the
    directory goes to :mod:`tempfile`'s folder instead: a pool opens wherever
    it could before.
    """
    folder = pool_folder()
    try:
        directory = tempfile.mkdtemp(prefix=POOL_PREFIX, dir=folder)
    except OSError:
        if folder != MEMORY_FOLDER:
            raise
        directory = tempfile.mkdtemp(prefix=POOL_PREFIX)
    descriptor = -1
    try:
        descriptor = os.open(
            os.path.join(directory, _OWNER_FILE),
            os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC | os.O_NOFOLLOW,
            0o600,
        )
        # Locked before the record is written: a pool that opens meanwhile
        # finds no record it can judge, or a record whose lock is held.
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
            locked = True
        except OSError:
            # A file system without locks (the user's TMPDIR on some FUSE
            # mounts): the record is judged by its pid, as before locks.
            locked = False
        os.write(descriptor, _owner_record(locked=locked).encode("ascii"))
    except BaseException:
        if descriptor >= 0:
            os.close(descriptor)
        remove_tree(directory)
        raise
    _owner_locks[directory] = descriptor
    return directory


def remove_pool_directory(directory: str) -> bool:
    """Remove a directory :func:`make_pool_directory` made, then drop its owner lock.

    Returns whether the directory is gone; never raises. The lock is dropped
    last, so that no pool that opens meanwhile judges the directory abandoned
    while it is still being removed.
    """
    removed = remove_tree(directory)
    descriptor = _owner_locks.pop(directory, -1)
    if descriptor >= 0:
        os.close(descriptor)
    return removed


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
        parts = record.split()
        if len(record) > _OWNER_MAX_BYTES or not 2 <= len(parts) <= 3:
            return False
        if not all(part.isdigit() for part in parts[:2]):
            return False
        if len(parts) == 3:
            # The owner holds the lock while its pool is open, whatever pid
            # namespace it runs in; the kernel dropped it if the owner died.
            return parts[2] == _LOCKED and _lock_is_free(descriptor)
    finally:
        os.close(descriptor)
    # Written by an earlier version, which held no lock: judged by its pid.
    pid, started = int(parts[0]), parts[1].decode("ascii")
    if pid == os.getpid():
        return False
    now = _start_time(pid)
    return now is None or (started != "0" and now != started)


def _lock_is_free(descriptor: int) -> bool:
    """Whether this process could take the lock of the file open at ``descriptor``.

    A lock taken is dropped again at once (and for good when the descriptor
    closes). An open file description of this very process's own pool holds
    the lock too, so a pool never judges its own directory, or another pool's
    of this process, abandoned.
    """
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as exc:
        if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN):
            return False
        raise
    fcntl.flock(descriptor, fcntl.LOCK_UN)
    return True


def reclaim_abandoned(folder: str | None = None) -> list[str]:
    """Remove this user's pool directories whose owner is gone; return what was removed.

    Only directories (never symbolic links) named :data:`POOL_PREFIX`…, owned by
    this process's effective uid, with a readable owner record whose lock no
    process holds (or, written by an earlier version, naming a process that no
    longer runs), are removed, from ``folder`` or else from
    :func:`pool_folder` and :mod:`tempfile`'s folder (where pools made theirs
    before :data:`MEMORY_FOLDER` was used). Nothing here raises: a directory
    that cannot be judged or removed is left alone.
    """
    if folder is None:
        removed: list[str] = []
        for each in dict.fromkeys((pool_folder(), tempfile.gettempdir())):
            removed += reclaim_abandoned(each)
        return removed
    removed = []
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
            if remove_tree(entry.path):
                removed.append(entry.path)
    if removed:
        _log.info("removed %d pool directories left by hosts that are gone", len(removed))
    return removed
