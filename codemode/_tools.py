"""Tool definitions: the raw form (:func:`define_tool`) and the typed form (:func:`tool`).

A :class:`ToolDefinition` is what the registry holds: the model-facing fields
(``name``, ``description``, ``parameters``), a mandatory :class:`ToolOutput`
declaration, the ``execute`` body, and host-only metadata that never reaches a
model (``timeout``, ``is_concurrency_safe``, ``finalize_content`` and the
presenters). Both schemas are checked against the enforced JSON Schema subset
when the definition is built and stored as frozen snapshots, so a definition
cannot change after registration.

The raw form takes JSON Schema as written (MCP and dynamic tools); its
arguments are *not* validated before the body runs, because such tools carry
their own validation. The typed form derives both schemas from a Python
function's annotations and validates and converts arguments before calling it;
it lives in :mod:`codemode._typed` and is re-exported here.
"""

from __future__ import annotations

import contextlib
import json
import math
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, TypeAlias, final

import msgspec

from bridge.lossless import FrozenDict, JsonValue, LossyJsonError, materialize

from ._errors import UnsupportedSchemaError
from ._results import ContentBlock, TextBlock
from ._schema import assert_supported

if TYPE_CHECKING:
    from ._execution import ToolExecution, ToolRunContext
    from ._results import ToolResult

__all__ = [
    "ConcurrencyClassifier",
    "Execute",
    "FinalizeContent",
    "PresentCall",
    "PresentResult",
    "PresentationMeta",
    "Render",
    "ToolDefinition",
    "ToolOutput",
    "define_tool",
    "pretty_json",
    "render_json",
    "tool",
]

#: A tool body: frozen arguments and the run context in, a lossless JSON value out.
Execute: TypeAlias = "Callable[[Any, ToolRunContext], Awaitable[object]]"
#: Projects validated arguments and the canonical value onto model-facing content.
Render: TypeAlias = "Callable[[Any, Any], Sequence[ContentBlock]]"
#: Projects arguments and value onto replayable presentation metadata.
PresentationMeta: TypeAlias = "Callable[[Any, Any], object]"
#: The last-mile content transform, called exactly once per outcome.
FinalizeContent: TypeAlias = "Callable[[ToolExecution, ToolResult], Sequence[ContentBlock] | None]"
#: Says whether a call with these arguments may overlap with its siblings.
ConcurrencyClassifier: TypeAlias = "Callable[[Any], object]"
#: How a UI shows the pending call (``None``: a generic card).
PresentCall: TypeAlias = "Callable[[Any], object]"
#: How a UI shows the completed call (``None``: the pending title and raw content).
PresentResult: TypeAlias = "Callable[[Any, ToolResult], object]"

# Containers deeper than this are written compactly by pretty_json: the
# indentation would otherwise grow faster than the content it lays out.
_MAX_INDENT = 10
# The containers at levels 0 to 4 (the root is level 0) are laid out over lines;
# one at level 5 or deeper goes on a single line. So no line is indented by more
# than _MAX_INDENT columns and the text is at most a constant times the compact
# JSON: a value nested 490 levels deep and indented at every level was hundreds
# of times its own size.
_COMPACT_LEVEL: Final = _MAX_INDENT // 2

# Scalars whose msgspec text the fast layout accepts as they are (exact types: a
# subclass, such as an IntEnum, is left to the general writer).
_PLAIN_SCALARS: Final = frozenset({str, int, float, bool, type(None)})

# msgspec and Python's float repr (which ``json`` uses) disagree on exactly two
# kinds of float: one written with an exponent by msgspec (``1e16`` for
# ``1e+16``), and one of magnitude in [1e-5, 1e-4), written by msgspec in full
# (``0.00001`` for ``1e-05``). These patterns find both, and sometimes a string
# or a number that merely looks alike; such text goes to the general writer.
_EXPONENT: Final = re.compile(rb"e[-0-9]")
_SMALL_FRACTION: Final = b"0.0000"
_encode = msgspec.json.Encoder().encode


