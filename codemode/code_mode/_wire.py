"""What the model is told about ``run_code``: its schema, description and the code-only rule."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from bridge.lossless import FrozenDict, JsonValue, materialize

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = [
    "CODE_ONLY_RULE",
    "RUN_CODE_DESCRIPTION",
    "RUN_CODE_NAME",
    "RUN_CODE_OUTPUT_SCHEMA",
    "RUN_CODE_PARAMETERS",
    "is_blank_label",
    "present_run_code_call",
]

#: The reserved name of the Code Mode transport tool.
RUN_CODE_NAME: Final = "run_code"

RUN_CODE_DESCRIPTION: Final = (
    "Run one Python program that calls the available tools. Pass two arguments: `code`, the "
    "BODY of an async Python function (top-level `await` and `return` work), and "
    "`description`, a short active-voice label for the run. Inside the program call tools as "
    "`await tools.name(arg=value)` exactly as the SDK section declares them; run independent "
    "calls together with `asyncio.gather(...)` after `import asyncio`. A failed call raises "
    "`ToolCallError` (with `tool_name`, `code` and `type`), which the program may catch. Only "
    "what the program prints and returns comes back, so print or return just what you need; the "
    "return value must be JSON (dict, list, str, int, float, bool, None; tuples become lists). "
    "Images returned by tools are attached after the run."
)

_CODE_DESCRIPTION: Final = "The program: the body of an async Python function."
_LABEL_DESCRIPTION: Final = (
    "A short active-voice label of 5-10 words shown to the user, e.g. "
    '"Count open issues per label", "Fetch three pages and compare titles", '
    '"Rename the draft files".'
)

# Frozen through and through, so that the validation of each call reuses the
# check built from it the first time.
RUN_CODE_PARAMETERS: Final[Mapping[str, JsonValue]] = materialize(  # type: ignore[assignment]
    {
        "type": "object",
        "properties": {
            "code": {"type": "string", "description": _CODE_DESCRIPTION},
            "description": {"type": "string", "description": _LABEL_DESCRIPTION},
        },
        "required": ["code", "description"],
    },
    freeze=True,
)

RUN_CODE_OUTPUT_SCHEMA: Final[Mapping[str, JsonValue]] = FrozenDict(
    {
        "type": "object",
        "properties": {
            "logs": {"type": "array", "items": {"type": "string"}},
            "result": {},
        },
        "required": ["logs"],
        "additionalProperties": False,
    }
)

#: The one-sentence rule shown before the SDK when a scope is in ``code`` mode.
CODE_ONLY_RULE: Final = (
    "`run_code` is the only tool you can call directly: a direct call naming any other tool "
    "fails, so reach every tool the SDK below declares from inside a `run_code` program."
)


#: What a label may not consist of besides whitespace: a byte order mark shows
#: nothing, and ``str.strip`` keeps it.
_INVISIBLE: Final = "\ufeff"


def is_blank_label(label: str) -> bool:
    """Whether a ``run_code`` label shows nothing: only whitespace and byte order marks.

    Whitespace is Python's (``str.split``): Unicode spaces and line breaks, NEL
    and the ASCII separators ``\\x1c``-``\\x1f`` included.
    """
    return not "".join(label.split()).replace(_INVISIBLE, "")


def present_run_code_call(args: JsonValue) -> JsonValue:
    """The pending-call card: titled by the run's label, with the program as raw input."""
    code = args.get("code") if isinstance(args, dict) else None
    label = args.get("description") if isinstance(args, dict) else None
    title = label.strip() if isinstance(label, str) and not is_blank_label(label) else RUN_CODE_NAME
    return FrozenDict(
        card="generic",
        title=title,
        kind="execute",
        rawInput=code if isinstance(code, str) else None,
    )
