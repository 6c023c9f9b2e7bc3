"""The ``copy``, ``dataclasses`` and ``namedtuple`` replacements: plain data, the program's classes.

``copy.copy``/``copy.deepcopy`` (and ``dataclasses.asdict``/``astuple``, which
call ``deepcopy``) rebuild objects from ``__reduce_ex__`` results with
unguarded ``setattr`` and ``__dict__.update``: a class whose reduce hook
returns an arbitrary object and state would write attributes of objects the
program did not create. ``dataclasses.dataclass`` sets attributes on the class
it is given, and the classes ``dataclass`` and ``collections.namedtuple`` make
hand their field names to ``match``, which reads them without the attribute
guard. The versions here do what programs use these for, on the program's own
objects and plain data, and refuse the rest with a message that says so.

The other replacements of library helpers that bypass the guards are in modules
of their own, since they share nothing with these but the check that a class is
the program's: the decorators of ``functools``, ``abc`` and ``typing`` in
``sandbox._facades_decorators``, the ``contextlib`` ones in
``sandbox._facades_contextlib``.
"""

from __future__ import annotations

import collections
import dataclasses
import datetime
import decimal
import enum
import fractions
import functools
import inspect
import re
import types
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar

from ._classes import inherited_shields, readable_field_name, register_program_class
from ._facades_decorators import _require_program_class
from ._guards_vars import Attributes
from ._program import PROGRAM_CLASS_MODULE, carry_own_special_methods, is_program_class

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = [
    "safe_asdict",
    "safe_astuple",
    "safe_copy",
    "safe_dataclass",
    "safe_deepcopy",
    "safe_namedtuple",
]

_T = TypeVar("_T")

#: Values copied as themselves: immutable, or (functions, classes) shared by
#: ``copy`` too.
_ATOMIC: Final = frozenset(
    {
        type(None),
        bool,
        int,
        float,
        complex,
        str,
        bytes,
        range,
        slice,
        type(Ellipsis),
        type(NotImplemented),
        types.FunctionType,
        types.BuiltinFunctionType,
        types.MethodType,
        functools.partial,
        re.Pattern,
        decimal.Decimal,
        fractions.Fraction,
        datetime.date,
        datetime.time,
        datetime.datetime,
        datetime.timedelta,
        datetime.timezone,
    }
)

#: Hooks whose presence (other than ``object``'s own) means the class decides
#: how it is rebuilt; such classes are refused.
_COPY_HOOKS: Final = ("__reduce_ex__", "__reduce__", "__copy__", "__deepcopy__", "__setstate__")


#: ``Py_TPFLAGS_HEAPTYPE``: a class made by a class statement (not a C type).
_HEAP_TYPE: Final = 1 << 9


def _is_atomic(value: object) -> bool:
    cls = type(value)
    return cls in _ATOMIC or isinstance(value, type | enum.Enum)


def _plain_instance_class(value: object) -> type | None:
    """The class of a program-class instance that can be rebuilt field by field."""
    cls = type(value)
    if not is_program_class(cls):
        return None
    for hook in _COPY_HOOKS:
        if getattr(cls, hook, None) is not getattr(object, hook, None):
            return None
    return cls


def _slot_descriptors(value: object, cls: type) -> list[Any]:
    """The slot descriptors of ``cls`` (a program class) whose values make up the object.

    The slots are read from the descriptors Python made for each class's own
    ``__slots__`` when the class was created (never from a name read at copy
    time), for the program's classes in the MRO. A library class in the MRO
    that keeps state outside ``__dict__`` - slots of its own, or a built-in
    type's data (``dict``, ``list``, ``tuple``, ...) - is refused: copying only
    the program's part would give a silently emptied object.
    """
    slots: list[Any] = []
    for klass in cls.__mro__:
        if klass is object:
            continue
        own = [
            v
            for v in vars(klass).values()
            if type(v) is types.MemberDescriptorType and v.__objclass__ is klass
        ]
        if is_program_class(klass):
            slots.extend(own)
        elif own or klass.__itemsize__ or (
            not klass.__flags__ & _HEAP_TYPE and klass.__basicsize__ != object.__basicsize__
        ):
            raise _refuse_data_base(value, klass)
    return slots


def _refuse(value: object) -> TypeError:
    cls = type(value)
    return TypeError(
        f"cannot copy a {cls.__qualname__} object in run_code: copy works on plain data "
        "(dict, list, set, tuple, str, numbers, dates), enums and instances of the program's "
        "own classes"
    )


def _refuse_data_base(value: object, base: type) -> TypeError:
    name = type(value).__qualname__
    example = f"{name}(*value)" if issubclass(base, tuple) else f"{name}(value)"
    return TypeError(
        f"cannot copy a {name} object in run_code: copy does not rebuild the {base.__name__} "
        f"data a program class inherits; make a new one from its contents, e.g. {example}"
    )


