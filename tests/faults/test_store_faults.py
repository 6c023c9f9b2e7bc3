"""Fault matrix, the session-log store: a store that raises, and a full disk (``ENOSPC``).

A store failure is never swallowed: a sub-call whose start cannot be logged is
not dispatched (the program sees ``ToolCallError`` with code
``LOG_WRITE_FAILED``), a settle event that cannot be logged is named, and
``run_code`` ends as ``LOG_WRITE_FAILED`` saying which events are missing. A
write cut short by a full disk leaves no partial line in the file.
"""

from __future__ import annotations

import errno
import os
from typing import TYPE_CHECKING, Any

import pytest

from codemode import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    JsonlStore,
    MemoryStore,
    read_events,
)
from codemode._errors import LOG_WRITE_FAILED
from codemode._log import _jsonl
from tests.codemode.test_code_mode_support import make_tool, registry_with
from tests.faults.support import (
    assert_next_run_is_served,
    assert_one_settle_each,
    code_and_kind,
    open_cell,
)

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

pytestmark = pytest.mark.slow

PROGRAM = """
results = []
for n in range(3):
    try:
        results.append(await tools.t(n=n))
    except ToolCallError as error:
        results.append([error.code, str(error)])
return results
"""


class FailingStore:
    """A memory store that fails one append of an event kind (the one after ``after`` others)."""

    def __init__(self, failing: type[Event], *, after: int) -> None:
        self._inner = MemoryStore()
        self._failing = failing
        self._after = after
        self.armed = False

    def append(self, event: Event) -> Event:
        if self.armed and isinstance(event, self._failing):
            self._after -= 1
            if self._after == -1:
                raise OSError(errno.EIO, "the log backend is unreachable")
        return self._inner.append(event)

    def sync(self) -> None:
        self._inner.sync()

    def close(self) -> None:
        self._inner.close()

    def read(self) -> Iterator[Event]:
        return self._inner.read()


async def test_a_store_failing_on_a_settle_event_is_reported_by_run_code() -> None:
    store = FailingStore(CodeDispatchEvent, after=1)
    async with open_cell(registry_with(make_tool("t")), store=store) as cell:
        store.armed = True
        result = await cell.run(PROGRAM)
        store.armed = False
        assert code_and_kind(result) == (LOG_WRITE_FAILED, None)
        text = result.content[0].text  # type: ignore[union-attr]
        assert "could not record 1 dispatch event" in text
        assert "tool/code-dispatch of call-1:code:2 (OSError:" in text
        assert "the log backend is unreachable" in text
        assert cell.started() == ["call-1:code:1", "call-1:code:2", "call-1:code:3"]
        assert_one_settle_each(cell.events_at_return, unlogged=frozenset({"call-1:code:2"}))
        await assert_next_run_is_served(cell)


async def test_a_sub_call_whose_start_cannot_be_logged_is_not_dispatched() -> None:
    store = FailingStore(CodeDispatchStartEvent, after=1)
    calls: list[Any] = []

    async def body(args: Any, ctx: Any) -> Any:
        calls.append(dict(args))
        return dict(args)

    async with open_cell(registry_with(make_tool("t", body=body)), store=store) as cell:
        store.armed = True
        result = await cell.run(PROGRAM)
        store.armed = False
        assert code_and_kind(result) == (LOG_WRITE_FAILED, None)
        assert "tool/code-dispatch-start of call-1:code:2" in result.content[0].text  # type: ignore[union-attr]
        assert calls == [{"n": 0}, {"n": 2}]  # the second call never ran
        assert cell.started() == ["call-1:code:1", "call-1:code:3"]
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell)


class _FullDisk:
    """Stands in for ``os`` inside the store module: writes to one fd fill the disk midway."""

    def __init__(self) -> None:
        self.fd = -1
        self.full = False

    def write(self, fd: int, data: Any) -> int:
        if fd == self.fd and self.full:
            half = len(data) // 2
            if half and len(data) > 16:
                return os.write(fd, bytes(data[:half]))  # part of the line, then no room
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return os.write(fd, data)

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


async def test_a_full_disk_is_reported_and_leaves_only_whole_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Regression: a write cut short left half a line, and the next append
    # glued onto it a line that made the log unreadable on its next open.
    path = tmp_path / "session.jsonl"
    store = JsonlStore(path)
    disk = _FullDisk()
    disk.fd = store._fd
    monkeypatch.setattr(_jsonl, "os", disk)
    async with open_cell(registry_with(make_tool("t")), store=store) as cell:
        disk.full = True
        result = await cell.run(PROGRAM)
        disk.full = False
        assert code_and_kind(result) == (LOG_WRITE_FAILED, None)
        assert "No space left on device" in result.content[0].text  # type: ignore[union-attr]
        # Every start failed, so nothing was dispatched and nothing needs settling.
        assert cell.started() == []
        assert_one_settle_each(cell.events_at_return)
        await assert_next_run_is_served(cell)
    monkeypatch.undo()
    # The file holds only whole events, and a new store appends after them.
    before = list(read_events(path))
    assert path.read_bytes().endswith(b"\n")
    reopened = JsonlStore(path)
    reopened.close()
    assert list(read_events(path)) == before
