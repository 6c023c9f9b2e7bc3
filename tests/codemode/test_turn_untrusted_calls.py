"""A model's call ids and raw arguments are untrusted text: a turn costs the host linear work.

Counted, never timed: the sub-call-id check makes one lookup per call whatever
the id holds; long arguments are decoded off the loop and only when their
decoded value fits the budget; and a cancelled turn still answers, in the log,
every call it logged.
"""

from __future__ import annotations

import re
from typing import Any

import anyio
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode import Registry, ToolOutput, define_tool
from codemode._log import MemoryStore, ModelToolCall, SessionLog, ToolCallEvent, ToolResultEvent
from codemode._signal import AbortSignal
from codemode._turns import MAX_ARGUMENTS_CHARGE, _sub_call_owner, run_turn


class CountingIds(dict[str, int]):
    """A dict of a turn's ids that counts the characters of every key looked up."""

    looked_up = 0

    def get(self, key: Any, default: Any = None) -> Any:
        self.looked_up += len(key)
        return super().get(key, default)


@pytest.mark.parametrize("repeats", [10, 1_000, 100_000])
@pytest.mark.parametrize("digits", ["", "1"], ids=["marks", "nested-form"])
def test_the_sub_call_id_check_reads_an_id_a_bounded_number_of_times(
    repeats: int, digits: str
) -> None:
    # One id of the nested form, or marks alone: each head was sliced and
    # looked up, a copy of the id per mark (quadratic).
    call_id = "z" + f":code:{digits}" * repeats
    ids = CountingIds({"x": 0, "yy": 1})
    assert _sub_call_owner(call_id, ids, frozenset(map(len, ids))) is None
    assert ids.looked_up <= 2


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.text("ab:cde01", max_size=12), min_size=1, max_size=5, unique=True),
    st.text("ab:cde01", max_size=30),
)
def test_the_owner_is_exactly_an_id_the_call_extends_with_sub_call_marks(
    ids: list[str], call_id: str
) -> None:
    table = {each: index for index, each in enumerate(ids)}
    expected = [
        index for index, owner in enumerate(ids)
        if call_id.startswith(owner) and re.fullmatch(r"(:code:[0-9]+)+", call_id[len(owner) :])
    ]
    found = _sub_call_owner(call_id, table, frozenset(map(len, table)))
    assert (found is None) == (not expected)
    assert found is None or found in expected


@pytest.mark.parametrize(("call_id", "owner"), [
    ("a:code:1", 0), ("a:code:12", 0), ("a:code:", None), ("a:code:x", None),
    ("b:code:1", None), ("a:code:1:code:2", 0), ("a:code:1:code:2x", None),
    ("a:code:1:code:", None), ("a:code:1a:code:2", None),
])
def test_a_sub_call_id_is_owned_by_an_id_it_extends(call_id: str, owner: int | None) -> None:
    assert _sub_call_owner(call_id, {"a": 0}, frozenset({1})) == owner


async def _echo(args: Any, ctx: Any) -> Any:
    return args


def _registry() -> Registry:
    registry = Registry(mode="native")
    registry.register(define_tool(
        name="echo", description="Echo.", parameters={"type": "object"},
        output=ToolOutput(schema={}), execute=_echo,
    ))
    return registry


async def test_arguments_whose_decoded_value_is_over_the_budget_are_refused_undecoded(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    decoded: list[int] = []
    import codemode._turns as turns

    real = turns.parse_arguments

    def counted(text: str) -> object:
        decoded.append(len(text))
        return real(text)

    monkeypatch.setattr(turns, "parse_arguments", counted)
    count = MAX_ARGUMENTS_CHARGE // 64 + 1  # empty lists: each costs the host a container
    text = '{"pad":[' + "[]," * count + "[]]}"
    log = SessionLog(MemoryStore())
    [result] = await run_turn(
        _registry(), [ModelToolCall(call_id="c", name="echo", arguments=text)],
        agent=None, signal=AbortSignal(), log=log, turn=1,
    )
    assert result.is_error
    assert result.error.info is not None
    assert result.error.info.code == "INVALID_ARGS"
    assert decoded == []
    kinds = [type(event) for event in log.events()]
    assert kinds == [ToolCallEvent, ToolResultEvent]


async def test_a_cancelled_turn_answers_every_call_it_logged() -> None:
    entered = anyio.Event()

    async def hold(args: Any, ctx: Any) -> Any:
        entered.set()
        await anyio.sleep_forever()

    registry = _registry()
    registry.register(define_tool(
        name="hold", description="Hold.", parameters={"type": "object"},
        output=ToolOutput(schema={}), execute=hold,
    ))
    log = SessionLog(MemoryStore())
    with anyio.fail_after(5):
        async with anyio.create_task_group() as group:
            async def turn() -> None:
                await run_turn(
                    registry, [ModelToolCall(call_id="c", name="hold", arguments="{}")],
                    agent=None, signal=AbortSignal(), log=log, turn=1,
                )

            group.start_soon(turn)
            await entered.wait()
            group.cancel_scope.cancel()
    events = log.events()
    assert [type(event) for event in events] == [ToolCallEvent, ToolResultEvent]
    result = events[-1]
    assert isinstance(result, ToolResultEvent)
    assert result.is_error
    assert result.error is not None
    assert result.error.code == "ABORTED"
    assert log.call_problem("c") is None  # the id is free again
