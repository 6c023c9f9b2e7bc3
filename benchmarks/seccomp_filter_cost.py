"""What the child's seccomp filter costs per system call, measured in CPU time.

Run from the project root (as root or not; the filter needs no privilege once
``no_new_privs`` is set)::

    python benchmarks/seccomp_filter_cost.py                 # this checkout
    python benchmarks/seccomp_filter_cost.py OTHER_CHECKOUT  # ... side by side with another

For each checkout, a subprocess builds that checkout's filter exactly as its
zygote does (``sandbox._limits.probe_platform()``) and forks children that
call ``getpid()`` in a loop, with and without the filter loaded, timing the loop
in the child's own CPU time, which other load on the machine barely moves
(the wall clock would). ``getpid`` is on every version of the list and is
cheap in the kernel, so the difference is the filter's evaluation. Figures
are medians over repetitions; nothing here is an assertion.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path
from typing import Final

_ROOT: Final = Path(__file__).resolve().parent.parent

#: Runs in a subprocess with one checkout on its path; prints JSON.
_MEASURE: Final = r"""
import json, os, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from sandbox import _limits
calls, repeat = int(sys.argv[2]), int(sys.argv[3])
plan = _limits.probe_platform()
assert plan.seccomp_program is not None, plan.reasons

def child(filtered):
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read_end)
        _limits.set_no_new_privs()
        if filtered:
            _limits.load_seccomp(plan.seccomp_program)
        getpid, clock = os.getpid, time.process_time
        start = clock()
        for _ in range(calls):
            getpid()
        elapsed = clock() - start
        os.write(write_end, repr(elapsed).encode())
        os._exit(0)
    os.close(write_end)
    data = os.read(read_end, 64)
    os.close(read_end)
    os.waitpid(pid, 0)
    return float(data) / calls * 1e9

bare, filtered = [], []
for _ in range(repeat):
    bare.append(child(False))
    filtered.append(child(True))
print(json.dumps({
    "instructions": plan.seccomp_program.len,
    "bare": statistics.median(bare),
    "filtered": statistics.median(filtered),
    "difference": statistics.median(f - b for f, b in zip(filtered, bare)),
}))
"""


def measure(root: Path, calls: int, repeat: int) -> dict[str, float]:
    """The per-call figures (ns) of the filter built by the checkout at ``root``."""
    completed = subprocess.run(
        [sys.executable, "-I", "-c", _MEASURE, str(root), str(calls), str(repeat)],
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, float] = json.loads(completed.stdout)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("others", nargs="*", type=Path, help="other checkouts to compare")
    parser.add_argument("--calls", type=int, default=1_000_000)
    parser.add_argument("--repeat", type=int, default=9)
    options = parser.parse_args()
    for root in (_ROOT, *options.others):
        figures = measure(root, options.calls, options.repeat)
        print(
            f"{root}: {figures['instructions']:.0f} BPF instructions; getpid() "
            f"{figures['bare']:.0f} ns bare, {figures['filtered']:.0f} ns under the filter "
            f"(+{figures['difference']:.0f} ns per call)"
        )


if __name__ == "__main__":
    main()
