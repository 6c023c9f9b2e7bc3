"""Modules and forms models reach for: each works, and each keeps the guards.

Every member here was reviewed under the design rule in SECURITY.md (its row in
the audit table): the readers that would take a name from the program
(``attrgetter``, ``methodcaller``) read through the guard, the writers that would
reach a real stream (``pprint``, ``redirect_stdout``) print like ``print``.
"""

from __future__ import annotations

import pytest

from sandbox._compile import ProgramCompileError

from .test_language_support import run, run_error, run_ok


def test_csv_over_stringio() -> None:
    source = (
        "import csv, io\n"
        "buffer = io.StringIO()\n"
        "csv.writer(buffer).writerows([['a', 1], ['b', 2]])\n"
        "out = io.StringIO()\n"
        "writer = csv.DictWriter(out, fieldnames=['x'])\n"
        "writer.writeheader()\n"
        "writer.writerow({'x': 5})\n"
        "return [list(csv.reader(io.StringIO(buffer.getvalue()))),"
        " list(csv.DictReader(io.StringIO('x,y\\n1,2\\n'))), out.getvalue()]"
    )
    assert run_ok(source) == [[["a", "1"], ["b", "2"]], [{"x": "1", "y": "2"}], "x\r\n5\r\n"]


def test_hashlib_uuid_pprint_types_and_strftime() -> None:
    source = (
        "import hashlib, pprint, time, types, uuid\n"
        "ns = types.SimpleNamespace(a=1)\n"
        "ns.b = 2\n"
        "pprint.pprint({'b': 1, 'a': 2})\n"
        "pprint.pp({'b': 1, 'a': 2})\n"
        "return [hashlib.sha256(b'abc').hexdigest()[:8], uuid.uuid4().version,"
        " str(uuid.uuid5(uuid.NAMESPACE_DNS, 'x'))[:8], pprint.pformat([1]), [ns.a, ns.b],"
        " time.strftime('%Y', time.gmtime(0))]"
    )
    result = run(source)
    assert result.error is None, result.error
    assert result.value == ["ba7816bf", 4, "05b16a01", "[1]", [1, 2], "1970"]
    assert result.logs == ["{'a': 2, 'b': 1}", "{'b': 1, 'a': 2}"]


def test_redirect_stdout_captures_print_and_pprint() -> None:
    source = (
        "import contextlib, io, pprint\n"
        "buffer = io.StringIO()\n"
        "with contextlib.redirect_stdout(buffer):\n"
        "    print('inside')\n"
        "    pprint.pprint([1])\n"
        "print('outside')\n"
        "return buffer.getvalue()"
    )
    result = run(source)
    assert result.value == "inside\n[1]\n"
    assert result.logs == ["outside"]


def test_asyncio_wait_and_as_completed_hand_out_program_tasks() -> None:
    # Ordered by events, not by sleeps: each call finishes only once the one
    # before it has, and the slow task waits for an event nobody sets.
    source = (
        "import asyncio\n"
        "turn = {n: asyncio.Event() for n in (1, 2, 3, 4)}\n"
        "turn[1].set()\n"
        "async def after(n):\n"
        "    await turn[n].wait()\n"
        "    turn[n + 1].set()\n"
        "    return n\n"
        "order = [await c for c in asyncio.as_completed([after(3), after(1), after(2)])]\n"
        "never = asyncio.Event()\n"
        "async def slow_call():\n"
        "    await never.wait()\n"
        "fast = asyncio.create_task(after(1))\n"
        "slow = asyncio.create_task(slow_call())\n"
        "done, pending = await asyncio.wait([fast, slow], return_when=asyncio.FIRST_COMPLETED)\n"
        "for task in pending:\n"
        "    task.cancel()\n"
        "return [order, [t.result() for t in done], done == {fast}, repr(slow)]"
    )
    assert run_ok(source) == [[1, 2, 3], [1], True, "<Task pending>"]


def test_asyncio_run_says_top_level_await_works() -> None:
    _, message = run_error("import asyncio\nasync def main():\n    return 1\nasyncio.run(main())")
    assert "top-level await" in message


def test_except_star_with_task_groups() -> None:
    source = (
        "import asyncio\n"
        "async def fail(kind):\n"
        "    raise kind('x')\n"
        "caught = []\n"
        "try:\n"
        "    async with asyncio.TaskGroup() as group:\n"
        "        group.create_task(fail(ValueError))\n"
        "        group.create_task(fail(KeyError))\n"
        "except* ValueError as errors:\n"
        "    caught.append(len(errors.exceptions))\n"
        "except* KeyError:\n"
        "    caught.append('key')\n"
        "return caught"
    )
    assert run_ok(source) == [1, "key"]


