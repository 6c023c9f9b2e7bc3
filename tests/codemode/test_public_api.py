"""The public surface of ``codemode``: one sorted list of names, each shown as ``codemode.X``."""

from __future__ import annotations

import importlib
import re
import typing

import msgspec
import pytest

import codemode


def _isort_key(name: str) -> tuple[int, str]:
    # The order ruff's RUF022 keeps: constants, then classes, then the rest.
    if re.fullmatch(r"[A-Z0-9_]+", name) and len(name) > 1:
        return (0, name)
    if name[:1].isupper():
        return (1, name)
    return (2, name)


def test_all_is_sorted() -> None:
    assert codemode.__all__ == sorted(codemode.__all__, key=_isort_key)


def test_all_has_no_duplicates() -> None:
    assert len(set(codemode.__all__)) == len(codemode.__all__)


@pytest.mark.parametrize("name", codemode.__all__)
def test_every_public_name_is_importable(name: str) -> None:
    namespace: dict[str, object] = {}
    exec(f"from codemode import {name}", namespace)
    assert namespace[name] is getattr(importlib.import_module("codemode"), name)


@pytest.mark.parametrize(
    "name",
    [n for n in codemode.__all__
     if isinstance(getattr(codemode, n), type)
     and not getattr(codemode, n).__module__.startswith("bridge")],
)
def test_each_public_class_reports_the_codemode_module(name: str) -> None:
    assert getattr(codemode, name).__module__ == "codemode"


@pytest.mark.parametrize("name", ["tool", "define_tool"])
def test_each_public_function_reports_the_codemode_module(name: str) -> None:
    assert getattr(codemode, name).__module__ == "codemode"


def test_public_structs_still_decode_after_the_module_rename() -> None:
    # msgspec resolves a Struct's annotations through its module; the rename
    # must not break that.
    decoded = msgspec.json.decode(b'{"content":[{"type":"text","text":"c"}]}',
                                  type=codemode.ContextMessage)
    assert decoded == codemode.ContextMessage(content=(codemode.TextBlock(text="c"),))


def test_star_import_brings_exactly_the_public_names() -> None:
    namespace: dict[str, object] = {}
    exec("from codemode import *", namespace)
    assert set(namespace) - {"__builtins__"} == set(codemode.__all__)


@pytest.mark.parametrize("name", ["Agent", "CallInput", "ToolSchema", "CodemodeError"])
def test_type_hints_still_resolve_after_the_module_rename(name: str) -> None:
    hints = typing.get_type_hints(getattr(codemode, name))
    assert hints
    assert not any(isinstance(h, str) for h in hints.values())
