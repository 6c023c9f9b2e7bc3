"""Library code as a program meets it: methods check their ``self``, results hide nothing.

Rules 7 and 9 of SECURITY.md. A library class's plain-Python method read from
its class would run with any ``self`` the program chose, so every public
method of the classes a program can reach is replaced, in the zygote, by one
that checks its ``self`` (:func:`check_library_selves`, and
:func:`reveal_class` for each class ``type()`` hands out later). What library
code hands the program - what it returns, every exception the program is
about to hold, and everything inside either - goes through one check
(:func:`handed_out`) that refuses a hidden class and the runtime's own objects.

This module runs in the child.
"""

from __future__ import annotations

import collections
import types
import weakref
from typing import TYPE_CHECKING, Any, Final, NoReturn

from ._program import (
    HIDDEN_OBJECTS,
    LOOP_OBJECTS,
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
    "CONTAINER_READERS",
    "CONTAINER_TYPES",
    "check_library_selves",
    "handed_out",
    "items_reader",
    "result_checked",
    "reveal_class",
    "self_checked",
    "withhold_loop_objects",
]


def _dict_parts(mapping: dict[Any, Any]) -> Iterable[Any]:
    """A dict's keys and values, read by the interpreter (no method of a subclass runs)."""
    return (part for pair in dict.items(mapping) for part in pair)


_DICT_VIEWS: Final[tuple[type, ...]] = (type({}.keys()), type({}.values()), type({}.items()))

#: The containers whose items :func:`handed_out` looks at, at any depth, with
#: the interpreter's own reader of each: subclasses included (a named tuple, an
#: ordered dict), read through the base class so that no method of a subclass
#: runs; a dict view iterates its dict natively.
CONTAINER_READERS: Final[tuple[tuple[type, Callable[[Any], Iterable[Any]]], ...]] = (
    (dict, _dict_parts),
    (tuple, tuple.__iter__),
    (list, list.__iter__),
    (set, set.__iter__),
    (frozenset, frozenset.__iter__),
    (collections.deque, collections.deque.__iter__),
    *((view, iter) for view in _DICT_VIEWS),
)

#: The container types themselves (the shield of rule 8 looks inside the same ones).
CONTAINER_TYPES: Final = tuple(kind for kind, _ in CONTAINER_READERS)

_EXACT_READERS: Final = dict(CONTAINER_READERS)

#: The most values :func:`handed_out` looks at inside one exception before it
#: refuses it. The program is handed an exception again at every ``except ...
#: as`` that names it and every ``__context__`` read, so what one holds stays
#: short; a returned value is looked at once, whole, however large.
CAUGHT_LIMIT: Final = 100_000

#: Item types that hold nothing: the walk passes them at once.
_PLAIN_ITEMS: Final = frozenset({int, float, complex, str, bool, bytes, type(None)})

#: The interpreter's own readers of an exception's arguments and a group's
#: exceptions: a program's exception class cannot answer for them.
_exception_args: Final = BaseException.__dict__["args"].__get__
_group_exceptions: Final = BaseExceptionGroup.__dict__["exceptions"].__get__


#: Whether the program's ``asyncio`` is the façade: with the language layer in
#: force it is, so the program holds none of the event loop's objects, and
#: none crosses. A run with the layer off (an ablation mode) gives the program
#: the real module, whose tasks and futures - and queues of them, taken out
#: through the checked ``Queue.get_nowait`` - are its own by design. A list,
#: set for each run (:func:`withhold_loop_objects`).
_loop_objects_withheld: list[bool] = [True]


def withhold_loop_objects(withheld: bool) -> None:
    """Say whether the next run's program gets the asyncio façade (the language layer)."""
    _loop_objects_withheld[0] = withheld