@pytest.mark.parametrize("base", ["ExceptionGroup", "BaseExceptionGroup"])
def test_exception_groups_cannot_be_subclassed(base: str) -> None:
    # CVE-2025-22153: except* trusts a group's split(); a lying one corrupts memory.
    source = (
        f"class Evil({base}):\n"
        "    def split(self, *args):\n"
        "        return 'not a pair'\n"
        "try:\n"
        "    raise Evil('x', [Exception()])\n"
        "except* Exception:\n"
        "    pass"
    )
    _, message = run_error(source)
    assert "cannot derive from" in message


@pytest.mark.parametrize(
    "read",
    [
        "operator.attrgetter('gi_frame')(walker)",
        "operator.attrgetter('x.gi_frame')(holder)",
        "operator.attrgetter('__class__.__mro__')(1)",
        "operator.methodcaller('__reduce_ex__', 2)(1)",
        "operator.methodcaller('format', walker)('{0.gi_frame}')",
    ],
)
def test_attrgetter_and_methodcaller_read_through_the_guard(read: str) -> None:
    source = (
        "import operator\n"
        "def walk():\n"
        "    yield 1\n"
        "walker = walk()\n"
        "class Holder:\n"
        "    def __init__(self):\n"
        "        self.x = walker\n"
        "holder = Holder()\n"
        f"return str({read})"
    )
    result = run(source)
    assert "frame" not in str(result.value)
    assert result.error is not None or "gi_frame" not in str(result.value)


def test_import_errors_name_what_is_available() -> None:
    _, message = run_error("from operator import nothing")
    assert "available: abs, add" in message
    _, message = run_error("import os")
    assert "allowed modules:" in message
    assert "csv" in message


def test_simplenamespace_keeps_private_names_private() -> None:
    _, message = run_error("import types\nns = types.SimpleNamespace()\nns._x = 1")
    assert "program's own objects" in message


@pytest.mark.parametrize(
    "construct",
    [
        "types.SimpleNamespace(**{name: 1})",
        "types.SimpleNamespace.__init__(types.SimpleNamespace(), **{name: 1})",
        "super(types.SimpleNamespace, types.SimpleNamespace()).__init__(**{name: 1})",
    ],
)
@pytest.mark.parametrize("name", ["__x__", "_asyncio_future_blocking", "_id", "__class__"])
def test_a_namespace_takes_only_names_an_attribute_write_takes(construct: str, name: str) -> None:
    # Every way to fill a namespace checks its names as `ns.name = value` does:
    # a library reading a name by getattr would see the program's value.
    kind, message = run_error(
        "import types\n"
        f"name = {name!r}\n"
        f"made = {construct}\n"
        "return repr(made)"
    )
    assert kind == "exception"
    assert f'"{name}"' in message


def test_a_namespace_still_prints_and_compares_as_the_real_one() -> None:
    assert run_ok(
        "import types\n"
        "ns = types.SimpleNamespace(a=1, b=[2])\n"
        "ns.c = 'x'\n"
        "twin = types.SimpleNamespace(**vars(ns))\n"
        "return [repr(ns), ns == twin, twin is not ns, isinstance(ns, types.SimpleNamespace),"
        " vars(types.SimpleNamespace(z=3)), repr(types.SimpleNamespace()), str(ns)]"
    ) == [
        "namespace(a=1, b=[2], c='x')", True, True, True, {"z": 3}, "namespace()",
        "namespace(a=1, b=[2], c='x')",
    ]


def test_calendar_abc_namedtuple_class_and_vars() -> None:
    source = (
        "import abc, calendar, types\n"
        "from typing import NamedTuple\n"
        "class Shape(abc.ABC):\n"
        "    @abc.abstractmethod\n"
        "    def area(self):\n"
        "        ...\n"
        "class Square(Shape):\n"
        "    def __init__(self, side):\n"
        "        self.side = side\n"
        "        self._label = 'sq'\n"
        "    def area(self):\n"
        "        return self.side ** 2\n"
        "class Point(NamedTuple):\n"
        "    x: int\n"
        "    y: int = 0\n"
        "    def norm1(self):\n"
        "        return abs(self.x) + abs(self.y)\n"
        "try:\n"
        "    Shape()\n"
        "    abstract = 'instantiated'\n"
        "except TypeError:\n"
        "    abstract = 'refused'\n"
        "return [calendar.monthrange(2024, 2)[1], calendar.isleap(2024), Square(3).area(),"
        " abstract, Point(1, -2).norm1(), Point(3)._asdict(), vars(Square(2)),"
        " vars(types.SimpleNamespace(a=1))]"
    )
    assert run_ok(source) == [
        29, True, 9, "refused", 3, {"x": 3, "y": 0}, {"side": 2, "_label": "sq"}, {"a": 1}
    ]


