"""The language policy: what a program may write, enforced on its syntax tree.

:class:`ProgramPolicy` is a RestrictedPython ``RestrictingNodeTransformer``
subclass. It keeps every refusal of the stock transformer (no ``_``-prefixed
names or attributes, no frame/code/generator internals, no ``exec``/``eval``,
no ``try/except*``, guarded subscripts, writes, iteration and unpacking) and
allows what models write: ``async def``/``await``/``async for``/``async with``,
``nonlocal``, ``match``, annotations, classes with a reviewed set of special
methods, and augmented assignment of attributes and items.

The attribute rule is the one place where this policy departs from the stock
rewrite, for speed (DESIGN.md §8): an attribute written in the source is
compiled to ``_getattr_(obj, name)`` only when the runtime guard could
decide anything about it - the reviewed dunders of :data:`READABLE_DUNDERS`
and the names in :data:`RUNTIME_CHECKED_ATTRIBUTES`. Every other name has
already passed the same checks the guard would make (not ``_``-prefixed, not
in :data:`BLOCKED_ATTRIBUTES`), so the guard would return ``getattr(obj,
name)`` unchanged and the load is left native. Dynamic names (``getattr(obj,
name)``) always go through the guard. Item reads follow the same reasoning:
the item guard refuses only ``_``-prefixed keys of class namespaces, so a
subscript whose key is a literal number, a literal string not starting with
``_``, or a slice, is left native; every other key goes through ``_getitem_``.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, Final, TypeAlias

from RestrictedPython.transformer import copy_locations

from ._attribute_names import (
    BLOCKED_ATTRIBUTES,
    DEFINABLE_DUNDERS,
    READABLE_DUNDERS,
    RESERVED_PRIVATE_ATTRIBUTES,
    RUNTIME_CHECKED_ATTRIBUTES,
    read_natively,
)
from ._hints import REFUSED_CALL_HINTS, UNAVAILABLE_BUILTINS, underscore_hint
from ._rewrites import LinearRewrites
from ._scopes import (
    argument_names,
    bound_anywhere,
    bound_names,
    declared_names,
    special_method_aliases,
    walk_scope,
)

if TYPE_CHECKING:
    from collections.abc import Iterable

__all__ = ["CAUGHT_GUARD", "UNAVAILABLE_NAME_GUARD", "ProgramPolicy"]

#: The guard a read of an unbound :data:`UNAVAILABLE_BUILTINS` name compiles
#: to: ``_unavailable_("open")`` (bound per run by ``sandbox._builtins``).
UNAVAILABLE_NAME_GUARD: Final = "_unavailable_"
#: The guard every ``except ... as name`` handler passes its exception through first.
CAUGHT_GUARD: Final = "_caught_"

_Visited: TypeAlias = "ast.AST | Iterable[ast.AST] | None"

_RESERVED_DUNDER: Final = (
    '"{name}" is an invalid name: names starting and ending with "__" belong to the runtime '
    "(a class body may define the reviewed special methods)"
)
_RESERVED_SUNDER: Final = (
    '"{name}" is an invalid name: names starting and ending with "_" belong to the runtime'
)

_MAIN_SCOPE: Final = "main"
_CLASS_SCOPE: Final = "class"
_FUNCTION_SCOPE: Final = "function"


class ProgramPolicy(LinearRewrites):
    """The RestrictedPython transformer with this project's policy.

    Its base is the stock transformer with linear-cost rewrites
    (:mod:`sandbox._rewrites`). New nodes get their own location only: the one
    ``ast.fix_missing_locations`` over the finished tree locates their children
    (locating each new node's whole subtree made nested expressions quadratic).

    Visit the statements of a program's body (the module's statements, which
    become the body of the async main function); errors are collected in
    ``self.errors`` as ``Line N: message``.
    """

    def __init__(self, errors: list[str], warnings: list[str], used_names: dict[str, bool]) -> None:
        super().__init__(errors, warnings, used_names)
        # Innermost last; the program body itself is the "main" function scope.
        self._scopes: list[str] = [_MAIN_SCOPE]
        # The names of the class statements being compiled, innermost last: a
        # private `__x` in their bodies is read as `_Class__x` (see _mangled).
        self._class_names: list[str] = []
        # Names bound directly in the main scope, and for each open function
        # scope the names it binds: `global x` inside a nested function is
        # rewritten to `nonlocal x` when `x` is one of the program's top-level
        # names, so that programs behave as the scripts they read as.
        self._main_bound: frozenset[str] = frozenset()
        self._main_globals: frozenset[str] = frozenset()
        self._function_bound: list[frozenset[str]] = []
        # The name nodes of the special-method aliases of class bodies
        # (`__str__ = __repr__`): checked by `special_method_aliases`.
        self._alias_names: set[int] = set()
        # The unavailable builtins the program binds nowhere (`visit_program`).
        self._unavailable: frozenset[str] = frozenset()

    def error(self, node: ast.AST, info: str) -> None:
        super().error(node, info + REFUSED_CALL_HINTS.get(info, ""))

    def gen_tmp_name(self) -> str:
        # The stock names (`_tmp0`, ...) relied on programs having no `_` names.
        # A temporary may be stored in a class namespace (`x = (a, b) = v` or
        # `with cm as (a, b):` in a class body), which can be library code: an
        # enum's refuses `_sunder_` names and makes a member of any other plain
        # name. A dunder is a name every namespace keeps as a plain entry, the
        # interpreter does not mangle, and a program cannot use.
        name = f"__codemode_tmp{self._tmp_idx}__"
        self._tmp_idx += 1
        return name

    # -- entry point ---------------------------------------------------------

    def visit_program(self, module: ast.Module) -> ast.Module:
        """Check and rewrite a parsed program (its module statements)."""
        self._main_bound = frozenset(bound_names(module.body))
        self._main_globals = frozenset(declared_names(module.body, ast.Global))
        self._unavailable = frozenset(UNAVAILABLE_BUILTINS) - bound_anywhere(module)
        result = self.visit(module)
        assert isinstance(result, ast.Module)
        return result

    def visit_Module(self, node: ast.Module) -> ast.AST:
        # No print collector: `print` is an ordinary builtin that the runtime
        # captures line by line.
        return self.node_contents_visit(node)

    # -- names -----------------------------------------------------------------

    def check_name(
        self, node: ast.AST, name: str | None, allow_magic_methods: bool = False
    ) -> None:
        """Refuse the names that belong to the runtime; the program's own ``_x`` names are fine.

        Refused: dunders (``__x__``) other than the special methods a class may
        define, names starting and ending with ``_`` (the guard functions'
        ``_getattr_``, ``_write_``, ...), names ending with ``__roles__``, and the
        blocked interpreter-internal names. ``_tmp``, ``_helper`` and private
        ``__x`` (mangled in classes as usual) are ordinary names.
        """
        if name is None:
            return
        if name.startswith("_") and name != "_":
            if name.startswith("__") and name.endswith("__"):
                if name in DEFINABLE_DUNDERS and self._scopes[-1] == _CLASS_SCOPE:
                    if allow_magic_methods:
                        return
                    if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                        what = (
                            f'"{name}" can be read in a class body only to alias it, after its '
                            f"def: `__str__ = __repr__`"
                        )
                    else:
                        what = (
                            f'"{name}" can be set in a class body only by `def {name}(self, ...)`,'
                            " as another special method defined above it (`__radd__ = __add__`)"
                            " or as a lambda"
                        )
                    self.error(
                        node,
                        f"{what}; to call one from another, write "
                        "`def __str__(self): return repr(self)`",
                    )
                    return
                hint = underscore_hint(name, attribute=False)
                self.error(node, _RESERVED_DUNDER.format(name=name) + hint)
            elif name.endswith("_"):
                hint = underscore_hint(name, attribute=False)
                self.error(node, _RESERVED_SUNDER.format(name=name) + hint)
            elif name in RESERVED_PRIVATE_ATTRIBUTES and self._scopes[-1] == _CLASS_SCOPE:
                # A class-body name becomes an attribute of the class and its instances.
                self.error(
                    node,
                    f'"{name}" is an invalid name in a class body: libraries read it on objects '
                    "they are given (it is reserved)",
                )
        elif name.endswith("__roles__"):
            self.error(node, f'"{name}" is an invalid name because it ends with "__roles__"')
        elif name in BLOCKED_ATTRIBUTES:
            self.error(node, f'"{name}" is a reserved name (it names interpreter internals)')

    def visit_Name(self, node: ast.Name) -> ast.AST:
        # Unlike the stock rewrite, `print` and `printed` are plain names.
        if node.id == "__name__" and isinstance(node.ctx, ast.Load):
            # A program is run as a script: `if __name__ == "__main__":` holds.
            return ast.copy_location(ast.Constant("__main__"), node)
        if not (
            node.id == "__slots__"
            and isinstance(node.ctx, ast.Store)
            and self._scopes[-1] == _CLASS_SCOPE
        ) and id(node) not in self._alias_names:
            self.check_name(node, node.id)
        if isinstance(node.ctx, ast.Load):
            self.used_names[node.id] = True
            if node.id in self._unavailable:
                # Not a builtin here and bound nowhere in the program: reading it
                # raises NameError, which `_unavailable_` raises with a hint.
                call = ast.Call(
                    func=ast.Name(UNAVAILABLE_NAME_GUARD, ast.Load()),
                    args=[ast.Constant(node.id)],
                    keywords=[],
                )
                return ast.copy_location(call, node)
        return node

    # -- attributes ------------------------------------------------------------

    def _check_attribute_name(
        self, node: ast.AST, attr: str, *, load: bool, native: bool = False
    ) -> bool:
        """Record an error for a refused attribute; return whether it is fine.

        ``native`` is for reads the interpreter makes without a guard (``match``
        patterns): there the program's own ``_x`` names are refused too, since
        nothing could check the object at run time.
        """
        if attr.startswith("_") and attr != "_":
            if attr.startswith("__") and attr.endswith("__"):
                if load and not native and attr in READABLE_DUNDERS | DEFINABLE_DUNDERS:
                    return True
                self.error(
                    node,
                    f'"{attr}" is an invalid attribute name because it starts with "_"'
                    + underscore_hint(attr),
                )
                return False
            if native:
                self.error(
                    node,
                    f'"{attr}" cannot be read by a pattern (names starting with "_" are '
                    f"checked at run time); read it with `subject.{attr}` instead",
                )
                return False
            if attr.endswith("_") or attr in RESERVED_PRIVATE_ATTRIBUTES:
                self.error(
                    node,
                    f'"{attr}" is an invalid attribute name because it starts with "_" '
                    "(it is reserved for the runtime and libraries)" + underscore_hint(attr),
                )
                return False
            return True
        if attr.endswith("__roles__"):
            self.error(
                node, f'"{attr}" is an invalid attribute name because it ends with "__roles__"'
            )
            return False
        if attr in BLOCKED_ATTRIBUTES:
            self.error(
                node, f'"{attr}" is a restricted attribute (it leads to interpreter internals)'
            )
            return False
        return True

    def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
        load = isinstance(node.ctx, ast.Load)
        self._check_attribute_name(node, node.attr, load=load)
        node = self.node_contents_visit(node)
        if _is_own_attribute(node.attr):
            # `obj._x` (read, written or deleted): `_own_(obj, "_x")._x`, and for a
            # write or delete `_own_(obj, "_x", True)._x`. The guard lets only the
            # program's own objects through (to a read, also a library namedtuple's
            # own API); the access itself stays native so that the compiler
            # mangles private `__x` names as usual.
            # The guard judges the name the interpreter will read: `__x` in a
            # class named C is `_C__x`, which a library base may define.
            args: list[ast.expr] = [node.value, ast.Constant(self._mangled(node.attr))]
            if not load:
                args.append(ast.Constant(True))
            own = ast.Call(func=ast.Name("_own_", ast.Load()), args=args, keywords=[])
            node.value = ast.copy_location(own, node.value)
            return node
        if load:
            if not read_natively(node.attr):
                call = ast.Call(
                    func=ast.Name("_getattr_", ast.Load()),
                    args=[node.value, ast.Constant(node.attr)],
                    keywords=[],
                )
                return ast.copy_location(call, node)
            return node
        wrapped = ast.Call(func=ast.Name("_write_", ast.Load()), args=[node.value], keywords=[])
        node.value = ast.copy_location(wrapped, node.value)
        return node

    def _mangled(self, attr: str) -> str:
        """``attr`` as the interpreter reads it here: private names are mangled in classes."""
        if not self._class_names or not attr.startswith("__") or attr.endswith("__"):
            return attr
        owner = self._class_names[-1].lstrip("_")
        return f"_{owner}{attr}" if owner else attr

    # -- subscripts ------------------------------------------------------------------

    def visit_Subscript(self, node: ast.Subscript) -> _Visited:
        if isinstance(node.ctx, ast.Load) and _is_plain_key(node.slice):
            return self.node_contents_visit(node)
        return super().visit_Subscript(node)

    # -- statements the stock transformer refuses or rewrites differently ------

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.AST:
        """Allow ``x += 1``, ``obj.a += 1`` and ``d[k] += 1``.

        A plain name stays native (there is nothing to guard). For an
        attribute or item target the object goes through ``_write_``, which
        refuses objects the program may not change; the read half of the
        operation then happens on that same object, whose attribute name was
        checked above and whose items the item guard would hand out anyway.
        """
        target = node.target
        if isinstance(target, ast.Subscript) and isinstance(target.slice, ast.Slice):
            self.error(
                node, "Augmented assignment of slices is not allowed; assign the slice instead."
            )
        if (
            isinstance(target, ast.Attribute)
            and not _is_own_attribute(target.attr)
            and not read_natively(target.attr)
        ):
            # The read half is native: it must be a name the guard would pass.
            self.error(
                node,
                f'"{target.attr}" cannot be updated in place (it is checked at run time); '
                f"write `x.{target.attr} = x.{target.attr} + value`",
            )
        return self.node_contents_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST:
        """Allow annotated assignments (``x: int = 1``, dataclass fields)."""
        return self.node_contents_visit(node)

    def visit_Nonlocal(self, node: ast.Nonlocal) -> ast.AST:
        for name in node.names:
            self.check_name(node, name)
        if self._scopes[-1] == _MAIN_SCOPE:
            # The compiler, seeing the body of the main function, would name a
            # binding of it instead ("no binding for nonlocal 'x' found").
            self.error(
                node,
                "SyntaxError: nonlocal declaration not allowed at module level; the program's "
                "top level reads and assigns its names directly: `nonlocal` belongs in a "
                "function nested in another",
            )
        return node

    def visit_Global(self, node: ast.Global) -> ast.AST:
        for name in node.names:
            self.check_name(node, name)
        if len(self._scopes) < 2:
            return node
        # Inside a nested scope: a top-level name of the program lives in the
        # main function, so `global` means `nonlocal` - unless a closer
        # function binds the name itself or the program declared it global.
        rewritten: list[str] = []
        kept: list[str] = []
        for name in node.names:
            if (
                name in self._main_bound
                and name not in self._main_globals
                and not any(name in bound for bound in self._function_bound)
            ):
                rewritten.append(name)
            else:
                kept.append(name)
        if not rewritten:
            return node
        out: list[ast.stmt] = [ast.copy_location(ast.Nonlocal(names=rewritten), node)]
        if kept:
            out.append(ast.copy_location(ast.Global(names=kept), node))
        return out  # type: ignore[return-value]

    def visit_For(self, node: ast.For) -> _Visited:
        return self.guard_iter(node)

    def visit_AsyncFor(self, node: ast.AsyncFor) -> ast.AST:
        """Allow ``async for``; its iterable goes through ``_getaiter_``."""
        node = self.node_contents_visit(node)
        node.iter = self._guard_async_iter(node.iter)
        if isinstance(node.target, ast.Tuple):
            tmp_target, unpack = self.gen_unpack_wrapper(node, node.target)
            node.target = tmp_target
            node.body.insert(0, unpack)
        return node

    def visit_comprehension(self, node: ast.comprehension) -> _Visited:
        if not node.is_async:
            return self.guard_iter(node)
        node = self.node_contents_visit(node)
        node.iter = self._guard_async_iter(node.iter)
        return node

    def visit_ListComp(self, node: ast.ListComp) -> _Visited:
        return self._unpack_async_items(super().visit_ListComp(node))

    def visit_SetComp(self, node: ast.SetComp) -> _Visited:
        return self._unpack_async_items(super().visit_SetComp(node))

    def visit_GeneratorExp(self, node: ast.GeneratorExp) -> _Visited:
        return self._unpack_async_items(super().visit_GeneratorExp(node))

    def visit_DictComp(self, node: ast.DictComp) -> _Visited:
        return self._unpack_async_items(super().visit_DictComp(node))

    def _unpack_async_items(self, node: _Visited) -> _Visited:
        """``async for a, b in x`` in a visited comprehension: bind each item whole, then unpack.

        Unpacking is guarded on the synchronous path (``_iter_unpack_sequence_``
        wraps the iterator), which has no async counterpart. So the clause
        becomes two: the async one binds the whole item to a name of the
        runtime's, and a clause over a one-item tuple unpacks it through the
        guard, with the async clause's conditions after it.
        """
        if not isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            return node
        clauses: list[ast.comprehension] = []
        for clause in node.generators:
            if not (clause.is_async and isinstance(clause.target, ast.Tuple)):
                clauses.append(clause)
                continue
            item = self.gen_tmp_name()
            whole = ast.comprehension(
                target=ast.Name(item, ast.Store()), iter=clause.iter, ifs=[], is_async=1
            )
            guarded = ast.Call(
                func=ast.Name("_iter_unpack_sequence_", ast.Load()),
                args=[
                    ast.Tuple([ast.Name(item, ast.Load())], ast.Load()),
                    self.gen_unpack_spec(clause.target),
                    ast.Name("_getiter_", ast.Load()),
                ],
                keywords=[],
            )
            unpack = ast.comprehension(
                target=clause.target, iter=guarded, ifs=clause.ifs, is_async=0
            )
            for made in (whole.target, guarded):
                copy_locations(made, clause.target)
            clauses += (whole, unpack)
        node.generators = clauses
        return node

    def _guard_async_iter(self, expr: ast.expr) -> ast.expr:
        call = ast.Call(func=ast.Name("_getaiter_", ast.Load()), args=[expr], keywords=[])
        return ast.copy_location(call, expr)

    def visit_AsyncWith(self, node: ast.AsyncWith) -> _Visited:
        """Allow ``async with``, unpacking its targets through the guard like ``with``."""
        return self.visit_With(node)  # type: ignore[arg-type]

    def visit_Await(self, node: ast.Await) -> ast.AST:
        return self.node_contents_visit(node)

    def visit_Yield(self, node: ast.Yield) -> ast.AST:
        self._check_yield_scope(node)
        return self.node_contents_visit(node)

    def visit_YieldFrom(self, node: ast.YieldFrom) -> ast.AST:
        self._check_yield_scope(node)
        return self.node_contents_visit(node)

    def _check_yield_scope(self, node: ast.AST) -> None:
        if self._scopes[-1] == _MAIN_SCOPE:
            self.error(
                node,
                "'yield' is only allowed inside a function; the program itself returns its value",
            )

    # -- functions and classes -----------------------------------------------------

    def _visit_function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
        self.check_name(node, node.name, allow_magic_methods=True)
        self.check_function_argument_names(node)
        scoped = declared_names(node.body, ast.Global) | declared_names(node.body, ast.Nonlocal)
        bound = (bound_names(node.body) | argument_names(node.args)) - scoped
        with self._scope(_FUNCTION_SCOPE, bound):
            return self.node_contents_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._visit_function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._visit_function(node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self.check_function_argument_names(node)
        with self._scope(_FUNCTION_SCOPE, argument_names(node.args)):
            return self.node_contents_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> ast.AST:
        """Allow classes; refuse ``metaclass=`` (a metaclass runs class creation)."""
        self.check_name(node, node.name)
        for keyword in node.keywords:
            if keyword.arg == "metaclass":
                self.error(node, 'The keyword argument "metaclass" is not allowed.')
        # Decorators, bases and keywords are evaluated in the enclosing scope.
        node.decorator_list = [self.visit(d) for d in node.decorator_list]
        node.bases = [self.visit(b) for b in node.bases]
        node.keywords = [self.visit(k) for k in node.keywords]
        self._check_slots(node)
        self._alias_names.update(special_method_aliases(node.body))
        self._class_names.append(node.name)
        try:
            with self._scope(_CLASS_SCOPE, None):
                body: list[ast.stmt] = []
                for stmt in node.body:
                    result = self.visit(stmt)
                    if isinstance(result, list):
                        body.extend(result)
                    elif result is not None:
                        body.append(result)
                node.body = body or [ast.copy_location(ast.Pass(), node)]
        finally:
            self._class_names.pop()
        return node

    def _check_slots(self, node: ast.ClassDef) -> None:
        """``__slots__`` only as ``__slots__ = ("a", "b")``: literal names the guard would allow.

        Each slot becomes a descriptor read natively by its name, so the names
        are checked here like attribute names, and only a literal is accepted
        (nothing computed at run time).
        """
        for stmt in node.body:
            binds = [
                n
                for n in walk_scope([stmt])
                if isinstance(n, ast.Name)
                and n.id == "__slots__"
                and not isinstance(n.ctx, ast.Load)
            ]
            if not binds:
                continue
            if not (
                isinstance(stmt, ast.Assign)
                and len(stmt.targets) == 1
                and isinstance(stmt.targets[0], ast.Name)
            ):
                self.error(
                    stmt, '"__slots__" may only be assigned a literal: __slots__ = ("a", "b")'
                )
                continue
            value = stmt.value
            items = value.elts if isinstance(value, ast.Tuple | ast.List) else [value]
            for item in items:
                if not (isinstance(item, ast.Constant) and type(item.value) is str):
                    self.error(stmt, '"__slots__" must list names as string literals')
                elif not item.value.isidentifier() or (
                    item.value.startswith("__") and item.value.endswith("__")
                ):
                    self.error(stmt, f"{item.value!r} is not allowed as a slot name")
                else:
                    self._check_attribute_name(stmt, item.value, load=False)

    def _scope(self, kind: str, bound: frozenset[str] | None) -> _ScopeGuard:
        return _ScopeGuard(self, kind, bound)

    def visit_TryStar(self, node: ast.AST) -> ast.AST:
        """Allow ``try``/``except*`` (what ``TaskGroup`` errors are caught with).

        The stock transformer refuses it for CVE-2025-22153: CPython trusts the
        ``split`` of the exception group it handles, and a subclass whose
        ``split`` returns anything but a pair corrupts memory. Program classes
        cannot derive from ``BaseExceptionGroup`` (``sandbox._classes``), so
        every group ``except*`` sees has the builtin ``split``.
        """
        return self.node_contents_visit(node)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> _Visited:
        """Bind an exception the handler names only once it is checked (``_caught_``).

        Library code fills the arguments of what it raises (``decimal`` puts a
        class no façade lists there), so ``except E as e`` becomes ``except E:``
        starting with ``e = _caught_()``, which reads the exception being
        handled, sweeps the classes in it and refuses a hidden one
        (``sandbox._library.handed_out``), then ``try: ... finally: e = None; del e``
        as the interpreter unbinds it. The interpreter never stores the
        unchecked exception under the program's name: the store may run library
        code that keeps the value (an enum class body's namespace keeps every
        name it is given as a member).
        """
        handler = super().visit_ExceptHandler(node)
        if isinstance(handler, ast.ExceptHandler) and handler.name:
            name = handler.name
            handler.name = None
            check = ast.Assign(
                targets=[ast.Name(name, ast.Store())],
                value=ast.Call(func=ast.Name(CAUGHT_GUARD, ast.Load()), args=[], keywords=[]),
            )
            unbind = [
                ast.Assign(targets=[ast.Name(name, ast.Store())], value=ast.Constant(None)),
                ast.Delete(targets=[ast.Name(name, ast.Del())]),
            ]
            body = ast.Try(body=handler.body, handlers=[], orelse=[], finalbody=unbind)
            for made in (check, body, *unbind):
                ast.copy_location(made, handler)
            handler.body = [check, body]
        return handler

    # -- match statements ----------------------------------------------------------

    def visit_Match(self, node: ast.Match) -> ast.AST:
        return self.node_contents_visit(node)

    def visit_match_case(self, node: ast.match_case) -> ast.AST:
        return self.node_contents_visit(node)

    def _check_dotted(self, node: ast.expr) -> None:
        """Check a dotted name in a pattern: the interpreter reads each step natively.

        Patterns cannot hold calls, so no guard can run: every step must be a
        name the guard would pass as is (:func:`read_natively`).
        """
        while isinstance(node, ast.Attribute):
            if (
                self._check_attribute_name(node, node.attr, load=False, native=True)
                and not read_natively(node.attr)
            ):
                self.error(
                    node,
                    f'"{node.attr}" cannot be used in a pattern (it is checked at run time); '
                    f"bind it first and compare in a guard: `case v if v == x.{node.attr}:`",
                )
            node = node.value
        if isinstance(node, ast.Name):
            self.check_name(node, node.id)
            self.used_names[node.id] = True
        else:
            self.error(node, "Patterns may only use names and dotted names here.")

    def visit_MatchValue(self, node: ast.MatchValue) -> ast.AST:
        if isinstance(node.value, ast.Attribute | ast.Name):
            self._check_dotted(node.value)
            return node
        return self.node_contents_visit(node)

    def visit_MatchSingleton(self, node: ast.MatchSingleton) -> ast.AST:
        return node

    def visit_MatchSequence(self, node: ast.MatchSequence) -> ast.AST:
        return self.node_contents_visit(node)

    def visit_MatchStar(self, node: ast.MatchStar) -> ast.AST:
        self.check_name(node, node.name)
        return node

    def visit_MatchMapping(self, node: ast.MatchMapping) -> ast.AST:
        for key in node.keys:
            if isinstance(key, ast.Attribute | ast.Name):
                self._check_dotted(key)
        node.patterns = [self.visit(p) for p in node.patterns]
        self.check_name(node, node.rest)
        return node

    def visit_MatchClass(self, node: ast.MatchClass) -> ast.AST:
        # Keyword patterns read attributes directly (no guard), so their
        # names get the same checks as attribute names in the source, and the
        # names the guard decides at run time (`format`, ...) are refused
        # outright. Positional sub-patterns read the names in the class's
        # `__match_args__`; the façades only create classes whose generated
        # `__match_args__` the guard would allow (see `readable_field_name`).
        self._check_dotted(node.cls)
        for attr in node.kwd_attrs:
            if self._check_attribute_name(node, attr, load=False, native=True) and (
                attr in RUNTIME_CHECKED_ATTRIBUTES
            ):
                self.error(
                    node,
                    f'"{attr}" cannot be read by a class pattern (it is checked at run time); '
                    f"read it with `subject.{attr}` instead",
                )
        node.patterns = [self.visit(p) for p in node.patterns]
        node.kwd_patterns = [self.visit(p) for p in node.kwd_patterns]
        return node

    def visit_MatchAs(self, node: ast.MatchAs) -> ast.AST:
        self.check_name(node, node.name)
        return self.node_contents_visit(node)

    def visit_MatchOr(self, node: ast.MatchOr) -> ast.AST:
        return self.node_contents_visit(node)

    # -- imports ---------------------------------------------------------------------

    def check_import_names(self, node: ast.ImportFrom | ast.Import) -> ast.AST:
        if isinstance(node, ast.ImportFrom):
            if node.module == "__future__":
                self.error(
                    node,
                    "'from __future__' imports must be the program's first lines (after its "
                    "docstring), and name only features Python 3.11 has, as in a script: "
                    "`from __future__ import annotations` at the top works",
                )
                return node
            if node.level:
                self.error(node, "Relative imports are not available in programs.")
        # A module's name is never the program's own, whatever rule 6 allows for
        # the name it binds: `import _strptime` names a module of the runtime's.
        modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
            alias.name for alias in node.names
        ]
        for module in modules:
            if any(part[:1] == "_" for part in module.split(".") if part):
                self.error(
                    node,
                    f'"{module}" is not available: modules whose names start with "_" are the '
                    "runtime's own; import the public module instead (datetime, json, ...)",
                )
                return node
        return super().check_import_names(node)


class _ScopeGuard:
    """Push a scope on entry and pop it on exit (a tiny context manager)."""

    def __init__(self, policy: ProgramPolicy, kind: str, bound: frozenset[str] | None) -> None:
        self._policy = policy
        self._kind = kind
        self._bound = bound

    def __enter__(self) -> None:
        self._policy._scopes.append(self._kind)
        if self._bound is not None:
            self._policy._function_bound.append(self._bound)

    def __exit__(self, *exc: object) -> None:
        self._policy._scopes.pop()
        if self._bound is not None:
            self._policy._function_bound.pop()




def _is_own_attribute(attr: str) -> bool:
    """``_x`` or private ``__x``: a name of the program's own (see ``_own_``)."""
    return attr[:1] == "_" and attr != "_" and not attr.endswith("_")


def _is_plain_key(key: ast.expr) -> bool:
    """A subscript key the item guard could not refuse on any object."""
    if isinstance(key, ast.Slice):
        return True
    if isinstance(key, ast.Constant):
        value = key.value
        return type(value) in (int, bool, float) or (type(value) is str and value[:1] != "_")
    if isinstance(key, ast.UnaryOp) and isinstance(key.op, ast.USub):
        return isinstance(key.operand, ast.Constant) and type(key.operand.value) is int
    return False
