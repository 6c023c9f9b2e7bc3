"""The guard functions that restricted code calls, with fast paths.

The transformer in :mod:`sandbox._policy` rewrites the program so that
attribute reads and item reads it cannot decide at compile time, writes,
iteration and unpacking call the functions here (bound in the program's
globals as ``_getattr_``, ``_getitem_``, ``_write_``, ``_getiter_``,
``_getaiter_``, ``_iter_unpack_sequence_``, ``_unpack_sequence_`` and
``_apply_``). The ``getattr``/``hasattr``/``setattr``/``delattr`` builtins
route through the same checks, and ``str.format``/``format_map`` are replaced
by a formatter that walks fields through the guards. The write guards live in
:mod:`sandbox._guards_write`, and the checks of ``_x`` names and the refusals
both sides share in :mod:`sandbox._guards_own`; their names are re-exported here.
``vars`` is :mod:`sandbox._guards_vars`'s, and the lookups that find where the
interpreter keeps an attribute without running any code (what ``hasattr`` of
a special name answers from) are :mod:`sandbox._guards_dicts`'s; their names
are not re-exported.

What this policy protects: the interpreter's internals (names starting with
``_``, frames, code, generator and coroutine state), the real modules behind
the façades, and objects the program did not create (it may only change its
own). What it does not try to do is per-object permission checks on every
element of an iteration, which is what RestrictedPython's ``_getiter_`` hook
exists for in Zope: here iteration hands out only objects that already exist,
and every further use of them goes through the attribute and item guards, so
``_getiter_`` is the builtin ``iter`` and the unpacking hooks leave unpacking
native.

Fast paths (DESIGN.md §8): the attribute guard returns at once for names that
cannot be private or internal; the item guard indexes exact ``dict``/
``list``/``str``/``tuple`` directly; the write guard remembers the program's
classes after the first write. Together with the native operations the
transformer emits, arithmetic runs at the speed of plain CPython and
attribute-, item- and write-heavy loops stay well under twice its time.
"""

from __future__ import annotations

import _string  # type: ignore[import-not-found]  # the field-name splitter str.format uses
import abc
import contextlib
import enum
import functools
import string
import types
import typing
from typing import TYPE_CHECKING, Any, Final, NoReturn

from ._attribute_names import (
    ASYNC_STEP_ATTRIBUTES,
    BLOCKED_ATTRIBUTES,
    DEFINABLE_DUNDERS,
    INPLACE_OPERATORS,
    RUNTIME_CHECKED_ATTRIBUTES,
    STEP_ATTRIBUTES,
)
from ._compile import MODEL_FILENAME
from ._guards_dicts import _class_dict, _has_special, _is_special_name, _own_attributes
from ._guards_own import (
    guarded_own,
    is_own_name,
    is_program_object,
    refuse_blocked,
    refuse_underscore,
    type_label,
    unbound_library_method,
)
from ._guards_write import (
    NAMESPACES,
    SimpleNamespace,
    checked_namespace_init,
    guarded_delattr,
    guarded_setattr,
    guarded_write,
    object_setattr,
)
from ._library import handed_out, self_checked
from ._program import (
    MODEL_MODULE,
    VISIBLE_CLASSES,
    is_program_class,
    is_program_function,
    is_recorded_program_class,
    own_special_method,
    ran_by_a_task,
    real_mro,
)
from ._types import class_of

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

__all__ = [
    "MODEL_MODULE",
    "SimpleNamespace",
    "guarded_apply",
    "guarded_delattr",
    "guarded_getattr",
    "guarded_getitem",
    "guarded_hasattr",
    "guarded_iter_unpack_sequence",
    "guarded_own",
    "guarded_setattr",
    "guarded_unpack_sequence",
    "guarded_write",
    "is_program_class",
    "safe_anext",
    "set_visible_classes",
    "visible_classes",
]


_MISSING: Final[Any] = object()
_SLOW_NAMES: Final = BLOCKED_ATTRIBUTES | RUNTIME_CHECKED_ATTRIBUTES
#: Dunders read as they are: strings, or (the chaining ones) an exception or None.
_PLAIN_DUNDERS: Final = frozenset(
    {"__name__", "__qualname__", "__doc__", "__cause__", "__context__"}
)
#: The chaining dunders: the exception they give is handed out as ``except`` hands one.
_CHAINED: Final = frozenset({"__cause__", "__context__"})
_METHOD_DUNDERS: Final = DEFINABLE_DUNDERS | {"__init__"}
#: Special methods read from a class only if it is the program's: the ones that
#: change their object, and the ones that step an awaitable or an async
#: iterator (``type(call).__await__(call)`` would hand out the iterator of the
#: real future behind a tool call, ready to be stepped by hand).
_PROGRAM_ONLY_DUNDERS: Final = frozenset(
    {"__setitem__", "__delitem__", "__await__", "__anext__"}
    | {f"__i{op}__" for op in INPLACE_OPERATORS}
)


