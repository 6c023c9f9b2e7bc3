"""Compile time against nesting depth, and the host's worst cases at its in-place bounds.

Run from the project root::

    python benchmarks/compile_depth.py            # default repetitions
    python benchmarks/compile_depth.py --quick    # fewer

Three tables, every figure a median of CPU time on the calling thread:

1. For each kind of nesting in ``tests/nesting.py``, ``compile_program`` (parse,
   pre-flight check, policy, compile) at depths 8 to 64, and the ratio of the
   time per node at the deepest to the shallowest (1.0: linear).
2. The slowest program of at most ``HOST_COMPILE_BYTES`` the host compiles
   itself (generated from the same kinds and from dense statement shapes), and
   a trivial one.
3. Decoding and checking JSON text of ``INLINE_DECODE_BYTES``, the most the
   host decodes on its event loop, for the costliest shapes of text.

Nothing here is an assertion: the numbers go into BENCHMARKS.md by hand.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import functools
import statistics
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bridge._decoding import INLINE_DECODE_BYTES, decode_lossless
from bridge.protocol import ToolSignature
from sandbox._compile import ProgramCompileError, compile_program
from sandbox._host_compile import HOST_COMPILE_BYTES
from tests.nesting import NESTINGS

if TYPE_CHECKING:
    from collections.abc import Callable

DEPTHS = (8, 16, 32, 64)
SIGNATURES = (ToolSignature("search", ("query", "limit"), ("query",), open=False),)


def median_seconds(work: Callable[[], object], repeat: int) -> float:
    """The median CPU time of ``work`` on this thread.

    CPU time rather than wall time: it is the work itself, which is what the
    host's event loop waits for, and it moves less when other processes share
    the machine.
    """
    samples = []
    for _ in range(repeat):
        start = time.thread_time()
        with contextlib.suppress(ProgramCompileError):
            work()
        samples.append(time.thread_time() - start)
    return statistics.median(samples)


def compile_once(source: str) -> Callable[[], object]:
    return lambda: compile_program(source, signatures=SIGNATURES)


def nodes(source: str) -> int:
    return sum(1 for _ in ast.walk(ast.parse(source)))


def fitted(generate: Callable[[int], str], size: int) -> str | None:
    """The deepest (or widest) program ``generate`` makes within ``size`` bytes."""
    best = None
    for depth in range(1, 4096):
        source = generate(depth)
        if len(source.encode()) > size:
            break
        best = source
    return best


def depth_table(repeat: int) -> None:
    print(f"compile_program against depth (median of {repeat}), ms; last column: "
          "time per node at depth 64 over depth 8")
    print(f"{'kind':34s}" + "".join(f"{d:>9d}" for d in DEPTHS) + "    ratio")
    ratios = []
    for kind, generate in sorted(NESTINGS.items()):
        times = [median_seconds(compile_once(generate(d)), repeat) for d in DEPTHS]
        per_node = [t / nodes(generate(d)) for t, d in zip(times, DEPTHS, strict=True)]
        ratio = per_node[-1] / per_node[0]
        ratios.append(ratio)
        print(f"{kind:34s}" + "".join(f"{t * 1e3:9.2f}" for t in times) + f"{ratio:9.2f}")
    print(f"median ratio {statistics.median(ratios):.2f}, largest {max(ratios):.2f}")


_DENSE: dict[str, Callable[[int], str]] = {
    "assignments": lambda w: "x = 1\n" * w,
    "names in a list": lambda w: "x = [" + "a, " * w + "]\n",
    "calls": lambda w: "f(a, b)\n" * w,
    "subscripts": lambda w: "a[b][c][d][e]\n" * w,
    "guarded attributes": lambda w: "a.format.obj.b = c[d]\n" * w,
    "tool calls": lambda w: "await tools.search(query='q', limit=1)\n" * w,
    "unknown tool calls": lambda w: "await tools.serch(query='q')\n" * w,
    "identical functions": lambda w: "def f(a, b):\n    return a + b\n" * w,
}


def host_bound_table(repeat: int) -> None:
    print(f"\nthe host's own compiles: programs of at most {HOST_COMPILE_BYTES} bytes "
          f"(median of {repeat}), ms")
    rows = []
    for kind, generate in [*_DENSE.items(), *sorted(NESTINGS.items())]:
        source = fitted(generate, HOST_COMPILE_BYTES)
        if source is None:
            continue
        rows.append((median_seconds(compile_once(source), repeat), kind, len(source.encode())))
    rows.sort(reverse=True)
    for seconds, kind, size in rows[:6]:
        print(f"  {kind:34s} {size:5d} B  {seconds * 1e3:7.2f} ms")
    trivial = median_seconds(compile_once("return 1"), repeat * 10)
    print(f"  {'trivial (return 1)':34s} {8:5d} B  {trivial * 1e3:7.2f} ms")


_TEXTS: dict[str, Callable[[int], bytes]] = {
    "zeros": lambda n: b"[" + b"0," * (n // 2 - 1) + b"0]",
    "empty lists": lambda n: b"[" + b"[]," * (n // 3 - 1) + b"[]]",
    "empty objects": lambda n: b"[" + b"{}," * (n // 3 - 1) + b"{}]",
    "one-key objects": lambda n: b"[" + b'{"":0},' * (n // 7 - 1) + b"{}]",
    "short strings": lambda n: b"[" + b'"",' * (n // 3 - 1) + b'""]',
    "negative floats": lambda n: b"[" + b"-0.5," * (n // 5 - 1) + b"-0.5]",
    "nested lists": lambda n: b"[" * (n // 4) + b"]" * (n // 4),
}


def decode_table(repeat: int) -> None:
    print(f"\ndecoding and checking {INLINE_DECODE_BYTES} bytes of JSON text on the loop "
          f"(median of {repeat * 10}), us")
    for kind, make in _TEXTS.items():
        raw = make(INLINE_DECODE_BYTES)
        seconds = median_seconds(functools.partial(_decode, raw), repeat * 10)
        print(f"  {kind:20s} {len(raw):5d} B  {seconds * 1e6:8.1f} us")


def _decode(raw: bytes) -> None:
    with contextlib.suppress(ValueError):  # a lossy text is refused, at the same cost
        decode_lossless(raw)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repetitions")
    repeat = 5 if parser.parse_args().quick else 21
    print(f"python {sys.version.split()[0]}")
    depth_table(repeat)
    host_bound_table(repeat)
    decode_table(repeat)


if __name__ == "__main__":
    main()
