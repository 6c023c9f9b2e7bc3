"""The spill policy: oversized text saved to a private file and replaced by a preview (§5.3)."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from codemode import (
    AbortSignal,
    Accept,
    Block,
    CallInput,
    CodeDispatchEvent,
    ImageBlock,
    TextBlock,
    ToolRunContext,
    text_of,
)
from codemode.code_mode import LocalSpillStore, SpillPolicy
from codemode.code_mode._spill import RETRIEVAL_HINT, spill_text

from .test_code_mode_support import (
    AGENT,
    code_mode,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
    turn_log,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from sandbox import WorkerPool

NOTICE = re.compile(
    r"\(Omitted (\d+) bytes\. Full formatted result stored at: (.+?)\. "
    + re.escape(RETRIEVAL_HINT)
    + r"\)$"
)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


def spilled(locator: str) -> str:
    """The text saved at ``locator`` (read synchronously: a small local file)."""
    with open(locator, encoding="utf-8") as handle:
        return handle.read()


class Saved:
    """A ``save`` callback that keeps what it was given."""

    def __init__(self) -> None:
        self.texts: list[str] = []

    def __call__(self, text: str) -> str:
        self.texts.append(text)
        return f"/spill/{len(self.texts)}.txt"


# -- the algorithm ---------------------------------------------------------------------------------


def test_text_within_the_limit_is_kept_and_nothing_is_saved() -> None:
    saved = Saved()
    assert spill_text("x" * 100, max_inline_bytes=100, save=saved) is None
    assert saved.texts == []


def test_oversized_text_becomes_head_and_tail_with_a_notice_naming_the_locator() -> None:
    saved = Saved()
    text = "".join(f"line {i}\n" for i in range(1000))
    replaced = spill_text(text, max_inline_bytes=400, save=saved)
    assert replaced is not None
    assert saved.texts == [text]
    preview, notice = replaced.split("\n\n(", 1)
    match = NOTICE.fullmatch("(" + notice)
    assert match is not None
    assert match.group(2) == "/spill/1.txt"
    assert text.startswith(preview[: len(preview) // 2])
    assert int(match.group(1)) == len(text) - len(preview)
    assert len(replaced.encode()) <= 400


@given(
    text=st.text(alphabet=st.characters(codec="utf-8"), min_size=0, max_size=400),
    limit=st.integers(min_value=1, max_value=600),
)
def test_a_replacement_never_exceeds_the_limit_and_previews_a_true_head_and_tail(
    text: str, limit: int
) -> None:
    replaced = spill_text(text, max_inline_bytes=limit, save=lambda full: "/s/x.txt")
    data = text.encode()
    if len(data) <= limit:
        assert replaced is None
        return
    if replaced is None:  # not even the notice fits: the original is kept
        return
    assert len(replaced.encode()) <= limit
    preview, _, _ = replaced.rpartition("\n\n(Omitted ")
    match = NOTICE.search(replaced)
    assert match is not None
    shown = preview.encode()
    assert len(shown) + int(match.group(1)) == len(data)
    # The preview is a prefix of the text followed by a suffix of it.
    assert any(
        data.startswith(shown[:cut]) and data.endswith(shown[cut:])
        for cut in range(len(shown) + 1)
    )


def test_a_budget_too_small_for_a_preview_gives_the_notice_alone() -> None:
    notice = f"(Omitted 10000 bytes. Full formatted result stored at: /s/a.txt. {RETRIEVAL_HINT})"
    limit = len(notice) + 1  # room for the notice, none for a preview and its separator
    replaced = spill_text("y" * 10_000, max_inline_bytes=limit, save=lambda full: "/s/a.txt")
    assert replaced == notice


def test_a_limit_smaller_than_the_notice_keeps_the_original_and_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, "codemode.spill"):
        assert spill_text("z" * 1000, max_inline_bytes=20, save=lambda full: "/s/a.txt") is None
    assert "too small" in caplog.text


def test_a_failing_save_gives_the_unstored_notice_and_warns(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # The bound holds even when the store fails: never the full text inline.
    def broken(full: str) -> str:
        raise OSError("disk full")

    with caplog.at_level(logging.WARNING, "codemode.spill"):
        replaced = spill_text("z" * 1000, max_inline_bytes=300, save=broken)
    assert replaced is not None
    assert len(replaced.encode()) <= 300
    assert "Not stored: the spill store failed (OSError: disk full)" in replaced
    assert hashlib.sha256(b"z" * 1000).hexdigest() in replaced
    assert "could not save" in caplog.text


def test_multibyte_text_is_cut_on_character_boundaries() -> None:
    replaced = spill_text("é" * 5000, max_inline_bytes=400, save=lambda full: "/s/a.txt")
    assert replaced is not None
    preview = replaced.split("\n\n(Omitted")[0]
    assert set(preview) == {"é"}


# -- the local store -------------------------------------------------------------------------------


def test_spill_files_are_0600_in_a_private_0700_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The default root is made under the system temp directory: here, the test's own.
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    store = LocalSpillStore()
    locator = store.save_text(
        session_id="s1", tool_name="t", call_id="c1", label="result",
        suggested_name="t.txt", content="full text",
    )
    path = Path(locator)
    assert path.is_absolute()
    assert path.read_text() == "full text"
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(store.root.stat().st_mode) == 0o700
    assert path.parent.parent == store.root
    assert store.root.parent == tmp_path


def test_a_configured_root_is_created_private_and_sessions_are_hashed(tmp_path: Path) -> None:
    root = tmp_path / "spill"
    store = LocalSpillStore(root)
    first = Path(store.save_text(session_id="a", tool_name="t", call_id="c", label="result",
                                 suggested_name="t.txt", content="1"))
    second = Path(store.save_text(session_id="a", tool_name="t", call_id="c", label="result",
                                  suggested_name="t.txt", content="2"))
    other = Path(store.save_text(session_id="b", tool_name="t", call_id="c", label="result",
                                 suggested_name="t.txt", content="3"))
    assert stat.S_IMODE(root.stat().st_mode) == 0o700
    assert first != second
    assert first.parent == second.parent != other.parent
    assert re.fullmatch(r"session-[0-9a-f]{12}-[0-9a-f]{16}", first.parent.name)


def test_exotic_tool_names_are_encoded_and_cannot_climb_directories(tmp_path: Path) -> None:
    store = LocalSpillStore(tmp_path)
    path = Path(store.save_text(session_id="s", tool_name="../x", call_id="c", label="result",
                                suggested_name="../../evil/name.txt", content="x"))
    assert path.parent.parent == tmp_path.resolve()
    assert re.fullmatch(r"[0-9a-f]{12}-\.\.~002F\.\.~002Fevil~002Fname\.txt", path.name)
    assert os.listdir(tmp_path) == [path.parent.name]


def test_the_policy_rejects_a_limit_that_is_not_a_positive_int() -> None:
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="max_inline_bytes="):
            SpillPolicy(max_inline_bytes=bad)  # type: ignore[arg-type]


# -- both arms, end to end -------------------------------------------------------------------------


async def test_the_model_facing_run_code_result_is_spilled(
    pool: WorkerPool, tmp_path: Path
) -> None:
    registry = registry_with(make_tool("t"))
    SpillPolicy(max_inline_bytes=500, store=LocalSpillStore(tmp_path)).install(registry)
    async with code_mode(registry, pool):
        result = await run_code(registry, "return 'a' * 5000")
    text = text_of(result.content)
    assert len(text.encode()) <= 500
    match = NOTICE.search(text)
    assert match is not None
    assert spilled(match.group(2)) == "a" * 5000
    assert returned(result) == "a" * 5000  # the canonical value is untouched


async def test_a_sub_calls_logged_copy_is_spilled_while_the_program_gets_the_full_value(
    pool: WorkerPool, tmp_path: Path
) -> None:
    log = turn_log()

    async def big(args: Any, ctx: ToolRunContext) -> Any:
        return "b" * 20_000

    registry = registry_with(make_tool("big", body=big))
    SpillPolicy(max_inline_bytes=600, store=LocalSpillStore(tmp_path)).install(registry)
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, "v = await tools.big()\nreturn len(v)")
    assert returned(result) == 20_000
    [settled] = [e for e in log.events() if isinstance(e, CodeDispatchEvent)]
    logged = text_of(settled.content)
    assert len(logged.encode()) <= 600
    match = NOTICE.search(logged)
    assert match is not None
    assert spilled(match.group(2)) == '"' + "b" * 20_000 + '"'


async def test_exempt_tools_and_non_text_results_are_not_spilled(tmp_path: Path) -> None:
    def image(args: Any, value: Any) -> Any:
        return [TextBlock(text="c" * 5000), ImageBlock(data="aGk=", mime_type="image/png")]

    registry = registry_with(make_tool("read"), make_tool("img", render=image), mode="native")
    SpillPolicy(max_inline_bytes=200, store=LocalSpillStore(tmp_path), exempt_tools=["read"]
                ).install(registry)
    long = {"text": "d" * 5000}
    read = await registry.execute(CallInput("c1", "read", long, AbortSignal(), agent=AGENT))
    img = await registry.execute(CallInput("c2", "img", {}, AbortSignal(), agent=AGENT))
    assert len(text_of(read.content)) > 5000
    assert len(text_of(img.content)) > 5000
    assert os.listdir(tmp_path) == []


async def test_a_direct_call_in_native_mode_is_spilled_too(tmp_path: Path) -> None:
    registry = registry_with(make_tool("t"), mode="native")
    dispose = SpillPolicy(max_inline_bytes=300, store=LocalSpillStore(tmp_path)).install(registry)
    long = {"text": "e" * 5000}
    result = await registry.execute(CallInput("c1", "t", long, AbortSignal(), agent=AGENT))
    assert NOTICE.search(text_of(result.content)) is not None
    dispose()
    again = await registry.execute(CallInput("c2", "t", long, AbortSignal(), agent=AGENT))
    assert NOTICE.search(text_of(again.content)) is None


def test_a_session_directory_that_is_not_private_is_refused(tmp_path: Path) -> None:
    store = LocalSpillStore(tmp_path)
    first = Path(store.save_text(session_id="s", tool_name="t", call_id="c", label="result",
                                 suggested_name="t.txt", content="x"))
    first.parent.chmod(0o755)
    with pytest.raises(PermissionError, match="not a private directory"):
        store.save_text(session_id="s", tool_name="t", call_id="c", label="result",
                        suggested_name="t.txt", content="y")


def test_a_symlink_in_place_of_the_session_directory_is_refused(tmp_path: Path) -> None:
    store = LocalSpillStore(tmp_path / "root")
    first = Path(store.save_text(session_id="s", tool_name="t", call_id="c", label="result",
                                 suggested_name="t.txt", content="x"))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir(mode=0o700)
    session = first.parent
    first.unlink()
    session.rmdir()
    session.symlink_to(elsewhere)
    with pytest.raises(PermissionError, match="not a private directory"):
        store.save_text(session_id="s", tool_name="t", call_id="c", label="result",
                        suggested_name="t.txt", content="y")
    assert os.listdir(elsewhere) == []


def test_a_very_long_tool_name_still_makes_a_valid_file_name(tmp_path: Path) -> None:
    store = LocalSpillStore(tmp_path)
    path = Path(store.save_text(session_id="s", tool_name="t", call_id="c", label="result",
                                suggested_name="é" * 300 + ".txt", content="x"))
    assert path.read_text() == "x"
    assert len(path.name.encode()) <= 255


# -- the exact shape of a replacement and of the model-facing arm's reach --------------------------


def test_the_preview_budget_reserves_the_full_size_notice_and_splits_head_ceil_tail_floor() -> None:
    # The notice is priced with the full byte count plus the two separator
    # bytes; what is left is split with the odd byte going to the head.
    text = "a" * 6000 + "b" * 6000
    locator = "/s/a.txt"
    full_notice = (
        f"(Omitted {len(text)} bytes. Full formatted result stored at: {locator}. "
        f"{RETRIEVAL_HINT})"
    )
    reserved = len(full_notice.encode()) + 2
    limit = reserved + 801  # a preview budget of 801 bytes: odd, so the split shows
    replaced = spill_text(text, max_inline_bytes=limit, save=lambda full: locator)
    head, tail = "a" * 401, "b" * 400
    omitted = len(text) - 801
    assert replaced == (
        f"{head}{tail}\n\n(Omitted {omitted} bytes. Full formatted result stored at: "
        f"{locator}. {RETRIEVAL_HINT})"
    )


def test_a_session_directory_is_named_by_the_sha256_of_the_session_id(tmp_path: Path) -> None:
    store = LocalSpillStore(tmp_path)
    path = Path(store.save_text(session_id="session-7", tool_name="t", call_id="c",
                                label="result", suggested_name="t.txt", content="x"))
    digest = hashlib.sha256(b"session-7").hexdigest()[:12]
    assert path.parent.name.startswith(f"session-{digest}-")
    assert re.fullmatch(r"[0-9a-f]{12}-t\.txt", path.name)


async def test_the_dispatch_log_arm_bounds_an_exempt_tools_logged_copy(
    pool: WorkerPool, tmp_path: Path
) -> None:
    # `exempt_tools` spares only what the model reads of a top-level call; the
    # durable copy of a sub-call is bounded whatever its tool.
    log = turn_log()

    async def big(args: Any, ctx: ToolRunContext) -> Any:
        return "r" * 20_000

    registry = registry_with(make_tool("read", body=big))
    SpillPolicy(max_inline_bytes=600, store=LocalSpillStore(tmp_path), exempt_tools=["read"]
                ).install(registry)
    async with code_mode(registry, pool, log=log):
        result = await run_code(registry, "v = await tools.read()\nreturn len(v)")
    assert returned(result) == 20_000
    [settled] = [e for e in log.events() if isinstance(e, CodeDispatchEvent)]
    match = NOTICE.search(text_of(settled.content))
    assert match is not None
    assert spilled(match.group(2)) == '"' + "r" * 20_000 + '"'


async def test_the_model_facing_arm_leaves_a_sub_calls_result_whole(
    pool: WorkerPool, tmp_path: Path
) -> None:
    # A sub-call's result is no model-facing result: its content reaches the
    # result observers (and the dispatch-log waterfall) unspilled.
    seen: list[tuple[str, str]] = []

    def observe(execution: Any, result: Any) -> None:
        seen.append((execution.call_id, text_of(result.content)))

    async def big(args: Any, ctx: ToolRunContext) -> Any:
        return "s" * 5000

    registry = registry_with(make_tool("big", body=big))
    SpillPolicy(max_inline_bytes=300, store=LocalSpillStore(tmp_path)).install(registry)
    registry.on_result(observe)
    async with code_mode(registry, pool):
        await run_code(registry, "await tools.big()\nreturn 1")
    [(sub_id, sub_text)] = [(i, t) for i, t in seen if i != "call-1"]
    assert sub_id == "call-1:code:1"
    assert sub_text == '"' + "s" * 5000 + '"'
    assert os.listdir(tmp_path) == []


async def test_the_model_facing_arm_leaves_a_block_and_a_value_replacement_alone(
    tmp_path: Path,
) -> None:
    async def later(execution: Any, result: Any, proceed: Any) -> Any:
        await proceed()
        if execution.name == "blocked":
            return Block(feedback=[TextBlock(text="f" * 5000)])
        return Accept(value={"v": "g" * 5000})

    registry = registry_with(make_tool("blocked"), make_tool("replaced"), mode="native")
    SpillPolicy(max_inline_bytes=300, store=LocalSpillStore(tmp_path)).install(registry)
    registry.post_execute(later)
    blocked = await registry.execute(CallInput("c1", "blocked", {}, AbortSignal(), agent=AGENT))
    replaced = await registry.execute(CallInput("c2", "replaced", {}, AbortSignal(), agent=AGENT))
    assert blocked.is_error
    assert "f" * 5000 in text_of(blocked.content)
    assert not replaced.is_error
    assert "g" * 5000 in text_of(replaced.content)
    assert os.listdir(tmp_path) == []