def _fits_fast_layout(value: object) -> bool:
    """Whether msgspec's indented layout of ``value`` is the general writer's, before formatting.

    True when ``value`` is made of ``dict``, ``list``, ``tuple`` and plain
    scalars down to the compact level, and every container there is empty:
    msgspec then indents exactly as the general writer does. Anything else
    (a container with entries at the compact level, which msgspec would go on
    indenting level after level, or a type msgspec might expand) is decided
    without formatting. Only the levels above the compact one are looked at,
    and the probe stops at the first thing it cannot vouch for, so a deep value
    costs a handful of steps however large it is.
    """
    pending: list[tuple[object, int]] = [(value, 0)]
    while pending:
        node, level = pending.pop()
        if type(node) in _PLAIN_SCALARS:
            continue
        if not isinstance(node, (dict, list, tuple)):
            return False
        if not node:
            continue
        if level >= _COMPACT_LEVEL:
            return False
        children = node.values() if isinstance(node, dict) else node
        # Most containers hold only scalars: one pass in C says so.
        if _PLAIN_SCALARS.issuperset(map(type, children)):
            continue
        pending.extend((child, level + 1) for child in children)
    return True


def _fast_pretty_json(value: object) -> str | None:
    """The text of :func:`pretty_json` laid out by msgspec, or ``None`` where it might differ.

    The result equals the general writer's for every lossless JSON value (whose
    floats are finite); ``None`` sends the value to the general writer. A value
    nested past the compact level is sent there before msgspec formats it.
    """
    if not _fits_fast_layout(value):
        return None
    try:
        text = msgspec.json.format(_encode(value), indent=2)
    except (TypeError, ValueError, OverflowError, RecursionError):
        # Not something msgspec writes (a lone surrogate, an int past 64 bits):
        # the general writer decides.
        return None
    if _SMALL_FRACTION in text or _EXPONENT.search(text):
        return None
    return text.decode()


def pretty_json(value: object) -> str:
    """Lay out a lossless JSON value with 2-space indentation.

    Indentation stops growing at 10 columns: containers nested deeper than five
    levels are written compactly on one line, so the text is at most a constant
    times the size of the compact JSON, however deep the value. Common values
    are laid out by msgspec; the rest by a walk that is iterative, so a deep
    value does not consume the interpreter's stack.
    """
    fast = _fast_pretty_json(value)
    return fast if fast is not None else _layout_json(value)


def _compact_json(node: object) -> str | None:
    """``json.dumps(node)`` with compact separators, written in C; ``None`` where C gives up.

    msgspec writes it several times faster than ``json`` (and holds the GIL
    for that much less), and its text is taken unless a float might be
    written differently, as in :func:`_fast_pretty_json`.
    """
    with contextlib.suppress(TypeError, ValueError, OverflowError, RecursionError):
        text = _encode(node)
        if _SMALL_FRACTION not in text and not _EXPONENT.search(text):
            return text.decode()
    try:
        return json.dumps(node, ensure_ascii=False, separators=(",", ":"))
    except (TypeError, ValueError, RecursionError):
        # Nested past the interpreter's recursion limit, or not something json
        # writes as a whole: the walk lays it out (or says what is wrong).
        return None


def _layout_json(value: object) -> str:
    """The general writer behind :func:`pretty_json`, for any value ``json`` can write."""
    out: list[str] = []
    # Work items: a literal string to emit, or a (value, level) pair to lay out.
    stack: list[str | tuple[object, int]] = [(value, 0)]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        node, level = item
        is_map = isinstance(node, Mapping)
        if not (is_map or isinstance(node, (list, tuple))) or not node:
            out.append(json.dumps(node, ensure_ascii=False, separators=(",", ":")))
            continue
        if level == _COMPACT_LEVEL:
            # The first compact level: the whole subtree goes on one line,
            # written in C. Only these subtrees are tried (they are disjoint),
            # so one that C gives up on costs one failed try and is walked below.
            text = _compact_json(node)
            if text is not None:
                out.append(text)
                continue
        inner = (level + 1) * 2
        compact = level >= _COMPACT_LEVEL
        separator = ":" if compact else ": "
        entries: list[tuple[str, object]] = (
            [(json.dumps(k, ensure_ascii=False) + separator, v) for k, v in node.items()]
            if isinstance(node, Mapping)
            else [("", v) for v in node]  # type: ignore[attr-defined]
        )
        todo: list[str | tuple[object, int]]
        if compact:
            # Past the indentation cap the subtree goes on one line, still with
            # this work stack, so no depth can exhaust the interpreter's stack.
            todo = ["{" if is_map else "["]
            for index, (prefix, child) in enumerate(entries):
                todo.append(("," if index else "") + prefix)
                todo.append((child, level + 1))
            todo.append("}" if is_map else "]")
            stack.extend(reversed(todo))
            continue
        pad, close_pad = " " * inner, " " * (level * 2)
        todo = ["{\n" if is_map else "[\n"]
        for index, (prefix, child) in enumerate(entries):
            todo.append(pad + prefix)
            todo.append((child, level + 1))
            todo.append(",\n" if index < len(entries) - 1 else "\n")
        todo.append(close_pad + ("}" if is_map else "]"))
        stack.extend(reversed(todo))
    return "".join(out)


