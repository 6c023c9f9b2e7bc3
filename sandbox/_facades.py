"""Module façades and the guarded importer.

Every module a program may import is exposed as a **façade**: an object
holding only allow-listed attributes, never the real module. Module
attributes such as ``re.enum``, ``datetime.sys`` or ``json.codecs`` lead to
other modules and from there to ``sys.modules``; a façade has none of them.
What each façade holds, module by module, is listed in
``sandbox._facades_members``; this module makes the façades of it.

A façade is the only instance of a class made for it, whose class dictionary
holds the members: attribute reads are as fast as on a real module, a façade
has no instance dictionary, and its class is not a program class, so the
write guard refuses changes to either. A façade has no ``__name__``: the
interpreter's ``from m import x`` falls back to ``sys.modules[m.__name__ +
".x"]`` when ``x`` is missing, and the importer checks every imported name
up front as well.
"""

from __future__ import annotations

import functools
import hashlib
import importlib
import inspect
import json
import types
import typing
from typing import Any, Final, TypeGuard

from . import _facades_async as _aio
from . import _facades_members as _members
from . import _facades_text as _text
from ._library import mark_coroutine_function, result_checked
from ._missing_hints import MISSING_MEMBER_HINTS, MISSING_MODULE_HINTS

if typing.TYPE_CHECKING:
    from collections.abc import Callable, Mapping

__all__ = [
    "ALLOWED_MODULES", "FACADE_RESULT_CLASSES", "build_facades", "check_library_internals",
    "classes_behind", "make_importer", "named_as",
]


#: The runtime's own modules: their functions are the façades' wrappers, written
#: for programs; every other Python function is library code.
_OWN_MODULES: Final = ("sandbox.", "bridge.")


def named_as(value: object, name: str) -> None:
    """Give ``value``, if it is one of the runtime's own functions, the name a program calls.

    A builtin or façade member written here (``guarded_getattr`` for
    ``getattr``, ``safe_asdict`` for ``dataclasses.asdict``) prints, and words
    the ``TypeError`` of a wrong call, by its ``__qualname__``: the program
    reads ``asdict() missing 1 required positional argument: 'obj'`` and
    ``<function asdict at 0x...>``, never a name of the runtime's. Library
    functions (and their checked wrappers) keep the names Python gives them.
    """
    if type(value) is types.FunctionType and str(value.__module__).startswith(_OWN_MODULES):
        value.__name__ = value.__qualname__ = name


def _library_function(value: object) -> TypeGuard[Callable[..., Any]]:
    """Whether ``value`` is a library's Python function (or one bound to a library object).

    A library function behind ``functools.lru_cache`` (``urllib.parse.urlsplit``)
    counts too: the cache's wrapper is C, but it runs the function and hands
    out its result, and keeps ``lru_cache``'s own ``cache_parameters`` lambda.
    """
    if type(value) is types.MethodType:  # `random.randint`: a method of random's instance
        value = value.__func__
    elif type(value) is _LRU_CACHE_WRAPPER:
        value = value.__wrapped__
    return type(value) is types.FunctionType and not str(value.__module__).startswith(
        _OWN_MODULES
    )


_LRU_CACHE_WRAPPER: Final = type(functools.lru_cache(lambda: None))




#: Every module name a program may import.
ALLOWED_MODULES: Final[tuple[str, ...]] = tuple(sorted(_members._module_members()))


