"""Programs nested ``depth`` levels deep, one generator per kind of nesting.

The compile-cost tests count the work of compiling each kind at growing depths,
and ``benchmarks/compile_depth.py`` times it. Every generator returns a program
(the body of an async function) of size linear in ``depth``; depths up to
:data:`MAX_DEPTH` parse (the parser refuses about 200 nested brackets), and
the statement kinds stop compiling past CPython's 20 nested blocks, which still
exercises every step before the compiler.
"""

from __future__ import annotations

import ast
import contextlib
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

__all__ = ["MAX_DEPTH", "NESTINGS", "WIDTHS", "WalkBudgetExceeded", "count_nodes", "counting_walks"]

#: The deepest nesting every generator below supports.
MAX_DEPTH: Final = 64


def _wrap(template: str, depth: int, seed: str = "x") -> str:
    """Apply ``template`` ``depth`` times: ``{e}`` is the inner part, ``{i}`` the level."""
    expression = seed
    for level in range(depth):
        expression = template.format(e=expression, i=level)
    return expression


def _blocks(header: str, depth: int, body: str = "x = 1") -> str:
    """``depth`` nested block statements, each opened by ``header`` (with ``{i}``)."""
    lines = [" " * level + header.format(i=level) for level in range(depth)]
    lines.append(" " * depth + body)
    return "\n".join(lines) + "\n"


def _try(depth: int, clause: str) -> str:
    """``depth`` nested ``try`` blocks, each closed by ``clause``."""
    opened = _blocks("try:", depth)
    closes = (" " * level + clause + "\n" + " " * (level + 1) + "pass\n" for level in range(depth))
    return opened + "".join(reversed(list(closes)))


def _pattern(template: str, depth: int) -> str:
    return f"match subject:\n    case {_wrap(template, depth, 'p')}:\n        pass\n"


NESTINGS: Final[dict[str, Callable[[int], str]]] = {
    # Unpacking targets: assignments, loops, comprehensions, with, chained targets.
    "tuple-target": lambda d: f"{_wrap('({e}, b{i})', d, 'a')} = value\n",
    "for-tuple-target": lambda d: f"for {_wrap('({e}, b{i})', d, 'a')} in items:\n    pass\n",
    "comprehension-tuple-target": lambda d: (
        f"r = [a for {_wrap('({e}, b{i})', d, 'a')} in items]\n"
    ),
    "chained-tuple-targets": lambda d: "(a, b) = " * d + "value\n",
    "nested-for-tuple": lambda d: _blocks("for (a{i}, b{i}) in items:", d),
    "nested-async-for-tuple": lambda d: _blocks("async for (a{i}, b{i}) in items:", d),
    "nested-with-tuple": lambda d: _blocks("with manager as (a{i}, b{i}):", d),
    "nested-async-with": lambda d: _blocks("async with manager as m{i}:", d),
    # Comprehensions, their iterables, and walrus targets inside them.
    "comprehension-in-element": lambda d: f"r = {_wrap('[{e} for x in y{i}]', d)}\n",
    "comprehension-in-iterable": lambda d: f"r = {_wrap('[x for x in {e}]', d, 'y')}\n",
    "async-comprehension-in-iterable": lambda d: (
        f"r = {_wrap('[x async for x in {e}]', d, 'y')}\n"
    ),
    "walrus-in-comprehension": lambda d: f"r = {_wrap('[(w{i} := {e}) for x in y]', d)}\n",
    "walrus-in-generator": lambda d: f"r = {_wrap('((w{i} := {e}) for x in y)', d)}\n",
    "walrus-in-lambda": lambda d: f"r = {_wrap('(lambda: (w{i} := {e}))', d, '1')}\n",
    "dict-comprehension": lambda d: f"r = {_wrap('{{k: {e} for k in y{i}}}', d)}\n",
    # Functions and classes.
    "lambda": lambda d: f"r = {_wrap('(lambda x{i}: {e})', d, '1')}\n",
    "functions": lambda d: _blocks("def f{i}(a{i}, *args, k{i}=1, **kw):", d, "return a0"),
    "async-functions": lambda d: _blocks("async def f{i}():", d, "return await g()"),
    "functions-with-global": lambda d: "total = 0\n"
    + "".join(
        " " * level + f"def f{level}():\n" + " " * (level + 1) + "global total\n"
        for level in range(d)
    )
    + " " * d
    + "total = 1\n",
    "classes": lambda d: _blocks("class C{i}:", d, "x = (a, b) = (1, 2)"),
    "decorators": lambda d: "".join(f"@decorator{i}\n" for i in range(d))
    + "def f():\n    pass\n",
    # Expressions.
    "subscript-chain": lambda d: "r = x" + "[key]" * d + "\n",
    "subscript-nested": lambda d: f"r = {_wrap('x[{e}]', d, 'key')}\n",
    "subscript-store": lambda d: "x" + "[key]" * d + " = 1\n",
    "attribute-chain": lambda d: "r = x" + ".a" * d + "\n",
    "guarded-attribute-chain": lambda d: "r = x" + ".format" * d + "\n",
    "attribute-store": lambda d: "x" + ".format" * d + ".a = 1\n",
    "calls": lambda d: f"r = {_wrap('f({e})', d)}\n",
    "starred-calls": lambda d: f"r = {_wrap('f(*{e}, **k)', d)}\n",
    "keyword-calls": lambda d: f"r = {_wrap('f(a={e})', d)}\n",
    "boolean-ops": lambda d: f"r = {_wrap('({e} and y or z)', d)}\n",
    "comparisons": lambda d: f"r = {_wrap('({e} < y == z)', d)}\n",
    "conditional-expressions": lambda d: f"r = {_wrap('({e} if c else d)', d)}\n",
    "binary-ops": lambda d: f"r = {_wrap('({e} + y * z)', d)}\n",
    "unary-ops": lambda d: "r = " + "-" * d + "x\n",
    "awaits": lambda d: f"r = {_wrap('(await f({e}))', d)}\n",
    "lists": lambda d: f"r = {_wrap('[{e}, 1]', d)}\n",
    "dicts": lambda d: "r = " + _wrap('{{"k": {e}}}', d) + "\n",
    "slices": lambda d: f"r = {_wrap('x[{e}:y:z]', d, 'key')}\n",
    "fstring-expression": lambda d: 'r = f"{' + _wrap("[{e}]", d) + '!r:>10}"\n',
    "fstring-fields": lambda d: 'r = f"' + "{x}{y!r}" * d + '"\n',
    "walrus": lambda d: f"r = {_wrap('(w{i} := {e})', d)}\n",
    "augmented-assignment": lambda d: "x" + "[key]" * d + " += 1\n",
    # Statements.
    "if": lambda d: _blocks("if x{i}:", d),
    "while": lambda d: _blocks("while x{i}:", d),
    "try-except": lambda d: _try(d, "except E:"),
    "try-finally": lambda d: _try(d, "finally:"),
    # Patterns.
    "match-or-patterns": lambda d: _pattern("([{e}] | {i})", d),
    "match-class-patterns": lambda d: _pattern("Point(x={e})", d),
    "match-sequence-patterns": lambda d: _pattern("[{e}, *rest{i}]", d),
    "match-mapping-patterns": lambda d: _pattern("{{'k': {e}}}", d),
    "match-as-patterns": lambda d: _pattern("([{e}] as n{i})", d),
    # Tool calls the pre-flight check reads.
    "tool-call-arguments": lambda d: f"r = await tools.search(query={_wrap('[{e}]', d)})\n",
    "tool-calls-in-calls": lambda d: (
        f"r = {_wrap('await tools.search(query={e})', d, '1')}\n"
    ),
}

