"""The SDK section: the Python stubs that tell the model which tools a program can call.

The section is rebuilt from the calling scope's visible tools (never ``run_code``) each
time a prompt is assembled. It is deterministic (tools sorted by name, byte-identical
text for the same set) and total: whatever the schemas hold, rendering never raises;
what cannot be described precisely is described as ``Any``.

A tool is shown in one of three forms:

* ``async def search(self, *, query: str, limit: int = 10) -> SearchOutput:`` when the
  tool name and every top-level parameter name can be written in Python as they are:
  keyword-only parameters, required ones without a default, optional ones with the
  schema's ``default`` (``= ...`` when it has none a short literal can show), and
  ``**extra: Any`` when the parameter object accepts undeclared keys. Parameter
  descriptions go into the method's docstring, in an ``Args:`` section, so the model
  reads them next to the tool's own description.
* ``async def search(self, args: SearchArgs) -> SearchOutput:`` when the tool name can
  be written but a parameter name cannot (or the parameters are not an object): the
  argument ``TypedDict`` carries the parameters, with descriptions as comments.
* ``# tools["web-fetch"](args: WebFetchArgs) -> str`` (a comment) when the tool name is
  not a plain identifier; the program reaches it with ``tools["web-fetch"](...)``.

At run time a stub call takes keyword arguments or one positional dict, in every form.

Classes are named after the schema's ``title`` where it has one (the tool author's type
name), and a titled schema equal to one already declared is that class again, so a
type several tools share is declared once (see :class:`~._sdk_types.TypeRenderer`).
The instructions list the modules a program may import, from the sandbox's own list.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final, final

from ._sdk_names import (
    ClassNames,
    clean_description,
    docstring_text,
    field_base,
    is_keyword_parameter,
    is_member_name,
    name_stem,
    py_string,
    root_base,
)
from ._sdk_types import (
    Budget,
    ObjectShape,
    Role,
    TypeRenderer,
    default_of,
    description_of,
    object_shape,
)

__all__ = ["SdkTool", "python_type", "render_sdk", "render_stubs"]

_RUN_CODE: Final = "run_code"

#: Signatures longer than this are written one parameter per line.
_MAX_SIGNATURE: Final = 100

# Names the block defines or imports itself; no generated class may take them.
_RESERVED: Final = frozenset(
    {"Any", "Literal", "NotRequired", "Protocol", "TypedDict", "ToolCallError", "Tools", "tools"}
)
_TYPING_ORDER: Final = ("Any", "Literal", "NotRequired", "Protocol", "TypedDict")

_TOOL_CALL_ERROR: Final = """\
class ToolCallError(Exception):
    # The tool whose call failed.
    tool_name: str
    # Why, e.g. "INVALID_ARGS", "TOOL_TIMEOUT", "QUOTA_EXCEEDED"; None when unknown.
    code: str | None
    # The exception the tool raised, e.g. "LookupError"; None when it raised none.
    type: str | None"""

_HEADING: Final = "## Calling tools from `run_code`"

_INSTRUCTIONS: Final = """\
`run_code` runs a Python program that can call the tools declared below. It takes two \
arguments: `code`, the body of an async function (top-level `await` and `return` work, \
so never call `asyncio.run(...)`), and `description`, a short label saying what the \
program does.

- The program can use only `tools`, `ToolCallError`, the allowed builtins and these \
modules, imported as usual (`import asyncio`, `from collections import Counter`): \
{modules}. The rest of the block below is description only: the `TypedDict` classes \
and `Tools` do not exist at run time, so build arguments from plain dicts and lists \
(`SearchArgs(...)` raises `NameError`).
- Call a tool as `await tools.name(key=value, ...)` or with one dict, \
`await tools.name({{"key": value}})`. A tool whose name is not a plain identifier is \
reached by subscript: `await tools["my-tool"]({{"key": value}})`. Pass a tool declared \
as `(self, args: ...)` its arguments as that one dict, `await tools.name({{...}})` \
(`args=` would be an argument named "args"). A call returns the tool's value \
as plain data (dict, list, str, int, float, bool or None).
- Only the tools declared below exist: any other name raises `AttributeError` \
(`KeyError` by subscript), so `hasattr(tools, "name")` tells whether a tool exists. A call \
written out that cannot succeed, naming an unknown tool or a missing or unknown argument, \
stops the whole program before it runs (the error lists every such call), even under \
`if hasattr(...)` or `try`; call a tool that may be missing as \
`await getattr(tools, "name")(...)`.
- Arguments and the returned value must be lossless JSON: dicts with string keys, \
lists, strings, booleans, None, finite floats and integers a float holds exactly. \
Tuples become lists, as `json.dumps` makes them; sets, bytes and other objects are \
refused, so convert them first (`sorted(a_set)`, `dataclasses.asdict(obj)`).
- Names and attributes starting with `_` work on the program's own functions, classes \
and objects (`def _helper`, `self._cache`), but not on library objects (modules, \
built-in types, the values tools return).
- `open`, `eval` and `exec` do not exist: a program reads and writes no files and \
starts no processes (use `io.StringIO` for text in memory).
- A failed call raises `ToolCallError`, whose message names the tool and what went \
wrong: `tool_name` is the tool, `code` the error code (e.g. `INVALID_ARGS`, \
`TOOL_TIMEOUT`, `QUOTA_EXCEEDED`, or None) and `type` the exception the tool raised \
(e.g. `"LookupError"`, or None). Catch it with `try`/`except ToolCallError` to recover; \
`except LookupError` does not catch it, so test `e.type == "LookupError"` instead. \
When a whole run fails, its error lists the tool calls that already ran, which running \
the program again would repeat.
- Independent calls run concurrently under `asyncio.gather(...)`: calls that only read \
overlap, calls that change something run one at a time in the order submitted. \
Sequence dependent calls with `await`, and await every call.
- What the program prints with `print(...)` and the value it returns with \
`return <value>` are the only output of `run_code`, so keep them short and relevant. \
Images returned by tools are attached after the run.

