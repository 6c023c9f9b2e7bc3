"""What one append of a sub-call's events writes and refuses, against plain models of it.

Every sub-call of a ``run_code`` run appends two events, so the append path
takes shortcuts: the common case of a check tested at once, a remembered
encoding of the arguments spliced into the line, a line written by a single
``write`` when the file takes it whole. These tests hold the shortcuts to
what they stand for: the bytes of each line are those of encoding the stamped
event, a field is refused exactly when (and as) the field-by-field rule
refuses it, and a line written a piece at a time is still one whole line.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Any

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bridge.lossless import LossyJsonError, materialize
from codemode._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    Event,
    JsonlStore,
    MemoryStore,
    SessionLog,
    ToolCallEvent,
    ToolResultEvent,
    _jsonl,
    encode_arguments,
    forget_arguments,
    read_events,
)
from codemode._log._stores import check_event
from codemode._results import ErrorInfo, TextBlock
from tests.strategies import json_values

_TEXT = st.text(max_size=12)  # non-ASCII text
#: A string holding a lone surrogate among ASCII: it has no UTF-8 form.
_LONE_SURROGATE = st.builds(
    lambda before, surrogate, after: before + surrogate + after,
    st.text(st.characters(max_codepoint=127), max_size=3),
    st.characters(min_codepoint=0xD800, max_codepoint=0xDFFF),
    st.text(max_size=3),
)


class _Str(str):
    """A ``str`` subclass: msgspec refuses it, so the log does too."""


#: Values of a text field: accepted ones (ASCII or not) and every kind refused.
_ASCII = st.text(st.characters(max_codepoint=127), max_size=8)
_TEXT_VALUES: st.SearchStrategy[object] = (
    _ASCII
    | _TEXT
    | _LONE_SURROGATE
    | _TEXT.map(_Str)
    | st.none()
    | st.integers()
    | st.binary(max_size=4)
)

#: Values of ``time``: finite floats and every kind the check refuses or accepts otherwise.
_TIMES: st.SearchStrategy[object] = (
    st.floats()
    | st.integers(min_value=-(2**54), max_value=2**54)
    | st.booleans()
    | st.none()
    | st.text(max_size=3)
)

_DISPATCH_TEXTS = ("root_call_id", "parent_call_id", "sub_call_id", "name")


def _text_refusal(value: object) -> bool:
    if type(value) is not str:
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def _time_refusal(value: object) -> bool:
    if type(value) is float:
        return not math.isfinite(value)
    if type(value) is int:
        return not -(2**53) <= value <= 2**53
    return True


def _expected_refusal(texts: dict[str, object], when: object) -> str | None:
    """The path the field-by-field rule refuses first (texts before time), or ``None``."""
    for field in _DISPATCH_TEXTS:
        if _text_refusal(texts[field]):
            return f"$.{field}"
    return "$.time" if _time_refusal(when) else None


@st.composite
def _dispatch_fields(draw: st.DrawFn) -> tuple[dict[str, object], object]:
    """A dispatch event's texts and time: valid ASCII and a finite float but for a few fields."""
    texts: dict[str, object] = {field: draw(_ASCII) for field in _DISPATCH_TEXTS}
    when: object = draw(st.floats(allow_nan=False, allow_infinity=False))
    for field in draw(st.lists(st.sampled_from([*_DISPATCH_TEXTS, "time"]), max_size=2)):
        if field == "time":
            when = draw(_TIMES)
        else:
            texts[field] = draw(_TEXT_VALUES)
    return texts, when


@given(fields=_dispatch_fields(), settle=st.booleans())
def test_a_dispatch_event_is_refused_exactly_as_the_field_by_field_rule_refuses(
    fields: tuple[dict[str, Any], object], settle: bool
) -> None:
    texts, when = fields
    event: Event
    if settle:
        event = CodeDispatchEvent(
            **texts, arguments={}, is_error=False, content=(), time=when  # type: ignore[arg-type]
        )
    else:
        event = CodeDispatchStartEvent(**texts, arguments={}, time=when)  # type: ignore[arg-type]
    expected = _expected_refusal(texts, when)
    if expected is None:
        check_event(event)
        MemoryStore().append(event)
        return
    with pytest.raises(LossyJsonError) as refused:
        check_event(event)
    assert refused.value.path == expected
    with pytest.raises(LossyJsonError):
        MemoryStore().append(event)


@given(when=_TIMES)
def test_every_event_kind_checks_its_time(when: object) -> None:
    for event in (
        ToolCallEvent(turn=1, step=0, call_id="c", name="n", arguments="{}", time=when),  # type: ignore[arg-type]
        ToolResultEvent(
            turn=1, step=0, call_id="c", name="n", is_error=False, content=(), time=when  # type: ignore[arg-type]
        ),
    ):
        if _time_refusal(when):
            with pytest.raises(LossyJsonError, match=r"\$\.time"):
                check_event(event)
        else:
            check_event(event)


