"""Where a pool makes its directory (``sandbox._reclaim.pool_folder``).

In memory when nothing says otherwise (a child's directory is made and removed
for every run), in the temporary folder the user chose when they chose one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio
import pytest

import sandbox._reclaim as reclaim
from sandbox import WorkerPool
from sandbox._reclaim import POOL_PREFIX, make_pool_directory, pool_folder, reclaim_abandoned
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import Iterator

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


_MAKE_AND_HOLD: Final = (
    "import sys\n"
    "sys.path.insert(0, sys.argv[1])\n"
    "from sandbox._reclaim import make_pool_directory\n"
    "print(make_pool_directory(), flush=True)\n"
    "sys.stdin.readline()\n"
)


@contextlib.contextmanager
def _pool_directory_of_another_host(folder: Path) -> Iterator[tuple[Path, subprocess.Popen[str]]]:
    """A pool directory made in ``folder`` by another process, open until its stdin closes."""
    root = str(Path(reclaim.__file__).resolve().parent.parent)
    with subprocess.Popen(
        [sys.executable, "-c", _MAKE_AND_HOLD, root],
        env={**os.environ, "TMPDIR": str(folder)},
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as host:
        try:
            assert host.stdout is not None
            yield Path(host.stdout.readline().strip()), host
        finally:
            host.kill()


def test_a_live_pool_whose_pid_names_no_process_here_is_kept(
    memory_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A host in another pid namespace (another container of the pod sharing
    # /dev/shm) records a pid that names another process here, or none: judged
    # by it, its live directory was removed and every later run of its pool failed.
    with _pool_directory_of_another_host(memory_folder) as (directory, host):
        monkeypatch.setattr(reclaim, "_start_time", lambda pid: None)
        assert reclaim_abandoned(str(memory_folder)) == []
        assert directory.is_dir()
        assert host.poll() is None


def test_a_dead_pool_whose_pid_seems_alive_here_is_reclaimed(
    memory_folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The other way round: the pid recorded names a live process here with the
    # same start time (another namespace's numbering), but the owner is gone.
    with _pool_directory_of_another_host(memory_folder) as (directory, host):
        assert host.stdin is not None
        host.stdin.close()
        host.wait()
        started = (directory / "owner").read_text().split()[1]
        monkeypatch.setattr(reclaim, "_start_time", lambda pid: started)
        assert reclaim_abandoned(str(memory_folder)) == [str(directory)]
    assert not directory.exists()


def test_a_pool_keeps_its_own_directory_and_drops_its_lock_once_removed(
    memory_folder: Path,
) -> None:
    directory = make_pool_directory()
    assert reclaim_abandoned(str(memory_folder)) == []
    assert reclaim.remove_pool_directory(directory)
    assert not os.path.exists(directory)
    assert directory not in reclaim._owner_locks


async def test_a_pool_runs_with_its_directory_in_memory(memory_folder: Path) -> None:
    async with WorkerPool(size=0) as pool:
        assert os.path.dirname(pool._directory) == str(memory_folder)
        with anyio.fail_after(GUARD):
            result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
    assert result.value == 1
    assert os.listdir(memory_folder) == []  # removed with the pool


async def test_directories_a_program_closed_go_with_its_run_under_any_uid(
    memory_folder: Path,
) -> None:
    # A child without the filter runs as the host's uid when the host is not
    # root, and may take the permission bits off its own directories: they are
    # still removed (before, as a user, the run's and so the pool's directory stayed).
    from sandbox import Limits

    program = (
        "import os\n"
        "os.makedirs('a/b')\n"
        "open('a/b/f', 'w').close()\n"
        "os.chmod('a/b', 0)\n"
        "os.chmod('a', 0)\n"
        "os.chmod('.', 0o500)\n"
        "return os.getcwd()"
    )
    limits = Limits(language_layer=False, os_layer=False, tripwire=False)
    async with WorkerPool(size=0, limits=limits) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(program, tool_names=[], handler=EchoHandler())
        assert result.error is None, result.error
    assert os.listdir(memory_folder) == []  # the run's directory and the pool's are gone


def _deep_tree(top: Path, levels: int) -> None:
    descriptor = os.open(top, os.O_RDONLY)
    for _ in range(levels):
        os.mkdir("d", dir_fd=descriptor)
        deeper = os.open("d", os.O_RDONLY, dir_fd=descriptor)
        os.close(descriptor)
        descriptor = deeper
    os.close(descriptor)


def test_a_tree_deeper_than_the_recursion_limit_is_removed(tmp_path: Path) -> None:
    # shutil.rmtree recursed once per level (up to Python 3.12): about 1,000
    # levels down it raised RecursionError, which ignore_errors does not cover.
    top = tmp_path / "run-1"
    top.mkdir()
    _deep_tree(top, 3000)
    assert reclaim.remove_tree(str(top))
    assert not top.exists()


def test_removal_follows_no_link_and_opens_nothing_but_directories(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "kept").write_text("kept")
    top = tmp_path / "run-1"
    (top / "sub").mkdir(parents=True)
    (top / "sub" / "link").symlink_to(outside)
    (top / "link").symlink_to(outside / "kept")
    os.mkfifo(top / "fifo")  # opened, it would block the walk
    os.mkfifo(top / "sub" / "fifo")
    (top / "odd\nname \xff").mkdir(mode=0)
    (top / "plain").write_text("x")
    assert reclaim.remove_tree(str(top))
    assert not top.exists()
    assert (outside / "kept").read_text() == "kept"


def test_directories_the_program_closed_to_their_owner_are_removed_by_any_uid(
    tmp_path: Path,
) -> None:
    # Root walks any directory; another uid is held to the permission bits, and
    # a program running as that uid may take them off its own directories. The
    # owner may put them back, so such a host removes them as a root one does.
    top = tmp_path / "run-1"
    (top / "unreadable" / "deeper").mkdir(parents=True)
    (top / "unreadable" / "deeper" / "file").write_text("x")
    (top / "unreadable" / "deeper").chmod(0)
    (top / "unreadable").chmod(0)
    (top / "unwritable").mkdir()
    (top / "unwritable" / "file").write_text("x")
    (top / "unwritable").chmod(0o500)
    (top / "search-only").mkdir()
    (top / "search-only" / "file").write_text("x")
    (top / "search-only").chmod(0o100)
    top.chmod(0)
    assert reclaim.remove_tree(str(top))
    assert not top.exists()


@pytest.mark.skipif(os.geteuid() == 0, reason="root opens a closed directory as it is")
def test_a_closed_directory_is_opened_again_only_if_it_is_the_one_given_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its mode is changed through a descriptor, never by name; if the name then
    # leads to another directory (swapped under the walk), the walk stops there.
    top = tmp_path / "run-1"
    (top / "closed").mkdir(parents=True)
    (top / "closed").chmod(0)
    real_chmod = os.chmod

    def chmod_then_swap(path: str, mode: int) -> None:
        real_chmod(path, mode)
        (top / "closed").rename(tmp_path / "moved")
        (top / "closed").mkdir()
        (top / "closed" / "kept").write_text("kept")

    monkeypatch.setattr(os, "chmod", chmod_then_swap)
    assert not reclaim.remove_tree(str(top))
    assert (top / "closed" / "kept").read_text() == "kept"
    assert stat.S_IMODE((tmp_path / "moved").stat().st_mode) == 0o700


def test_removal_of_what_is_not_a_directory_fails_without_touching_it(tmp_path: Path) -> None:
    target = tmp_path / "target"
    target.mkdir()
    (target / "kept").write_text("kept")
    link = tmp_path / "run-1"
    link.symlink_to(target)
    assert not reclaim.remove_tree(str(link))
    assert (target / "kept").exists()
    assert reclaim.remove_tree(str(tmp_path / "absent"))


def test_an_abandoned_directory_too_deep_for_recursion_is_reclaimed(memory_folder: Path) -> None:
    directory = memory_folder / f"{POOL_PREFIX}deep"
    (directory / "run-1").mkdir(parents=True)
    (directory / "owner").write_text("0 1\n")
    _deep_tree(directory / "run-1", 3000)
    assert reclaim_abandoned(str(memory_folder)) == [str(directory)]
    assert not directory.exists()


async def test_what_a_child_left_in_its_directory_is_removed_off_the_event_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A child without the filter can fill its directory with any number of
    # files; removing them on the event loop held every other run (0.5 s for
    # 100,000 files). An empty directory is still removed at once.
    import threading

    import sandbox._pool_children as children_module
    from sandbox import Limits

    loop_thread = threading.current_thread()
    removals: list[tuple[str, bool]] = []
    removed = threading.Event()
    real_remove = reclaim.remove_tree

    def recording(path: str) -> bool:
        gone = real_remove(path)
        removals.append((path, threading.current_thread() is loop_thread))
        removed.set()
        return gone

    monkeypatch.setattr(children_module, "remove_tree", recording)
    program = (
        "import os\n"
        "for n in range(50):\n"
        "    os.close(os.open(f'f{n}', os.O_CREAT | os.O_WRONLY))\n"
        "return os.getcwd()"
    )
    limits = Limits(language_layer=False, os_layer=False, tripwire=False)
    async with WorkerPool(size=0, limits=limits) as pool:
        result = await pool.run(program, tool_names=[], handler=EchoHandler())
        assert result.error is None, result.error
        assert await anyio.to_thread.run_sync(removed.wait, 60)
        [(path, on_loop)] = removals
        assert path == result.value
        assert not on_loop
        assert not await anyio.Path(path).exists()
        # A run that leaves its directory empty removes it at once, not through here.
        again = await pool.run("return 1", tool_names=[], handler=EchoHandler())
        assert again.value == 1
        assert len(removals) == 1
