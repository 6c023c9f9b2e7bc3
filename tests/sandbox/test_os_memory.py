"""The OS layer's memory rules seen from a real child: no memory outside ``RLIMIT_AS``, no file
reached through a mapping.

Two routes past the seccomp filter's first memory rules:

* transparent huge pages: one byte touched in a 2 MiB-aligned region allocates a whole
  2 MiB page, and unmapping all of it but 4 KiB leaves the 2 MiB page allocated, outside
  ``RLIMIT_AS`` and the child's RSS. The child switches huge pages off before its filter
  (``PR_SET_THP_DISABLE``) and the filter lets ``madvise`` through only with
  ``MADV_DONTNEED`` and ``MADV_FREE``.
* ``mremap`` of one page of a library's mapping, inherited from the zygote, to the file's
  length maps the rest of the file, with no permission check. The zygote seals its file
  mappings (``mseal``) before it forks, and where it cannot the filter has no ``mremap``.

Each route is tried with the filter and without it (``seccomp=False``, every other
protection in force), so that each half of the fix is seen to hold alone. Programs use
``Limits(language_layer=False, tripwire=False)``: plain Python with ``ctypes``.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import TYPE_CHECKING, Final

import anyio
import pytest

from sandbox import Limits, RunResult
from sandbox._seccomp import sealing_available
from sandbox.testing import EchoHandler, probing_pool, wait_for_idle

if TYPE_CHECKING:
    from bridge.host import CallHandler
    from bridge.lossless import JsonValue

pytestmark = pytest.mark.slow

GUARD = 30
PLAIN: Final = Limits(language_layer=False, tripwire=False, wall_seconds=20)
CORPUS: Final = Path(__file__).resolve().parents[1] / "escapes" / "corpus"
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="reads another uid's /proc files")
needs_sealing = pytest.mark.skipif(
    not sealing_available(), reason="this kernel cannot seal mappings (mseal, Linux 6.10)"
)


async def _run(
    source: str,
    *,
    seccomp: bool = True,
    tools: tuple[str, ...] = (),
    handler: CallHandler | None = None,
) -> RunResult:
    async with probing_pool(limits=PLAIN, size=0, seccomp=seccomp) as pool:
        with anyio.fail_after(GUARD):
            return await pool.run(
                source, tool_names=list(tools), handler=handler or EchoHandler()
            )


def _case_body(relative: str) -> str:
    text = (CORPUS / relative).read_text(encoding="utf-8")
    return "".join(f"{line}\n" for line in text.splitlines() if not line.startswith("# "))


# ---------------------------------------------------------------- transparent huge pages


async def test_transparent_huge_pages_are_off_in_the_child() -> None:
    result = await _run("return [os_probe['thp_disable'], os_probe['status']]")
    assert result.error is None, result.error
    assert isinstance(result.value, list)
    thp_disable, status = result.value
    assert thp_disable == 1  # PR_GET_THP_DISABLE: off completely
    assert isinstance(status, str)
    assert "THP_enabled:\t0" in status.splitlines()


def test_a_child_whose_huge_pages_stay_on_refuses_to_run(monkeypatch: pytest.MonkeyPatch) -> None:
    from sandbox import _child, _limits
    from sandbox._zygote import EXIT_CODES

    def ignored(option: int, arg2: int = 0, arg3: int = 0, protection: str = "prctl") -> int:
        return 0  # PR_SET_THP_DISABLE "succeeds", PR_GET_THP_DISABLE says it is still on

    monkeypatch.setattr(_limits, "_prctl", ignored)
    with pytest.raises(_limits.ProtectionError, match="thp_disable"):
        _child._disable_transparent_huge_pages()
    assert "transparent huge pages" in EXIT_CODES[_child._THP]


#: The attack, a few times: a 2 MiB-aligned region advised huge (where the
#: filter allows it), one byte touched, everything but that 4 KiB page
#: unmapped. The host then looks at the kept pages.
_KEPT_PAGES: Final = """\
import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long
libc.syscall.argtypes = (ctypes.c_long,) * 6
PAGE, HUGE = 4096, 2 << 20
kept, advised = [], []
for _ in range(4):
    region = libc.syscall(9, 0, 2 * HUGE, 3, 0x22, -1, 0)
    huge = (region + HUGE - 1) & ~(HUGE - 1)
    advised.append(libc.syscall(28, huge, HUGE, 14, 0, 0, 0) == 0)  # MADV_HUGEPAGE
    ctypes.c_char.from_address(huge).value = b"x"
    if huge > region:
        libc.syscall(11, region, huge - region, 0, 0, 0, 0)
    libc.syscall(11, huge + PAGE, region + 2 * HUGE - huge - PAGE, 0, 0, 0, 0)
    kept.append(huge)
