"""JSON Schema to Python type expressions and ``TypedDict`` classes, for the SDK section.

The walk is iterative (explicit stacks), so a schema thousands of levels deep renders
without touching the interpreter's recursion limit, and each node costs constant work
plus its own text, so the output is linear in the schema. Each node is checked on its
own against the enforced subset; a node outside it becomes ``Any``, which is always
truthful (the model may pass anything the tool then validates).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, final

from ._sdk_names import (
    ClassNames,
    branch_base,
    clean_description,
    field_base,
    is_field_name,
    py_default,
    py_literal,
    title_base,
)
from ._sdk_share import ShapeIds

__all__ = [
    "MAX_LIST_NESTING",
    "MAX_NODES",
    "MAX_UNION_OPERATORS",
    "Budget",
    "BudgetExceeded",
    "ObjectShape",
    "Role",
    "TypeRenderer",
    "default_of",
    "description_of",
    "object_shape",
]

#: CPython's tokenizer accepts at most 200 open brackets. An annotation holds at most
#: this many ``list[`` plus one innermost bracket, ``NotRequired[`` and an open
#: parameter-list parenthesis; deeper arrays become ``Any``.
MAX_LIST_NESTING: Final = 180

#: CPython builds ``A | B | C`` as a left-deep tree and cannot turn one much deeper
#: than ~3000 into an AST; a union that would need more operators becomes ``Any``,
#: so the block always parses.
MAX_UNION_OPERATORS: Final = 1000

#: Schema nodes visited per schema before its rendering is abandoned: a schema that
#: shares one node many times over (a DAG) or a hostile mapping that invents nodes
#: cannot stall prompt assembly. Real schemas are orders of magnitude smaller.
MAX_NODES: Final = 100_000

_SCALAR_TYPES: Final = {
    "string": "str",
    "number": "float",
    "integer": "int",
    "boolean": "bool",
    "null": "None",
}
_ANNOTATION_KEYS: Final = frozenset({"description", "title", "default", "examples"})
_OBJECT_KEYS: Final = frozenset({"properties", "required", "additionalProperties"})
_VALUE_KEYS: Final = frozenset({"enum", "const"})
_KNOWN_KEYS: Final = (
    _ANNOTATION_KEYS | _OBJECT_KEYS | _VALUE_KEYS | {"type", "oneOf", "items"}
)


class BudgetExceeded(Exception):
    """A tool's schemas needed more work than :data:`MAX_NODES`; render it as ``Any``."""


class _TooWide(Exception):
    """One annotation needed more than :data:`MAX_UNION_OPERATORS` union operators."""


@final
class Budget:
    """Counts schema nodes visited while rendering one tool."""

    def __init__(self, *, limit: int = MAX_NODES) -> None:
        self.left = limit

    def spend(self) -> None:
        """Count one node; raise :class:`BudgetExceeded` when the budget is gone."""
        self.left -= 1
        if self.left < 0:
            raise BudgetExceeded


@final
@dataclass(frozen=True)
class ObjectShape:
    """A schema node that is a well-formed object: its fields, required set and openness."""

    fields: tuple[tuple[str, object], ...]
    required: frozenset[str]
    open: bool


def _is_sequence(value: object) -> bool:
    return isinstance(value, (list, tuple))


def _matches_type(value: object, type_name: str | None) -> bool:
    if type_name is None:
        return True
    if type_name == "string":
        return type(value) is str
    if type_name == "boolean":
        return type(value) is bool
    if type_name == "null":
        return value is None
    if type_name == "number":
        return type(value) in (int, float)
    if type_name == "integer":
        return type(value) is int or (type(value) is float and value.is_integer())
    return False


def _literal(values: Sequence[object], type_name: str | None) -> str | None:
    texts: list[str] = []
    for value in values:
        if not _matches_type(value, type_name):
            return None
        text = py_literal(value)
        if text is None:
            return None
        texts.append(text)
    if texts == ["None"]:
        return "None"
    return "Literal[" + ", ".join(texts) + "]"


def _annotations_ok(node: Mapping[object, object]) -> bool:
    return all(type(node[key]) is str for key in ("description", "title") if key in node)


def object_shape(node: object) -> ObjectShape | None:
    """The shape of ``node`` if it is a well-formed object schema of the subset, else None."""
    kind = _classify(node)
    return kind if isinstance(kind, ObjectShape) else None


# What `_classify` returns: a finished type text ("str", "Any", "Literal[...]"), an
# `ObjectShape`, ("array", items or None), or ("oneOf", branches).
_Kind = str | ObjectShape | tuple[str, object]