def render_json(args: object, value: object) -> tuple[ContentBlock, ...]:
    """The default renderer: a string value as raw text, anything else as pretty JSON."""
    del args  # the default projection depends on the value alone
    if isinstance(value, str):
        return (TextBlock(text=value),)
    return (TextBlock(text=pretty_json(value)),)


def _frozen_schema(schema: object, *, what: str) -> FrozenDict:
    """Check ``schema`` (lossless JSON, an object, inside the subset) and freeze it."""
    if not isinstance(schema, Mapping):
        raise TypeError(f"{what} must be a JSON Schema mapping, got {type(schema).__name__}")
    try:
        plain = materialize(dict(schema), accept_tuples=True)
    except LossyJsonError as exc:
        raise UnsupportedSchemaError(
            [f"the schema is not lossless JSON: {exc}"], what=what
        ) from None
    assert_supported(plain, what=what)
    frozen = materialize(plain, freeze=True)
    assert isinstance(frozen, FrozenDict)
    return frozen


def _check_callable(owner: str, attr: str, value: object, *, optional: bool) -> None:
    if value is None and optional:
        return
    if not callable(value):
        raise TypeError(f"{owner} {attr} must be callable, got {attr}={value!r}")


@final
@dataclass(frozen=True, kw_only=True, slots=True, eq=False)
class ToolOutput:
    """A tool's canonical output contract.

    Args:
        schema: JSON Schema (inside the enforced subset) every successful value
            must satisfy. Stored as a frozen snapshot.
        render: a pure projection of ``(args, value)`` onto the content the
            model sees. The default shows a string as raw text and anything
            else as pretty JSON. For a value of more than a few thousand
            items it is called in a worker thread, so that the event loop
            keeps serving while it runs: it must not rely on running there.
        presentation_meta: an optional pure projection of ``(args, value)`` onto
            replayable presentation metadata (lossless JSON), computed only for
            top-level calls, in a worker thread as ``render`` is.

    Raises:
        UnsupportedSchemaError: ``schema`` is outside the subset or not lossless
            JSON; every problem is listed with its path.
        TypeError: ``schema`` is not a mapping, or a projector is not callable.
    """

    schema: Mapping[str, JsonValue]
    render: Render = render_json
    presentation_meta: PresentationMeta | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "schema", _frozen_schema(self.schema, what="output schema"))
        _check_callable("ToolOutput", "render", self.render, optional=False)
        _check_callable("ToolOutput", "presentation_meta", self.presentation_meta, optional=True)


