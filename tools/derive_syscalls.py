"""Derive the sandbox child's seccomp allow-list by measuring what children call.

Run from the project root, as root, with ``strace`` installed (``apt-get install strace``)::

    python tools/derive_syscalls.py            # measure, verify, report
    python tools/derive_syscalls.py --write    # ... and rewrite sandbox/_syscalls.py

How it measures:

1. It runs a workload (below) through real pools whose zygote runs under
   ``strace -f -ff`` and in *measuring* mode: the filter is the real one
   (``sandbox._seccomp``) except that a call it would refuse is logged by the
   kernel (``SCMP_ACT_LOG``) and performed, so every child behaves as if
   everything were allowed.
2. From each child's trace it takes every system call made after the child
   loaded its filter: its start-up after the filter, the warm-up, READY, the
   program, ``Done`` and its exit. Calls the measurement must never see
   (``NEVER_ALLOWED``) fail the run instead of widening the list.
3. It reads the kernel log for the seccomp records of those children: each
   names a call the current filter would have refused. After ``--write`` a
   second run must show none (the list, the argument rules and the reasons
   in ``sandbox/_seccomp.py`` cover the workload).

The workload: every legitimate program of the escape corpus
(``tests/escapes/corpus/legit``) with both layers and with the OS layer alone,
the example programs and scripts (``examples/``, but for the one that runs an
escape corpus: attacks are not the workload), and the stress programs
below, which reach the runtime's edges a short program does not (large and
failing allocations, the CPU and wall-clock limits, log truncation and the
SIGALRM flush, a blocking sleep interrupted by that signal, entropy, clocks,
many and large tool calls, exceptions, output limits).
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import os
import re
import runpy
import shutil
import subprocess
import sys
import tempfile
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

ROOT: Final = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

if TYPE_CHECKING:
    from collections.abc import Iterator


OUTPUT: Final = ROOT / "sandbox" / "_syscalls.py"
#: Calls whose arguments the filter checks: their argument forms are recorded.
_ARGUMENT_SHOWN: Final = (
    "socketpair", "ioctl", "prlimit64", "fcntl", "mmap", "mprotect", "mremap", "madvise",
    "clock_gettime", "clock_nanosleep",
)
#: The child's own filter load (libseccomp's probes in the zygote fail or are no loads).
_SECCOMP_LOADED: Final = re.compile(r"^prctl\(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, .*\) = 0$")
_CALL: Final = re.compile(r"^([a-z_][a-z0-9_]*)\((.*)")
_AUDIT: Final = re.compile(r"type=1326 .*? pid=(\d+) .*? syscall=(\d+) ")

_MIB: Final = 1024 * 1024


@dataclass(frozen=True)
class Stress:
    """One stress program: its source, limits and expected outcome."""

    name: str
    source: str
    value: object = None
    error: str | None = None  # the expected error kind, or None for success
    limits: dict[str, Any] = dataclasses.field(default_factory=dict)
    any_value: bool = False


STRESS: Final[tuple[Stress, ...]] = (
    Stress(
        "memory_churn",
        "data = [str(i) * 10 for i in range(200000)]\n"
        "blob = 'x' * 30_000_000\n"
        "more = blob + 'y'\n"
        "del blob, more\n"
        "table = {i: [i] * 10 for i in range(50000)}\n"
        "big = bytearray(20_000_000)\n"
        "big.extend(b'z' * 1000)\n"
        "del big\n"
        "data.clear()\n"
        "return len(table)",
        value=50000,
    ),
    Stress(
        "list_growth",
        "items = []\nfor i in range(3_000_000):\n    items.append(i)\nreturn len(items)",
        value=3_000_000,
    ),
    Stress(
        "memory_error_caught",
        "try:\n    x = 'x' * (2 ** 40)\nexcept MemoryError:\n    return 'caught'",
        value="caught",
    ),
    Stress(
        "memory_filled_then_freed",
        "chunks = []\ntry:\n    while True:\n        chunks.append(bytes(10_000_000))\n"
        "except MemoryError:\n    pass\nfilled = len(chunks) > 0\nchunks.clear()\n"
        "return [filled, len(bytes(1000))]",
        value=[True, 1000],
    ),
    Stress(
        "recursion_error",
        "def deeper(n):\n    return deeper(n + 1)\ntry:\n    deeper(0)\n"
        "except RecursionError:\n    return 'deep'",
        value="deep",
    ),
    Stress("cpu_limit", "while True:\n    pass", error="timeout", limits={"cpu_seconds": 1}),
    Stress(
        "wall_limit",
        "import asyncio\nawait asyncio.sleep(60)",
        error="timeout",
        limits={"wall_seconds": 1.0},
    ),
    Stress("blocking_sleep", "import time\ntime.sleep(0.2)\nreturn 'slept'", value="slept"),
    Stress(
        "print_flood",
        "for i in range(200000):\n    print(i)\nreturn 'printed'",
        value="printed",
    ),
    Stress(
        "print_while_sleeping",
        "import time\nfor i in range(4):\n    print(i)\n    time.sleep(0.3)\nreturn 'ok'",
        value="ok",
    ),
    Stress(
        "asyncio_timers",
        "import asyncio\n"
        "async def tick(n):\n    await asyncio.sleep(0.01 * n)\n    return n\n"
        "values = await asyncio.gather(*(tick(n) for n in range(10)))\n"
        "try:\n    await asyncio.wait_for(asyncio.sleep(5), timeout=0.05)\n"
        "except TimeoutError:\n    values.append('timed out')\n"
        "queue = asyncio.Queue()\n"
        "async def produce():\n    for n in range(100):\n        await queue.put(n)\n"
        "async with asyncio.TaskGroup() as group:\n    group.create_task(produce())\n"
        "total = 0\nfor _ in range(100):\n    total += await queue.get()\n"
        "event = asyncio.Event()\n"
        "async def later():\n    await asyncio.sleep(0.02)\n    event.set()\n"
        "waker = asyncio.create_task(later())\nawait event.wait()\nawait waker\n"
        "async with asyncio.timeout(1):\n    await asyncio.sleep(0.01)\n"
        "return [values, total]",
        value=[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, "timed out"], 4950],
    ),
    Stress(
        "entropy",
        "import random\nrandom.seed()\nr = random.Random()\n"
        "values = [r.random(), random.random(), random.randbytes(16), random.getrandbits(64)]\n"
        "return len(values)",
        value=4,
    ),
    Stress(
        "clocks",
        "import datetime, time\n"
        "values = [time.time(), time.monotonic(), time.perf_counter(),\n"
        "          datetime.datetime.now().isoformat(),\n"
        "          datetime.datetime.now().astimezone().isoformat(),\n"
        "          datetime.date.today().isoformat(),\n"
        "          datetime.datetime.now(datetime.timezone.utc).isoformat(),\n"
        "          datetime.datetime.fromtimestamp(0).isoformat(),\n"
        "          datetime.datetime.strptime('2024-05-06', '%Y-%m-%d').isoformat()]\n"
        "return len(values)",
        value=9,
    ),
    Stress(
        "text_and_numbers",
        "import json, re, unicodedata, decimal, fractions, statistics, math, base64, textwrap\n"
        "text = ' '.join(f'word{i}' for i in range(100000))\n"
        "found = len(re.findall(r'word(\\d+)5\\b', text))\n"
        "doc = json.loads(json.dumps({str(i): [i, str(i), i / 3] for i in range(20000)}))\n"
        "norm = unicodedata.normalize('NFKD', 'Ångström ﬁ' * 1000)\n"
        "codecs = [len('é€'.encode(name)) for name in\n"
        "          ('utf-8', 'utf-16', 'utf-32', 'cp1252', 'iso8859-15', 'mac-roman')]\n"
        "decimal.getcontext().prec = 500\n"
        "digits = str(decimal.Decimal(1) / decimal.Decimal(7))\n"
        "ratio = fractions.Fraction(10 ** 50, 3 ** 40)\n"
        "spread = statistics.stdev(float(i) for i in range(100000))\n"
        "big = math.factorial(3000) % 1000003\n"
        "wrapped = textwrap.fill(text[:10000], 60)\n"
        "encoded = base64.b64encode(text[:100000].encode())\n"
        "ordered = sorted(range(1_000_000, 0, -1))[:3]\n"
        "return [found, len(doc), len(norm) > 0, codecs, len(digits), ratio > 1,\n"
        "        spread > 0, big >= 0, len(wrapped) > 0, len(encoded) > 0, ordered]",
        any_value=True,
    ),
    Stress(
        "garbage_cycles",
        "class Node:\n    def __init__(self):\n        self.other = None\n"
        "for _ in range(200000):\n    a, b = Node(), Node()\n    a.other, b.other = b, a\n"
        "return 'collected'",
        value="collected",
    ),
    Stress(
        "tool_storm",
        "import asyncio\n"
        "replies = await asyncio.gather(*(tools.echo(n=n) for n in range(100)))\n"
        "large = await tools.echo(data='x' * 3_000_000)\n"
        "try:\n    await tools.fail()\nexcept ToolCallError:\n    pass\n"
        "return [len(replies), len(large['data'])]",
        value=[100, 3_000_000],
    ),
    Stress("uncaught_exception", "raise ValueError('on purpose')", error="exception"),
    Stress(
        "exception_group",
        "import asyncio\nasync def bad(n):\n    raise KeyError(n)\n"
        "try:\n    async with asyncio.TaskGroup() as group:\n"
        "        for n in range(3):\n            group.create_task(bad(n))\n"
        "except ExceptionGroup as caught:\n    count = len(caught.exceptions)\n"
        "return count",
        value=3,
    ),
    Stress("value_near_limit", "return 'x' * 900_000", any_value=True),
    Stress("value_over_limit", "return 'x' * 2_000_000", error="output-limit"),
    Stress("compile_error", "return (", error="compile"),
)


# -------------------------------------------------------------------- the workload


async def _workload() -> list[str]:
    """Run every workload program; return one line per unexpected outcome."""
    from codemode.escapes._format import KNOWN_MEANING_GAPS, load_legit_programs
    from codemode.escapes._runner import TOOL_NAMES, RecordingHandler
    from sandbox import Limits, WorkerPool

    problems: list[str] = []
    base = Limits(wall_seconds=60.0, max_frame_bytes=8 * _MIB)
    for restricted in (True, False):
        mode = "both" if restricted else "os"
        async with WorkerPool(limits=dataclasses.replace(base, language_layer=restricted)) as pool:
            for program in load_legit_programs():
                result = await pool.run(
                    program.text, tool_names=TOOL_NAMES, handler=RecordingHandler()
                )
                # A known meaning gap of the OS layer alone returns another value.
                gap = not restricted and ("os", program.id) in KNOWN_MEANING_GAPS
                if result.error is not None or (result.value != program.value and not gap):
                    problems.append(f"{mode} legit {program.id}: {result.error or result.value}")
            for stress in STRESS:
                limits = dataclasses.replace(base, language_layer=restricted, **stress.limits)
                result = await pool.run(
                    stress.source, tool_names=TOOL_NAMES, handler=RecordingHandler(),
                    limits=limits,
                )
                kind = result.error.kind if result.error is not None else None
                value_ok = stress.any_value or result.value == stress.value
                if kind != stress.error or (kind is None and not value_ok):
                    problems.append(f"{mode} stress {stress.name}: {result.error or result.value}")
    return problems


def _run_examples(problems: list[str]) -> None:
    # Each example runs as a script would, in this process, so that its pools'
    # zygotes are traced and measuring too.
    for script in sorted((ROOT / "examples").glob("*.py")):
        if script.name.startswith("_") or script.stem.endswith("_tools"):
            continue
        if script.stem.startswith("escape_"):
            # It runs an escape corpus: attacks, whose calls the filter must
            # refuse, not work the list is made for (measuring, the filter
            # would let them through and count them).
            continue
        try:
            with contextlib.redirect_stdout(open(os.devnull, "w")):
                runpy.run_path(str(script), run_name="__main__")
        except BaseException as exc:  # an example that fails is a finding, not a crash
            problems.append(f"example {script.name}: {type(exc).__name__}: {exc}")


def _workload_main(trace_dir: Path) -> int:
    import anyio

    from sandbox import _children

    wrapper = trace_dir / "traced-python"
    wrapper.write_text(
        "#!/bin/sh\n"
        f"exec strace -f -ff -qq -s 24 -o {trace_dir}/trace -- {sys.executable} \"$@\"\n",
        encoding="utf-8",
    )
    wrapper.chmod(0o755)
    # The zygote is started as ``sys.executable -I -c <bootstrap> ...``: run it
    # under strace, and switch its filter to measuring before it builds it.
    sys.executable = str(wrapper)
    bootstrap = (
        "import sys; sys.path.insert(0, sys.argv[1]); import sandbox._limits; "
        "sandbox._limits.MEASURING = True; from sandbox._zygote import main; main()"
    )
    setattr(_children, "_BOOTSTRAP", bootstrap)  # noqa: B010 - a Final of the package
    problems = anyio.run(_workload)
    _run_examples(problems)
    for line in problems:
        print(f"workload: {line}", file=sys.stderr)
    return 1 if problems else 0


# -------------------------------------------------------------------- the traces


@dataclass
class Measurement:
    """What the children called once their filter was in."""

    children: int = 0
    calls: Counter[str] = dataclasses.field(default_factory=Counter)
    arguments: defaultdict[str, Counter[str]] = dataclasses.field(
        default_factory=lambda: defaultdict(Counter)
    )
    refused: Counter[str] = dataclasses.field(default_factory=Counter)
    pids: set[int] = dataclasses.field(default_factory=set)


def _argument_form(arguments: str) -> str:
    # The call's arguments with its result, addresses, buffers and sizes blanked out.
    head = re.sub(r"\) += .*$", "", arguments.rstrip())
    head = re.sub(r"0x[0-9a-f]+", "ADDR", head)
    head = re.sub(r"\[[^\]]*\]", "[...]", head)
    head = re.sub(r'"[^"]*"\.*', '"..."', head)
    return re.sub(r"\b\d{4,}\b", "N", head)


def _after_filter(lines: Iterator[str]) -> Iterator[str]:
    for line in lines:
        if _SECCOMP_LOADED.match(line):
            break
    yield from lines


def read_traces(trace_dir: Path) -> Measurement:
    """Collect the calls of every traced child after its filter was loaded."""
    measurement = Measurement()
    for path in sorted(trace_dir.glob("trace.*")):
        with path.open(encoding="utf-8", errors="replace") as stream:
            lines = iter(stream)
            seen = False
            for line in _after_filter(lines):
                seen = True
                match = _CALL.match(line)
                if match is None:
                    continue  # signals, exits, resumed lines
                name, arguments = match.groups()
                measurement.calls[name] += 1
                if name in _ARGUMENT_SHOWN:
                    measurement.arguments[name][_argument_form(arguments)] += 1
                if "= -1 EPERM" in line:
                    measurement.refused[name] += 1
            if seen:
                measurement.children += 1
                measurement.pids.add(int(path.suffix[1:]))
    return measurement


def read_kernel_log(pids: set[int], since: int) -> tuple[Counter[str], list[str]]:
    """The seccomp records (calls off the list) of ``pids`` logged after sequence ``since``."""
    import pyseccomp

    native = pyseccomp.system_arch()
    logged: Counter[str] = Counter()
    warnings = []
    for sequence, message in _kmsg():
        if sequence <= since:
            continue
        if "printk limit exceeded" in message or "audit_lost" in message:
            warnings.append(message)
        match = _AUDIT.search(message)
        if match is None or int(match.group(1)) not in pids:
            continue
        number = int(match.group(2))
        try:
            name = pyseccomp.resolve_syscall(native, number).decode()
        except Exception:
            name = f"#{number}"
        logged[name] += 1
    return logged, warnings


def _kmsg() -> list[tuple[int, str]]:
    records = []
    fd = os.open("/dev/kmsg", os.O_RDONLY | os.O_NONBLOCK)
    try:
        while True:
            try:
                record = os.read(fd, 8192).decode("utf-8", "replace")
            except BlockingIOError:
                break
            except BrokenPipeError:  # a record was overwritten while reading: skip it
                continue
            header, _, message = record.partition(";")
            fields = header.split(",")
            records.append((int(fields[1]), message.strip()))
    finally:
        os.close(fd)
    return records


# -------------------------------------------------------------------- the output


def render(measurement: Measurement) -> str:
    """The text of ``sandbox/_syscalls.py``."""
    lines = [
        '"""The system calls sandbox children made under their filter, as measured.',
        "",
        "Generated by ``tools/derive_syscalls.py --write`` (see ``sandbox/_seccomp.py``): do",
        "not edit by hand. Each entry counts the calls seen across "
        f"{measurement.children} children;",
        "calls whose arguments the filter checks list the argument forms seen.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        "from typing import Final",
        "",
        "MEASURED_SYSCALLS: Final[tuple[str, ...]] = (",
    ]
    for name in sorted(measurement.calls):
        lines.append(f'    "{name}",  # {measurement.calls[name]} calls')
        for form, count in sorted(measurement.arguments.get(name, Counter()).items()):
            lines.append(f"    #   {form} ({count})"[:99])
    lines.append(")")
    return "\n".join(lines) + "\n"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite sandbox/_syscalls.py")
    parser.add_argument("--workload", metavar="TRACE_DIR", help=argparse.SUPPRESS)
    parser.add_argument("--keep", action="store_true", help="keep the trace files")
    options = parser.parse_args()
    if options.workload:
        return _workload_main(Path(options.workload))
    if os.geteuid() != 0 or shutil.which("strace") is None:
        print("run this as root with strace installed (apt-get install strace)", file=sys.stderr)
        return 2
    from sandbox._seccomp import NEVER_ALLOWED

    trace_dir = Path(tempfile.mkdtemp(prefix="derive-syscalls-"))
    try:
        records = _kmsg()
        since = records[-1][0] if records else -1
        workload = subprocess.run(
            [sys.executable, __file__, "--workload", str(trace_dir)], cwd=ROOT, check=False
        )
        measurement = read_traces(trace_dir)
        logged, warnings = read_kernel_log(measurement.pids, since)
    finally:
        if options.keep:
            print(f"traces kept in {trace_dir}")
        else:
            shutil.rmtree(trace_dir, ignore_errors=True)
    print(f"{measurement.children} children traced; calls after the filter was loaded:")
    for name, count in measurement.calls.most_common():
        print(f"  {name:24} {count:8}")
        for form, seen in measurement.arguments.get(name, Counter()).most_common():
            print(f"      {seen:6}  {form}")
    forbidden = sorted(set(measurement.calls) & NEVER_ALLOWED)
    for line in warnings:
        print(f"warning: the kernel log dropped records: {line}")
    if logged:
        print("the current filter would refuse (kernel log, SCMP_ACT_LOG):")
        for name, count in logged.most_common():
            print(f"  {name:24} {count:8}")
    else:
        print("the kernel logged no call off the current list for these children")
    if forbidden:
        print(f"error: the workload made calls that must stay refused: {forbidden}")
        return 1
    if workload.returncode != 0:
        print("error: the workload did not run as expected (see above)")
        return 1
    if options.write:
        OUTPUT.write_text(render(measurement), encoding="utf-8")
        print(f"wrote {OUTPUT.relative_to(ROOT)}")
    return 0 if not logged or options.write else 1


if __name__ == "__main__":
    raise SystemExit(main())
