"""Replaying a hostile log: output linear in the log, no recursion on its structure (finding 5).

Counting and size assertions only; nothing here is timed.
"""

from __future__ import annotations

import json
import tracemalloc
from typing import TYPE_CHECKING

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode._log._replay import MAX_INDENT_LEVELS, CallNode, render_tree, tree_json
from codemode._results import ImageBlock, TextBlock, text_of
from codemode._terminal import one_line
from codemode.cli import main

if TYPE_CHECKING:
    from pathlib import Path

#: Columns a line may spend before its call id: the capped indentation and a
#: ``[depth N]`` marker.
PREFIX_LIMIT = 2 * MAX_INDENT_LEVELS + len("[depth 1000000] ")


def chain(depth: int) -> list[CallNode]:
    """A root with a chain of ``depth`` sub-calls, each the parent of the next."""
    root = CallNode(call_id="r", name="run_code", arguments="{}")
    node = root
    for i in range(depth):
        child = CallNode(call_id=f"c{i}", name="t", arguments={})
        node.children.append(child)
        node = child
    return [root]


def tree_from_parents(parents: list[int]) -> list[CallNode]:
    """Node i hangs under node ``parents[i]`` when that is an earlier node, else it is a root."""
    nodes: list[CallNode] = []
    roots: list[CallNode] = []
    for i, parent in enumerate(parents):
        node = CallNode(call_id=f"n{i}", name="t", arguments={"i": i})
        (nodes[parent].children if 0 <= parent < i else roots).append(node)
        nodes.append(node)
    return roots


def depths(roots: list[CallNode]) -> list[int]:
    out: list[int] = []
    stack = [(node, 0) for node in reversed(roots)]
    while stack:
        node, depth = stack.pop()
        out.append(depth)
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return out


parents_strategy = st.lists(st.integers(0, 200), max_size=200).map(
    # Bias toward deep chains: parent i-1 most of the time.
    lambda raw: [i - 1 if r % 4 else r % (i + 1) for i, r in enumerate(raw)]
)


@settings(max_examples=200, deadline=None)
@given(parents=parents_strategy)
def test_every_line_has_a_bounded_prefix_and_says_its_depth(parents: list[int]) -> None:
    roots = tree_from_parents(parents)
    lines = render_tree(roots).splitlines() if roots else []
    assert len(lines) == len(parents)
    for line, depth in zip(lines, depths(roots), strict=True):
        prefix = line[: line.index("n")]
        assert len(prefix) <= PREFIX_LIMIT
        if depth <= MAX_INDENT_LEVELS:
            assert prefix == "  " * depth
        else:
            assert prefix == "  " * MAX_INDENT_LEVELS + f"[depth {depth}] "


@settings(max_examples=30, deadline=None)
@given(depth=st.integers(0, 3000))
def test_the_text_of_a_chain_grows_linearly_with_its_depth(depth: int) -> None:
    text = render_tree(chain(depth))
    ids = len("r run_code") + sum(len(f"c{i} t") for i in range(depth))
    # Each line: its id and name, the outcome and duration, and a bounded prefix.
    assert len(text) <= ids + (depth + 1) * (PREFIX_LIMIT + len(" pending ?\n"))


@settings(max_examples=200, deadline=None)
@given(parents=st.lists(st.integers(0, 30), max_size=30))
def test_tree_json_is_what_msgspec_writes_for_shallow_trees(parents: list[int]) -> None:
    roots = tree_from_parents(parents)
    assert tree_json(roots) == msgspec.json.encode(roots)


def test_tree_json_of_a_chain_deeper_than_the_stack_is_linear() -> None:
    depth = 50_000
    encoded = tree_json(chain(depth))
    assert encoded.count(b'"children":[') == depth + 1
    assert encoded.count(b"]}") == depth + 1
    one = len(msgspec.json.encode(CallNode(call_id="c99999", name="t", arguments={})))
    assert len(encoded) <= (depth + 1) * one + 2


# -- the command ----------------------------------------------------------------------------------