def guarded_getattr(obj: object, name: str, default: Any = _MISSING) -> Any:
    """``getattr`` for restricted code (``_getattr_`` and the ``getattr`` builtin)."""
    if type(name) is not str:
        raise TypeError(f"attribute name must be a str, not {type(name).__name__}")
    if name[:1] != "_" and name not in _SLOW_NAMES:
        # The fast path: a name that cannot be private or internal.
        if default is _MISSING:
            return getattr(obj, name)
        return getattr(obj, name, default)
    value = _checked_getattr(obj, name, default)
    return value


def _checked_getattr(obj: object, name: str, default: Any) -> Any:
    if name in BLOCKED_ATTRIBUTES or name.endswith("__roles__"):
        refuse_blocked(name)
    if type(obj) is super:
        _refuse_skipped_override(obj, name)
    if name in RUNTIME_CHECKED_ATTRIBUTES:
        return _runtime_checked(obj, _unaliased(obj), name, default)
    if name == "__class__":
        return class_of(obj)
    if name == "__members__" and isinstance(obj, type) and enum.Enum in real_mro(obj):
        # An enum's members by name, as models read them; a dict of its own
        # (the real one is a mapping proxy, which the shield withholds).
        return dict(_enum_members(obj))
    if name == "__setattr__":
        if obj is object:
            return object_setattr
        refuse_underscore(name)
    if name == "__match_args__":
        found = _match_args(obj)
        if found is _MISSING:
            return _missing_attribute(obj, name, default)
        return found
    if name in DEFINABLE_DUNDERS and type(obj) is not super and not isinstance(obj, type):
        # `self.__add__(other)` in `__radd__`: the program's own method on its own
        # object, which `type(self).__add__(self, other)` already reads.
        method = _own_special(obj, name)
        if method is not None:
            return method
    if not (
        name in _PLAIN_DUNDERS
        or (is_own_name(name) and guarded_own(obj, name) is obj)
        or (
            name in _METHOD_DUNDERS
            and (
                type(obj) is super
                or (
                    isinstance(obj, type)
                    and (name not in _PROGRAM_ONLY_DUNDERS or is_program_class(obj))
                )
            )
        )
    ):
        # The reviewed dunders pass as they are; `_x` names on the program's own
        # objects; the special methods on super() and on classes: super().__init__(...),
        # Base.__eq__(self, other). `dict.__setitem__(x, k, v)` would write past
        # the write guard, so the writing ones (and the stepping ones) are only
        # read from the program's own classes.
        refuse_underscore(name)
    if type(obj) is super and (name == "__init__" or name in _PROGRAM_ONLY_DUNDERS):
        # super() binds what it finds to its object: a constructor, a writing or a
        # stepping special method would run on it, so it must be one the program
        # may change (super().__init__() in the program's own class: its own self).
        guarded_write(obj.__self__)  # type: ignore[attr-defined]
    value = _plain_getattr(obj, name, default)
    if (
        name == "__init__"
        and type(obj) is super
        and isinstance(obj.__self__, NAMESPACES)  # type: ignore[attr-defined]
        and type(value) is not types.MethodType
    ):
        # super(SimpleNamespace, ns).__init__ is the real one, which takes any name.
        return checked_namespace_init(value, obj.__self__)  # type: ignore[attr-defined]
    if name in _CHAINED and issubclass(type(value), BaseException):
        return handed_out(value, f"the {name} of an exception")
    if type(value) is types.FunctionType:
        # A library class's Python method, unbound (from its class, a program
        # class deriving from it, super() or an alias of either): it would run
        # with any self the program chose (TaskGroup.__init__(mine) stores a
        # real task group on a program object). C methods check their self;
        # this one now does.
        owner = unbound_library_method(_unaliased(obj), name)
        if owner is not None:
            value = self_checked(value, owner)
    if name == "__init__" and type(value) in _UNBOUND and not is_program_function(value):
        return _initializer(value)
    return value


