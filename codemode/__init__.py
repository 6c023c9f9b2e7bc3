"""Code Mode for LLM agents."""

from bridge.lossless import JsonValue as JsonValue
from bridge.lossless import LossyJsonError as LossyJsonError

from ._errors import AbortError as AbortError
from ._errors import CodemodeError as CodemodeError
from ._errors import CodeRunFailedError as CodeRunFailedError
from ._errors import QuotaExceededError as QuotaExceededError
from ._errors import RegistrationError as RegistrationError
from ._errors import ToolArgsError as ToolArgsError
from ._errors import ToolError as ToolError
from ._errors import ToolNotFoundError as ToolNotFoundError
from ._errors import ToolOutputError as ToolOutputError
from ._errors import ToolTimeoutError as ToolTimeoutError
from ._errors import UnsupportedSchemaError as UnsupportedSchemaError
from ._results import ContentBlock as ContentBlock
from ._results import ContextMessage as ContextMessage
from ._results import ErrorInfo as ErrorInfo
from ._results import FailureDetail as FailureDetail
from ._results import ImageBlock as ImageBlock
from ._results import TextBlock as TextBlock
from ._results import ToolFailure as ToolFailure
from ._results import ToolResult as ToolResult
from ._results import ToolSuccess as ToolSuccess

# (more public names are added here as modules land; __all__ is kept sorted)
__all__ = [
    "AbortError",
    "CodeRunFailedError",
    "CodemodeError",
    "ContentBlock",
    "ContextMessage",
    "ErrorInfo",
    "FailureDetail",
    "ImageBlock",
    "JsonValue",
    "LossyJsonError",
    "QuotaExceededError",
    "RegistrationError",
    "TextBlock",
    "ToolArgsError",
    "ToolError",
    "ToolFailure",
    "ToolNotFoundError",
    "ToolOutputError",
    "ToolResult",
    "ToolSuccess",
    "ToolTimeoutError",
    "UnsupportedSchemaError",
]