def _new_like(value: object, cls: Any) -> Any:
    # The program's own class; object.__reduce_ex__ would build it the same way.
    return cls.__new__(cls)


def _copy_state(
    value: Any, cls: type, slots: list[Any], out: Any, convert: Callable[[Any], Any]
) -> None:
    """Give ``out`` the ``__dict__`` and set ``slots`` of ``value``, each through ``convert``.

    As ``copy`` does (``copyreg``'s slot state): the instance dictionary first,
    then every slot that is set; an unset slot stays unset.
    """
    if hasattr(value, "__dict__"):
        out.__dict__.update({k: convert(v) for k, v in value.__dict__.items()})
    for slot in slots:
        try:
            item = slot.__get__(value, cls)
        except AttributeError:
            continue
        slot.__set__(out, convert(item))


def safe_copy(value: _T) -> _T:
    """``copy.copy`` for plain data and the program's own objects."""
    if _is_atomic(value) or type(value) is tuple or type(value) is frozenset:
        return value
    cls = type(value)
    if cls in (
        list,
        dict,
        set,
        bytearray,
        collections.deque,
        collections.OrderedDict,
        collections.Counter,
    ):
        return value.copy()  # type: ignore[attr-defined, no-any-return]
    if cls is collections.defaultdict:
        return value.copy()  # type: ignore[attr-defined, no-any-return]
    if cls is Attributes:
        return dict(value)  # type: ignore[call-overload,no-any-return]  # vars() is a plain dict in Python
    plain = _plain_instance_class(value)
    if plain is None:
        raise _refuse(value)
    slots = _slot_descriptors(value, plain)  # before any program code (__new__) runs
    out = _new_like(value, plain)
    _copy_state(value, plain, slots, out, lambda item: item)
    return out  # type: ignore[no-any-return]


def safe_deepcopy(value: _T, memo: dict[int, Any] | None = None) -> _T:
    """``copy.deepcopy`` for plain data and the program's own objects."""
    if memo is None:
        memo = {}
    return _deep(value, memo)  # type: ignore[no-any-return]


def _deep(value: Any, memo: dict[int, Any]) -> Any:
    if _is_atomic(value):
        return value
    key = id(value)
    if key in memo:
        return memo[key]
    cls = type(value)
    if cls is list:
        out_list: list[Any] = []
        memo[key] = out_list
        out_list.extend(_deep(item, memo) for item in value)
        return out_list
    if cls is tuple:
        return tuple(_deep(item, memo) for item in value)
    if cls in (dict, collections.OrderedDict, collections.Counter, Attributes):
        out_map: Any = {} if cls is Attributes else cls()
        memo[key] = out_map
        for k, v in value.items():
            out_map[_deep(k, memo)] = _deep(v, memo)
        return out_map
    if cls is collections.defaultdict:
        out_dd: collections.defaultdict[Any, Any] = collections.defaultdict(value.default_factory)
        memo[key] = out_dd
        for k, v in value.items():
            out_dd[_deep(k, memo)] = _deep(v, memo)
        return out_dd
    if cls in (set, frozenset):
        return cls(_deep(item, memo) for item in value)
    if cls is collections.deque:
        out_dq: collections.deque[Any] = collections.deque(maxlen=value.maxlen)
        memo[key] = out_dq
        out_dq.extend(_deep(item, memo) for item in value)
        return out_dq
    if cls is bytearray:
        return bytearray(value)
    plain = _plain_instance_class(value)
    if plain is None:
        raise _refuse(value)
    slots = _slot_descriptors(value, plain)  # before any program code (__new__) runs
    out = _new_like(value, plain)
    memo[key] = out
    _copy_state(value, plain, slots, out, lambda item: _deep(item, memo))
    return out


def safe_asdict(obj: Any, *, dict_factory: Callable[[list[tuple[str, Any]]], Any] = dict) -> Any:
    """``dataclasses.asdict`` copying field values with :func:`safe_deepcopy`."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("asdict() should be called on dataclass instances")
    return _as_inner(obj, dict_factory, {})


def safe_astuple(obj: Any, *, tuple_factory: Callable[[list[Any]], Any] = tuple) -> Any:
    """``dataclasses.astuple`` copying field values with :func:`safe_deepcopy`."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        raise TypeError("astuple() should be called on dataclass instances")
    return tuple_factory(
        [_as_inner_tuple(getattr(obj, f.name), tuple_factory) for f in dataclasses.fields(obj)]
    )


