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

from RestrictedPython.transformer import INSPECT_ATTRIBUTES, copy_locations

from ._rewrites import LinearRewrites

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator, Mapping

__all__ = [
    "BLOCKED_ATTRIBUTES",
    "CAUGHT_GUARD",
    "DEFINABLE_DUNDERS",
    "READABLE_DUNDERS",
    "RUNTIME_CHECKED_ATTRIBUTES",
    "UNAVAILABLE_BUILTINS",
    "UNAVAILABLE_NAME_GUARD",
    "UNDERSCORE_HINTS",
    "ProgramPolicy",
    "read_natively",
    "underscore_hint",
]

#: Attribute names without a leading ``_`` that still lead to interpreter
#: internals; refused in the source and by the ``getattr`` guard, and refused
#: as variable names too (a dataclass field or a ``match`` class pattern turns
#: a declared name into an attribute read).
BLOCKED_ATTRIBUTES: Final[frozenset[str]] = INSPECT_ATTRIBUTES | frozenset(
    {
        # Frames, tracebacks, generators, coroutines and async generators:
        # RestrictedPython's list (CVE-2023-37271 and 8.5's ag_* additions).
        # asyncio objects hand out their event loop (which can start
        # processes and open sockets), their coroutine (whose frame leads to
        # globals) and their stack of frames. The asyncio façade never hands
        # out a real Task or Future, so these names are a second line.
        "get_loop",
        "get_coro",
        "get_stack",
        "print_stack",
        # Code objects reached any other way: their constants hold nested code.
        "co_consts",
        "co_names",
        # A frame's generator (3.11+ frames).
        "f_generator",
    }
)

#: Methods that step a generator or coroutine by hand. On a coroutine, or an
#: awaitable a library hands out, stepping yields whatever it awaits - a real
#: future or task, the way to the event loop - so the guard allows them only on
#: the program's own generators and objects.
STEP_ATTRIBUTES: Final[frozenset[str]] = frozenset({"send", "throw"})

#: An async generator's stepping methods: they return awaitables that can be
#: stepped by hand, so the guard hands out coroutine wrappers instead.
ASYNC_STEP_ATTRIBUTES: Final[frozenset[str]] = frozenset({"asend", "athrow", "aclose"})

#: Attribute names without a leading ``_`` that the ``getattr`` guard decides at
#: run time, because the answer depends on the object.
RUNTIME_CHECKED_ATTRIBUTES: Final[frozenset[str]] = (
    STEP_ATTRIBUTES
    | ASYNC_STEP_ATTRIBUTES
    | frozenset(
    {
        # ``str.format``/``format_map`` walk attributes and items of their
        # arguments (CVE-2023-41039): the guard hands out a formatter that
        # walks through the guards instead.
        "format",
        "format_map",
        # ``AttributeError.obj`` holds the object whose lookup failed, which
        # may be a host object the program never had (CVE-2024-47532).
        "obj",
        # ``cls.mro()`` (and ``type.mro``, which typing's ``Type[...]`` forwards)
        # lists classes a program never otherwise sees: the real classes that a
        # façade replaces, such as the unchecked ``enum.Enum``. The guard hands
        # out a version that shows only classes the program may see.
        "mro",
        # ``ABC.register`` makes ``isinstance`` lie about program objects.
        "register",
    }
    )
)

#: Dunder attributes a program may read; the ``getattr`` guard applies the
#: conditions noted on each entry.
READABLE_DUNDERS: Final[frozenset[str]] = frozenset(
    {
        "__name__",  # a str; `type(e).__name__` is how programs name errors
        "__qualname__",  # a str
        "__doc__",  # a str or None
        "__class__",  # same as type(x); a metaclass is replaced by the safe `type`
        "__init__",  # only on `super()` objects and classes: `super().__init__(...)`
        "__cause__",  # an exception (or None): exception-chaining code reads it
        "__context__",  # likewise
        "__members__",  # an enum class's members by name: a dict copy (refused elsewhere)
    }
)

