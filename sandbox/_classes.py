"""Program classes: which bases a program may build on, and the record of what it built.

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
  checked after creation and recorded; :func:`is_program_class` answers from
  that record, never from a name such as ``__module__`` that library code can
  be asked to set (``Enum("E", "A", module=...)``).

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
import itertools
import json
import keyword
import re
import statistics
import string
import sys
import types
import typing
import unicodedata
import weakref
from typing import TYPE_CHECKING, Any, Final, NoReturn, final

from ._compile import MAIN_NAME
from ._policy import BLOCKED_ATTRIBUTES, RUNTIME_CHECKED_ATTRIBUTES

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Mapping

__all__ = [
    "ALLOWED_METACLASSES",
    "INERT_BASES",
    "MODEL_MODULE",
    "RUNTIME_OBJECTS",
    "VISIBLE_CLASSES",
    "adopting_base",
    "build_class",
    "check_new_class",
    "classes_being_made",
    "exit_details",
    "handed_out",
    "hidden_class",
    "inert_base",
    "inherited_shields",
    "install_program_module",
    "is_program_class",
    "is_program_function",
    "is_recorded_program_class",
    "readable_field_name",
    "real_mro",
    "register_program_class",
    "result_checked",
    "reveal_class",
    "self_checked",
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

#: The ``__name__`` of a program's globals, hence the ``__module__`` of every
#: class it defines. Only a label: which classes are the program's is decided
#: by the record below, never by this name.
MODEL_MODULE: Final = "<model>"

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
    """

    __slots__ = ("_builtins",)

    def __init__(self, builtins: Mapping[str, object]) -> None:
        self._builtins = builtins

    @property
    def __dict__(self) -> dict[str, object]:  # type: ignore[override]
        return {"__builtins__": dict(self._builtins)}


def install_program_module(builtins: Mapping[str, object]) -> None:
    """Put the stand-in for the program's module in ``sys.modules`` (the child does, once).

    ``builtins`` are what code generated in that module sees: the program's.
    """
    sys.modules.setdefault(MODEL_MODULE, _ProgramModuleStandIn(builtins))  # type: ignore[arg-type]


#: Every class the program created. One run per process, so nothing is ever
#: removed; a strong set keeps membership tests as cheap as a dict lookup.
_program_classes: set[type] = set()


#: Façade classes whose every subclass is the program's, even while its
#: metaclass is still making it: enum's makes the members - and runs the
#: program's ``__init__`` on them - before the class statement returns the
#: class to :func:`build_class`. No library subclasses a façade class.
_ADOPTING: set[type] = set()


#: How many class statements (or functional enums) are being made right now.
#: While one is, a subclass of an adopting façade class counts as the
#: program's before it is registered: enum's metaclass runs the program's
#: ``__init__`` on the members while it makes the class. Outside, only a
#: registered class does, so a class whose making failed (a member's
#: ``__init__`` kept one member, a later one raised) is never the program's.
#: A list, so that other modules change it in place: a ``finally`` that only
#: stores an int cannot be cut short by the program's stack depth.
classes_being_made: list[int] = [0]


def is_program_class(cls: object) -> bool:
    """Whether ``cls`` is a class the program created (and that passed the checks)."""
    if not isinstance(cls, type):
        return False
    if cls in _program_classes:
        return True
    return (
        classes_being_made[0] > 0
        and bool(_ADOPTING)
        and cls not in _ADOPTING
        and any(base in _ADOPTING for base in cls.__mro__)
    )


def is_recorded_program_class(cls: type) -> bool:
    """Whether ``cls`` is in the program's record: its class for good."""
    return cls in _program_classes


def is_program_function(function: object) -> bool:
    """Whether ``function`` is a plain function the program defined.

    Decided by its globals, which are the program's namespace (whose
    ``__name__`` a program cannot rebind), not by its code object: reading
    ``__code__`` is an event the child's tripwire ends a run on.
    """
    return (
        type(function) is types.FunctionType
        and function.__globals__.get("__name__") == MODEL_MODULE
    )


def adopting_base(cls: type) -> type:
    """Declare a façade class whose subclasses are the program's from their creation on."""
    _ADOPTING.add(cls)
    return cls


