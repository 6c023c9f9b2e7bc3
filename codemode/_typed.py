"""The typed form of a tool: :func:`tool` derives a definition from a Python function.

The parameters schema comes from the function's signature and the output
schema from its return annotation, both through msgspec, then normalised into
the enforced JSON Schema subset (anything the subset cannot express is a
construction error naming the function, the parameter and the type). At call
time the arguments are validated against that schema, converted to the
annotated types and passed to the function; its return value is converted back
to plain JSON. :mod:`codemode._tools` re-exports :func:`tool`.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import json
import re
import types
import typing
import weakref
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, overload

import anyio.to_thread
import msgspec

from bridge.lossless import format_path, is_snapshot, materialize

from ._errors import ToolArgsError, ToolOutputError, UnsupportedSchemaError
from ._execution import ToolRunContext
from ._offload import INLINE_NODES, fits_inline, sized
from ._schema import schema_problems
from ._tools import ToolDefinition, ToolOutput, _frozen_schema, render_json
from ._typed_shapes import complete_components
from ._validate import INLINE_WALK_NODES, Violations, validate, verdict

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from ._results import ToolResult
    from ._tools import (
        ConcurrencyClassifier,
        FinalizeContent,
        PresentationMeta,
        PresentCall,
        PresentResult,
        Render,
    )

__all__ = ["tool"]

# The keywords of the enforced subset. A derived schema holding anything else
# is rejected rather than passed on: the validator would not enforce it.
_SUBSET_KEYWORDS: Final = frozenset(
    {"type", "oneOf", "properties", "required", "additionalProperties", "items", "enum",
     "const", "description", "title", "default", "examples"}
)


def _value_kind(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "fraction"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, (list, tuple)) else "object"


def _kinds(node: Mapping[str, Any]) -> frozenset[str] | None:
    """The JSON kinds a node can match, or ``None`` for "any" (``number`` spans two)."""
    if "oneOf" in node:
        kinds: set[str] = set()
        for branch in node["oneOf"]:
            sub = _kinds(branch)
            if sub is None:
                return None
            kinds |= sub
        return frozenset(kinds)
    declared = node.get("type")
    if isinstance(declared, str):
        return frozenset({"integer", "fraction"} if declared == "number" else {declared})
    values = _literal_values(node)
    return None if values is None else frozenset(_value_kind(v) for v in values)


def _literal_values(node: Mapping[str, Any]) -> list[object] | None:
    if "const" in node:
        return [node["const"]]
    enum = node.get("enum")
    return list(enum) if isinstance(enum, list) else None


def _literal_key(value: object) -> tuple[str, str]:
    kind = _value_kind(value)
    if kind in ("integer", "fraction"):
        return (kind, repr(float(value)))  # type: ignore[arg-type]
    return (kind, json.dumps(value, sort_keys=True))


def _tag_values(node: Mapping[str, Any]) -> dict[str, tuple[str, str]]:
    """Required properties of an object node pinned to one literal (a tagged union's tag)."""
    out: dict[str, tuple[str, str]] = {}
    properties = node.get("properties", {})
    for prop in node.get("required", ()):
        values = _literal_values(properties.get(prop, {}))
        if values is not None and len(values) == 1:
            out[prop] = _literal_key(values[0])
    return out


def _disjoint(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
    """Whether no JSON value can match both nodes (so ``oneOf`` means ``anyOf`` here)."""
    ka, kb = _kinds(a), _kinds(b)
    if ka is not None and kb is not None and not ka & kb:
        return True
    va, vb = _literal_values(a), _literal_values(b)
    if va is not None and vb is not None:
        return not {_literal_key(v) for v in va} & {_literal_key(v) for v in vb}
    if a.get("type") == "object" and b.get("type") == "object":
        ta, tb = _tag_values(a), _tag_values(b)
        return any(ta[p] != tb[p] for p in ta.keys() & tb.keys())
    return False


class _Normaliser:
    """Turns msgspec's JSON Schema for one type into a node of the enforced subset.

    ``$ref``s are inlined (a recursive type cannot be), ``anyOf`` becomes
    ``oneOf`` where the branches cannot overlap, and every keyword the subset
    cannot express is reported, never dropped.
    """

    def __init__(self, defs: Mapping[str, Any], subject: str) -> None:
        self.defs = defs
        self.subject = subject
        self.problems: list[str] = []

    def problem(self, path: str, text: str) -> None:
        self.problems.append(f"{self.subject}: {text} - at `{path}`")

    def node(self, schema: Mapping[str, Any], path: str, refs: tuple[str, ...] = ()) -> Any:
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            if name in refs:
                self.problem(path, f"type {name} refers to itself, and a recursive type cannot "
                                   "be inlined into the subset; bound the nesting explicitly")
                return {}
            merged = {**self.defs[name], **{k: v for k, v in schema.items() if k != "$ref"}}
            return self.node(merged, path, (*refs, name))
        out: dict[str, Any] = {}
        if "prefixItems" in schema:
            self.problem(path, "a tuple's positional items cannot be expressed in the supported "
                               "subset; use list[X] or a Struct with named fields")
            schema = {k: v for k, v in schema.items()
                      if k not in ("prefixItems", "minItems", "maxItems", "items")}
        for key, value in schema.items():
            if key == "anyOf":
                branches = [self.node(b, f"{path}.anyOf[{i}]", refs) for i, b in enumerate(value)]
                clash = next(
                    ((i, j) for i in range(len(branches)) for j in range(i + 1, len(branches))
                     if not _disjoint(branches[i], branches[j])),
                    None,
                )
                if clash is not None:
                    self.problem(path, f"union branches {clash[0]} and {clash[1]} can match the "
                                       "same value, so the union is not an exactly-one `oneOf`; "
                                       "use one type (float for int | float) or tagged Structs")
                out["oneOf"] = branches
            elif key == "discriminator":
                continue  # checked below: redundant once every branch pins its tag
            elif key == "properties":
                out[key] = {k: self.node(v, f"{path}.{k}", refs) for k, v in value.items()}
            elif key == "items":
                if value is not False:
                    out[key] = self.node(value, f"{path}[]", refs)
            elif key == "additionalProperties":
                if isinstance(value, bool):
                    out[key] = value
                elif value:
                    self.problem(path, "dict values of a declared type need a schema-valued "
                                       "`additionalProperties`, which the subset lacks; use "
                                       "dict[str, Any] or a Struct/TypedDict with named fields")
            elif key in _SUBSET_KEYWORDS:
                out[key] = value
            else:
                self.problem(path, f"`{key}` ({json.dumps(value)}) cannot be expressed in "
                                   "the supported subset; drop it from the type and check "
                                   "it in the body")
        if "discriminator" in schema and "oneOf" not in out:
            self.problem(path, "`discriminator` cannot be expressed in the supported subset")
        if "type" not in out and "enum" in out:
            kinds = {_value_kind(v) for v in out["enum"]}
            if len(kinds) == 1:
                kind = kinds.pop()
                out = {"type": "number" if kind == "fraction" else kind, **out}
        return out


def _type_name(annotation: object) -> str:
    if isinstance(annotation, type):
        return annotation.__qualname__
    return repr(annotation).replace("typing.", "")


def _derive(
    annotation: object, subject: str, root: str = "$", *, output: bool = False
) -> tuple[Any, list[str]]:
    """The subset schema of ``annotation`` and the problems found deriving it.

    Problem paths start at ``root``: the argument's path for a parameter. An
    ``output`` schema lists the fields every returned value holds as required.
    """
    try:
        (schema,), defs = msgspec.json.schema_components([annotation])
    except (TypeError, ValueError) as exc:
        detail = str(exc).strip().splitlines()[-1]
        return {}, [f"{subject}: msgspec cannot describe this type ({detail})"]
    complete_components(annotation, defs, output=output)
    normaliser = _Normaliser(defs, subject)
    node = normaliser.node(schema, root)
    if not normaliser.problems:
        normaliser.problems.extend(f"{subject}: {p}" for p in schema_problems(node))
    return node, normaliser.problems


def _parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """The description and the per-parameter text of a Google-style ``Args:`` section.

    The description is every paragraph but the ``Args:`` section (whose entries
    describe the parameters one by one): what the author wrote after the first
    line (when the tool fails, what to retry, a ``Raises:`` or ``Returns:``
    section) is what a model needs to call it right. Each paragraph's lines are
    joined into one; paragraphs are separated by a blank line.
    """
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    params: dict[str, str] = {}
    headers = ("Args:", "Arguments:", "Parameters:")
    header = next((i for i, line in enumerate(lines) if line.strip() in headers), None)
    section_end = header
    if header is not None:
        base = len(lines[header]) - len(lines[header].lstrip())
        current: str | None = None
        entry_indent: int | None = None
        section_end = len(lines)
        for index in range(header + 1, len(lines)):
            line = lines[index]
            indent = len(line) - len(line.lstrip())
            if line.strip() and indent <= base:
                section_end = index
                break
            if not line.strip():
                continue
            match = re.match(r"^\*{0,2}(\w+)\s*(?:\([^)]*\))?\s*:\s*(.*)$", line.strip())
            if match and (entry_indent is None or indent <= entry_indent):
                entry_indent, current = indent, match.group(1)
                params[current] = match.group(2).strip()
            elif current is not None:
                params[current] = f"{params[current]} {line.strip()}".strip()
    if header is not None and section_end is not None:
        lines = [*lines[:header], "", *lines[section_end:]]
    paragraphs: list[list[str]] = [[]]
    for line in lines:
        if line.strip():
            paragraphs[-1].append(line.strip())
        elif paragraphs[-1]:
            paragraphs.append([])
    return "\n\n".join(" ".join(p) for p in paragraphs if p), params


def _is_context(annotation: object) -> bool:
    """Whether a parameter asks for the run context (``ToolRunContext``, optionally ``| None``)."""
    if annotation is ToolRunContext:
        return True
    members = typing.get_args(annotation)
    return (
        typing.get_origin(annotation) in (typing.Union, types.UnionType)
        and ToolRunContext in members
        and all(m is ToolRunContext or m is type(None) for m in members)
    )


@dataclass(frozen=True, slots=True)
class _Param:
    name: str
    annotation: Any
    positional: bool  # positional-only: passed by position, not by keyword


def _build_typed(
    fn: Callable[..., Any],
    *,
    name: str | None,
    description: str | None,
    timeout: float | None,
    concurrency_safe: bool | ConcurrencyClassifier,
    blocking: bool,
    render: Render | None,
    presentation_meta: PresentationMeta | None,
    finalize_content: FinalizeContent | None,
    present_call: PresentCall | None,
    present_result: PresentResult | None,
) -> ToolDefinition:
    if not callable(fn):
        raise TypeError(f"@tool decorates a function, got {fn!r}")
    qualname = getattr(fn, "__qualname__", repr(fn))
    where = f"@tool {qualname}"
    is_async = inspect.iscoroutinefunction(fn)
    if blocking and is_async:
        raise TypeError(
            f"{where}: blocking=True is for sync functions; an async one must not block"
        )
    try:
        hints = typing.get_type_hints(fn, include_extras=True)
    except Exception as exc:
        raise TypeError(
            f"{where}: its annotations cannot be resolved ({exc}); "
            "define the types it names at module level"
        ) from None
    summary, param_docs = _parse_docstring(inspect.getdoc(fn))
    params: list[_Param] = []
    context_name: str | None = None
    properties: dict[str, Any] = {}
    required: list[str] = []
    problems: list[str] = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            star = "*" if p.kind is p.VAR_POSITIONAL else "**"
            raise TypeError(
                f"{where}: {star}{p.name} cannot be described to a model; "
                "declare each argument as a named, annotated parameter"
            )
        if p.name not in hints:
            raise TypeError(
                f"{where}: parameter {p.name!r} has no type annotation; annotate it "
                f"(e.g. `{p.name}: str`) so its schema can be derived"
            )
        annotation = hints[p.name]
        if _is_context(annotation):
            context_name = p.name
            continue
        params.append(_Param(p.name, annotation, p.kind is p.POSITIONAL_ONLY))
        subject = f"parameter {p.name!r} ({_type_name(annotation)})"
        node, found = _derive(annotation, subject, format_path([p.name]))
        problems.extend(found)
        if p.name in param_docs:
            node["description"] = param_docs[p.name]
        if p.default is p.empty:
            required.append(p.name)
        else:
            # An annotation only: a default that JSON cannot show is simply not shown.
            with contextlib.suppress(TypeError, ValueError):
                node["default"] = materialize(msgspec.to_builtins(p.default))
        properties[p.name] = node
    if "return" not in hints:
        raise TypeError(
            f"{where}: the return type is not annotated; annotate it (e.g. `-> str`, "
            "`-> None`) so the output schema can be derived"
        )
    return_type = hints["return"]
    output_schema, found = _derive(
        return_type, f"return type ({_type_name(return_type)})", output=True
    )
    problems.extend(found)
    if problems:
        raise UnsupportedSchemaError(problems, what=where)
    parameters: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        parameters["required"] = required
    # A Python function cannot take arguments it does not declare: refuse them
    # with INVALID_ARGS rather than dropping them silently.
    parameters["additionalProperties"] = False
    tool_name = name if name is not None else fn.__name__
    frozen_parameters = _frozen_schema(parameters, what=f"tool {tool_name!r} parameters")

    # The classifier and the body read the same frozen snapshot of one call's
    # arguments (a snapshot is checked and read-only, and freezing it again
    # returns it as it is), so the verdict on the last snapshot is kept: a call
    # is validated once, not twice. One reference swap (atomic under the GIL),
    # since the body may validate in a worker thread; held weakly.
    # The verdict is the violations found, or None while the quick check's
    # refusal has not been described yet (see matches).
    last_verdict: list[tuple[weakref.ref[object], Violations | None] | None] = [None]

    def violations_of(args: object) -> Violations:
        entry = last_verdict[0]
        if (
            entry is not None
            and args is not None
            and entry[0]() is args
            and entry[1] is not None  # not a refusal still to describe
        ):
            return entry[1]
        found = validate(frozen_parameters, args)
        if is_snapshot(args):
            last_verdict[0] = (weakref.ref(args), found)
        return found

    def matches(args: object) -> bool | None:
        """The quick check's verdict on ``args`` (``None``: only the walk can tell).

        It never describes a refusal: that walk costs many times more per value,
        and a program chooses the arguments (see ``INLINE_WALK_NODES``).
        """
        entry = last_verdict[0]
        if entry is not None and args is not None and entry[0]() is args:
            return False if entry[1] is None else not entry[1]
        matched = verdict(frozen_parameters, args)
        if matched is not None and is_snapshot(args):
            last_verdict[0] = (weakref.ref(args), Violations() if matched else None)
        return matched

    def valid(args: object) -> bool:
        # A refusal needs no description to be a refusal: only a value the quick
        # check cannot judge (nested past what it follows) is walked.
        matched = matches(args)
        return matched if matched is not None else not violations_of(args)

    def converted(args: Any) -> tuple[list[object], dict[str, object]]:
        violations = violations_of(args)
        if violations:
            raise ToolArgsError(violations.lines())
        positional: list[object] = []
        keywords: dict[str, object] = {}
        for param in params:
            if param.name not in args:
                continue
            try:
                value = msgspec.convert(args[param.name], param.annotation)
            except msgspec.ValidationError as exc:
                raise ToolArgsError([_rebase(str(exc), param.name)]) from None
            if param.positional:
                positional.append(value)
            else:
                keywords[param.name] = value
        return positional, keywords

    async def execute(args: Any, ctx: ToolRunContext) -> object:
        # Validating and converting is linear in the arguments, which a program
        # chooses: large ones are handled off the event loop, and so are refused
        # ones past INLINE_WALK_NODES values (describing why costs far more a value).
        limit = INLINE_NODES
        if fits_inline(args) and matches(args) is not True:
            limit = INLINE_WALK_NODES
        positional, keywords = await sized(
            args, functools.partial(converted, args), limit=limit
        )
        if context_name is not None:
            keywords[context_name] = ctx
        if is_async:
            result = await fn(*positional, **keywords)
        elif blocking:
            # A blocking body runs in a worker thread so the event loop (and
            # every other call in flight) keeps moving; the pipeline still
            # waits for the thread, since a thread cannot be cancelled.
            result = await anyio.to_thread.run_sync(functools.partial(fn, *positional, **keywords))
        else:
            # Sync bodies run inline by default: most are quick, and a thread
            # hop per call would cost more than the body on the sub-call path.
            result = fn(*positional, **keywords)
        try:
            return msgspec.to_builtins(result)
        except (TypeError, ValueError) as exc:
            detail = f"the return value cannot be written as JSON: {exc}"
            raise ToolOutputError(tool_name, detail) from None

    classifier: ConcurrencyClassifier | None = None
    if concurrency_safe is True or callable(concurrency_safe):
        user_classifier = concurrency_safe

        def classifier(args: Any) -> object:
            # Asked on the event loop: only the quick check's verdict, never the walk
            # that describes a refusal. Invalid arguments (and those only the walk
            # could judge) fail or run anyway: they stay out of a parallel group.
            if matches(args) is not True:
                return False
            return user_classifier is True or (
                callable(user_classifier) and user_classifier(args) is True
            )

    elif concurrency_safe is not False:
        raise TypeError(
            f"{where}: concurrency_safe must be a bool or a callable, "
            f"got concurrency_safe={concurrency_safe!r}"
        )

    soft_call: PresentCall | None = None
    if present_call is not None:
        user_call = present_call

        def soft_call(args: Any) -> object:
            return user_call(args) if valid(args) else None

    soft_result: PresentResult | None = None
    if present_result is not None:
        user_result = present_result

        def soft_result(args: Any, result: ToolResult) -> object:
            return user_result(args, result) if valid(args) else None

    return ToolDefinition(
        name=tool_name,
        description=description if description is not None else summary,
        parameters=frozen_parameters,
        output=ToolOutput(
            schema=output_schema,
            render=render if render is not None else render_json,
            presentation_meta=presentation_meta,
        ),
        execute=execute,
        finalize_content=finalize_content,
        timeout=timeout,
        is_concurrency_safe=classifier,
        present_call=soft_call,
        present_result=soft_result,
    )


def _rebase(message: str, param: str) -> str:
    """Move a msgspec error path from the parameter's value to the arguments object."""
    root = format_path([param])
    if " - at `$" in message:
        return message.replace(" - at `$", f" - at `{root}", 1)
    return f"{message} - at `{root}`"


@overload
def tool(fn: Callable[..., Any], /) -> ToolDefinition: ...


@overload
def tool(
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = None,
    concurrency_safe: bool | ConcurrencyClassifier = False,
    blocking: bool = False,
    render: Render | None = None,
    presentation_meta: PresentationMeta | None = None,
    finalize_content: FinalizeContent | None = None,
    present_call: PresentCall | None = None,
    present_result: PresentResult | None = None,
) -> Callable[[Callable[..., Any]], ToolDefinition]: ...


def tool(
    fn: Callable[..., Any] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    timeout: float | None = None,
    concurrency_safe: bool | ConcurrencyClassifier = False,
    blocking: bool = False,
    render: Render | None = None,
    presentation_meta: PresentationMeta | None = None,
    finalize_content: FinalizeContent | None = None,
    present_call: PresentCall | None = None,
    present_result: PresentResult | None = None,
) -> ToolDefinition | Callable[[Callable[..., Any]], ToolDefinition]:
    """Turn a typed Python function (sync or async) into a :class:`ToolDefinition`.

    The parameters schema comes from the signature and the output schema from
    the return annotation, through msgspec: Structs, TypedDicts, dataclasses,
    ``Literal``, ``X | None``, lists, ``dict[str, Any]`` and nesting work. A
    parameter with a default (positional or keyword-only) is optional; one
    without is required, since Python could not call the function without it.
    A parameter annotated :class:`~codemode.ToolRunContext` (or
    ``ToolRunContext | None``) receives the run context instead of a model
    argument. The description is the docstring, all but its Google-style
    ``Args:`` section, which describes the parameters one by one.

    At call time the arguments are validated against the parameters schema
    (``INVALID_ARGS`` lists the first 20 violations, with their paths, and
    counts the rest), converted to the annotated types,
    and the function is called; its return value is converted with
    ``msgspec.to_builtins`` and checked against the output schema.

    Example::

        @tool
        async def search(query: str, limit: int = 10) -> list[Hit]:
            \"\"\"Search the catalogue.\"\"\"

    Args:
        name: the tool name (default: the function's name).
        description: overrides the description the docstring gives.
        timeout: deadline in seconds, positive and finite.
        concurrency_safe: ``True`` (or ``(args) -> bool``) lets calls overlap
            with their siblings; invalid arguments are always exclusive, and
            so are arguments of more than 2048 items, which the scheduler
            does not look into (see :meth:`~codemode.Registry.execution_mode`).
        blocking: run a sync function in a worker thread, for bodies that block
            on I/O or compute; by default a sync function runs inline on the
            event loop, which is cheaper for quick bodies.
        render, presentation_meta: see :class:`ToolOutput`.
        finalize_content, present_call, present_result: see
            :class:`ToolDefinition`; the presenters return ``None`` for
            arguments that do not validate.

    Raises:
        TypeError: ``*args``/``**kwargs``, a missing annotation, or an
            annotation that cannot be resolved.
        UnsupportedSchemaError: a type the subset cannot express (a numeric
            bound, a ``format``, a tuple, a recursive type, an overlapping
            union, ...); the message names the function, parameter and type.
    """
    options: dict[str, Any] = {
        "name": name, "description": description, "timeout": timeout,
        "concurrency_safe": concurrency_safe, "blocking": blocking, "render": render,
        "presentation_meta": presentation_meta, "finalize_content": finalize_content,
        "present_call": present_call, "present_result": present_result,
    }
    if fn is None:
        return lambda f: _build_typed(f, **options)
    return _build_typed(fn, **options)
