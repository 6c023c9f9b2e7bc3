"""What a session log accepts: every field of every event, every string in it, in every store.

A lone surrogate is a valid Python ``str`` with no UTF-8 form; a model's
``call_id``, ``name`` and raw ``arguments`` are decoded JSON strings, so they
may hold one. Before: the JSON Lines store refused such
an event only when it encoded it, ``MemoryStore`` accepted it, and
``run_turn`` raised after the turn's other calls had already run. Now one
check (``check_event``) is what every store applies, and ``run_turn`` refuses
a turn it could not log whole before any call of it starts.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import LossyJsonError
from codemode import Registry, ToolOutput, define_tool
from codemode._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    JsonlStore,
    MemoryStore,
    ModelToolCall,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    check_event,
    read_events,
)
from codemode._results import ErrorInfo, ImageBlock, TextBlock
from codemode._signal import AbortSignal
from codemode._turns import run_turn
from tests.strategies import json_values

#: Any code point, lone surrogates included (``st.text()`` leaves them out).
CHARS = st.characters() | st.characters(categories=["Cs"])
any_text = st.lists(CHARS, max_size=10).map("".join)
#: Mostly a plain value, often an arbitrary one: clean events stay likely.
field_text = st.one_of(st.just("ok"), any_text)


def has_surrogate(value: object) -> bool:
    """Whether a string anywhere in ``value`` (keys too) holds a lone surrogate."""
    if isinstance(value, str):
        return any(0xD800 <= ord(c) <= 0xDFFF for c in value)
    if isinstance(value, dict):
        return any(has_surrogate(k) or has_surrogate(v) for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(has_surrogate(item) for item in value)
    if isinstance(value, msgspec.Struct):
        return any(has_surrogate(getattr(value, f)) for f in value.__struct_fields__)
    return False


@st.composite
def content(draw: st.DrawFn) -> tuple[TextBlock | ImageBlock, ...]:
    blocks = st.one_of(
        st.builds(TextBlock, text=field_text),
        st.builds(ImageBlock, data=field_text, mime_type=field_text),
    )
    return tuple(draw(st.lists(blocks, max_size=3)))


errors = st.none() | st.builds(
    ErrorInfo, name=field_text, code=st.none() | field_text, kind=st.none() | field_text
)
json_with_text = st.one_of(json_values(), st.dictionaries(any_text, any_text, max_size=2))


@st.composite
def events(draw: st.DrawFn) -> Event:
    """One event of any kind, with an arbitrary string in any of its string fields."""
    kind = draw(st.sampled_from(["call", "result", "start", "settle"]))

    def text() -> str:
        return draw(field_text)  # a fresh draw per field

    if kind == "call":
        return ToolCallEvent(turn=1, step=0, call_id=text(), name=text(), arguments=text())
    meta: Any = draw(st.just(msgspec.UNSET) | json_with_text)
    arguments: Any = draw(json_with_text)
    if kind == "result":
        return ToolResultEvent(
            turn=1, step=0, call_id=text(), name=text(), is_error=draw(st.booleans()),
            content=draw(content()), error=draw(errors), meta=meta,
        )
    root, parent, sub = text(), text(), text()
    if kind == "start":
        return CodeDispatchStartEvent(root_call_id=root, parent_call_id=parent,
                                      sub_call_id=sub, name=text(), arguments=arguments)
    return CodeDispatchEvent(
        root_call_id=root, parent_call_id=parent, sub_call_id=sub, name=text(),
        arguments=arguments, is_error=draw(st.booleans()), content=draw(content()),
        error=draw(errors),
    )


def append_to_both(event: Event, directory: str) -> tuple[Any, Any, Path]:
    """What a MemoryStore and a JsonlStore each make of ``event``: stamped event or error."""
    path = Path(directory) / "log.jsonl"
    outcomes: list[Any] = []
    for store in (MemoryStore(), JsonlStore(path)):
        try:
            outcomes.append(store.append(event))
        except LossyJsonError as exc:
            outcomes.append(str(exc))
        finally:
            store.close()
    return outcomes[0], outcomes[1], path


# -- the stores ----------------------------------------------------------------------------------


@given(events())
def test_both_stores_refuse_the_same_events_and_a_file_reads_back_what_it_took(
    event: Event,
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        in_memory, in_file, path = append_to_both(event, directory)
        assert in_memory == in_file  # the same stamped event, or the same message
        if has_surrogate(event):
            assert isinstance(in_file, str)
            # The message names the field (a path into the event) and what is wrong.
            assert "lone surrogate" in in_file
            field = in_file.rsplit(" - at `$.", 1)[1].split(".")[0].split("[")[0].rstrip("`")
            assert has_surrogate(getattr(event, field)), (field, in_file)
            assert path.read_bytes() == b""  # nothing written
        else:
            assert not isinstance(in_file, str), in_file
            assert list(read_events(path)) == [in_file]


# Values of every type for every field: a store either refuses with a LossyJsonError naming the
# field, or the file reads back exactly what was appended; the two stores always agree.
wild = st.one_of(
    any_text, st.integers(), st.integers(2**53 - 2, 2**70), st.floats(), st.booleans(),
    st.none(), st.lists(st.integers(), max_size=2), st.lists(st.integers(), max_size=2).map(tuple),
    st.builds(TextBlock, text=any_text).map(lambda block: (block,)),
    st.builds(ErrorInfo, name=any_text),
)

FIELDS: dict[type[Event], dict[str, Any]] = {
    ToolCallEvent: {"turn": 1, "step": 0, "call_id": "c", "name": "n", "arguments": "{}"},
    ToolResultEvent: {"turn": 1, "step": 0, "call_id": "c", "name": "n", "is_error": False,
                      "content": (TextBlock(text="t"),), "error": None, "meta": {"k": 1},
                      "source_event_seqs": (1,)},
    CodeDispatchStartEvent: {"root_call_id": "c", "parent_call_id": "c", "sub_call_id": "s",
                             "name": "n", "arguments": {"k": [1]}},
    CodeDispatchEvent: {"root_call_id": "c", "parent_call_id": "c", "sub_call_id": "s",
                        "name": "n", "arguments": {"k": [1]}, "is_error": True,
                        "content": (ImageBlock(data="aGk=", mime_type="image/png"),),
                        "error": ErrorInfo(name="E", code="C")},
}


@st.composite
def wild_events(draw: st.DrawFn) -> Event:
    kind = draw(st.sampled_from(list(FIELDS)))
    fields: dict[str, Any] = dict(FIELDS[kind])
    fields["time"] = 1.5
    for name in draw(st.lists(st.sampled_from([*fields]), max_size=2, unique=True)):
        fields[name] = draw(wild)
    return kind(**fields)


@given(wild_events())
def test_any_value_in_any_field_is_refused_by_both_stores_or_read_back_exactly(
    event: Event,
) -> None:
    with tempfile.TemporaryDirectory() as directory:
        try:
            check_event(event)
        except LossyJsonError as exc:
            refusal: str | None = str(exc)
        else:
            refusal = None
        in_memory, in_file, path = append_to_both(event, directory)
        assert in_memory == in_file
        if refusal is not None:
            assert in_file == refusal
            assert " - at `$." in refusal
            assert path.read_bytes() == b""
        else:
            [read] = read_events(path)
            assert read == json_fields_as_read(in_file)  # an int time reads back as its float


def json_fields_as_read(event: Event) -> Event:
    """``event`` with its JSON fields as a reader gets them: a tuple there reads as a list."""
    for name in ("arguments", "meta"):
        value = getattr(event, name, msgspec.UNSET)
        if value is not msgspec.UNSET:
            event = msgspec.structs.replace(
                event, **{name: msgspec.json.decode(msgspec.json.encode(value))}
            )
    return event


@pytest.mark.parametrize(
    ("event", "path"),
    [
        (ToolCallEvent(turn=1, step=0, call_id="c\ud800", name="n", arguments="{}"),
         "$.call_id"),
        (ToolCallEvent(turn=1, step=0, call_id="c", name="n\udfff", arguments="{}"), "$.name"),
        (ToolCallEvent(turn=1, step=0, call_id="c", name="n", arguments='{"a": "\ud800"}'),
         "$.arguments"),
        (ToolResultEvent(turn=1, step=0, call_id="c", name="n", is_error=True,
                         content=(TextBlock(text="ok"), TextBlock(text="\ud800"))),
         "$.content[1].text"),
        (ToolResultEvent(turn=1, step=0, call_id="c", name="n", is_error=True, content=(),
                         error=ErrorInfo(name="E", code="C\ud800")), "$.error.code"),
        (CodeDispatchStartEvent(root_call_id="c", parent_call_id="c\ud800", sub_call_id="s",
                                name="n", arguments={}), "$.parent_call_id"),
        (CodeDispatchStartEvent(root_call_id="c", parent_call_id="c", sub_call_id="s",
                                name="n", arguments={"k": ["\ud800"]}), "$.arguments.k[0]"),
        (CodeDispatchEvent(root_call_id="c", parent_call_id="c", sub_call_id="s", name="n",
                           arguments={}, is_error=False,
                           content=(ImageBlock(data="x", mime_type="\ud800"),)),
         "$.content[0].mime_type"),
    ],
)
@pytest.mark.parametrize("store", [MemoryStore, "jsonl"])
def test_a_lone_surrogate_is_refused_naming_its_field(
    event: Event, path: str, store: Any, tmp_path: Path
) -> None:
    target = JsonlStore(tmp_path / "log.jsonl") if store == "jsonl" else store()
    surrogate = r"lone surrogate \(U\+D[89A-F][0-9A-F]{2}\)"
    with pytest.raises(LossyJsonError, match=surrogate) as caught:
        target.append(event)
    assert caught.value.path == path
    # The refusal itself can be printed and logged.
    str(caught.value).encode("utf-8")
    target.close()
    assert list(target.read()) == []


@pytest.mark.parametrize(
    ("fields", "path", "reason"),
    [
        ({"turn": True}, "$.turn", "expected an int, got bool"),
        ({"call_id": 7}, "$.call_id", "expected a str, got int"),
        ({"time": float("nan")}, "$.time", "nan has no JSON form"),
        ({"time": float("inf")}, "$.time", "inf has no JSON form"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_by_both_stores(
    fields: dict[str, Any], path: str, reason: str, tmp_path: Path
) -> None:
    # Before: the file store wrote NaN as null, or a bool where an int belongs, and the log
    # could not be opened again ("not a valid event").
    event = ToolCallEvent(**{"turn": 1, "step": 0, "call_id": "c", "name": "n",
                             "arguments": "{}", **fields})
    for store in (MemoryStore(), JsonlStore(tmp_path / "log.jsonl")):
        with pytest.raises(LossyJsonError) as caught:
            store.append(event)
        assert caught.value.path == path
        assert reason in caught.value.reason
        store.close()
    assert list(read_events(tmp_path / "log.jsonl")) == []


def test_a_str_subclass_is_refused_by_both_stores(tmp_path: Path) -> None:
    class Name(str):
        __slots__ = ()

    event = ToolCallEvent(turn=1, step=0, call_id="c", name=Name("n"), arguments="{}")
    for store in (MemoryStore(), JsonlStore(tmp_path / "log.jsonl")):
        with pytest.raises(LossyJsonError, match=r"^expected a str, got Name - at `\$\.name`$"):
            store.append(event)
        store.close()


# -- a model turn --------------------------------------------------------------------------------


class Counted:
    """A native tool ``t`` that counts its runs (a side effect a retry would repeat)."""

    def __init__(self) -> None:
        self.ran: list[object] = []

    async def body(self, args: Any, ctx: Any) -> str:
        self.ran.append(args)
        return "done"

    def registry(self) -> Registry:
        registry = Registry()
        registry.register(
            define_tool(
                name="t", description="A tool.", parameters={"type": "object"},
                output=ToolOutput(schema={"type": "string"}), execute=self.body,
                is_concurrency_safe=lambda args: True,
            )
        )
        return registry


async def turn(registry: Registry, calls: list[ModelToolCall], log: SessionLog | None) -> Any:
    return await run_turn(registry, calls, agent=None, signal=AbortSignal(), log=log, turn=1)


@pytest.mark.parametrize("field", ["call_id", "name", "arguments"])
@pytest.mark.parametrize("store", ["memory", "jsonl", None])
async def test_a_turn_with_an_unloggable_call_is_refused_before_any_call_runs(
    field: str, store: str | None, tmp_path: Path
) -> None:
    # The finding: `pay` (calls[0]) ran, then calls[1]'s event could not be encoded and
    # run_turn raised with no results; a retry paid twice.
    counted = Counted()
    calls = [ModelToolCall(call_id=f"c{n}", name="t", arguments=f'{{"n": {n}}}')
             for n in range(3)]
    bad = {"call_id": "c1\ud800", "name": "t\ud800", "arguments": '{"n": "\ud800"}'}[field]
    calls[1] = msgspec.structs.replace(calls[1], **{field: bad})
    log = None
    if store is not None:
        log = SessionLog(JsonlStore(tmp_path / "s.jsonl") if store == "jsonl" else MemoryStore())
    which = "" if field == "call_id" else r" \(call_id 'c1'\)"
    with pytest.raises(
        ValueError,
        match=rf"^calls\[1\]\.{field}{which} cannot be logged: string contains a lone "
        r"surrogate \(U\+D800\) at index \d+, .*; nothing has run",
    ):
        await turn(counted.registry(), calls, log)
    assert counted.ran == []
    if log is not None:
        assert log.events() == []
        log.close()


@st.composite
def turns(draw: st.DrawFn) -> list[ModelToolCall]:
    size = draw(st.integers(1, 4))
    return [
        ModelToolCall(
            call_id=f"c{n}" + draw(st.just("") | any_text),
            name=draw(st.sampled_from(["t", "other"]) | any_text),
            arguments=draw(st.sampled_from(["{}", "", "not json"]) | any_text),
        )
        for n in range(size)
    ]


@given(calls=turns(), jsonl=st.booleans())
async def test_a_turn_runs_whole_or_is_refused_before_anything_runs(
    calls: list[ModelToolCall], jsonl: bool
) -> None:
    counted = Counted()
    with tempfile.TemporaryDirectory() as directory:
        store = JsonlStore(Path(directory) / "s.jsonl") if jsonl else MemoryStore()
        log = SessionLog(store)
        ids = [call.call_id for call in calls]
        unloggable = [n for n, call in enumerate(calls) if has_surrogate(call)]
        clash = len(set(ids)) < len(ids) or any(
            other != mine and mine.startswith(other + ":code:") for mine in ids for other in ids
        )
        refusal: str | None = None
        try:
            results = await turn(counted.registry(), calls, log)
        except ValueError as exc:
            refusal = str(exc)
        if refusal is not None:
            assert unloggable or clash, refusal
            if unloggable and not clash:
                assert refusal.startswith(f"calls[{unloggable[0]}].")
            refusal.encode("utf-8")  # the refusal can be shown and logged
            assert counted.ran == []
            assert log.events() == []
        else:
            assert not unloggable
            assert len(results) == len(calls)
            assert len(counted.ran) == sum(call.name == "t" for call in calls)
            logged = log.events()
            assert [e.call_id for e in logged if isinstance(e, ToolCallEvent)] == ids
            assert [e.call_id for e in logged if isinstance(e, ToolResultEvent)] == ids
        log.close()
        if jsonl:
            assert list(read_events(Path(directory) / "s.jsonl")) == log.events()


async def test_a_call_whose_id_is_open_in_the_log_is_refused_before_the_turn_runs() -> None:
    counted = Counted()
    log = SessionLog(MemoryStore())
    log.append(ToolCallEvent(turn=1, step=0, call_id="busy", name="run_code", arguments="{}"))
    calls = [ModelToolCall(call_id="free", name="t", arguments="{}"),
             ModelToolCall(call_id="busy", name="t", arguments="{}")]
    with pytest.raises(
        ValueError,
        match=r"^calls\[1\]\.call_id 'busy' cannot be logged: call \"busy\" is already open in "
        r"this log .*; nothing has run$",
    ):
        await turn(counted.registry(), calls, log)
    assert counted.ran == []
    assert len(log.events()) == 1


async def test_a_call_id_a_sub_call_of_the_turn_would_get_is_refused_before_the_turn_runs(
) -> None:
    # Its tool/call would be refused while calls[0]'s sub-call of that id is open (or that
    # sub-call refused): either way the log could not hold the turn as it ran.
    counted = Counted()
    calls = [ModelToolCall(call_id="c1", name="t", arguments="{}"),
             ModelToolCall(call_id="c1:code:1", name="t", arguments="{}")]
    with pytest.raises(
        ValueError,
        match=r"^calls\[1\]\.call_id 'c1:code:1' is an id a sub-call of calls\[0\] \('c1'\) "
        r"would get; give it an id of its own \(nothing has run\)$",
    ):
        await turn(counted.registry(), calls, None)
    assert counted.ran == []


@pytest.mark.parametrize(("turn_number", "step"), [(True, 0), (1, 1.5)])
async def test_a_turn_or_step_no_log_can_hold_is_refused_before_the_turn_runs(
    turn_number: Any, step: Any
) -> None:
    # A bool turn was written as `true`, and the log could not be opened again.
    counted = Counted()
    calls = [ModelToolCall(call_id="c1", name="t", arguments="{}")]
    field = "turn" if step == 0 else "step"
    refused = rf"^{field}=\S+: expected an int, got \w+; nothing has run$"
    with pytest.raises(ValueError, match=refused):
        await run_turn(counted.registry(), calls, agent=None, signal=AbortSignal(),
                       log=SessionLog(MemoryStore()), turn=turn_number, step=step)
    assert counted.ran == []
