"""Code Mode for LLM agents."""

import contextlib
import typing

import msgspec

from bridge.lossless import JsonValue as JsonValue
from bridge.lossless import LossyJsonError as LossyJsonError

from ._errors import AbortError as AbortError
from ._errors import CodemodeError as CodemodeError
from ._errors import CodeRunFailedError as CodeRunFailedError
from ._errors import QuotaExceededError as QuotaExceededError
from ._errors import RegistrationError as RegistrationError
from ._errors import SessionLogWriteError as SessionLogWriteError
from ._errors import ToolArgsError as ToolArgsError
from ._errors import ToolError as ToolError
from ._errors import ToolNotFoundError as ToolNotFoundError
from ._errors import ToolOutputError as ToolOutputError
from ._errors import ToolTimeoutError as ToolTimeoutError
from ._errors import UnsupportedSchemaError as UnsupportedSchemaError
from ._execution import Accept as Accept
from ._execution import Allow as Allow
from ._execution import ApprovalOutcome as ApprovalOutcome
from ._execution import Approver as Approver
from ._execution import Ask as Ask
from ._execution import Block as Block
from ._execution import CallInput as CallInput
from ._execution import Deny as Deny
from ._execution import DispatchExecution as DispatchExecution
from ._execution import ExecutionToken as ExecutionToken
from ._execution import PostDecision as PostDecision
from ._execution import PreDecision as PreDecision
from ._execution import ToolExecution as ToolExecution
from ._execution import ToolRunContext as ToolRunContext
from ._formats import WireFormat as WireFormat
from ._log import CallNode as CallNode
from ._log import CodeDispatchEvent as CodeDispatchEvent
from ._log import CodeDispatchStartEvent as CodeDispatchStartEvent
from ._log import Event as Event
from ._log import EventStore as EventStore
from ._log import JsonlStore as JsonlStore
from ._log import LogFormatError as LogFormatError
from ._log import LogInvariantError as LogInvariantError
from ._log import MemoryStore as MemoryStore
from ._log import ModelToolCall as ModelToolCall
from ._log import ModelToolResult as ModelToolResult
from ._log import SessionLog as SessionLog
from ._log import ToolCallEvent as ToolCallEvent
from ._log import ToolResultEvent as ToolResultEvent
from ._log import model_messages as model_messages
from ._log import read_events as read_events
from ._log import render_tree as render_tree
from ._log import replay as replay
from ._registry import RUN_CODE as RUN_CODE
from ._registry import ExecutionMode as ExecutionMode
from ._registry import Mode as Mode
from ._registry import Registry as Registry
from ._registry import ToolSchema as ToolSchema
from ._results import ContentBlock as ContentBlock
from ._results import ContextMessage as ContextMessage
from ._results import ErrorInfo as ErrorInfo
from ._results import FailureDetail as FailureDetail
from ._results import ImageBlock as ImageBlock
from ._results import TextBlock as TextBlock
from ._results import ToolFailure as ToolFailure
from ._results import ToolResult as ToolResult
from ._results import ToolSuccess as ToolSuccess
from ._results import text_of as text_of
from ._schema import assert_supported as assert_supported
from ._schema import schema_problems as schema_problems
from ._scope import Agent as Agent
from ._signal import AbortSignal as AbortSignal
from ._tools import ToolDefinition as ToolDefinition
from ._tools import ToolOutput as ToolOutput
from ._tools import define_tool as define_tool
from ._tools import tool as tool
from ._turns import run_turn as run_turn
from ._validate import Violation as Violation
from ._validate import validate as validate

# (more public names are added here as modules land; __all__ is kept sorted)
__all__ = [
    "RUN_CODE",
    "AbortError",
    "AbortSignal",
    "Accept",
    "Agent",
    "Allow",
    "ApprovalOutcome",
    "Approver",
    "Ask",
    "Block",
    "CallInput",
    "CallNode",
    "CodeDispatchEvent",
    "CodeDispatchStartEvent",
    "CodeRunFailedError",
    "CodemodeError",
    "ContentBlock",
    "ContextMessage",
    "Deny",
    "DispatchExecution",
    "ErrorInfo",
    "Event",
    "EventStore",
    "ExecutionMode",
    "ExecutionToken",
    "FailureDetail",
    "ImageBlock",
    "JsonValue",
    "JsonlStore",
    "LogFormatError",
    "LogInvariantError",
    "LossyJsonError",
    "MemoryStore",
    "Mode",
    "ModelToolCall",
    "ModelToolResult",
    "PostDecision",
    "PreDecision",
    "QuotaExceededError",
    "RegistrationError",
    "Registry",
    "SessionLog",
    "SessionLogWriteError",
    "TextBlock",
    "ToolArgsError",
    "ToolCallEvent",
    "ToolDefinition",
    "ToolError",
    "ToolExecution",
    "ToolFailure",
    "ToolNotFoundError",
    "ToolOutput",
    "ToolOutputError",
    "ToolResult",
    "ToolResultEvent",
    "ToolRunContext",
    "ToolSchema",
    "ToolSuccess",
    "ToolTimeoutError",
    "UnsupportedSchemaError",
    "Violation",
    "WireFormat",
    "assert_supported",
    "define_tool",
    "model_messages",
    "read_events",
    "render_tree",
    "replay",
    "run_turn",
    "schema_problems",
    "text_of",
    "tool",
    "validate",
]


def _present_as_public() -> None:
    """Show public names as ``codemode.X`` (in reprs and tracebacks), not ``codemode._x.X``."""
    namespace = globals()
    for public in __all__:
        obj = namespace[public]
        if isinstance(obj, type) and issubclass(obj, msgspec.Struct):
            # msgspec resolves a Struct's string annotations in the module its
            # ``__module__`` names, and caches them: resolve them before renaming.
            with contextlib.suppress(Exception):
                msgspec.inspect.type_info(obj)
        elif isinstance(obj, type) and vars(obj).get("__annotations__"):
            # The same for typing.get_type_hints on other classes: store the
            # resolved annotations while the defining module is still named.
            with contextlib.suppress(Exception):
                hints = typing.get_type_hints(obj, include_extras=True)
                obj.__annotations__ = {k: hints[k] for k in vars(obj)["__annotations__"]}
        if getattr(obj, "__module__", "").startswith("codemode._"):
            # Aliases of typing constructs cannot take a module; they keep theirs.
            with contextlib.suppress(AttributeError, TypeError):
                obj.__module__ = __name__


_present_as_public()
del _present_as_public
