"""Counting the host's work on a run's untrusted input, for the corpus's ``host`` signal.

A program or a child can make the host work where that work stalls every other
run: compiling the program (the host's compiler runs on its event loop, or
holds the GIL in a thread), or decoding a frame's JSON on the event loop. The
harm is judged by counting, never by timing:

* compile work: every walk step over a syntax tree (``ast.iter_child_nodes`` and
  ``ast.iter_fields``, which the policy's transformer, its scope walks and the
  location pass all step through) made inside the host's compiler (what the
  pool calls to compile a program), on whichever host thread runs it;
* decode work: the length of each JSON text decoded on the event loop's thread;
* frames that ask for nothing: every frame decoded from a child that is not a
  tool call (a call costs the host what its tool costs, which the program may
  spend). A child's log lines, its line report and its last frame come in a
  few frames; a stream of them would hold the host's loop for the whole run;
* reads of a child's pipe: each wakes the host's event loop, and must be paid
  for by the frames and bytes it brings. A child that sent a frame one byte per
  ``write`` completed no frame, so the frame counter saw nothing, while the
  loop woke once per byte for the whole wall clock.

A run does harm when any passes a fixed budget, the same for every program:
the host may compile a short program and decode a short text in place, but no
program or frame may make it do more.
"""

from __future__ import annotations

import ast
import contextlib
import threading
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import bridge._decoding
import bridge.protocol
import sandbox._compile
import sandbox._host_compile

if TYPE_CHECKING:
    from collections.abc import Iterator

__all__ = [
    "HOST_COMPILE_STEPS",
    "HOST_IDLE_FRAMES",
    "HOST_LOOP_DECODE_BYTES",
    "HOST_READS",
    "HOST_READS_PER_FRAME",
    "HOST_READ_BYTES",
    "HostWork",
    "recording",
]

#: Walk steps the host may spend compiling one run's program: a short program
#: (the host compiles at most 1 KiB) needs a few ten thousand at most.
HOST_COMPILE_STEPS: Final = 50_000
#: JSON text the host may decode in one piece on its event loop.
HOST_LOOP_DECODE_BYTES: Final = 16 * 1024
#: Frames other than tool calls the host may decode for one run: more than the
#: log budget of a corpus run (16 KiB) allows even at one byte a frame.
HOST_IDLE_FRAMES: Final = 20_000
#: Reads of a child's pipe the host may make in a run beyond what the run's
#: frames and bytes pay for: above the host's own allowance of small reads
#: (``bridge.host.SMALL_READS_ALLOWED``, 1,024), far below the tens of
#: thousands a child trickling a frame for a corpus run's wall clock caused.
HOST_READS: Final = 1_536
#: Reads each frame decoded pays for (a legitimate child's frame needs one;
#: the host lets the read that completes a frame pass, and grants one more
#: small read per ``bridge.host.BYTES_PER_SMALL_READ`` bytes of frames).
HOST_READS_PER_FRAME: Final = 8
#: Bytes that pay for one read (the host's ``SMALL_READ_BYTES``).
HOST_READ_BYTES: Final = 4096

_case: ContextVar[str | None] = ContextVar("host_work_case", default=None)


@dataclass
class _Work:
    compile_steps: int = 0
    loop_decode_bytes: int = 0
    idle_frames: int = 0
    frames: int = 0
    reads: int = 0
    read_bytes: int = 0

    @property
    def reads_paid(self) -> int:
        """The reads this run's frames and bytes pay for."""
        return (
            HOST_READS + HOST_READS_PER_FRAME * self.frames + self.read_bytes // HOST_READ_BYTES
        )


