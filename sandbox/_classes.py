"""Program classes: which bases a program may build on, and the checks on what it builds.

Library code that a program's class inherits runs with the program's objects
in hand: a base's ``__init_subclass__``, a metaclass's ``__new__``, a
descriptor that reads ``getattr(instance, self.name)`` after the program set
``self.name``, a dataclass that copies field objects from a base after the
program changed them. Auditing every class of every allowed module for such
readers is not a rule that stays true, so the rule here is structural:

* A program class may derive only from **inert bases** (:data:`INERT_BASES`,
  each with the reason it is inert) and from other program classes. An inert
  base is a class whose code, C or Python, reads only fixed names of the
  objects it is given: never a name held in a field the program can set.
* Its metaclass must be one of :data:`ALLOWED_METACLASSES`. With the bases
  above no other can arise; the check after creation says so explicitly. No
  program class can have ``type`` (or any metaclass) among its bases, which
  would make it a class factory: three-argument ``type()`` under another name.
* Class keywords (which reach the bases' ``__init_subclass__`` and the
  metaclass) are refused, except ``total=`` for ``TypedDict``.
* Every class a program creates, by a ``class`` statement or through a façade
  that builds classes (the enum functional API, ``dataclass(slots=True)``), is
  checked after creation and recorded (``sandbox._program``, whose
  ``is_program_class`` answers from that record, never from a name such as
  ``__module__`` that library code can be asked to set).

This module runs in the child.
"""

from __future__ import annotations

import abc
import asyncio
import builtins
import collections
import collections.abc
import dataclasses
import datetime
import decimal
import json
import keyword
import re
import statistics
import string
import sys
import types
import typing
import unicodedata
from typing import TYPE_CHECKING, Any, Final, final

from ._attribute_names import BLOCKED_ATTRIBUTES, DEFINABLE_DUNDERS, RUNTIME_CHECKED_ATTRIBUTES
from ._compile import MAIN_NAME
from ._program import (
    MODEL_MODULE,
    PROGRAM_CLASS_MODULE,
    classes_being_made,
    is_program_function,
    is_recorded_program_class,
    real_mro,
    record_own_special_methods,
    record_program_class,
)
from ._shield import EXIT_METHODS, SHIELDED_METHODS, revealing_exit, shielded

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "ALLOWED_METACLASSES",
    "INERT_BASES",
    "build_class",
    "check_new_class",
    "has_text_signature",
    "inert_base",
    "inherited_shields",
    "install_program_module",
    "readable_field_name",
    "register_program_class",
]


def _exceptions(*modules: object) -> dict[type, str]:
    reason = (
        "an exception class: BaseException's C slots plus, for library exceptions, an __init__ "
        "or __str__ that reads fixed names only"
    )
    found: dict[type, str] = {}
    for module in modules:
        for value in vars(module).values():
            if (
                isinstance(value, type)
                and issubclass(value, BaseException)
                # Not inert: `except*` trusts a group's split() and derive(); a
                # subclass returning anything else corrupts memory in CPython
                # (CVE-2025-22153). The builtin groups are used as they are.
                and not issubclass(value, BaseExceptionGroup)
            ):
                found[value] = reason
    return found


_LIBRARY_EXCEPTIONS: Final = (
    json.JSONDecodeError,
    re.error,
    statistics.StatisticsError,
    dataclasses.FrozenInstanceError,
    asyncio.CancelledError,
    asyncio.InvalidStateError,
    asyncio.QueueEmpty,
    asyncio.QueueFull,
    decimal.DecimalException,
    decimal.InvalidOperation,
    decimal.DivisionByZero,
    decimal.Inexact,
    decimal.Rounded,
    decimal.Subnormal,
    decimal.Overflow,
    decimal.Underflow,
    decimal.Clamped,
    decimal.FloatOperation,
)

_DATA = "a built-in data type: its C code reads only fixed slots and special methods"
_ABC = (
    "an abstract base class of collections.abc: its mixin methods call fixed special "
    "methods (__getitem__, __iter__, __len__, ...) and its __subclasshook__ reads fixed names"
)
_TYPING = "typing's class machinery: reads fixed names (__orig_bases__, __parameters__) only"


_TYPED_DICT: Final[type] = typing.TypedDict.__mro_entries__(())[0]  # type: ignore[attr-defined]

