"""Errors raised and reported by codemode.

Every failure of a tool call becomes a structured ``is_error`` result; these
classes carry the code that result reports. The tree::

    CodemodeError                       base of every error this package raises
    ├── ToolError                       a call failed; becomes an is_error result
    │   ├── ToolNotFoundError           UNKNOWN_TOOL
    │   ├── ToolArgsError (ValueError)  INVALID_ARGS
    │   ├── ToolOutputError             INVALID_TOOL_OUTPUT
    │   ├── AbortError                  ABORTED / ABORTED_BEFORE_DISPATCH
    │   ├── ToolTimeoutError            TOOL_TIMEOUT
    │   ├── CodeRunFailedError          CODE_RUN_FAILED
    │   ├── QuotaExceededError          QUOTA_EXCEEDED
    │   └── SessionLogWriteError        LOG_WRITE_FAILED
    ├── UnsupportedSchemaError          UNSUPPORTED_SCHEMA (ValueError; at definition time)
    └── RegistrationError (ValueError)  misuse of the registry (duplicate, reserved name, …)

``LossyJsonError`` (a ``ValueError``, from :mod:`bridge.lossless`) reports a
value that cannot cross a boundary as JSON; it names the path of the value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Final, Literal

if TYPE_CHECKING:
    from collections.abc import Sequence

__all__ = [
    "ABORTED",
    "ABORTED_BEFORE_DISPATCH",
    "CODE_RUN_FAILED",
    "INVALID_ARGS",
    "INVALID_TOOL_OUTPUT",
    "LOG_WRITE_FAILED",
    "QUOTA_EXCEEDED",
    "TOOL_TIMEOUT",
    "UNKNOWN_TOOL",
    "UNSUPPORTED_SCHEMA",
    "AbortError",
    "CodeRunFailedError",
    "CodemodeError",
    "QuotaExceededError",
    "RegistrationError",
    "RunFailureKind",
    "SessionLogWriteError",
    "ToolArgsError",
    "ToolError",
    "ToolNotFoundError",
    "ToolOutputError",
    "ToolTimeoutError",
    "UnsupportedSchemaError",
]

UNKNOWN_TOOL: Final = "UNKNOWN_TOOL"
INVALID_ARGS: Final = "INVALID_ARGS"
INVALID_TOOL_OUTPUT: Final = "INVALID_TOOL_OUTPUT"
ABORTED: Final = "ABORTED"
ABORTED_BEFORE_DISPATCH: Final = "ABORTED_BEFORE_DISPATCH"
CODE_RUN_FAILED: Final = "CODE_RUN_FAILED"
UNSUPPORTED_SCHEMA: Final = "UNSUPPORTED_SCHEMA"
TOOL_TIMEOUT: Final = "TOOL_TIMEOUT"
QUOTA_EXCEEDED: Final = "QUOTA_EXCEEDED"
LOG_WRITE_FAILED: Final = "LOG_WRITE_FAILED"

RunFailureKind = Literal[
    "exception",
    "compile",
    "timeout",
    "abort",
    "worker-exit",
    "invalid-output",
    "output-limit",
    "sandbox-violation",
]


class CodemodeError(Exception):
    """Base of every error codemode raises. ``code`` is the stable error code, if any."""

    code: ClassVar[str | None] = None

    def __init__(self, message: str) -> None:
        self.message = message
        super().__init__(message)


class ToolError(CodemodeError):
    """A tool call failed in a way that is reported as an ``is_error`` result."""


class ToolNotFoundError(ToolError):
    """No tool of that name is visible to the calling scope."""

    code = UNKNOWN_TOOL

    def __init__(self, name: str, *, message: str | None = None) -> None:
        self.name = name
        super().__init__(message if message is not None else f'unknown tool "{name}"')

    @classmethod
    def collapsed(cls, name: str) -> ToolNotFoundError:
        """The model called a native tool directly while its scope is in ``code`` mode."""
        return cls(
            name,
            message=(
                f'unknown tool "{name}": only `run_code` is callable directly — '
                f"call `{name}` from inside a `run_code` program instead"
            ),
        )


class ToolArgsError(ToolError, ValueError):
    """Arguments do not match the tool's parameter schema.

    ``violations`` lists each one (for schema validation, the first 20 and then
    a line counting the rest).
    """

    code = INVALID_ARGS

    def __init__(self, violations: Sequence[str]) -> None:
        self.violations = tuple(violations)
        super().__init__("invalid arguments: " + "; ".join(self.violations))


class ToolOutputError(ToolError):
    """A tool produced a value (or presentation) its output declaration does not allow."""

    code = INVALID_TOOL_OUTPUT

    def __init__(self, name: str, detail: str) -> None:
        self.name = name
        self.detail = detail
        super().__init__(f'tool "{name}" returned invalid output: {detail}')


class AbortError(ToolError):
    """The caller cancelled the call: before dispatch, or after the body started."""

    def __init__(self, *, before_dispatch: bool) -> None:
        self.before_dispatch = before_dispatch
        super().__init__(
            "tool call aborted before dispatch" if before_dispatch else "tool call aborted"
        )

    @property
    def code(self) -> str:  # type: ignore[override]
        return ABORTED_BEFORE_DISPATCH if self.before_dispatch else ABORTED


class ToolTimeoutError(ToolError):
    """A tool's declared ``timeout`` expired."""

    code = TOOL_TIMEOUT

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        super().__init__(f"tool call timed out after {seconds:g}s")


class CodeRunFailedError(ToolError):
    """A ``run_code`` program failed. ``kind`` says how; ``logs`` is what it printed.

    The message is what the model reads: ``code run failed (<kind>): <detail>``,
    followed by ``Captured output:`` and the printed lines when there are any.
    """

    code = CODE_RUN_FAILED

    def __init__(self, kind: RunFailureKind, detail: str, logs: Sequence[str] = ()) -> None:
        self.kind = kind
        self.detail = detail
        self.logs = tuple(logs)
        message = f"code run failed ({kind}): {detail}"
        if self.logs:
            message += "\nCaptured output:\n" + "\n".join(self.logs)
        super().__init__(message)


class QuotaExceededError(ToolError):
    """A ``run_code`` program made more sub-calls than its quota allows."""

    code = QUOTA_EXCEEDED

    def __init__(self, detail: str) -> None:
        super().__init__(detail)


class SessionLogWriteError(ToolError):
    """The session log could not record a ``run_code`` program's dispatch events.

    The program may have run and its tool calls may have had effects; the
    message says which events are missing and why, so that nothing is lost
    silently.
    """

    code = LOG_WRITE_FAILED

    def __init__(self, detail: str) -> None:
        super().__init__(detail)


class UnsupportedSchemaError(CodemodeError, ValueError):
    """A JSON Schema uses something outside the enforced subset. ``problems`` lists every path."""

    code = UNSUPPORTED_SCHEMA

    def __init__(self, problems: Sequence[str], *, what: str = "schema") -> None:
        self.problems = tuple(problems)
        listed = "\n".join(f"  - {p}" for p in self.problems)
        super().__init__(
            f"{what} is outside the supported JSON Schema subset "
            f"({len(self.problems)} problem{'s' if len(self.problems) != 1 else ''}):\n{listed}"
        )


class RegistrationError(CodemodeError, ValueError):
    """The registry was used wrongly: a duplicate name, a reserved name, a bad filter, …"""
