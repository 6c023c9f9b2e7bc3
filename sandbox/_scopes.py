"""Which names a block of a program binds, read from its syntax tree.

The language policy (:mod:`sandbox._policy`) asks these questions of a scope
before it rewrites the scope's body: what the function's arguments are, what
the body binds, declares ``global`` or ``nonlocal``, and which special-method
aliases a class body sets. Each walk is linear in the scope.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from ._attribute_names import DEFINABLE_DUNDERS
from ._hints import UNAVAILABLE_BUILTINS

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "argument_names",
    "bound_anywhere",
    "bound_names",
    "declared_names",
    "special_method_aliases",
    "walk_scope",
]


def argument_names(args: ast.arguments) -> frozenset[str]:
    """The names a function's parameters bind, ``*args`` and ``**kwargs`` included."""
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg:
        names.append(args.vararg.arg)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return frozenset(names)


def walk_scope(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """Yield the nodes of one scope, not descending into nested scopes."""
    stack: list[ast.AST] = list(reversed(body))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            # The name is bound here; decorators/defaults/bases are evaluated here too.
            continue
        if isinstance(
            node, ast.Lambda | ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp
        ):
            # Walrus targets inside comprehensions bind in this scope. Yield them
            # without walking them again: ast.walk has already seen everything
            # below, and a second walk per walrus made this cost grow
            # exponentially with the nesting depth (a few hundred bytes took
            # tens of seconds to check).
            yield from (n for n in ast.walk(node) if isinstance(n, ast.NamedExpr))
            continue
        stack.extend(reversed(list(ast.iter_child_nodes(node))))


def bound_names(body: list[ast.stmt]) -> frozenset[str]:
    """Names a block of statements binds in its own scope."""
    names: set[str] = set()
    for node in walk_scope(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif (isinstance(node, ast.ExceptHandler) and node.name) or (
            isinstance(node, ast.MatchAs | ast.MatchStar) and node.name
        ):
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, ast.NamedExpr) and isinstance(node.target, ast.Name):
            names.add(node.target.id)
    return frozenset(names)


def bound_anywhere(module: ast.Module) -> frozenset[str]:
    """The names of :data:`UNAVAILABLE_BUILTINS` that the program binds in any scope."""
    names: set[str] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Name):
            if not isinstance(node.ctx, ast.Load):
                names.add(node.id)
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.alias):
            names.add((node.asname or node.name).split(".")[0])
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
            if node.name:
                names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, ast.Global | ast.Nonlocal):
            names.update(node.names)
    return frozenset(names) & frozenset(UNAVAILABLE_BUILTINS)


def declared_names(
    body: list[ast.stmt], kind: type[ast.Global] | type[ast.Nonlocal]
) -> frozenset[str]:
    """The names a block of statements declares ``global`` (or ``nonlocal``) in its own scope."""
    return frozenset(
        name for node in walk_scope(body) if isinstance(node, kind) for name in node.names
    )


def special_method_aliases(body: list[ast.stmt]) -> Iterator[int]:
    """The ids of the name nodes of a class body's special-method aliases.

    An alias is a statement of the body itself that sets special methods a
    class may define (:data:`DEFINABLE_DUNDERS`) to the program's own code:
    another of them that a ``def`` earlier in the body bound (``__str__ =
    __repr__``, ``__radd__ = __add__``), or a lambda. Either way the value is a
    function the class could have defined under the new name itself. And
    ``__hash__ = None``, what Python itself sets beside a defined ``__eq__``.
    """
    defined: set[str] = set()
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            if stmt.name in DEFINABLE_DUNDERS:
                defined.add(stmt.name)
            continue
        if not (
            isinstance(stmt, ast.Assign)
            and all(
                isinstance(t, ast.Name) and t.id in DEFINABLE_DUNDERS for t in stmt.targets
            )
        ):
            continue
        targets = [t for t in stmt.targets if isinstance(t, ast.Name)]
        value = stmt.value
        if isinstance(value, ast.Name) and value.id in defined:
            yield id(value)
        elif isinstance(value, ast.Lambda) or (
            isinstance(value, ast.Constant)
            and value.value is None
            and all(t.id == "__hash__" for t in targets)
        ):
            pass
        else:
            continue
        for target in targets:
            defined.add(target.id)
            yield id(target)
