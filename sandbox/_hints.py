"""What to write instead: the hints a refusal of a name carries.

Text only. Each hint names the builtin, operator, façade function or pattern
that does what the refused name was reached for, through the guards; the
policy (:mod:`sandbox._policy`) and the runtime guards add them to their
refusals, and the builtins (:mod:`sandbox._builtins`) to the ``NameError`` of
a builtin a program has not got.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from collections.abc import Mapping

__all__ = ["REFUSED_CALL_HINTS", "UNAVAILABLE_BUILTINS", "UNDERSCORE_HINTS", "underscore_hint"]

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
    "__traceback__": (
        "an exception the program does not catch comes back with its traceback; str(e) or "
        "repr(e) give its text, and type(e).__name__ its class's name"
    ),
    "__match_args__": (
        "it is readable on the program's own classes (a @dataclass, NamedTuple or namedtuple); "
        "for another class use C._fields for a namedtuple, or "
        "[f.name for f in dataclasses.fields(C)] for a dataclass"
    ),
    "_value2member_map_": (
        "use SomeEnum(value) for the member with that value, or "
        "{m.value: m for m in SomeEnum} for the mapping"
    ),
    "_member_map_": "use SomeEnum[name] for a member by name, or SomeEnum.__members__ (a dict)",
    "_member_names_": "use [m.name for m in SomeEnum]",
    "__module__": "every class and function of a program is in the program's own module",
    "__setattr__": (
        "only object.__setattr__ can be read: in a frozen dataclass's __post_init__ write "
        "object.__setattr__(self, name, value); elsewhere set attributes with "
        "obj.name = value or setattr(obj, name, value)"
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
    "__getitem__": "use x[key]; as a key function, lambda k: x[k] (d.get for a dict)",
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
    **dict.fromkeys(
        ("__copy__", "__deepcopy__"),
        "copy.copy and copy.deepcopy already copy a program object's attributes (deepcopy "
        "copies what they hold too); for a copy of your own, write a method: "
        "`def clone(self): return Order(self.id, list(self.lines))`",
    ),
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
    **dict.fromkeys(
        ("locals", "globals"),
        "the program's namespace is not available; name the values instead: an f-string "
        "(f\"{city}: {temp:.1f}\"), str.format with keywords (template.format(city=city, "
        "temp=temp)) or a dict of them (template.format_map({\"city\": city})); vars(obj) "
        "gives the attributes of the program's own objects",
    ),
    "help": "interactive help is not available; dir(x) lists an object's names",
    "breakpoint": "there is no debugger; print() the values to see them",
    "compile": "programs cannot make code; write the code in the program itself",
    "eval": "parse data with json.loads, int() or float(); write code in the program itself",
    "exec": "write the code in the program itself",
    "memoryview": "raw buffers are not available; use bytes or bytearray",
}

#: How the policy refuses setting a special method in a class body other than by
#: ``def``, a lambda or an alias of one defined above (``sandbox._policy``).
_SET_IN_CLASS_BODY: Final = (
    '"{name}" can be set in a class body only by `def {name}(self, ...)`, as another special '
    "method defined above it (`__radd__ = __add__`) or as a lambda; to call one from another, "
    "write `def __str__(self): return repr(self)`"
)

#: Refusals written in full by RestrictedPython or the policy, with what to
#: write instead, keyed by the whole refusal: ``exec``/``eval`` calls (the same
#: hints as the builtins'), and ``__hash__ = Base.__hash__``, the idiom that
#: keeps a subclass overriding ``__eq__`` hashable.
REFUSED_CALL_HINTS: Final[Mapping[str, str]] = {
    "Exec calls are not allowed.": f" ({UNAVAILABLE_BUILTINS['exec']})",
    'The keyword argument "metaclass" is not allowed.': (
        " A class takes the metaclass of its bases: for ABCMeta derive from abc.ABC "
        "(`from abc import ABC, abstractmethod`, then `class Base(ABC):`), for EnumMeta from "
        "enum.Enum (`class Color(Enum):`); other metaclasses are not available."
    ),
    "Eval calls are not allowed.": f" ({UNAVAILABLE_BUILTINS['eval']})",
    _SET_IN_CLASS_BODY.format(name="__hash__"): (
        "; to keep a subclass that overrides __eq__ hashable as its base hashes, write "
        "`def __hash__(self): return super().__hash__()`"
    ),
}


def underscore_hint(name: str, *, attribute: bool = True) -> str:
    """``"; <what to write instead>"`` for a refused name with a hint, else ``""``."""
    hint = (UNDERSCORE_HINTS if attribute else _NAME_HINTS).get(name)
    return "" if hint is None else f"; {hint}"
