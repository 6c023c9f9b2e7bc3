"""Limits the environment already imposes: a stricter hard limit is kept, and reported.

A container, systemd or a CI runner may start the host under a hard
``RLIMIT_CPU`` or ``RLIMIT_AS`` lower than the configured one. A child cannot
raise a hard limit, so it keeps the lower one (no downgrade: it is stricter),
and ``RunResult.layers`` reports the limits in force.
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Final

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox._limits import rlimit_values
from tests.layers import MISSING_PROTECTIONS, PROTECTIONS

_ROOT: Final = str(Path(__file__).resolve().parents[2])
_GIB: Final = 1024**3
_UNLIMITED: Final = resource.RLIM_INFINITY

_ceilings = st.one_of(st.just(_UNLIMITED), st.integers(min_value=1, max_value=2**40))


@given(
    cpu=st.integers(min_value=1, max_value=10**6),
    memory=st.integers(min_value=64 << 20, max_value=2**40),
    files=st.integers(min_value=16, max_value=10**5),
    ceilings=st.tuples(_ceilings, _ceilings, _ceilings),
)
def test_the_limits_set_are_the_configured_ones_unless_the_inherited_ones_are_lower(
    cpu: int, memory: int, files: int, ceilings: tuple[int, int, int]
) -> None:
    values = rlimit_values(
        cpu_seconds=cpu, memory_bytes=memory, max_open_files=files, ceilings=ceilings
    )
    cpu_ceiling, memory_ceiling, files_ceiling = ceilings

    def lowest(configured: int, ceiling: int) -> int:
        return configured if ceiling == _UNLIMITED else min(configured, ceiling)

    assert values.cpu_hard == lowest(cpu + 1, cpu_ceiling)
    assert values.cpu_soft <= min(cpu, values.cpu_hard)
    # SIGXCPU before SIGKILL wherever the hard limit leaves room for it.
    if values.cpu_hard > 1:
        assert values.cpu_soft == min(cpu, values.cpu_hard - 1)
    else:
        assert values.cpu_soft == values.cpu_hard
    assert values.memory_bytes == lowest(memory, memory_ceiling)
    assert values.max_open_files == lowest(files, files_ceiling)


def test_without_inherited_limits_the_configured_ones_are_set() -> None:
    values = rlimit_values(
        cpu_seconds=30, memory_bytes=512 << 20, max_open_files=32, ceilings=(_UNLIMITED,) * 3
    )
    assert (values.cpu_soft, values.cpu_hard, values.memory_bytes, values.max_open_files) == (
        30, 31, 512 << 20, 32,
    )


#: The host, in a process started under lowered hard limits. It runs a program
#: that reads its limits (the probe, just before the filter), a restricted
#: program under the defaults, and a CPU-bound one that hits the CPU limit.
_HOST: Final = textwrap.dedent(
    """
    import json, sys
    sys.path.insert(0, sys.argv[1])
    import anyio
    from sandbox import Limits
    from sandbox.testing import EchoHandler, probing_pool
    from tests.layers import PROTECTIONS

    def layers(result):
        missing = [name for name in PROTECTIONS if not getattr(result.layers, name)]
        return [result.layers.cpu_seconds, result.layers.memory_bytes,
                result.layers.max_open_files, missing]

    async def main():
        wide = Limits(cpu_seconds=30, memory_bytes=4 * 1024**3, language_layer=False)
        async with probing_pool(limits=wide, size=0) as pool:
            probe = await pool.run("return os_probe['rlimits']", tool_names=[],
                                   handler=EchoHandler())
            plain = await pool.run("return 40 + 2", tool_names=[], handler=EchoHandler(),
                                   limits=Limits())
            busy = await pool.run("while True:\\n    pass", tool_names=[],
                                  handler=EchoHandler(), limits=wide)
        print(json.dumps({
            "probe": [probe.value, str(probe.error), layers(probe)],
            "plain": [plain.value, str(plain.error), layers(plain)],
            "busy": [busy.error.kind if busy.error else None,
                     busy.error.message if busy.error else None],
        }))

    anyio.run(main)
    """
)

_CPU_CEILING: Final = 3
_MEMORY_CEILING: Final = 2 * _GIB


def _lower_limits() -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (_CPU_CEILING, _CPU_CEILING))
    resource.setrlimit(resource.RLIMIT_AS, (_MEMORY_CEILING, _MEMORY_CEILING))


@pytest.mark.slow
def test_a_pool_under_lower_hard_limits_runs_programs_and_reports_the_limits_in_force() -> None:
    completed = subprocess.run(
        [sys.executable, "-c", _HOST, _ROOT],
        preexec_fn=_lower_limits,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert completed.returncode == 0, completed.stderr
    outcome = json.loads(completed.stdout)
    rlimits, error, layers = outcome["probe"]
    assert error == "None"
    # CPU: hard at the ceiling, soft one second below it; memory at the ceiling.
    assert rlimits["RLIMIT_CPU"] == [_CPU_CEILING - 1, _CPU_CEILING]
    assert rlimits["RLIMIT_AS"] == [_MEMORY_CEILING, _MEMORY_CEILING]
    # The language layer is off, and uid_drop too unless the host is root.
    missing = sorted(["language_layer", *MISSING_PROTECTIONS], key=PROTECTIONS.index)
    assert layers == [_CPU_CEILING - 1, _MEMORY_CEILING, 32, missing]
    value, error, layers = outcome["plain"]
    assert (value, error) == (42, "None")
    # The default 512 MiB is below the ceiling and stays; the CPU limit is lowered.
    assert layers == [_CPU_CEILING - 1, 512 * 1024 * 1024, 32, list(MISSING_PROTECTIONS)]
    kind, message = outcome["busy"]
    assert kind == "timeout"
    assert message.startswith(f"CPU time limit of {_CPU_CEILING - 1}s reached")
