"""The program's ``tools`` proxy in the child, and the errors its calls raise.

What the program sees (:func:`make_bindings`):

* ``tools.name(...)`` / ``tools["odd-name"](...)``: keyword arguments or one
  positional dict. The arguments are checked and copied as lossless JSON at the
  call; awaiting the returned object sends the frame (through the child's
  :class:`~bridge.child.ChildChannel`) and gives the tool's value.
* ``ToolCallError``: raised by a failed call, with ``tool_name`` and ``code``.

The proxy holds nothing reachable through a public attribute: a restricted
program can only reach names without a leading underscore, and every such name
on ``tools`` is a tool. Internals live in ``__slots__`` with underscore names.

Like :mod:`bridge.child`, this module is imported by the zygote before it
forks and must not import anything from the host side.
"""

from __future__ import annotations

import asyncio
import sys
from collections import deque
from typing import TYPE_CHECKING, Any, Final, NoReturn, final

import msgspec

from bridge.lossless import JsonValue, LossyJsonError, collection_paused
from bridge.protocol import Call, Reply, encode_frame, encode_value

if TYPE_CHECKING:
    from collections.abc import Callable, Generator, Sequence
    from types import FrameType

    from bridge.child import ChildChannel

__all__ = [
    "TOOL_CLASSES", "ToolCallError", "hand_over", "is_tool", "is_tool_call", "make_bindings",
    "unawaited_reason",
]

_json_decode: Final = msgspec.json.decode


class ToolCallError(Exception):
    """A tool call made by the program failed.

    The message names the tool and says why: ``tool "get_customer" raised
    LookupError: no customer 7`` for an exception the tool raised,
    ``tool "search" failed (INVALID_ARGS): invalid arguments: ...`` for a
    failure with a code, or the reason the call was refused before it was sent.

    Attributes:
        tool_name: the tool that was called.
        code: an error code the host attached (``"INVALID_ARGS"``,
            ``"TOOL_TIMEOUT"``, ...), or ``None``: a policy's denial has no
            code, and neither ``type``; its message is the reason.
        type: the class name of the exception the tool raised (``"LookupError"``),
            or ``None`` when the call failed otherwise.
    """

    def __init__(
        self,
        message: str = "",
        tool_name: str = "",
        code: str | None = None,
        type: str | None = None,
    ) -> None:
        super().__init__(message)
        self.tool_name = tool_name
        self.code = code
        self.type = type


# Programs see the class as a builtin: tracebacks and reprs say `ToolCallError`,
# never the module path of the child's internals.
ToolCallError.__module__ = "builtins"


def _failure_text(name: str, reply: Reply) -> str:
    """The message of the ToolCallError for a failed reply: it names the tool and the cause."""
    detail = reply.error or ""
    kind = reply.exception_type
    where = f"tool {_quoted(name)}"
    if kind is not None:
        # A bare `raise RuntimeError()` has no message of its own: the host sent the type name.
        detail = kind if detail in ("", kind) else f"{kind}: {detail}"
        if reply.code is None:
            return f"{where} raised {detail}"
    elif reply.code is None and detail.startswith(f"{where} "):
        return detail  # the host's own text already names the tool
    head = f"{where} failed" + (f" ({reply.code})" if reply.code is not None else "")
    return f"{head}: {detail}" if detail else head


def _quoted(name: str) -> str:
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _display(name: str) -> str:
    return f"tools.{name}" if name.isidentifier() else f"tools[{name!r}]"


def _unsent(name: str, exc: OSError) -> ToolCallError:
    return ToolCallError(f"{_display(name)}(...) could not be sent: the host is gone ({exc})", name)


