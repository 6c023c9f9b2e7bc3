"""No construct reads an attribute natively that the guard would decide.

The compiler leaves an attribute read native when the guard would pass it as
is (`sandbox._attribute_names.read_natively`). Two constructs read attributes with no
expression of their own for the compiler to rewrite: a dotted name in a
`match` pattern, and the read half of `obj.attr += v`. `case {C.mro: _}` and
`C.mro += x` handed the real `mro()` (and so the real enum classes, and a shell)
to the program's code. This test compiles every construct that reads an
attribute, for every name the guard decides, and looks at the bytecode: the
program is refused, or no instruction reads that name natively.
"""

from __future__ import annotations

import dis
import types

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox._attribute_names import READABLE_DUNDERS, RUNTIME_CHECKED_ATTRIBUTES, read_natively
from sandbox._compile import ProgramCompileError, compile_program

#: Instructions that read an attribute natively.
_NATIVE_READS = frozenset({"LOAD_ATTR", "LOAD_METHOD"})

#: Every construct that makes the interpreter read ``obj.NAME``.
CONSTRUCTS = {
    "expression": "x = obj.NAME",
    "call": "obj.NAME()",
    "augmented": "obj.NAME += 1",
    "augmented-nested": "obj.inner.NAME += 1",
    "value-pattern": "match s:\n    case obj.NAME:\n        pass",
    "nested-value-pattern": "match s:\n    case [obj.NAME, _]:\n        pass",
    "mapping-key": "match s:\n    case {obj.NAME: _}:\n        pass",
    "class-pattern": "match s:\n    case obj.NAME():\n        pass",
    "class-keyword": "match s:\n    case C(NAME=_):\n        pass",
    "guard": "match s:\n    case _ if obj.NAME:\n        pass",
    "f-string": "x = f'{obj.NAME}'",
    "decorator": "@obj.NAME\ndef f():\n    pass",
    "base": "class K(obj.NAME):\n    pass",
    "except": "try:\n    pass\nexcept obj.NAME:\n    pass",
    "comprehension": "x = [y for y in obj.NAME]",
    "lambda": "f = lambda: obj.NAME",
    "default": "def f(a=obj.NAME):\n    pass",
    "annotation": "def f(a: obj.NAME):\n    pass",
    "class-annotation": "class K:\n    a: obj.NAME = 1",
    "with": "with obj.NAME as w:\n    pass",
    "walrus": "if (w := obj.NAME):\n    pass",
    "keyword": "print(end=obj.NAME)",
    "star": "print(*obj.NAME)",
    "subscript": "x = obj.NAME[0]",
    "delete": "del obj.NAME",
    "assign": "obj.NAME = 1",
}

#: Names the guard decides (not read natively): every runtime-checked name and
#: the reviewed dunders a program may read through the guard.
GUARDED_NAMES = sorted(RUNTIME_CHECKED_ATTRIBUTES | READABLE_DUNDERS)


def _native_reads(code: types.CodeType) -> set[str]:
    names = {i.argval for i in dis.get_instructions(code) if i.opname in _NATIVE_READS}
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _native_reads(const)
    return names


def _compiles(source: str) -> types.CodeType | None:
    try:
        return compile_program(f"obj = s = C = None\n{source}\nreturn 1")
    except ProgramCompileError:
        return None


@pytest.mark.parametrize("construct", sorted(CONSTRUCTS))
@pytest.mark.parametrize("name", GUARDED_NAMES)
def test_no_construct_reads_a_guarded_name_natively(construct: str, name: str) -> None:
    code = _compiles(CONSTRUCTS[construct].replace("NAME", name))
    if code is not None:
        assert name not in _native_reads(code)


def test_the_constructs_do_read_plain_names_natively() -> None:
    # A check of the check: each construct compiles with a plain name, and (but
    # for writes and deletes) reads it natively.
    for construct, template in CONSTRUCTS.items():
        code = _compiles(template.replace("NAME", "plain"))
        assert code is not None, construct
        if construct not in ("delete", "assign", "class-keyword"):
            assert "plain" in _native_reads(code), construct


@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_", min_size=1, max_size=12))
def test_any_name_read_natively_is_one_the_guard_passes(name: str) -> None:
    # Whatever the name, a construct either refuses it or reads it natively only
    # if the guard would pass it as is.
    for construct in ("expression", "augmented", "value-pattern", "mapping-key"):
        code = _compiles(CONSTRUCTS[construct].replace("NAME", name))
        if code is not None and name in _native_reads(code):
            assert read_natively(name) or name.startswith("_"), (construct, name)


#: Private names in classes (mangled by the interpreter), nested functions and
#: classes, reads, writes and deletes.
_PRIVATE_NAMES = '''
class Account:
    def __init__(self):
        self.__balance = 0
        self._log = []
    def deposit(self, n):
        self.__balance += n
        def inner():
            return self.__balance
        return inner()
    @classmethod
    def probe(cls):
        return cls.__dict_like if False else cls._log_name
    _log_name = "a"
    class __Nested:
        def peek(self, other):
            del other.__hidden
            return other.__seen
class __Under:
    def get(self):
        return self.__value
return Account().deposit(2)
'''


def test_the_guard_judges_the_private_name_the_interpreter_reads() -> None:
    # `cls.__cast` in a class named UserList read `_UserList__cast`, a library
    # base's raw method, while the guard judged "__cast".
    code = compile_program(_PRIVATE_NAMES)
    checked = 0
    pending: list[types.CodeType] = [code]
    while pending:
        current = pending.pop()
        pending.extend(c for c in current.co_consts if isinstance(c, types.CodeType))
        instructions = list(dis.get_instructions(current))
        for i, instr in enumerate(instructions):
            if instr.opname in {"LOAD_ATTR", "LOAD_METHOD", "STORE_ATTR", "DELETE_ATTR"} and str(
                instr.argval
            ).startswith("_"):
                before = instructions[max(0, i - 12) : i]
                judged = [x.argval for x in before if x.opname == "LOAD_CONST"
                          and isinstance(x.argval, str)]
                assert judged, instr.argval
                assert judged[-1] == instr.argval, (instr.argval, judged)
                checked += 1
    assert checked >= 8