#: Attribute names starting with one ``_`` (and not ending with ``_``) are the
#: program's own: they work on the program's objects (instances of its classes
#: and the classes), checked at run time, and nowhere else. These few are
#: refused even there, because library code reads them on objects it is given,
#: so a program object carrying one would speak a library protocol: the asyncio
#: future protocol (a Task hands its wake-up callback to such an "future"),
#: typing's and abc's class markers.
RESERVED_PRIVATE_ATTRIBUTES: Final[frozenset[str]] = frozenset(
    {
        "_asyncio_future_blocking",
        "_is_coroutine",
        "_loop",
        "_is_protocol",
        "_is_runtime_protocol",
        "_abc_impl",
    }
)

#: The binary operators that have an in-place form (``x += y`` calls ``__iadd__``).
INPLACE_OPERATORS: Final[tuple[str, ...]] = (
    "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "pow",
    "and", "or", "xor", "lshift", "rshift",
)  # fmt: skip

#: Special methods a program may define in a class body (and call through
#: ``super()`` or on a class). Each one only ever runs the program's own,
#: restricted code. Deliberately absent: the pickling and copying hooks
#: (``__reduce__``, ``__reduce_ex__``, ``__getstate__``, ``__setstate__``,
#: ``__copy__``, ``__deepcopy__``) whose results the standard library applies
#: with unguarded ``setattr``; attribute hooks (``__getattr__``,
#: ``__getattribute__``, ``__setattr__``, ``__delattr__``); class-creation hooks
#: (``__init_subclass__``, ``__class_getitem__``, ``__set_name__``,
#: ``__mro_entries__``, ``__prepare__``); ``__new__``, ``__del__`` and
#: ``__format__``.
DEFINABLE_DUNDERS: Final[frozenset[str]] = frozenset(
    {
        "__init__",
        "__post_init__",  # dataclasses
        "__repr__",
        "__str__",
        "__hash__",
        "__bool__",
        "__len__",
        "__iter__",
        "__reversed__",  # reversed() calls it with no argument
        "__next__",
        "__aiter__",
        "__anext__",
        "__contains__",
        "__getitem__",
        "__setitem__",
        "__delitem__",
        "__missing__",  # dict subclasses: dict's own lookup calls it with the missing key
        "__call__",
        "__enter__",
        "__exit__",
        "__aenter__",
        "__aexit__",
        "__await__",
        # Comparisons.
        "__eq__",
        "__ne__",
        "__lt__",
        "__le__",
        "__gt__",
        "__ge__",
        # Arithmetic, reflected and in-place forms.
        *(
            f"__{prefix}{op}__"
            for op in (*INPLACE_OPERATORS, "divmod")
            for prefix in ("", "r", "i")
        ),
        "__neg__",
        "__pos__",
        "__abs__",
        "__invert__",
        "__int__",
        "__float__",
        "__index__",
        "__round__",
    }
)

#: The operators of the binary special methods, for the hints below.
_BINARY_OPERATORS: Final[Mapping[str, str]] = {
    "add": "+", "sub": "-", "mul": "*", "matmul": "@", "truediv": "/", "floordiv": "//",
    "mod": "%", "pow": "**", "and": "&", "or": "|", "xor": "^", "lshift": "<<", "rshift": ">>",
}  # fmt: skip