def _sub_call_events(arguments: Any, text: str, name: str, error: bool) -> list[Event]:
    return [
        CodeDispatchStartEvent(
            root_call_id="c1", parent_call_id="c1", sub_call_id="c1:code:1", name=name,
            arguments=arguments,
        ),
        CodeDispatchEvent(
            root_call_id="c1", parent_call_id="c1", sub_call_id="c1:code:1", name=name,
            arguments=arguments, is_error=error, content=(TextBlock(text=text),),
            error=ErrorInfo(name="E", code="C", kind="k") if error else None,
        ),
    ]


@given(
    arguments=json_values(),
    text=st.text(st.characters(exclude_categories=["Cs"]), max_size=20),
    name=st.text(st.characters(exclude_categories=["Cs"]), min_size=1, max_size=8),
    error=st.booleans(),
    snapshot=st.sampled_from(["remembered", "forgotten", "plain"]),
)
def test_each_line_is_the_encoding_of_the_stamped_event(
    arguments: Any, text: str, name: str, error: bool, snapshot: str
) -> None:
    # The store writes a sub-call's arguments from the encoding remembered when
    # they were measured: the line must be byte for byte what encoding the
    # stamped event writes, whichever way its arguments came.
    if snapshot != "plain":
        arguments = materialize(arguments, freeze=True, accept_tuples=True)
        encode_arguments(arguments)
        if snapshot == "forgotten":
            forget_arguments(arguments)
    opened = ToolCallEvent(turn=1, step=0, call_id="c1", name="run_code", arguments="{}")
    answered = ToolResultEvent(
        turn=1, step=0, call_id="c1", name="run_code", is_error=error,
        content=(TextBlock(text=text),), meta=arguments, source_event_seqs=(1,),
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "log.jsonl"
        log = SessionLog(JsonlStore(path))
        stamped = [
            log.append(event)
            for event in [opened, *_sub_call_events(arguments, text, name, error), answered]
        ]
        log.close()
        expected = b"".join(msgspec.json.encode(event) + b"\n" for event in stamped)
        assert path.read_bytes() == expected
        # A frozen snapshot's arrays read back as lists: compare what is read by its JSON.
        assert [msgspec.json.encode(event) + b"\n" for event in read_events(path)] == [
            msgspec.json.encode(event) + b"\n" for event in stamped
        ]
    forget_arguments(arguments)


class _ShortWrites:
    """Stands in for ``os`` inside the store module: a write takes at most ``most`` bytes."""

    def __init__(self, most: int) -> None:
        self.most = most
        self.calls = 0

    def write(self, fd: int, data: Any) -> int:
        self.calls += 1
        return os.write(fd, bytes(data[: self.most]))

    def __getattr__(self, name: str) -> Any:
        return getattr(os, name)


@pytest.mark.parametrize("most", [1, 7, 64])
def test_a_line_written_a_piece_at_a_time_is_one_whole_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, most: int
) -> None:
    path = tmp_path / "log.jsonl"
    arguments = materialize({"q": "x" * 100, "n": [1, 2]}, freeze=True, accept_tuples=True)
    encode_arguments(arguments)
    log = SessionLog(JsonlStore(path))
    short = _ShortWrites(most)
    monkeypatch.setattr(_jsonl, "os", short)
    stamped = [
        log.append(ToolCallEvent(turn=1, step=0, call_id="c1", name="run_code", arguments="{}")),
        *(log.append(event) for event in _sub_call_events(arguments, "done", "t", False)),
    ]
    monkeypatch.undo()
    log.close()
    lines = [msgspec.json.encode(event) + b"\n" for event in stamped]
    assert path.read_bytes() == b"".join(lines)
    assert short.calls >= sum(-(-len(line) // most) for line in lines)
    assert [msgspec.json.encode(event) + b"\n" for event in read_events(path)] == lines
    forget_arguments(arguments)


_REFUSED_TEXTS: list[object] = ["ok\ud800", "\udfff", _Str("ok"), None, 1, b"ok"]


@pytest.mark.parametrize("field", _DISPATCH_TEXTS)
@pytest.mark.parametrize("value", _REFUSED_TEXTS, ids=repr)
@pytest.mark.parametrize("settle", [False, True])
def test_every_text_field_of_a_dispatch_event_is_checked(
    field: str, value: object, settle: bool
) -> None:
    texts: dict[str, Any] = dict.fromkeys(_DISPATCH_TEXTS, "ok") | {field: value}
    event: Event = (
        CodeDispatchEvent(**texts, arguments={}, is_error=False, content=())
        if settle
        else CodeDispatchStartEvent(**texts, arguments={})
    )
    with pytest.raises(LossyJsonError) as refused:
        check_event(event)
    assert refused.value.path == f"$.{field}"
    # Accepted non-ASCII text passes.
    check_event(msgspec.structs.replace(event, **{field: "é ✓ 𝄞"}))


@pytest.mark.parametrize(
    "when", [math.inf, -math.inf, math.nan, 2**53 + 1, -(2**53) - 1, True, None, "1"], ids=repr
)
def test_a_time_with_no_exact_json_form_is_refused(when: object) -> None:
    event = CodeDispatchStartEvent(
        root_call_id="c", parent_call_id="c", sub_call_id="c:1", name="n", arguments={},
        time=when,  # type: ignore[arg-type]
    )
    with pytest.raises(LossyJsonError) as refused:
        check_event(event)
    assert refused.value.path == "$.time"
