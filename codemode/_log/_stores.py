"""Where events are kept: the store interface, the check every store applies, and memory.

The JSON Lines file store and its readers are in :mod:`codemode._log._jsonl`.
"""

from __future__ import annotations

import math
import weakref
from typing import TYPE_CHECKING, Final, Protocol, final

import msgspec

from bridge.lossless import FrozenDict, LossyJsonError, is_snapshot, materialize

from .._results import ErrorInfo, ImageBlock, TextBlock
from ._events import (
    DISPATCH_EVENTS,
    CodeDispatchEvent,
    Event,
    ToolCallEvent,
    ToolResultEvent,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from bridge.lossless import JsonValue

__all__ = [
    "FIRST_SEQ",
    "MAX_LINE_BYTES",
    "MAX_SEQ",
    "EventStore",
    "MemoryStore",
    "check_event",
    "encode_arguments",
    "forget_arguments",
]

_encoder: Final = msgspec.json.Encoder()

_INF: Final = math.inf

#: The first ``seq`` a new log assigns.
FIRST_SEQ: Final = 1

#: The highest ``seq`` a log line may hold: an int64, as the persist budget
#: counts a stamped event's digits (``_budget._SLACK``). A store continues a
#: log only below it, so a log whose last ``seq`` is this one is refused.
MAX_SEQ: Final = 2**63 - 1

#: The longest line (its newline included) a log is read with: four times the
#: default ``Quotas.max_persisted_bytes`` (64 MiB), the most one run persists
#: (all its dispatch events together), so no event written under the default
#: quotas comes near it. A longer line is damaged: a file with no newline in
#: its first 256 MiB is refused after reading that much, never read whole.
MAX_LINE_BYTES: Final = 256 * 1024 * 1024


class EventStore(Protocol):
    """Where a :class:`~codemode.SessionLog` keeps its events.

    A store assigns each appended event the next ``seq``; a minimal one::

        class ListStore:
            def __init__(self) -> None:
                self.events: list[Event] = []
            def append(self, event: Event) -> Event:
                stamped = msgspec.structs.replace(event, seq=len(self.events) + 1)
                self.events.append(stamped)
                return stamped
            def sync(self) -> None: ...
            def close(self) -> None: ...
            def read(self) -> Iterator[Event]:
                return iter(list(self.events))
    """

    def append(self, event: Event) -> Event:
        """Keep ``event``; return it with its ``seq`` assigned."""
        ...

    def sync(self) -> None:
        """Make every appended event durable (a turn boundary)."""
        ...

    def close(self) -> None:
        """Sync and release the store; appending afterwards is an error."""
        ...

    def read(self) -> Iterator[Event]:
        """Every event kept so far, in ``seq`` order (unknown kinds skipped)."""
        ...


def _type_name(value: object) -> str:
    # A class name is arbitrary text: keep the message itself printable and encodable.
    return type(value).__name__.encode("ascii", "backslashreplace").decode("ascii")


def _text_ok(value: object) -> bool:
    """Whether ``value`` is a ``str`` with a UTF-8 form (not a subclass: msgspec refuses one)."""
    if type(value) is not str:
        return False
    if value.isascii():
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _text_refused(value: object, path: str) -> LossyJsonError:
    """Why :func:`_text_ok` refused ``value`` (the slow path: only for a refusal)."""
    if type(value) is not str:
        return LossyJsonError(f"expected a str, got {_type_name(value)}", path)
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        return LossyJsonError(
            f"string contains a lone surrogate (U+{ord(value[exc.start]):04X}) at index "
            f"{exc.start}, which JSON text cannot carry; remove it or pair it",
            path,
        )
    raise AssertionError("a text refused without a reason")  # pragma: no cover


def _check_texts(event: Event, fields: tuple[str, ...]) -> None:
    for field in fields:
        value = getattr(event, field)
        # The common case inline (every append checks several ids and names).
        if not (type(value) is str and value.isascii()) and not _text_ok(value):
            raise _text_refused(value, f"$.{field}")


def _check_ints(event: Event, fields: tuple[str, ...]) -> None:
    for field in fields:
        value = getattr(event, field)
        if type(value) is not int:
            raise LossyJsonError(f"expected an int, got {_type_name(value)}", f"$.{field}")


def _check_bool(value: object) -> None:
    if type(value) is not bool:
        raise LossyJsonError(f"expected a bool, got {_type_name(value)}", "$.is_error")


def _check_time(value: object) -> None:
    if type(value) is float:
        if not math.isfinite(value):
            raise LossyJsonError(
                f"{value!r} has no JSON form (it would be written as null)", "$.time"
            )
    elif type(value) is int:
        if not -(2**53) <= value <= 2**53:
            raise LossyJsonError(
                "an int time beyond 2**53 does not read back as the same float", "$.time"
            )
    else:
        raise LossyJsonError(f"expected a number, got {_type_name(value)}", "$.time")


def _check_content(content: object) -> None:
    if type(content) is not tuple:
        raise LossyJsonError(
            f"expected a tuple of content blocks, got {_type_name(content)}", "$.content"
        )
    for index, block in enumerate(content):
        kind = type(block)
        if kind is TextBlock:
            text = block.text
            if not (type(text) is str and text.isascii()) and not _text_ok(text):
                raise _text_refused(block.text, f"$.content[{index}].text")
        elif kind is ImageBlock:
            if not _text_ok(block.data):
                raise _text_refused(block.data, f"$.content[{index}].data")
            if not _text_ok(block.mime_type):
                raise _text_refused(block.mime_type, f"$.content[{index}].mime_type")
        else:
            raise LossyJsonError(
                f"expected a TextBlock or ImageBlock, got {_type_name(block)}",
                f"$.content[{index}]",
            )


def _check_error(error: object) -> None:
    if error is None:
        return
    if type(error) is not ErrorInfo:
        raise LossyJsonError(f"expected an ErrorInfo or None, got {_type_name(error)}", "$.error")
    if not _text_ok(error.name):
        raise _text_refused(error.name, "$.error.name")
    for field in ("code", "kind"):
        value = getattr(error, field)
        if value is not None and not _text_ok(value):
            raise _text_refused(value, f"$.error.{field}")


def _check_json(value: object, field: str) -> None:
    try:
        materialize(value, accept_tuples=True)
    except LossyJsonError as exc:  # its path is within the value: name the field too
        raise LossyJsonError(exc.reason, f"$.{field}{exc.path[1:]}") from None


_CALL_TEXTS: Final = ("call_id", "name", "arguments")
_RESULT_TEXTS: Final = ("call_id", "name")
_DISPATCH_TEXTS: Final = ("root_call_id", "parent_call_id", "sub_call_id", "name")
_TURN_INTS: Final = ("turn", "step")


def check_event(event: Event) -> None:
    """Refuse an event a JSON Lines log could not carry exactly; every store applies this.

    Each field must hold its declared type (an ``int`` that is not a ``bool``,
    a finite ``time``, a ``tuple`` of content blocks) and every string, in
    every field, must be valid Unicode: a lone surrogate has no UTF-8 form.
    The JSON fields (a sub-call's ``arguments``, a result's ``meta``) must be
    lossless JSON. So what one store accepts, every store accepts, and an
    accepted event reads back from a file equal to what was appended.

    Raises:
        LossyJsonError: a field cannot be logged; its message names the field
            as a path (``$.name``, ``$.content[0].text``) and what is wrong.
        TypeError: ``event`` is not an event.
    """
    if isinstance(event, DISPATCH_EVENTS):  # the most frequent
        root = event.root_call_id
        parent = event.parent_call_id
        sub = event.sub_call_id
        name = event.name
        # The common case (four ASCII strs) tested at once; any other, field by field.
        if not (
            type(root) is str
            and type(parent) is str
            and type(sub) is str
            and type(name) is str
            and root.isascii()
            and parent.isascii()
            and sub.isascii()
            and name.isascii()
        ):
            _check_texts(event, _DISPATCH_TEXTS)
        # A frozen snapshot (a sub-call's arguments) was checked when it was taken.
        if not is_snapshot(event.arguments):
            _check_json(event.arguments, "arguments")
        if isinstance(event, CodeDispatchEvent):
            _check_bool(event.is_error)
            _check_content(event.content)
            _check_error(event.error)
    elif isinstance(event, ToolCallEvent):
        _check_ints(event, _TURN_INTS)
        _check_texts(event, _CALL_TEXTS)
    elif isinstance(event, ToolResultEvent):
        _check_ints(event, _TURN_INTS)
        _check_texts(event, _RESULT_TEXTS)
        _check_bool(event.is_error)
        _check_content(event.content)
        _check_error(event.error)
        if not isinstance(event.meta, msgspec.UnsetType):
            _check_json(event.meta, "meta")
        seqs = event.source_event_seqs
        if type(seqs) is not tuple:
            raise LossyJsonError(
                f"expected a tuple of ints, got {_type_name(seqs)}", "$.source_event_seqs"
            )
        for index, seq in enumerate(seqs):
            if type(seq) is not int:
                raise LossyJsonError(
                    f"expected an int, got {_type_name(seq)}", f"$.source_event_seqs[{index}]"
                )
    else:
        raise TypeError(f"expected a session log event, got {_type_name(event)}")
    moment = event.time
    if not (type(moment) is float and -_INF < moment < _INF):  # else _check_time says why
        _check_time(moment)


def _stamp(event: Event, seq: int) -> Event:
    return msgspec.structs.replace(event, seq=seq)


def _line_within_cap(stamped: Event) -> bytes:
    """The line a JSON Lines store writes for ``stamped``; refused past :data:`MAX_LINE_BYTES`.

    Every store applies it, so an event one store keeps, a file could hold
    and its readers read back.
    """
    line = _encode_line(stamped)
    if len(line) > MAX_LINE_BYTES:
        raise LossyJsonError(
            f"the event is {len(line)} bytes as a line, over the {MAX_LINE_BYTES} bytes a "
            "log line may hold (the readers' cap); persist less of it (Quotas."
            "max_persisted_bytes)",
            "$",
        )
    return line


#: The JSON encodings of logged argument snapshots, by the snapshot's id, for
#: as long as the snapshot lives: a sub-call's arguments are measured once
#: (against its run's budget) and written in two events, and a store that
#: writes JSON splices these bytes in instead of encoding the arguments again.
_encodings: dict[int, tuple[weakref.ref[FrozenDict], bytes]] = {}


def encode_arguments(snapshot: JsonValue) -> bytes:
    """The compact JSON of a frozen arguments snapshot, remembered for the stores.

    Remembered until :func:`forget_arguments` or until the snapshot is gone.
    Safe to call from any thread; what a store writes is the same bytes it
    would have encoded itself.
    """
    data = _encoder.encode(snapshot)
    if type(snapshot) is FrozenDict and is_snapshot(snapshot):
        key = id(snapshot)

        def forget(ref: weakref.ref[FrozenDict], key: int = key) -> None:
            entry = _encodings.get(key)
            if entry is not None and entry[0] is ref:
                _encodings.pop(key, None)

        _encodings[key] = (weakref.ref(snapshot, forget), data)
    return data


def forget_arguments(snapshot: JsonValue) -> None:
    """Drop the remembered encoding of ``snapshot`` (its last event is written)."""
    entry = _encodings.get(id(snapshot))
    if entry is not None and entry[0]() is snapshot:
        _encodings.pop(id(snapshot), None)


def _encode_line(event: Event) -> bytes:
    """``event`` as one line of JSON, reusing a remembered encoding of its arguments."""
    if isinstance(event, DISPATCH_EVENTS):
        entry = _encodings.get(id(event.arguments))
        if entry is not None and entry[0]() is event.arguments:
            spliced = msgspec.structs.replace(event, arguments=msgspec.Raw(entry[1]))
            return _encoder.encode(spliced) + b"\n"
    return _encoder.encode(event) + b"\n"


@final
class MemoryStore:
    """Keeps events in a list: for tests and for sessions that need no file."""

    def __init__(self) -> None:
        self._events: list[Event] = []
        self._closed = False

    def append(self, event: Event) -> Event:
        """Keep ``event``; return it with the next ``seq``.

        Raises:
            LossyJsonError: as :meth:`JsonlStore.append`: what a file would
                refuse (a field it cannot carry, a line over
                :data:`MAX_LINE_BYTES`) is refused here too, so a session
                tested on memory behaves the same on a file.
            ValueError: the store is closed.
        """
        if self._closed:
            raise ValueError("cannot append: the log store is closed")
        check_event(event)
        stamped = _stamp(event, FIRST_SEQ + len(self._events))
        _line_within_cap(stamped)  # what a file would refuse, memory refuses too
        self._events.append(stamped)
        return stamped

    def sync(self) -> None:
        """Nothing to do: memory is as durable as it gets."""

    def close(self) -> None:
        """Refuse further appends; the events stay readable."""
        self._closed = True

    def read(self) -> Iterator[Event]:
        """The events appended so far (a snapshot)."""
        return iter(list(self._events))