def write_chain_log(path: Path, depth: int) -> None:
    with path.open("w") as handle:
        handle.write(json.dumps({
            "kind": "tool/call", "seq": 1, "time": 1.0, "turn": 1, "step": 0,
            "call_id": "r", "name": "run_code", "arguments": "{}",
        }) + "\n")
        parent = "r"
        for i in range(depth):
            handle.write(json.dumps({
                "kind": "tool/code-dispatch-start", "seq": i + 2, "time": 1.0,
                "root_call_id": "r", "parent_call_id": parent, "sub_call_id": f"c{i}",
                "name": "t", "arguments": {},
            }) + "\n")
            parent = f"c{i}"


def test_replay_of_a_deep_chain_prints_text_no_larger_than_its_log(tmp_path: Path) -> None:
    log = tmp_path / "chain.jsonl"
    write_chain_log(log, 5000)
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0
    assert len(result.stdout.encode()) <= log.stat().st_size
    assert result.stdout.splitlines()[-1].startswith(" " * 10 + "[depth 5000] c4999 t")


def test_replay_json_of_a_deep_chain_succeeds(tmp_path: Path) -> None:
    log = tmp_path / "chain.jsonl"
    write_chain_log(log, 5000)
    result = CliRunner().invoke(main, ["replay", "--json", str(log)])
    assert result.exit_code == 0, result.output
    assert result.stdout.count('"children":[') == 5001
    assert len(result.stdout.encode()) <= 2 * log.stat().st_size


def test_a_value_nested_too_deeply_to_read_is_a_usage_error(tmp_path: Path) -> None:
    log = tmp_path / "deep.jsonl"
    deep = "[" * 100_000 + "]" * 100_000
    log.write_text(
        '{"kind": "tool/code-dispatch-start", "seq": 1, "time": 1.0, "root_call_id": "r", '
        f'"parent_call_id": "r", "sub_call_id": "c", "name": "t", "arguments": {deep}}}\n'
    )
    for extra in ([], ["--json"]):
        result = CliRunner().invoke(main, ["replay", *extra, str(log)])
        assert result.exit_code == 2
        assert "nested too deeply" in result.stderr
        assert "Traceback" not in result.output


# -- the first line of a content ------------------------------------------------------------------

#: Characters that make the first line hard to find: spaces ``strip`` removes,
#: every line break ``splitlines`` knows (``\r\n`` included), a space that is
#: no line break (``\x1f``), and ordinary text.
_AWKWARD = st.sampled_from(
    ["a", "é", " ", "\t", "\xa0", "\u3000", "\x1f", "\n", "\r", "\r\n", "\v", "\f",
     "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029"]
)
_BLOCKS = st.lists(
    st.one_of(
        st.lists(_AWKWARD, max_size=130).map(lambda parts: TextBlock(text="".join(parts))),
        st.just(ImageBlock(data="aGk=", mime_type="image/png")),
    ),
    max_size=4,
)


def node_with(content: tuple[TextBlock | ImageBlock, ...]) -> CallNode:
    return CallNode(call_id="c", name="t", arguments={}, is_error=False, content=content)


@settings(max_examples=500, deadline=None)
@given(blocks=_BLOCKS)
def test_a_line_shows_the_first_line_of_the_stripped_content(
    blocks: list[TextBlock | ImageBlock],
) -> None:
    text = text_of(blocks).strip()
    line = text.splitlines()[0] if text else ""
    expected = one_line(line if len(line) <= 100 else line[:99] + "…")
    shown = render_tree([node_with(tuple(blocks))])
    assert shown == ("c t ok ?" + (f": {expected}" if expected else ""))


@pytest.mark.parametrize("lines", ["ab\n", "\r\nz", "x\u2028", "  \x1cz", " \n"])
def test_a_content_of_many_lines_is_shown_without_splitting_all_of_it(lines: str) -> None:
    # A program or a tool chooses a result's content, up to the log's line cap:
    # locating its first line split the whole text, a list about twenty times
    # its size for 100 characters shown. (" \n": all of the rest is space, which
    # strip() removed, a copy of it.)
    content = (TextBlock(text="\n\n  " + "first line" + lines * 200_000),)
    node = node_with(content)
    tracemalloc.start()
    try:
        shown = render_tree([node])
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert shown.startswith("c t ok ?: first line")
    assert peak < 64 * 1024, f"{peak} bytes held to show one line of {len(content[0].text)}"