def _as_inner(
    value: Any, factory: Callable[[list[tuple[str, Any]]], Any], memo: dict[int, Any]
) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return factory(
            [
                (f.name, _as_inner(getattr(value, f.name), factory, memo))
                for f in dataclasses.fields(value)
            ]
        )
    if type(value) in (list, tuple):
        return type(value)(_as_inner(v, factory, memo) for v in value)
    if type(value) is dict:
        return {_as_inner(k, factory, memo): _as_inner(v, factory, memo) for k, v in value.items()}
    return _deep(value, memo)


def _as_inner_tuple(value: Any, factory: Callable[[list[Any]], Any]) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return factory(
            [_as_inner_tuple(getattr(value, f.name), factory) for f in dataclasses.fields(value)]
        )
    if type(value) in (list, tuple):
        return type(value)(_as_inner_tuple(v, factory) for v in value)
    if type(value) is dict:
        return {_as_inner_tuple(k, factory): _as_inner_tuple(v, factory) for k, v in value.items()}
    return _deep(value, {})


def safe_namedtuple(
    typename: str, field_names: Any, *, rename: bool = False, defaults: Any = None
) -> type:
    """``collections.namedtuple`` whose field names the attribute guard would allow.

    The names are checked on the class that was made (``_fields``, exact
    strings), so what is checked is what ``match`` and attribute access will
    read. The class counts as the program's: a program class may derive from it.
    """
    if type(typename) is not str:
        raise TypeError("the namedtuple type name must be a str")
    if type(rename) is not bool:
        raise TypeError("rename= must be True or False")
    make: Any = collections.namedtuple  # called with values, not the literals mypy expects
    cls: type = make(
        typename, field_names, rename=rename, defaults=defaults, module=PROGRAM_CLASS_MODULE
    )
    fields: tuple[object, ...] = cls._fields  # type: ignore[attr-defined]
    for name in fields:
        if not readable_field_name(name):
            raise ValueError(
                f"namedtuple field name {name!r} is not allowed in run_code (a `match` class "
                "pattern would read it without the attribute guard); choose another name"
            )
    return register_program_class(cls)


_DATACLASS_FLAGS: Final = frozenset(
    {"init", "repr", "eq", "order", "unsafe_hash", "frozen", "match_args", "kw_only", "slots",
     "weakref_slot"}
)  # fmt: skip


def safe_dataclass(cls: type | None = None, /, **options: Any) -> Any:
    """``dataclasses.dataclass`` for the program's own classes, checked after it ran.

    Options must be exact ``bool`` values (what is checked is what dataclass
    reads). The decorated class - a new one with ``slots=True`` - is checked
    like any class the program makes (bases, metaclass, ``__match_args__``),
    and so are the names of all its fields, inherited ones included: a
    dataclass copies its bases' field objects, so the names are checked where
    they end up, not where they were declared.
    """
    for key, value in options.items():
        if key not in _DATACLASS_FLAGS or type(value) is not bool:
            raise TypeError(
                f"dataclass option {key!r} is not allowed in run_code (options are "
                + ", ".join(sorted(_DATACLASS_FLAGS))
                + ", each True or False)"
            )

    def apply(target: type) -> type:
        _require_program_class(target, "dataclass()")
        _unqualify_quoted_markers(target)
        for name, annotation in inspect.get_annotations(target).items():
            if type(name) is str and (
                annotation is dataclasses.KW_ONLY
                or (type(annotation) is str and _QUOTED_KW_ONLY.match(annotation))
            ):
                # `_: KW_ONLY` marks the fields after it keyword-only; dataclass
                # makes no field of it (the fields are still checked below). So
                # does `"KW_ONLY"`, as under `from __future__ import annotations`.
                continue
            if not readable_field_name(name):
                raise _refused_field_name(name, annotation, target.__name__)
        _refuse_generating_over_shields(target, options)
        made = _documented_dataclass(target, options)
        for field in dataclasses.fields(made):
            if not readable_field_name(field.name):
                raise _refused_field_name(field.name, field.type, made.__name__)
        if made is not target:
            carry_own_special_methods(target, made)  # slots=True: a new class, the same methods
        return register_program_class(made)

    if cls is None:
        return apply
    return apply(cls)


#: A quoted annotation naming ``typing.ClassVar``, ``dataclasses.InitVar`` or
#: ``dataclasses.KW_ONLY`` by its module.
_QUALIFIED_MARKER: Final = re.compile(
    r"\s*(?:typing\s*\.\s*(?=ClassVar\b)|dataclasses\s*\.\s*(?=InitVar\b|KW_ONLY\b))"
)


#: A quoted annotation dataclasses reads as ``KW_ONLY`` (its own pattern: a leading
#: identifier; the module prefix is taken off by :func:`_unqualify_quoted_markers`).
_QUOTED_KW_ONLY: Final = re.compile(r"\s*KW_ONLY(?!\w)")


