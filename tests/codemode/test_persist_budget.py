"""The per-run budget on what the host persists on a program's behalf (SECURITY.md, host work).

A program chooses how many sub-calls it makes and how large their arguments
and results are; every sub-call is logged twice (its start and its settle
event, each with the arguments) and a large result may be spilled to a file.
``Quotas.max_persisted_bytes`` and ``Quotas.max_spill_files`` bound what one
run may make the host write. These tests count the bytes the store and the
spill store really wrote, never time.
"""

from __future__ import annotations

import hashlib
import json
import os
import tempfile
import threading
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any
from unittest import mock

import anyio
import msgspec
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import codemode._log._events as events_module
import codemode.code_mode._persist as persist_module
from bridge.lossless import FrozenDict
from codemode import (
    AbortSignal,
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    ExecutionToken,
    ImageBlock,
    JsonlStore,
    ModelToolCall,
    SessionLog,
    TextBlock,
    ToolCallEvent,
    ToolExecution,
    ToolRunContext,
    read_events,
    replay,
    run_turn,
)
from codemode._errors import QUOTA_EXCEEDED
from codemode._log import EventStore, PersistBudget, dispatch_event_size, result_event
from codemode.code_mode import LocalSpillStore, Quotas, SpillPolicy
from codemode.code_mode._dispatch import SubDispatcher, dispatching
from codemode.code_mode._persist import (
    LOG_PREVIEW_BYTES,
    MEASURE_CHUNK_CHARS,
    content_size,
    measure_content,
)
from codemode.code_mode._quotas import DEFAULT_MAX_PERSISTED_BYTES, DEFAULT_MAX_SPILL_FILES
from sandbox import ToolCallFailed