#: What to write instead of a refused underscore name that programs reach for.
#: Text only: each hint names the builtin, operator or façade function that
#: does the same through the guards.
UNDERSCORE_HINTS: Final[Mapping[str, str]] = {
    "__dict__": (
        "use vars(obj) for the attributes of the program's own objects (vars(self).update(kw) "
        "sets them)"
    ),
    "__members__": "use list(SomeEnum) for an enum's members, or SomeEnum[name] for one by name",
    "__annotations__": (
        "use dataclasses.fields(cls) for a dataclass's fields; for a TypedDict keep the key "
        'names in a tuple next to it: KEYS = ("id", "subject")'
    ),
    "__dataclass_fields__": "use dataclasses.fields(obj) for a dataclass's fields",
    "_value_": "use member.value",
    "_name_": "use member.name",
    "__file__": "programs have no file system; use the tools they are given",
    "__mro__": "use cls.mro() for a class and its bases in lookup order",
    "__slots__": "keep the names in a tuple of the program's own, next to the class",
    "__suppress_context__": "`raise ... from None` sets it; read error.__cause__ for the cause",
    "__notes__": (
        "notes are shown in the error's traceback; to read them back, keep them in a list "
        "next to the error (`notes.append(text)`), or in an attribute of your own exception "
        "class"
    ),
    "__wrapped__": (
        "keep a reference to the undecorated function: `raw = f` before decorating, or "
        "decorate by a call, `g = deco(f)`, and keep using f"
    ),
    "__required_keys__": (
        'keep the key names in a tuple next to the TypedDict: REQUIRED = ("id", "subject")'
    ),
    "__optional_keys__": (
        'keep the key names in a tuple next to the TypedDict: OPTIONAL = ("notes",)'
    ),
    "__total__": "keep the key names in tuples next to the TypedDict (REQUIRED, OPTIONAL)",
    "__bases__": "use cls.mro() for a class and its bases, or issubclass(cls, Base)",
    "__subclasses__": "a class's subclasses are not available; keep a list of the classes",
    "__module__": "every class and function of a program is in the program's own module",
    "__setattr__": (
        "a frozen dataclass cannot change its fields, even in __post_init__: normalise the "
        "values before constructing, in a @classmethod (`def of(cls, email, name): return "
        "cls(email.strip().casefold(), name.title())`), or drop frozen=True; elsewhere set "
        "attributes with obj.name = value or setattr(obj, name, value)"
    ),
    # Written, not read: a program reads these as they are.
    **dict.fromkeys(
        ("__name__", "__qualname__", "__doc__"),
        "to give a wrapper the name and docstring of the function it wraps, decorate it with "
        "@functools.wraps(f)",
    ),
    "__init__": "call super().__init__(...) in a subclass, or ClassName(...) for a new object",
    "__repr__": "use repr(x)",
    "__str__": "use str(x)",
    "__len__": "use len(x); as a key function, len itself (key=len)",
    "__hash__": "use hash(x)",
    "__bool__": "use bool(x)",
    "__iter__": "use iter(x)",
    "__next__": "use next(x)",
    "__aiter__": "use aiter(x)",
    "__anext__": "use await anext(x)",
    "__contains__": "use `item in x`; as a function, lambda item: item in x",
    "__getitem__": "use x[key]; as a key function, x.get or lambda k: x[k]",
    "__setitem__": "use x[key] = value",
    "__delitem__": "use del x[key]",
    "__missing__": "use x[key] or x.get(key)",
    "__call__": "call x(...) directly",
    "__enter__": "use `with x:`",
    "__exit__": "use `with x:`",
    "__aenter__": "use `async with x:`",
    "__aexit__": "use `async with x:`",
    "__await__": "use await x",
    "__eq__": "use x == y",
    "__ne__": "use x != y",
    "__lt__": "use x < y",
    "__le__": "use x <= y",
    "__gt__": "use x > y",
    "__ge__": "use x >= y",
    "__neg__": "use -x",
    "__pos__": "use +x",
    "__abs__": "use abs(x)",
    "__invert__": "use ~x",
    "__int__": "use int(x)",
    "__float__": "use float(x)",
    "__index__": "use operator.index(x)",
    "__round__": "use round(x)",
    "__divmod__": "use divmod(x, y)",
    "__rdivmod__": "use divmod(y, x)",
    **{f"__{op}__": f"use x {sign} y" for op, sign in _BINARY_OPERATORS.items()},
    **{f"__r{op}__": f"use y {sign} x" for op, sign in _BINARY_OPERATORS.items()},
    **{f"__i{op}__": f"use x {sign}= y" for op, sign in _BINARY_OPERATORS.items()},
}


