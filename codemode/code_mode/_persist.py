"""What a run's sub-call events cost in its persist budget, and how they are kept within it.

Every sub-call of a ``run_code`` run is recorded twice, by a start event and a
settle event that both carry its arguments, and both are charged to the run's
:class:`~codemode._log.PersistBudget` (``Quotas.max_persisted_bytes``).
:class:`SubCallLogBudget` is that budget as the dispatcher spends it:

* a call is admitted only with room for its start event and a bounded settle
  event, reserved before it is numbered, and refused with ``QUOTA_EXCEEDED``
  otherwise;
* a settle event replaces its reservation by the bytes it writes: a content
  that does not fit what is left is logged as a preview of at most
  :data:`LOG_PREVIEW_BYTES`, with its size and SHA-256, saying so.

Reserving the settle event at admission is what keeps every logged start with
its settle: a started call's settle event always fits in the cut form.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from typing import TYPE_CHECKING, Final, NamedTuple, final

import msgspec

from sandbox import ToolCallFailed

from .._errors import QUOTA_EXCEEDED
from .._log import (
    CodeDispatchEvent,
    CodeDispatchStartEvent,
    PersistBudget,
    dispatch_event_size,
    forget_arguments,
)
from .._offload import INLINE_NODES
from .._results import ContentBlock, ErrorInfo, TextBlock

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from bridge.lossless import JsonValue

    from .._execution import ToolRunContext
    from ._quotas import Quotas

__all__ = [
    "INLINE_TEXT",
    "LOG_PREVIEW_BYTES",
    "MEASURE_CHUNK_CHARS",
    "ContentMeasure",
    "LoggedArguments",
    "SubCallLogBudget",
    "content_chars",
    "content_size",
    "measure_arguments",
    "measure_content",
]

# The dispatcher's logger: budget warnings read as the bridge's own.
_log = logging.getLogger("codemode.code_mode")

#: The most UTF-8 bytes of a result kept in a logged copy cut to fit the run's
#: :class:`~codemode._log.PersistBudget` (the preview before the notice).
LOG_PREVIEW_BYTES: Final = 1024

#: The most characters of string data in a call's arguments that are copied and
#: measured on the event loop; beyond it (or beyond ``INLINE_NODES`` items) the
#: work runs in a worker thread.
INLINE_TEXT: Final = 64 * 1024

_encoder: Final = msgspec.json.Encoder()

#: The most characters of a content's string that one encoding call reads when
#: a content is measured: each call holds the GIL, so a content measured in a
#: worker thread lets the event loop run between them whatever its size.
MEASURE_CHUNK_CHARS: Final = 256 * 1024


class ContentMeasure(NamedTuple):
    """What a settle event's budget check needs of its content's compact JSON."""

    size: int  # its length in bytes
    digest: str  # its SHA-256, in hex
    head: bytes  # its first LOG_PREVIEW_BYTES bytes


def content_chars(content: Sequence[ContentBlock]) -> int:
    """The characters of a content's strings: a floor of its JSON size, in one step a block."""
    return sum(
        len(block.text) if isinstance(block, TextBlock) else len(block.data) + len(block.mime_type)
        for block in content
    )


def measure_content(content: Sequence[ContentBlock]) -> ContentMeasure:
    """The size, SHA-256 and head of ``content``'s compact JSON, as msgspec encodes it.

    Never one encoding call over more than :data:`MEASURE_CHUNK_CHARS`
    characters, nor the whole JSON held at once: a block's long strings are
    encoded a chunk at a time (JSON escapes one character at a time, so the
    chunks' encodings add up to the string's) and hashed as they come. Run
    from a worker thread, it holds the GIL, and so the event loop, for one
    chunk at most. Touches nothing but ``content``.
    """
    digest = hashlib.sha256()
    head = bytearray()
    size = 0

    def take(data: bytes) -> None:
        nonlocal size
        digest.update(data)
        size += len(data)
        if len(head) < LOG_PREVIEW_BYTES:
            head.extend(data[: LOG_PREVIEW_BYTES - len(head)])

    take(b"[")
    for index, block in enumerate(content):
        if index:
            take(b",")
        _encode_block(block, take)
    take(b"]")
    return ContentMeasure(size, digest.hexdigest(), bytes(head))


def content_size(content: Sequence[ContentBlock]) -> int:
    """``measure_content(content).size`` without its hash and head, for a short content.

    For a content of at most :data:`INLINE_TEXT` characters (:func:`content_chars`),
    whose blocks :func:`measure_content` encodes whole: the same bytes, counted.
    """
    size = 2 + max(len(content) - 1, 0)  # the brackets and the commas between blocks
    for block in content:
        size += len(_encoder.encode(block))
    return size


