"""The host parses a program only where the names the parser reads die with it.

CPython interns every identifier it parses; from 3.12 on the parser's interned
strings are immortal. A host that parsed each short program itself would keep
every name of every program for good: memory that grows with untrusted input
without bound (about 2.4 KB a run of fresh names, measured through a pool on
3.12.1). There every program is compiled by the child that runs it.
"""

from __future__ import annotations

import ast
import sys
import uuid
from typing import TYPE_CHECKING

import sandbox._host_compile
import sandbox._pool
from sandbox import WorkerPool
from sandbox._compile import compile_with_calls, parsed_names_are_freed
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import CodeType

    import pytest

    from sandbox import ToolSignature
    from sandbox._calls import CallSite


def _kept_after_parsing(text: str) -> bool:
    """Whether the name ``text`` outlives the tree it was parsed into (read by interning a copy)."""
    tree = ast.parse(text, mode="eval")
    del tree
    copy = "".join([text[:1], text[1:]])  # an equal string, another object
    return sys.intern(copy) is not copy


def test_the_answer_is_what_parsing_does_to_a_fresh_name() -> None:
    fresh = "name_" + uuid.uuid4().hex
    assert parsed_names_are_freed() is not _kept_after_parsing(fresh)


def test_the_pool_compiles_on_the_host_exactly_where_names_are_freed() -> None:
    assert sandbox._host_compile.HOST_COMPILES is parsed_names_are_freed()


async def test_where_names_are_kept_the_host_parses_no_program(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    parsed: list[str] = []

    def recording(
        source: str, *, restricted: bool = True, signatures: Sequence[ToolSignature] | None = None
    ) -> tuple[CodeType, tuple[CallSite, ...] | None]:
        parsed.append(source)
        return compile_with_calls(source, restricted=restricted, signatures=signatures)

    monkeypatch.setattr(sandbox._host_compile, "compile_with_calls", recording)
    monkeypatch.setattr(sandbox._pool, "HOST_COMPILES", False, raising=False)
    async with WorkerPool(size=1) as pool:
        fine = await pool.run("return 6 * 7", tool_names=[], handler=EchoHandler())
        refused = await pool.run("return (", tool_names=[], handler=EchoHandler())
    assert fine.value == 42
    assert refused.error is not None
    assert refused.error.kind == "compile"
    assert refused.pid is not None  # its child compiled it
    assert parsed == []
