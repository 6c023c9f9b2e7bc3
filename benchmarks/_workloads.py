"""The workloads W1–W7 of ``python -m benchmarks``: the same work written for each system.

Each system runs programs in its own dialect: codemode runs the body of an
async function that ends with ``return`` and calls ``tools.NAME(...)``;
pydantic-monty runs a module whose last expression is the result and calls
external functions by name with top-level ``await``; smolagents runs a module
whose last expression is the result and calls synchronous tools by name (it
has no ``await``, so its parallel workload runs the calls one after another).
The computations are the same, and every result is checked against
:attr:`Workload.expected`.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import Final, Literal

#: How long the W6 tool sleeps.
PAUSE_SECONDS: Final = 0.01
#: How long every system is left idle before each sample, once settled: a run in
#: an agent follows a model's turn, so no system's worker is hot from the last one.
IDLE_SECONDS: Final = 0.003
#: Parallel calls in W6.
PARALLEL_CALLS: Final = 10
#: Sequential calls in W3.
SEQUENTIAL_CALLS: Final = 1000

Kind = Literal["latency", "per_call", "cpu", "parallel"]


@dataclass(frozen=True)
class Workload:
    """One workload, in each system's dialect.

    Attributes:
        key: the stable short name (``w1`` …), used in the JSON figures.
        title: what the table calls it.
        kind: how a sample is turned into a figure: ``latency`` (the run),
            ``per_call`` (the run divided by ``calls``), ``cpu`` (the run over the
            same body run as a plain async function) or ``parallel`` (the run
            over one ``PAUSE_SECONDS``).
        codemode: the async-function body codemode runs.
        module: the module pydantic-monty and smolagents run (its last
            expression is the result); ``await`` marks the tool calls, which
            smolagents runs without it.
        expected: the value every system must return.
        calls: tool calls one run makes (for ``per_call``).
        samples: runs per system in each round.
    """

    key: str
    title: str
    kind: Kind
    codemode: str
    module: str
    expected: int
    calls: int = 0
    samples: int = 1

    def source_for_monty(self) -> str:
        return self.module

    def source_for_smolagents(self) -> str:
        # No async in smolagents' interpreter: tools are synchronous calls, and
        # the parallel calls run in turn.
        if self.kind == "parallel":
            return f"done = [pause() for _ in range({PARALLEL_CALLS})]\nlen(done)\n"
        return self.module.replace("await ", "")


def _as_module(body: str, result: str) -> str:
    return f"{body}{result}\n"


_SEQUENTIAL = f"total = 0\nfor i in range({SEQUENTIAL_CALLS}):\n    total += await noop(x=i)\n"

# The two CPU-bound loops of benchmarks/sandbox_micro.py, without their own timers
# (the whole run is timed, for every system alike), sized so that the plain loop
# takes some tens of milliseconds.
_ARITHMETIC = textwrap.dedent(
    """\
    total = 0
    for i in range(ARITHMETIC_STEPS):
        total += (i * 7 + 3) % 11 - (i >> 2)
    """
)
_ATTRIBUTES = textwrap.dedent(
    """\
    class Point:
        def __init__(self, x, y):
            self.x = x
            self.y = y
    points = [Point(i, i + 1) for i in range(100)]
    table = {"a": 1, "b": 2}
    values = [0] * 100
    total = 0
    for n in range(ATTRIBUTE_ROUNDS):
        for p in points:
            total += p.x * p.y + table["a"] + values[p.x % 100]
    """
)
_PARALLEL = (
    "import asyncio\n"
    f"done = await asyncio.gather(*[pause() for _ in range({PARALLEL_CALLS})])\n"
)


def _plain_value(body: str) -> int:
    namespace: dict[str, object] = {}
    exec(body, namespace)  # the benchmark's own constant code, to know the expected value
    value = namespace["total"]
    assert isinstance(value, int)
    return value


#: Iterations of W4 and rounds over 100 points of W5 at full size.
_CPU_SIZES: Final = {"ARITHMETIC_STEPS": 300_000, "ATTRIBUTE_ROUNDS": 1_500}


def _sized(body: str, scale: float) -> str:
    for name, full in _CPU_SIZES.items():
        body = body.replace(name, str(max(1, round(full * scale))))
    return body


def workloads(cpu_scale: float = 1.0) -> tuple[Workload, ...]:
    """W1–W6, the CPU-bound loops scaled by ``cpu_scale`` (1 for figures, less for a smoke run)."""
    arithmetic, attributes = _sized(_ARITHMETIC, cpu_scale), _sized(_ATTRIBUTES, cpu_scale)
    return _workloads(arithmetic, attributes)


def _workloads(arithmetic: str, attributes: str) -> tuple[Workload, ...]:
    return (
        Workload("w1", "W1 trivial run", "latency", "return 1", "1", 1, samples=20),
        Workload(
            "w2", "W2 one tool call", "latency",
            "return await tools.noop(x=1)", "await noop(x=1)", 1, calls=1, samples=20,
        ),
        Workload(
            "w3", f"W3 per sub-call, {SEQUENTIAL_CALLS:,} sequential", "per_call",
            _SEQUENTIAL.replace("await noop(", "await tools.noop(") + "return total",
            _as_module(_SEQUENTIAL, "total"),
            sum(range(SEQUENTIAL_CALLS)), calls=SEQUENTIAL_CALLS,
        ),
        Workload(
            "w4", "W4 CPU-bound, vs plain CPython", "cpu",
            arithmetic + "return total", _as_module(arithmetic, "total"), _plain_value(arithmetic),
        ),
        Workload(
            "w5", "W5 attribute/subscript-heavy, vs plain CPython", "cpu",
            attributes + "return total", _as_module(attributes, "total"), _plain_value(attributes),
        ),
        Workload(
            "w6", f"W6 {PARALLEL_CALLS} parallel calls of a {PAUSE_SECONDS * 1e3:.0f} ms tool",
            "parallel",
            _PARALLEL.replace("[pause()", "[tools.pause()") + "return len(done)",
            _as_module(_PARALLEL, "len(done)"), PARALLEL_CALLS, calls=PARALLEL_CALLS, samples=3,
        ),
    )

#: W7's program (and the cold start's): a trivial run.
THROUGHPUT: Final = Workload("w7", "W7 trivial run", "latency", "return 1", "1", 1)
#: Runs in one W7 sample.
THROUGHPUT_RUNS: Final = 60
#: Runs in flight at once in W7.
IN_FLIGHT: Final = 2


def plain_function(body: str) -> str:
    """``body`` as a plain ``async def`` (the floor the CPU ratios compare with)."""
    return "async def __plain__():\n" + textwrap.indent(body, "    ") + "\n"