@final
class _Calls:
    """The calls of one run: ids, futures waiting for replies, unawaited calls.

    The host allows ``max_pending_calls`` calls in flight (sent, not yet
    answered) and ends the run of a child that sends more. An honest program
    never gets there: a call started while that many are in flight is held
    here, in order, and sent when a reply frees a place (a held call the
    program cancels in the meantime is never sent). The host's own count drops
    before its reply is written, so the two counts agree.
    """

    __slots__ = (
        "channel", "futures", "held", "names", "next_id", "over", "serial", "tools", "unawaited"
    )

    def __init__(self, channel: ChildChannel, names: frozenset[str]) -> None:
        self.channel = channel
        self.names = names
        self.tools: object = None  # the program's ``tools``, set by make_bindings
        self.next_id = 0
        self.serial = 0
        #: The calls sent and not answered yet, by id (cancelled ones too: the
        #: host still counts them until it replies).
        self.futures: dict[int, tuple[asyncio.Future[JsonValue], str]] = {}
        #: Calls waiting for a place in flight: future, tool name, arguments.
        self.held: deque[tuple[asyncio.Future[JsonValue], str, bytes]] = deque()
        self.unawaited: dict[int, _ToolCall] = {}
        self.over = False

    def start(self, call: _ToolCall) -> asyncio.Future[JsonValue]:
        if call._started:
            raise RuntimeError(f"cannot await the same {_display(call._name)}(...) call twice")
        call._started = True
        self.unawaited.pop(call._serial, None)
        name = call._name
        if self.over:
            raise ToolCallError(
                f"the program has finished; {_display(name)}(...) was not called", name
            )
        if call._error is not None:
            raise ToolCallError(call._error, name)
        # A held call gets its id when it is sent: at most this one, as held
        # calls ahead of it may be dropped, and a smaller id encodes no longer.
        frame = encode_frame(Call(self.next_id + len(self.held), name, call._args))
        limit = self.channel.peer_max_frame_bytes
        if len(frame) > limit:
            raise ToolCallError(
                f"tool {_quoted(name)} was not called: its arguments are {len(call._args)} "
                f"bytes as JSON, over the limit of {limit} bytes per call frame "
                "(max_frame_bytes); send less data per call",
                name,
            )
        self.channel.attach(self)
        future: asyncio.Future[JsonValue] = asyncio.get_running_loop().create_future()
        if self.held or len(self.futures) >= self.channel.peer_max_pending_calls:
            self.held.append((future, name, call._args))
            return future
        try:
            self._send(future, name, frame)
        except OSError as exc:
            # Calls batched before it went down with the write.
            self.channel.host_gone(exc)
            raise _unsent(name, exc) from None
        return future

    def _send(self, future: asyncio.Future[JsonValue], name: str, frame: bytes) -> None:
        """Send ``frame``, the call with the next id, and wait for its reply with ``future``.

        Raises:
            OSError: the frame could not be written; the call is not in flight.
        """
        self.futures[self.next_id] = (future, name)
        self.next_id += 1
        try:
            self.channel.send_call(frame)
        except OSError:
            self.futures.pop(self.next_id - 1, None)
            raise

    def _release(self) -> None:
        """Send held calls while the host has room for them."""
        room = self.channel.peer_max_pending_calls
        while self.held and len(self.futures) < room:
            future, name, args = self.held.popleft()
            # Encoded first, with the collector paused, and the call looked at
            # after: a finalizer of the program's may cancel it meanwhile.
            with collection_paused():
                frame = encode_frame(Call(self.next_id, name, args))
            if future.done():  # cancelled while it waited: never sent
                continue
            try:
                self._send(future, name, frame)
            except OSError as exc:
                future.set_exception(_unsent(name, exc))
                self.channel.host_gone(exc)
                return

    def resolve(self, reply: Reply) -> None:
        entry = self.futures.pop(reply.id, None)
        if entry is not None:
            self._settle(entry, reply)
        if self.held:
            self._release()

    @staticmethod
    def _settle(entry: tuple[asyncio.Future[JsonValue], str], reply: Reply) -> None:
        future, name = entry
        if future.done():  # the program cancelled the call
            return
        if reply.error is not None:
            future.set_exception(
                ToolCallError(_failure_text(name, reply), name, reply.code, reply.exception_type)
            )
            return
        try:
            # Decoded with the collector paused, and the future looked at again
            # after: a finalizer of the program's may cancel the call meanwhile.
            with collection_paused():
                value = _json_decode(reply.value)
        except msgspec.DecodeError as exc:
            if not future.done():
                future.set_exception(
                    ToolCallError(f"the host sent an undecodable value for {name!r}: {exc}", name)
                )
            return
        if not future.done():
            future.set_result(value)

    def awaiting(self) -> bool:
        return bool(self.futures)

    def fail_all(self, message: str) -> None:
        futures, self.futures = self.futures, {}
        held, self.held = self.held, deque()
        waiting = [*futures.values(), *((future, name) for future, name, _ in held)]
        for future, name in waiting:
            if not future.done():
                future.set_exception(ToolCallError(f"tool {_quoted(name)} failed: {message}", name))

    def close(self) -> None:
        """Refuse every call from now on: the program has returned or raised."""
        self.over = True

    def finish(self) -> str | None:
        # The reply reader stays on the run's loop: no program code is left to
        # wait for a reply, and that loop never runs again (a child exits after
        # its run; the channel's next loop takes the reader off this one).
        # Taking it off here cost a child about 70 µs and 10 page faults
        # between its program's return and ``Done`` (measured).
        self.over = True
        if not self.unawaited:
            return None
        calls = sorted(
            self.unawaited.values(), key=lambda c: (c._line is None, c._line or 0, c._serial)
        )
        self.unawaited.clear()
        where = [
            f"{_display(c._name)}(...) at "
            + ("an unknown line" if c._line is None else f"line {c._line}")
            for c in calls
        ]
        if len(where) == 1:
            head = f"tool call {where[0]} was never awaited"
        else:
            head = f"{len(where)} tool calls were never awaited: {', '.join(where)}"
        return (
            f"{head}; a tool call does nothing until it is awaited: write "
            "`await tools.name(...)` or `await asyncio.gather(...)` of the calls (a call "
            "left behind by an exception counts too: make calls once their arguments are "
            "ready)"
        )