def register_program_class(cls: type) -> type:
    """Check a class that a façade built for the program, then record it as the program's."""
    check_new_class(cls)
    _shield_inherited(cls)
    _program_classes.add(cls)
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
    for name in _SHIELDED_METHODS:
        if name in cls.__dict__:
            continue
        for klass in real_mro(cls)[1:]:
            if name in klass.__dict__:
                method = klass.__dict__[name]
                if (
                    method is not None
                    and klass not in _program_classes
                    and klass.__module__ != "builtins"
                ):
                    shields[name] = _shielded(name, method)
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
        "object, the built-in exception classes, the built-in data types (int, str, dict, "
        "list, ...), collections and collections.abc classes, typing.Generic/Protocol/"
        "TypedDict, the enum classes and the program's own classes" + instead
    )


def _check_base(base: object) -> None:
    if base in _program_classes or (isinstance(base, type) and base in INERT_BASES):
        return
    raise _refuse_base(base)


def check_new_class(cls: type) -> None:
    """Refuse a class outside the rule (see the module docstring), checked after it was made.

    Besides bases and metaclass, the names a class hands to native readers are
    checked here, after every decorator: ``__match_args__`` (read by ``match``
    class patterns past the attribute guard), wherever it came from.
    """
    for base in cls.__bases__:
        _check_base(base)
    if type(cls) not in ALLOWED_METACLASSES:
        raise TypeError(f"the class {cls.__qualname__!r} has a metaclass run_code does not allow")
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
            if key not in allowed or type(value) is not bool:
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
        return register_program_class(cls)
    finally:
        classes_being_made[0] -= 1


_MAIN_LOCALS: Final = f"{MAIN_NAME}.<locals>."


#: Special methods that native and library code call with operands of its own:
#: comparisons (a dict or cache lookup compares a program key with the keys it
#: holds, ``typing``'s aliases compare their origins), the binary operators and
#: their reflections, which answer ``NotImplemented`` to an operand they do not
#: take; and item access, ``__missing__`` (dict's own lookup with the key it was
#: given) and ``__round__``, which refuse it. See :func:`_shielded`; the
#: context-manager exits are checked by :func:`exit_details` instead.
_OPERATOR_METHODS: Final = frozenset(
    {f"__{op}__" for op in ("eq", "ne", "lt", "le", "gt", "ge")}
    | {
        f"__{prefix}{op}__"
        for op in (
            "add", "sub", "mul", "matmul", "truediv", "floordiv", "mod", "divmod", "pow",
            "lshift", "rshift", "and", "xor", "or",
        )
        for prefix in ("", "r", "i")
    }
)
_SHIELDED_METHODS: Final = _OPERATOR_METHODS | frozenset(
    {"__contains__", "__getitem__", "__setitem__", "__delitem__", "__missing__", "__round__"}
)
#: Special methods library code calls as it calls a function the program gives
#: it, with values it computes from what it was given, never with keys of its
#: own state: a constructor (``type(x)(...)``) and ``__call__`` (a callback;
#: a plain function in its place would get the same values). Not shielded: the
#: shield would cost every object the program makes a third of a microsecond.
CALLBACK_METHODS: Final = frozenset({"__init__", "__call__"})
#: The special methods a program may define that take no operand: nothing to shield.
NO_OPERAND_METHODS: Final = frozenset(
    {
        "__post_init__", "__repr__", "__str__", "__hash__", "__bool__", "__len__", "__iter__",
        "__reversed__", "__next__", "__aiter__", "__anext__", "__enter__", "__aenter__",
        "__await__", "__neg__", "__pos__", "__abs__", "__invert__", "__int__", "__float__",
        "__index__",
    }
)

#: The classes the builtins and façades hand to programs (filled by
#: ``sandbox._builtins``); the guards read the same set.
VISIBLE_CLASSES: Final[set[type]] = set()