#: Classes a program class may name as a base, each with the reason it is inert.
#: Façade modules add their own classes with :func:`inert_base` when imported.
INERT_BASES: Final[dict[type, str]] = {
    builtins.object: "the root class: its slots read nothing by name",
    **_exceptions(builtins),
    **dict.fromkeys(_LIBRARY_EXCEPTIONS, "a library exception exposed by a façade; fixed names"),
    int: _DATA,
    float: _DATA,
    complex: _DATA,
    str: _DATA,
    bytes: _DATA,
    list: _DATA,
    tuple: _DATA,
    dict: _DATA,
    set: _DATA,
    frozenset: _DATA,
    collections.OrderedDict: _DATA,
    collections.defaultdict: _DATA,
    collections.Counter: "a dict subclass whose Python methods read fixed names only",
    collections.deque: _DATA,
    collections.UserDict: (
        "Python code over self.data, fixed names only; copy() of a subclass runs the real "
        "copy.copy, which reads only special names a program class cannot define "
        "(__reduce_ex__, __copy__, __setstate__) and rebuilds it from its __dict__"
    ),
    collections.UserList: "Python code over self.data, fixed names only",
    collections.ChainMap: "Python code over self.maps, fixed names only",
    **{
        getattr(collections.abc, name): _ABC
        for name in (
            "Awaitable", "Coroutine", "AsyncIterable", "AsyncIterator", "AsyncGenerator",
            "Hashable", "Iterable", "Iterator", "Generator", "Reversible", "Sized", "Container",
            "Callable", "Collection", "Set", "MutableSet", "Mapping", "MutableMapping",
            "Sequence", "MutableSequence",
        )
    },
    typing.Generic: _TYPING,
    typing.Protocol: _TYPING + "; isinstance against it is refused (not runtime_checkable)",
    # `class Movie(TypedDict)` resolves to this base; the metaclass builds a plain
    # dict subclass from the annotations, which are only stored.
    _TYPED_DICT: "typing's TypedDict: the metaclass only stores the annotations",
    datetime.tzinfo: "C code calls utcoffset/dst/tzname, fixed names",
    abc.ABC: "a plain class with ABCMeta: abstract-method checks read fixed names",
    # `class P(NamedTuple)` resolves to this base; its metaclass makes a
    # collections.namedtuple from the annotations (compiler-checked names) and
    # copies the class body's attributes onto it; the result is checked after.
    typing.NamedTuple.__mro_entries__((typing.NamedTuple,))[0]: (  # type: ignore[attr-defined]
        "typing's NamedTuple: a namedtuple from the class body's checked names"
    ),
    json.JSONEncoder: "calls self.default and reads fixed options only",
    json.JSONDecoder: "reads fixed options (object_hook, parse_float, ...) only",
    string.Template: "its __init_subclass__ reads the fixed names pattern, delimiter, idpattern",
}

#: The metaclasses a program class may end up with (derived from its bases);
#: :func:`inert_base` adds the metaclass of a façade's class.
ALLOWED_METACLASSES: Final[set[type]] = {
    type,
    abc.ABCMeta,
    type(typing.Protocol),
    type(_TYPED_DICT),
}

#: Class keywords a metaclass may receive, by metaclass.
_CLASS_KEYWORDS: Final[Mapping[type, frozenset[str]]] = {type(_TYPED_DICT): frozenset({"total"})}


def inert_base(reason: str) -> Callable[[type], type]:
    """Declare a façade's class an inert base (and allow its metaclass), with the reason."""

    def declare(cls: type) -> type:
        INERT_BASES[cls] = reason
        ALLOWED_METACLASSES.add(type(cls))
        return cls

    return declare


def readable_field_name(name: object) -> bool:
    """Whether ``name`` may name a field of a class the program makes.

    Class patterns in ``match`` read the attributes a class lists in
    ``__match_args__`` natively, past the guard; and ``abc`` registration can
    make any object (a generator, a frame) match a program class. So every
    class a program can create with generated ``__match_args__`` (namedtuples,
    dataclasses) may only name attributes the guard would hand out anyway.

    And ``dataclasses`` writes each field's name into the text of the methods
    it generates and runs: a name that is not a plain identifier (a
    ``TypedDict`` key such as ``"a)\n  import os"``) would be code. So a field
    name is an identifier, not a keyword, or nothing is made of it. The code
    reads an identifier as NFKC-normalised (``ｆｏｒｍａｔ`` is ``format`` there),
    so the name is judged as the code will read it, and must be that already.
    """
    return (
        type(name) is str
        and name.isidentifier()
        and unicodedata.normalize("NFKC", name) == name
        and not keyword.iskeyword(name)
        and name[:1] != "_"
        and not name.endswith("__roles__")
        and name not in BLOCKED_ATTRIBUTES
        and name not in RUNTIME_CHECKED_ATTRIBUTES
    )


