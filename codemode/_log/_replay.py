"""Reading a log back: the call tree for display, and the model-facing history."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final, TypeAlias, final

import msgspec

from .._results import ContentBlock, ErrorInfo, TextBlock
from .._terminal import one_line, token
from ._events import CodeDispatchStartEvent, ToolCallEvent, ToolResultEvent
from ._invariants import DispatchInvariants, kind_of

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from bridge.lossless import JsonValue

    from ._events import Event
else:
    JsonValue = Any

__all__ = [
    "CallNode",
    "InvariantCheck",
    "ModelMessage",
    "ModelToolCall",
    "ModelToolResult",
    "model_messages",
    "render_tree",
    "replay",
    "tree_json",
]

#: Indentation stops growing at this many levels (10 columns, like
#: ``pretty_json``); deeper lines show their depth as ``[depth N]`` instead, so
#: the rendered tree is linear in the size of the log however deep it nests.
MAX_INDENT_LEVELS: Final = 5


@final
class CallNode(msgspec.Struct, kw_only=True):
    """One call in a replayed session, with the sub-calls it made.

    ``arguments`` is the raw JSON string for a model call and the JSON value
    for a sub-call. ``started``/``finished`` are the ``time`` of the start and
    settle events (``None`` when that event is missing); ``is_error`` is
    ``None`` while the call has not settled.
    """

    call_id: str
    name: str
    arguments: JsonValue
    started: float | None = None
    finished: float | None = None
    is_error: bool | None = None
    content: tuple[ContentBlock, ...] = ()
    error: ErrorInfo | None = None
    children: list[CallNode] = msgspec.field(default_factory=list)

    @property
    def duration(self) -> float | None:
        """Seconds from start to settle, when both are known."""
        if self.started is None or self.finished is None:
            return None
        return self.finished - self.started


def replay(events: Iterable[Event]) -> list[CallNode]:
    """Rebuild the call tree from a session's events.

    ``tool/call`` and ``tool/result`` pairs are the roots; each
    ``tool/code-dispatch-start`` / ``tool/code-dispatch`` pair hangs under its
    ``parent_call_id`` (itself a root or a sub-call). A settle without a start
    still appears, attached where its start would have been. Siblings are in
    start order. Canonical values are not in the log, so only content is shown.

    Returns:
        The root calls, in the order they started.
    """
    roots: list[CallNode] = []
    by_id: dict[str, CallNode] = {}

    def attach(node: CallNode, parent_id: str, root_id: str) -> None:
        parent = by_id.get(parent_id) or by_id.get(root_id)
        (parent.children if parent is not None else roots).append(node)
        by_id[node.call_id] = node

    for event in events:
        if isinstance(event, ToolCallEvent):
            node = CallNode(
                call_id=event.call_id, name=event.name, arguments=event.arguments,
                started=event.time,
            )
            roots.append(node)
            by_id[event.call_id] = node
        elif isinstance(event, CodeDispatchStartEvent):
            node = CallNode(
                call_id=event.sub_call_id, name=event.name, arguments=event.arguments,
                started=event.time,
            )
            attach(node, event.parent_call_id, event.root_call_id)
        elif isinstance(event, ToolResultEvent):
            found = by_id.get(event.call_id)
            if found is None or found.is_error is not None:
                found = CallNode(call_id=event.call_id, name=event.name, arguments=None)
                roots.append(found)
                by_id[event.call_id] = found
            _settle(found, event.time, event.is_error, event.content, event.error)
        else:
            found = by_id.get(event.sub_call_id)
            if found is None or found.is_error is not None:
                found = CallNode(
                    call_id=event.sub_call_id, name=event.name, arguments=event.arguments
                )
                attach(found, event.parent_call_id, event.root_call_id)
            _settle(found, event.time, event.is_error, event.content, event.error)
    return roots


def _settle(
    node: CallNode,
    time: float,
    is_error: bool,
    content: tuple[ContentBlock, ...],
    error: ErrorInfo | None,
) -> None:
    node.finished = time
    node.is_error = is_error
    node.content = content
    node.error = error


def _duration_text(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    if seconds < 1:
        return f"{seconds * 1000:.1f} ms"
    return f"{seconds:.2f} s"


#: A character ``str.strip()`` keeps (``re``'s Unicode ``\\s`` is ``str.isspace()``).
_VISIBLE: Final = re.compile(r"\S")
#: A line break as ``str.splitlines()`` knows them.
_LINE_BREAK: Final = re.compile("[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
#: What ``text_of`` writes for a block that is not text.
_NOT_TEXT: Final = "[image content]"


def _first_line(content: tuple[ContentBlock, ...], limit: int = 100) -> str:
    """The first line of the content's text, stripped and cut to ``limit`` characters.

    What ``text_of(content).strip().splitlines()[0]`` gives, cut, without
    building the joined text, its stripped copy or its list of lines: a
    result's content comes from the log file (a program or a tool chose most of
    it, up to the line cap), and a content of millions of short lines made that
    list about twenty times the size of the text to print 100 characters of
    it. Reads at most ``limit + 1`` characters past the first visible one;
    locating that one, and whether anything visible follows the line (which
    ``strip`` would keep), are searches that copy nothing.
    """
    pieces = [block.text if isinstance(block, TextBlock) else _NOT_TEXT for block in content]
    start = _visible_from(pieces, 0, 0)
    if start is None:
        return ""
    index, offset = start
    parts: list[str] = []
    wanted = limit + 1
    at, skip = index, offset
    while at < len(pieces) and wanted > 0:
        part = pieces[at][skip : skip + wanted]
        parts.append(part)
        wanted -= len(part)
        at, skip = at + 1, 0
    window = "".join(parts)
    brk = _LINE_BREAK.search(window)
    line = window if brk is None else window[: brk.start()]
    # The line's end, as a place in the pieces.
    at, skip, left = index, offset, len(line)
    while left > len(pieces[at]) - skip:
        left -= len(pieces[at]) - skip
        at, skip = at + 1, 0
    if _visible_from(pieces, at, skip + left) is None:
        line = line.rstrip()  # the text's end: strip() removed what follows the line
    return one_line(line if len(line) <= limit else line[: limit - 1] + "…")


def _visible_from(pieces: list[str], index: int, offset: int) -> tuple[int, int] | None:
    """Where the first visible character at or after ``pieces[index][offset]`` is, or None."""
    while index < len(pieces):
        found = _VISIBLE.search(pieces[index], offset)
        if found is not None:
            return index, found.start()
        index, offset = index + 1, 0
    return None


def _indent(depth: int) -> str:
    if depth <= MAX_INDENT_LEVELS:
        return "  " * depth
    return f"{'  ' * MAX_INDENT_LEVELS}[depth {depth}] "


def render_tree(nodes: Iterable[CallNode]) -> str:
    """One line per call (id, name, outcome, duration, first line of content), children indented.

    Indentation stops at :data:`MAX_INDENT_LEVELS` levels; a deeper call's
    line starts with ``[depth N]`` after it. The walk is iterative.

    Ids, names and error codes come from the model, an MCP client or the log
    file, so each is written as a :func:`~codemode._terminal.token`: as it is
    when plain, else as a JSON string literal (``"c1\\nfake"``); the content's
    first line goes through :func:`~codemode._terminal.one_line`. So a call
    is exactly one line whatever its fields hold, and nothing in them can
    print a line that looks like another call's.

    Example::

        call_1 run_code ok 12.4 ms: found 3 results
          call_1:code:1 search ok 3.1 ms: [{"title": "a"}]
          call_1:code:2 fetch error (TOOL_TIMEOUT) 5.0 ms: Error: tool call timed out after 5s
    """
    lines: list[str] = []
    stack: list[tuple[CallNode, int]] = [(node, 0) for node in reversed(list(nodes))]
    while stack:
        node, depth = stack.pop()
        if node.is_error is None:
            outcome = "pending"
        elif node.is_error:
            code = node.error.code if node.error is not None else None
            outcome = f"error ({token(code)})" if code else "error"
        else:
            outcome = "ok"
        duration = _duration_text(node.duration)
        line = f"{_indent(depth)}{token(node.call_id)} {token(node.name)} {outcome} {duration}"
        first = _first_line(node.content)
        lines.append(f"{line}: {first}" if first else line)
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return "\n".join(lines)


@final
class InvariantCheck:
    """The session log's invariants, checked over a log as it is read, noting what breaks them.

    :class:`~codemode._log.SessionLog` refuses to open a store whose history
    breaks its invariants (:mod:`codemode._log._invariants`); a reader of the
    log (``codemode replay``) still shows it, and says so::

        check = InvariantCheck()
        nodes = replay(check.passing(read_events(path)))
        if check.problems:
            print(check.summary())

    Each event is checked against the ones before it, then taken into account
    whether or not it broke them, so one stray event does not make the events
    after it problems too.
    """

    __slots__ = ("_invariants", "first", "first_unsettled", "problems", "unsettled")

    def __init__(self) -> None:
        self._invariants = DispatchInvariants()
        #: How many events broke the invariants (``unsettled`` included).
        self.problems = 0
        #: The first event that breaks a rule a SessionLog refuses to open:
        #: its ``seq`` and kind, and what is wrong.
        self.first: tuple[int, str, str] | None = None
        #: How many of the problems are a root's ``tool/result`` that left
        #: sub-calls started under it unsettled. A SessionLog opens such a log,
        #: and closes those sub-calls as abandoned.
        self.unsettled = 0
        #: The first of those, as ``first``.
        self.first_unsettled: tuple[int, str, str] | None = None

    def passing(self, events: Iterable[Event]) -> Iterator[Event]:
        """Yield ``events`` unchanged, checking each as it passes."""
        invariants = self._invariants
        for event in events:
            problem = invariants.problem(event)
            if problem is not None:
                self.problems += 1
                if self.first is None:
                    self.first = (event.seq, kind_of(event), problem)
            else:
                problem = invariants.result_problem(event)
                if problem is not None:
                    self.problems += 1
                    self.unsettled += 1
                    if self.first_unsettled is None:
                        self.first_unsettled = (event.seq, kind_of(event), problem)
            invariants.record(event)
            yield event

    def summary(self) -> str:
        """One line saying how many events break the invariants, and the first problem."""
        if self.first is not None:
            seq, kind, problem = self.first
            consequence = "so a SessionLog will not open it to append"
        elif self.first_unsettled is not None:
            seq, kind, problem = self.first_unsettled
            consequence = "opening it in a SessionLog closes the unsettled sub-calls"
        else:
            return "the log keeps the session log's invariants"
        events = "1 event breaks" if self.problems == 1 else f"{self.problems} events break"
        return one_line(
            f"{events} the session log's invariants, {consequence}; "
            f"the first is the {kind} event seq={seq}: {problem}"
        )


#: How a node with no children ends in its JSON encoding (``children`` is its last field).
_NO_CHILDREN_TAIL: Final = b'"children":[]}'


def tree_json(nodes: Iterable[CallNode]) -> bytes:
    """The JSON array of ``nodes`` with their sub-calls, as ``msgspec.json.encode`` writes it.

    Each node is encoded without its children and the children are spliced
    in by an iterative walk, so a deeply nested log cannot exhaust the
    interpreter's stack.

    Raises:
        ValueError: a node's own fields (e.g. ``arguments``) cannot be encoded,
            for example because they are nested too deeply.
    """
    out = bytearray(b"[")
    # Per open level: the children still to write, and whether one was written.
    stack: list[tuple[Iterator[CallNode], list[bool]]] = [(iter(list(nodes)), [False])]
    while stack:
        siblings, wrote = stack[-1]
        node = next(siblings, None)
        if node is None:
            stack.pop()
            out += b"]}" if stack else b"]"
            continue
        if wrote[0]:
            out += b","
        wrote[0] = True
        try:
            head = msgspec.json.encode(msgspec.structs.replace(node, children=[]))
        except RecursionError:
            raise ValueError(
                f"call {node.call_id!r}: its fields are nested too deeply to write as JSON"
            ) from None
        if not head.endswith(_NO_CHILDREN_TAIL):  # pragma: no cover - msgspec's field order
            raise AssertionError("CallNode.children must be encoded last")
        out += head[:-2]  # open: ...,"children":[
        stack.append((iter(node.children), [False]))
    return bytes(out)


@final
class ModelToolCall(msgspec.Struct, frozen=True, kw_only=True):
    """A tool call as the model made it: ``arguments`` is its raw JSON string."""

    call_id: str
    name: str
    arguments: str


@final
class ModelToolResult(msgspec.Struct, frozen=True, kw_only=True):
    """A tool result as the model sees it."""

    call_id: str
    name: str
    content: tuple[ContentBlock, ...]
    is_error: bool


ModelMessage: TypeAlias = ModelToolCall | ModelToolResult


def model_messages(events: Iterable[Event]) -> list[ModelMessage]:
    """The model-facing tool history of a session, in log order.

    Only ``tool/call`` and ``tool/result`` count: sub-call events of a
    ``run_code`` program never become model messages.
    """
    messages: list[ModelMessage] = []
    for event in events:
        if isinstance(event, ToolCallEvent):
            messages.append(
                ModelToolCall(call_id=event.call_id, name=event.name, arguments=event.arguments)
            )
        elif isinstance(event, ToolResultEvent):
            messages.append(
                ModelToolResult(
                    call_id=event.call_id, name=event.name, content=event.content,
                    is_error=event.is_error,
                )
            )
    return messages