def hidden_class(value: object) -> bool:
    """Whether ``value`` is a class no program may hold: a metaclass, or one never exposed.

    The real ``type`` is the first of them (the builtins hand out a stand-in);
    library caches also hold classes of the runtime's own (``TracebackType``).
    A class ``type()`` has handed out is not hidden. Decided on ``type(value)``,
    which a program object cannot disguise.
    """
    return issubclass(type(value), type) and (
        issubclass(value, type)  # type: ignore[arg-type]
        or not (value in VISIBLE_CLASSES or value in _revealed or is_program_class(value))
    )


#: The interpreter's own objects that lead to its frames and code: withheld as
#: values, not only as classes, at every door (the shield, what library code
#: returns, what an exception holds).
RUNTIME_OBJECTS: Final = (types.TracebackType, types.FrameType, types.CodeType)


def _refuse_runtime_object(value: object, where: str) -> NoReturn:
    raise TypeError(
        f"{where} would hand the program a {type(value).__name__} object, the interpreter's "
        "own; run_code keeps them (their frames are the host's)"
    )


#: Containers whose items :func:`handed_out` looks at (exact types: one level).
_HANDED_CONTAINERS: Final = (tuple, list, set, frozenset)


def handed_out(value: Any, where: str) -> Any:
    """``value``, which library code ``where`` is handing to the program, if it hides nothing.

    Library code applies the real ``type()`` to what it is given: given a
    program's class among its data, it holds that class's metaclass
    (``statistics`` takes ``type()`` of each data point as the type of its
    result, then calls it). A hidden class (:func:`hidden_class`) that library
    code returns - as the value, or as an item of an exact tuple, list, set or
    dict it returns - is refused here, so it never reaches the program. An
    object of a library class is handed out as it is, its class swept as
    :func:`reveal_class` does.
    """
    cls = type(value)
    if issubclass(cls, type) or issubclass(cls, RUNTIME_OBJECTS):
        _check_handed_item(value, where)
    elif cls in _HANDED_CONTAINERS:
        for item in value:
            if issubclass(type(item), BaseException):
                caught(item)  # asyncio.gather(..., return_exceptions=True)
            else:
                _check_handed_item(item, where)
    elif cls is dict:
        for key, item in value.items():
            _check_handed_item(key, where)
            _check_handed_item(item, where)
    elif issubclass(cls, BaseException):
        caught(value)
    elif _sweeping_revealed and cls not in _swept and cls.__module__ != "builtins":
        # An object of a class no façade lists: its methods check their self,
        # and what they return, before the program has it (rule 7).
        reveal_class(cls)
    return value


def _check_handed_item(value: object, where: str) -> None:
    """Refuse ``value`` if it is a withheld class or one of the interpreter's own objects."""
    kind = type(value)
    if issubclass(kind, type):
        if _withheld(value):  # type: ignore[arg-type]
            _refuse_handed(where)
    elif issubclass(kind, RUNTIME_OBJECTS):
        _refuse_runtime_object(value, where)


#: The most values :func:`caught` looks at in one exception before it refuses it.
CAUGHT_LIMIT: Final = 100_000
#: The interpreter's own readers of an exception's arguments and a group's
#: exceptions: a program's exception class cannot answer for them.
_exception_args: Final = BaseException.__dict__["args"].__get__
_group_exceptions: Final = BaseExceptionGroup.__dict__["exceptions"].__get__