def _missing_attribute(obj: object, name: str, default: Any) -> Any:
    """``default``, or the ``AttributeError`` Python raises for an attribute ``obj`` lacks."""
    if default is not _MISSING:
        return default
    if isinstance(obj, type):
        raise AttributeError(f"type object {obj.__qualname__!r} has no attribute {name!r}")
    raise AttributeError(f"{type(obj).__qualname__!r} object has no attribute {name!r}")


def _match_args(obj: object) -> Any:
    """``__match_args__`` of a program class (or of an instance of one): its field names.

    What a ``match`` class pattern reads: a ``@dataclass``, ``NamedTuple`` or
    ``namedtuple`` makes it, and rule 2 checked its names when the class was
    made. Read from the class dicts along the real MRO (no descriptor runs),
    and handed out only as an exact tuple of exact strings; ``_MISSING`` when
    the class has none. Refused on every other object.
    """
    cls = obj if isinstance(obj, type) else type(obj)
    if is_program_class(cls) and (obj is cls or "__match_args__" not in _own_attributes(obj)):
        for klass in real_mro(cls):
            found = _class_dict(klass).get("__match_args__", _MISSING)
            if found is _MISSING:
                continue
            if type(found) is tuple and all(type(field) is str for field in found):
                return found
            break
        else:
            return _MISSING
    refuse_underscore("__match_args__")


def _own_special(obj: object, name: str) -> Any:
    """``obj.name``, bound, if it is a special method the program wrote in ``obj``'s class.

    Only on an instance of the program's class, only the method its class
    statement defined (a ``def``, a lambda or an alias of one: recorded by
    ``sandbox._classes``), found where the interpreter finds it - the first
    class along the real MRO that has the name, with no instance attribute of
    that name in front of it. An inherited library method, or one library code
    set on the class later (``dataclass``, ``total_ordering``), is not: ``None``.
    The program already reads the same method as ``type(obj).name`` and calls it
    with ``obj``; this is that call, bound.
    """
    cls = type(obj)
    if not is_program_class(cls):
        return None
    for klass in real_mro(cls):
        found = _class_dict(klass).get(name, _MISSING)
        if found is _MISSING:
            continue
        if (
            is_recorded_program_class(klass)
            and own_special_method(klass, name, found)
            and type(found) is types.FunctionType
            and name not in _own_attributes(obj)
        ):
            return types.MethodType(found, obj)
        return None
    return None


#: What reading a method from a class (or ``super()`` over one) gives: unbound.
_UNBOUND: Final = (types.FunctionType, types.WrapperDescriptorType, types.MethodDescriptorType)


#: ``EnumType.__members__``'s own reader: an enum class cannot answer for it.
_enum_members: Final = enum.EnumType.__dict__["__members__"].fget


def _initializer(init: Callable[..., Any]) -> Callable[..., Any]:
    """``init``, a library's ``__init__`` read from a class, for objects the program may change.

    Calling a constructor on an existing object changes it past the write
    guard: ``property.__init__(calendar.Calendar.firstweekday, getter)`` swapped
    a library property's getter, and ``BaseException.__init__`` rewrites an
    exception's arguments. So the object passes the same check as a write to
    one of its attributes (``guarded_write``); ``Base.__init__(self, ...)`` in
    a program class's own ``__init__`` is a write to the program's own object.
    """

    def __init__(self: object, /, *args: Any, **kwargs: Any) -> Any:
        guarded_write(self)  # the check; the constructor runs on the object itself
        return init(self, *args, **kwargs)

    __init__.__qualname__ = getattr(init, "__qualname__", "__init__")
    __init__.__doc__ = getattr(init, "__doc__", None)
    return __init__


#: Generic aliases (``list[int]``, ``typing.List[int]``, ``Annotated[str, x]``)
#: relay attribute reads to the object they alias, natively; and a program can
#: build one over any object (``type(list[int])(obj, ())``).
_ALIAS_TYPES: Final = (types.GenericAlias, typing._BaseGenericAlias)  # type: ignore[attr-defined]


def _unaliased(obj: object) -> object:
    """The object an attribute read on ``obj`` really reaches.

    Generic aliases relay to their origin, and a bound method (which
    ``classmethod(x)`` makes of any ``x``) to its ``__func__``.
    """
    while True:
        cls = type(obj)
        if issubclass(cls, _ALIAS_TYPES):
            obj = obj.__origin__  # type: ignore[attr-defined]
        elif cls is types.MethodType:
            obj = obj.__func__  # type: ignore[attr-defined]
        else:
            return obj