def handed_out(value: Any, where: str) -> Any:
    """``value``, crossing from library code ``where`` to the program, once it hides nothing.

    The one check of rule 9, for every door by which library code hands the
    program a value: what a library function or method returns, and every
    exception the program is about to hold (``except ... as``, the value a
    ``with`` statement hands ``__exit__``, ``__context__``, ``__cause__``).
    The value and everything in it - the items of tuples, lists, sets, dicts
    (keys too), deques and dict views, subclasses read natively, and the
    arguments of an exception and the exceptions of a group - at any depth,
    each container once, is held to one rule:

    * a class the program may not hold (:func:`_withheld`: a metaclass, a
      class of the runtime's own) is refused; one the library made on bases
      the program holds is swept and handed out (:func:`reveal_class`);
    * one of the runtime's own objects (``HIDDEN_OBJECTS``: a frame,
      traceback or code object, a mapping proxy, a real future or task, an
      event loop, a callback handle, the selector) is refused; the event
      loop's only while the program's asyncio is the façade
      (:func:`withhold_loop_objects`);
    * a library's plain Python function is handed out only in its checked
      form: as the value itself, checked; inside it, refused;
    * any other object of a library class, and every exception, has its class
      swept (rule 7) before the program has it, without recording the class
      as held: the program holds the class only once ``type()`` (or a class
      among the values) hands it over;
    * an exception holding more than :data:`CAUGHT_LIMIT` values is refused:
      what was not looked at is not handed out.

    Refusals are ``TypeError`` exceptions that say what to pass instead.
    """
    cls = type(value)
    if cls in _PLAIN_ITEMS:
        return value
    if cls is types.FunctionType and _raw_library_function(value):
        # A library function one returns (typing.overload hands back its own
        # _overload_dummy) reaches the program only in the checked form.
        return result_checked(value, where)
    _check_crossing(value, where)
    return value


def _check_crossing(value: object, where: str) -> None:
    """Apply :func:`handed_out`'s rule to ``value`` and everything in it.

    One pass over an explicit stack (a deep nesting cannot overflow the C
    stack) that visits each container and exception once (a cycle ends).
    Each pending value carries the outermost exception holding it, which a
    refusal names; what exceptions hold is counted against :data:`CAUGHT_LIMIT`.
    Classes are swept, and recorded as the program's, only once the whole
    value has passed: nothing of a refused value is recorded.
    """
    pending: list[tuple[object, BaseException | None]] = [(value, None)]
    seen: set[int] = set()
    looked_at = 0
    # Swept and recorded only once the whole value may cross.
    to_reveal: list[type] = []
    to_sweep: set[type] = set()
    while pending:
        item, holder = pending.pop()
        kind = type(item)
        if kind in _PLAIN_ITEMS:
            continue
        if issubclass(kind, type):
            if _withheld(item):  # type: ignore[arg-type]
                _refuse_class(where, holder)
            if hidden_class(item):
                to_reveal.append(item)  # type: ignore[arg-type]
            continue
        if issubclass(kind, HIDDEN_OBJECTS) and (
            _loop_objects_withheld[0] or not issubclass(kind, LOOP_OBJECTS)
        ):
            _refuse_object(item, where, holder)
        if kind is types.FunctionType:
            if _raw_library_function(item):  # type: ignore[arg-type]
                _refuse_function(where, holder)
            continue
        is_error = issubclass(kind, BaseException)
        reader = None if is_error else items_reader(kind)
        if not is_error and reader is None:
            to_sweep.add(kind)
            continue
        if id(item) in seen:
            continue
        seen.add(id(item))
        if is_error:
            to_sweep.add(kind)
            parts = _exception_args(item) + (
                _group_exceptions(item) if issubclass(kind, BaseExceptionGroup) else ()
            )
            holder = item if holder is None else holder  # type: ignore[assignment]
        else:
            assert reader is not None
            parts = reader(item)
        for part in parts:
            if holder is not None:
                looked_at += 1
                if looked_at > CAUGHT_LIMIT:
                    _refuse_large(holder)
            if type(part) not in _PLAIN_ITEMS:
                pending.append((part, holder))
    for cls in to_sweep:
        _sweep_class_of(cls)
    for cls in to_reveal:
        reveal_class(cls)


def items_reader(cls: type) -> Callable[[Any], Iterable[Any]] | None:
    """The interpreter's reader of the items of a ``cls`` container, or None if not one."""
    exact = _EXACT_READERS.get(cls)
    if exact is not None:
        return exact
    for base, reader in CONTAINER_READERS:
        if issubclass(cls, base):
            return reader
    return None