@final
class _ToolCall:
    """What ``tools.name(...)`` returns: awaiting it sends the call and gives the value.

    Not a coroutine (it has no ``cr_frame``); its state is in underscore slots.
    """

    __slots__ = ("_args", "_calls", "_error", "_line", "_name", "_serial", "_started")

    def __init__(
        self, calls: _Calls, name: str, args: bytes, error: str | None, line: int | None
    ) -> None:
        self._calls = calls
        self._name = name
        self._args = args
        self._error = error
        self._line = line
        self._started = False
        self._serial = calls.serial
        calls.serial += 1
        calls.unawaited[self._serial] = self

    def __await__(self) -> Generator[Any, None, JsonValue]:
        return self._calls.start(self).__await__()

    def __repr__(self) -> str:
        return f"<pending call {_display(self._name)}(...)>"

    # A forgotten `await` puts the call where its value was meant to be: each
    # use of a value says so, naming the call, instead of an internal class.

    def _not_the_value(self) -> str:
        call = f"{_display(self._name)}(...)"
        return f"{call} is a tool call that was never awaited; write `await {call}` for its value"

    def __getattr__(self, name: str) -> Any:
        # Only for names the class lacks: `.get`, `.items`. Not for `_` names:
        # copy and the runtime probe those (an unset slot among them).
        if name[:1] == "_":
            raise AttributeError(name)
        raise AttributeError(f"{self._not_the_value()} (then .{name})")

    def __iter__(self) -> Any:
        raise TypeError(self._not_the_value())

    def __aiter__(self) -> Any:
        raise TypeError(self._not_the_value())

    def __len__(self) -> int:
        raise TypeError(self._not_the_value())

    def __bool__(self) -> bool:
        # `if tools.x():` would otherwise be true whatever the tool answers.
        raise TypeError(self._not_the_value())

    def __getitem__(self, key: object) -> Any:
        raise TypeError(self._not_the_value())

    def __contains__(self, item: object) -> bool:
        raise TypeError(self._not_the_value())


