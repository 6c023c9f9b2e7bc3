"""The attribute names a program's source may use, and how each is read.

The tables the language policy (:mod:`sandbox._policy`) applies to the
source, and the runtime guards (:mod:`sandbox._guards`, :mod:`sandbox._classes`)
apply again to names that only exist at run time: which names are refused
outright, which the ``getattr`` guard decides per object, which special
methods a program may read or define, and :func:`read_natively`, the one rule
for when an attribute read may skip the guard.
"""

from __future__ import annotations

from typing import Final

from RestrictedPython.transformer import INSPECT_ATTRIBUTES

__all__ = [
    "ASYNC_STEP_ATTRIBUTES",
    "BLOCKED_ATTRIBUTES",
    "DEFINABLE_DUNDERS",
    "INPLACE_OPERATORS",
    "READABLE_DUNDERS",
    "RESERVED_PRIVATE_ATTRIBUTES",
    "RUNTIME_CHECKED_ATTRIBUTES",
    "STEP_ATTRIBUTES",
    "read_natively",
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
        # The keywords a partial (``functools.partial``/``partialmethod``) or a
        # ``contextmanager`` object keeps and later unpacks into a call itself,
        # past the ``_apply_`` guard's check that keyword names are exact str:
        # the guard hands out a copy of them.
        "keywords",
        "kwds",
        # A coroutine's ``close()`` while a task runs it ends it under the
        # task (from Python 3.13 it also hands back the coroutine's return
        # value): the guard refuses it on a suspended coroutine.
        "close",
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
        "__match_args__",  # of the program's classes only: an exact tuple of exact str
        # Only on `object` itself: `object.__setattr__(self, name, value)` in a frozen
        # dataclass's __post_init__, a write with setattr()'s checks.
        "__setattr__",
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
#: ``__mro_entries__``, ``__prepare__``); ``__new__`` and ``__del__``.
#: ``__format__`` is here: ``format()``, f-strings and ``str.format`` call it
#: with a ``str`` spec, and it is shielded like the operators (rule 8).
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
        "__format__",
    }
)


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