#: Stands for a long string while the rest of its block is encoded: no text
#: from outside this process can know it, so it is found exactly once.
_MARK: Final = f"\x00{secrets.token_hex(16)}\x00"
_MARK_JSON: Final = _encoder.encode(_MARK)


def _encode_block(block: ContentBlock, take: Callable[[bytes], None]) -> None:
    """Hand ``take`` the compact JSON of ``block`` in pieces, long strings by chunks."""
    fields = block.__struct_fields__
    long = [name for name in fields if len(getattr(block, name)) > MEASURE_CHUNK_CHARS]
    if not long:
        take(_encoder.encode(block))
        return
    shell = _encoder.encode(msgspec.structs.replace(block, **dict.fromkeys(long, _MARK)))
    pieces = shell.split(_MARK_JSON)
    assert len(pieces) == len(long) + 1, "the mark is in no content"
    for piece, name in zip(pieces, long, strict=False):
        take(piece)
        text: str = getattr(block, name)
        take(b'"')
        for start in range(0, len(text), MEASURE_CHUNK_CHARS):
            take(_encoder.encode(text[start : start + MEASURE_CHUNK_CHARS])[1:-1])
        take(b'"')
    take(pieces[-1])


@final
class LoggedArguments:
    """A sub-call's logged arguments: the snapshot, its JSON size, the bytes reserved.

    ``start`` and ``settle`` are the bytes held in the run's budget for the
    call's two events (0 when the budget has no byte limit, or once released).
    """

    __slots__ = ("settle", "size", "start", "value")

    def __init__(self, value: JsonValue, size: int) -> None:
        self.value = value
        self.size = size
        self.start = 0
        self.settle = 0


