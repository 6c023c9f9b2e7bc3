"""How a child's exit status becomes a run error (no processes involved)."""

from __future__ import annotations

import signal

import pytest

from sandbox import RunError
from sandbox._children import Child, exit_error
from sandbox._where import CPU_LIMIT_EXIT
from sandbox._zygote import TRIPPED_EXIT, ChildSettings

CPU_LIMIT = 2  # the CPU limit in force (configured or inherited)
FALLBACK = RunError("worker-exit", "the child exited or closed its pipe before finishing the run")


def _child(
    status: int | None,
    *,
    cpu: float = 0.0,
    zygote_died: bool = False,
    os_layer: bool = True,
    tripwire: bool = True,
) -> Child:
    settings = ChildSettings(
        restricted=True, os_layer=os_layer, cpu_seconds=2, memory_bytes=1 << 29,
        max_open_files=32, max_frame_bytes=1 << 24, tripwire=tripwire,
    )
    child = Child(settings, "/nonexistent", -1, -1)
    child.status = status
    child.cpu_seconds = cpu
    child.zygote_died = zygote_died
    return child


async def test_sigxcpu_is_a_cpu_timeout_naming_the_limit() -> None:
    error, crashed = exit_error(_child(signal.SIGXCPU), CPU_LIMIT, FALLBACK)
    assert (error, crashed) == (
        RunError("timeout", "CPU time limit of 2s reached (Limits.cpu_seconds)"), False
    )


async def test_sigkill_at_the_cpu_hard_limit_is_a_cpu_timeout() -> None:
    error, _ = exit_error(_child(signal.SIGKILL, cpu=3.0), CPU_LIMIT, FALLBACK)
    assert error == RunError("timeout", "CPU time limit of 2s reached (Limits.cpu_seconds)")


async def test_the_exit_after_a_cpu_limit_report_is_a_cpu_timeout() -> None:
    error, crashed = exit_error(_child(CPU_LIMIT_EXIT << 8), CPU_LIMIT, FALLBACK)
    assert (error, crashed) == (
        RunError("timeout", "CPU time limit of 2s reached (Limits.cpu_seconds)"), False
    )


async def test_sigkill_below_the_cpu_limit_is_a_crash_naming_the_signal() -> None:
    error, crashed = exit_error(_child(signal.SIGKILL, cpu=0.1), CPU_LIMIT, FALLBACK)
    assert error == RunError("worker-exit", "the child exited with signal 9 before finishing")
    assert crashed


async def test_a_segfault_is_a_crash_naming_the_signal_and_its_usual_cause() -> None:
    error, crashed = exit_error(_child(signal.SIGSEGV), CPU_LIMIT, FALLBACK)
    assert error.kind == "worker-exit"
    assert error.message.startswith("the child crashed (signal 11, SIGSEGV) before finishing")
    assert "nested too deeply" in error.message
    assert crashed


async def test_a_kill_by_the_seccomp_filter_says_so() -> None:
    error, crashed = exit_error(_child(signal.SIGSYS), CPU_LIMIT, FALLBACK)
    assert error.kind == "worker-exit"
    assert error.message.startswith("the seccomp filter killed the child (signal 31, SIGSYS)")
    assert crashed


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (77, "the child broke the protocol before its program ran (exit status 77)"),
        (78, "the child's runtime failed outside the program (exit status 78)"),
        (5, "the child exited with status 5 before finishing"),
        # Setup steps are all done before READY: after it, their statuses are
        # the program's own choice and name no protection.
        (71, "the child exited with status 71 before finishing"),
        (74, "the child exited with status 74 before finishing"),
        (81, "the child exited with status 81 before finishing"),
        (82, "the child exited with status 82 before finishing"),
    ],
)
async def test_an_exit_status_is_a_crash_naming_what_failed(code: int, message: str) -> None:
    error, crashed = exit_error(_child(code << 8), CPU_LIMIT, FALLBACK)
    assert (error, crashed) == (RunError("worker-exit", message), True)


async def test_a_clean_exit_keeps_what_the_protocol_saw() -> None:
    assert exit_error(_child(0), CPU_LIMIT, FALLBACK) == (FALLBACK, False)


async def test_an_unreaped_child_keeps_what_the_protocol_saw() -> None:
    assert exit_error(_child(None), CPU_LIMIT, FALLBACK) == (FALLBACK, False)


async def test_a_dead_zygote_is_named_as_the_cause() -> None:
    error, _ = exit_error(_child(None, zygote_died=True), CPU_LIMIT, FALLBACK)
    assert error == RunError(
        "worker-exit", "the sandbox zygote exited during the run, taking the child with it"
    )


async def test_the_tripwire_status_without_a_tripwire_is_the_programs_own() -> None:
    error, crashed = exit_error(_child(TRIPPED_EXIT << 8, tripwire=False), CPU_LIMIT, FALLBACK)
    assert (error, crashed) == (
        RunError("worker-exit", "the child exited with status 80 before finishing"), True
    )


async def test_the_cpu_report_status_without_the_os_layer_is_the_programs_own() -> None:
    error, _ = exit_error(_child(CPU_LIMIT_EXIT << 8, os_layer=False), CPU_LIMIT, FALLBACK)
    assert error == RunError("worker-exit", "the child exited with status 79 before finishing")