The available tools:"""


@functools.cache
def _instructions() -> str:
    # The sandbox's own list, so the text stays true when modules are added.
    from sandbox import ALLOWED_MODULES

    return _INSTRUCTIONS.format(modules=", ".join(f"`{name}`" for name in ALLOWED_MODULES))


@final
@dataclass(frozen=True)
class SdkTool:
    """One tool as the SDK section shows it: the renderer's input.

    ``parameters`` and ``output`` are JSON Schema mappings; anything outside the
    enforced subset is shown as ``Any`` rather than refused.

    Raises:
        TypeError: when a field has the wrong type.
    """

    name: str
    description: str
    parameters: Mapping[str, object]
    output: Mapping[str, object]

    def __post_init__(self) -> None:
        for label, value in (("name", self.name), ("description", self.description)):
            if not isinstance(value, str):
                raise TypeError(f"SdkTool {label} must be a str, got {label}={value!r}")
        for label, schema in (("parameters", self.parameters), ("output", self.output)):
            if not isinstance(schema, Mapping):
                raise TypeError(
                    f"SdkTool {label} must be a JSON Schema mapping, got {label}={schema!r}"
                )


def python_type(schema: object) -> str:
    """The Python type expression for a JSON Schema, with no classes to declare.

    The context-free entry point: an object with properties becomes ``dict[str, Any]``,
    and anything outside the enforced subset becomes ``Any``. Never raises.
    """
    renderer = TypeRenderer(ClassNames(_RESERVED))
    try:
        return renderer.root(schema, None, depth=0, budget=Budget(), role="input")
    except Exception:  # the renderer is total: a hostile mapping becomes Any
        return "Any"


def render_stubs(tools: Iterable[SdkTool]) -> str:
    """The body of the SDK section's python block: imports, classes, ``Tools``, ``tools``.

    Tools are sorted by name (code-point order); the same tool set always gives the
    same text, and the text always parses as Python. Never raises for any tool content.
    """
    renderer = TypeRenderer(ClassNames(_RESERVED))
    members: list[str] = []
    for tool in _ordered(tools):
        mark = renderer.snapshot()
        try:
            members.append(_render_tool(tool, renderer))
        except Exception:  # the renderer is total: the tool still appears, untyped
            renderer.restore(mark)
            renderer.uses.add("Any")
            members.append(f"    # tools[{py_string(tool.name)}](args: dict[str, Any]) -> Any")
    renderer.uses.add("Protocol")
    imports = ", ".join(name for name in _TYPING_ORDER if name in renderer.uses)
    has_method = any(member.startswith("    async def ") for member in members)
    body = ([] if has_method else ["    pass"]) + members
    blocks = [
        f"from typing import {imports}",
        _TOOL_CALL_ERROR,
        *renderer.class_texts(),
        "class Tools(Protocol):\n" + "\n".join(body),
        "tools: Tools",
    ]
    return "\n\n".join(blocks) + "\n"


def render_sdk(tools: Iterable[SdkTool]) -> str:
    """The whole SDK section: a heading, the instructions, and the python block.

    Args:
        tools: the scope's visible tools; one named ``run_code`` is left out.

    Returns:
        Markdown text ending with a fenced ``python`` block (see :func:`render_stubs`).
    """
    return f"{_HEADING}\n\n{_instructions()}\n\n```python\n{render_stubs(tools)}```\n"


def _ordered(tools: Iterable[SdkTool]) -> list[SdkTool]:
    """Sort by name; break ties (same name twice) by content, dropping exact repeats."""
    by_name: dict[str, list[SdkTool]] = {}
    for tool in tools:
        if tool.name != _RUN_CODE:
            by_name.setdefault(tool.name, []).append(tool)
    ordered: list[SdkTool] = []
    for name in sorted(by_name):
        group = by_name[name]
        if len(group) == 1:
            ordered.extend(group)
            continue
        keyed: dict[str, SdkTool] = {}
        for tool in group:
            keyed.setdefault(_content_key(tool), tool)
        ordered.extend(keyed[key] for key in sorted(keyed))
    return ordered


def _content_key(tool: SdkTool) -> str:
    try:
        return json.dumps(
            [tool.description, tool.parameters, tool.output],
            sort_keys=True,
            default=repr,
            ensure_ascii=True,
        )
    except Exception:  # unorderable keys or a hostile mapping: no tie-break possible
        return ""


def _render_tool(tool: SdkTool, renderer: TypeRenderer) -> str:
    """One member of ``class Tools``; any failure degrades to ``dict[str, Any]``/``Any``.

    Both forms of the parameters spend one budget: when the keyword form used it
    up, the args form (the same nodes) does not walk the schema a second time.
    """
    stem = name_stem(tool.name)
    member = is_member_name(tool.name)
    description = clean_description(tool.description)
    budget = Budget()
    params = _keyword_parameters(tool, stem, renderer, budget) if member else None
    if params is None:
        base = root_base(stem, "Args")
        args = _guarded(
            renderer, tool.parameters, base, fallback="dict[str, Any]", role="input",
            budget=budget,
        )
    output = _guarded(
        renderer, tool.output, root_base(stem, "Output"), fallback="Any", role="output",
        budget=Budget(),
    )
    if not member:
        lines = [f"    # tools[{py_string(tool.name)}](args: {args}) -> {output}"]
        if description:
            lines.append(f"    #   {description}")
        return "\n".join(lines)
    if params is None:
        signature = _signature(tool.name, ["self", f"args: {args}"], output)
        return _with_body(signature, description, [])
    texts, documented = params
    return _with_body(_signature(tool.name, ["self", *texts], output), description, documented)


def _guarded(
    renderer: TypeRenderer, schema: object, base: str, *, fallback: str, role: Role,
    budget: Budget,
) -> str:
    """Render a root annotation, or ``fallback`` (leaving no classes behind) if it fails."""
    mark = renderer.snapshot()
    try:
        return renderer.root(schema, base, depth=0, budget=budget, role=role)
    except Exception:  # BudgetExceeded or a hostile mapping: the tool still appears
        renderer.restore(mark)
        renderer.uses.add("Any")
        return fallback


def _keyword_parameters(
    tool: SdkTool, stem: str, renderer: TypeRenderer, budget: Budget
) -> tuple[list[str], list[tuple[str, str]]] | None:
    """Keyword-only parameter texts and their descriptions, or None for the args form."""
    mark = renderer.snapshot()
    try:
        shape = object_shape(tool.parameters)
        if shape is None or not all(is_keyword_parameter(name) for name, _ in shape.fields):
            return None
        return _render_parameters(shape, stem, renderer, budget)
    except Exception:  # BudgetExceeded or a hostile mapping: fall back to the args form
        renderer.restore(mark)
        return None


def _render_parameters(
    shape: ObjectShape, stem: str, renderer: TypeRenderer, budget: Budget
) -> tuple[list[str], list[tuple[str, str]]]:
    # The argument class is not declared in this form, but its name is still taken,
    # so nested classes are named exactly as they would be in the args form.
    args_name = renderer.names.allocate(root_base(stem, "Args"))
    texts: list[str] = []
    documented: list[tuple[str, str]] = []
    jobs = []
    for name, schema in shape.fields:
        # A parameter annotation sits inside the open parenthesis: start at depth 1.
        text, found = renderer.annotation(
            schema, field_base(args_name, name), depth=1, budget=budget, role="input"
        )
        jobs.extend(found)
        if name in shape.required:
            texts.append(f"{name}: {text}")
        else:
            # The schema's default when it has one a literal can show (`days: int = 3`).
            texts.append(f"{name}: {text} = {default_of(schema) or '...'}")
        description = description_of(schema)
        if description:
            documented.append((name, description))
    renderer.declare(jobs, budget)
    if texts:
        texts.insert(0, "*")
    if shape.open:
        renderer.uses.add("Any")
        extra = "extra"
        taken = {name for name, _ in shape.fields}
        while extra in taken:
            extra += "_"
        texts.append(f"**{extra}: Any")
    return texts, documented


def _signature(name: str, params: list[str], output: str) -> str:
    line = f"    async def {name}({', '.join(params)}) -> {output}:"
    if len(line) <= _MAX_SIGNATURE:
        return line
    inner = "".join(f"        {param},\n" for param in params)
    return f"    async def {name}(\n{inner}    ) -> {output}:"


def _with_body(signature: str, description: str, documented: list[tuple[str, str]]) -> str:
    if not description and not documented:
        return signature + " ..."
    if not documented:
        return f'{signature}\n        """{docstring_text(description)}"""'
    lines = [signature, f'        """{docstring_text(description)}']
    if description:
        lines.append("")
    lines.append("        Args:")
    lines.extend(f"            {name}: {docstring_text(text)}" for name, text in documented)
    lines.append('        """')
    return "\n".join(lines)