class HostWork:
    """The host work counted per case while :func:`recording` is active."""

    def __init__(self) -> None:
        self.work: dict[str, _Work] = {}
        self.loop_thread = threading.get_ident()
        self._counting = threading.local()

    @contextlib.contextmanager
    def case(self, case_id: str) -> Iterator[None]:
        """Attribute the host work done in this context (and threads it starts) to ``case_id``."""
        token = _case.set(case_id)
        try:
            yield
        finally:
            _case.reset(token)

    def harms(self, case_id: str) -> list[str]:
        """Sentences naming each budget the case's runs passed."""
        work = self.work.get(case_id, _Work())
        harms = []
        if work.compile_steps > HOST_COMPILE_STEPS:
            harms.append(
                f"the host spent {work.compile_steps} walk steps compiling the program "
                f"(budget {HOST_COMPILE_STEPS})"
            )
        if work.loop_decode_bytes > HOST_LOOP_DECODE_BYTES:
            harms.append(
                f"the host decoded {work.loop_decode_bytes} bytes of JSON in one piece on its "
                f"event loop (budget {HOST_LOOP_DECODE_BYTES})"
            )
        if work.idle_frames > HOST_IDLE_FRAMES:
            harms.append(
                f"the host decoded {work.idle_frames} frames from the child that were not "
                f"tool calls (budget {HOST_IDLE_FRAMES})"
            )
        if work.reads > work.reads_paid:
            harms.append(
                f"the host read the child's pipe {work.reads} times for {work.frames} frames "
                f"and {work.read_bytes} bytes (budget {work.reads_paid}: {HOST_READS}, "
                f"{HOST_READS_PER_FRAME} a frame and one per {HOST_READ_BYTES} bytes)"
            )
        return harms

    def _work(self) -> _Work | None:
        case_id = _case.get()
        return None if case_id is None else self.work.setdefault(case_id, _Work())

    def _step(self) -> None:
        if getattr(self._counting, "active", False):
            self._counting.steps += 1


@contextlib.contextmanager
def recording() -> Iterator[HostWork]:
    """Count host work while the block runs (one corpus run at a time)."""
    recorder = HostWork()
    real_compile = sandbox._compile.compile_with_calls  # what the pool calls
    real_decode = bridge._decoding.decode_lossless
    decoder = bridge.protocol.ChildMessageDecoder
    real_frame_decode = decoder.decode
    frame_buffer = bridge.protocol.FrameBuffer
    real_feed = frame_buffer.feed
    child_nodes, fields = ast.iter_child_nodes, ast.iter_fields

    def counted_child_nodes(node: ast.AST) -> Iterator[ast.AST]:
        recorder._step()
        return child_nodes(node)

    def counted_fields(node: ast.AST) -> Iterator[tuple[str, Any]]:
        recorder._step()
        return fields(node)

    def counted_compile(*args: Any, **kwargs: Any) -> Any:
        counting = recorder._counting
        counting.active, counting.steps = True, 0
        try:
            return real_compile(*args, **kwargs)
        finally:
            counting.active = False
            work = recorder._work()
            if work is not None:
                work.compile_steps += counting.steps

    def counted_decode(raw: bytes, *args: Any) -> Any:
        work = recorder._work()
        if work is not None and threading.get_ident() == recorder.loop_thread:
            work.loop_decode_bytes = max(work.loop_decode_bytes, len(raw))
        return real_decode(raw, *args)

    def counted_frame_decode(self: bridge.protocol.ChildMessageDecoder, body: bytes) -> Any:
        message = real_frame_decode(self, body)
        work = recorder._work()
        if work is not None:
            work.frames += 1
            if not isinstance(message, bridge.protocol.Call):
                work.idle_frames += 1
        return message

    def counted_feed(self: bridge.protocol.FrameBuffer, data: bytes) -> None:
        # The host feeds its frame buffer exactly what each read of a child's
        # pipe brought (the reader callback runs in the serving task's context).
        work = recorder._work()
        if work is not None:
            work.reads += 1
            work.read_bytes += len(data)
        real_feed(self, data)

    with contextlib.ExitStack() as patches:
        for owner, name, value in (
            (ast, "iter_child_nodes", counted_child_nodes),
            (ast, "iter_fields", counted_fields),
            (sandbox._host_compile, "compile_with_calls", counted_compile),
            (bridge._decoding, "decode_lossless", counted_decode),
            (decoder, "decode", counted_frame_decode),
            (frame_buffer, "feed", counted_feed),
        ):
            patches.callback(setattr, owner, name, getattr(owner, name))
            setattr(owner, name, value)
        yield recorder