def caught(error: BaseException) -> BaseException:
    """``error``, an exception the program is about to hold, once nothing in it hides a class.

    Library code fills an exception's ``args`` as it likes: ``decimal`` raises
    ``InvalidOperation([<class 'decimal.ConversionSyntax'>])``, a class no
    façade lists. So an exception reaches the program (``except ... as``, the
    value a ``with`` statement hands ``__exit__``, ``__context__``,
    ``__cause__``, what library code returns) only through here: its class,
    and that of every exception in it (an exception group's, at any depth), is
    swept as :func:`reveal_class` sweeps, and each class among its arguments, in
    exact tuples, lists, sets and dicts at any depth, is handed out as
    :func:`handed_out` would (a withheld one is refused with a ``TypeError``).
    An exception holding more than :data:`CAUGHT_LIMIT` values is refused too:
    what was not looked at is not handed out.
    """
    pending: list[object] = [error]
    seen: set[int] = set()
    looked_at = 0
    while pending:
        value: Any = pending.pop()
        cls = type(value)
        if issubclass(cls, type):
            if _withheld(value):
                _refuse_caught(error)
            continue
        if issubclass(cls, RUNTIME_OBJECTS):
            _refuse_runtime_object(value, f"an exception ({type(error).__name__})")
        if not (cls in _HANDED_CONTAINERS or cls is dict or issubclass(cls, BaseException)):
            continue
        if id(value) in seen:
            continue
        seen.add(id(value))
        if issubclass(cls, BaseException):
            if _sweeping_revealed and cls not in _swept and cls.__module__ != "builtins":
                reveal_class(cls)
            value = _exception_args(value) + (
                _group_exceptions(value) if issubclass(cls, BaseExceptionGroup) else ()
            )
        looked_at += len(value)
        if looked_at > CAUGHT_LIMIT:
            raise TypeError(
                f"an exception ({type(error).__name__}) holds more than {CAUGHT_LIMIT} values "
                "in its arguments, too many to check before the program may hold it; raise "
                "exceptions with short arguments (a message, a few values)"
            )
        if cls is dict:
            pending.extend(value.keys())
            pending.extend(value.values())
        else:
            pending.extend(value)
    return error


def _refuse_caught(error: BaseException) -> NoReturn:
    raise TypeError(
        f"an exception ({type(error).__name__}) that library code raised holds a class "
        "run_code hides (a metaclass, or a class of the runtime's own) in its arguments, "
        "so the program cannot hold it; catch it without `as`, or pass the library data "
        "values (numbers, strings, the program's objects), not classes"
    )


def _withheld(cls: type) -> bool:
    """Whether library code may not hand the program ``cls``, a class (:func:`handed_out`).

    A hidden class is withheld, except a class the library made on bases the
    program already holds - ``csv.Sniffer().sniff()`` returns a new
    ``csv.Dialect`` subclass - which is handed out swept, as :func:`reveal_class`
    does. A metaclass, and a class of the runtime's own (``types.CodeType``,
    ``types.FunctionType``: their bases are ``object``), are always withheld.
    """
    if not hidden_class(cls):
        return False
    if issubclass(cls, type):
        return True
    bases = cls.__bases__
    if bases and all(base is not object and base in VISIBLE_CLASSES for base in bases):
        reveal_class(cls)
        return False
    return True


def _refuse_handed(where: str) -> NoReturn:
    raise TypeError(
        f"{where} returned a class that run_code hides (a metaclass, or a class of the "
        "runtime's own); pass it data values (numbers, strings, the program's objects), "
        "not classes"
    )


def result_checked(function: Callable[..., Any], where: str) -> Callable[..., Any]:
    """``function``, a library callable, whose return value goes through :func:`handed_out`."""

    def checked(*args: Any, **kwargs: Any) -> Any:
        return handed_out(function(*args, **kwargs), where)

    checked.__name__ = getattr(function, "__name__", "function")
    checked.__qualname__ = getattr(function, "__qualname__", checked.__name__)
    checked.__doc__ = getattr(function, "__doc__", None)
    checked.__module__ = getattr(function, "__module__", None)  # type: ignore[assignment]
    return _made_wrapper(checked)


#: id -> the wrappers :func:`result_checked` and :func:`self_checked` made, while
#: they live: :func:`_wrapped` tells them by identity. (Reading their
#: ``__code__`` is an event the tripwire ends a run on, and comparing code
#: objects with ``in`` compares them by ``==``.)
_WRAPPERS: weakref.WeakValueDictionary[int, Callable[..., Any]] = weakref.WeakValueDictionary()


def _made_wrapper(wrapper: Callable[..., Any]) -> Callable[..., Any]:
    _WRAPPERS[id(wrapper)] = wrapper
    return wrapper


