"""The tripwire's hook itself: what it holds, and that each exempt step is needed.

An audit hook stays for the life of its process, so each check that arms one
runs in a forked child and reports back through a pipe: the exit status (the
hook exits with ``TRIPPED_EXIT``) and the frame it wrote.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import dis
import enum
import os
import sys
import types
import typing
from typing import TYPE_CHECKING, Any, Final

import msgspec
import pytest

import bridge.proxy
from bridge.protocol import ChildMessageDecoder, Tripped
from sandbox import _facades_async, _guards, _tripwire
from sandbox._tracebacks import format_program_exception
from sandbox._where import program_line
from sandbox._zygote import TRIPPED_EXIT

if TYPE_CHECKING:
    from collections.abc import Callable, Generator


def _in_child(
    action: Callable[[], object], *, steps: tuple[tuple[str, types.CodeType], ...] | None = None
) -> tuple[int, bytes]:
    """Arm a tripwire in a forked child, run ``action``, return (exit status, bytes written)."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        status = 1
        try:
            os.close(read_fd)
            sys.addaudithook(_tripwire.make_tripwire(write_fd, steps=steps))
            action()
            status = 0
        finally:
            os._exit(status)
    os.close(write_fd)
    data = b""
    while chunk := os.read(read_fd, 65536):
        data += chunk
    os.close(read_fd)
    _, wait_status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(wait_status), data


def _tripped(data: bytes) -> Tripped:
    message = ChildMessageDecoder().decode(data[4:])
    assert int.from_bytes(data[:4], "big") == len(data) - 4
    assert isinstance(message, Tripped)
    return message


def test_a_watched_event_writes_one_tripped_frame_and_exits_with_the_tripwire_status() -> None:
    status, data = _in_child(lambda: sys._getframe())
    assert status == TRIPPED_EXIT
    assert _tripped(data) == Tripped("sys._getframe", "")


def test_the_frame_names_the_member_read_and_the_module_imported() -> None:
    def read_member() -> None:
        def numbers() -> typing.Iterator[int]:
            yield 1

        numbers().gi_frame  # type: ignore[attr-defined]  # noqa: B018

    assert _tripped(_in_child(read_member)[1]) == Tripped("object.__getattr__", "gi_frame")
    assert _tripped(_in_child(lambda: __import__("xml.dom"))[1]) == Tripped("import", "xml.dom")


@pytest.mark.parametrize(
    "name",
    ["os." + "x" * 200, "os.with space", "os.caf\u00e9", "os.line\nbreak"],
    ids=["too long", "space", "not ascii", "control"],
)
def test_an_event_name_the_host_would_refuse_is_sent_without_it(name: str) -> None:
    status, data = _in_child(lambda: sys.audit(name))
    assert status == TRIPPED_EXIT
    assert _tripped(data) == Tripped("", "")


def _unwatched_events() -> None:
    id(1)
    sys.audit("object.__getattr__", None, "__defaults__")


def test_an_event_nobody_watches_lets_the_child_go_on() -> None:
    assert _in_child(_unwatched_events) == (0, b"")


def test_catching_the_event_does_not_help() -> None:
    def catch() -> None:
        with contextlib.suppress(BaseException):  # what a program would try
            sys._getframe()
        os.write(2, b"went on\n")

    status, data = _in_child(catch)
    assert status == TRIPPED_EXIT
    assert _tripped(data).event == "sys._getframe"


def test_the_hook_reads_no_global_and_holds_nothing_mutable_but_its_empty_globals() -> None:
    hook = _tripwire.make_tripwire(1)
    instructions = {instruction.opname for instruction in dis.get_instructions(hook)}
    assert not {op for op in instructions if "GLOBAL" in op or "NAME" in op}
    assert hook.__globals__ == {}
    assert all(hook.__globals__ is not vars(module) for module in list(sys.modules.values()))
    immutable = (
        frozenset, tuple, str, int, type, types.BuiltinFunctionType, types.BuiltinMethodType
    )
    for cell in hook.__closure__ or ():
        value = cell.cell_contents
        if value is hook.__globals__:
            continue
        assert isinstance(value, immutable), type(value)
        if isinstance(value, tuple):
            assert all(
                isinstance(code, types.CodeType) and isinstance(step, str)
                for step, code in value
            )


