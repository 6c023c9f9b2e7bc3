"""Spill files against a hostile file system and over time.

* every write is relative to a checked directory descriptor: swapping the
  session directory for a symlink between the check and the write lands
  nothing in the symlink's target;
* a root another user controls is refused, and a session directory someone
  made in advance cannot block saves (names are unpredictable);
* a failing save never puts the full text inline;
* the default store's directory is removed when the store/policy closes or is
  collected, a given root never is; one store writes a bounded number of
  files and bytes.
"""

from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import secrets
import stat
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode.code_mode import LocalSpillStore, SpillPolicy
from codemode.code_mode._spill import spill_text

OTHER_UID = 65534
as_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root to make another user's files")


def save(store: LocalSpillStore, content: str = "x", session_id: str = "default") -> str:
    return store.save_text(
        session_id=session_id, tool_name="t", call_id="c", label="result",
        suggested_name="t.txt", content=content,
    )


def all_files(root: Path) -> list[str]:
    return [os.path.join(d, f) for d, _, fs in os.walk(root) for f in fs]


# -- the race -------------------------------------------------------------------------------------


def test_a_session_directory_swapped_mid_save_is_not_followed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Swap the session directory for a symlink at the one moment a path-based
    # save is exposed: after the directory was made and checked, before the
    # file is opened (when the file's random name is drawn).
    root, target = tmp_path / "root", tmp_path / "target"
    root.mkdir(mode=0o700)
    target.mkdir(mode=0o700)
    real_token_hex = secrets.token_hex
    swapped: list[str] = []

    def token_hex(n: int | None = None) -> str:
        for entry in os.listdir(root):
            path = root / entry
            if entry.startswith("session-") and not path.is_symlink() and not swapped:
                path.rename(root / "parked")
                path.symlink_to(target)
                swapped.append(entry)
        return real_token_hex(n)

    monkeypatch.setattr(secrets, "token_hex", token_hex)
    store = LocalSpillStore(root)
    for _ in range(3):
        with contextlib.suppress(OSError):
            save(store, "program-chosen content")
    assert swapped
    assert os.listdir(target) == []


@as_root
def test_a_root_another_user_controls_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "shared"
    root.mkdir()
    os.chown(root, OTHER_UID, OTHER_UID)
    os.chmod(root, 0o755)
    store = LocalSpillStore(root)
    with pytest.raises(PermissionError, match="not safe for spill files"):
        save(store)
    assert os.listdir(root) == []


@as_root
def test_a_root_that_is_another_users_symlink_is_refused(tmp_path: Path) -> None:
    # In a sticky shared folder the link's owner may re-point it between saves.
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    link = tmp_path / "shared"
    link.symlink_to(mine)
    os.chown(link, OTHER_UID, OTHER_UID, follow_symlinks=False)
    store = LocalSpillStore(link)
    with pytest.raises(PermissionError, match="symbolic link owned by uid"):
        save(store)
    assert os.listdir(mine) == []


def test_a_root_that_is_this_users_symlink_is_followed(tmp_path: Path) -> None:
    mine = tmp_path / "mine"
    mine.mkdir(mode=0o700)
    link = tmp_path / "shared"
    link.symlink_to(mine)
    store = LocalSpillStore(link)
    assert Path(save(store)).resolve().parent.parent == mine


def test_a_root_anyone_may_write_without_the_sticky_bit_is_refused(tmp_path: Path) -> None:
    root = tmp_path / "open"
    root.mkdir()
    os.chmod(root, 0o777)
    with pytest.raises(PermissionError, match="not safe for spill files"):
        save(LocalSpillStore(root))
    assert os.listdir(root) == []
    os.chmod(root, 0o1777)  # sticky, like /tmp: others cannot rename our entries
    assert Path(save(LocalSpillStore(root))).read_text() == "x"


