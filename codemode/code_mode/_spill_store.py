"""Where spilled text goes: a private directory of owner-only files."""

from __future__ import annotations

import hashlib
import os
import re
import secrets
import stat
import tempfile
import threading
from pathlib import Path
from typing import Protocol, final

__all__ = ["LocalSpillStore", "SpillStore"]


class SpillStore(Protocol):
    """Saves one oversized text and returns a locator the model can use to read it back.

    Implement it to keep spilled results elsewhere (object storage, a database)::

        class MyStore:
            def save_text(self, *, session_id, tool_name, call_id, label, suggested_name, content):
                key = upload(content)
                return f"s3://bucket/{key}"
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


def _encode_name(name: str) -> str:
    # Keep portable file-name characters; spell every other one as ~XXXX so
    # that no name can climb directories. The random prefix keeps files apart,
    # so cutting a long name short is harmless.
    encoded = "".join(c if _SAFE_NAME_CHAR.fullmatch(c) else f"~{ord(c):04X}" for c in name)
    return encoded[:_MAX_NAME_CHARS]


def _check_private(directory: Path) -> None:
    # A directory someone else made (or a symlink planted in its place) would
    # let them see or swap the spilled files: refuse it instead of writing.
    info = directory.lstat()
    if (
        not stat.S_ISDIR(info.st_mode)
        or info.st_uid != os.geteuid()
        or stat.S_IMODE(info.st_mode) & 0o077
    ):
        raise PermissionError(
            f"spill directory {str(directory)!r} is not a private directory of this user "
            f"(mode {stat.S_IMODE(info.st_mode):o}, owner uid {info.st_uid}); remove it or "
            "choose another root"
        )


@final
class LocalSpillStore:
    """Spill files on the local disk: mode 0600 in a private 0700 directory.

    Args:
        root: the directory to keep spill files in. When omitted, a private
            ``codemode-spill-*`` directory is made under the system temp
            directory on first use. Files are never deleted by codemode.
    """

    def __init__(self, root: str | os.PathLike[str] | None = None) -> None:
        self._root = Path(root) if root is not None else None
        self._lock = threading.Lock()

    @property
    def root(self) -> Path:
        """The directory spill files are written under (created on first use)."""
        with self._lock:
            if self._root is None:
                self._root = Path(tempfile.mkdtemp(prefix="codemode-spill-"))
            self._root.mkdir(mode=0o700, parents=True, exist_ok=True)
            return self._root

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
        digest = hashlib.sha256(session_id.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        directory = self.root / f"session-{digest}"
        directory.mkdir(mode=0o700, exist_ok=True)
        _check_private(directory)
        path = directory / f"{secrets.token_hex(6)}-{_encode_name(suggested_name)}"
        # O_EXCL: never follow or overwrite something already there.
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8", errors="surrogatepass") as handle:
            handle.write(content)
        return str(path.resolve())
