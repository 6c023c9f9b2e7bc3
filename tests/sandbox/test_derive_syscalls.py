"""The allow-list's derivation tool: how it reads traces and what it writes.

``tools/derive_syscalls.py`` needs root, strace and real children to measure;
these tests feed its trace reader files in strace's format and check that
only a child's calls after its own filter load count, and that its output is
the module the filter is built from.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Final

from sandbox import _syscalls
from sandbox._seccomp import NEVER_ALLOWED

if TYPE_CHECKING:
    from types import ModuleType

_TOOL: Final = Path(__file__).resolve().parents[2] / "tools" / "derive_syscalls.py"


def _tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("derive_syscalls", _TOOL)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("derive_syscalls", module)
    spec.loader.exec_module(module)
    return module


_CHILD_TRACE: Final = """\
close(7)                                = 0
setresuid(1879048192, 1879048192, 1879048192) = 0
prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)  = 0
prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, {len=52, filter=0x55c1ef162a90}) = 0
socketpair(AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [1, 2]) = 0
ioctl(1, FIONBIO, [1])                  = 0
mmap(NULL, 1048576, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0) = 0x7f1e5ae5a000
--- SIGALRM {si_signo=SIGALRM, si_code=SI_KERNEL} ---
rt_sigreturn({mask=[]})                 = 0
write(4, "\\0\\0\\0\\f\\224\\245ready"..., 16) = 16
getcwd(0x7ffd40e78d54, 4096)            = -1 EPERM (Operation not permitted)
exit_group(0)                           = ?
+++ exited with 0 +++
"""

#: The zygote probes seccomp through libseccomp without loading a filter.
_ZYGOTE_TRACE: Final = """\
seccomp(SECCOMP_SET_MODE_FILTER, 0, NULL) = -1 EFAULT (Bad address)
prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, NULL) = -1 EFAULT (Bad address)
clone(child_stack=NULL, flags=CLONE_CHILD_CLEARTID|SIGCHLD) = 4243
wait4(4243, [{WIFEXITED(s) && WEXITSTATUS(s) == 0}], WNOHANG, {}) = 4243
"""


def test_only_calls_after_the_childs_own_filter_load_count(tmp_path: Path) -> None:
    (tmp_path / "trace.4242").write_text(_CHILD_TRACE)
    (tmp_path / "trace.100").write_text(_ZYGOTE_TRACE)
    measurement = _tool().read_traces(tmp_path)
    assert measurement.children == 1
    assert measurement.pids == {4242}
    assert dict(measurement.calls) == {
        "socketpair": 1, "ioctl": 1, "mmap": 1, "rt_sigreturn": 1, "write": 1, "getcwd": 1,
        "exit_group": 1,
    }
    assert dict(measurement.refused) == {"getcwd": 1}
    assert dict(measurement.arguments["socketpair"]) == {
        "AF_UNIX, SOCK_STREAM|SOCK_CLOEXEC, 0, [...]": 1
    }
    assert dict(measurement.arguments["ioctl"]) == {"1, FIONBIO, [...]": 1}
    assert dict(measurement.arguments["mmap"]) == {
        "NULL, N, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0": 1
    }


def test_the_output_is_the_module_the_filter_is_built_from(tmp_path: Path) -> None:
    (tmp_path / "trace.4242").write_text(_CHILD_TRACE)
    tool = _tool()
    text = tool.render(tool.read_traces(tmp_path))
    namespace: dict[str, object] = {}
    exec(compile(text, "_syscalls.py", "exec"), namespace)
    names = namespace["MEASURED_SYSCALLS"]
    assert isinstance(names, tuple)
    assert names == tuple(sorted(names))
    assert "getcwd" in names
    ast.parse(text)


def test_the_committed_measurement_is_sorted_and_holds_nothing_that_must_stay_refused() -> None:
    names = _syscalls.MEASURED_SYSCALLS
    assert names == tuple(sorted(names))
    assert len(set(names)) == len(names)
    assert not set(names) & NEVER_ALLOWED
    assert {"read", "write", "epoll_wait", "exit_group"} <= set(names)
