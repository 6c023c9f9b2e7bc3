"""Agent scopes: the keys that registrations, restrictions, modes and hooks hang on.

An :class:`Agent` is compared by identity, never by name: two agents called
``"reviewer"`` are two scopes. Scopes nest through ``parent``; the chain from an
agent up to the root is what the registry walks to decide what the agent sees.

This module also holds the registry's per-scope bookkeeping: a compiled
:class:`Restriction` (with the check of its tool names), the view rule
(:func:`resolve_view`) and the :class:`ViewCache` of resolved views.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Generic, TypeAlias, TypeVar, final

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping, Sequence

    from ._execution import ScopeKey

__all__ = [
    "Agent",
    "Restriction",
    "ViewCache",
    "checked_names",
    "inheritable_names",
    "resolve_view",
]

_T = TypeVar("_T")


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

    # A copy of a scope would be a different scope, so copying returns the agent
    # itself (a structure holding agents deep-copies cleanly), and pickling,
    # which cannot keep identity, is refused.
    def __copy__(self) -> Agent:
        return self

    def __deepcopy__(self, memo: object) -> Agent:
        return self

    def __reduce__(self) -> str:
        raise TypeError(
            f"{self!r} is an in-process scope identity and cannot be pickled; "
            "send its name instead"
        )

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


@final
class Restriction:
    """One compiled filter over what a scope inherits: keep ``allow`` (if set), drop ``deny``."""

    __slots__ = ("allow", "deny")

    def __init__(self, allow: frozenset[str] | None, deny: frozenset[str]) -> None:
        self.allow = allow
        self.deny = deny

    def admits(self, name: str) -> bool:
        """Whether a tool of this name passes the filter."""
        return name not in self.deny and (self.allow is None or name in self.allow)


def checked_names(what: str, names: Iterable[str] | None) -> frozenset[str] | None:
    """The tool names of a restriction argument (``allow``/``deny``) as a set; ``None`` stays."""
    if names is None:
        return None
    if isinstance(names, str):
        raise TypeError(
            f"{what} must be a collection of tool names, not a str; got {what}={names!r}"
        )
    out = frozenset(names)
    for name in out:
        if not isinstance(name, str):
            raise TypeError(f"{what} must hold tool names (str), got {name!r}")
    return out


def _ancestors(agent: ScopeKey) -> list[ScopeKey]:
    out: list[ScopeKey] = []
    node = agent.parent
    while node is not None:
        out.append(node)
        node = node.parent
    return out


def inheritable_names(
    layers: Mapping[ScopeKey | None, Mapping[str, object]], agent: ScopeKey
) -> set[str]:
    """The names ``agent`` inherits: the global layer's (key ``None``) and every ancestor's own."""
    names = set(layers[None])
    for scope in _ancestors(agent):
        names |= layers.get(scope, {}).keys()
    return names


def resolve_view(
    layers: Mapping[ScopeKey | None, Mapping[str, _T]],
    restrictions: Mapping[ScopeKey, Sequence[Restriction]],
    agent: ScopeKey | None,
) -> dict[str, _T]:
    """The tools ``agent`` sees, by name (without ``run_code``): the view rule.

    It inherits the global layer (``layers[None]``) and every ancestor's own
    layer, a nearer one shadowing a farther one; keeps an inherited name only
    if every restriction on the chain (the agent's and every ancestor's)
    admits it, so an ancestor's filter also hides that ancestor's own tools
    from the scopes nested under it; then adds the agent's own layer, which no
    restriction filters for the agent itself.
    """
    if agent is None:
        return dict(layers[None])
    ancestors = _ancestors(agent)
    inherited = dict(layers[None])
    for scope in reversed(ancestors):  # farthest first: a nearer layer shadows
        inherited.update(layers.get(scope, {}))
    chain_restrictions = [r for scope in (agent, *ancestors) for r in restrictions.get(scope, ())]
    view = (
        {n: d for n, d in inherited.items() if all(r.admits(n) for r in chain_restrictions)}
        if chain_restrictions
        else inherited
    )
    view.update(layers.get(agent, {}))
    return view


#: A resolved view and the registry version it was built at.
CachedView: TypeAlias = "tuple[int, Mapping[str, _T]]"


@final
class ViewCache(Generic[_T]):
    """Resolved views: the global one, and one per scope key, held weakly.

    Holding scope keys weakly means a finished agent's cached view goes away
    with the agent; a key that cannot be weakly referenced raises ``TypeError``
    and is simply not cached.
    """

    __slots__ = ("_global", "_scoped")

    def __init__(self) -> None:
        self._global: CachedView[_T] | None = None
        self._scoped: weakref.WeakKeyDictionary[ScopeKey, CachedView[_T]] = (
            weakref.WeakKeyDictionary()
        )

    def get(self, agent: ScopeKey | None) -> CachedView[_T] | None:
        """The cached view of ``agent`` (``None``: the global view), if any."""
        return self._global if agent is None else self._scoped.get(agent)

    def __setitem__(self, agent: ScopeKey | None, entry: CachedView[_T]) -> None:
        if agent is None:
            self._global = entry
        else:
            self._scoped[agent] = entry