def _classify(node: object) -> _Kind:
    """Check one node against the subset (not its children) and say how to render it."""
    if not isinstance(node, Mapping):
        return "Any"
    keys = set(node.keys())
    if not all(type(key) is str for key in keys) or not keys <= _KNOWN_KEYS:
        return "Any"
    if not _annotations_ok(node):
        return "Any"
    if "oneOf" in keys:
        branches = node["oneOf"]
        # A `type` beside `oneOf` only narrows it, so the union alone stays truthful.
        constrained = keys - _ANNOTATION_KEYS - {"oneOf", "type"}
        if constrained or not _is_sequence(branches) or len(branches) < 2:
            return "Any"
        return ("oneOf", branches)
    type_name = node.get("type")
    if type_name is None and "type" not in keys:
        if keys & (_OBJECT_KEYS | {"items"}):
            return "Any"
        return _values(node, None)
    if type(type_name) is not str:
        return "Any"
    if type_name == "object":
        if keys & (_VALUE_KEYS | {"items"}):
            return "Any"
        return _object(node)
    if type_name == "array":
        if keys & (_VALUE_KEYS | _OBJECT_KEYS):
            return "Any"
        return ("array", node.get("items"))
    scalar = _SCALAR_TYPES.get(type_name)
    if scalar is None or keys & (_OBJECT_KEYS | {"items"}):
        return "Any"
    return _values(node, type_name) if keys & _VALUE_KEYS else scalar


def _values(node: Mapping[object, object], type_name: str | None) -> str:
    has_enum = "enum" in node
    has_const = "const" in node
    if has_enum and has_const:
        return "Any"
    if has_enum:
        values = node["enum"]
        if not _is_sequence(values) or not values:
            return "Any"
        assert isinstance(values, (list, tuple))
        return _literal(values, type_name) or "Any"
    if has_const:
        return _literal([node["const"]], type_name) or "Any"
    # No type and no values: an unconstrained (annotation-only) node.
    return "Any"


def _object(node: Mapping[object, object]) -> _Kind:
    properties = node.get("properties", {})
    required = node.get("required", ())
    additional = node.get("additionalProperties", True)
    if not isinstance(properties, Mapping) or type(additional) is not bool:
        return "Any"
    if not _is_sequence(required):
        return "Any"
    assert isinstance(required, (list, tuple))
    fields = tuple(properties.items())
    names = {name for name, _ in fields}
    if not all(type(name) is str for name in names):
        return "Any"
    if not all(type(name) is str and name in names for name in required):
        return "Any"
    if len(set(required)) != len(required):
        return "Any"
    return ObjectShape(
        fields=tuple((str(name), schema) for name, schema in fields),
        required=frozenset(str(name) for name in required),
        open=additional,
    )


#: Which way a class's values travel: passed to a tool, or returned by one.
Role = Literal["input", "output"]

# The note under an open class says what undeclared keys mean for the way it is used.
_OPEN_NOTES: Final[dict[frozenset[str], str]] = {
    frozenset({"input"}): "    # Keys not declared above may be passed too.",
    frozenset({"output"}): "    # Values that come back may hold keys not declared above.",
    frozenset({"input", "output"}): (
        "    # Keys not declared above may be passed too, and may come back in values."
    ),
}


@final
class _ClassRecord:
    """One declared class: its name, its lines, and the roles of the values it describes."""

    __slots__ = ("children", "job", "lines", "name", "open", "roles", "state")

    def __init__(self, name: str, *, open: bool, role: Role) -> None:
        self.name = name
        self.open = open
        self.roles: set[str] = {role}
        self.lines: list[str] = []
        # The classes its fields refer to, which describe values going the same way.
        self.children: list[_ClassRecord] = []
        # How it gets declared: "pending" until its body is written, then "open"
        # until everything it refers to is declared, then "done".
        self.job: _ClassJob | None = None
        self.state = "pending"

    def text(self) -> str:
        if not self.open:
            return "\n".join(self.lines)
        return "\n".join([*self.lines, _OPEN_NOTES[frozenset(self.roles)]])


@dataclass
class _ClassJob:
    record: _ClassRecord
    shape: ObjectShape
    node_id: int
    role: Role


#: What :meth:`TypeRenderer.snapshot` returns.
_Mark = tuple[int, int, frozenset[str], int]


