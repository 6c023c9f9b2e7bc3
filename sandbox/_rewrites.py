"""RestrictedPython's rewrites of loops, subscripts and assignments, at linear cost.

:class:`LinearRewrites` is the base of the project's policy
(:class:`sandbox._policy.ProgramPolicy`). It emits the same guard calls as the
stock ``RestrictingNodeTransformer`` for the three constructs below, and differs
only in what the stock rewrite spends on them:

- ``for`` loops and comprehensions (``_getiter_`` / ``_iter_unpack_sequence_``)
  and subscripts (``_getitem_`` / ``_write_``): the stock code gives each new
  call node a location by running ``ast.fix_missing_locations`` over the whole
  expression below it, which it has already visited. Nested subscripts or
  iterables made that quadratic in the nesting depth. Here only the new node is
  located; the one ``ast.fix_missing_locations`` over the finished tree
  (:func:`sandbox._compile.compile_program`) fills in its children, exactly as
  the per-node pass would have.
- chained assignments with an unpacking target (``x = (a, b) = value``): the
  stock code splits them into one assignment per target, each holding the whole
  right-hand side, so ``value`` was evaluated once per target and its syntax
  tree compiled once per target (quadratic in the program's size, and a change
  of meaning). Here ``value`` is evaluated once into a temporary, and the
  targets are assigned from it left to right, as Python does.

Every other rewrite is the stock one.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, TypeAlias

from RestrictedPython.transformer import RestrictingNodeTransformer

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["LinearRewrites"]

_Visited: TypeAlias = "ast.AST | Iterable[ast.AST] | None"


def _call(name: str, args: list[ast.expr], where: ast.AST) -> ast.Call:
    """``name(*args)``, located at ``where`` (its new children are located later)."""
    call = ast.Call(func=ast.Name(name, ast.Load()), args=args, keywords=[])
    return ast.copy_location(call, where)


class LinearRewrites(RestrictingNodeTransformer):
    """The stock transformer with linear-cost loop, subscript and assignment rewrites."""

    def guard_iter(self, node: ast.For | ast.comprehension) -> _Visited:
        """``for x in it`` becomes ``for x in _getiter_(it)``; a tuple target unpacks guarded."""
        node = self.node_contents_visit(node)
        if isinstance(node.target, ast.Tuple):
            spec = self.gen_unpack_spec(node.target)
            args = [node.iter, spec, ast.Name("_getiter_", ast.Load())]
            node.iter = _call("_iter_unpack_sequence_", args, node.iter)
        else:
            node.iter = _call("_getiter_", [node.iter], node.iter)
        return node

    def visit_Subscript(self, node: ast.Subscript) -> _Visited:
        """``a[k]`` becomes ``_getitem_(a, k)``; stores and deletes go through ``_write_``."""
        node = self.node_contents_visit(node)
        if isinstance(node.ctx, ast.Load):
            return _call("_getitem_", [node.value, node.slice], node)
        node.value = _call("_write_", [node.value], node)
        return node

    def visit_Assign(self, node: ast.Assign) -> _Visited:
        """Unpacking targets go through ``_unpack_sequence_``; the value is evaluated once."""
        node = self.node_contents_visit(node)
        if not any(isinstance(target, ast.Tuple) for target in node.targets):
            return node
        if len(node.targets) == 1:
            (target,) = node.targets
            assert isinstance(target, ast.Tuple)
            node.value = self._guarded_unpack(target, node.value)
            return node
        # `t1 = t2 = value` with an unpacking target:
        #     _tmpN = value
        #     try:
        #         t1 = <guarded _tmpN>
        #         t2 = <guarded _tmpN>
        #     finally:
        #         del _tmpN
        # (`_tmpN` is a dunder no program may use, see `ProgramPolicy.gen_tmp_name`;
        # `finally` keeps it out of the class a class body makes).
        temporary = self.gen_tmp_name()
        hold = ast.copy_location(
            ast.Assign(targets=[ast.Name(temporary, ast.Store())], value=node.value), node
        )
        assigns: list[ast.stmt] = []
        for target in node.targets:
            value: ast.expr = ast.Name(temporary, ast.Load())
            if isinstance(target, ast.Tuple):
                value = self._guarded_unpack(target, value)
            assigns.append(ast.copy_location(ast.Assign(targets=[target], value=value), node))
        cleanup = ast.Try(
            body=assigns,
            handlers=[],
            orelse=[],
            finalbody=[ast.copy_location(self.gen_del_stmt(temporary), node)],
        )
        return [hold, ast.copy_location(cleanup, node)]

    def _guarded_unpack(self, target: ast.Tuple, value: ast.expr) -> ast.Call:
        spec = self.gen_unpack_spec(target)
        return _call("_unpack_sequence_", [value, spec, ast.Name("_getiter_", ast.Load())], value)