#: Classes whose objects keep keywords they later pass to a call themselves
#: (``functools.partial``'s ``keywords``, a ``contextmanager`` object's ``kwds``);
#: the façades add their own.
KEYWORD_HOLDERS: tuple[type, ...] = (
    functools.partial,
    contextlib._GeneratorContextManagerBase,
)


def add_keyword_holder(cls: type) -> None:
    """Record a class whose ``keywords`` are unpacked into a call (see ``KEYWORD_HOLDERS``)."""
    global KEYWORD_HOLDERS
    KEYWORD_HOLDERS = (*KEYWORD_HOLDERS, cls)


_REAL_FORMATTERS: Final = {str.format: "format", str.format_map: "format_map"}


def _guarded_formatter(value: Any) -> Any:
    """The guarded version of ``value`` if it is the real ``str.format``/``format_map``.

    Decided on the value, wherever it was found: a cache or a decorator can copy
    ``str.__dict__`` onto another object.
    """
    name = _REAL_FORMATTERS.get(value) if type(value) is types.MethodDescriptorType else None
    if name is not None:
        return _unbound_format if name == "format" else _unbound_format_map
    if type(value) is types.BuiltinMethodType and isinstance(value.__self__, str):
        if value.__name__ == "format":
            return _bound_format(value.__self__)
        if value.__name__ == "format_map":
            return _bound_format_map(value.__self__)
    return value


def _runtime_checked(obj: object, target: object, name: str, default: Any) -> Any:
    """A name whose answer depends on ``target``, the object the read on ``obj`` reaches."""
    if name == "format" or name == "format_map":
        if isinstance(target, str):
            return _bound_format(target) if name == "format" else _bound_format_map(target)
        if isinstance(target, type) and issubclass(target, str):
            return _unbound_format if name == "format" else _unbound_format_map
        if type(target) is super and not _found_on_program_class(target, name):
            # super(S, s).format would be the real str.format.
            raise AttributeError(f'"{name}" cannot be read through super()')
        return _guarded_formatter(_plain_getattr(obj, name, default))
    elif name == "obj" and isinstance(target, AttributeError):
        # AttributeError.obj may hold an object the program never had (CVE-2024-47532).
        raise AttributeError('"obj" of an AttributeError is not available')
    elif name == "mro":
        return _visible_mro(_plain_getattr(obj, name, default))
    elif name in STEP_ATTRIBUTES:
        if not (_is_program_generator(target) or is_program_object(target)):
            _refuse_stepping(target, name)
    elif name == "close":
        # A suspended coroutine is one a task is running (stepping one by hand
        # is refused above): closing it would end it under the task.
        if ran_by_a_task(target):
            raise AttributeError(
                '"close" of a coroutine a task is running is not available in run_code: '
                "cancel the task instead (task.cancel())"
            )
    elif name in ASYNC_STEP_ATTRIBUTES:
        if type(target) is types.AsyncGeneratorType:
            return _awaited(getattr(target, name))
        if not is_program_object(target):
            _refuse_stepping(target, name)
    elif name == "keywords" or name == "kwds":
        value = _plain_getattr(obj, name, default)
        if type(value) is dict and isinstance(target, KEYWORD_HOLDERS):
            # Unpacked into a call natively, so never changed by the program: it
            # reads a copy (a dict, as in Python, which a program may return).
            return dict(value)
        return value
    elif name == "register" and isinstance(target, abc.ABCMeta):
        # Virtual subclasses make isinstance() lie about objects the program built.
        raise AttributeError(
            '"register" of an abstract base class is not available in run_code '
            "(virtual subclasses); derive from the class instead"
        )
    return _plain_getattr(obj, name, default)


def _plain_getattr(obj: object, name: str, default: Any) -> Any:
    if default is _MISSING:
        return getattr(obj, name)
    return getattr(obj, name, default)