@pytest.mark.parametrize(
    "source",
    [
        # a NamedTuple field that match would read natively, past the format guard
        "from typing import NamedTuple\nclass P(NamedTuple):\n    format: int",
        "import asyncio\nvars(asyncio.Queue())",  # a library object's private state
        "import json\nvars(json)",
        "class S(str):\n"
        "    def shout(self):\n"
        "        return super().format('{0.gi_frame}')\n"
        "S('x').shout()",
        "import abc\nabc.abstractmethod(len)",
    ],
)
def test_the_new_forms_keep_the_guards(source: str) -> None:
    result = run(source)
    assert result.error is not None, result.value


def test_super_format_reaches_the_programs_own_method() -> None:
    source = (
        "class Base:\n"
        "    def format(self, text):\n"
        "        return '<' + text + '>'\n"
        "class Loud(Base):\n"
        "    def format(self, text):\n"
        "        return super().format(text).upper()\n"
        "return Loud().format('hi')"
    )
    assert run_ok(source) == "<HI>"


def test_urllib_parse_html_and_difflib() -> None:
    source = (
        "import urllib.parse\n"
        "from urllib.parse import urlencode, parse_qs, urljoin, quote, unquote, urlsplit\n"
        "import html\n"
        "import difflib\n"
        "u = urllib.parse.urlparse('https://shop.example.com:8443/orders?id=o-1&tag=a+b#top')\n"
        "matcher = difflib.SequenceMatcher(None, 'kitten', 'sitting')\n"
        "return [\n"
        "    [u.scheme, u.hostname, u.port, u.path, parse_qs(u.query), u.fragment, u.geturl()],\n"
        "    [urlencode({'q': 'rain & sun', 'days': 3}), urljoin('https://x.org/a/', 'b'),\n"
        "     quote('a/b c', safe=''), unquote('a%20b'), list(urlsplit('http://x/y'))],\n"
        "    [html.escape('<b>\"hi\"</b>'), html.unescape('&lt;&amp;&#39;')],\n"
        "    [round(matcher.ratio(), 3), [list(m) for m in matcher.get_matching_blocks()],\n"
        "     difflib.get_close_matches('Lodnon', ['London', 'Paris', 'Oslo']),\n"
        "     list(difflib.unified_diff(['a\\n', 'b\\n'], ['a\\n', 'c\\n'], 'old', 'new')),\n"
        "     list(difflib.ndiff(['one'], ['ore']))],\n"
        "]"
    )
    assert run_ok(source) == [
        [
            "https", "shop.example.com", 8443, "/orders", {"id": ["o-1"], "tag": ["a b"]}, "top",
            "https://shop.example.com:8443/orders?id=o-1&tag=a+b#top",
        ],
        [
            "q=rain+%26+sun&days=3", "https://x.org/a/b", "a%2Fb%20c", "a b",
            ["http", "x", "/y", "", ""],
        ],
        ["&lt;b&gt;&quot;hi&quot;&lt;/b&gt;", "<&'"],
        [
            0.615, [[1, 1, 3], [5, 5, 1], [6, 7, 0]], ["London"],
            ["--- old\n", "+++ new\n", "@@ -1,2 +1,2 @@\n", " a\n", "-b\n", "+c\n"],
            ["- one", "+ ore"],
        ],
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("import difflib\nm = difflib.SequenceMatcher(None, 'a', 'b')\nm.a = 'c'",
         "cannot change a SequenceMatcher object"),
        ("import difflib\nclass Mine(difflib.SequenceMatcher):\n    pass",
         "cannot derive from SequenceMatcher"),
        ("from urllib.parse import ParseResult\nclass Mine(ParseResult):\n    pass",
         "cannot derive from ParseResult"),
        ("import difflib\ng = difflib.ndiff(['a'], ['b'])\nnext(g)\ng.send(None)", '"send"'),
        ("from urllib.parse import urlparse\nurlparse('http://x/')._replace = len",
         "can be used only on the program's own objects"),
        ("from urllib.parse import ParseResult\nreturn ParseResult._make",
         "can be used only on the program's own objects"),
        ("import urllib\nreturn urllib.request", "module 'urllib' has no attribute 'request'"),
        ("import urllib.request", "programs have no network"),
        ("from urllib.parse import urlparse\n"
         "return urlparse.__globals__", '"__globals__" is an invalid attribute name'),
        ("import difflib\nreturn difflib.HtmlDiff", "has no attribute 'HtmlDiff'"),
    ],
)
def test_urllib_parse_and_difflib_keep_the_guards(source: str, needle: str) -> None:
    try:
        message = run_error(source)[1]
    except ProgramCompileError as exc:
        message = str(exc)
    assert needle in message, message