@final
class SubCallLogBudget:
    """The run's :class:`~codemode._log.PersistBudget` as its sub-calls' dispatch events spend it.

    One serves one ``run_code`` run that logs its sub-calls. A call's
    ``sub_call_id`` is the id it gets if it is admitted: its events carry it,
    so their size depends on it.
    """

    __slots__ = ("_outer", "_overheads", "_settle_overheads", "_warned", "budget")

    def __init__(self, *, outer: ToolRunContext, quotas: Quotas) -> None:
        self._outer = outer
        #: What the run may still persist; listeners that write on the run's
        #: behalf (the spill policy) charge their files here too.
        self.budget = PersistBudget(
            max_bytes=quotas.max_persisted_bytes, max_spill_files=quotas.max_spill_files
        )
        self._warned = False
        # (tool name, length of the call's id) -> the two events' overheads.
        self._overheads: dict[tuple[str, int], tuple[int, int]] = {}
        # (tool name, length of the call's id, is_error) -> a settle event's
        # bytes besides its arguments and content, when it carries no error.
        self._settle_overheads: dict[tuple[str, int, bool], int] = {}

    def refuse_when_spent(self, name: str, floor: int, sub_call_id: str) -> None:
        """Refuse a call that cannot fit before any work on its arguments.

        ``floor`` is a floor of its arguments' JSON size (:func:`measure_arguments`,
        read in at most ``INLINE_NODES`` steps): a call over the budget with
        that floor costs no copy and no encoding.

        Raises:
            ToolCallFailed: even that floor does not fit in what is left.
        """
        budget = self.budget
        if budget.max_bytes is None:
            return
        room = budget.room()
        assert room is not None
        need = sum(self._event_sizes(name, sub_call_id, 2)) + 2 * max(floor - 2, 0)
        if need > room:
            raise self._over_budget(name, need, room, budget.max_bytes)

    def admit(self, name: str, sub_call_id: str, logged: LoggedArguments) -> None:
        """Reserve room for both events of the call, or refuse it.

        Raises:
            ToolCallFailed: the run's budget has no room for them.
        """
        budget = self.budget
        if budget.max_bytes is None:
            return
        start, settle = self._event_sizes(name, sub_call_id, logged.size)
        if not budget.reserve(start + settle):
            room = budget.room()
            assert room is not None
            raise self._over_budget(name, start + settle, room, budget.max_bytes)
        logged.start, logged.settle = start, settle

    def release(self, logged: LoggedArguments) -> None:
        """Give back what was reserved for a call none of whose events will be written."""
        self.budget.settle(logged.start + logged.settle, 0)
        logged.start = logged.settle = 0
        forget_arguments(logged.value)

    @property
    def measures_content(self) -> bool:
        """Whether :meth:`within_budget` measures a settle event's content (a byte budget)."""
        return self.budget.max_bytes is not None

    def within_budget(
        self,
        event: CodeDispatchEvent,
        logged: LoggedArguments,
        measured: ContentMeasure | None = None,
    ) -> CodeDispatchEvent:
        """``event``, its content cut to a preview when the run's budget has no room for it.

        The settle event is always written (its start is in the log): what was
        reserved for it when the call was admitted holds the cut form. The cut
        copy says so, with the content's size and SHA-256; the program and the
        model are not affected.

        ``measured`` is :func:`measure_content` of ``event.content``, taken
        off the event loop by a caller whose content is long; without it the
        content is measured here, which is fit for the loop only for a content
        of at most :data:`INLINE_TEXT` characters (:func:`content_chars`). A
        tool's content is not bounded by any frame or value cap, and a cut
        copy needs all of it measured and hashed: 300 MB took 0.6 s of the
        loop before.
        """
        budget = self.budget
        room = budget.room(logged.settle)
        if room is None:
            return event
        if measured is not None:
            content_bytes = measured.size
        elif content_chars(event.content) <= INLINE_TEXT:
            # Most contents fit: their size alone decides, and the hash and
            # head a cut copy needs are taken only for one that is cut.
            content_bytes = content_size(event.content)
        else:
            measured = measure_content(event.content)
            content_bytes = measured.size
        size = self._settle_size(event, logged.size, content_bytes)
        if size > room:
            if measured is None:
                measured = measure_content(event.content)
            assert budget.max_bytes is not None
            self._warn(f"the logged copy of {event.sub_call_id}'s result was cut")
            notice = _cut_notice(measured.size, measured.digest, budget.max_bytes)
            preview = _head(_preview_source(event.content, measured.head), LOG_PREVIEW_BYTES)
            event = msgspec.structs.replace(
                event, content=(TextBlock(text=_cut_text(preview, notice)),)
            )
            size = dispatch_event_size(event, arguments_bytes=logged.size)
            if size > room:  # pragma: no cover - the reservation holds the preview
                event = msgspec.structs.replace(event, content=(TextBlock(text=notice),))
                size = dispatch_event_size(event, arguments_bytes=logged.size)
        budget.settle(logged.settle, size)
        logged.settle = 0
        return event

    def _settle_size(
        self, event: CodeDispatchEvent, arguments_bytes: int, content_bytes: int
    ) -> int:
        """The bytes ``event`` takes (:func:`dispatch_event_size`), its overhead computed once.

        Beyond its arguments and content, a settle event without an error
        differs from another of the same tool only in its id's digits.
        """
        if event.error is not None:
            return dispatch_event_size(
                event, arguments_bytes=arguments_bytes, content_bytes=content_bytes
            )
        key = (event.name, len(event.sub_call_id), event.is_error)
        overhead = self._settle_overheads.get(key)
        if overhead is None:
            overhead = dispatch_event_size(event, arguments_bytes=0, content_bytes=0)
            self._settle_overheads[key] = overhead
        return overhead + arguments_bytes + content_bytes

    def _event_sizes(
        self, name: str, sub_call_id: str, arguments_bytes: int
    ) -> tuple[int, int]:
        """The bytes the call's start event takes, and those its settle event may take.

        Both are the arguments' bytes plus an overhead that depends only on the
        tool's name and the length of the call's id, computed once.
        """
        key = (name, len(sub_call_id))
        overheads = self._overheads.get(key)
        if overheads is None:
            outer = self._outer
            root, parent = outer.root_call_id, outer.call_id
            start = dispatch_event_size(
                CodeDispatchStartEvent(
                    root_call_id=root,
                    parent_call_id=parent,
                    sub_call_id=sub_call_id,
                    name=name,
                    arguments=None,
                ),
                arguments_bytes=0,
            )
            # The most a settle event takes once its content is cut to the
            # preview (at most LOG_PREVIEW_BYTES of JSON text); its error is
            # allowed a long identity (a longer one is still written).
            placeholder = CodeDispatchEvent(
                root_call_id=root,
                parent_call_id=parent,
                sub_call_id=sub_call_id,
                name=name,
                arguments=None,
                is_error=True,
                content=(TextBlock(text=_cut_text("x" * LOG_PREVIEW_BYTES, _LONGEST_NOTICE)),),
                error=_LONGEST_ERROR,
            )
            overheads = (start, dispatch_event_size(placeholder, arguments_bytes=0))
            self._overheads[key] = overheads
        return overheads[0] + arguments_bytes, overheads[1] + arguments_bytes

    def _over_budget(self, name: str, need: int, room: int, limit: int) -> ToolCallFailed:
        self._warn(f"a call to {name} was refused")
        return ToolCallFailed(
            f'quota exceeded: "{name}" was not dispatched: recording it in the session log '
            f"takes {need} bytes (its arguments are logged with its start and with its "
            f"result) and this run has {max(room, 0)} of its {limit} bytes left "
            "(Quotas.max_persisted_bytes, what the host persists on one run's behalf). "
            "Pass less data to tools: fewer or smaller arguments, e.g. a reference "
            "instead of the content.",
            code=QUOTA_EXCEEDED,
        )

    def _warn(self, what: str) -> None:
        # Once a run: a program looping over refused calls must not flood the host's log.
        if not self._warned:
            self._warned = True
            _log.warning(
                "run_code %s spent its persisted-bytes budget (Quotas.max_persisted_bytes): "
                "%s; later refusals and cut log copies of this run are not reported here",
                self._outer.call_id,
                what,
            )