@final
class _ProgramModuleStandIn:
    """What ``sys.modules`` holds under :data:`MODEL_MODULE` in a child.

    ``dataclasses`` looks up the module of the class it decorates: for a quoted
    annotation (``reports: "list[Node]"``) it reads the module's ``__dict__``,
    and for the methods it generates it takes that dict as their globals. The
    program has no module; this stand-in answers a fresh namespace each time,
    with no ``__name__`` of the program's, whose builtins are the program's
    own: given an empty one, ``exec`` would add the real builtins, and the
    generated methods run text made from what the program wrote.

    It also holds ``ClassVar``, ``InitVar`` and ``KW_ONLY``, which a program may
    import anyway: a quoted ``"ClassVar[int]"`` is a class attribute, not a
    field (and a quoted ``"KW_ONLY"`` the marker, as every annotation is under
    ``from __future__ import annotations``), only when dataclasses finds that
    name in the module (no module objects here; ``safe_dataclass`` unqualifies
    ``"typing.ClassVar[...]"`` and ``"dataclasses.KW_ONLY"``).
    """

    __slots__ = ("_builtins",)

    def __init__(self, builtins: Mapping[str, object]) -> None:
        self._builtins = builtins

    @property
    def __dict__(self) -> dict[str, object]:  # type: ignore[override]
        return {
            "__builtins__": dict(self._builtins),
            "ClassVar": typing.ClassVar,
            "InitVar": dataclasses.InitVar,
            "KW_ONLY": dataclasses.KW_ONLY,
        }


def install_program_module(builtins: Mapping[str, object]) -> None:
    """Put the stand-in for the program's module in ``sys.modules`` (the child does, once).

    Under :data:`MODEL_MODULE` and under :data:`PROGRAM_CLASS_MODULE`
    (``__main__``), the module of the program's classes: the process's own
    ``__main__`` (the zygote's, with the real builtins) is never what
    ``dataclasses`` finds for a program class. ``builtins`` are what code
    generated in that module sees: the program's.
    """
    stand_in = _ProgramModuleStandIn(builtins)
    sys.modules.setdefault(MODEL_MODULE, stand_in)  # type: ignore[arg-type]
    sys.modules[PROGRAM_CLASS_MODULE] = stand_in  # type: ignore[assignment]


def register_program_class(cls: type) -> type:
    """Check a class that a façade built for the program, then record it as the program's."""
    check_new_class(cls)
    _shield_inherited(cls)
    record_program_class(cls)
    return cls


#: Class -> the inherited special methods :func:`_shield_inherited` wrapped on it.
_inherited_shields: dict[type, dict[str, object]] = {}


def _shield_inherited(cls: type) -> None:
    """Shield the special methods ``cls`` inherits from library classes, as its own are (rule 8).

    A library base's special method runs with the library's operand and may
    hand it on to the program's code by name: ``UserList.__eq__`` calls
    ``self.__cast(other)``, which a program subclass defines; ``OrderedDict``'s
    ``|`` calls ``type(self)(other)``. So every operand-taking special method
    a program class has is entered through the shield, wherever it is defined.
    The builtin types' own C methods (``int``, ``str``, ``tuple``, ``dict``,
    ...) call no method of the program's with their operand, and are left as
    they are (their speed matters to programs that derive from them).
    """
    shields: dict[str, object] = {}
    for name in SHIELDED_METHODS:
        if name in cls.__dict__:
            continue
        for klass in real_mro(cls)[1:]:
            if name in klass.__dict__:
                method = klass.__dict__[name]
                if (
                    method is not None
                    and not is_recorded_program_class(klass)
                    and klass.__module__ != "builtins"
                ):
                    shields[name] = shielded(name, method)
                break
    for name, shield in shields.items():
        type.__setattr__(cls, name, shield)
    if shields:
        _inherited_shields[cls] = shields


def inherited_shields(cls: type) -> frozenset[str]:
    """The special methods ``cls`` inherits from a library class, shielded on it."""
    return frozenset(_inherited_shields.get(cls, ()))