from .test_code_mode_support import (
    AGENT,
    code_mode,
    make_tool,
    module_pool,
    registry_with,
    returned,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator, Iterator, Sequence

    from bridge.lossless import JsonValue
    from codemode import ContentBlock, Event, Registry
    from sandbox import WorkerPool

GUARD = 20  # seconds; a guard against hangs, never a timing assertion


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


# -- helpers ----------------------------------------------------------------------------------


class CountingStore:
    """A :class:`JsonlStore` that counts the bytes each append really added to its file."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._store = JsonlStore(path)
        self.written: list[tuple[str, int]] = []  # (kind, bytes) per append

    def append(self, event: Event) -> Event:
        before = os.path.getsize(self.path)
        stamped = self._store.append(event)
        kind = type(event).__struct_config__.tag
        assert isinstance(kind, str)
        self.written.append((kind, os.path.getsize(self.path) - before))
        return stamped

    def dispatch_bytes(self) -> int:
        return sum(n for kind, n in self.written if kind.startswith("tool/code-dispatch"))

    def sync(self) -> None:
        self._store.sync()

    def close(self) -> None:
        self._store.close()

    def read(self) -> Iterator[Event]:
        return self._store.read()


def outer_context(call_id: str = "outer") -> ToolRunContext:
    signal = AbortSignal()
    execution = ToolExecution(
        call_id=call_id, root_call_id=call_id, name="run_code", arguments=FrozenDict(),
        agent=AGENT, parent=None, token=ExecutionToken(), signal=signal,
    )
    return ToolRunContext(execution, signal)


def open_log(store: EventStore) -> SessionLog:
    log = SessionLog(store)
    log.append(ToolCallEvent(turn=1, step=0, call_id="outer", name="run_code", arguments="{}"))
    return log


@asynccontextmanager
async def serving(
    registry: Registry, log: SessionLog, quotas: Quotas
) -> AsyncIterator[SubDispatcher]:
    with anyio.fail_after(GUARD):
        async with dispatching(
            registry=registry, outer=outer_context(), log=log, quotas=quotas
        ) as dispatcher:
            yield dispatcher


def render_out(args: Any, value: Any) -> Sequence[ContentBlock]:
    """Content of ``args["out"]`` characters: the result's size is the test's to choose."""
    return [TextBlock(text="y" * int(args.get("out", 0)))]


def put_registry() -> Registry:
    return registry_with(make_tool("put", render=render_out))


def kinds(events: list[Event]) -> list[str]:
    return [str(type(e).__struct_config__.tag) for e in events]


def check_pairs_and_replay(path: Path, log: SessionLog | None = None) -> list[Event]:
    """Every start has exactly one settle, the log reopens cleanly and replays."""
    if log is not None:
        log.close()
    events = list(read_events(path))
    starts = [e.sub_call_id for e in events if isinstance(e, CodeDispatchStartEvent)]
    settles = [e.sub_call_id for e in events if isinstance(e, CodeDispatchEvent)]
    assert sorted(starts) == sorted(settles)
    assert len(set(starts)) == len(starts)
    # Reopening checks the dispatch invariants over the whole history.
    SessionLog(JsonlStore(path)).close()
    [root] = replay(events)
    assert [child.call_id for child in root.children] == starts
    assert all(child.is_error is not None for child in root.children)
    return events


def spill_bytes(root: Path) -> tuple[int, int]:
    files = [p for p in root.rglob("*") if p.is_file()]
    return len(files), sum(p.stat().st_size for p in files)


# -- the budget is a quota, configured with the others ---------------------------------------


def test_quotas_have_a_default_persist_budget_and_check_it() -> None:
    quotas = Quotas()
    assert quotas.max_persisted_bytes == DEFAULT_MAX_PERSISTED_BYTES == 64 * 1024 * 1024
    assert quotas.max_spill_files == DEFAULT_MAX_SPILL_FILES == 256
    assert Quotas(max_persisted_bytes=None, max_spill_files=None).max_persisted_bytes is None
    with pytest.raises(ValueError, match="max_persisted_bytes"):
        Quotas(max_persisted_bytes=-1)
    with pytest.raises(ValueError, match="max_spill_files"):
        Quotas(max_spill_files=1.5)  # type: ignore[arg-type]


def test_an_event_size_is_what_the_store_writes_at_most(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "s.jsonl")
    log = open_log(store)
    arguments: JsonValue = {"key": "k\n\"é", "values": [1, 2.5, None, True]}
    start = CodeDispatchStartEvent(
        root_call_id="outer", parent_call_id="outer", sub_call_id="outer:code:1",
        name="put", arguments=arguments,
    )
    size = dispatch_event_size(start, arguments_bytes=len(msgspec.json.encode(arguments)))
    log.append(start)
    written = store.written[-1][1]
    assert written <= size <= written + 64


# -- a run cannot persist more than its budget -----------------------------------------------


async def test_a_run_cannot_persist_more_than_its_budget(tmp_path: Path) -> None:
    budget = 20_000
    store = CountingStore(tmp_path / "s.jsonl")
    log = open_log(store)
    refused: list[ToolCallFailed] = []
    ran: list[str] = []

    async def put(args: Any, ctx: ToolRunContext) -> Any:
        ran.append(ctx.call_id)
        return True

    registry = registry_with(make_tool("put", body=put))
    async with serving(registry, log, Quotas(max_persisted_bytes=budget)) as dispatcher:
        for n in range(20):
            try:
                await dispatcher.call_tool("put", {"key": str(n), "value": "x" * 3000})
            except ToolCallFailed as exc:
                refused.append(exc)
        # Once the budget is spent, even a small call is refused.
        with pytest.raises(ToolCallFailed):
            await dispatcher.call_tool("put", {"key": "small", "value": "x" * 3000})
    assert store.dispatch_bytes() <= budget
    assert refused, "the budget must have refused some calls"
    first = refused[0]
    assert first.code == QUOTA_EXCEEDED
    assert "Quotas.max_persisted_bytes" in str(first)
    assert '"put" was not dispatched' in str(first)
    # A refused call ran nothing and used no number; every admitted one is logged whole.
    events = check_pairs_and_replay(store.path, log)
    starts = [e.sub_call_id for e in events if isinstance(e, CodeDispatchStartEvent)]
    assert ran == starts == [f"outer:code:{n}" for n in range(1, len(ran) + 1)]
    assert len(ran) + len(refused) == 20
    assert dispatcher.log_failures == []


async def test_a_result_over_the_budget_is_logged_as_a_preview_with_its_size_and_hash(
    tmp_path: Path,
) -> None:
    store = CountingStore(tmp_path / "s.jsonl")
    log = open_log(store)
    budget = 30_000
    async with serving(put_registry(), log, Quotas(max_persisted_bytes=budget)) as dispatcher:
        value = await dispatcher.call_tool("put", {"out": 100_000})
    # The program has the complete value; only the durable copy is cut.
    assert value == FrozenDict({"out": 100_000})
    assert store.dispatch_bytes() <= budget
    [_, _, settle] = check_pairs_and_replay(store.path, log)
    assert isinstance(settle, CodeDispatchEvent)
    assert settle.arguments == {"out": 100_000}  # the arguments are logged in full
    [block] = settle.content
    assert isinstance(block, TextBlock)
    original = msgspec.json.encode((TextBlock(text="y" * 100_000),))
    assert block.text.startswith("y" * 1024 + "\n\n(Logged copy cut to a preview")
    assert f"was {len(original)} bytes of JSON" in block.text
    assert f"SHA-256 {hashlib.sha256(original).hexdigest()}" in block.text
    assert f"Quotas.max_persisted_bytes = {budget} bytes" in block.text


async def test_spill_files_are_charged_and_counted(tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "s.jsonl")
    log = open_log(store)
    root = tmp_path / "spill"
    registry = put_registry()
    SpillPolicy(max_inline_bytes=1000, store=LocalSpillStore(root)).install(registry)
    quotas = Quotas(max_spill_files=2)
    async with serving(registry, log, quotas) as dispatcher:
        for _ in range(4):
            await dispatcher.call_tool("put", {"out": 5000})
    files, _ = spill_bytes(root)
    assert files == 2
    events = check_pairs_and_replay(store.path, log)
    texts = [
        e.content[0].text for e in events
        if isinstance(e, CodeDispatchEvent) and isinstance(e.content[0], TextBlock)
    ]
    assert sum("Full formatted result stored at" in t for t in texts) == 2
    digest = hashlib.sha256(b"y" * 5000).hexdigest()
    unstored = [t for t in texts if "Not stored" in t]
    assert len(unstored) == 2
    for text in unstored:
        assert "this run may write at most 2 spill files (Quotas.max_spill_files)" in text
        assert f"SHA-256 of the full text: {digest}" in text
        assert len(text.encode()) <= 1000


# -- the property: whatever the calls, the budget holds and the log stays whole ----------------


calls_strategy = st.lists(
    st.tuples(st.integers(0, 6000), st.integers(0, 6000)),  # (argument chars, content chars)
    max_size=12,
)


@settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow],
)
@given(
    calls=calls_strategy,
    budget=st.integers(0, 40_000),
    spill=st.one_of(st.none(), st.integers(500, 4000)),
    spill_files=st.integers(0, 3),
)
def test_persisted_bytes_never_exceed_the_budget_and_the_log_stays_whole(
    calls: list[tuple[int, int]], budget: int, spill: int | None, spill_files: int
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        path, root = Path(directory) / "s.jsonl", Path(directory) / "spill"
        store = CountingStore(path)
        log = open_log(store)
        registry = put_registry()
        if spill is not None:
            SpillPolicy(max_inline_bytes=spill, store=LocalSpillStore(root)).install(registry)
        quotas = Quotas(max_persisted_bytes=budget, max_spill_files=spill_files)
        outcomes: list[str] = []

        refusals: list[ToolCallFailed] = []

        async def main() -> None:
            async with serving(registry, log, quotas) as dispatcher:
                for chars, out in calls:
                    try:
                        await dispatcher.call_tool("put", {"value": "x" * chars, "out": out})
                        outcomes.append("ok")
                    except ToolCallFailed as exc:
                        refusals.append(exc)
                        outcomes.append("refused")
            assert dispatcher.log_failures == []

        anyio.run(main)
        assert all(exc.code == QUOTA_EXCEEDED for exc in refusals)
        assert all("Quotas.max_persisted_bytes" in str(exc) for exc in refusals)
        log.append(result_event(_ok(), turn=1, step=0, call_id="outer", name="run_code"))
        log.close()
        files, spilled = spill_bytes(root) if root.exists() else (0, 0)
        assert store.dispatch_bytes() + spilled <= budget
        assert files <= spill_files
        events = check_pairs_and_replay(path)
        texts = "".join(
            b.text for e in events if isinstance(e, CodeDispatchEvent)
            for b in e.content if isinstance(b, TextBlock)
        )
        event(f"refused: {'refused' in outcomes}")
        event(f"cut: {'Logged copy cut' in texts}")
        event(f"spilled: {files > 0}; not stored: {'Not stored' in texts}")
        starts = [e for e in events if isinstance(e, CodeDispatchStartEvent)]
        assert len(starts) == outcomes.count("ok")
        # An admitted call's arguments are logged in full, in both events.
        admitted = [call for call, o in zip(calls, outcomes, strict=True) if o == "ok"]
        for start, (chars, _) in zip(starts, admitted, strict=True):
            assert isinstance(start.arguments, dict)
            assert start.arguments["value"] == "x" * chars


def _ok() -> Any:
    from codemode import ToolSuccess

    return ToolSuccess(value=None, content=(TextBlock(text="done"),))


# -- under the budget, nothing changes -----------------------------------------------------------


async def test_a_run_under_its_budget_logs_exactly_as_without_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(events_module, "_clock", lambda: 1700000000.25)
    calls: list[JsonValue] = [
        {"key": "a", "value": "x" * 5000, "out": 20}, {"key": "b\n\"é", "out": 3}, {},
    ]

    async def run(quotas: Quotas, name: str) -> bytes:
        path = tmp_path / name
        log = open_log(JsonlStore(path))
        async with serving(put_registry(), log, quotas) as dispatcher:
            for args in calls:
                await dispatcher.call_tool("put", args)
        log.close()
        return path.read_bytes()

    limited = await run(Quotas(), "limited.jsonl")
    unlimited = await run(Quotas(max_persisted_bytes=None, max_spill_files=None), "free.jsonl")
    assert limited == unlimited
    lines = limited.splitlines(keepends=True)
    decoded = [msgspec.json.decode(line) for line in lines]
    # Each line is exactly what encoding its event gives (the arguments are spliced in
    # from their one encoding, byte for byte).
    assert lines == [msgspec.json.encode(e) + b"\n" for e in decoded]
    settles = [e for e in decoded if e["kind"] == "tool/code-dispatch"]
    assert [e["arguments"] for e in settles] == calls
    assert [e["content"] for e in settles] == [
        [{"type": "text", "text": "y" * 20}], [{"type": "text", "text": "yyy"}], [
            {"type": "text", "text": ""}],
    ]


# -- through the real sandbox ---------------------------------------------------------------------


async def test_a_program_looping_over_large_arguments_is_stopped_by_its_budget(
    pool: WorkerPool, tmp_path: Path
) -> None:
    # The finding: a program looping over `put(value=<4 MiB>)` wrote 1 GiB in 5 s.
    budget = 1024 * 1024
    store = CountingStore(tmp_path / "s.jsonl")
    log = SessionLog(store)
    registry = registry_with(make_tool("put"))
    program = (
        "blob = 'x' * 100_000\nsent = refused = 0\nmessage = None\n"
        "for n in range(40):\n"
        "    try:\n        await tools.put(key=str(n), value=blob)\n        sent += 1\n"
        "    except ToolCallError as e:\n        refused += 1\n        message = str(e)\n"
        "return [sent, refused, message]"
    )
    async with code_mode(registry, pool, log=log, quotas=Quotas(max_persisted_bytes=budget)):
        [result] = await run_turn(
            registry,
            [ModelToolCall(call_id="call-1", name="run_code",
                           arguments=json.dumps({"code": program, "description": "Loop"}))],
            agent=AGENT, signal=AbortSignal(), log=log, turn=1,
        )
    sent, refused, message = returned(result)
    assert sent + refused == 40
    assert 0 < sent < 40
    assert "QUOTA_EXCEEDED" in message
    assert "Quotas.max_persisted_bytes" in message
    assert store.dispatch_bytes() <= budget
    events = check_pairs_and_replay(store.path, log)
    assert kinds(events)[-1] == "tool/result"


def test_a_budget_refuses_what_does_not_fit_and_settles_what_was_reserved() -> None:
    budget = PersistBudget(max_bytes=100, max_spill_files=1)
    assert budget.reserve(60)
    assert not budget.reserve(41)
    assert budget.room() == 40
    budget.settle(60, 30)  # the event took less than was held
    assert budget.committed == 30
    assert budget.reserve_spill(50) is None
    assert budget.reserve_spill(1) == (
        "this run may write at most 1 spill files (Quotas.max_spill_files)"
    )
    assert PersistBudget(max_bytes=10).reserve_spill(11) is not None


# -- a long content is measured off the event loop -------------------------------------------


class CountingEncoder:
    """Stands for the budget's JSON encoder: records each encoding's thread and size."""

    def __init__(self, inner: msgspec.json.Encoder) -> None:
        self._inner = inner
        self.calls: list[tuple[int, int]] = []  # (thread id, bytes produced)

    def encode(self, value: object) -> bytes:
        out = self._inner.encode(value)
        self.calls.append((threading.get_ident(), len(out)))
        return out


@pytest.mark.parametrize("listener", [False, True], ids=["no-listener", "listener"])
async def test_a_long_content_is_measured_off_the_loop_a_chunk_at_a_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, listener: bool
) -> None:
    # A tool's content (its rendering of its value) is bounded by no frame or
    # value cap, and a cut copy needs all of it measured and hashed: that was
    # one encoding and one SHA-256 of the whole content on the event loop.
    encoder = CountingEncoder(persist_module._encoder)
    monkeypatch.setattr(persist_module, "_encoder", encoder)
    loop_thread = threading.get_ident()
    store = CountingStore(tmp_path / "s.jsonl")
    log = open_log(store)
    registry = put_registry()
    if listener:

        async def same(dispatch: Any, proceed: Any) -> Any:
            return await proceed()

        registry.on_code_dispatch_log(same)
    size = 2_000_000
    async with serving(registry, log, Quotas(max_persisted_bytes=30_000)) as dispatcher:
        await dispatcher.call_tool("put", {"out": size})
    [_, _, settle] = check_pairs_and_replay(store.path, log)
    assert isinstance(settle, CodeDispatchEvent)
    [block] = settle.content
    assert isinstance(block, TextBlock)
    original = msgspec.json.encode((TextBlock(text="y" * size),))
    assert f"was {len(original)} bytes of JSON" in block.text
    assert f"SHA-256 {hashlib.sha256(original).hexdigest()}" in block.text
    on_loop = [n for thread, n in encoder.calls if thread == loop_thread]
    assert max(on_loop, default=0) <= 4 * LOG_PREVIEW_BYTES, on_loop
    assert max(n for _, n in encoder.calls) <= MEASURE_CHUNK_CHARS + 64


_TEXTS = st.text(st.sampled_from(["a", "é", "\n", '"', "\\", "\x00", "\u2028", "😀"]), max_size=40)


@settings(max_examples=300, deadline=None)
@given(
    blocks=st.lists(
        st.one_of(
            st.builds(TextBlock, text=_TEXTS),
            st.builds(ImageBlock, data=_TEXTS, mime_type=_TEXTS),
        ),
        max_size=4,
    ),
    chunk=st.integers(1, 9),
)
def test_a_content_measured_in_chunks_is_measured_as_encoded_whole(
    blocks: list[TextBlock | ImageBlock], chunk: int
) -> None:
    whole = msgspec.json.encode(tuple(blocks))
    with mock.patch.object(persist_module, "MEASURE_CHUNK_CHARS", chunk):
        measured = measure_content(tuple(blocks))
    assert measured.size == len(whole)
    assert measured.digest == hashlib.sha256(whole).hexdigest()
    assert measured.head == whole[:LOG_PREVIEW_BYTES]


@settings(max_examples=300, deadline=None)
@given(
    blocks=st.lists(
        st.one_of(
            st.builds(TextBlock, text=_TEXTS),
            st.builds(ImageBlock, data=_TEXTS, mime_type=_TEXTS),
        ),
        max_size=4,
    ),
)
def test_a_short_content_is_sized_as_measured(blocks: list[TextBlock | ImageBlock]) -> None:
    # The settle event's budget check sizes a short content without hashing it:
    # the same bytes measure_content counts.
    assert content_size(tuple(blocks)) == measure_content(tuple(blocks)).size
