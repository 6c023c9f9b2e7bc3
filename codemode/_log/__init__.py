"""The durable session log: events, stores, and replay.

Events are frozen tagged msgspec Structs (:mod:`._events`); a store keeps them
(:mod:`._stores`: a JSON Lines file by default, and :func:`check_event`, what
every store refuses); :class:`SessionLog` is what the rest of codemode appends
to (:mod:`._session`, closing what a stopped writer left open with
:mod:`._recovery`); :class:`PersistBudget` bounds
what one ``run_code`` run may have persisted (:mod:`._budget`); :func:`replay`
rebuilds the call tree for display and :func:`model_messages` the model's
history (:mod:`._replay`).
"""

from ._budget import PersistBudget as PersistBudget
from ._budget import dispatch_event_size as dispatch_event_size
from ._events import EVENT_KINDS as EVENT_KINDS
from ._events import UNASSIGNED as UNASSIGNED
from ._events import CodeDispatchEvent as CodeDispatchEvent
from ._events import CodeDispatchStartEvent as CodeDispatchStartEvent
from ._events import Event as Event
from ._events import ToolCallEvent as ToolCallEvent
from ._events import ToolResultEvent as ToolResultEvent
from ._events import result_event as result_event
from ._invariants import LogInvariantError as LogInvariantError
from ._jsonl import JsonlStore as JsonlStore
from ._jsonl import LogFormatError as LogFormatError
from ._jsonl import read_events as read_events
from ._replay import CallNode as CallNode
from ._replay import ModelMessage as ModelMessage
from ._replay import ModelToolCall as ModelToolCall
from ._replay import ModelToolResult as ModelToolResult
from ._replay import model_messages as model_messages
from ._replay import render_tree as render_tree
from ._replay import replay as replay
from ._session import SessionLog as SessionLog
from ._stores import EventStore as EventStore
from ._stores import MemoryStore as MemoryStore
from ._stores import check_event as check_event
from ._stores import encode_arguments as encode_arguments
from ._stores import forget_arguments as forget_arguments

__all__ = [
    "EVENT_KINDS",
    "UNASSIGNED",
    "CallNode",
    "CodeDispatchEvent",
    "CodeDispatchStartEvent",
    "Event",
    "EventStore",
    "JsonlStore",
    "LogFormatError",
    "LogInvariantError",
    "MemoryStore",
    "ModelMessage",
    "ModelToolCall",
    "ModelToolResult",
    "PersistBudget",
    "SessionLog",
    "ToolCallEvent",
    "ToolResultEvent",
    "check_event",
    "dispatch_event_size",
    "encode_arguments",
    "forget_arguments",
    "model_messages",
    "read_events",
    "render_tree",
    "replay",
    "result_event",
]