def _shielded(name: str, method: Any) -> Any:
    """``method``, a special method of a program class, never called with a hidden class.

    A comparison or operator a library evaluates with an operand of its own
    calls the program's method with it: a key the C dict compares while
    looking up a colliding program key, the origin of a typing alias (the real
    ``type`` for ``typing.Type``), a cache key that is a tuple of classes. Given
    an argument that is or holds a hidden class (:func:`holds_hidden_class`),
    the shield answers ``NotImplemented`` for an operator - Python then falls
    back as for any operand the method does not handle - and raises
    ``TypeError`` for any other method, without calling the program's code.
    """
    operator = name in _OPERATOR_METHODS
    plain = type(method) is types.FunctionType
    binds = hasattr(type(method), "__get__")

    def refused(arg: object) -> bool:
        if holds_hidden_class(arg, name):
            if operator:
                return True
            raise TypeError(f"{name} of a program class got a class run_code hides")
        return False

    # Only a class or a container can be or hold a hidden class: one type test
    # per argument on the common path (these wrap the program's hottest methods).
    def special(self: object, /, *args: object) -> Any:
        for arg in args:
            if issubclass(type(arg), _CLASS_OR_CONTAINER) and refused(arg):
                return NotImplemented
        if plain:
            return method(self, *args)
        target = method.__get__(self, type(self)) if binds else method
        return target(*args)

    def special_with_keywords(self: object, /, *args: object, **keywords: object) -> Any:
        for arg in (*args, *keywords.values()):
            if issubclass(type(arg), _CLASS_OR_CONTAINER) and refused(arg):
                return NotImplemented
        if plain:
            return method(self, *args, **keywords)
        target = method.__get__(self, type(self)) if binds else method
        return target(*args, **keywords)

    return _named_like(special_with_keywords if name in _KEYWORD_METHODS else special, name, method)


#: The most values :func:`holds_hidden_class` looks at in one argument.
SHIELD_LIMIT: Final = 100_000
#: Containers whose items the shield looks at, read with their base type's own
#: methods, so a program subclass's ``__iter__`` never runs in the check.
_DICT_VIEWS: Final[tuple[type, ...]] = (type({}.keys()), type({}.values()), type({}.items()))
_CONTAINER_ITEMS: Final[tuple[tuple[type, Callable[[Any], Iterable[object]]], ...]] = (
    (tuple, tuple.__iter__),
    (list, list.__iter__),
    (dict, lambda d: itertools.chain(dict.keys(d), dict.values(d))),
    (set, set.__iter__),
    (frozenset, frozenset.__iter__),
    (collections.deque, collections.deque.__iter__),
    *((view, iter) for view in _DICT_VIEWS),  # a view iterates its dict natively
)
_CONTAINERS: Final = tuple(kind for kind, _ in _CONTAINER_ITEMS)
#: What the shield refuses whatever it holds: a mapping proxy (a class's
#: namespace) and the interpreter's own objects, which a program never holds.
_ALWAYS_HIDDEN: Final = (types.MappingProxyType, *RUNTIME_OBJECTS)
#: What the shield looks at: classes, containers, and the always hidden.
_CLASS_OR_CONTAINER: Final = (type, *_ALWAYS_HIDDEN, *_CONTAINERS)
#: The shielded methods that may be called with keyword arguments.
_KEYWORD_METHODS: Final = frozenset({"__round__"})


def _native_items(container: object) -> Iterable[object]:
    for kind, items in _CONTAINER_ITEMS:
        if issubclass(type(container), kind):
            return items(container)
    return ()


def holds_hidden_class(value: object, where: str) -> bool:
    """Whether ``value`` is a hidden class, or holds one in a container, at any depth.

    typing's cache keys are tuples of classes, nested (``(Union, (TracebackType,
    NoneType))``). The containers are tuples, lists, dicts, sets, deques and
    dict views, exact or subclassed alike, read natively; a mapping proxy (a
    class's namespace) and a traceback, frame or code object count as hidden
    themselves. More than :data:`SHIELD_LIMIT` values are refused
    with a ``TypeError`` rather than handed over unchecked.
    """
    if issubclass(type(value), _ALWAYS_HIDDEN):
        return True
    if not issubclass(type(value), _CONTAINERS):
        return hidden_class(value)
    pending: list[object] = [value]
    seen: set[int] = set()
    looked_at = 0
    while pending:
        container = pending.pop()
        if id(container) in seen:
            continue
        seen.add(id(container))
        for item in _native_items(container):
            looked_at += 1
            if looked_at > SHIELD_LIMIT:
                raise TypeError(
                    f"{where} of a program class got an argument of more than {SHIELD_LIMIT} "
                    "values, too many to check before the program's code may see it"
                )
            if issubclass(type(item), _CONTAINERS):
                pending.append(item)
            elif hidden_class(item) or issubclass(type(item), _ALWAYS_HIDDEN):
                return True
    return False


