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
from sandbox._classes import INERT_BASES, readable_field_name
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


async def test_a_dataclass_gets_the_docstring_every_python_gives_it(pool: WorkerPool) -> None:
    # Its signature when one is found, its bare name when none is (a TypedDict's
    # metaclass calls dict), and its own docstring kept; before CPython 3.11.4 the
    # second raised ValueError out of dataclass().
    source = (
        "import typing, dataclasses\n"
        "Row = dataclasses.dataclass(typing.TypedDict('Row', {'a': int}))\n"
        "class Point(typing.TypedDict):\n"
        "    x: int\n"
        "Point = dataclasses.dataclass(Point)\n"
        "@dataclasses.dataclass\n"
        "class Plain:\n"
        "    a: int\n"
        "    b: str = 'b'\n"
        "@dataclasses.dataclass(slots=True)\n"
        "class Slotted:\n"
        "    a: int\n"
        "@dataclasses.dataclass\n"
        "class Told:\n"
        "    'Its own.'\n"
        "    a: int\n"
        "return [c.__doc__ for c in (Row, Point, Plain, Slotted, Told)]"
    )
    result = await _run(pool, source)
    assert result.error is None, result.error
    assert result.value == [
        "Row", "Point", "Plain(a: int, b: str = 'b')", "Slotted(a: int)", "Its own."
    ]


async def test_a_refused_dataclass_keeps_its_docstring(pool: WorkerPool) -> None:
    source = (
        "import dataclasses\n"
        "class Bad:\n"
        "    a: int = 1\n"
        "    b: int\n"
        "try:\n"
        "    dataclasses.dataclass(Bad)\n"
        "except TypeError as error:\n"
        "    return [str(error), Bad.__doc__]"
    )
    result = await _run(pool, source)
    assert result.error is None, result.error
    assert result.value == ["non-default argument 'b' follows default argument", None]


async def test_a_docstring_whose_signature_raises_is_left_unset(pool: WorkerPool) -> None:
    # dataclass formats the signature with the reprs of the program's defaults;
    # when one raises, the class keeps no docstring, with or without slots.
    source = (
        "import dataclasses\n"
        "class Unshown:\n"
        "    def __repr__(self):\n"
        "        raise RuntimeError('no repr')\n"
        "docs = []\n"
        "for slots in (False, True):\n"
        "    class Leaf:\n"
        "        x: object = Unshown()\n"
        "    try:\n"
        "        dataclasses.dataclass(slots=slots)(Leaf)\n"
        "    except RuntimeError as error:\n"
        "        docs.append([str(error), Leaf.__doc__])\n"
        "return docs"
    )
    result = await _run(pool, source)
    assert result.error is None, result.error
    assert result.value == [["no repr", None], ["no repr", None]]


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


# -- a docstring read as a signature -----------------------------------------------------
#
# `dataclass(init=False)` writes a class's docstring from `inspect.signature(cls)`. With no
# `__init__` or `__new__` of its own, that parses the first text signature in the class's MRO
# (a docstring opening `Name(...)`, then `--` and a blank line) and evaluates each name and
# dotted name among its defaults with eval: in the class's module, then in a copy of
# sys.modules, natively. From a program's docstring that read any constant of any loaded
# module (`sys.prefix`, a module's `__file__`) into the docstring the program reads back.

_SIGNATURE_DOC = "Base(where=sys.prefix, here=sandbox.__file__)\n--\n\n"


async def test_a_docstring_read_as_a_signature_is_refused(pool: WorkerPool) -> None:
    source = (
        "import dataclasses\n"
        f"class Base:\n    {_SIGNATURE_DOC!r}\n"
        "@dataclasses.dataclass(init=False)\n"
        "class Leaf(Base):\n    x: int = 0\n"
        "return Leaf.__doc__"
    )
    result = await _run(pool, source)
    assert result.error is not None, f"the docstring evaluated names: {result.value!r}"
    assert result.error.kind == "exception"
    assert "reads as a signature" in result.error.message, result.error.message


@pytest.mark.parametrize(
    "doc",
    [
        "Other(where=sys.prefix)\n--\n\n",  # a signature under another name
        "Base(where=sys.prefix)\n--\n\nwith more text",
        "Base()\n--\n\n",
    ],
)
async def test_any_docstring_that_could_be_a_signature_is_refused(
    pool: WorkerPool, doc: str
) -> None:
    result = await _run(pool, f"class Base:\n    {doc!r}\nreturn 'made'")
    assert result.error is not None, "the class was made"
    assert "reads as a signature" in result.error.message, result.error.message


@pytest.mark.parametrize(
    "doc",
    [
        "Point(x, y): a point.",
        "Base(where=sys.prefix)\n\n--\n\nthe marker after a blank line is prose",
        "Usage:\n--\n\nsee below",
        "Parameters\n----------\nx : int\n",
    ],
)
async def test_docstrings_that_are_not_signatures_still_work(pool: WorkerPool, doc: str) -> None:
    source = (
        "import dataclasses\n"
        f"class Base:\n    {doc!r}\n"
        "@dataclasses.dataclass(init=False)\n"
        "class Leaf(Base):\n    x: int = 0\n"
        "return [Base.__doc__, Leaf.__doc__]"
    )
    result = await _run(pool, source)
    assert result.error is None, result.error
    assert result.value == [doc, "Leaf()"]


@given(st.text(alphabet="Ab(x=1,)-\n ", max_size=24))
def test_a_class_with_no_text_signature_gains_none_under_any_name(doc: str) -> None:
    # The interpreter reads a signature only when the docstring begins with the
    # class's __name__; the check is the same whatever the class is called.
    made = type("Z", (), {"__doc__": doc})
    if _classes.has_text_signature(made):
        return
    for name in {"A", "Ab", "b", doc.split("(", 1)[0].strip() or "Z"}:
        if name.isidentifier():
            renamed = type(name, (), {"__doc__": doc})
            assert renamed.__text_signature__ is None, (name, doc)


def test_no_allowed_base_brings_a_signature_of_text_it_did_not_write() -> None:
    # What dataclass's docstring may parse in a program class's MRO: a built-in
    # (static) type's own signature, never a docstring's.
    heap_type = 1 << 9  # Py_TPFLAGS_HEAPTYPE
    for base in INERT_BASES:
        for klass in base.__mro__[:-1]:
            if klass.__flags__ & heap_type:
                assert not _classes.has_text_signature(klass), klass