def _unqualify_quoted_markers(target: type) -> None:
    """Write ``"typing.ClassVar[int]"`` in ``target``'s own annotations as ``"ClassVar[int]"``.

    (And ``"dataclasses.InitVar[...]"``, ``"dataclasses.KW_ONLY"`` the same way.)

    dataclasses tells a quoted ``ClassVar`` or ``InitVar`` by looking its name
    up in the class's module, and ``typing.`` there must be the real module,
    which the program's module stand-in never holds; it holds the two names
    themselves, so the unqualified text is recognised as in a script.
    """
    # The class's own dict, written in place (inspect.get_annotations returns a copy).
    annotations = target.__dict__.get("__annotations__")  # noqa: RUF063
    if type(annotations) is not dict:
        return
    for name, annotation in list(annotations.items()):
        if type(name) is str and type(annotation) is str and (
            found := _QUALIFIED_MARKER.match(annotation)
        ):
            annotations[name] = annotation[found.end():]


def _documented_dataclass(target: type, options: dict[str, Any]) -> type:
    """``dataclasses.dataclass(target, **options)``, with the docstring every 3.11+ gives.

    A class without a docstring gets its name and signature as one. Before CPython
    3.11.4 (gh-103449) dataclass let a class whose signature cannot be found (a
    TypedDict's metaclass calls ``dict``) raise ``ValueError``; later ones give it
    its bare name. Such a class gets the later docstring here on every interpreter,
    so that a program does the same wherever it runs.
    """
    doc = getattr(target, "__doc__", None)
    if doc:
        made: type = dataclasses.dataclass(target, **options)
        return made
    target.__doc__ = "-"  # any docstring: dataclass leaves it, and it is replaced below
    try:
        made = dataclasses.dataclass(target, **options)
    except BaseException:
        target.__doc__ = doc
        raise
    try:
        signature = str(inspect.signature(made)).replace(" -> None", "")
    except (TypeError, ValueError):
        signature = ""
    except BaseException:
        # A default's or an annotation's __repr__ of the program's raised: the
        # class keeps no docstring, as dataclass leaves it when that happens.
        target.__doc__ = made.__doc__ = doc
        raise
    target.__doc__ = made.__doc__ = made.__name__ + signature
    return made


def _refused_field_name(name: object, annotation: object, owner: str) -> TypeError:
    """The refusal of a dataclass field name, with what to write for a ``_`` name.

    The rule stays (see ``readable_field_name``); a private field is a common
    idiom, so the message says why it is refused and how to keep the value.
    """
    text = f"dataclass field name {name!r} is not allowed in run_code"
    if type(name) is not str or name[:1] != "_":
        return TypeError(text)
    # `__secret: int` in class Cache is the field `_Cache__secret`: speak of what was written.
    mangled = "_" + owner.lstrip("_")
    if name.startswith(mangled + "__"):
        name = name[len(mangled) :]
    text += (
        ": the names a dataclass hands to `match` and to its generated methods must be public"
    )
    # As dataclasses itself tells a ClassVar, which makes a class attribute, not a field.
    if annotation is ClassVar or (
        type(annotation) is type(ClassVar[int])
        and getattr(annotation, "__origin__", None) is ClassVar
    ):
        return TypeError(f"{text}; for a class attribute leave out the annotation: `{name} = ...`")
    if name == "_":
        return TypeError(
            f"{text}; to make the fields after it keyword-only, annotate `_` with "
            "dataclasses.KW_ONLY itself: `_: KW_ONLY`"
        )
    public = name.lstrip("_")
    shown = f"`{public}`" if readable_field_name(public) else 'without the leading "_"'
    return TypeError(
        f"{text}; name it {shown} (field(repr=False) keeps it out of the repr), or set "
        f"`self.{name}` in __post_init__ and leave it out of the fields"
    )


def _refuse_generating_over_shields(target: type, options: dict[str, Any]) -> None:
    """Refuse a dataclass whose generated comparisons a library base's shielded ones would hide.

    ``dataclass`` adds ``__eq__`` (and with ``order=True`` the orderings) only
    where the class has none of its own; a comparison inherited from a library
    class is one of its own here, shielded (rule 8), so the dataclass would
    silently keep the library's (or, with ``order=True``, refuse).
    """
    generated = {"__eq__"} if options.get("eq", True) else set()
    if options.get("order", False):
        generated |= {"__lt__", "__le__", "__gt__", "__ge__"}
    clash = sorted(generated & inherited_shields(target))
    if clash:
        raise TypeError(
            f"dataclass() in run_code cannot generate {', '.join(clash)} for "
            f"{target.__qualname__!r}, which inherits them from a library class; define them "
            "in the class yourself, or pass eq=False (and order=False)"
        )