#: Programs of ``width`` repeated parts at a fixed depth: the cost must grow
#: linearly with the width too.
WIDTHS: Final[dict[str, Callable[[int], str]]] = {
    "statements": lambda w: "x = (a, b) = y[0]\n" * w,
    "chained-targets-and-a-large-value": lambda w: "(a, b) = " * w + "[" + "1, " * w + "]\n",
    "functions": lambda w: "".join(f"def f{i}(a):\n    return a.b[0]\n" for i in range(w)),
    "tool-calls": lambda w: "await tools.search(query='q', limit=1)\n" * w,
    "unknown-tool-calls": lambda w: "await tools.serch(query='q')\n" * w,
}


class WalkBudgetExceeded(Exception):
    """The counted work passed its budget (raised from inside the walk, to stop it)."""


def count_nodes(source: str) -> int:
    """The number of nodes in ``source``'s syntax tree."""
    return sum(1 for _ in ast.walk(ast.parse(source)))


@contextlib.contextmanager
def counting_walks(budget: int) -> Iterator[list[int]]:
    """Count every step of every Python-level walk over a syntax tree.

    ``ast.walk``, ``ast.fix_missing_locations``, ``NodeVisitor.generic_visit``
    (and so RestrictedPython's transformer) and the policy's own scope walks all
    step through ``ast.iter_child_nodes`` or ``ast.iter_fields``; both are
    replaced by counting versions while the block runs. The count is in
    ``counter[0]``; past ``budget`` steps the walk is stopped with
    :class:`WalkBudgetExceeded`, so that work that grows too fast fails instead
    of running for minutes.
    """
    counter = [0]
    child_nodes, fields = ast.iter_child_nodes, ast.iter_fields

    def step() -> None:
        counter[0] += 1
        if counter[0] > budget:
            raise WalkBudgetExceeded(f"more than {budget} walk steps")

    def counted_child_nodes(node: ast.AST) -> Iterator[ast.AST]:
        step()
        return child_nodes(node)

    def counted_fields(node: ast.AST) -> Iterator[tuple[str, object]]:
        step()
        return fields(node)

    ast.iter_child_nodes, ast.iter_fields = counted_child_nodes, counted_fields
    try:
        yield counter
    finally:
        ast.iter_child_nodes, ast.iter_fields = child_nodes, fields
