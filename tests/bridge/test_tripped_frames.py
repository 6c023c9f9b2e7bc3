"""A ``Tripped`` frame from a hostile child: checked like any frame before it ends the run.

The child's tripwire reports the audit event that ended the run. The host takes
the report at its word only as far as the decoder checks it (printable ASCII
without spaces, bounded); anything else the child sends in its place ends the
run as ``worker-exit``, like any frame that does not decode. The fake child stays
alive after sending (mode ``hold``), as a real one does until it exits, so that
the host's own write of the program never meets a closed pipe.
"""

from __future__ import annotations

import struct

import msgspec
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from bridge.host import tripped_message
from bridge.protocol import MAX_EVENT_NAME_CHARS, Call, Log, Tripped, encode_frame

from .test_hostile_frames import serve_fake_child

pytestmark = pytest.mark.slow


def raw_frame(*fields: object) -> bytes:
    """A frame whose body is a MessagePack array of ``fields``, whatever they are."""
    body = msgspec.msgpack.encode(list(fields))
    return struct.pack(">I", len(body)) + body


def fits(text: str) -> bool:
    return len(text) <= MAX_EVENT_NAME_CHARS and all("!" <= char <= "~" for char in text)


async def test_a_tripped_frame_ends_the_run_as_a_sandbox_violation_naming_the_event() -> None:
    outcome = await serve_fake_child(
        encode_frame(Tripped("object.__getattr__", "tb_frame")), mode="hold"
    )
    assert outcome.value is None
    assert outcome.error == (
        "sandbox-violation", tripped_message("object.__getattr__", "tb_frame")
    )
    assert outcome.error[1].startswith(
        "the program triggered a sandbox violation: object.__getattr__ (tb_frame). "
    )


async def test_a_tripped_frame_ends_the_run_with_calls_in_flight_and_keeps_the_logs() -> None:
    payload = (
        encode_frame(Log(("before",)))
        + encode_frame(Call(0, "t", b"{}"))
        + encode_frame(Tripped("sys._getframe", ""))
    )
    outcome = await serve_fake_child(payload, mode="hold")
    assert outcome.error == ("sandbox-violation", tripped_message("sys._getframe"))
    assert outcome.logs == ("before",)


async def test_an_event_that_is_not_shown_is_said_so() -> None:
    outcome = await serve_fake_child(encode_frame(Tripped("", "")), mode="hold")
    assert outcome.error is not None
    assert outcome.error[0] == "sandbox-violation"
    assert "an audit event whose name is not shown" in outcome.error[1]


@pytest.mark.parametrize(
    "fields",
    [
        ("tripped", "os.system", "", "extra"),
        ("tripped", 7, ""),
        ("tripped", "os.system", b"bytes"),
        ("tripped",),
    ],
    ids=["extra field", "not a string", "bytes detail", "no event"],
)
async def test_a_malformed_tripped_frame_is_a_worker_exit(fields: tuple[object, ...]) -> None:
    outcome = await serve_fake_child(raw_frame(*fields), mode="hold")
    assert outcome.error is not None
    assert outcome.error[0] == "worker-exit"
    assert outcome.error[1].startswith("the child broke the protocol")


@settings(max_examples=60)
@given(
    event=st.text(max_size=MAX_EVENT_NAME_CHARS + 20) | st.sampled_from(["open", "os.system"]),
    detail=st.text(max_size=MAX_EVENT_NAME_CHARS + 20) | st.just(""),
)
# A regex `$` also matches before a final newline: these must still be refused.
@example(event="open\n", detail="")
@example(event="open", detail="tb_frame\n")
async def test_the_host_shows_an_event_only_if_it_is_short_plain_text(
    event: str, detail: str
) -> None:
    outcome = await serve_fake_child(raw_frame("tripped", event, detail), mode="hold")
    assert outcome.error is not None
    if fits(event) and fits(detail):
        assert outcome.error == ("sandbox-violation", tripped_message(event, detail))
    else:
        assert outcome.error[0] == "worker-exit"
