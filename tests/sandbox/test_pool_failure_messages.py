"""A program's failure message reaches the host as the program's failure, whatever it holds.

The message is the program's own text (its exception's, a traceback of its own
frames): it may hold a lone surrogate, which has no UTF-8 form, and it may be of
any length. The child sends it as the host takes it (``bridge.child.fitted_message``):
a lone surrogate escaped, a long message cut in its middle to ``max_value_bytes`` of
its text, with one line saying so. Before, a lone surrogate failed the child's
runtime (``worker-exit``), a message past the value cap ended the run as
``output-limit`` with the whole traceback lost, and one past the frame cap as
``worker-exit`` naming the protocol's frame cap. Every layer mode, since the
message is made by the runtime, not the policy.
"""

from __future__ import annotations

import re

import anyio
import pytest

from bridge.child import MESSAGE_CUT_MARKER
from sandbox import Limits, WorkerPool
from sandbox._config import MAX_CPU_SECONDS, MAX_FRAME_BYTES, MAX_LIMIT
from sandbox.testing import EchoHandler

pytestmark = pytest.mark.slow

GUARD = 60  # seconds; a guard against hangs, never a timing assertion

MODES = {
    "all": {},
    "language": {"tripwire": False, "os_layer": False},
    "os": {"language_layer": False, "tripwire": False},
}

VALUE_CAP = 1000
FRAME_CAP = 8192


async def _failure(source: str, mode: str) -> tuple[str, str]:
    limits = Limits(
        wall_seconds=30, max_value_bytes=VALUE_CAP, max_frame_bytes=FRAME_CAP, **MODES[mode]
    )
    with anyio.fail_after(GUARD):
        async with WorkerPool(limits=limits, size=0) as pool:
            result = await pool.run(source, tool_names=[], handler=EchoHandler())
    assert result.error is not None
    return result.error.kind, result.error.message


@pytest.mark.parametrize("mode", MODES)
async def test_a_lone_surrogate_in_the_message_is_escaped(mode: str) -> None:
    kind, message = await _failure('raise ValueError("a\\ud800b" + chr(0xDFFF))', mode)
    assert kind == "exception", message
    assert message.endswith("ValueError: a\\ud800b\\udfff")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize(
    "length",
    [
        VALUE_CAP + 4096 + 1,  # past what the host takes of a message
        FRAME_CAP * 4,  # past the frame cap
        5_000_000,  # far past both
    ],
)
async def test_a_long_message_keeps_its_beginning_and_its_end(mode: str, length: int) -> None:
    source = f'raise ValueError("<" + "x" * {length} + "\\ud800>")'
    kind, message = await _failure(source, mode)
    assert kind == "exception", message
    assert message.startswith("Traceback (most recent call last):")
    assert message.endswith("xx\\ud800>")
    pattern = re.escape(MESSAGE_CUT_MARKER).replace(r"\{length\}", r"(\d+)")
    found = re.search("\n" + pattern.replace(r"\{limit\}", str(VALUE_CAP)) + "\n", message)
    assert found is not None, message[:2000]
    assert int(found.group(1)) > length  # the message's whole length, traceback included
    head, tail = message[: found.start()], message[found.end():]
    assert len((head + tail).encode("utf-8")) <= VALUE_CAP


@pytest.mark.parametrize("mode", MODES)
async def test_a_message_within_the_cap_is_sent_whole(mode: str) -> None:
    kind, message = await _failure('raise ValueError("é" * 300)', mode)
    assert kind == "exception"
    assert message.endswith("ValueError: " + "é" * 300)
    assert "[codemode]" not in message


@pytest.mark.parametrize("mode", MODES)
async def test_the_largest_limits_accepted_run_a_program(mode: str) -> None:
    # Every limit at its largest: Limits refuses anything the run could not carry
    # out (memory_bytes=2**64 raised OverflowError out of run(), and
    # cpu_seconds=2**63 failed every child as it set its rlimits).
    limits = Limits(
        wall_seconds=30,
        cpu_seconds=MAX_CPU_SECONDS,
        memory_bytes=MAX_LIMIT,
        max_log_bytes=MAX_LIMIT,
        max_value_bytes=MAX_FRAME_BYTES - 4096,
        max_frame_bytes=MAX_FRAME_BYTES,
        max_pending_calls=MAX_LIMIT,
        max_open_files=MAX_LIMIT,
        max_source_bytes=MAX_LIMIT,
        **MODES[mode],
    )
    with anyio.fail_after(GUARD):
        async with WorkerPool(limits=limits, size=0) as pool:
            result = await pool.run(
                'print("hi")\nreturn await tools.echo(x=1)', tool_names=["echo"],
                handler=EchoHandler(),
            )
    assert result.error is None, result.error
    assert (result.value, result.logs) == ({"x": 1}, ("hi",))