def _refuse_skipped_override(proxy: super, name: str) -> None:
    """Refuse ``super()`` finding ``name`` past a class that is not the program's and defines it.

    A façade overrides a library method to judge what the library's would do
    natively (``contextlib.closing``'s exit closes what it holds through the
    guard; rule 5): ``super(type(c), c).__exit__`` would find the real one
    behind the override, bound to the same object. So ``super()`` skips only
    the program's own definitions - ``super().name(...)`` in a method of the
    program's class - never a library's or a façade's. ``__init__`` is the
    constructor check's (rule 7): through ``super()`` its object must be one
    the program may change, and a namespace's is checked as the façade's is.
    """
    if name == "__init__":
        return
    bound: Any = proxy.__self_class__  # type: ignore[attr-defined]
    start: Any = proxy.__thisclass__  # type: ignore[attr-defined]
    if not isinstance(bound, type):
        return  # super(C) with no object: nothing is bound
    for cls in real_mro(bound):
        if not is_program_class(cls) and name in _class_dict(cls):
            raise AttributeError(
                f'"{name}" cannot be read through super() past {cls.__qualname__}, which '
                "defines it: super() reaches past the program's own classes only"
            )
        if cls is start:
            return


def _found_on_program_class(proxy: super, name: str) -> bool:
    """Whether ``super()`` finds ``name`` on one of the program's classes (its own method)."""
    start: Any = proxy.__thisclass__  # type: ignore[attr-defined]
    bound: Any = proxy.__self_class__  # type: ignore[attr-defined]
    if not isinstance(bound, type):
        return False
    order = bound.__mro__
    for cls in order[order.index(start) + 1 :] if start in order else ():
        if name in vars(cls):
            return is_program_class(cls)
    return False


def _is_program_generator(obj: object) -> bool:
    return type(obj) is types.GeneratorType and obj.gi_code.co_filename == MODEL_FILENAME


def _refuse_stepping(obj: object, name: str) -> NoReturn:
    raise AttributeError(
        f'"{name}" of a {type_label(obj)} object is not available in run_code: coroutines, '
        "awaitables and library iterators cannot be stepped by hand; await them instead"
    )


def _awaited(method: Callable[..., Any]) -> Callable[..., Any]:
    """An async generator's ``asend``/``athrow``/``aclose``, as a coroutine function.

    The awaitables the real methods return can be stepped by hand (``next()``,
    ``send``), which hands out whatever the generator awaits: a real future. A
    coroutine cannot be stepped by a program (its ``send`` is refused and it
    is not an iterator).
    """

    async def step(*args: Any) -> Any:
        return await method(*args)

    return step


def safe_anext(iterator: Any, *default: Any) -> Any:
    """The ``anext`` builtin, returning a coroutine (see :func:`_awaited` for why)."""
    awaitable = anext(iterator, *default)

    async def step() -> Any:
        return await awaitable

    return step()


#: The classes a program may see (the builtins' and the façades' classes),
#: set once when the façades are built; ``mro()`` shows these and the
#: program's own classes, and leaves out every other class on the way - the
#: real classes a façade replaces (the real ``enum.Enum`` behind the façade's
#: checked subclass), metaclasses and private helper classes.
_visible_classes: Final[set[type]] = VISIBLE_CLASSES


def visible_classes() -> set[type]:
    """The classes the builtins and façades expose (a copy)."""
    return set(_visible_classes)


def set_visible_classes(classes: set[type]) -> None:
    """Record the classes the builtins and façades expose (see :func:`_visible_mro`)."""
    _visible_classes.update(classes)


def _visible_mro(method: Any) -> Any:
    if not callable(method):
        return method

    def mro(*args: Any) -> Any:
        order = method(*args)
        if type(order) is not list:
            return order
        return [
            cls
            for cls in order
            if not isinstance(cls, type) or cls in _visible_classes or is_program_class(cls)
        ]

    return mro


def guarded_hasattr(obj: object, name: str) -> bool:
    """``hasattr`` for restricted code: whether the attribute exists, never its value.

    A name the guard refuses to hand out may still exist, and models ask about
    special methods all the time (``hasattr(x, "__iter__")`` in a ``flatten``,
    ``hasattr(r, "__await__")`` before awaiting): answering "absent" for them
    gave wrong results, silently. A special name is looked up where the
    interpreter finds it, in the class dicts along the real MRO (and in an
    exception's or a program object's own dict, where ``__notes__`` lives),
    without running any descriptor: a bool is all the program gets.
    """
    try:
        guarded_getattr(obj, name)
    except AttributeError:
        return type(name) is str and _is_special_name(name) and _has_special(obj, name)
    return True


_PLAIN_CONTAINERS: Final = frozenset({dict, list, str, tuple})