def hand_over(awaitable: object) -> None:
    """Record that ``awaitable``, if a tool call, was given to asyncio to await.

    The asyncio façade calls it for what ``gather``, ``create_task``,
    ``wait_for`` and the like receive: such a call was not forgotten, even if
    what was to await it is cancelled (or fails) before its first step, so the
    end of the run does not report it as never awaited.
    """
    if type(awaitable) is _ToolCall:
        awaitable._calls.unawaited.pop(awaitable._serial, None)


def is_tool(value: object) -> bool:
    """Whether ``value`` is a tool, ``tools.name``: calling it gives a call to await."""
    return type(value) is _ToolStub


def is_tool_call(value: object) -> bool:
    """Whether ``value`` is a tool call, ``tools.name(...)``: awaiting it sends the call."""
    return type(value) is _ToolCall


def unawaited_reason(value: object) -> str | None:
    """Why ``value`` is not JSON if it is a tool call that was never awaited, else ``None``.

    A forgotten ``await`` puts the call object where its value belongs (in a
    return value or another call's arguments); the lossless JSON check names
    it with this text (see ``describe`` of :func:`bridge.lossless.materialize`)
    instead of the type of an internal class.
    """
    if type(value) is not _ToolCall or value._started:
        return None
    call = f"{_display(value._name)}(...)"
    return f"{call} is a tool call that was never awaited; write `await {call}` for its value"


@final
class _ToolStub:
    """``tools.name``: a callable that builds a :class:`_ToolCall`."""

    __slots__ = ("_calls", "_name")

    def __init__(self, calls: _Calls, name: str) -> None:
        self._calls = calls
        self._name = name

    def __await__(self) -> NoReturn:
        # `await tools.current_time` without the call: say so, not "object
        # _ToolStub can't be used in 'await' expression".
        shown = _display(self._name)
        raise TypeError(f"{shown} is a tool, not a call: write `await {shown}(...)`")

    # Its value read from the tool itself, the call left out (`f = tools.get_order`,
    # then `f["id"]` or `f.id`): say so, not "'_ToolStub' object is not subscriptable".
    def __getitem__(self, key: object) -> NoReturn:
        shown = _display(self._name)
        raise TypeError(
            f"{shown} is a tool, not its value: call it and await the call first, "
            f"`value = await {shown}(...)`, then read value[...]"
        )

    def __getattr__(self, name: str) -> NoReturn:
        # Only reached for a name the stub does not have.
        shown = _display(self._name)
        raise AttributeError(
            f"{shown} is a tool, not its value, and has no attribute {name!r}: call it and "
            f"await the call first, `value = await {shown}(...)`"
        )

    def __call__(self, *args: object, **kwargs: object) -> _ToolCall:
        name = self._name
        payload = args[0] if args else kwargs
        if args:
            problem = (
                f"not {len(args)} positional arguments" if len(args) > 1
                else "not both" if kwargs
                else None if isinstance(payload, dict)
                else f"not a positional {type(payload).__name__}"
            )
            if problem is not None:
                shown = _display(name)
                form = (
                    f"await {shown}(name=value, ...)" if name.isidentifier()
                    else f"await {shown}({{\"name\": value, ...}})"
                )
                raise TypeError(
                    f"{shown}() takes keyword arguments or one dict of arguments, "
                    f"{problem}: write {form} with the parameter names the SDK declares"
                )
        error: str | None = None
        try:
            # As json.dumps would: a tuple is an array, a Counter an object; no
            # finalizer of the program's runs while the arguments are read.
            with collection_paused():
                encoded = encode_value(
                    payload, accept_collections=True, describe=unawaited_reason
                )
        except LossyJsonError as exc:
            encoded = b""
            error = (
                f"tool {_quoted(name)} was not called: its arguments must be lossless JSON: {exc}"
            )
        calls = self._calls
        # The line of the call, for "never awaited" messages. The program's
        # frame is the caller, or a few frames up when a guard (e.g.
        # RestrictedPython's ``_apply_`` for ``**kwargs``) sits in between: the
        # frame whose globals hold the program's ``tools``. The walk stays in
        # this function and uses only attribute reads: the child's tripwire
        # exempts this function's sys._getframe, so the frame must reach no
        # other function (a module global or builtin a program could replace).
        frame: FrameType | None = sys._getframe(1)
        line: int | None = None
        depth = 0
        while frame is not None and depth < 8:
            if frame.f_globals.get("tools") is calls.tools:
                line = frame.f_lineno
                break
            frame = frame.f_back
            depth += 1
        frame = None
        return _ToolCall(calls, name, encoded, error, line)

    def __repr__(self) -> str:
        return f"<tool {_display(self._name)}>"


