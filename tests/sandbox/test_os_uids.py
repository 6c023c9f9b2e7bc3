"""Per-child uids: each live child has a uid no other process of the pool's has.

With the host as root, a child drops to a uid of its own from the pool's
``uid_range``, held from its fork until it is reaped. These tests show that
children running at once have distinct uids; that without the seccomp filter
the kernel's permission checks alone then keep one child from signalling or
reprioritising another (``test_os_filter.py`` shows the same calls succeed
against a process of the *same* uid); that a uid goes to a new child only once
the child that held it is reaped; and that the claims are machine-wide.
"""

from __future__ import annotations

import contextlib
import grp
import os
import pwd
import signal
import socket
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio
import anyio.lowlevel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sandbox import Limits, WorkerPool
from sandbox import _zygote as _zygote_module
from sandbox._children import Child, Zygote
from sandbox._uids import (
    _MAX_PROBES,
    DEFAULT_UID_RANGE,
    ChildUids,
    NoFreeUid,
    UidAllocator,
    check_uid_range,
)
from sandbox._zygote import ChildSettings, ZygoteReady
from sandbox.testing import EchoHandler, probing_pool, wait_for_idle, zygote_pid

if TYPE_CHECKING:
    from collections.abc import Iterator

    from bridge.lossless import JsonValue
    from sandbox import RunResult

GUARD: Final = 60
PLAIN: Final = Limits(language_layer=False, tripwire=False, wall_seconds=30)
#: Test ranges outside the default one, one per test, so that runs in parallel
#: processes using the default range never interfere with what a test counts.
_BASE: Final = 0x7004_0000
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="children change uid only as root")


def _uid_of(status: str) -> int:
    for line in status.splitlines():
        if line.startswith("Uid:"):
            return int(line.split()[1])
    raise AssertionError("no Uid line")


def _processes_of(uid: int) -> list[int]:
    """Pids of every process (zombies included) whose real uid is ``uid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        if _uid_of(status) == uid:
            found.append(int(entry))
    return found


def _field(value: JsonValue, key: str) -> JsonValue:
    assert isinstance(value, dict), value
    return value[key]


class _Gate:
    """A tool handler whose ``hold`` calls wait until released; ``note`` records arguments."""

    def __init__(self, expected: int) -> None:
        self.expected = expected
        self.arrived: list[JsonValue] = []
        self.all_arrived = anyio.Event()
        self.release = anyio.Event()

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        self.arrived.append(args)
        if len(self.arrived) == self.expected:
            self.all_arrived.set()
        await self.release.wait()
        return None


@needs_root
@pytest.mark.slow
async def test_children_alive_at_once_have_distinct_uids_from_the_range() -> None:
    uids = range(_BASE, _BASE + 8)
    gate = _Gate(expected=3)
    source = "await tools.hold(uid=os_probe_status())\nreturn 'ok'"
    async with probing_pool(limits=PLAIN, size=3, uid_range=uids) as pool:
        with anyio.fail_after(GUARD):
            results: list[RunResult] = []

            async def run() -> None:
                results.append(await pool.run(source, tool_names=["hold"], handler=gate))

            async with anyio.create_task_group() as group:
                for _ in range(3):
                    group.start_soon(run)
                await gate.all_arrived.wait()
                seen = [_uid_of(str(_field(args, "uid"))) for args in gate.arrived]
                gate.release.set()
    assert all(result.value == "ok" for result in results), results
    assert len(set(seen)) == 3
    assert all(uid in uids for uid in seen)


_SIBLING_ATTACKS: Final = """
import os, resource
target = {target}
outcomes = {{}}
for name, attempt in [
    ('kill', lambda: os.kill(target, 0)),
    ('setpriority', lambda: os.setpriority(os.PRIO_PROCESS, target, 0)),
    ('sched_setaffinity', lambda: os.sched_setaffinity(target, os.sched_getaffinity(0))),
    ('prlimit', lambda: resource.prlimit(target, resource.RLIMIT_NOFILE)),
]:
    try:
        attempt()
        outcomes[name] = 'allowed'
    except OSError as exc:
        outcomes[name] = exc.errno