def test_once_armed_no_module_holds_the_hook() -> None:
    def look() -> None:
        # The child only: the hook was built and installed by _in_child's
        # caller frame; it must not be reachable as any module's attribute.
        for module in list(sys.modules.values()):
            for value in list(vars(module).values()):
                if isinstance(value, types.FunctionType) and value.__name__ == "tripwire":
                    os._exit(3)

    assert _in_child(look) == (0, b"")


# -- each exempt step is needed, and enough ---------------------------------------------------


class _Channel:
    peer_max_frame_bytes = 1 << 20


def _tool_call() -> None:
    calls = bridge.proxy._Calls(_Channel(), frozenset({"echo"}))  # type: ignore[arg-type]
    bridge.proxy._ToolStub(calls, "echo")(x=1)


#: A program function, compiled before any hook is armed (compiling would trip it).
_PROGRAM: Final[dict[str, object]] = {}
exec(compile("def fail():\n    raise ValueError('x')\n", "<model>", "exec"), _PROGRAM)


def _traceback() -> None:
    try:
        _PROGRAM["fail"]()  # type: ignore[operator]
    except ValueError as error:
        if "line 2, in fail" not in format_program_exception(error, ""):
            os._exit(4)


def _overloaded() -> None: ...


def _dataclass() -> None:
    dataclasses.dataclass(type("Point", (), {"__annotations__": {"x": int}}))


#: What each exempt step lets a program do, by the step's function.
class _Task:
    """Stands in for the program's main task: what the stop report's line finder reads."""

    def __init__(self, coro: object) -> None:
        self._coro = coro

    def get_coro(self) -> object:
        return self._coro


def _fresh_list_alias() -> object:
    alias: Any = typing.List  # noqa: UP006 - typing's alias, whose subscription is the step
    return alias[type("Fresh", (), {})]


def _numbers() -> Generator[int, None, None]:
    yield 1


class _Pause:
    def __await__(self) -> Generator[None, None, None]:
        yield


def _suspended_program_line() -> object:
    async def main() -> None:
        await _Pause()

    coro = main()
    coro.send(None)  # suspended inside _Pause's generator: cr_frame, then its gi_frame
    try:
        return program_line(None, {}, _Task(coro))  # type: ignore[arg-type]
    finally:
        coro.close()


_USES: Final[dict[str, Callable[[], object]]] = {
    "program_line": _suspended_program_line,
    "_is_program_generator": lambda: _guards._is_program_generator(_numbers()),
    "__call__": _tool_call,
    "namedtuple": lambda: collections.namedtuple("Pair", "a b"),
    "_create_": lambda: enum.Enum("Colour", "RED"),
    "_caller": lambda: typing.TypeVar("T"),
    # A fresh argument: typing caches subscriptions, and a cached one calls nothing.
    "_has_generic_or_protocol_as_origin": _fresh_list_alias,
    "program_frames": _traceback,
    "_signature_from_function": _dataclass,
    "_create_fn": _dataclass,
    "__init__": lambda: typing.ForwardRef("Point"),
    "overload": lambda: typing.overload(_overloaded),
    "iscoroutinefunction": lambda: _facades_async.iscoroutinefunction(_overloaded),
}


def test_every_exempt_step_has_a_use_here() -> None:
    assert {code.co_name for _, code in _tripwire.trusted_steps()} == set(_USES)


@pytest.mark.parametrize("use", sorted(_USES))
def test_what_the_exempt_steps_allow_runs_under_the_tripwire(use: str) -> None:
    assert _in_child(_USES[use]) == (0, b"")


@pytest.mark.parametrize(
    "index", range(len(_tripwire.trusted_steps())),
    ids=[f"{event}-{code.co_qualname}" for event, code in _tripwire.trusted_steps()],
)
def test_without_one_exempt_step_its_use_trips_the_wire(index: int) -> None:
    steps = _tripwire.trusted_steps()
    event, code = steps[index]
    status, data = _in_child(_USES[code.co_name], steps=steps[:index] + steps[index + 1 :])
    assert status == TRIPPED_EXIT
    tripped = _tripped(data)
    assert event in {tripped.event, tripped.detail}


def test_the_frame_the_hook_writes_is_what_the_host_decodes() -> None:
    # The hook encodes a plain tuple (no Struct class a program could alter).
    assert msgspec.msgpack.encode(("tripped", "open", "")) == msgspec.msgpack.encode(
        Tripped("open", "")
    )

