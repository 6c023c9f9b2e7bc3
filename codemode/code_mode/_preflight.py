"""The pre-flight check: reject, before any call runs, tool calls that cannot succeed.

The check itself lives in the sandbox (``sandbox.check_tool_calls``), because it
runs wherever the program is compiled: on the host for a short program, in the
child, under the child's limits, for a longer one. This module turns the SDK's
tools into the :class:`sandbox.ToolSignature` values the check reads: each
tool's declared argument names, the required ones and whether others are
accepted, taken from its parameter schema exactly as the SDK section shows it
to the model.

Only what is certain is flagged. A call whose tool name or arguments are computed (a
variable, ``getattr``, ``**kwargs``, a dict that is not a literal) passes, and so does
every call in a program that binds the name ``tools`` itself. A program with a syntax
error passes too: compiling it reports that error with better detail.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sandbox import CallProblem, ToolSignature, check_tool_calls

from ._sdk_types import object_shape

if TYPE_CHECKING:
    from collections.abc import Mapping

    from ._sdk import SdkTool

__all__ = ["PreflightProblem", "preflight", "tool_signatures"]

#: One call that cannot succeed: ``line`` and ``message``; ``str()`` gives ``Line N: ...``.
PreflightProblem = CallProblem


def tool_signatures(tools: Mapping[str, SdkTool]) -> tuple[ToolSignature, ...]:
    """What the pre-flight check knows about ``tools``, in name order."""
    signatures = []
    for name in sorted(tools):
        shape = object_shape(tools[name].parameters)
        if shape is None:
            signatures.append(ToolSignature(name))
            continue
        fields = tuple(field for field, _ in shape.fields)
        required = tuple(field for field in fields if field in shape.required)
        signatures.append(ToolSignature(name, fields, required, shape.open))
    return tuple(signatures)


def preflight(source: str, tools: Mapping[str, SdkTool]) -> list[PreflightProblem]:
    """List the statically visible tool calls in ``source`` that cannot succeed.

    Parses ``source`` on the caller's thread; ``run_code`` itself lets the
    sandbox run the check where it compiles the program.

    Args:
        source: the program (the body of an async function).
        tools: the tools the program may call, by name.

    Returns:
        The problems in source order (at most ``sandbox``'s listing limit);
        empty when nothing certain is wrong, including when ``source`` does not parse.
    """
    return list(check_tool_calls(source, tool_signatures(tools)).problems)