def _named_like(special: Any, name: str, method: Any) -> Any:
    """``special``, a wrapper of the program's special method ``method``, under its names."""
    special.__name__ = name
    special.__qualname__ = getattr(method, "__qualname__", name)
    special.__doc__ = getattr(method, "__doc__", None)
    return special


#: The context-manager exits: the ``with`` statement hands them the class of the
#: exception it caught, computed natively, never through ``type()``.
_EXIT_METHODS: Final = frozenset({"__exit__", "__aexit__"})


def exit_details(who: str, details: tuple[object, ...]) -> tuple[object, ...]:
    """What a ``with`` statement (or an exit stack) hands an exit, ``(type, value, tb)``, checked.

    The class is the real class of what library code raised: one no façade
    lists is swept, as ``type(error)`` would give it (rule 7), and a metaclass
    is refused; the exception goes through :func:`caught`. The traceback is
    handed on as ``None``: what the interpreter passes to a program's code is
    checked as what library code returns, and a traceback is the runtime's own
    object (its frames are the host's).
    """
    if details and hidden_class(details[0]):
        if issubclass(details[0], type):  # type: ignore[arg-type]
            raise TypeError(f"{who} got a class run_code hides")
        reveal_class(details[0])  # type: ignore[arg-type]
    if len(details) > 1 and issubclass(type(details[1]), BaseException):
        caught(details[1])  # type: ignore[arg-type]
    if len(details) > 2:
        return (*details[:2], None, *details[3:])
    return details


def _revealing_exit(name: str, method: Any) -> Any:
    """``method``, a program's ``__exit__`` or ``__aexit__``, given only classes it may hold.

    The exception class a ``with`` statement passes is the real class of what
    library code raised: one no façade lists reaches the program swept, as
    ``type(error)`` would give it (rule 7). A metaclass is refused.
    """
    binds = hasattr(type(method), "__get__")

    def special(self: object, /, *args: object) -> Any:
        args = exit_details(f"{name} of a program class", args)
        target = method.__get__(self, type(self)) if binds else method
        return target(*args)

    return _named_like(special, name, method)


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
        for key in list(namespace.keys()):
            if key in _SHIELDED_METHODS:
                namespace[key] = _shielded(key, namespace[key])
            elif key in _EXIT_METHODS:
                namespace[key] = _revealing_exit(key, namespace[key])
        return self._metaclass(name, bases, namespace, **keywords)


#: A class's MRO as the interpreter keeps it, whatever its metaclass defines.
real_mro: Final[Callable[[type], tuple[type, ...]]] = type.__dict__["__mro__"].__get__


def self_checked(function: Callable[..., Any], owner: type) -> Callable[..., Any]:
    """``function``, a method of ``owner``, refusing any ``self`` that is not an ``owner``."""
    name = getattr(function, "__name__", "method")
    where = f"{owner.__qualname__}.{name}"

    def checked(self: object, /, *args: Any, **kwargs: Any) -> Any:
        # Not isinstance(): a class's __instancecheck__ (an ABC's, through a
        # program's __subclasshook__ or register()) could say yes to anything.
        if not any(cls is owner for cls in real_mro(type(self))):
            raise TypeError(
                f"{where} needs a {owner.__qualname__} object, "
                f"not a {type(self).__qualname__} object"
            )
        return handed_out(function(self, *args, **kwargs), where)

    return _made_wrapper(checked)