class _Facade:
    """Base of every façade class (see the module docstring)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{self!r} is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{self!r} is read-only")


def _make_facade(label: str, members: Mapping[str, object]) -> _Facade:
    def __repr__(self: object) -> str:
        return f"<module {label!r} (run_code)>"

    def __getattr__(self: object, name: str) -> Any:
        # Only reached for names the façade does not have.
        raise AttributeError(
            f"module {label!r} has no attribute {name!r} in run_code; "
            + _member_hint(label, name)
            + "available: "
            + ", ".join(sorted(members))
        )

    namespace: dict[str, object] = {
        "__slots__": (),
        "__repr__": __repr__,
        "__getattr__": __getattr__,
    }
    for name, value in members.items():
        if _library_function(value):
            # What library code returns never hides a class (SECURITY.md, rule 9).
            coroutine_function = inspect.iscoroutinefunction(value)
            value = result_checked(value, f"{label}.{name}")
            if coroutine_function:
                mark_coroutine_function(value)
        else:
            named_as(value, name)
        # Functions (and other descriptors) would bind to the façade as methods.
        binds = not isinstance(value, type) and hasattr(type(value), "__get__")
        namespace[name] = staticmethod(value) if binds else value  # type: ignore[arg-type]
    cls = type(f"{label}_facade", (_Facade,), namespace)
    # type(json) prints as <class 'json.module'>, naming no host module.
    cls.__name__ = cls.__qualname__ = "module"
    cls.__module__ = label
    return cls()  # type: ignore[no-any-return]


def _load_digests() -> None:
    # OpenSSL fetches an algorithm (and may read its configuration) the first
    # time it is used: do it here, before any child exists, so that a program's
    # first digest needs no file.
    for name in _members._HASHLIB:
        getattr(hashlib, name)(b"").digest(*(() if name[:5] != "shake" else (8,)))


def build_facades() -> dict[str, _Facade]:
    """Build one façade per allowed module (dotted names included)."""
    _load_digests()
    members = _members._module_members()
    abc_facade = _make_facade("collections.abc", members.pop("collections.abc"))
    members["collections"]["abc"] = abc_facade
    facades = {name: _make_facade(name, m) for name, m in members.items()}
    facades["collections.abc"] = abc_facade
    # `import urllib.parse` binds `urllib`, which holds only `parse`.
    facades["urllib"] = _make_facade("urllib", {"parse": facades["urllib.parse"]})
    return facades


#: Classes no facade lists whose objects the facades' own functions return:
#: ``asyncio.create_task``, ``TaskGroup.create_task`` and ``wait`` hand out tasks;
#: and typing's alias classes, whose objects subscription makes natively
#: (``typing.List[int]``, ``Optional[str]``, ``Annotated[...]``): their public
#: methods (``copy_with``) are in the program's reach through those objects.
FACADE_RESULT_CLASSES: Final[tuple[type, ...]] = (
    _aio.ProgramTask,
    *(
        value
        for value in vars(typing).values()
        if isinstance(value, type) and issubclass(value, typing._Final)
    ),
)


#: Library functions that a library constructor stores on every instance it
#: makes, where a program reads them natively: ``JSONDecoder()`` keeps
#: ``json.decoder.JSONObject`` and ``JSONArray`` as ``parse_object`` and
#: ``parse_array`` (json's C scanner, which decoding uses, never calls them).
_STORED_FUNCTIONS: Final = ((json.decoder, "JSONObject"), (json.decoder, "JSONArray"))


def check_library_internals() -> None:
    """Close the doors by which library code hands a program its own functions raw.

    Run in the child's zygote only (it changes library modules for the rest of
    the process): a library function reaches a program only in checked form
    (rule 9), also when library code stores it on an object the program holds
    (the functions are rebound to checked forms), and also as an argument
    library code hands the program's objects (``Template``'s substitution reads
    its pattern once and takes only a compiled one).
    """
    for module, name in _STORED_FUNCTIONS:
        function = getattr(module, name)
        if _library_function(function):
            setattr(module, name, result_checked(function, f"{module.__name__}.{name}"))
    _text.check_template_pattern()


def classes_behind(facade: _Facade) -> set[type]:
    """The library classes a program reaches through ``facade``'s members.

    The classes it lists, and the classes of the library objects it lists
    (``typing.List``, ``dataclasses.MISSING``, ``calendar.month_name``): a
    method read from such an object is as much in the program's reach as one
    of a listed class, so both are swept before any program runs (rules 7 and 9).
    """
    classes: set[type] = set()
    for name, value in vars(type(facade)).items():
        if name[:1] == "_" or isinstance(value, staticmethod | _Facade):
            continue
        if isinstance(value, type):
            classes.add(value)
        elif type(value).__module__ != "builtins":
            classes.add(type(value))
    return classes


#: What allowed C functions import lazily through the caller's frame, whose
#: ``__import__`` is the program's: ``datetime.strptime`` imports ``_strptime``
#: and calls its ``_strptime_datetime``. The importer hands them a façade with
#: that one function, never the module (whose globals lead to ``locale``, and
#: from there to ``sys``): a program's own ``import _strptime``, which the
#: compiler refuses, would get the same façade, whose ``_`` member its guard
#: does not let it read.
_INTERNAL_MEMBERS: Final[Mapping[str, tuple[str, ...]]] = {
    "_strptime": ("_strptime_datetime",),
}


def _members_of(facade: object) -> list[str]:
    return [name for name in vars(type(facade)) if name[:1] != "_"]


def _member_hint(module: str, name: object) -> str:
    hint = MISSING_MEMBER_HINTS.get((module, name)) if type(name) is str else None
    return f"{hint}. " if hint else ""


def make_importer(facades: Mapping[str, object]) -> Callable[..., object]:
    """The ``__import__`` of restricted programs: façades of allowed modules only.

    It returns a façade and nothing else, for every name (a test checks it):
    even the private modules allowed C code imports through it get one.
    """
    allowed = ", ".join(ALLOWED_MODULES)
    internal_facades = {
        name: _make_facade(
            name,
            {member: getattr(importlib.import_module(name), member) for member in members},
        )
        for name, members in _INTERNAL_MEMBERS.items()
    }

    def guarded_import(
        name: str,
        globals: Mapping[str, object] | None = None,
        locals: Mapping[str, object] | None = None,
        fromlist: tuple[str, ...] | list[str] | None = (),
        level: int = 0,
    ) -> object:
        if type(name) is not str:
            raise TypeError("module name must be a str")
        internal = internal_facades.get(name) if level == 0 else None
        if internal is not None:
            return internal
        if level != 0:
            raise ImportError("relative imports are not available in run_code")
        facade = facades.get(name)
        if facade is None:
            hint = MISSING_MODULE_HINTS.get(name) or MISSING_MODULE_HINTS.get(
                name.partition(".")[0]
            )
            # ModuleNotFoundError, as for a module that is not installed: an
            # optional import's `except ModuleNotFoundError:` takes its fallback.
            raise ModuleNotFoundError(
                f"module {name!r} is not available in run_code; "
                + (f"{hint}. " if hint else "")
                + f"allowed modules: {allowed}",
                name=name,
            )
        if fromlist:
            for item in fromlist:
                if type(item) is not str or item[:1] == "_" or item not in vars(type(facade)):
                    raise ImportError(
                        f"cannot import name {item!r} from {name!r} in run_code; "
                        + _member_hint(name, item)
                        + "available: "
                        + ", ".join(sorted(_members_of(facade))),
                        name=name,
                    )
            return facade
        return facades[name.partition(".")[0]]

    return guarded_import