def _refuse_base(base: object) -> TypeError:
    label = getattr(base, "__qualname__", None)
    if type(label) is not str:
        label = type(base).__qualname__ + " object"
    if label == "ToolCallError":
        instead = "; to add to a tool's error, raise an exception of your own `from` it"
    elif isinstance(base, type) and issubclass(base, BaseExceptionGroup):
        # `except*` trusts a group's split() and derive(): only the builtin groups are used.
        instead = (
            "; raise a plain ExceptionGroup(message, errors) and tell groups apart by their "
            "message or by the exceptions inside (`except* MyError`)"
        )
    elif isinstance(base, type):
        # A library class (a date, a Decimal): the usual aim is its values with more methods.
        instead = (
            "; wrap the value in a class of your own (`self.value = value`) or use functions "
            f"that take a {label}"
        )
    else:
        instead = ""
    return TypeError(
        f"a class in run_code cannot derive from {label}: program classes may derive from "
        "object, the built-in exception classes (not the exception groups), the built-in data "
        "types (int, str, dict, list, ...), collections and collections.abc classes, "
        "typing.Generic/Protocol/TypedDict, the enum classes and the program's own classes"
        + instead
    )


def _check_base(base: object) -> None:
    if is_recorded_program_class(base) or (isinstance(base, type) and base in INERT_BASES):
        return
    raise _refuse_base(base)


#: The interpreter's own reader of a class's text signature: the ``Name(...)``
#: head of the docstring the class was made with (its C ``tp_doc``, which no
#: later ``__doc__`` write changes), ended by a line ``--`` and a blank line.
_text_signature: Final[Callable[[type], object]] = type.__dict__["__text_signature__"].__get__

#: How the interpreter ends a text signature; one counts only in the first
#: paragraph of a docstring (before any blank line).
_SIGNATURE_END: Final = ")\n--\n\n"


def has_text_signature(cls: type) -> bool:
    """Whether ``cls`` has, or could have, a text signature: ``Name(...)``, ``--``, a blank line.

    ``inspect.signature`` of a class with no ``__init__`` or ``__new__`` of its
    own (``dataclass(init=False)`` asks it, for the docstring it writes) parses
    the first text signature in the class's MRO and evaluates every name and
    dotted name in its defaults with ``eval``: in the module of that class, then
    in a copy of ``sys.modules``, natively. In a docstring the program wrote,
    ``(where=sys.prefix)`` would hand the program any constant of any loaded
    module. The interpreter finds a signature only when the docstring begins
    with the class's ``__name__``; the end marker in the first paragraph is
    refused whatever the name, so that no later name makes a signature appear.
    A static (built-in) type's signature is the interpreter's own text.
    """
    if _text_signature(cls) is not None:
        return True
    doc = cls.__dict__.get("__doc__")
    if not isinstance(doc, str):
        return False
    end = str.find(doc, _SIGNATURE_END)  # str's own find: the class's doc is only read
    return end != -1 and str.find(doc, "\n\n") > end


def check_new_class(cls: type) -> None:
    """Refuse a class outside the rule (see the module docstring), checked after it was made.

    Besides bases and metaclass, the names a class hands to native readers are
    checked here, after every decorator: ``__match_args__`` (read by ``match``
    class patterns past the attribute guard), wherever it came from, and the
    text signature ``inspect`` would evaluate (:func:`has_text_signature`).
    """
    for base in cls.__bases__:
        _check_base(base)
    if type(cls) not in ALLOWED_METACLASSES:
        raise TypeError(f"the class {cls.__qualname__!r} has a metaclass run_code does not allow")
    if has_text_signature(cls):
        raise TypeError(
            f"the docstring of the class {cls.__qualname__!r} reads as a signature (`Name(...)`, "
            "then a line `--` and a blank line), whose names library code evaluates outside "
            "run_code's guards; write the docstring without that `--` line"
        )
    match_args = getattr(cls, "__match_args__", ())
    if type(match_args) is not tuple or not all(map(readable_field_name, match_args)):
        raise TypeError(
            f"the class {cls.__qualname__!r} lists attribute names for `match` that run_code "
            "does not allow (names starting with '_' or naming interpreter internals)"
        )