def _sweep_class_of(cls: type) -> None:
    """Sweep ``cls``, the class of an object about to cross to the program (rule 7).

    Not recorded as held (:data:`revealed`): an object's class reaches the
    program only through ``type()``, which records it then. Library code also
    calls the checked methods of other library objects, so what such a call
    returns may never reach the program at all.
    """
    if (
        _sweeping_revealed
        and cls not in _swept
        and not is_recorded_program_class(cls)
        and cls.__module__ != "builtins"
        and not is_program_class(cls)
    ):
        _sweep((cls,))


def _raw_library_function(function: types.FunctionType) -> bool:
    """Whether ``function`` is a library's plain Python function not yet in its checked form."""
    return not (_wrapped(function) or is_program_function(function))


def _refuse_class(where: str, holder: BaseException | None) -> NoReturn:
    if holder is not None:
        raise TypeError(
            f"an exception ({type(holder).__name__}) that library code raised holds a class "
            "run_code hides (a metaclass, or a class of the runtime's own) in its arguments, "
            "so the program cannot hold it; catch it without `as`, or pass the library data "
            "values (numbers, strings, the program's objects), not classes"
        )
    raise TypeError(
        f"{where} returned a class that run_code hides (a metaclass, or a class of the "
        "runtime's own); pass it data values (numbers, strings, the program's objects), "
        "not classes"
    )


def _refuse_large(holder: BaseException) -> NoReturn:
    raise TypeError(
        f"an exception ({type(holder).__name__}) holds more than {CAUGHT_LIMIT} values "
        "in its arguments, too many to check before the program may hold it; raise "
        "exceptions with short arguments (a message, a few values)"
    )


def _refuse_object(value: object, where: str, holder: BaseException | None) -> NoReturn:
    source = where if holder is None else f"an exception ({type(holder).__name__})"
    raise TypeError(
        f"{source} would hand the program a {type(value).__name__} object, one of the "
        "runtime's own (the interpreter's own, a class namespace, or the event loop's); "
        "run_code keeps them: the asyncio façade hands out task objects, never the loop's"
    )


def _refuse_function(where: str, holder: BaseException | None) -> NoReturn:
    if holder is not None:
        raise TypeError(
            f"an exception ({type(holder).__name__}) that library code raised holds a "
            "library function in its arguments; run_code hands library functions out "
            "only as the façades list them"
        )
    raise TypeError(
        f"{where} would hand the program a library function inside its result; "
        "run_code hands library functions out only as the façades list them"
    )


def _withheld(cls: type) -> bool:
    """Whether library code may not hand the program ``cls``, a class (:func:`handed_out`).

    A hidden class is withheld, except a class the library made on bases the
    program already holds - ``csv.Sniffer().sniff()`` returns a new
    ``csv.Dialect`` subclass - which :func:`handed_out` hands out swept, as
    :func:`reveal_class` does. A metaclass, and a class of the runtime's own (``types.CodeType``,
    ``types.FunctionType``: their bases are ``object``), are always withheld.
    """
    if not hidden_class(cls):
        return False
    if issubclass(cls, type):
        return True
    bases = cls.__bases__
    return not (bases and all(base is not object and base in VISIBLE_CLASSES for base in bases))


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


#: The wrappers of library coroutine functions (``asyncio.sleep``): calling one gives
#: a coroutine, so ``asyncio.iscoroutinefunction`` says so. Marked where a façade is
#: built, in the zygote (telling reads the function's code, an event the tripwire
#: ends a run on).
_COROUTINE_WRAPPERS: weakref.WeakSet[Callable[..., Any]] = weakref.WeakSet()


def mark_coroutine_function(wrapper: Callable[..., Any]) -> None:
    """Record that calling ``wrapper`` (a :func:`result_checked` one) gives a coroutine."""
    _COROUTINE_WRAPPERS.add(wrapper)


def wraps_coroutine_function(obj: object) -> bool:
    """Whether ``obj`` is a wrapper :func:`mark_coroutine_function` recorded."""
    return type(obj) is types.FunctionType and obj in _COROUTINE_WRAPPERS


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