def test_a_session_directory_made_in_advance_cannot_block_saves(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir(mode=0o700)
    for session_id in ("default", "s"):
        digest = hashlib.sha256(session_id.encode()).hexdigest()[:12]
        planted = root / f"session-{digest}"
        if os.geteuid() == 0:
            planted.mkdir(mode=0o777)
            os.chown(planted, OTHER_UID, OTHER_UID)
        else:
            planted.write_text("squatted")
    store = LocalSpillStore(root)
    for session_id in ("default", "s"):
        path = Path(save(store, "full", session_id))
        assert path.read_text() == "full"
        info = path.parent.lstat()
        assert stat.S_ISDIR(info.st_mode)
        assert info.st_uid == os.geteuid()
        assert stat.S_IMODE(info.st_mode) == 0o700


def test_two_stores_on_one_root_use_different_session_directories(tmp_path: Path) -> None:
    first = Path(save(LocalSpillStore(tmp_path)))
    second = Path(save(LocalSpillStore(tmp_path)))
    assert first.parent != second.parent


# -- a failing store never puts the text inline ---------------------------------------------------


@settings(max_examples=200, deadline=None)
@given(
    size=st.integers(0, 20_000),
    limit=st.integers(1, 5000),
    message=st.text(max_size=2000),
)
def test_a_failing_save_never_keeps_an_oversized_text_when_a_notice_fits(
    size: int, limit: int, message: str
) -> None:
    def broken(full: str) -> str:
        raise OSError(message)

    text = "w" * size
    replaced = spill_text(text, max_inline_bytes=limit, save=broken)
    if size <= limit:
        assert replaced is None
    elif limit >= 600:  # room for the notice with the longest quoted reason
        assert replaced is not None
        assert len(replaced.encode()) <= limit
        assert "Not stored" in replaced


def test_a_refused_root_gives_the_policy_a_preview_not_the_text(tmp_path: Path) -> None:
    root = tmp_path / "open"
    root.mkdir()
    os.chmod(root, 0o777)
    policy = SpillPolicy(max_inline_bytes=1000, store=LocalSpillStore(root))
    replaced = policy._spill("q" * 50_000, tool_name="t", call_id="c", label="result")
    assert replaced is not None
    assert len(replaced.encode()) <= 1000
    assert "Not stored: the spill store failed (PermissionError" in replaced


# -- retention ------------------------------------------------------------------------------------


@pytest.fixture
def temp_root(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    return tmp_path


def test_closing_the_default_store_removes_its_directory(temp_root: Path) -> None:
    store = LocalSpillStore()
    for _ in range(5):
        save(store, "y" * 1000)
    assert len(all_files(temp_root)) == 5
    store.close()
    assert os.listdir(temp_root) == []
    with pytest.raises(RuntimeError, match="closed"):
        save(store)


def test_closing_the_policy_removes_its_default_store(temp_root: Path) -> None:
    with SpillPolicy(max_inline_bytes=1000) as policy:
        for _ in range(4):
            replaced = policy._spill("z" * 10_000, tool_name="t", call_id="c", label="result")
            assert replaced is not None
            assert "stored at" in replaced
        assert len(all_files(temp_root)) == 4
    assert os.listdir(temp_root) == []
    # After closing, oversized text is still kept out of the context.
    late = policy._spill("z" * 10_000, tool_name="t", call_id="c", label="result")
    assert late is not None
    assert "Not stored" in late


def test_an_unclosed_default_store_is_removed_when_collected(temp_root: Path) -> None:
    policy: Any = SpillPolicy(max_inline_bytes=1000)
    policy._spill("z" * 10_000, tool_name="t", call_id="c", label="result")
    assert len(all_files(temp_root)) == 1
    del policy
    gc.collect()
    assert os.listdir(temp_root) == []


def test_a_given_root_or_store_is_never_removed(tmp_path: Path) -> None:
    root = tmp_path / "mine"
    store = LocalSpillStore(root)
    with SpillPolicy(max_inline_bytes=1000, store=store) as policy:
        policy._spill("z" * 10_000, tool_name="t", call_id="c", label="result")
    assert len(all_files(root)) == 1
    store.close()
    assert len(all_files(root)) == 1


@settings(max_examples=50, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 3000), max_size=30),
    max_files=st.integers(0, 10),
    max_bytes=st.integers(0, 20_000),
)
def test_one_store_writes_at_most_its_caps(
    sizes: list[int], max_files: int, max_bytes: int
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        store = LocalSpillStore(directory, max_total_bytes=max_bytes, max_files=max_files)
        refusals: list[str] = []
        for size in sizes:
            try:
                save(store, "v" * size)
            except OSError as exc:
                refusals.append(str(exc))
        assert all("max_files" in r or "max_total_bytes" in r for r in refusals)
        files = all_files(Path(directory))
        assert len(files) <= max_files
        assert sum(os.path.getsize(f) for f in files) <= max_bytes