def test_fnmatch_matches_shell_style_patterns() -> None:
    source = (
        "import fnmatch\n"
        "from fnmatch import fnmatchcase, filter as pick\n"
        "skus = ['KB-01', 'MS-02', 'MN-27', 'CB-05', 'HS-07']\n"
        "return [fnmatch.fnmatch('report.csv', '*.csv'), fnmatchcase('report.CSV', '*.csv'),\n"
        "        pick(skus, 'M?-*'), fnmatch.filter(skus, '*-0[5-7]'),\n"
        "        fnmatch.filter(skus, '[!KM]*'), fnmatch.fnmatch(b'a.py', b'*.py'),\n"
        "        fnmatch.translate('*.csv')]"
    )
    assert run_ok(source) == [
        True, False, ["MS-02", "MN-27"], ["CB-05", "HS-07"], ["CB-05", "HS-07"], True,
        r"(?s:.*\.csv)\Z",
    ]  # fmt: skip


def test_fnmatch_runs_none_of_the_programs_code() -> None:
    # The real functions key a process-wide cache by the pattern (hash and ==)
    # and read a name through os.fspath: the façade hands them exact copies.
    source = (
        "import fnmatch\n"
        "calls = []\n"
        "class Text(str):\n"
        "    def __hash__(self):\n"
        "        calls.append('hash')\n"
        "        return 1\n"
        "    def __eq__(self, other):\n"
        "        calls.append('eq')\n"
        "        return True\n"
        "matched = fnmatch.filter([Text('ab'), 'b'], Text('a?'))\n"
        "return [matched, type(matched[0]) is str, fnmatch.fnmatchcase(Text('ab'), Text('a*')),\n"
        "        calls]"
    )
    assert run_ok(source) == [["ab"], True, True, []]


@pytest.mark.parametrize(
    ("source", "needle"),
    [
        ("import fnmatch\nfnmatch.fnmatch(3, '*')", "TypeError: expected str or bytes, not int"),
        ("import fnmatch\nreturn fnmatch.os", "has no attribute 'os'"),
        ("from fnmatch import _compile_pattern", "cannot import name '_compile_pattern'"),
        ("import fnmatch\nreturn fnmatch.fnmatch.__globals__",
         '"__globals__" is an invalid attribute name'),
    ],
)
def test_fnmatch_keeps_the_guards(source: str, needle: str) -> None:
    try:
        message = run_error(source)[1]
    except ProgramCompileError as exc:
        message = str(exc)
    assert needle in message, message


def test_the_new_library_classes_are_visible_so_the_child_checks_their_selves() -> None:
    # The child's zygote makes the Python methods of every visible class check
    # their self (sandbox._library.check_library_selves); the pool test below
    # shows it for two of them.
    import difflib
    import urllib.parse

    from sandbox._guards import visible_classes

    assert {
        urllib.parse.ParseResult, urllib.parse.SplitResult, difflib.SequenceMatcher,
        difflib.Differ, difflib.Match,
    } <= visible_classes()  # fmt: skip


@pytest.mark.slow
async def test_in_the_child_the_new_library_methods_refuse_a_foreign_self() -> None:
    import anyio

    from sandbox import WorkerPool
    from sandbox.testing import EchoHandler

    source = (
        "import difflib\n"
        "from urllib.parse import ParseResult\n"
        "class Fake:\n"
        "    pass\n"
        "out = []\n"
        "for call in (lambda: difflib.SequenceMatcher.ratio(Fake()),\n"
        "             lambda: ParseResult.geturl(Fake())):\n"
        "    try:\n"
        "        call()\n"
        "        out.append('ran')\n"
        "    except Exception as error:\n"
        "        out.append(str(error).partition(',')[0])\n"
        "return out"
    )
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(60):
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is None, result.error
    assert result.value == [
        "SequenceMatcher.ratio needs a SequenceMatcher object",
        "ParseResult.geturl needs a ParseResult object",
    ]
