"""Calls over the host's ``max_pending_calls`` wait in the child instead of ending the run.

The host ends the run of a child with more calls in flight than it allows: that
check is for a hostile child. An honest program that gathers more calls than
that gets every result: the child's proxy holds the later calls back, in order,
and sends each when a reply frees a place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import anyio
import anyio.lowlevel
from hypothesis import given, settings
from hypothesis import strategies as st

import bridge.proxy
from bridge.protocol import Call, encode_frame

from .test_child_proxy import run_program

if TYPE_CHECKING:
    import pytest

    from bridge.lossless import JsonValue


@dataclass
class Counting:
    """A handler that counts the calls in flight and answers with the call's ``n``.

    The first ``fill`` calls wait until ``fill`` calls are in flight together,
    so a run that reaches the limit really does; each call then takes
    ``checkpoints[n]`` loop turns, which varies the order the replies go in.
    """

    fill: int
    checkpoints: dict[int, int] = field(default_factory=dict)
    in_flight: int = 0
    most: int = 0
    seen: list[int] = field(default_factory=list)
    full: anyio.Event = field(default_factory=anyio.Event)

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        assert isinstance(args, dict)
        n = args["n"]
        assert isinstance(n, int)
        self.seen.append(n)
        self.in_flight += 1
        self.most = max(self.most, self.in_flight)
        try:
            if self.in_flight >= self.fill:
                self.full.set()
            if len(self.seen) <= self.fill:
                await self.full.wait()
            for _ in range(self.checkpoints.get(n, 0)):
                await anyio.lowlevel.checkpoint()
            return n
        finally:
            self.in_flight -= 1


GATHER = """
import asyncio
async def main():
    return list(await asyncio.gather(*(tools.search(n=n) for n in range({count}))))
"""


async def test_gathering_more_calls_than_the_host_allows_returns_every_result() -> None:
    handler = Counting(fill=3)
    report, outcome = await run_program(GATHER.format(count=10), handler, max_pending_calls=3)
    assert outcome.error is None, outcome.error
    assert report.value == list(range(10))
    assert handler.most == 3
    assert sorted(handler.seen) == list(range(10))


@settings(max_examples=25, deadline=None)
@given(
    count=st.integers(min_value=0, max_value=30),
    limit=st.integers(min_value=1, max_value=6),
    checkpoints=st.dictionaries(st.integers(0, 29), st.integers(0, 5), max_size=30),
)
async def test_any_number_of_gathered_calls_stays_within_the_limit_and_in_order(
    count: int, limit: int, checkpoints: dict[int, int]
) -> None:
    handler = Counting(fill=min(limit, count), checkpoints=checkpoints)
    report, outcome = await run_program(
        GATHER.format(count=count), handler, max_pending_calls=limit
    )
    assert outcome.error is None, outcome.error
    assert report.value == list(range(count))
    assert handler.most <= limit
    assert handler.seen == sorted(handler.seen)  # sent, and so started, in call order


async def test_a_held_call_the_program_cancels_is_never_sent() -> None:
    # With room for one call: the first is in flight, the second waits in the
    # child and is cancelled there, the third goes out after the first - with
    # the next id, which the host checks.
    started = anyio.Event()
    release = anyio.Event()
    seen: list[str] = []

    class Gated:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            assert isinstance(args, dict)
            seen.append(str(args["q"]))
            if args["q"] == "first":
                started.set()
                await release.wait()
            return args["q"]

    async def open_gate() -> None:
        await started.wait()
        release.set()

    # Each `asyncio.sleep(0)` lets the task just made start its call.
    source = """
    import asyncio
    async def main():
        first = asyncio.ensure_future(tools.search(q="first"))
        await asyncio.sleep(0)
        held = asyncio.ensure_future(tools.search(q="held"))
        await asyncio.sleep(0)
        held.cancel()
        third = asyncio.ensure_future(tools.search(q="third"))
        results = [await first, await third]
        try:
            await held
        except asyncio.CancelledError:
            results.append("cancelled")
        return results
    """
    async with anyio.create_task_group() as tg:
        tg.start_soon(open_gate)
        report, outcome = await run_program(source, Gated(), max_pending_calls=1)
    assert outcome.error is None, outcome.error
    assert report.value == ["first", "third", "cancelled"]
    assert seen == ["first", "third"]


#: The program's task to cancel while its held call is being encoded (set by
#: the program, read by the stand-in for a finalizer below).
CANCEL_WHILE_ENCODED: list[Any] = []


async def test_a_held_call_cancelled_while_it_is_encoded_is_never_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # A finalizer of the program's can run during any allocation, and so cancel
    # a held call between the proxy's look at it and its send: it was sent.
    real = encode_frame

    def encode(message: Any) -> bytes:
        if isinstance(message, Call) and b'"held"' in bytes(message.args) and CANCEL_WHILE_ENCODED:
            CANCEL_WHILE_ENCODED.pop().cancel()  # what a finalizer could do here
        return real(message)

    monkeypatch.setattr(bridge.proxy, "encode_frame", encode)
    seen: list[str] = []

    class Recording:
        async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
            assert isinstance(args, dict)
            seen.append(str(args["q"]))
            return args["q"]

    source = """
    import asyncio, sys
    async def main():
        first = asyncio.ensure_future(tools.search(q="first"))
        await asyncio.sleep(0)
        held = asyncio.ensure_future(tools.search(q="held"))
        await asyncio.sleep(0)
        sys.modules["tests.bridge.test_child_held_calls"].CANCEL_WHILE_ENCODED.append(held)
        results = [await first]
        try:
            await held
        except asyncio.CancelledError:
            results.append("cancelled")
        return results
    """
    report, outcome = await run_program(source, Recording(), max_pending_calls=1)
    assert outcome.error is None, outcome.error
    assert report.value == ["first", "cancelled"]
    assert seen == ["first"]
