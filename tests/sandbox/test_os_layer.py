"""The OS layer seen from inside a real child.

A program cannot read ``/proc`` through the language layer (nor at all once the
seccomp filter is in), so these tests use ``Limits(language_layer=False,
tripwire=False)`` programs that inspect ``os`` (the tripwire would end them at
their first ``os`` call), and the ``os_probe`` test hook of
:func:`sandbox.testing.probing_pool`, taken just before the filter goes in. The
filter's refusals, call by call, are in ``test_os_filter.py``; the per-child
uids in ``test_os_uids.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import anyio
import pytest

from sandbox import Limits, RunResult, WorkerPool
from sandbox._uids import DEFAULT_UID_RANGE
from sandbox.testing import EchoHandler, probing_pool, wait_for_idle
from tests.layers import assert_host_layers

pytestmark = pytest.mark.slow

GUARD = 30
PLAIN = Limits(language_layer=False, tripwire=False)
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="the uid drop happens only as root")
#: A child is not dumpable, so only root may read its descriptors in /proc.
reads_child_proc = pytest.mark.skipif(
    os.geteuid() != 0, reason="a child is not dumpable: only root reads its /proc entries"
)


async def _run(source: str, *, limits: Limits = PLAIN, probe: bool = False) -> RunResult:
    pool = probing_pool(limits=limits, size=1) if probe else WorkerPool(limits=limits, size=1)
    async with pool:
        with anyio.fail_after(GUARD):
            return await pool.run(source, tool_names=[], handler=EchoHandler())


async def _probe() -> dict[str, Any]:
    result = await _run("return os_probe", probe=True)
    assert result.error is None, result.error
    assert isinstance(result.value, dict)
    return result.value


def _status(probe: dict[str, Any], field: str) -> str:
    for line in probe["status"].splitlines():
        name, _, value = line.partition(":")
        if name == field:
            return str(value).strip()
    raise AssertionError(f"{field} not in /proc/self/status")


def _descriptor_kind(target: str) -> str:
    # "pipe:[123]", "socket:[456]", "anon_inode:[eventpoll]"
    kind, _, rest = target.partition(":")
    return rest.strip("[]") if kind == "anon_inode" else kind


@reads_child_proc
async def test_a_warm_child_holds_only_its_pipes_and_its_event_loop() -> None:
    # Before READY the child runs warm-up programs whose tool call goes over a
    # socket pair of its own: none of those stays open for the program.
    async with WorkerPool(size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
        pid = pool._idle[0].pid
        fds = Path(f"/proc/{pid}/fd")
        kinds = sorted(_descriptor_kind(os.readlink(fds / name)) for name in os.listdir(fds))
    # The protocol's two pipes, and the epoll its run's loop opened (a loop
    # made in the zygote, with no self-pipe: see bridge.child.RunLoop).
    assert kinds == ["eventpoll", "pipe", "pipe"]


def _watched_descriptors(pid: int) -> list[list[int]]:
    """For each epoll descriptor of process ``pid``, the descriptors it watches."""
    watched = []
    for name in os.listdir(f"/proc/{pid}/fd"):
        if _descriptor_kind(os.readlink(f"/proc/{pid}/fd/{name}")) != "eventpoll":
            continue
        info = Path(f"/proc/{pid}/fdinfo/{name}").read_text()
        targets = [line.split()[1] for line in info.splitlines() if line.startswith("tfd:")]
        watched.append([int(target) for target in targets])
    return watched


@reads_child_proc
async def test_each_child_waits_on_an_epoll_of_its_own() -> None:
    # The zygote makes each child's event loops before it forks; one that held
    # an epoll descriptor then would be one epoll shared by every child, and
    # each child's pipe would be registered in it (and visible to the others).
    async with WorkerPool(size=2) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 2)
        zygote = pool._zygote
        assert zygote is not None
        assert _watched_descriptors(zygote.process.pid) == []
        for child in pool._idle:
            watched = _watched_descriptors(child.pid)
            assert len(watched) == 1, watched
            assert len(watched[0]) == 1, watched
            target = os.readlink(f"/proc/{child.pid}/fd/{watched[0][0]}")
            assert _descriptor_kind(target) == "pipe"


async def test_the_child_has_no_tls_library_loaded() -> None:
    # asyncio would import ssl (OpenSSL's state, copied on every fork) for
    # nothing: no child can open a network socket.
    result = await _run(
        "import sys\nreturn [sys.modules.get('ssl'), '_ssl' in sys.modules]"
    )
    assert result.value == [None, False]


async def test_the_child_environment_holds_only_the_utc_time_zone() -> None:
    result = await _run("import os\nreturn dict(os.environ)")
    assert result.value == {"TZ": "UTC"}


async def test_a_program_s_local_time_is_utc_whatever_the_machine_s_zone() -> None:
    # The zone is pinned before any child exists: none reads the host's zone file.
    source = (
        "import datetime, time\n"
        "local = datetime.datetime.now().astimezone()\n"
        "stamp = datetime.datetime.fromtimestamp(0)\n"
        "return [local.tzname(), local.utcoffset().total_seconds(), stamp.isoformat(),"
        " time.tzname]"
    )
    result = await _run(source)
    assert result.error is None, result.error
    assert result.value == ["UTC", 0.0, "1970-01-01T00:00:00", ["UTC", "UTC"]]


async def test_the_child_runs_in_isolated_mode() -> None:
    result = await _run("import sys\nreturn [sys.flags.isolated, sys.flags.ignore_environment]")
    assert result.value == [1, 1]


async def test_the_working_directory_is_private_empty_and_not_the_hosts() -> None:
    probe = await _probe()
    assert probe["cwd_entries"] == []
    assert probe["cwd_mode"] == 0o700
    assert probe["cwd"] != os.getcwd()
    assert Path(probe["cwd"]).parent.name.startswith("codemode-pool-")
    if os.geteuid() == 0:
        # Owned by the uid the child dropped to, which is its own.
        assert probe["cwd_uid"] == int(_status(probe, "Uid").split()[0])
        assert probe["cwd_uid"] in DEFAULT_UID_RANGE


async def test_the_working_directory_is_removed_after_the_run() -> None:
    result = await _run("return os_probe['cwd']", probe=True)
    assert isinstance(result.value, str)
    assert not Path(result.value).exists()  # noqa: ASYNC240 - a test assertion


async def test_only_the_two_protocol_descriptors_are_open() -> None:
    probe = await _probe()
    assert len(probe["fds"]) == 2
    assert 0 not in probe["fds"]


async def test_the_child_leads_its_own_session_and_process_group() -> None:
    probe = await _probe()
    assert probe["pgid"] == probe["sid"] == probe["pid"]
    assert probe["pgid"] != os.getpgrp()


@needs_root
async def test_the_child_runs_as_its_own_uid_with_no_groups_or_capabilities() -> None:
    probe = await _probe()
    uid = int(_status(probe, "Uid").split()[0])
    assert uid in DEFAULT_UID_RANGE
    assert _status(probe, "Uid").split() == [str(uid)] * 4
    assert _status(probe, "Gid").split() == [str(uid)] * 4
    assert _status(probe, "Groups") == ""
    for field in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb"):
        assert int(_status(probe, field), 16) == 0, field


async def test_no_new_privs_is_set() -> None:
    probe = await _probe()
    assert _status(probe, "NoNewPrivs") == "1"


async def test_the_child_is_not_dumpable() -> None:
    # RLIMIT_CORE does not stop a dump piped to a program (core_pattern "|..."):
    # only the dumpable flag does, whatever fs.suid_dumpable says.
    probe = await _probe()
    assert probe["dumpable"] == 0


def test_clearing_the_dumpable_flag_sticks_whatever_it_was() -> None:
    # As root with fs.suid_dumpable=0 the uid switch already clears the flag, so
    # the probe above holds even without the step; a host that is not root
    # keeps it at 1. The step itself, from a dumpable process:
    code = (
        "import ctypes, sys\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "assert libc.prctl(4, 1, 0, 0, 0) == 0 and libc.prctl(3, 0, 0, 0, 0) == 1\n"
        "from sandbox import _child\n"
        "_child._make_undumpable()\n"
        "sys.exit(libc.prctl(3, 0, 0, 0, 0))\n"
    )
    done = subprocess.run([sys.executable, "-c", code], check=False, timeout=60)
    assert done.returncode == 0


async def test_a_program_cannot_make_its_child_dumpable_again() -> None:
    source = (
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "return [libc.prctl(4, 1, 0, 0, 0), ctypes.get_errno(), libc.prctl(3, 0, 0, 0, 0)]"
    )
    result = await _run(source, limits=Limits(language_layer=False, tripwire=False))
    assert result.value == [-1, 1, -1]  # EPERM: the filter refuses prctl, either way


async def test_the_program_runs_under_the_seccomp_filter() -> None:
    # os_probe_status re-reads /proc/self/status through a descriptor the
    # child opened before the filter went in, so it shows the state now.
    result = await _run("return os_probe_status()", probe=True)
    assert isinstance(result.value, str)
    status = {"status": result.value}
    assert _status(status, "Seccomp") == "2"
    assert int(_status(status, "Seccomp_filters")) >= 1
    assert result.layers.seccomp


async def test_the_rlimits_are_in_force() -> None:
    limits = Limits(language_layer=False, cpu_seconds=5, memory_bytes=300 * 1024 * 1024,
                    max_open_files=20)
    result = await _run("return os_probe['rlimits']", limits=limits, probe=True)
    assert (result.layers.cpu_seconds, result.layers.memory_bytes) == (5, 300 * 1024 * 1024)
    assert result.layers.max_open_files == 20
    assert result.value == {
        "RLIMIT_CPU": [5, 6],
        "RLIMIT_AS": [300 * 1024 * 1024] * 2,
        "RLIMIT_NPROC": [0, 0],
        "RLIMIT_FSIZE": [0, 0],
        "RLIMIT_NOFILE": [20, 20],
        "RLIMIT_CORE": [0, 0],
    }


async def test_a_program_cannot_clear_its_parent_death_signal() -> None:
    result = await _run(
        "import ctypes\n"
        "libc = ctypes.CDLL(None, use_errno=True)\n"
        "return [libc.prctl(1, 0, 0, 0, 0), ctypes.get_errno()]"
    )
    assert result.value == [-1, 1]  # PR_SET_PDEATHSIG refused with EPERM


async def test_a_program_cannot_make_a_socket_pair_and_its_event_loop_needs_none() -> None:
    # The run's loop has no self-pipe and the warm-up's socket pair is made
    # before the filter: a child under its filter makes no socket at all.
    result = await _run(
        "import asyncio, socket\n"
        "await asyncio.sleep(0)\n"
        "try:\n"
        "    socket.socketpair()\n"
        "except PermissionError:\n"
        "    return 'refused'\n"
        "return 'made'"
    )
    assert result.error is None, result.error
    assert result.value == "refused"


async def test_the_layers_of_a_normal_run_are_all_in_force() -> None:
    result = await _run("return 1", limits=Limits())
    assert_host_layers(result.layers)


async def test_switching_the_os_layer_off_says_so_and_keeps_root() -> None:
    result = await _run(
        "import os\nreturn os.getuid()", limits=Limits(os_layer=False, language_layer=False)
    )
    assert result.value == os.getuid()
    layers = result.layers
    assert (layers.rlimits, layers.uid_drop, layers.no_new_privs, layers.seccomp) == (
        False, False, False, False
    )
    assert layers.language_layer is False
    assert "seccomp: switched off (os_layer=False)" in layers.reasons
    assert "language_layer: switched off (language_layer=False)" in layers.reasons



async def test_every_allowed_module_imports_under_the_seccomp_filter() -> None:
    from sandbox._facades import ALLOWED_MODULES

    source = "\n".join(f"import {name}" for name in ALLOWED_MODULES) + "\nreturn 'ok'"
    result = await _run(source, limits=Limits())
    assert result.error is None, result.error
    assert result.value == "ok"


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        # Each reaches code the stdlib imports on first use, which the zygote
        # must have imported: the child can no longer open a module file.
        ("datetime.datetime.strptime('2024-05-06', '%Y-%m-%d').day", 6),
        ("len('é'.encode('utf-16'))", 4),
        ("'ß'.encode('latin-1').decode('cp1252')", "ß"),
        ("unicodedata.name('a')", "LATIN SMALL LETTER A"),
        ("str(decimal.Decimal(1) / decimal.Decimal(8))", "0.125"),
        ("statistics.median([3, 1, 2])", 2),
        ("json.loads(json.dumps({'a': [1, 2]}))", {"a": [1, 2]}),
        ("re.sub(r'(\\w+)', r'<\\1>', 'hi there')", "<hi> <there>"),
        ("base64.b64encode(b'hi').decode()", "aGk="),
        ("0 <= random.random() < 1", True),
    ],
)
async def test_lazily_imported_stdlib_paths_work_under_the_filter(
    expression: str, expected: object
) -> None:
    source = (
        "import base64, datetime, decimal, json, random, re, statistics, unicodedata\n"
        f"return {expression}"
    )
    result = await _run(source, limits=Limits())
    assert result.error is None, result.error
    assert result.value == expected


def test_a_platform_without_seccomp_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox import _limits

    monkeypatch.setitem(__import__("sys").modules, "pyseccomp", None)
    plan = _limits.probe_platform()
    assert plan.seccomp_program is None
    assert any(r.startswith("seccomp: the filter could not be built") for r in plan.reasons)


def test_the_run_layers_carry_what_the_platform_lacks() -> None:
    from sandbox._zygote import ZygoteReady

    pool = WorkerPool()
    reasons = ("seccomp: the filter could not be built: ImportError: no libseccomp",)
    ready = ZygoteReady(
        pid=1, uid_drop=True, seccomp=False, linux=True, ceilings=(-1, -1, -1), reasons=reasons
    )
    pool._platform = ready
    layers = pool.layers()
    assert (layers.seccomp, layers.rlimits, layers.uid_drop) == (False, True, True)
    assert layers.reasons == reasons
    assert not layers.complete


def test_the_run_layers_follow_the_limits_the_platform_and_the_seccomp_switch() -> None:
    from sandbox._zygote import ZygoteReady

    def ready(seccomp: bool) -> ZygoteReady:
        return ZygoteReady(
            pid=1, uid_drop=True, seccomp=seccomp, linux=True, ceilings=(-1, -1, -1), reasons=()
        )

    pool = WorkerPool()
    pool._platform = ready(True)
    assert pool.layers().complete
    assert pool.layers() == pool.layers()
    # Each of what the answer depends on is part of what a repeated answer is kept for.
    pool._seccomp = False
    assert not pool.layers().seccomp
    assert "seccomp: switched off (test hook)" in pool.layers().reasons
    pool._seccomp = True
    assert pool.layers().seccomp
    pool._platform = ready(False)
    assert not pool.layers().seccomp
    pool._platform = ready(True)
    assert not pool.layers(Limits(tripwire=False)).tripwire
    assert pool.layers(Limits(cpu_seconds=7)).cpu_seconds == 7
    assert pool.layers().complete