def measure_arguments(args: object) -> tuple[int, bool]:
    """A floor of ``args``'s JSON size, and whether copying and encoding it is short work.

    One walk of at most ``INLINE_NODES`` items: the floor is their strings and
    keys, quoted (what lies beyond counts as nothing); the work is short, fit
    for the event loop, when those items are all of ``args`` and hold at most
    :data:`INLINE_TEXT` characters of strings.
    """
    chars, marks, whole = _strings(args)
    return chars + marks, whole and chars <= INLINE_TEXT


def _strings(value: object) -> tuple[int, int, bool]:
    """What the strings among the first ``INLINE_NODES`` items of ``value`` take.

    Returns the characters of its strings and string keys, the quotes and
    colons their JSON adds (two a string, three a key: ``"key":``), and
    whether those items were all of ``value``. Costs at most about
    ``INLINE_NODES`` steps whatever the size of ``value``; containers are read
    through their base types.
    """
    nodes, chars, marks = INLINE_NODES, 0, 0
    pending: list[object] = [value]
    while pending and nodes > 0:
        item = pending.pop()
        nodes -= 1
        if isinstance(item, str):
            chars += len(item)
            marks += 2
            continue
        if isinstance(item, dict):
            size = dict.__len__(item)
        elif isinstance(item, list):
            size = list.__len__(item)
        elif isinstance(item, tuple):
            size = tuple.__len__(item)
        else:
            continue
        if size > nodes - len(pending):
            # More items than are left to read: none is copied or walked (a
            # dict of a million keys would be, in one step).
            return chars, marks, False
        if isinstance(item, dict):
            for key, child in dict.items(item):
                if isinstance(key, str):
                    chars += len(key)
                    marks += 3
                pending.append(child)
        else:
            pending.extend(list.__iter__(item) if isinstance(item, list) else tuple.__iter__(item))
    return chars, marks, not pending


#: A long error identity, what a settle event's reservation allows for.
_LONGEST_ERROR: Final = ErrorInfo(name="E" * 128, code="C" * 64, kind="k" * 32)


def _cut_notice(size: int, digest: str, limit: int) -> str:
    return (
        f"(Logged copy cut to a preview: the result's content was {size} bytes of JSON, "
        f"SHA-256 {digest}; this run had no room left for it in its budget for what the "
        f"host persists (Quotas.max_persisted_bytes = {limit} bytes). The program received "
        "the complete result.)"
    )


#: The longest notice :func:`_cut_notice` writes (its numbers at their longest).
_LONGEST_NOTICE: Final = _cut_notice(2**63 - 1, "0" * 64, 2**63 - 1)


def _cut_text(preview: str, notice: str) -> str:
    return f"{preview}\n\n{notice}" if preview else notice


def _preview_source(content: tuple[ContentBlock, ...], json_head: bytes) -> bytes:
    """The front of what a cut copy previews: the content's text when it is all text, else its JSON.

    At least :data:`LOG_PREVIEW_BYTES` bytes of it when there are that many (a
    character is at least a byte, so that many characters are read, no more).
    ``json_head`` is the first :data:`LOG_PREVIEW_BYTES` bytes of its JSON.
    """
    if not all(isinstance(block, TextBlock) for block in content):
        return json_head[:LOG_PREVIEW_BYTES]
    parts: list[str] = []
    wanted = LOG_PREVIEW_BYTES
    for block in content:
        assert isinstance(block, TextBlock)
        parts.append(block.text[:wanted])
        wanted -= len(parts[-1])
        if wanted <= 0:
            break
    return "".join(parts).encode("utf-8", "replace")


def _head(data: bytes, size: int) -> str:
    """The front of UTF-8 ``data`` whose JSON string is at most ``size`` bytes (quotes aside).

    Cut on a character boundary; a text whose escapes would make it longer
    keeps ``size // 6`` characters (no character takes more than six).
    """
    head = data[:size].decode("utf-8", "ignore")
    if len(_encoder.encode(head)) - 2 > size:
        head = head[: size // 6]
    return head