return [os_probe_status(), outcomes]
"""


@needs_root
@pytest.mark.slow
async def test_without_the_filter_a_child_cannot_reach_a_sibling_of_another_uid() -> None:
    # Every protection but seccomp: only the uids keep the two children apart.
    gate = _Gate(expected=1)
    pool = probing_pool(limits=PLAIN, size=0, uid_range=range(_BASE + 16, _BASE + 18),
                        seccomp=False)
    async with pool:
        with anyio.fail_after(GUARD):
            holder: list[RunResult] = []

            async def hold() -> None:
                source = "await tools.hold(pid=os_probe['pid'], status=os_probe_status())"
                holder.append(await pool.run(source, tool_names=["hold"], handler=gate))

            async with anyio.create_task_group() as group:
                group.start_soon(hold)
                await gate.all_arrived.wait()
                (sibling,) = gate.arrived
                attacker = await pool.run(
                    _SIBLING_ATTACKS.format(target=_field(sibling, "pid")),
                    tool_names=[],
                    handler=EchoHandler(),
                )
                gate.release.set()
    assert attacker.error is None, attacker.error
    assert isinstance(attacker.value, list)
    status, outcomes = attacker.value
    assert _uid_of(str(status)) != _uid_of(str(_field(sibling, "status")))
    assert outcomes == dict.fromkeys(
        ("kill", "setpriority", "sched_setaffinity", "prlimit"), 1
    )  # EPERM from the kernel, every one
    assert holder[0].error is None, holder[0].error


@needs_root
@pytest.mark.slow
async def test_a_uid_goes_to_a_new_child_only_after_its_child_is_reaped() -> None:
    uid = _BASE + 32
    first_gate = _Gate(expected=1)
    waiting_for_uid = anyio.Event()
    seen_by_second: list[list[int]] = []

    class Checker:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            # While the second child runs: no other process has its uid.
            seen_by_second.append(_processes_of(uid))
            return None

    pool = probing_pool(limits=PLAIN, size=0, uid_range=range(uid, uid + 1))
    allocator = pool._uids._allocator
    acquire = allocator.acquire

    def spying_acquire() -> int | None:
        got = acquire()
        if got is None:
            waiting_for_uid.set()
        return got

    allocator.acquire = spying_acquire  # type: ignore[method-assign]
    async with pool:
        with anyio.fail_after(GUARD):
            results: dict[str, RunResult] = {}

            async def first() -> None:
                results["first"] = await pool.run(
                    "await tools.hold(pid=os_probe['pid'])\nreturn os_probe['cwd']",
                    tool_names=["hold"], handler=first_gate,
                )

            async def second() -> None:
                results["second"] = await pool.run(
                    "await tools.check()\nreturn os_probe_status()",
                    tool_names=["check"], handler=Checker(),
                )

            async with anyio.create_task_group() as group:
                group.start_soon(first)
                await first_gate.all_arrived.wait()
                group.start_soon(second)
                # The second run finds the only uid held and waits for it.
                await waiting_for_uid.wait()
                first_gate.release.set()
    (arrived,) = first_gate.arrived
    assert results["first"].error is None, results["first"].error
    assert results["second"].error is None, results["second"].error
    assert _uid_of(str(results["second"].value)) == uid
    (processes,) = seen_by_second
    assert processes == [results["second"].pid]
    assert _field(arrived, "pid") not in processes
    assert not Path(str(results["first"].value)).exists()  # noqa: ASYNC240 - a test assertion
    assert pool._uids.held == 0


@needs_root
@pytest.mark.slow
async def test_the_uids_of_children_lost_with_their_zygote_come_back() -> None:
    # One uid, one warm child: if the lost child's uid leaked, no child could
    # ever start again.
    uid = _BASE + 48
    async with probing_pool(limits=PLAIN, size=1, uid_range=range(uid, uid + 1)) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            first = zygote_pid(pool)
            assert first is not None
            os.kill(first, signal.SIGKILL)
            while zygote_pid(pool) in (None, first) or pool.statistics().idle < 1:
                await pool._idle_changed.wait()
            result = await pool.run("return os_probe_status()", tool_names=[],
                                    handler=EchoHandler())
    assert result.error is None, result.error
    assert _uid_of(str(result.value)) == uid


@needs_root
@pytest.mark.slow
async def test_a_uid_another_process_holds_is_skipped() -> None:
    uid = _BASE + 64
    claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    claim.bind(f"\0codemode-uid-{uid}")
    try:
        async with probing_pool(limits=PLAIN, size=0, uid_range=range(uid, uid + 2)) as pool:
            with anyio.fail_after(GUARD):
                result = await pool.run("return os_probe_status()", tool_names=[],
                                        handler=EchoHandler())
    finally:
        claim.close()
    assert result.error is None, result.error
    assert _uid_of(str(result.value)) == uid + 1


@needs_root
@pytest.mark.slow
async def test_a_run_that_finds_no_free_uid_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    uid = _BASE + 80
    monkeypatch.setattr("sandbox._uids.WAIT_SECONDS", 0.01)
    claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    claim.bind(f"\0codemode-uid-{uid}")
    try:
        async with WorkerPool(limits=PLAIN, size=0, uid_range=range(uid, uid + 1)) as pool:
            with anyio.fail_after(GUARD):
                result = await pool.run("return 1", tool_names=[], handler=EchoHandler())
    finally:
        claim.close()
    assert result.error is not None
    assert result.error.kind == "worker-exit"
    assert "no free uid in uid_range=" in result.error.message
    assert "widen uid_range" in result.error.message


# ---------------------------------------------------------------- the allocator

_ALLOCATOR_BASE: Final = 0x7005_0000


@settings(max_examples=60)
@given(
    size=st.integers(min_value=1, max_value=4),
    steps=st.lists(st.tuples(st.integers(0, 2), st.booleans()), max_size=40),
)
def test_allocators_over_one_range_never_hold_the_same_uid(
    size: int, steps: list[tuple[int, bool]]
) -> None:
    uids = range(_ALLOCATOR_BASE, _ALLOCATOR_BASE + size)
    allocators = [UidAllocator(uids) for _ in range(3)]
    held: list[list[int]] = [[], [], []]
    try:
        for which, take in steps:
            if take or not held[which]:
                uid = allocators[which].acquire()
                total = sum(len(mine) for mine in held)
                if uid is None:
                    assert total == size  # refused only when every uid is held
                else:
                    assert uid in uids
                    assert all(uid not in mine for mine in held)
                    held[which].append(uid)
            else:
                allocators[which].release(held[which].pop(0))
    finally:
        for allocator in allocators:
            allocator.release_all()


#: Uids held by others, in a row longer than what one allocation tries (the
#: names can be bound by any process of the machine, without privilege).
_HELD_IN_A_ROW: Final = 2 * _MAX_PROBES + 1


@contextlib.contextmanager
def _held_elsewhere(uids: range) -> Iterator[None]:
    claims = []
    try:
        for uid in uids:
            claim = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            claims.append(claim)
            claim.bind(f"\0codemode-uid-{uid}")
        yield
    finally:
        for claim in claims:
            claim.close()


def test_uids_held_elsewhere_in_a_long_row_hide_no_free_uid_behind_them() -> None:
    uids = range(_ALLOCATOR_BASE + 0x1000, _ALLOCATOR_BASE + 0x1000 + _HELD_IN_A_ROW + 1)
    allocator = UidAllocator(uids)
    with _held_elsewhere(uids[:_HELD_IN_A_ROW]):
        got = [allocator.acquire() for _ in range(3)]
    allocator.release_all()
    # Each call tries at most its budget, and the next goes on from there.
    assert got == [None, None, uids[-1]]


async def test_a_fork_walks_past_uids_held_elsewhere_without_waiting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # No time to wait at all: the uid must be found by walking the range, not by
    # a retry after a wait.
    monkeypatch.setattr("sandbox._uids.WAIT_SECONDS", 0)
    uids = range(_ALLOCATOR_BASE + 0x2000, _ALLOCATOR_BASE + 0x2000 + _HELD_IN_A_ROW + 1)
    child_uids = ChildUids(uids)
    with _held_elsewhere(uids[:_HELD_IN_A_ROW]):
        uid = await child_uids.acquire()
    child_uids.release_all()
    assert uid == uids[-1]


async def test_a_fork_that_finds_every_uid_held_elsewhere_still_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr("sandbox._uids.WAIT_SECONDS", 0)
    uids = range(_ALLOCATOR_BASE + 0x3000, _ALLOCATOR_BASE + 0x3000 + _HELD_IN_A_ROW)
    with _held_elsewhere(uids), pytest.raises(NoFreeUid, match="widen uid_range"):
        await ChildUids(uids).acquire()


async def test_a_uid_free_at_once_is_taken_without_yielding() -> None:
    uids = range(_ALLOCATOR_BASE + 0x4000, _ALLOCATOR_BASE + 0x4002)
    child_uids = ChildUids(uids)
    try:
        # No other task runs between the call and its answer: the common case
        # takes no trip through the event loop.
        with anyio.CancelScope() as scope:
            scope.cancel()
            first = await child_uids.acquire()
            second = await child_uids.acquire()
        assert not scope.cancelled_caught
        assert {first, second} == set(uids)
    finally:
        child_uids.release_all()


async def test_a_fork_that_finds_every_uid_held_waits_for_one_released() -> None:
    uids = range(_ALLOCATOR_BASE + 0x5000, _ALLOCATOR_BASE + 0x5001)
    child_uids = ChildUids(uids)
    held = await child_uids.acquire()
    got: list[int] = []
    try:
        async with anyio.create_task_group() as group:

            async def wait_for_one() -> None:
                got.append(await child_uids.acquire())

            group.start_soon(wait_for_one)
            # The waiter has found the range held and is waiting for a release.
            await anyio.wait_all_tasks_blocked()
            assert got == []
            child_uids.release(held)
        assert got == [held]
    finally:
        child_uids.release_all()


# ---------------------------------------------------------------- the range


@pytest.mark.parametrize(
    ("uids", "error", "match"),
    [
        ([1, 2], TypeError, "must be a range of uids"),
        (range(0x7000_0000, 0x7000_0000), ValueError, "non-empty range with step 1"),
        (range(0x7000_0000, 0x7000_0010, 2), ValueError, "non-empty range with step 1"),
        (range(10), ValueError, "never root"),
        (range(0x7000_0000, 0x1_0000_0000), ValueError, r"\(uid_t\) -1"),
        (range(65530, 65540), ValueError, "must not contain 65535"),
    ],
)
def test_a_bad_uid_range_is_refused_with_what_to_do(
    uids: object, error: type[Exception], match: str
) -> None:
    with pytest.raises(error, match=match):
        WorkerPool(uid_range=uids)  # type: ignore[arg-type]


def test_the_default_range_is_valid_and_holds_no_account() -> None:
    assert check_uid_range(DEFAULT_UID_RANGE) is DEFAULT_UID_RANGE
    assert not {user.pw_uid for user in pwd.getpwall()} & set(DEFAULT_UID_RANGE)
    assert not {group.gr_gid for group in grp.getgrall()} & set(DEFAULT_UID_RANGE)


@needs_root
async def test_a_range_holding_an_account_is_refused_when_the_pool_opens() -> None:
    user = next(user for user in pwd.getpwall() if user.pw_uid > 0)
    with pytest.raises(ValueError, match=f"uid {user.pw_uid} of the user {user.pw_name!r}"):
        async with WorkerPool(uid_range=range(user.pw_uid, user.pw_uid + 1)):
            pass
    uids = {user.pw_uid for user in pwd.getpwall()}
    group = next(g for g in grp.getgrall() if g.gr_gid > 0 and g.gr_gid not in uids)
    with pytest.raises(ValueError, match=f"gid {group.gr_gid} of the group {group.gr_name!r}"):
        async with WorkerPool(uid_range=range(group.gr_gid, group.gr_gid + 1)):
            pass


# ---------------------------------------------------------------- the bookkeeping

_SETTINGS: Final = ChildSettings(
    restricted=True, os_layer=True, cpu_seconds=1, memory_bytes=64 << 20,
    max_open_files=16, max_frame_bytes=1 << 16,
)


def _held_child(pool: WorkerPool, cwd: Path) -> Child:
    child = Child(_SETTINGS, str(cwd), -1, -1)
    child.uid = pool._uids._allocator.acquire()
    assert child.uid is not None
    return child


def test_a_uid_comes_back_only_when_the_child_is_gone_and_released(tmp_path: Path) -> None:
    pool = WorkerPool(uid_range=range(_BASE + 96, _BASE + 97))
    # Released first (a kill whose reaping is still to come), gone later.
    child = _held_child(pool, tmp_path / "a")
    pool._release(child)
    assert pool._uids.held == 1
    child.gone = True
    pool._child_gone(child)
    assert pool._uids.held == 0
    # Gone first (reaped while still busy), released later.
    child = _held_child(pool, tmp_path / "b")
    child.gone = True
    pool._child_gone(child)
    assert pool._uids.held == 1
    pool._release(child)
    assert pool._uids.held == 0


class _FakeProcess:
    """Stands in for the zygote process: records when it is waited for."""

    def __init__(self, events: list[str]) -> None:
        self.events = events
        self.returncode: int | None = None

    async def wait(self) -> int:
        self.events.append("zygote reaped")
        self.returncode = -9
        return -9

    def kill(self) -> None:
        self.events.append("zygote killed")


def _zygote(events: list[str], gone: anyio.Event | None = None) -> tuple[Zygote, socket.socket]:
    host, zygote_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    host.setblocking(False)
    ready = ZygoteReady(pid=1, uid_drop=True, seccomp=True, linux=True,
                        ceilings=(-1, -1, -1), reasons=())

    def on_gone(child: Child) -> None:
        events.append(f"gone {child.pid}")
        if gone is not None:
            gone.set()

    return Zygote(_FakeProcess(events), host, ready, on_gone), zygote_end  # type: ignore[arg-type]


async def test_children_lost_with_the_zygote_are_gone_only_once_it_is_reaped() -> None:
    events: list[str] = []
    zygote, zygote_end = _zygote(events)
    child = Child(_SETTINGS, "/nonexistent", -1, -1)
    child.pid = 4242
    zygote.children[4242] = child
    with anyio.fail_after(GUARD):
        zygote_end.close()  # the zygote died
        await zygote.serve()
        assert child.zygote_died
        assert events == []  # it may still be running: its parent-death signal is pending
        await zygote.aclose()
    assert events == ["zygote reaped", "gone 4242"]


async def test_a_child_whose_requester_gave_up_is_followed_until_it_is_reaped() -> None:
    events: list[str] = []
    gone = anyio.Event()
    zygote, zygote_end = _zygote(events, gone)
    child = Child(_SETTINGS, "/nonexistent", -1, -1)
    read_end, write_end = os.pipe()
    try:
        with anyio.fail_after(GUARD):
            async with anyio.create_task_group() as group:
                group.start_soon(zygote.serve)
                with anyio.CancelScope() as scope:

                    async def give_up() -> None:
                        await anyio.wait_readable(zygote_end)
                        scope.cancel()  # the spawn request is out: its requester leaves

                    group.start_soon(give_up)
                    await zygote.spawn(child, (read_end, write_end))
                assert zygote.orphans  # sent, so the zygote may still fork it
                request = _zygote_module._request_decoder.decode(zygote_end.recv(65536))
                assert isinstance(request, _zygote_module.Spawn)
                zygote_end.sendall(_zygote_module.encode(_zygote_module.Spawned(request.id, 77)))
                kill = await anyio.to_thread.run_sync(zygote_end.recv, 65536)
                assert _zygote_module._request_decoder.decode(kill) == _zygote_module.Kill(77)
                assert events == []  # killed, not yet reaped
                zygote_end.sendall(_zygote_module.encode(_zygote_module.Exited(77, 9, 0.0)))
                await gone.wait()
                zygote_end.close()
    finally:
        os.close(read_end)
        os.close(write_end)
        zygote_end.close()
        zygote.control.close()
    assert events == ["gone 77"]