def guarded_getitem(obj: Any, key: Any) -> Any:
    """``obj[key]`` for restricted code (``_getitem_``)."""
    if type(obj) in _PLAIN_CONTAINERS:
        return obj[key]
    if type(obj) is types.MappingProxyType:
        # Class namespaces: the one mapping whose keys are private names of
        # objects the program did not create. (The compiler leaves subscripts
        # with literal keys that do not start with "_" native for this reason.)
        # Any other key - a str subclass, or an object of any class - could hash
        # and compare like a private name whatever its own text, so a key is
        # looked up only if it is of an exact builtin type that runs no program
        # code when hashed or compared, and a str's own text is what is checked.
        kind = type(key)
        if kind is str:
            if key[:1] == "_":
                raise TypeError(
                    f"reading the private entry {key!r} of a class namespace is not allowed"
                )
        elif kind not in _PROXY_KEY_TYPES:
            raise TypeError(
                "a mapping proxy (a class namespace, or a view of a mapping) is read only "
                f"with keys of exact builtin types (str, int, float, bool, bytes, None), not "
                f"{kind.__name__}"
            )
    return obj[key]


#: Keys that hash and compare without running program code (besides exact ``str``).
_PROXY_KEY_TYPES: Final = frozenset({int, float, complex, bool, bytes, type(None)})


def guarded_iter_unpack_sequence(it: Any, spec: object, getiter: Callable[[Any], Any]) -> Any:
    """``_iter_unpack_sequence_``: ``for a, b in it``; unpacking stays native."""
    return getiter(it)


def guarded_unpack_sequence(it: Any, spec: object, getiter: Callable[[Any], Any]) -> Any:
    """``_unpack_sequence_``: ``a, b = it``; unpacking stays native."""
    return it


def guarded_apply(func: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Any:
    """``_apply_``: a call written with ``*args`` or ``**kwargs``.

    Keyword names must be exact ``str``: the interpreter matches a keyword to a
    Python function's parameters by calling the key's ``__eq__`` with each
    parameter name, so a ``str`` subclass would run program code inside the
    binding and bind to a parameter its text does not name (rule 3). ``func``
    is positional-only so that no keyword is compared with it.
    """
    for name in kwargs:
        if type(name) is not str:
            raise TypeError(
                f"keyword names must be exact str, not {type(name).__name__}; "
                "pass str(name) for a str subclass such as a StrEnum member"
            )
    return func(*args, **kwargs)


# -- str.format that walks fields through the guards ----------------------------------


class _GuardedFormatter(string.Formatter):
    """``str.format`` semantics, with every ``{0.attr}`` / ``{0[key]}`` step guarded.

    Attribute steps refuse every ``_``-prefixed name (including the reviewed
    dunders the getattr guard allows: a format string has no business
    reading ``__class__``) and then go through :func:`guarded_getattr`; item
    steps go through :func:`guarded_getitem`.
    """

    def get_field(self, field_name: str, args: Sequence[Any], kwargs: Mapping[str, Any]) -> Any:
        first, rest = _string.formatter_field_name_split(field_name)
        obj = self.get_value(first, args, kwargs)
        for is_attr, key in rest:
            if is_attr:
                if key[:1] == "_":
                    refuse_underscore(key)
                obj = guarded_getattr(obj, key)
            else:
                obj = guarded_getitem(obj, key)
        return obj, first


_FORMATTER: Final = _GuardedFormatter()


def _bound_format(template: str) -> Callable[..., str]:
    def format(*args: Any, **kwargs: Any) -> str:
        return _FORMATTER.vformat(template, args, kwargs)

    return format


def _bound_format_map(template: str) -> Callable[[Mapping[str, Any]], str]:
    def format_map(mapping: Mapping[str, Any]) -> str:
        return _FORMATTER.vformat(template, (), mapping)

    return format_map


def _unbound_format(template: str, /, *args: Any, **kwargs: Any) -> str:
    if not isinstance(template, str):
        raise TypeError(
            "descriptor 'format' requires a 'str' object but received a "
            f"{type(template).__name__!r}"
        )
    return _FORMATTER.vformat(template, args, kwargs)


def _unbound_format_map(template: str, mapping: Mapping[str, Any], /) -> str:
    if not isinstance(template, str):
        raise TypeError(
            "descriptor 'format_map' requires a 'str' object but received a "
            f"{type(template).__name__!r}"
        )
    return _FORMATTER.vformat(template, (), mapping)
