"""Short programs compiled on the host, once per source: the pool's program cache.

A program of at most :data:`HOST_COMPILE_BYTES` is compiled (and its tool
calls checked) by the host, in a worker thread and one compile at a time, and
kept marshalled with its calls, keyed by ``(source, restricted)``: a run of a
cached program costs the event loop a dictionary lookup and a check of its
recorded calls. Every longer program, and every program on an interpreter
whose parser keeps the names it reads (:data:`HOST_COMPILES` false), is sent
as source and compiled by the child that runs it.

:class:`HostCompiler` is a layer of :class:`~sandbox.WorkerPool` of its own
because it shares nothing with the pool's children or the run's protocol: its
state is the cache (``_compiled``, made by the pool's ``__init__``) and this
module's lock. ``WorkerPool.run`` decides which programs come here.

This module is host-only: the child never imports it.
"""

from __future__ import annotations

import functools
import marshal
import threading
from typing import TYPE_CHECKING, Final

import anyio
import anyio.to_thread

from sandbox._compile import check_cached_calls, compile_with_calls, parsed_names_are_freed

if TYPE_CHECKING:
    import types
    from collections import OrderedDict

    from bridge.protocol import ToolSignature
    from sandbox._calls import CallSite

__all__ = ["HOST_COMPILES", "HOST_COMPILE_BYTES", "HostCompiler"]

#: Compiled programs kept per pool (marshalled, with their tool calls), keyed by
#: ``(source, restricted)``.
_COMPILE_CACHE_SIZE: Final = 256
#: Programs up to this many bytes of source are compiled (and their calls
#: checked) by the host, in a worker thread, and cached by source; a cached
#: program costs the event loop a dictionary lookup and a check of its recorded
#: calls. Compiling one costs at most a few milliseconds of CPU, of which the
#: parser and the compiler, which hold the GIL, take a fraction (BENCHMARKS.md):
#: a bound that no program can raise. Every longer program is sent as source and
#: compiled by the child that runs it, under the child's CPU, memory and
#: wall-clock limits. A longer program must not be compiled on the host at all:
#: the parser and compiler hold the GIL throughout (over a second for a program
#: of max_source_bytes, stalling the loop whatever thread they run in), and the
#: compiler is superlinear in some shapes (thousands of identical functions
#: took seconds).
HOST_COMPILE_BYTES: Final = 1024
#: Whether the host compiles short programs at all. Where the parser makes the
#: names it reads immortal (CPython 3.12 and later), every name of every
#: program the host parsed would stay in the host for good (about 2.4 KB a
#: run for a 1 KiB program of fresh names, measured through a pool on 3.12.1):
#: memory that grows with untrusted input without bound. There every program
#: is compiled by the child that runs it, whose names end with it.
HOST_COMPILES: Final = parsed_names_are_freed()

#: Host-side compiles run one at a time: CPython 3.11's AST validation keeps its
#: recursion depth per interpreter, not per thread, so two threads compiling at
#: once can fail with "SystemError: AST constructor recursion depth mismatch"
#: (python/cpython#106905). The programs compiled here are at most
#: HOST_COMPILE_BYTES long, so the lock is held briefly.
_COMPILE_LOCK: Final = threading.Lock()


class HostCompiler:
    """The layer of :class:`~sandbox.WorkerPool` that compiles short programs and keeps them."""

    _compiled: OrderedDict[tuple[str, bool], tuple[bytes, tuple[CallSite, ...] | None]]

    async def _host_compile(
        self, source: str, restricted: bool, signatures: tuple[ToolSignature, ...] | None
    ) -> bytes:
        """The marshalled code of a short program (at most ``HOST_COMPILE_BYTES``).

        Raises:
            ProgramCompileError: the program is refused.
        """
        key = (source, restricted)
        cached = self._compiled.get(key)
        if cached is not None:
            self._compiled.move_to_end(key)
            code, sites = cached
            if signatures is not None:
                check_cached_calls(sites, signatures)
            return code
        compiled, sites = await anyio.to_thread.run_sync(
            functools.partial(
                _compile_one_at_a_time, source, restricted=restricted, signatures=signatures
            ),
            abandon_on_cancel=True,
        )
        code = marshal.dumps(compiled)
        self._compiled[key] = (code, sites)
        if len(self._compiled) > _COMPILE_CACHE_SIZE:
            self._compiled.popitem(last=False)
        return code


def _compile_one_at_a_time(
    source: str, *, restricted: bool, signatures: tuple[ToolSignature, ...] | None
) -> tuple[types.CodeType, tuple[CallSite, ...] | None]:
    with _COMPILE_LOCK:
        return compile_with_calls(source, restricted=restricted, signatures=signatures)
