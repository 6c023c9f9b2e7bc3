"""Where spilled text goes: a private directory of owner-only files.

Every file-system step of a save is relative to a directory descriptor that
was opened without following a final symlink and checked with ``fstat``; no
path is checked and then used by name again (a local user who controls the
root cannot redirect a write by swapping a directory for a symlink). Session
directories get unpredictable names, so nobody can make one in advance.

Retention: a store made without a ``root`` owns its ``codemode-spill-*``
temp directory and removes it, with every file in it, when closed
(:meth:`LocalSpillStore.close`, ``SpillPolicy.close``) or, failing that, when
the store is garbage-collected or the interpreter exits. A store given a
``root`` never deletes anything. Either way one store writes at most
``max_total_bytes`` and ``max_files``; past them a save is refused (the model
and the log get a preview with the full text's SHA-256 instead).
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import secrets
import stat
import tempfile
import threading
import weakref
from pathlib import Path
from typing import Final, Protocol, final

from sandbox import remove_tree

__all__ = [
    "DEFAULT_MAX_SPILL_STORE_BYTES",
    "DEFAULT_MAX_SPILL_STORE_FILES",
    "LocalSpillStore",
    "SpillStore",
]

#: The default of ``LocalSpillStore(max_total_bytes=...)``: 1 GiB.
DEFAULT_MAX_SPILL_STORE_BYTES: Final = 1024 * 1024 * 1024
#: The default of ``LocalSpillStore(max_files=...)``.
DEFAULT_MAX_SPILL_STORE_FILES: Final = 4096


class SpillStore(Protocol):
    """Saves one oversized text and returns a locator the model can use to read it back.

    Implement it to keep spilled results elsewhere (object storage, a database)::

        class MyStore:
            def save_text(self, *, session_id, tool_name, call_id, label, suggested_name, content):
                key = upload(content)
                return f"s3://bucket/{key}"

    A store that raises is not fatal: the text is replaced by a preview and a
    notice that it was not stored (with its SHA-256), never kept inline.
    """

    def save_text(
        self,
        *,
        session_id: str,
        tool_name: str,
        call_id: str,
        label: str,
        suggested_name: str,
        content: str,
    ) -> str: ...


_SAFE_NAME_CHAR = re.compile(r"[A-Za-z0-9._-]")


#: Longest encoded name kept; file systems refuse names over 255 bytes.
_MAX_NAME_CHARS = 120

_DIR_FLAGS: Final = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_FILE_FLAGS: Final = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC


def _encode_name(name: str) -> str:
    # Keep portable file-name characters; spell every other one as ~XXXX so
    # that no name can climb directories. The random prefix keeps files apart,
    # so cutting a long name short is harmless.
    encoded = "".join(c if _SAFE_NAME_CHAR.fullmatch(c) else f"~{ord(c):04X}" for c in name)
    return encoded[:_MAX_NAME_CHARS]


def _check_root(fd: int, root: Path) -> None:
    # The root may be shared (e.g. /tmp) only if others cannot rename or
    # replace what we make in it: owned by us or by root, and not writable by
    # others unless sticky.
    info = os.fstat(fd)
    mode = stat.S_IMODE(info.st_mode)
    if info.st_uid not in (os.geteuid(), 0) or (
        mode & 0o022 and not mode & stat.S_ISVTX
    ):
        raise PermissionError(
            f"spill root {str(root)!r} is not safe for spill files (mode {mode:o}, owner uid "
            f"{info.st_uid}): it must be owned by this user or root, and writable by others "
            "only if sticky; choose another root"
        )


def _check_root_entry(root: Path) -> None:
    # The root's own entry may be a symbolic link, but only one this user or
    # root made: another user's link (say in /tmp) would choose, at every save,
    # which directory the files go to, and what the path the model is given
    # names when it is read.
    info = os.lstat(root)
    if stat.S_ISLNK(info.st_mode) and info.st_uid not in (os.geteuid(), 0):
        raise PermissionError(
            f"spill root {str(root)!r} is a symbolic link owned by uid {info.st_uid}: it must "
            "be owned by this user or root; choose another root"
        )


def _check_private(fd: int, where: str) -> None:
    # A directory someone else made would let them see or swap the spilled
    # files: refuse it instead of writing.
    info = os.fstat(fd)
    mode = stat.S_IMODE(info.st_mode)
    if info.st_uid != os.geteuid() or mode & 0o077:
        raise PermissionError(
            f"spill directory {where!r} is not a private directory of this user "
            f"(mode {mode:o}, owner uid {info.st_uid}); remove it or choose another root"
        )


def _remove_tree(path: str) -> None:
    remove_tree(path)


@final
class LocalSpillStore:
    """Spill files on the local disk: mode 0600 in a private 0700 directory.

    Args:
        root: the directory to keep spill files in (created 0700 if missing).
            It must be owned by this user or root and, if others may write to
            it, sticky (like ``/tmp``); otherwise every save is refused. Files
            under a given root are never deleted by codemode. When omitted, a
            private ``codemode-spill-*`` directory is made under the system
            temp directory on first use, and removed with its files when the
            store is closed, garbage-collected, or the interpreter exits.
        max_total_bytes: the most bytes this store writes in all (UTF-8).
        max_files: the most files this store writes.

    Each session id gets its own directory ``session-<hash>-<random>`` in the
    root, made by this store (so never one made in advance by someone else).
    """

    def __init__(
        self,
        root: str | os.PathLike[str] | None = None,
        *,
        max_total_bytes: int = DEFAULT_MAX_SPILL_STORE_BYTES,
        max_files: int = DEFAULT_MAX_SPILL_STORE_FILES,
    ) -> None:
        for name, value in (("max_total_bytes", max_total_bytes), ("max_files", max_files)):
            if type(value) is not int or value < 0:
                raise ValueError(f"{name}={value!r}: expected a non-negative int")
        self._root = Path(root).absolute() if root is not None else None
        self._owned = root is None
        self._closed = False
        self._lock = threading.Lock()
        self._sessions: dict[str, str] = {}
        self._bytes = 0
        self._files = 0
        self.max_total_bytes = max_total_bytes
        self.max_files = max_files
        self._finalizer: weakref.finalize[[str], LocalSpillStore] | None = None

    @property
    def root(self) -> Path:
        """The directory spill files are written under (created on first use)."""
        with self._lock:
            return self._root_locked()

    def _root_locked(self) -> Path:
        if self._closed:
            raise RuntimeError("this spill store is closed")
        if self._root is None:
            self._root = Path(tempfile.mkdtemp(prefix="codemode-spill-")).absolute()
            self._finalizer = weakref.finalize(self, _remove_tree, str(self._root))
        self._root.mkdir(mode=0o700, parents=True, exist_ok=True)
        return self._root

    @property
    def files_written(self) -> int:
        """How many files this store has written."""
        return self._files

    @property
    def bytes_written(self) -> int:
        """How many bytes this store has written."""
        return self._bytes

    def close(self) -> None:
        """Refuse further saves; remove the store's own temp directory (never a given root)."""
        with self._lock:
            self._closed = True
            if self._finalizer is not None:
                self._finalizer()

    def __enter__(self) -> LocalSpillStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _session_fd(self, root_fd: int, session_id: str) -> tuple[int, str]:
        name = self._sessions.get(session_id)
        if name is not None:
            try:
                fd = os.open(name, _DIR_FLAGS, dir_fd=root_fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise PermissionError(
                        f"spill directory {name!r} is not a private directory of this user "
                        "(something else replaced it); choose another root"
                    ) from exc
                # Removed: start a new one below.
                if exc.errno != errno.ENOENT:
                    raise
            else:
                try:
                    _check_private(fd, name)
                except BaseException:
                    os.close(fd)
                    raise
                return fd, name
        digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        name = f"session-{digest}-{secrets.token_hex(8)}"
        os.mkdir(name, 0o700, dir_fd=root_fd)
        fd = os.open(name, _DIR_FLAGS, dir_fd=root_fd)
        try:
            _check_private(fd, name)
        except BaseException:
            os.close(fd)
            raise
        self._sessions[session_id] = name
        return fd, name

    def save_text(
        self,
        *,
        session_id: str,
        tool_name: str,
        call_id: str,
        label: str,
        suggested_name: str,
        content: str,
    ) -> str:
        """Write ``content`` to a new owner-only file and return its absolute path."""
        data = content.encode("utf-8", "surrogatepass")
        with self._lock:
            root = self._root_locked()
            if self._files >= self.max_files:
                raise OSError(
                    errno.EDQUOT,
                    f"this spill store may write at most {self.max_files} files (max_files)",
                )
            if self._bytes + len(data) > self.max_total_bytes:
                raise OSError(
                    errno.EDQUOT,
                    f"this spill store may write at most {self.max_total_bytes} bytes "
                    f"(max_total_bytes); {self._bytes} are written",
                )
            # Charged before writing: a failed write still counts (conservative).
            self._files += 1
            self._bytes += len(data)
            _check_root_entry(root)
            root_fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
            try:
                _check_root(root_fd, root)
                session_fd, session = self._session_fd(root_fd, session_id)
            finally:
                os.close(root_fd)
        try:
            name = f"{secrets.token_hex(6)}-{_encode_name(suggested_name)}"
            # O_EXCL|O_NOFOLLOW, relative to the checked directory: never
            # follow or overwrite something already there.
            fd = os.open(name, _FILE_FLAGS, 0o600, dir_fd=session_fd)
        finally:
            os.close(session_fd)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return str(root / session / name)