@final
class TypeRenderer:
    """Renders annotations and the ``TypedDict`` classes they need, for one SDK block.

    ``uses`` collects the ``typing`` names the text refers to, so the import line lists
    exactly those. :meth:`class_texts` gives the class declarations, each after every
    class it refers to.

    An object schema with a ``title`` (msgspec writes the class name there) is named
    after it; one whose whole schema equals an earlier one with the same title is that
    class again, so a type shared by several tools is declared once.
    """

    def __init__(self, names: ClassNames) -> None:
        self.names = names
        self.uses: set[str] = set()
        self._classes: list[_ClassRecord] = []
        # Ids of the object nodes whose classes are being declared: meeting one again
        # below itself means the mapping refers to itself (JSON never does).
        self._open: set[int] = set()
        self._ids = ShapeIds()
        self._shared: dict[tuple[str, int], _ClassRecord] = {}
        # Undo log of shared classes and roles added, for restore().
        self._journal: list[tuple[_ClassRecord, str | None, tuple[str, int] | None]] = []

    def class_texts(self) -> list[str]:
        """The declared classes' text, in declaration order."""
        return [record.text() for record in self._classes]

    def snapshot(self) -> _Mark:
        """A mark to pass to :meth:`restore`."""
        return (
            self.names.checkpoint(),
            len(self._classes),
            frozenset(self.uses),
            len(self._journal),
        )

    def restore(self, mark: _Mark) -> None:
        """Undo every name, class, use and sharing recorded since ``mark`` was taken."""
        names, classes, uses, journal = mark
        self.names.rollback(names)
        del self._classes[classes:]
        self.uses = set(uses)
        self._undo(journal)

    def _undo(self, mark: int) -> None:
        while len(self._journal) > mark:
            record, role, key = self._journal.pop()
            if role is not None:
                record.roles.discard(role)
            if key is not None:
                del self._shared[key]

    def root(
        self, node: object, base: str | None, *, depth: int, budget: Budget, role: Role
    ) -> str:
        """Render one annotation and declare the classes it uses."""
        text, jobs = self._annotation(node, base, depth, budget, role, [])
        self.declare(jobs, budget)
        return text

    def annotation(
        self, node: object, base: str | None, *, depth: int, budget: Budget, role: Role
    ) -> tuple[str, list[_ClassJob]]:
        """Render one annotation; return it with the classes still to declare."""
        return self._annotation(node, base, depth, budget, role, [])

    def _annotation(
        self,
        node: object,
        base: str | None,
        depth: int,
        budget: Budget,
        role: Role,
        refs: list[_ClassRecord],
    ) -> tuple[str, list[_ClassJob]]:
        mark = self.names.checkpoint()
        journal = len(self._journal)
        uses: set[str] = set()
        found: list[_ClassRecord] = []
        try:
            text, jobs = self._emit(node, base, depth, budget, uses, role, found)
        except _TooWide:
            self.names.rollback(mark)
            self._undo(journal)
            self.uses.add("Any")
            return "Any", []
        self.uses |= uses
        refs.extend(found)
        return text, jobs

    def declare(self, jobs: list[_ClassJob], budget: Budget) -> None:
        """Declare ``jobs`` and everything they refer to, dependencies first."""
        stack: list[tuple[_ClassJob, bool]] = [(job, False) for job in reversed(jobs)]
        try:
            while stack:
                job, ready = stack.pop()
                if ready:
                    self._open.discard(job.node_id)
                    job.record.state = "done"
                    self._classes.append(job.record)
                    continue
                if job.record.state != "pending":
                    continue  # a shared class already declared where it was first used
                job.record.state = "open"
                self._open.add(job.node_id)
                children = self._body(job, budget)
                stack.append((job, True))
                stack.extend((child, False) for child in reversed(children))
        finally:
            # Empty after a complete walk; after an abandoned one, nothing stale may
            # make a later schema sharing these nodes look like a cycle.
            self._open.clear()

    def _body(self, job: _ClassJob, budget: Budget) -> list[_ClassJob]:
        self.uses.add("TypedDict")
        record = job.record
        lines = record.lines
        lines.append(f"class {record.name}(TypedDict):")
        role = job.role
        for name, schema in job.shape.fields:
            description = description_of(schema)
            if description:
                lines.append(f"    # {description}")
            # A field is a fresh line, but `NotRequired[` may wrap it: start at depth 1.
            text, _ = self._annotation(
                schema, field_base(record.name, name), 1, budget, role, record.children
            )
            if name in job.shape.required:
                lines.append(f"    {name}: {text}")
                continue
            default = default_of(schema)
            if default is not None:
                lines.append(f"    # Default: {default}")
            self.uses.add("NotRequired")
            lines.append(f"    {name}: NotRequired[{text}]")
        if not job.shape.fields:
            lines.append("    pass")
        # Every class it refers to comes first: new ones, and shared ones that
        # another part of the schema created but has not declared yet.
        children: list[_ClassJob] = []
        taken: set[int] = set()
        for child in record.children:
            if child.state == "pending" and child.job is not None and id(child) not in taken:
                taken.add(id(child))
                children.append(child.job)
        return children

    def _emit(
        self,
        node: object,
        base: str | None,
        depth: int,
        budget: Budget,
        uses: set[str],
        role: Role,
        found: list[_ClassRecord],
    ) -> tuple[str, list[_ClassJob]]:
        out: list[str] = []
        jobs: list[_ClassJob] = []
        operators = 0
        # Items are either text to append or a (node, base, list depth) to render;
        # popping from the end renders in source order.
        stack: list[str | tuple[object, str | None, int]] = [(node, base, depth)]
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                out.append(item)
                continue
            budget.spend()
            current, current_base, level = item
            kind = _classify(current)
            if isinstance(kind, str):
                out.append(kind)
                _note_uses(kind, uses)
            elif isinstance(kind, ObjectShape):
                out.append(
                    self._object_type(current, kind, current_base, budget, role, jobs, found, uses)
                )
            elif kind[0] == "array":
                items = kind[1]
                if level >= MAX_LIST_NESTING:
                    out.append("Any")
                    uses.add("Any")
                elif items is None:
                    out.append("list[Any]")
                    uses.add("Any")
                else:
                    out.append("list[")
                    stack.append("]")
                    stack.append((items, current_base, level + 1))
            else:
                branches = kind[1]
                assert isinstance(branches, (list, tuple))
                operators += len(branches) - 1
                if operators > MAX_UNION_OPERATORS:
                    raise _TooWide
                # A union opens no bracket, so every branch keeps the current depth.
                for index in range(len(branches), 0, -1):
                    branch = (
                        branch_base(current_base, index) if current_base is not None else None
                    )
                    stack.append((branches[index - 1], branch, level))
                    if index > 1:
                        stack.append(" | ")
        return "".join(out), jobs

    def _object_type(
        self,
        node: object,
        shape: ObjectShape,
        base: str | None,
        budget: Budget,
        role: Role,
        jobs: list[_ClassJob],
        found: list[_ClassRecord],
        uses: set[str],
    ) -> str:
        # Without a class name to give (the context-free entry point), with no declared
        # keys while open, with a key a TypedDict cannot declare as written, or inside
        # itself, the most precise truthful type is an open dict.
        declarable = all(is_field_name(name) for name, _ in shape.fields)
        if (
            base is None
            or not declarable
            or (shape.open and not shape.fields)
            or id(node) in self._open
        ):
            uses.add("Any")
            return "dict[str, Any]"
        assert isinstance(node, Mapping)
        title = node.get("title")
        named = title_base(title) if type(title) is str else None
        key: tuple[str, int] | None = None
        if named is not None:
            shape_id = self._ids.of(node, budget)
            if shape_id is not None:
                key = (named, shape_id)
                shared = self._shared.get(key)
                if shared is not None:
                    self._add_role(shared, role)
                    found.append(shared)
                    return shared.name
        record = _ClassRecord(self.names.allocate(named or base), open=shape.open, role=role)
        if key is not None:
            self._shared[key] = record
            self._journal.append((record, None, key))
        record.job = _ClassJob(record=record, shape=shape, node_id=id(node), role=role)
        jobs.append(record.job)
        found.append(record)
        return record.name

    def _add_role(self, record: _ClassRecord, role: Role) -> None:
        """A class reused for values going another way: so are the classes inside it."""
        stack = [record]
        while stack:
            current = stack.pop()
            if role in current.roles:
                continue
            current.roles.add(role)
            self._journal.append((current, role, None))
            stack.extend(current.children)


def _note_uses(text: str, uses: set[str]) -> None:
    if text == "Any":
        uses.add("Any")
    elif text.startswith("Literal["):
        uses.add("Literal")


def default_of(schema: object) -> str | None:
    """The Python literal of a schema node's ``default``, or ``None`` when it has none to show."""
    if not isinstance(schema, Mapping) or "default" not in schema:
        return None
    return py_default(schema["default"])


def description_of(schema: object) -> str:
    """The cleaned description of a schema node, or "" when it has none."""
    if not isinstance(schema, Mapping):
        return ""
    description = schema.get("description")
    return clean_description(description) if type(description) is str else ""
