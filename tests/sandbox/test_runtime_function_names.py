"""The runtime's own builtins and façade functions go by the names a program calls them.

``getattr``, ``vars``, ``print``, ``dataclasses.asdict``, ``copy.deepcopy`` and
the other replacements written for programs are Python functions of the
runtime. Their ``__qualname__`` is what ``repr`` prints and what the
``TypeError`` of a wrong call names, so each carries the name the program
wrote: a program reads ``getattr() missing 1 required positional argument``,
never ``guarded_getattr()`` or ``make_print.<locals>.print()``.
"""

from __future__ import annotations

import types

import pytest

from sandbox._builtins import _FACADES, SAFE_BUILTINS, make_print
from sandbox._facades import _OWN_MODULES

from .test_language_support import run_ok

#: The runtime's own names: none may reach a program through a function's name.
_INTERNAL = ("guarded_", "safe_", "make_print", "<locals>", "fnmatch_filter", "_members")


def _own_function(value: object) -> bool:
    return type(value) is types.FunctionType and str(value.__module__).startswith(_OWN_MODULES)


def test_every_own_builtin_and_facade_function_has_the_name_a_program_calls() -> None:
    named = [(name, value) for name, value in SAFE_BUILTINS.items() if not name.startswith("_")]
    for facade in _FACADES.values():
        named.extend(
            (name, getattr(facade, name)) for name in dir(type(facade)) if not name.startswith("_")
        )
    own = [(name, value) for name, value in named if _own_function(value)]
    assert len(own) >= 20  # getattr, vars, dataclasses.asdict, copy.deepcopy, ...
    wrong = [
        (name, value.__qualname__)  # type: ignore[attr-defined]
        for name, value in own
        if (value.__name__, value.__qualname__) != (name, name)  # type: ignore[attr-defined]
    ]
    assert wrong == []


def test_the_capturing_print_is_named_print() -> None:
    printer = make_print(lambda text: None)
    assert (printer.__name__, printer.__qualname__) == ("print", "print")


@pytest.mark.parametrize(
    ("call", "named"),
    [
        ("getattr(1)", "getattr() missing 1 required positional argument: 'name'"),
        ("setattr(1, 'a')", "setattr() missing 1 required positional argument: 'value'"),
        ("hasattr(1)", "hasattr() missing 1 required positional argument: 'name'"),
        ("vars(1, 2)", "vars() takes from 0 to 1 positional arguments but 2 were given"),
        ("print(x=2)", "print() got an unexpected keyword argument 'x'"),
        ("dataclasses.asdict()", "asdict() missing 1 required positional argument: 'obj'"),
        ("copy.deepcopy()", "deepcopy() missing 1 required positional argument"),
        ("functools.wraps()", "wraps() missing 1 required positional argument: 'wrapped'"),
        ("collections.namedtuple('P')", "namedtuple() missing 1 required positional argument"),
    ],
)
def test_a_wrong_call_names_the_function_as_the_program_wrote_it(call: str, named: str) -> None:
    source = (
        "import collections, copy, dataclasses, functools\n"
        "try:\n"
        f"    {call}\n"
        "except TypeError as error:\n"
        "    return str(error)\n"
    )
    message = run_ok(source)
    assert isinstance(message, str)
    assert message.startswith(named), message
    assert not any(word in message for word in _INTERNAL), message


def test_a_printed_builtin_or_facade_function_shows_its_own_name() -> None:
    source = (
        "import dataclasses, functools, operator\n"
        "return [repr(f).split(' at ')[0] for f in\n"
        "        (print, getattr, vars, anext, dataclasses.asdict, functools.lru_cache,\n"
        "         operator.itemgetter)]\n"
    )
    assert run_ok(source) == [
        "<function print",
        "<function getattr",
        "<function vars",
        "<function anext",
        "<function asdict",
        "<function lru_cache",
        "<function itemgetter",
    ]
