"""``match`` class patterns read attributes without the guard; what the language layer allows."""

from __future__ import annotations

import pytest

from sandbox._compile import ProgramCompileError, compile_program

from .test_language_support import run, run_ok


def test_a_namedtuple_class_pattern_still_matches_positionally() -> None:
    source = """
import collections
Point = collections.namedtuple("Point", ["x", "y"])
match Point(1, 2):
    case Point(a, b):
        return [a, b]
"""
    assert run_ok(source) == [1, 2]


@pytest.mark.parametrize("field", ["gi_frame", "f_back", "f_builtins", "tb_frame", "format", "obj"])
def test_a_namedtuple_cannot_name_an_attribute_the_guard_refuses(field: str) -> None:
    source = f"""
import collections
collections.namedtuple("View", ["{field}"])
"""
    result = run(source)
    assert result.error is not None
    assert result.error[0] == "exception"
    assert f"namedtuple field name '{field}' is not allowed in run_code" in result.error[1]


def test_a_dataclass_cannot_name_a_field_the_guard_checks_at_run_time() -> None:
    source = """
import dataclasses
@dataclasses.dataclass
class View:
    format: str
"""
    result = run(source)
    assert result.error is not None
    assert "dataclass field name 'format' is not allowed in run_code" in result.error[1]


@pytest.mark.parametrize("field", ["format", "obj", "mro", "send"])
def test_a_typing_namedtuple_cannot_name_a_field_the_guard_decides_at_run_time(field: str) -> None:
    # Its fields become __match_args__, which a class pattern reads natively.
    result = run(f"from typing import NamedTuple\nclass P(NamedTuple):\n    {field}: int\n")
    assert result.error is not None
    assert "lists attribute names for `match`" in result.error[1]


def test_a_registered_abc_cannot_read_a_generator_frame_through_a_class_pattern() -> None:
    source = """
import collections
import collections.abc
def read(obj, field):
    Base = collections.namedtuple("Base", [field])
    class View(Base, collections.abc.Sequence):
        pass
    View.register(type(obj))
    match obj:
        case View(value):
            return value
def gen():
    yield 1
return str(read(gen(), "gi_frame"))
"""
    result = run(source)
    assert result.error is not None
    assert "namedtuple field name 'gi_frame' is not allowed" in result.error[1]


@pytest.mark.parametrize("attr", ["format", "format_map", "obj"])
def test_a_keyword_class_pattern_cannot_read_a_runtime_checked_attribute(attr: str) -> None:
    source = f"""
match "text":
    case str({attr}=found):
        return 1
"""
    with pytest.raises(ProgramCompileError, match=f'"{attr}" cannot be read by a class pattern'):
        compile_program(source)


def test_a_keyword_class_pattern_reads_ordinary_attributes() -> None:
    source = """
match "text":
    case str(upper=method):
        return method()
"""
    assert run_ok(source) == "TEXT"


@pytest.mark.parametrize("cls", ["Enum", "IntEnum", "StrEnum", "Flag", "IntFlag"])
@pytest.mark.parametrize(
    "names",
    [
        '[("A", 1), ("__format__", hook)]',
        '{"A": 1, "__getattribute__": hook}',
        '"A _missing_"',
        '(name for name in ["A", "__reduce_ex__"])',
    ],
)
def test_the_enum_functional_api_cannot_define_special_methods(cls: str, names: str) -> None:
    source = f"""
import enum
def hook(*args):
    return "hooked"
enum.{cls}("E", {names})
"""
    result = run(source)
    assert result.error is not None
    assert "enum member name" in result.error[1]
    assert "is not allowed in run_code" in result.error[1]


def test_enums_still_work_as_classes_and_through_the_functional_api() -> None:
    source = """
import enum
class Color(enum.Enum):
    RED = 1
    GREEN = enum.auto()
Perm = enum.Flag("Perm", "R W X")
Level = enum.IntEnum("Level", [("LOW", 1), ("HIGH", 2)])
Mode = enum.StrEnum("Mode", {"FAST": "fast"})
return [Color(2).name, str(Perm.R | Perm.W), Level.HIGH + 1, Mode.FAST == "fast",
        isinstance(Color.RED, enum.Enum)]
"""
    assert run_ok(source) == ["GREEN", "Perm.R|W", 3, True, True]
