"""Codecs looked up by name: every one plain Python has works, and no lookup imports.

``str.encode(name)`` imports ``encodings.<name>`` the first time a name is used.
A running program may not import (the tripwire ends the run, the OS layer
refuses the file), so the zygote loads every codec module first and puts a
search function in front of the standard one that answers "unknown" for any
name whose module is not loaded (``sandbox/_codecs.py``).
"""

from __future__ import annotations

import builtins
import contextlib
import encodings
import encodings.aliases
import importlib
import pkgutil
import sys
from typing import TYPE_CHECKING, Any, Final

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import Limits, WorkerPool
from sandbox._codecs import _loaded_only
from sandbox.testing import EchoHandler

if TYPE_CHECKING:
    from collections.abc import Iterator

GUARD = 60  # seconds; a guard against hangs, never a timing assertion
_TEXT: Final = "héllo €.example"
_BYTES: Final = b"\xef\xbb\xbfa,b\\u00e9"

#: Codec names plain Python knows that no alias of a loaded-by-default codec
#: names (each imported its module on first use), and two it does not know.
NAMES: Final = (
    "utf-8-sig", "idna", "punycode", "unicode_escape", "raw_unicode_escape", "cp720",
    "koi8_u", "mac_croatian", "charmap", "utf-8", "hex", "no-such-codec", "utf.8", "",
)

_PROGRAM: Final = """
def attempt(work, name):
    try:
        return repr(work(name))
    except Exception as error:
        return f"{type(error).__name__}: {error}"

out = []
for name in NAMES:
    out.append([attempt(TEXT.encode, name), attempt(BYTES.decode, name)])
return out
"""


def _attempt(work: Any, name: str) -> str:
    try:
        return repr(work(name))
    except Exception as error:
        return f"{type(error).__name__}: {error}"


def _plain(names: tuple[str, ...]) -> list[list[str]]:
    return [
        [_attempt(_TEXT.encode, name), _attempt(_BYTES.decode, name)]
        for name in names
    ]


def _program(names: tuple[str, ...]) -> str:
    bindings = f"NAMES = {names!r}\nTEXT = {_TEXT!r}\nBYTES = {_BYTES!r}\n"
    return bindings + _PROGRAM


async def _run(source: str, limits: Limits) -> Any:
    async with WorkerPool(limits=limits, size=1) as pool:
        with anyio.fail_after(GUARD):
            result = await pool.run(source, tool_names=["echo"], handler=EchoHandler())
    assert result.error is None, result.error
    return result.value


@pytest.mark.slow
@pytest.mark.parametrize(
    "limits",
    [
        pytest.param(Limits(wall_seconds=20), id="every-layer"),
        pytest.param(Limits(language_layer=False, os_layer=False, wall_seconds=20), id="tripwire"),
        pytest.param(Limits(language_layer=False, tripwire=False, wall_seconds=20), id="os-layer"),
    ],
)
def test_every_codec_name_answers_as_in_plain_python(limits: Limits) -> None:
    assert anyio.run(_run, _program(NAMES), limits) == _plain(NAMES)


@pytest.fixture(scope="module")
def every_codec_loaded() -> None:
    for module in pkgutil.iter_modules(encodings.__path__):
        try:
            importlib.import_module(f"encodings.{module.name}")
        except ImportError:
            continue


@contextlib.contextmanager
def _recorded_imports() -> Iterator[list[str]]:
    """The names the standard search function asks ``__import__`` for."""
    asked: list[str] = []
    real = builtins.__import__

    def recording(name: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(name)
        return real(name, *args, **kwargs)

    builtins.__import__ = recording
    try:
        yield asked
    finally:
        builtins.__import__ = real


def _fresh_standard() -> Any:
    """The standard search function with its cache of answers emptied."""
    encodings._cache.clear()
    return encodings.search_function


_NAME_TEXT: Final = st.text(
    st.sampled_from("abcdefghijklmnopqrstuvwxyz0123456789-_. éİ"), max_size=14
) | st.sampled_from(sorted(encodings.aliases.aliases)) | st.sampled_from(
    sorted(module.name for module in pkgutil.iter_modules(encodings.__path__))
)


@pytest.mark.usefixtures("every_codec_loaded")
@given(name=_NAME_TEXT)
def test_a_lookup_imports_no_module_that_is_not_loaded_and_finds_what_plain_python_finds(
    name: str,
) -> None:
    search = _loaded_only(_fresh_standard(), encodings.normalize_encoding)
    with _recorded_imports() as asked:
        found = search(name)
    assert all(module in sys.modules for module in asked), asked
    expected = _fresh_standard()(name)
    assert (found is None) == (expected is None)
    if found is not None and expected is not None:
        assert found.name == expected.name