@final
@dataclass(frozen=True, kw_only=True, slots=True, eq=False)
class ToolDefinition:
    """A registered tool: its model-facing schema, output contract, body and host metadata.

    Build one with :func:`define_tool` (raw JSON Schema) or :func:`tool` (a typed
    Python function). Only ``name``, ``description`` and ``parameters`` are ever
    shown to a model; everything else stays on the host. Definitions compare by
    identity; ``dataclasses.replace(definition, name=...)`` makes a checked copy.

    Args:
        name: the tool's name, as the model calls it.
        description: what the tool does, for the model.
        parameters: an object-rooted JSON Schema inside the enforced subset,
            stored as a frozen snapshot.
        output: the canonical output contract (mandatory).
        execute: ``async (args, ctx) -> value``. ``args`` is the call's frozen
            argument snapshot; ``ctx`` is the :class:`~codemode.ToolRunContext`.
        finalize_content: optional ``(execution, result) -> content | None``,
            called exactly once per outcome; ``None`` keeps the content.
        timeout: optional deadline in seconds (positive and finite), enforced by
            a timeout policy; declaring it promises the body observes its signal.
        is_concurrency_safe: optional ``(args) -> bool``; only an exact ``True``
            lets the call overlap with its siblings. It is not called for
            arguments of more than 2048 items: such a call runs alone.
        present_call: optional ``(args) -> view | None`` for a UI's pending card.
        present_result: optional ``(args, result) -> view | None`` for a UI's
            completed card.

    Raises:
        TypeError: a field has the wrong type (``output`` is not a
            :class:`ToolOutput`, a callback is not callable, ...).
        ValueError: ``name`` is empty or ``timeout`` is not positive and finite.
        UnsupportedSchemaError: ``parameters`` is outside the subset, not
            lossless JSON, or not object-rooted.
    """

    name: str
    description: str
    parameters: Mapping[str, JsonValue]
    output: ToolOutput
    execute: Execute
    finalize_content: FinalizeContent | None = None
    timeout: float | None = None
    is_concurrency_safe: ConcurrencyClassifier | None = None
    present_call: PresentCall | None = None
    present_result: PresentResult | None = None

    def __post_init__(self) -> None:
        if type(self.name) is not str:
            raise TypeError(f"tool name must be a str, got name={self.name!r}")
        if not self.name:
            raise ValueError(f"tool name must not be empty, got name={self.name!r}")
        if type(self.description) is not str:
            raise TypeError(
                f"tool {self.name!r}: description must be a str, "
                f"got description={self.description!r}"
            )
        what = f"tool {self.name!r} parameters"
        parameters = _frozen_schema(self.parameters, what=what)
        if parameters.get("type") != "object":
            raise UnsupportedSchemaError(
                [f'the root must declare "type": "object", got type={parameters.get("type")!r}'],
                what=what,
            )
        object.__setattr__(self, "parameters", parameters)
        if not isinstance(self.output, ToolOutput):
            raise TypeError(
                f"tool {self.name!r} must declare output=ToolOutput(schema=..., render=...), "
                f"got output={self.output!r}"
            )
        owner = f"tool {self.name!r}:"
        _check_callable(owner, "execute", self.execute, optional=False)
        for attr in ("finalize_content", "is_concurrency_safe", "present_call", "present_result"):
            _check_callable(owner, attr, getattr(self, attr), optional=True)
        timeout = self.timeout
        if timeout is not None and (
            type(timeout) not in (int, float) or not math.isfinite(timeout) or timeout <= 0
        ):
            raise ValueError(
                f"tool {self.name!r}: timeout must be a positive finite number of seconds, "
                f"got timeout={timeout!r}"
            )


def define_tool(
    *,
    name: str,
    description: str,
    parameters: Mapping[str, JsonValue],
    output: ToolOutput,
    execute: Execute,
    finalize_content: FinalizeContent | None = None,
    timeout: float | None = None,
    is_concurrency_safe: ConcurrencyClassifier | None = None,
    present_call: PresentCall | None = None,
    present_result: PresentResult | None = None,
) -> ToolDefinition:
    """Define a tool from raw JSON Schema, as MCP adapters and dynamic tools do.

    The arguments of a raw tool are not validated before ``execute`` runs: the
    tool owns its input checking. Use :func:`tool` for validated, typed
    arguments. See :class:`ToolDefinition` for every argument.

    Example::

        async def echo_body(args, ctx):
            text = args.get("text") if isinstance(args, dict) else None
            return text if isinstance(text, str) else ""

        echo = define_tool(
            name="echo",
            description="Echo the text back.",
            parameters={"type": "object", "properties": {"text": {"type": "string"}}},
            output=ToolOutput(schema={"type": "string"}),
            execute=echo_body,
        )

    Raises:
        UnsupportedSchemaError: a schema is outside the subset or not lossless JSON.
        TypeError, ValueError: a field is malformed (see :class:`ToolDefinition`).
    """
    return ToolDefinition(
        name=name,
        description=description,
        parameters=parameters,
        output=output,
        execute=execute,
        finalize_content=finalize_content,
        timeout=timeout,
        is_concurrency_safe=is_concurrency_safe,
        present_call=present_call,
        present_result=present_result,
    )


# The typed form lives in its own module; it is re-exported here so that
# ``codemode._tools.tool`` stays a valid import path. The import sits at the
# bottom because ``_typed`` builds on the definitions above.
from ._typed import tool as tool  # noqa: E402
