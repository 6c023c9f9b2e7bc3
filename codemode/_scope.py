"""Agent scopes: the keys that registrations, restrictions, modes and hooks hang on.

An :class:`Agent` is compared by identity, never by name: two agents called
``"reviewer"`` are two scopes. Scopes nest through ``parent``; the chain from an
agent up to the root is what the registry walks to decide what the agent sees.
"""

from __future__ import annotations

from typing import final

__all__ = ["Agent"]


@final
class Agent:
    """A scope key for the registry: one agent, or a preset that agents join.

    Args:
        name: a label for messages and logs; it need not be unique.
        parent: the enclosing scope, if any. Tools registered on ``parent``
            (and its ancestors) are inherited; restrictions and a mode declared
            there reach this scope too.

    Raises:
        TypeError: if ``name`` is not a ``str`` or ``parent`` is not an ``Agent``.
        ValueError: if ``name`` is empty.
    """

    __slots__ = ("__weakref__", "name", "parent")

    name: str
    parent: Agent | None

    def __init__(self, name: str, *, parent: Agent | None = None) -> None:
        if not isinstance(name, str):
            raise TypeError(f"Agent name must be a str, got name={name!r}")
        if not name:
            raise ValueError(f"Agent name must not be empty, got name={name!r}")
        if parent is not None and not isinstance(parent, Agent):
            raise TypeError(f"Agent parent must be an Agent or None, got parent={parent!r}")
        object.__setattr__(self, "name", name)
        object.__setattr__(self, "parent", parent)

    def __setattr__(self, attr: str, value: object) -> None:
        raise AttributeError(f"Agent is immutable; cannot set {attr!r}")

    def __delattr__(self, attr: str) -> None:
        raise AttributeError(f"Agent is immutable; cannot delete {attr!r}")

    # Equality and hashing stay the inherited identity semantics on purpose: a
    # scope is a particular agent, and a second agent that happens to share a
    # name must not see the first one's tools.

    def chain(self) -> tuple[Agent, ...]:
        """This agent followed by its ancestors, nearest first."""
        out: list[Agent] = []
        node: Agent | None = self
        while node is not None:
            out.append(node)
            node = node.parent
        return tuple(out)

    def __repr__(self) -> str:
        if self.parent is None:
            return f"Agent({self.name!r})"
        return f"Agent({self.name!r}, parent={self.parent!r})"