@final
class _Tools:
    """The program's ``tools``: every public attribute is a declared tool."""

    __slots__ = ("_calls",)

    def __init__(self, calls: _Calls) -> None:
        object.__setattr__(self, "_calls", calls)

    def __getattribute__(self, name: str) -> Any:
        calls: _Calls = object.__getattribute__(self, "_calls")
        if name in calls.names:
            return _ToolStub(calls, name)
        if name[:1] == "_":
            return object.__getattribute__(self, name)
        raise AttributeError(f"no tool named {name!r}; {_declared(calls.names)}")

    def __getitem__(self, name: object) -> _ToolStub:
        calls: _Calls = object.__getattribute__(self, "_calls")
        # An exact str only: a subclass could hash and compare like a declared
        # name and still be another name when the call is made.
        if type(name) is str and name in calls.names:
            return _ToolStub(calls, name)
        shown = repr(name) if type(name) is str else f"a {type(name).__name__} object"
        raise KeyError(f"no tool named {shown}; {_declared(calls.names)}")

    def __contains__(self, name: object) -> bool:
        return type(name) is str and name in object.__getattribute__(self, "_calls").names

    def __iter__(self) -> Any:
        raise TypeError(
            "tools is not iterable; call a tool as tools.name(...) or tools['name'](...)"
        )

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("tools is read-only")

    def __delattr__(self, name: str) -> None:
        raise AttributeError("tools is read-only")

    def __dir__(self) -> list[str]:
        return sorted(object.__getattribute__(self, "_calls").names)

    def __repr__(self) -> str:
        names = object.__getattribute__(self, "_calls").names
        return f"<tools: {', '.join(sorted(names))}>"


def _declared(names: frozenset[str]) -> str:
    if not names:
        return "this program has no tools"
    return "declared tools: " + ", ".join(sorted(map(repr, names)))


def make_bindings(
    channel: ChildChannel, tool_names: Sequence[str]
) -> tuple[dict[str, object], Callable[[], None], Callable[[], str | None]]:
    """Build the names a program gets for its tools, and the end-of-run hooks.

    Args:
        channel: the child's channel (after :func:`recv_run`).
        tool_names: the tools the program may call.

    Returns:
        ``(bindings, on_return, after_run)``: ``bindings`` maps ``tools`` and
        ``ToolCallError``; ``on_return()``, called in the step the program's
        main coroutine returns or raises, refuses every later call (a task the
        program left behind, cancelled as the run closes, may still try one:
        it is not sent, so no tool starts after the program's value is fixed);
        ``after_run()``, called once the run is over, refuses further calls
        too and returns a message naming every call that was never awaited
        (with its line), or ``None``.
    """
    calls = _Calls(channel, frozenset(tool_names))
    calls.tools = tools = _Tools(calls)
    return {"tools": tools, "ToolCallError": ToolCallError}, calls.close, calls.finish


#: The classes of ``tools``, ``tools.name`` and ``tools.name(...)``: the runtime
#: makes their objects; a program must not (``type()`` gives it a stand-in).
TOOL_CLASSES: Final[tuple[type, ...]] = (_Tools, _ToolStub, _ToolCall)