#: The same for refused variable names, and for special methods a class body may not define.
_NAME_HINTS: Final[Mapping[str, str]] = {
    "__import__": "use an import statement (`import json`) for the allowed modules",
    "__file__": "programs have no file system; use the tools they are given",
    "__getattr__": (
        "for attribute access to a dict use types.SimpleNamespace(**d) (convert nested dicts "
        'too), or keep d["key"]; otherwise give the class the attributes it needs'
    ),
    "__getattribute__": "give the class the attributes it needs",
    "__setattr__": (
        "set attributes in __init__ or in methods, or use @property with a setter; for a "
        "dict with attribute access use types.SimpleNamespace(**d)"
    ),
    "__format__": (
        "give the class a method that returns the text (such as formatted(spec)), or format "
        "its fields in an f-string"
    ),
    "__new__": "build instances in __init__, or in a @classmethod that returns cls(...)",
    "__init_subclass__": "register subclasses with a class decorator that returns the class",
    "__set_name__": "use @property, or pass the name to the object that needs it",
    "__get__": "use @property (or functools.cached_property) for computed attributes",
    "__set__": "use @property with a setter",
    "__delete__": "use @property with a deleter",
    "__match_args__": (
        "a @dataclass or NamedTuple makes __match_args__ from its fields, or match by keyword: "
        "`case Point(x=0, y=y)`"
    ),
    "__class_getitem__": "derive from typing.Generic[T] for a class that takes type parameters",
    "__del__": "use a `with` block (__enter__ and __exit__) for clean-up",
    "_missing_": (
        "an enum cannot define hooks; look values up in a @classmethod of your own: "
        "`def parse(cls, value): return next((m for m in cls if m.value == value), cls.DEFAULT)`"
    ),
    "_generate_next_value_": (
        "an enum cannot define hooks; give the members explicit values, or auto()"
    ),
    "_ignore_": "an enum cannot define hooks; keep helper names outside the enum's class body",
}


#: Builtins a program has not got, with what to do instead. A program that
#: reads one of these names and binds it nowhere gets a ``NameError`` saying so
#: (see ``UNAVAILABLE_NAME_GUARD``), instead of a bare "not defined".
UNAVAILABLE_BUILTINS: Final[Mapping[str, str]] = {
    "open": "programs have no file system; use the tools they are given",
    "input": "programs run with no one to ask; take data from the tools they are given",
    "exit": "to end the program, return its value at the top level (`return value`)",
    "quit": "to end the program, return its value at the top level (`return value`)",
    "locals": "the program's namespace is not available; pass values explicitly",
    "globals": "the program's namespace is not available; pass values explicitly",
    "help": "interactive help is not available; dir(x) lists an object's names",
    "breakpoint": "there is no debugger; print() the values to see them",
    "compile": "programs cannot make code; write the code in the program itself",
    "eval": "parse data with json.loads, int() or float(); write code in the program itself",
    "exec": "write the code in the program itself",
    "memoryview": "raw buffers are not available; use bytes or bytearray",
}

#: The guard a read of an unbound :data:`UNAVAILABLE_BUILTINS` name compiles
#: to: ``_unavailable_("open")`` (bound per run by ``sandbox._builtins``).
UNAVAILABLE_NAME_GUARD: Final = "_unavailable_"
#: The guard every ``except ... as name`` handler passes its exception through first.
CAUGHT_GUARD: Final = "_caught_"

#: RestrictedPython's refusals of ``exec``/``eval`` calls, with the same hints.
_REFUSED_CALL_HINTS: Final[Mapping[str, str]] = {
    "Exec calls are not allowed.": f" ({UNAVAILABLE_BUILTINS['exec']})",
    "Eval calls are not allowed.": f" ({UNAVAILABLE_BUILTINS['eval']})",
}


