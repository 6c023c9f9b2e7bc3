"""Library code that writes source from what a program gave it runs none of the program's text.

``dataclasses`` writes each field's name into the text of the methods it
generates, and runs it. A ``typing.TypedDict`` made by its functional form
takes any string as a key, so ``dataclass`` over one ran a key such as
``"a)\\n  __import__('os').system(...)"`` as code, with the real builtins.
Two rules hold now, each alone enough: a field name is a plain identifier
(``sandbox._classes.readable_field_name``), and the methods generated in the
program's module see the program's builtins, which cannot import.
"""

from __future__ import annotations

import keyword
import unicodedata
from typing import TYPE_CHECKING

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import Limits, RunResult, WorkerPool, _classes
from sandbox._builtins import SAFE_BUILTINS
from sandbox._classes import readable_field_name
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

GUARD = 60  # seconds; a guard against hangs, never a timing assertion

#: Names that are code once pasted into a generated method, and keywords.
_HOSTILE_NAMES = (
    "a)\n  __import__('os').system('true')\n if 1:#",
    "a=1;b",
    "a #",
    "a.b",
    "class",
    "None",
    "a b",
    "",
)


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    # The language layer alone: what is tested is that layer's rule.
    limits = Limits(os_layer=False, tripwire=False, wall_seconds=GUARD)
    async with WorkerPool(size=1, limits=limits) as shared:
        yield shared


async def _run(pool: WorkerPool, source: str) -> RunResult:
    with anyio.fail_after(GUARD):
        return await pool.run(source, tool_names=[], handler=EchoHandler())


@given(st.text(max_size=12))
def test_a_field_name_is_an_identifier_and_not_a_keyword(name: str) -> None:
    if readable_field_name(name):
        assert name.isidentifier()
        assert not keyword.iskeyword(name)


@given(st.text(max_size=12))
def test_a_field_name_is_judged_as_the_generated_code_reads_it(name: str) -> None:
    # Generated code NFKC-normalises identifiers: "ｆｏｒｍａｔ" is read as "format".
    if readable_field_name(name):
        assert unicodedata.normalize("NFKC", name) == name


def test_a_full_width_name_is_not_a_field_name() -> None:
    assert not readable_field_name("\uff46\uff4f\uff52\uff4d\uff41\uff54")  # ｆｏｒｍａｔ
    assert readable_field_name("caf\u00e9")  # already NFKC


def test_the_names_that_were_code_are_not_field_names() -> None:
    assert [n for n in _HOSTILE_NAMES if readable_field_name(n)] == []
    assert readable_field_name("total")


#: Each way a program can make a class whose field names it wrote as strings,
#: then have dataclass generate methods from them.
_MAKERS = {
    "TypedDict": "Made = typing.TypedDict('Made', {NAME: int})",
    "NamedTuple": "Made = typing.NamedTuple('Made', [(NAME, int)])",
    "namedtuple": "Made = collections.namedtuple('Made', [NAME])",
}


@pytest.mark.parametrize("maker", sorted(_MAKERS))
@pytest.mark.parametrize("name", _HOSTILE_NAMES[:3])
async def test_no_class_maker_gets_a_name_that_is_code_into_a_dataclass(
    pool: WorkerPool, maker: str, name: str
) -> None:
    source = (
        "import typing, collections, dataclasses\n"
        f"NAME = {name!r}\n"
        + _MAKERS[maker]
        + "\ndataclasses.dataclass(init=False, repr=False)(Made)\nreturn 'made'"
    )
    result = await _run(pool, source)
    assert result.error is not None, "a name that is code was accepted"
    assert result.error.kind == "exception"
    assert any(
        text in result.error.message
        for text in ("is not allowed in run_code", "must be valid identifiers",
                     "Type names and field names")
    ), result.error.message


async def test_a_typed_dict_of_plain_keys_still_makes_a_dataclass(pool: WorkerPool) -> None:
    source = (
        "import typing, dataclasses\n"
        "Row = typing.TypedDict('Row', {'a': int, 'b': str})\n"
        "Data = dataclasses.dataclass(Row)\n"
        "return [f.name for f in dataclasses.fields(Data)]"
    )
    result = await _run(pool, source)
    assert result.error is None, result.error
    assert result.value == ["a", "b"]


def test_code_generated_in_the_programs_module_sees_the_programs_builtins() -> None:
    namespace = _classes._ProgramModuleStandIn(SAFE_BUILTINS).__dict__
    exec("def found():\n    return hash((1,)), type, super", namespace)
    found = namespace["found"]
    assert callable(found)
    assert found()[0] == hash((1,))
    for name in ("__import__", "open", "eval", "exec", "compile", "breakpoint"):
        with pytest.raises(NameError):
            exec(name, dict(_classes._ProgramModuleStandIn(SAFE_BUILTINS).__dict__))
    # A fresh namespace each time: nothing one generated method defines is seen by the next.
    assert "found" not in _classes._ProgramModuleStandIn(SAFE_BUILTINS).__dict__


async def test_a_frozen_hashed_dataclass_works_with_the_programs_builtins(
    pool: WorkerPool,
) -> None:
    # Its generated __setattr__ calls type() and super(), its __hash__ hash().
    source = (
        "import dataclasses\n"
        "@dataclasses.dataclass(frozen=True, order=True)\n"
        "class P:\n    x: int\n    y: int = 0\n"
        "p = P(1, 2)\n"
        "try:\n    p.x = 5\nexcept dataclasses.FrozenInstanceError:\n    frozen = True\n"
        "return [repr(p), hash(p) == hash(P(1, 2)), frozen, P(0) < p]"
    )
    result = await _run(pool, source)
    assert result.error is None, result.error
    assert result.value == ["P(x=1, y=2)", True, True, True]