class _SelfChecked:
    """A library method that, read from its class, checks the ``self`` it is called with.

    Read from an instance it binds to it (the instance is of the class by
    construction); read from the class it is :func:`self_checked`. Either way
    what it returns goes through :func:`handed_out`.
    """

    __slots__ = ("_bound", "_function", "_owner")

    def __init__(self, function: types.FunctionType, owner: type) -> None:
        self._function = function
        self._owner = owner
        self._bound = result_checked(function, f"{owner.__qualname__}.{function.__name__}")

    def __get__(self, instance: object, owner: type | None = None) -> Any:
        if instance is not None:
            return types.MethodType(self._bound, instance)
        return self_checked(self._function, self._owner)


def _checked_property(prop: property, owner: type) -> property:
    def check(function: Any) -> Any:
        return self_checked(function, owner) if type(function) is types.FunctionType else function

    return property(check(prop.fget), check(prop.fset), check(prop.fdel), prop.__doc__)


#: Library classes whose methods check their self; filled by :func:`check_library_selves`.
_swept: set[type] = set()
#: Set in the child's zygote: from then on every class ``type()`` reveals is swept.
_sweeping_revealed = False


def check_library_selves(visible: set[type]) -> None:
    """Make the Python methods of the classes a program can reach check their ``self``.

    Run in the child's zygote only (it changes library classes for the rest of
    the process). A library class's plain-Python method read from the class
    would run with any ``self`` the program chose - ``Counter.copy(int)`` reads
    ``int.__class__`` natively, the real ``type`` - so each public method and
    property of every Python class in the reach of a visible class (its MRO) is
    replaced by one that checks its ``self`` first. Special methods are checked
    by the attribute guard; ``_`` names are not readable on library objects.

    The visible classes are not all a program can name: ``type(x)`` of a
    library object gives its class (``type(asyncio.timeout(1))``, typing's
    alias classes), so from now on :func:`reveal_class` sweeps each class
    ``type()`` hands out before the program has it.
    """
    global _sweeping_revealed
    _sweep(visible)
    _sweeping_revealed = True


def reveal_class(cls: type) -> type:
    """``cls``, about to be handed to the program; in a child, its methods check their self.

    Recorded as revealed once swept: the program holds it from now on, so it
    is not a hidden class (``type(None)`` as a key of the program's own dict).
    """
    if _sweeping_revealed and cls not in _swept and not is_program_class(cls):
        _sweep((cls,))
    _revealed.add(cls)
    return cls


#: Classes handed to the program by ``type()`` or with an object of theirs.
_revealed: set[type] = set()


def _wrapped(function: object) -> bool:
    """Whether ``function`` is a wrapper a sweep made: one cut short is not wrapped again."""
    return _WRAPPERS.get(id(function)) is function


def _sweep(roots: Iterable[type]) -> None:
    """Make the public Python members of ``roots`` and their bases check their self.

    A class is recorded as swept only once every member of it and of its
    bases is replaced: the bases are swept first. The program chooses how deep
    its stack is when it makes a class be swept, so a ``RecursionError`` (or
    ``MemoryError``) can cut the work short anywhere: a class cut short stays
    unrecorded, and so does every class derived from it, and the reveal that
    swept it raises, so the program never holds a class half swept (with a raw
    method it inherits); the next reveal finishes the work (members already
    wrapped are left as they are).
    """
    for root in roots:
        for cls in reversed(root.__mro__):
            if cls in _swept or cls.__module__ == "builtins" or cls in _program_classes:
                continue
            for name, value in list(vars(cls).items()):
                if name[:1] == "_":
                    continue
                try:
                    if type(value) is types.FunctionType:
                        setattr(cls, name, _SelfChecked(value, cls))
                    elif type(value) is property and not all(
                        part is None or _wrapped(part)
                        for part in (value.fget, value.fset, value.fdel)
                    ):
                        setattr(cls, name, _checked_property(value, cls))
                    elif (
                        type(value) in (classmethod, staticmethod)
                        and type(value.__func__) is types.FunctionType
                        and not _wrapped(value.__func__)
                    ):
                        where = f"{cls.__qualname__}.{name}"
                        setattr(cls, name, type(value)(result_checked(value.__func__, where)))
                except (TypeError, AttributeError):
                    continue  # a class that refuses changes (C types, frozen classes)
            _swept.add(cls)
