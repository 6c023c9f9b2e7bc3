"""What msgspec's JSON Schema of a class leaves out, put back for :mod:`codemode._typed`.

Two facts a model relies on when it reads the SDK section:

* **Declared field order.** msgspec lists a ``TypedDict``'s fields alphabetically;
  the author's order (``name`` before ``address``) reads better and is the order a
  value is built in. Structs and dataclasses already keep it.
* **Fields a returned value always holds.** In an output schema, a Struct field with
  a default is written whenever the Struct is (unless the Struct sets
  ``omit_defaults`` or the default is ``UNSET``), and every dataclass field is: they
  are listed as ``required``, so the SDK does not mark them ``NotRequired``. In a
  parameters schema a default still makes a field optional. (What a tool returns is
  converted with ``msgspec.to_builtins``, which writes exactly these fields.)

Each component schema (``$defs`` entry) is matched to its class by the title msgspec
gives it and its set of property names; a title two different classes share with
the same names but different facts is left as msgspec wrote it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import msgspec
import msgspec.inspect as mi

__all__ = ["complete_components"]


@dataclass(frozen=True, slots=True)
class _Facts:
    names: frozenset[str]
    order: tuple[str, ...] | None  # the declared order, when msgspec does not keep it
    written: tuple[str, ...]  # fields every written value holds


def _title(cls: Any) -> str:
    # The title msgspec's schema generator gives a class (``Page[int]`` for an alias).
    origin = getattr(cls, "__origin__", None)
    if origin is not None:
        args = ", ".join(a.__name__ if isinstance(a, type) else repr(a) for a in cls.__args__)
        return f"{origin.__name__}[{args}]"
    return str(cls.__name__)


def _facts(info: mi.StructType | mi.TypedDictType | mi.DataclassType) -> _Facts:
    names = frozenset(f.encode_name for f in info.fields)
    cls = getattr(info.cls, "__origin__", info.cls)
    if isinstance(info, mi.TypedDictType):
        declared = [name for name in getattr(cls, "__annotations__", {}) if name in names]
        order = tuple(declared) if set(declared) == names else None
        return _Facts(names, order, tuple(f.encode_name for f in info.fields if f.required))
    if isinstance(info, mi.DataclassType):
        return _Facts(names, None, tuple(f.encode_name for f in info.fields))
    omits = bool(getattr(getattr(cls, "__struct_config__", None), "omit_defaults", False))
    # A field whose default is UNSET has neither default here, and is left out
    # of a written Struct while unset.
    unset = msgspec.NODEFAULT
    written = tuple(
        f.encode_name
        for f in info.fields
        if f.required or (not omits and (f.default is not unset or f.default_factory is not unset))
    )
    return _Facts(names, None, written)


def _class_facts(annotation: object) -> dict[str, set[_Facts]]:
    """The facts of every Struct, TypedDict and dataclass reachable from ``annotation``."""
    try:
        root = mi.type_info(annotation)
    except Exception:  # msgspec reports the same problem when it derives the schema
        return {}
    found: dict[str, set[_Facts]] = {}
    seen: set[int] = set()
    stack: list[object] = [root]
    while stack:
        info = stack.pop()
        if not isinstance(info, mi.Type) or id(info) in seen:
            continue
        seen.add(id(info))
        if isinstance(info, (mi.StructType, mi.TypedDictType, mi.DataclassType)):
            found.setdefault(_title(info.cls), set()).add(_facts(info))
            stack.extend(f.type for f in info.fields)
            continue
        for attribute in ("type", "item_type", "key_type", "value_type"):
            stack.append(getattr(info, attribute, None))
        for attribute in ("types", "item_types"):
            stack.extend(getattr(info, attribute, None) or ())
    return found


def complete_components(
    annotation: object, components: dict[str, Any], *, output: bool
) -> None:
    """Restore declared field order and, for an ``output`` schema, always-written fields.

    ``components`` is the second value of ``msgspec.json.schema_components`` for
    ``annotation``; its schemas are changed in place.
    """
    facts = _class_facts(annotation)
    for schema in components.values():
        properties = schema.get("properties")
        if not isinstance(properties, dict):
            continue
        matches = {f for f in facts.get(schema.get("title", ""), ()) if f.names == set(properties)}
        if len(matches) != 1:
            continue
        (match,) = matches
        if match.order is not None:
            schema["properties"] = {name: properties[name] for name in match.order}
        if output:
            required = list(schema.get("required", ()))
            missing = [n for n in schema["properties"] if n in match.written and n not in required]
            if missing:
                schema["required"] = required + missing
