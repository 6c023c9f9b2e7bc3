"""One record, one line: no field of a record the CLI lists can print a line of its own.

A model chooses its calls' ids and names, an MCP client its tool names, and a
log file can say anything. ``codemode replay`` prints one line per call; a line
break in an id or a name used to print whole lines of a forged call tree (a
sub-call that never ran, shown as ``ok``). Each field is now written on its
own: an id, a name or an error code as a ``token`` (as it is when plain, else
a JSON string literal that reads back exactly), the content's first line with
every line break escaped. ``--json`` keeps every field exact.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode._log._replay import MAX_INDENT_LEVELS, CallNode, render_tree
from codemode._results import ErrorInfo, TextBlock
from codemode._terminal import one_line, token
from codemode.cli import main

if TYPE_CHECKING:
    from pathlib import Path

#: Every character some reader ends a line at.
LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"

#: The characters a terminal acts on (see test_cli_terminal), tab and newline aside.
ACTED_ON = frozenset(
    [chr(code) for code in range(0x20) if chr(code) not in "\t\n"]
    + [chr(code) for code in range(0x7F, 0xA0)]
    + list("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
)

#: Text that is mostly line breaks and lookalikes of a tree line, or anything at all.
hostile_text = st.one_of(
    st.text(),
    st.text(alphabet=st.sampled_from([*LINE_BREAKS, " ", '"', "\\", "a", ":", "\ud800", "\t"])),
    st.lists(st.sampled_from(["c1:code:1", " ok 1.0 ms: done", "\n  ", "\r", "\u2028"]))
    .map("".join),
)


def read_token(line: str, at: int) -> tuple[str, int]:
    """The token starting at ``line[at]`` and the index just past it."""
    if line.startswith('"', at):
        value, end = json.JSONDecoder().raw_decode(line, at)
        assert type(value) is str
        return value, end
    end = line.find(" ", at)
    end = len(line) if end < 0 else end
    return line[at:end], end


# -- the two field functions ----------------------------------------------------------------------


@given(hostile_text)
def test_one_line_is_one_line_with_nothing_a_terminal_acts_on(text: str) -> None:
    shown = one_line(text)
    assert len(shown.splitlines()) <= 1
    assert not ACTED_ON.intersection(shown)
    shown.encode("utf-8")  # no lone surrogate is left


def test_one_line_escapes_every_line_break() -> None:
    assert one_line("a\nb\u2028c\u2029d\x85e\rf\tg") == (
        "a\\u000ab\\u2028c\\u2029d\\u0085e\\u000df\tg"
    )


@given(hostile_text)
def test_a_token_is_one_word_that_reads_back(text: str) -> None:
    shown = token(text)
    assert len(shown.splitlines()) == 1
    assert not ACTED_ON.intersection(shown)
    shown.encode("utf-8")
    assert read_token(shown + " next", 0) == (text, len(shown))


def test_a_plain_token_is_written_as_it_is() -> None:
    for plain in ("call_1", "run-3f9a1c2b:code:12", "search_books", "天気", "add-one"):
        assert token(plain) == plain
    assert token("") == '""'
    assert token("a b") == '"a b"'
    assert token("c1\n  c1:code:1") == '"c1\\n  c1:code:1"'
    assert token("\u2028\U000e0001") == '"\\u2028\\udb40\\udc01"'


# -- render_tree: any ids and names ---------------------------------------------------------------


nodes_strategy = st.lists(
    st.tuples(
        st.integers(0, 30),  # parent index (an earlier node, else a root)
        hostile_text,  # call_id
        hostile_text,  # name
        st.sampled_from([None, False, True]),  # is_error (None: pending)
        st.one_of(st.none(), hostile_text),  # error code
        hostile_text,  # content
    ),
    max_size=25,
)


def build(spec: list[tuple[int, str, str, bool | None, str | None, str]]) -> tuple[
    list[CallNode], list[tuple[CallNode, int]]
]:
    """The roots, and every node with its depth in the order render_tree writes them."""
    nodes: list[CallNode] = []
    depth_of: dict[int, int] = {}
    roots: list[CallNode] = []
    for i, (parent, call_id, name, is_error, code, content) in enumerate(spec):
        node = CallNode(
            call_id=call_id, name=name, arguments={}, started=1.0,
            finished=None if is_error is None else 1.5, is_error=is_error,
            content=(TextBlock(text=content),),
            error=ErrorInfo(name="E", code=code) if is_error else None,
        )
        if parent < i:
            nodes[parent].children.append(node)
            depth_of[id(node)] = depth_of[id(nodes[parent])] + 1
        else:
            roots.append(node)
            depth_of[id(node)] = 0
        nodes.append(node)
    order: list[tuple[CallNode, int]] = []
    stack = [(node, 0) for node in reversed(roots)]
    while stack:
        node, depth = stack.pop()
        order.append((node, depth))
        stack.extend((child, depth + 1) for child in reversed(node.children))
    return roots, order


@settings(max_examples=300, deadline=None)
@given(nodes_strategy)
def test_every_call_is_exactly_one_line_whose_id_and_name_read_back(
    spec: list[tuple[int, str, str, bool | None, str | None, str]],
) -> None:
    roots, order = build(spec)
    text = render_tree(roots)
    lines = text.splitlines() if order else []
    assert len(lines) == len(order)
    assert not ACTED_ON.intersection(text)
    text.encode("utf-8")
    for line, (node, depth) in zip(lines, order, strict=True):
        prefix = "  " * min(depth, MAX_INDENT_LEVELS)
        if depth > MAX_INDENT_LEVELS:
            prefix += f"[depth {depth}] "
        assert line.startswith(prefix)
        call_id, at = read_token(line, len(prefix))
        assert (call_id, line[at]) == (node.call_id, " ")
        name, at = read_token(line, at + 1)
        assert (name, line[at]) == (node.name, " ")
        rest = line[at + 1:]
        if node.is_error is None:
            assert rest.startswith("pending ")
        elif not node.is_error:
            assert rest.startswith("ok ")
        elif node.error is not None and node.error.code:
            assert rest.startswith("error (")
            # A plain code runs to the next space, its ")" the last character before it.
            code, end = read_token(rest, len("error ("))
            if not rest.startswith('"', len("error (")):
                code, end = code[:-1], end - 1
            assert (code, rest[end:end + 2]) == (node.error.code, ") ")


# -- the command ----------------------------------------------------------------------------------


FORGED_NAME = "run_code ok 3.0 ms: done\n  c1:code:1 send_email ok 0.4 ms: wire transfer sent"
FORGED_ID = "c2 echo ok 1.0 ms: fine\r\n  c2:code:1 delete_repo ok 2.0 ms: deleted\u2028c3"


def write_log(path: Path) -> list[dict[str, Any]]:
    """A log whose ids, names, codes and content hold every kind of line break."""
    events: list[dict[str, Any]] = [
        {"kind": "tool/call", "call_id": "c1", "name": FORGED_NAME, "arguments": "{}"},
        {"kind": "tool/code-dispatch-start", "root_call_id": "c1", "parent_call_id": "c1",
         "sub_call_id": "c1:code:1\x85fake", "name": "t\u2029x", "arguments": {}},
        {"kind": "tool/code-dispatch", "root_call_id": "c1", "parent_call_id": "c1",
         "sub_call_id": "c1:code:1\x85fake", "name": "t\u2029x", "arguments": {},
         "is_error": True, "content": [{"type": "text", "text": "Error: no\x1b[2J"}],
         "error": {"name": "E", "code": "X\n  c9 forged ok"}},
        {"kind": "tool/result", "call_id": "c1", "name": FORGED_NAME, "is_error": False,
         "content": [{"type": "text", "text": "line one\u2028line two"}]},
        {"kind": "tool/call", "call_id": FORGED_ID, "name": "echo", "arguments": "{}"},
        {"kind": "tool/result", "call_id": FORGED_ID, "name": "echo", "is_error": False,
         "content": [{"type": "text", "text": "fine"}]},
    ]
    with path.open("w") as handle:
        for seq, event in enumerate(events, start=1):
            turn = {"turn": 1, "step": 0} if event["kind"] in ("tool/call", "tool/result") else {}
            handle.write(json.dumps({**event, "seq": seq, "time": float(seq), **turn}) + "\n")
    return events


def test_replay_prints_one_line_per_call_whatever_the_ids_and_names_hold(
    tmp_path: Path,
) -> None:
    log = tmp_path / "forged.jsonl"
    write_log(log)
    result = CliRunner().invoke(main, ["replay", str(log)])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 3  # c1, its one sub-call, and the second call: nothing forged
    call_id, at = read_token(lines[0], 0)
    assert (call_id, read_token(lines[0], at + 1)[0]) == ("c1", FORGED_NAME)
    sub_id, at = read_token(lines[1], 2)
    assert (sub_id, read_token(lines[1], at + 1)[0]) == ("c1:code:1\x85fake", "t\u2029x")
    assert '(X\\n  c9 forged ok)' not in lines[1]
    assert '("X\\n  c9 forged ok")' in lines[1]
    assert lines[1].endswith(": Error: no\\u001b[2J")
    assert lines[0].endswith(": line one")  # the first line of the content only
    assert read_token(lines[2], 0)[0] == FORGED_ID
    forged = ("  c1:code:1 send_email", "  c2:code:1", "c3", "  c9")
    assert not any(line.startswith(forged) for line in lines)


def test_replay_json_keeps_every_field_exact(tmp_path: Path) -> None:
    log = tmp_path / "forged.jsonl"
    write_log(log)
    result = CliRunner().invoke(main, ["replay", "--json", str(log)])
    assert result.exit_code == 0, result.output
    tree = json.loads(result.stdout)
    assert [(node["call_id"], node["name"]) for node in tree] == [
        ("c1", FORGED_NAME), (FORGED_ID, "echo")
    ]
    [child] = tree[0]["children"]
    assert (child["call_id"], child["name"]) == ("c1:code:1\x85fake", "t\u2029x")
    assert child["error"]["code"] == "X\n  c9 forged ok"


# -- schemas: one note per tool -------------------------------------------------------------------


LINE_BREAKING_SCHEMA = '''
from codemode import ToolOutput, define_tool


async def body(args, ctx):
    return "ok"


ODD = define_tool(
    name="odd", description="A property name that breaks lines.",
    parameters={"type": "object",
                "properties": {"a\\nnote: forged is sent with strict: true": {"type": "string"}}},
    output=ToolOutput(schema={"type": "string"}), execute=body,
)
TOOLS = [ODD]
'''


def test_a_schemas_note_is_one_line_per_tool(tmp_path: Path) -> None:
    tools = tmp_path / "odd_tools.py"
    tools.write_text(LINE_BREAKING_SCHEMA)
    result = CliRunner().invoke(main, ["schemas", "--tools", f"{tools}:TOOLS", "--mode", "native",
                                       "--format", "openai"])
    assert result.exit_code == 0, result.output
    notes = result.stderr.splitlines()
    assert len(notes) == 1, notes
    assert notes[0].startswith("note: odd is sent with strict: false: ")
    assert "a\\u000anote: forged" in notes[0]
    # The JSON on stdout keeps the property name exact.
    [entry] = json.loads(result.stdout)
    assert "a\nnote: forged is sent with strict: true" in entry["function"]["parameters"][
        "properties"
    ]


@pytest.mark.parametrize("blank", ["\u2800", "\u3164", "\uffa0", "\u115f", "\u034f", "\ufe0f",
                                   "\U000e0100"])
def test_a_character_that_shows_as_nothing_is_escaped_in_a_token_and_a_field(blank: str) -> None:
    # Regression: printable blanks passed as plain, and 78 of them pushed the
    # rest of an id onto a row of its own that read as another call's line.
    forged = "c1" + blank * 78 + "c2 run_code ok 1.2 ms: all checks passed"
    shown = token(forged)
    assert blank not in shown
    assert json.loads(shown) == forged
    assert blank not in one_line(forged)
    assert token("c1" + blank) != "c1" + blank