def build_class(func: Callable[[], None], name: str, /, *bases: object, **keywords: Any) -> type:
    """``__build_class__`` for program code: bases and keywords checked before, the class after.

    The bases are resolved once, here: a base's ``__mro_entries__`` may be the
    program's (a ``SimpleNamespace`` holds any attribute), and the interpreter's
    own ``__build_class__`` would call it again after the check, free to answer
    differently. The class is built from the checked, resolved bases, with
    ``__orig_bases__`` set as the interpreter sets it (see :class:`_Resolved`).
    """
    resolved = types.resolve_bases(bases)
    for base in resolved:
        _check_base(base)
    if keywords:
        allowed = frozenset[str]()
        if resolved:
            allowed = _CLASS_KEYWORDS.get(type(resolved[0]), allowed)
        for key, value in keywords.items():
            # An exact str first: membership and the binding of the keyword
            # would compare a str subclass by its own __eq__ (rule 3).
            if type(key) is not str or key not in allowed or type(value) is not bool:
                raise TypeError(
                    f"class keyword {key!r} is not allowed in run_code"
                    + (" (TypedDict takes total=True or total=False)" if allowed else "")
                )
    # Every resolved base is a class now (_check_base refuses anything else),
    # so the interpreter finds no __mro_entries__ left to call.
    metaclass = _Resolved(_most_derived_metaclass(resolved), None if resolved is bases else bases)
    classes_being_made[0] += 1
    try:
        cls: type = builtins.__build_class__(
            func, name, *resolved, metaclass=metaclass, **keywords
        )
        if not isinstance(cls, type):
            raise TypeError(f"the class statement for {name!r} did not make a class")
        # The program's top level is the body of a function (MAIN_NAME): its
        # classes print as a script's do (`Point(x=1)`, not `...<locals>.Point`).
        type.__setattr__(cls, "__qualname__", cls.__qualname__.removeprefix(_MAIN_LOCALS))
        # ... and are in `__main__`, as a script's (`<class '__main__.Point'>`).
        type.__setattr__(cls, "__module__", PROGRAM_CLASS_MODULE)
        return register_program_class(cls)
    finally:
        classes_being_made[0] -= 1


_MAIN_LOCALS: Final = f"{MAIN_NAME}.<locals>."


def _most_derived_metaclass(bases: tuple[type, ...]) -> type:
    """The metaclass the interpreter would pick for ``bases`` (a conflict is a TypeError)."""
    winner: type = type(bases[0]) if bases else type
    for base in bases:
        candidate = type(base)
        if issubclass(winner, candidate):
            continue
        if issubclass(candidate, winner):
            winner = candidate
            continue
        raise TypeError(
            "metaclass conflict: the metaclass of a derived class must be a (non-strict) "
            "subclass of the metaclasses of all its bases"
        )
    return winner


@final
class _Resolved:
    """The metaclass :func:`build_class` hands the interpreter: the real one, bases resolved.

    Given a metaclass that is not a class, ``__build_class__`` calls its
    ``__prepare__`` and then the object itself, and resolves no bases of its
    own. Both go to the real metaclass; the call first records the bases as
    written in ``__orig_bases__`` when resolving changed them, as the
    interpreter does (``typing.Generic`` reads them while the class is made).
    """

    __slots__ = ("_metaclass", "_orig_bases")

    def __init__(self, metaclass: type, orig_bases: tuple[object, ...] | None) -> None:
        self._metaclass = metaclass
        self._orig_bases = orig_bases

    def __prepare__(self, name: str, bases: tuple[type, ...], **keywords: Any) -> Any:
        return self._metaclass.__prepare__(name, bases, **keywords)

    def __call__(
        self, name: str, bases: tuple[type, ...], namespace: Any, **keywords: Any
    ) -> Any:
        if self._orig_bases is not None:
            namespace["__orig_bases__"] = self._orig_bases
        # The special methods are wrapped (rules 8 and 9) before the class
        # exists: an enum's metaclass runs the program's __init__ on its members
        # while it makes the class, and a member's __eq__ must be shielded then.
        own: dict[str, object] = {}
        for key in list(namespace.keys()):
            value = namespace[key]
            if key in SHIELDED_METHODS:
                namespace[key] = shielded(key, value)
            elif key in EXIT_METHODS:
                namespace[key] = revealing_exit(key, value)
            if key in DEFINABLE_DUNDERS and is_program_function(value):
                own[key] = namespace[key]
        cls = self._metaclass(name, bases, namespace, **keywords)
        if isinstance(cls, type):
            # The special methods the program wrote, as the class holds them: a
            # program object may call these by name (`self.__add__(other)`).
            record_own_special_methods(
                cls, {key: method for key, method in own.items() if vars(cls).get(key) is method}
            )
        return cls
