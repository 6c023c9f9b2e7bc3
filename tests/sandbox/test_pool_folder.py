"""Where a pool makes its directory (``sandbox._reclaim.pool_folder``).

In memory when nothing says otherwise (a child's directory is made and removed
for every run), in the temporary folder the user chose when they chose one.
"""

from __future__ import annotations

import errno
import os
import stat
import tempfile
from typing import TYPE_CHECKING

import anyio
import pytest

import sandbox._reclaim as reclaim
from sandbox import WorkerPool
from sandbox._reclaim import POOL_PREFIX, make_pool_directory, pool_folder, reclaim_abandoned
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from pathlib import Path

GUARD = 30  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture
def memory_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A stand-in for /dev/shm (sticky and world-writable, as it is), with no choice made."""
    folder = tmp_path / "shm"
    folder.mkdir()
    folder.chmod(0o1777)
    monkeypatch.setattr(reclaim, "MEMORY_FOLDER", str(folder))
    for name in ("TMPDIR", "TEMP", "TMP"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(tempfile, "tempdir", "/tmp")
    return folder


def test_with_no_folder_chosen_pools_go_to_memory(memory_folder: Path) -> None:
    assert pool_folder() == str(memory_folder)
    directory = make_pool_directory()
    try:
        assert os.path.dirname(directory) == str(memory_folder)
        assert os.path.basename(directory).startswith(POOL_PREFIX)
        assert stat.S_IMODE(os.stat(directory).st_mode) == 0o700
    finally:
        os.remove(os.path.join(directory, "owner"))
        os.rmdir(directory)


def test_a_memory_folder_that_refuses_the_directory_leaves_it_to_the_temporary_folder(
    memory_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A full tmpfs (a container's 64 MiB /dev/shm) fails mkdir with ENOSPC.
    fallback = tmp_path / "fallback"
    fallback.mkdir()
    mkdtemp = tempfile.mkdtemp

    def full_memory(prefix: str, dir: str | None = None) -> str:
        if dir == str(memory_folder):
            raise OSError(errno.ENOSPC, "No space left on device")
        return mkdtemp(prefix=prefix, dir=str(fallback) if dir is None else dir)

    monkeypatch.setattr(tempfile, "mkdtemp", full_memory)
    directory = make_pool_directory()
    assert os.path.dirname(directory) == str(fallback)
    assert os.listdir(memory_folder) == []


def test_a_chosen_folder_that_refuses_the_directory_is_an_error(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The user's own choice is not second-guessed.
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", None)

    def full(prefix: str, dir: str | None = None) -> str:
        raise OSError(errno.ENOSPC, f"No space left on device: {dir}")

    monkeypatch.setattr(tempfile, "mkdtemp", full)
    with pytest.raises(OSError, match=f"No space left on device: {tmp_path}"):
        make_pool_directory()


@pytest.mark.parametrize("variable", ["TMPDIR", "TEMP", "TMP"])
def test_a_folder_chosen_in_the_environment_is_kept(
    memory_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, variable: str
) -> None:
    chosen = tmp_path / "chosen"
    chosen.mkdir()
    monkeypatch.setenv(variable, str(chosen))
    monkeypatch.setattr(tempfile, "tempdir", None)  # read the environment again
    assert pool_folder() == str(chosen)


def test_a_folder_chosen_through_tempfile_is_kept(
    memory_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert pool_folder() == str(tmp_path)


def test_a_memory_folder_that_is_not_sticky_is_not_used(memory_folder: Path) -> None:
    # Without the sticky bit anyone could rename or remove a pool's directory.
    memory_folder.chmod(0o777)
    assert pool_folder() == "/tmp"


def test_a_memory_folder_this_user_cannot_write_is_not_used(
    memory_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_folder.chmod(0o1777)
    monkeypatch.setattr(os, "access", lambda path, mode: False)
    assert pool_folder() == "/tmp"


def test_without_a_memory_folder_pools_go_to_the_temporary_folder(
    memory_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(reclaim, "MEMORY_FOLDER", str(memory_folder / "absent"))
    assert pool_folder() == "/tmp"


def test_abandoned_directories_are_reclaimed_from_both_folders(
    memory_folder: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Pools of an earlier version made theirs in tempfile's folder.
    old = tmp_path / "old"
    old.mkdir()
    monkeypatch.setattr(reclaim, "_SYSTEM_TEMP_FOLDERS", frozenset({str(old)}))
    monkeypatch.setattr(tempfile, "tempdir", str(old))
    assert pool_folder() == str(memory_folder)
    gone = []
    for folder in (memory_folder, old):
        directory = folder / f"{POOL_PREFIX}gone"
        directory.mkdir()
        # pid 0 never runs a process of ours: its owner is gone.
        (directory / "owner").write_text("0 1\n")
        gone.append(str(directory))
    assert sorted(reclaim_abandoned()) == sorted(gone)


async def test_a_pool_runs_with_its_directory_in_memory(memory_folder: Path) -> None:
    async with WorkerPool(size=0) as pool:
        assert os.path.dirname(pool._directory) == str(memory_folder)
        with anyio.fail_after(GUARD):
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
    assert result.value == 1
    assert os.listdir(memory_folder) == []  # removed with the pool