return [advised, await tools.huge_pages(pid=os.getpid(), addresses=kept)]
"""
_KPF_THP: Final = 22  # /proc/kpageflags: the page is part of a transparent huge page


def _in_huge_page(pid: int, address: int) -> bool:
    with open(f"/proc/{pid}/pagemap", "rb") as pagemap:
        pagemap.seek(address // 4096 * 8)
        entry = int.from_bytes(pagemap.read(8), "little")
    assert entry >> 63, f"the page at {address:#x} is not present"
    frame = entry & ((1 << 55) - 1)
    with open("/proc/kpageflags", "rb") as flags:
        flags.seek(frame * 8)
        return bool(int.from_bytes(flags.read(8), "little") >> _KPF_THP & 1)


class _PageInspector:
    """Answers ``huge_pages(pid, addresses)``: which of those pages sit in a huge page."""

    async def call_tool(self, name: str, args: JsonValue) -> JsonValue:
        assert name == "huge_pages"
        assert isinstance(args, dict)
        pid, addresses = args["pid"], args["addresses"]
        assert isinstance(pid, int)
        assert isinstance(addresses, list)
        return [_in_huge_page(pid, address) for address in addresses if isinstance(address, int)]


@needs_root
@pytest.mark.parametrize("seccomp", [True, False], ids=["filtered", "unfiltered"])
async def test_a_page_kept_from_a_huge_region_holds_no_huge_page(seccomp: bool) -> None:
    # Filtered, MADV_HUGEPAGE is refused; unfiltered, it passes, but the child
    # has huge pages switched off, as on a host whose THP setting is "always".
    result = await _run(
        _KEPT_PAGES, seccomp=seccomp, tools=("huge_pages",), handler=_PageInspector()
    )
    assert result.error is None, result.error
    assert result.value == [[not seccomp] * 4, [False] * 4]


async def test_the_huge_page_attack_is_refused_by_the_filter() -> None:
    result = await _run(_case_body("exhaustion/partly_unmapped_huge_pages_pin_memory.py"))
    assert result.error is not None
    assert result.error.kind == "exception"
    assert result.error.message.endswith("PermissionError: [Errno 1] madvise(MADV_HUGEPAGE)")


# ---------------------------------------------------------------- file mappings


def _unsealed_file_mappings(pid: int) -> list[str]:
    """The file-backed mappings of ``pid`` whose ``VmFlags`` lack ``sl`` (sealed)."""
    unsealed, mapping = [], ""
    for line in Path(f"/proc/{pid}/smaps").read_text().splitlines():
        fields = line.split()
        if not fields[0].endswith(":"):
            # A mapping's first line: range, permissions, offset, device, inode, path.
            mapping = line if len(fields) >= 5 and fields[4] != "0" else ""
        elif fields[0] == "VmFlags:" and mapping and "sl" not in fields[1:]:
            unsealed.append(mapping)
    return unsealed


@needs_root
@needs_sealing
async def test_every_file_mapping_a_child_inherits_is_sealed() -> None:
    async with probing_pool(limits=PLAIN, size=1) as pool:
        with anyio.fail_after(GUARD):
            await wait_for_idle(pool, 1)
            pid = pool._idle[0].pid
            maps = Path(f"/proc/{pid}/maps").read_text()  # noqa: ASYNC240 - a test
            unsealed = _unsealed_file_mappings(pid)
            result = await pool.run(
                "return os_probe['files_sealed']", tool_names=[], handler=EchoHandler()
            )
    assert sum(line.split()[4] != "0" for line in maps.splitlines()) > 10
    assert unsealed == []
    assert result.value is True
    # And none is shared and writable: a write to it would reach its file.
    # (glibc's gconv-modules.cache is shared, read-only: opened read-only,
    # it cannot be made writable.)
    permissions = [line.split()[1] for line in maps.splitlines()]
    assert [mode for mode in permissions if mode[1] == "w" and mode[3] == "s"] == []


@pytest.mark.parametrize(
    "seccomp",
    [True, pytest.param(False, marks=needs_sealing)],
    ids=["filtered", "unfiltered"],
)
async def test_a_library_mapping_cannot_be_grown_over_its_file(seccomp: bool) -> None:
    # Filtered: the seal refuses it, or the filter where the kernel cannot
    # seal (it then has no mremap). Unfiltered: the seal alone.
    result = await _run(
        _case_body("filesystem-read/mremap_grows_inherited_library_mapping.py"), seccomp=seccomp
    )
    assert result.value is None
    assert result.error is not None
    assert result.error.kind == "exception"
    assert result.error.message.endswith(f"PermissionError: [Errno {errno.EPERM}] mremap")


def test_a_zygote_that_cannot_seal_hands_out_a_filter_without_mremap(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from sandbox import _limits, _seccomp, _zygote

    def cannot_seal() -> int:
        raise OSError(errno.ENOSYS, "mseal")

    program = _seccomp.compile_filter(files_sealed=True)
    plan = _limits.PlatformPlan(
        linux=True, uid_drop=False, last_capability=40, seccomp_program=program,
        ceilings=(-1, -1, -1), reasons=(),
    )
    monkeypatch.setattr(_seccomp, "seal_file_mappings", cannot_seal)
    changed = _zygote._seal_file_mappings(plan)
    assert program.allows_mremap
    assert changed.seccomp_program is not None
    assert not changed.seccomp_program.allows_mremap
