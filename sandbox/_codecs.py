"""Codec lookups that never import: every codec is loaded before the first fork.

``str.encode(name)`` and ``bytes.decode(name)`` look a codec up by a name the
program gives. The standard search function imports ``encodings.<name>`` on
first use, which a running program may not do: the tripwire ends the run at
the import, and the OS layer refuses the file it would open. So a legitimate
``"x".encode("utf-8-sig")`` ended its run as a sandbox violation, and so did a
misspelt name, which plain Python answers with ``LookupError``.

:func:`load_every_codec` runs in the zygote: it imports every module of the
``encodings`` package (a codec a child can name is then already loaded, and
its lookup imports nothing) and puts a search function in front of the
standard one that answers "unknown" for a name whose module is not loaded,
instead of trying an import.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import pkgutil
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

__all__ = ["load_every_codec"]

_PACKAGE = "encodings"


def load_every_codec() -> None:
    """Import every codec module and make lookups of other names import nothing."""
    import encodings
    import encodings.aliases

    for module in pkgutil.iter_modules(encodings.__path__):
        # Some modules exist only on other platforms (``mbcs``, ``oem``): their
        # import fails, and their names stay unknown, as they are there.
        with contextlib.suppress(Exception):
            importlib.import_module(f"{_PACKAGE}.{module.name}")
    standard = encodings.search_function
    codecs.unregister(standard)
    codecs.register(_loaded_only(standard, encodings.normalize_encoding))


def _loaded_only(
    standard: Callable[[str], codecs.CodecInfo | None], normalize: Callable[[str], str]
) -> Callable[[str], codecs.CodecInfo | None]:
    """``standard``, asked only for names it would resolve to a loaded module."""
    import encodings.aliases

    aliases = encodings.aliases.aliases

    def search(encoding: str) -> codecs.CodecInfo | None:
        # The standard search function imports the first of these module
        # names it may (the alias of the normalised name, then the name
        # itself; not an empty or dotted one) and goes on to the next only if
        # that import fails: the first one is asked for only when it is loaded.
        normal = normalize(encoding)
        names = (aliases.get(normal) or aliases.get(normal.replace(".", "_")), normal)
        first = next((name for name in names if name and "." not in name), None)
        if first is None or f"{_PACKAGE}.{first}" not in sys.modules:
            return None
        return standard(encoding)

    return search
