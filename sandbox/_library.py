"""Library code as a program meets it: methods check their ``self``, results hide nothing.

Rules 7 and 9 of SECURITY.md. A library class's plain-Python method read from
its class would run with any ``self`` the program chose, so every public
method of the classes a program can reach is replaced, in the zygote, by one
that checks its ``self`` (:func:`check_library_selves`, and
:func:`reveal_class` for each class ``type()`` hands out later). What library
code returns, and every exception the program is about to hold, goes through
one check that refuses a hidden class and the interpreter's own objects
(:func:`handed_out`, :func:`caught`).

This module runs in the child.
"""

from __future__ import annotations

import types
import weakref
from typing import TYPE_CHECKING, Any, Final, NoReturn, TypeAlias

from ._program import (
    RUNTIME_OBJECTS,
    VISIBLE_CLASSES,
    hidden_class,
    is_program_class,
    is_program_function,
    is_recorded_program_class,
    real_mro,
    revealed,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

__all__ = [
    "CAUGHT_LIMIT",
    "caught",
    "check_library_selves",
    "handed_out",
    "result_checked",
    "reveal_class",
    "self_checked",
]


def _refuse_runtime_object(value: object, where: str) -> NoReturn:
    raise TypeError(
        f"{where} would hand the program a {type(value).__name__} object, the interpreter's "
        "own; run_code keeps them (their frames are the host's)"
    )


def _dict_parts(mapping: dict[Any, Any]) -> Iterable[Any]:
    """A dict's keys and values, read by the interpreter (no method of a subclass runs)."""
    return (part for pair in dict.items(mapping) for part in pair)


def _dict_parts_count(mapping: dict[Any, Any]) -> int:
    return 2 * dict.__len__(mapping)


_Reader: TypeAlias = "Callable[[Any], Iterable[Any]]"

#: The containers whose items :func:`handed_out` and :func:`caught` look at, at
#: any depth, with the interpreter's own reader and size of each: subclasses
#: included (a named tuple), read through the base class so that no method of a
#: subclass runs.
_CONTAINERS: Final[tuple[tuple[type, _Reader, Callable[[Any], int]], ...]] = (
    (dict, _dict_parts, _dict_parts_count),
    (tuple, tuple.__iter__, tuple.__len__),
    (list, list.__iter__, list.__len__),
    (set, set.__iter__, set.__len__),
    (frozenset, frozenset.__iter__, frozenset.__len__),
)


#: Item types that hold nothing: the walk passes them at once.
_PLAIN_ITEMS: Final = frozenset({int, float, str, bool, bytes, type(None)})


def handed_out(value: Any, where: str) -> Any:
    """``value``, which library code ``where`` is handing to the program, if it hides nothing.

    Library code applies the real ``type()`` to what it is given: given a
    program's class among its data, it holds that class's metaclass
    (``statistics`` takes ``type()`` of each data point as the type of its
    result, then calls it). A hidden class (:func:`hidden_class`) that library
    code returns - as the value, or as an item of a tuple, list, set or dict it
    returns, at any depth - is refused here, so it never reaches the program.
    An object of a library class is handed out as it is, its class swept as
    :func:`reveal_class` does.
    """
    cls = type(value)
    if issubclass(cls, type) or issubclass(cls, RUNTIME_OBJECTS):
        _check_handed_item(value, where)
        return value
    if cls is types.FunctionType and _raw_library_function(value):
        # A library function one returns (typing.overload hands back its own
        # _overload_dummy) reaches the program only in the checked form.
        return result_checked(value, where)
    if _items_reader(cls) is not None:
        _check_handed_items(value, where)
    if issubclass(cls, BaseException):
        caught(value)
    elif _sweeping_revealed and cls not in _swept and cls.__module__ != "builtins":
        # An object of a class no façade lists (a library's named tuple too):
        # its methods check their self, and what they return, before the
        # program has it (rule 7).
        reveal_class(cls)
    return value


def _items_reader(cls: type) -> Callable[[Any], Iterable[Any]] | None:
    """The interpreter's reader of the items of a ``cls`` container, or None if not one."""
    for base, reader, _size in _CONTAINERS:
        if issubclass(cls, base):
            return reader
    return None


def _items_size(cls: type) -> Callable[[Any], int]:
    """The interpreter's count of the items of a ``cls`` container (a dict's: keys and values)."""
    for base, _reader, size in _CONTAINERS:
        if issubclass(cls, base):
            return size
    raise AssertionError(f"{cls!r} is not a container")


def _check_handed_items(value: object, where: str) -> None:
    """Check every item of container ``value`` and of the containers in it, at any depth.

    One pass over an explicit stack (a deep nesting cannot overflow the C
    stack) that visits each container once (a cycle ends). A dict's keys are
    items too. An exception among them is checked as :func:`caught` checks
    one (``asyncio.gather(..., return_exceptions=True)``).
    """
    stack = [value]
    seen = {id(value)}
    while stack:
        container = stack.pop()
        reader = _items_reader(type(container))
        assert reader is not None
        for item in reader(container):
            kind = type(item)
            if kind in _PLAIN_ITEMS:
                continue
            if issubclass(kind, type) or issubclass(kind, RUNTIME_OBJECTS):
                _check_handed_item(item, where)
            elif _items_reader(kind) is not None:
                if id(item) not in seen:
                    seen.add(id(item))
                    stack.append(item)
            elif issubclass(kind, BaseException):
                caught(item)
            elif kind is types.FunctionType and _raw_library_function(item):
                raise TypeError(
                    f"{where} would hand the program a library function inside its result; "
                    "run_code hands library functions out only as the façades list them"
                )


def _raw_library_function(function: types.FunctionType) -> bool:
    """Whether ``function`` is a library's plain Python function not yet in its checked form."""
    return not (_wrapped(function) or is_program_function(function))


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
    tuples, lists, sets and dicts at any depth, is handed out as
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
        if cls is types.FunctionType and _raw_library_function(value):
            # As in what a library returns: its Python function reaches the
            # program only in the checked form, never inside a value it holds.
            raise TypeError(
                f"an exception ({type(error).__name__}) that library code raised holds a "
                "library function in its arguments; run_code hands library functions out "
                "only as the façades list them"
            )
        is_error = issubclass(cls, BaseException)
        if not (is_error or _items_reader(cls) is not None):
            continue
        if id(value) in seen:
            continue
        seen.add(id(value))
        if is_error:
            if _sweeping_revealed and cls not in _swept and cls.__module__ != "builtins":
                reveal_class(cls)
            value = _exception_args(value) + (
                _group_exceptions(value) if issubclass(cls, BaseExceptionGroup) else ()
            )
            cls = tuple
        looked_at += _items_size(cls)(value)
        if looked_at > CAUGHT_LIMIT:
            raise TypeError(
                f"an exception ({type(error).__name__}) holds more than {CAUGHT_LIMIT} values "
                "in its arguments, too many to check before the program may hold it; raise "
                "exceptions with short arguments (a message, a few values)"
            )
        reader = _items_reader(cls)
        assert reader is not None
        pending.extend(reader(value))
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
    revealed.add(cls)
    return cls





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
            if cls in _swept or cls.__module__ == "builtins" or is_recorded_program_class(cls):
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
