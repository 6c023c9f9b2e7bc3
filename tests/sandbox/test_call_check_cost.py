"""What the pre-flight check of a program's calls costs: the program's size plus the tools'.

A short program is checked on the event loop when its compile is cached, once
per run, and may hold dozens of calls; a tool (an imported one too) may declare
thousands of argument names. The suggestion that names a call's positional
arguments needs only the first few names, so a call costs the same whatever
the tool declares.
"""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

from bridge.protocol import ToolSignature
from sandbox._calls import check_sites, find_calls

if TYPE_CHECKING:
    from collections.abc import Iterator


class _CountedNames(tuple[str, ...]):
    """A tuple of names that counts every name read from it."""

    read = 0

    def __iter__(self) -> Iterator[str]:
        for name in tuple.__iter__(self):
            _CountedNames.read += 1
            yield name


def test_many_calls_to_a_tool_with_many_names_read_each_name_a_bounded_number_of_times() -> None:
    names = 2_000
    fields = _CountedNames(f"p{i}" for i in range(names))
    signature = ToolSignature("a", fields, (), False)
    source = "tools.a(\"x\")\n" * 5 + "tools.a(1, 2)\n" * 70
    sites = find_calls(ast.parse(source))
    assert sites is not None
    _CountedNames.read = 0
    check = check_sites(sites, [signature])
    assert check.problems
    assert "write await tools.a(p0=\"x\")" in check.problems[0].message
    assert "write await tools.a(p0=1, p1=2)" in check.problems[-1].message
    # Preparing the signature reads its names a few times; each call reads a few more.
    assert _CountedNames.read <= 3 * names + 20 * len(sites)