def underscore_hint(name: str, *, attribute: bool = True) -> str:
    """``"; <what to write instead>"`` for a refused name with a hint, else ``""``."""
    hint = (UNDERSCORE_HINTS if attribute else _NAME_HINTS).get(name)
    return "" if hint is None else f"; {hint}"


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
        # (`__str__ = __repr__`): checked by `_special_method_aliases`.
        self._alias_names: set[int] = set()
        # The unavailable builtins the program binds nowhere (`visit_program`).
        self._unavailable: frozenset[str] = frozenset()

    def error(self, node: ast.AST, info: str) -> None:
        super().error(node, info + _REFUSED_CALL_HINTS.get(info, ""))

    def gen_tmp_name(self) -> str:
        # The stock names (`_tmp0`, ...) relied on programs having no `_` names;
        # a name ending with "_" is one a program cannot use.
        name = f"_codemode_tmp{self._tmp_idx}_"
        self._tmp_idx += 1
        return name

    # -- entry point ---------------------------------------------------------

    def visit_program(self, module: ast.Module) -> ast.Module:
        """Check and rewrite a parsed program (its module statements)."""
        self._main_bound = frozenset(_bound_names(module.body))
        self._main_globals = frozenset(_declared(module.body, ast.Global))
        self._unavailable = frozenset(UNAVAILABLE_BUILTINS) - _bound_anywhere(module)
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
        declared = _declared(node.body, ast.Global) | _declared(node.body, ast.Nonlocal)
        bound = (_bound_names(node.body) | _argument_names(node.args)) - declared
        with self._scope(_FUNCTION_SCOPE, bound):
            return self.node_contents_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return self._visit_function(node)

    def visit_AsyncFunctionDef(self, node: ast.AsyncFunctionDef) -> ast.AST:
        return self._visit_function(node)

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        self.check_function_argument_names(node)
        with self._scope(_FUNCTION_SCOPE, _argument_names(node.args)):
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
        self._alias_names.update(_special_method_aliases(node.body))
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
                for n in _walk_scope([stmt])
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
        class no façade lists there): ``except E as e`` starts with
        ``e = _caught_(e)``, which sweeps the classes in it and refuses a hidden
        one (``sandbox._library.caught``).
        """
        handler = super().visit_ExceptHandler(node)
        if isinstance(handler, ast.ExceptHandler) and handler.name:
            check = ast.Assign(
                targets=[ast.Name(handler.name, ast.Store())],
                value=ast.Call(
                    func=ast.Name(CAUGHT_GUARD, ast.Load()),
                    args=[ast.Name(handler.name, ast.Load())],
                    keywords=[],
                ),
            )
            handler.body.insert(0, ast.copy_location(check, handler))
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
                    "'from __future__' imports are not available in programs; remove the line "
                    "(programs run as the Python 3.11 they are written in)",
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


def _argument_names(args: ast.arguments) -> frozenset[str]:
    names = [a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)]
    if args.vararg:
        names.append(args.vararg.arg)
    if args.kwarg:
        names.append(args.kwarg.arg)
    return frozenset(names)


def _walk_scope(body: list[ast.stmt]) -> Iterator[ast.AST]:
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


def _bound_names(body: list[ast.stmt]) -> frozenset[str]:
    """Names a block of statements binds in its own scope."""
    names: set[str] = set()
    for node in _walk_scope(body):
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


def _bound_anywhere(module: ast.Module) -> frozenset[str]:
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


def _declared(body: list[ast.stmt], kind: type[ast.Global] | type[ast.Nonlocal]) -> frozenset[str]:
    return frozenset(
        name for node in _walk_scope(body) if isinstance(node, kind) for name in node.names
    )


def _special_method_aliases(body: list[ast.stmt]) -> Iterator[int]:
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


def read_natively(attr: str) -> bool:
    """Whether the interpreter may read ``attr`` with no guard: the guard would pass it as is.

    One rule for every construct the compiler turns into an attribute read:
    an attribute in an expression, the read half of ``obj.attr += v``, a
    dotted name in a ``match`` pattern. A ``_`` name, a blocked one or one the
    guard decides at run time (:data:`RUNTIME_CHECKED_ATTRIBUTES`) is not.
    """
    return not (
        attr[:1] == "_"
        or attr in RUNTIME_CHECKED_ATTRIBUTES
        or attr in BLOCKED_ATTRIBUTES
        or attr.endswith("__roles__")
    )


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
