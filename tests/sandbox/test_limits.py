"""Limits, Layers and RunError: documented defaults and validation at construction."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sandbox import Layers, Limits, RunError, RunResult
from sandbox._config import (
    ERROR_KINDS,
    MAX_CPU_SECONDS,
    MAX_LIMIT,
    MIN_MEMORY_BYTES,
    format_seconds,
)

MIB = 1024 * 1024


def test_defaults_are_the_documented_values() -> None:
    limits = Limits()
    assert (limits.wall_seconds, limits.cpu_seconds) == (60.0, 30)
    assert limits.memory_bytes == 512 * MIB
    assert (limits.max_log_bytes, limits.max_value_bytes) == (64 * 1024, MIB)
    assert (limits.max_frame_bytes, limits.max_pending_calls) == (16 * MIB, 128)
    assert limits.max_open_files == 32
    assert limits.language_layer is True
    assert limits.os_layer is True


@pytest.mark.parametrize(
    ("name", "value", "error"),
    [
        ("wall_seconds", 0, ValueError),
        ("wall_seconds", -1.5, ValueError),
        ("wall_seconds", float("nan"), ValueError),
        ("wall_seconds", float("inf"), ValueError),
        ("wall_seconds", "60", TypeError),
        ("wall_seconds", True, TypeError),
        ("cpu_seconds", 0, ValueError),
        ("cpu_seconds", 1.5, TypeError),
        ("cpu_seconds", True, TypeError),
        ("memory_bytes", MIN_MEMORY_BYTES - 1, ValueError),
        ("max_log_bytes", 0, ValueError),
        ("max_value_bytes", 0, ValueError),
        ("max_frame_bytes", 100, ValueError),
        ("max_pending_calls", 0, ValueError),
        ("max_open_files", 3, ValueError),
        # Past what the protocol and setrlimit carry: refused here, not in the run.
        ("cpu_seconds", 2**63, ValueError),
        ("cpu_seconds", MAX_CPU_SECONDS + 1, ValueError),  # the kernel's count wraps
        ("memory_bytes", 2**64, ValueError),
        ("max_log_bytes", 2**70, ValueError),
        ("max_pending_calls", MAX_LIMIT + 1, ValueError),
        ("max_source_bytes", MAX_LIMIT + 1, ValueError),
        ("max_open_files", MAX_LIMIT + 1, ValueError),
        ("max_frame_bytes", 2**32, ValueError),
        ("language_layer", 1, TypeError),
        ("os_layer", "yes", TypeError),
    ],
)
def test_a_bad_value_is_refused_with_its_name_and_value(
    name: str, value: object, error: type[Exception]
) -> None:
    with pytest.raises(error, match=re.escape(f"{name}={value!r}")):
        Limits(**{name: value})  # type: ignore[arg-type]


def test_a_frame_cap_too_small_for_the_value_cap_is_refused() -> None:
    with pytest.raises(
        ValueError,
        match=r"^Limits\.max_frame_bytes must exceed max_value_bytes by at least 4096 bytes .*"
        r"got max_frame_bytes=1048576, max_value_bytes=1048576\.$",
    ):
        Limits(max_frame_bytes=MIB, max_value_bytes=MIB)


@given(
    wall=st.floats(min_value=1e-3, max_value=1e6),
    cpu=st.integers(min_value=1, max_value=10**6),
    memory=st.integers(min_value=MIN_MEMORY_BYTES, max_value=1 << 40),
    files=st.integers(min_value=16, max_value=1 << 16),
)
def test_every_value_in_range_is_accepted_and_kept(
    wall: float, cpu: int, memory: int, files: int
) -> None:
    limits = Limits(
        wall_seconds=wall, cpu_seconds=cpu, memory_bytes=memory, max_open_files=files
    )
    assert (limits.wall_seconds, limits.cpu_seconds) == (wall, cpu)
    assert (limits.memory_bytes, limits.max_open_files) == (memory, files)


@given(st.integers(max_value=0))
def test_a_non_positive_cpu_limit_is_always_refused(value: int) -> None:
    expected = rf"^Limits\.cpu_seconds must be at least 1; got cpu_seconds={value}\.$"
    with pytest.raises(ValueError, match=expected):
        Limits(cpu_seconds=value)


def test_limits_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Limits().cpu_seconds = 1  # type: ignore[misc]


def test_an_unknown_error_kind_is_refused() -> None:
    with pytest.raises(ValueError, match=r"kind='crash'"):
        RunError("crash", "boom")  # type: ignore[arg-type]


def test_the_error_kinds_are_the_eight_documented_ones() -> None:
    assert set(ERROR_KINDS) == {
        "exception", "compile", "timeout", "abort", "worker-exit", "invalid-output",
        "output-limit", "sandbox-violation",
    }


def test_layers_are_complete_only_when_every_protection_is_in_force() -> None:
    assert Layers(True, True, True, True, True, True).complete
    assert not Layers(True, True, True, True, True, False, ("seccomp: unavailable",)).complete
    assert not Layers(True, False, True, True, True, True, ("tripwire: off",)).complete


def test_a_result_is_ok_exactly_when_it_has_no_error() -> None:
    layers = Layers(True, True, True, True, True, True)
    assert RunResult(1, (), None, layers, 0.1, 0.0, 7).ok
    assert not RunResult(None, (), RunError("timeout", "t"), layers, 0.1, 0.0, 7).ok


@pytest.mark.parametrize(("value", "text"), [(60.0, "60s"), (30, "30s"), (0.5, "0.5s")])
def test_durations_in_messages_read_naturally(value: float, text: str) -> None:
    assert format_seconds(value) == text
