"""Structural identity of schema nodes, so that equal titled schemas share one class.

Two tools that return the same ``Customer`` get one ``class Customer(TypedDict)`` in
the SDK section, and a second, different schema under the same title gets a counter
(``Customer2``). Equality is structural: every key and value of the node and its
children, with object keys in sorted order except inside ``properties``, whose order
is the order fields are shown in.

Each distinct node gets a small integer (hash-consing): a node's key is built from
its own entries and its children's integers, so computing the identity of every node
of a schema costs time linear in the schema, however deep it is or however often
nodes repeat (a node object seen before is looked up by identity). The walk is
iterative and counts each new node against the rendering budget.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Final, final

if TYPE_CHECKING:
    from ._sdk_types import Budget

__all__ = ["ShapeIds"]

_SCALARS: Final = (str, int, float, bool, type(None))


class _Unshareable(Exception):
    """The node holds something without a structural identity (an object, a cycle)."""


@final
class ShapeIds:
    """Gives structurally equal schema nodes the same integer, for one SDK block."""

    def __init__(self) -> None:
        self._interned: dict[tuple[object, ...], int] = {}
        # id(node) -> (node, its integer): the node is kept alive, so its id is
        # never reused by another object while this table exists.
        self._known: dict[int, tuple[object, int]] = {}

    def of(self, node: object, budget: Budget) -> int | None:
        """The integer of ``node``, or ``None`` when it cannot be compared (never shared).

        Raises:
            BudgetExceeded: the walk needed more nodes than the budget has left.
        """
        try:
            return self._walk(node, budget)
        except _Unshareable:
            return None

    def _walk(self, root: object, budget: Budget) -> int:
        frames: list[_Frame] = []
        path: set[int] = set()  # ids of the containers being walked, to catch cycles
        value = self._enter(root, False, frames, path, budget)
        while True:
            if value is not None:
                if not frames:
                    return value
                frames[-1].parts.append(value)
            frame = frames[-1]
            if frame.next < len(frame.children):
                key, child = frame.children[frame.next]
                frame.next += 1
                frame.parts.append(key)
                is_properties = not frame.is_properties and key == "properties"
                value = self._enter(child, is_properties, frames, path, budget)
                continue
            frames.pop()
            path.discard(id(frame.node))
            value = self._intern((frame.kind, *frame.parts))
            self._known[id(frame.node)] = (frame.node, value)

    def _enter(
        self,
        node: object,
        is_properties: bool,
        frames: list[_Frame],
        path: set[int],
        budget: Budget,
    ) -> int | None:
        """The integer of a scalar or an already known node; else push its frame."""
        entry = self._known.get(id(node))
        if entry is not None:
            return entry[1]
        if type(node) in _SCALARS:
            return self._intern(("scalar", type(node).__name__, node))
        budget.spend()
        if id(node) in path:
            raise _Unshareable  # a mapping that contains itself
        frames.append(_Frame(node, _children(node, is_properties), is_properties))
        path.add(id(node))
        return None

    def _intern(self, key: tuple[object, ...]) -> int:
        return self._interned.setdefault(key, len(self._interned))


@final
class _Frame:
    """A container being walked: its children, the next one to visit, the parts so far."""

    __slots__ = ("children", "is_properties", "kind", "next", "node", "parts")

    def __init__(
        self, node: object, children: list[tuple[object, object]], is_properties: bool
    ) -> None:
        self.node = node
        self.children = children
        self.is_properties = is_properties
        self.kind = "list" if isinstance(node, (list, tuple)) else "map"
        self.next = 0
        self.parts: list[object] = []


def _children(node: object, is_properties: bool) -> list[tuple[object, object]]:
    if isinstance(node, (list, tuple)):
        return list(enumerate(node))
    if not isinstance(node, Mapping):
        raise _Unshareable
    items = list(node.items())
    if not all(type(key) is str for key, _ in items):
        raise _Unshareable
    # Field order is shown, so it counts; the order of schema keywords does not.
    return items if is_properties else sorted(items, key=lambda item: str(item[0]))
