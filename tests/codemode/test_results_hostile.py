"""A foreign exception or object is formatted without letting its code reach the host.

A tool's exception (or a listener's, or a program's value named in an error)
is foreign code: its ``__str__``, its ``__repr__``, its class's ``__name__``
(a metaclass property), its ``__class__`` (a property), and for a subclass of
codemode's own ``ToolError`` its ``message`` and ``code``. Whatever any of
them raises, ``KeyboardInterrupt``, ``SystemExit`` and every other
``BaseException`` included, the failure is built and the host goes on.
Catching those does not swallow a real cancellation: the request stays on the
task or the cancel scope and arrives at the next ``await``.
"""

from __future__ import annotations

import asyncio
import functools
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

import anyio
import anyio.lowlevel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from codemode import _results
from codemode._errors import CodeRunFailedError, ToolError
from codemode._pipeline import execute
from codemode._registry import Registry
from codemode._results import MAX_FOREIGN_TEXT_CHARS, MAX_TYPE_NAME_CHARS, UNPRINTABLE, ErrorInfo
from tests.codemode.test_pipeline_support import call, failed, make_tool

if TYPE_CHECKING:
    from collections.abc import Callable

    from codemode._execution import ToolRunContext
    from codemode._results import ToolResult

F = TypeVar("F", bound="Callable[..., Any]")


def contained(fn: F) -> F:
    """``fn``, with whatever escapes it made an assertion failure that runs no foreign code.

    Without this, a hostile exception escaping the code under test would stop
    the whole test session (a KeyboardInterrupt), or break pytest's report of
    the failure (which calls the hostile ``__repr__``).
    """

    @functools.wraps(fn)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except BaseException as exc:
            name = type.__dict__["__name__"].__get__(type(exc))
        # pytest's report shows this frame's arguments: not the hostile ones.
        args, kwargs = (), {}
        raise AssertionError(f"{name} escaped {fn.__name__}")

    return call  # type: ignore[return-value]


failure_from_exception = contained(_results.failure_from_exception)
safe_str = contained(_results.safe_str)
safe_repr = contained(_results.safe_repr)
type_name = contained(_results.type_name)


async def executed(registry: Registry) -> ToolResult:
    try:
        return await execute(registry, call())
    except BaseException as exc:
        name = type.__dict__["__name__"].__get__(type(exc))
        raise AssertionError(f"{name} escaped the pipeline") from None

#: What a hostile method may raise: every kind of BaseException a host must survive.
RAISED: list[type[BaseException]] = [
    KeyboardInterrupt, SystemExit, GeneratorExit, asyncio.CancelledError, MemoryError,
    RecursionError, ValueError,
]


class Custom(BaseException):
    """A BaseException of the tool's own."""


RAISED.append(Custom)


def raiser(kind: type[BaseException]) -> Any:
    def method(*args: object) -> NoReturn:
        raise kind("from a hostile method")

    return method


def hostile_exception(kind: type[BaseException]) -> BaseException:
    """An exception whose ``__str__`` and ``__repr__`` raise ``kind``."""
    cls = type("Hostile", (Exception,), {"__str__": raiser(kind), "__repr__": raiser(kind)})
    exc: BaseException = cls()
    return exc


@pytest.mark.parametrize("kind", RAISED)
def test_a_str_raising_any_base_exception_gives_the_placeholder(
    kind: type[BaseException],
) -> None:
    error = failure_from_exception(hostile_exception(kind)).error
    assert (error.message, error.exception_type) == (UNPRINTABLE, "Hostile")


@pytest.mark.parametrize("kind", RAISED)
def test_safe_str_and_safe_repr_never_raise(kind: type[BaseException]) -> None:
    value = hostile_exception(kind)
    assert safe_str(value) == UNPRINTABLE
    assert safe_repr(value) == UNPRINTABLE


@pytest.mark.parametrize("kind", [KeyboardInterrupt, SystemExit, Custom])
async def test_a_tool_whose_exception_cannot_be_printed_fails_only_that_call(
    kind: type[BaseException],
) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> object:
        raise hostile_exception(kind)

    registry = Registry()
    registry.register(make_tool(body=body))
    error = failed(await executed(registry)).error
    assert (error.message, error.exception_type) == (UNPRINTABLE, "Hostile")
    # The host goes on: the next call runs.
    assert failed(await executed(registry)).error.message == UNPRINTABLE


# Built with type(): a metaclass whose __name__ raises, and an exception whose
# __class__ raises (isinstance consults it when the real type does not match).
_NameRaises = type("_NameRaises", (type,), {"__name__": property(raiser(KeyboardInterrupt))})
NamedHostile: Any = _NameRaises(
    "NamedHostile", (Exception,), {"__class__": property(raiser(SystemExit))}
)


def test_a_class_name_and_class_that_raise_are_never_consulted() -> None:
    error = failure_from_exception(NamedHostile("plain text")).error
    assert (error.message, error.exception_type) == ("plain text", "NamedHostile")
    assert type_name(NamedHostile()) == "NamedHostile"


class Sly(str):
    """A str subclass whose every method a formatter might call raises."""

    def __str__(self) -> str:
        raise KeyboardInterrupt

    def __format__(self, spec: str) -> str:
        raise KeyboardInterrupt

    def __len__(self) -> int:
        raise KeyboardInterrupt

    def __bool__(self) -> bool:
        raise KeyboardInterrupt

    def isascii(self) -> bool:
        raise KeyboardInterrupt


def test_a_str_subclass_from_str_becomes_plain_text() -> None:
    class Returns(Exception):
        def __str__(self) -> str:
            return Sly("sly text")

    error = failure_from_exception(Returns()).error
    assert error.message == "sly text"
    assert type(error.message) is str


def test_a_class_named_by_a_str_subclass_is_named_in_plain_text() -> None:
    cls = type(Sly("Weird"), (Exception,), {})
    assert type_name(cls()) == "Weird"
    assert type(type_name(cls())) is str


def test_a_long_class_name_is_cut() -> None:
    cls = type("E" * 10_000, (Exception,), {})
    name = type_name(cls())
    assert len(name) == MAX_TYPE_NAME_CHARS
    assert name.endswith("…")


def test_a_long_message_is_cut_and_says_how_much() -> None:
    message = failure_from_exception(ValueError("x" * 10_000)).error.message
    more = 10_000 - MAX_FOREIGN_TEXT_CHARS
    assert message == "x" * MAX_FOREIGN_TEXT_CHARS + f"… ({more} more characters)"


def test_a_message_at_the_limit_is_kept_whole() -> None:
    text = "y" * MAX_FOREIGN_TEXT_CHARS
    assert failure_from_exception(ValueError(text)).error.message == text


# -- a tool's own subclass of ToolError -----------------------------------------------------------


#: A ToolError whose ``message`` raises KeyboardInterrupt (setting it does nothing).
MessageRaises: Any = type(
    "MessageRaises", (ToolError,),
    {"code": "MINE", "message": property(raiser(KeyboardInterrupt), lambda self, value: None)},
)


class NoInit(ToolError):
    code = "MINE"

    def __init__(self) -> None:  # never sets .message
        Exception.__init__(self, "no init text")


OddCode: Any = type("OddCode", (ToolError,), {"code": 42})


class OddKind(CodeRunFailedError):
    pass


@pytest.mark.parametrize(
    ("exc", "message"),
    [(MessageRaises("hidden"), "hidden"), (NoInit(), "no init text"), (OddCode("odd"), "odd")],
)
def test_a_tool_error_whose_identity_cannot_be_read_is_reported_as_a_plain_exception(
    exc: BaseException, message: str
) -> None:
    error = failure_from_exception(exc).error
    assert (error.message, error.info, error.exception_type) == (
        message, None, type(exc).__name__
    )


def test_a_tool_error_with_a_sly_message_keeps_its_code_in_plain_text() -> None:
    exc = ToolError("x")
    exc.message = Sly("sly message")
    error = failure_from_exception(exc).error
    assert (error.message, error.info) == ("sly message", ErrorInfo(name="ToolError"))
    assert type(error.message) is str


def test_a_run_failure_with_a_kind_that_is_not_text_is_a_plain_exception() -> None:
    exc: Any = OddKind("exception", "boom")
    exc.kind = 7
    error = failure_from_exception(exc).error
    assert error.info is None
    assert error.exception_type == "OddKind"


def test_codemode_errors_keep_their_identity_and_their_whole_message() -> None:
    detail = "d" * (3 * MAX_FOREIGN_TEXT_CHARS)
    error = failure_from_exception(CodeRunFailedError("exception", detail)).error
    assert error.info == ErrorInfo(name="CodeRunFailedError", code="CODE_RUN_FAILED",
                                   kind="exception")
    assert error.message == f"code run failed (exception): {detail}"


# -- any behaviour --------------------------------------------------------------------------------


behaviours = st.one_of(
    st.sampled_from(RAISED).map(lambda kind: ("raise", kind)),
    st.text(max_size=50).map(lambda text: ("return", text)),
    st.text(max_size=50).map(lambda text: ("return sly", text)),
)


def method_for(behaviour: tuple[str, Any]) -> Any:
    what, arg = behaviour
    if what == "raise":
        return raiser(arg)
    if what == "return sly":
        return lambda self: Sly(arg)
    return lambda self: arg


@settings(max_examples=300, deadline=None)
@given(
    str_of=behaviours,
    name=st.text(min_size=1, max_size=300).filter(lambda n: "\x00" not in n),
    base=st.sampled_from([Exception, BaseException, ToolError, KeyboardInterrupt]),
)
def test_any_exception_becomes_a_failure_with_plain_bounded_text(
    str_of: tuple[str, Any], name: str, base: type[BaseException]
) -> None:
    cls = type(name, (base,), {"__str__": method_for(str_of)})
    error = failure_from_exception(cls("message")).error
    assert type(error.message) is str
    assert len(error.message) <= MAX_FOREIGN_TEXT_CHARS + len("… (99999 more characters)")
    assert error.message  # never empty: the class name stands in for no text
    for text in (error.exception_type, error.info.name if error.info else None):
        if text is not None:
            assert type(text) is str
            assert len(text) <= MAX_TYPE_NAME_CHARS
            text.encode("utf-8")  # a lone surrogate in a class name is escaped


# -- a real cancellation is not swallowed ---------------------------------------------------------


async def test_a_cancel_requested_while_str_runs_still_arrives_at_the_next_await() -> None:
    """The request lives on the task: the exception __str__ raised is caught, the cancel stays."""

    class CancelsItself(Exception):
        def __str__(self) -> str:
            task = asyncio.current_task()
            assert task is not None
            task.cancel()
            raise asyncio.CancelledError

    reached: list[str] = []

    async def tool_call() -> None:
        reached.append(failure_from_exception(CancelsItself()).error.message)
        await asyncio.sleep(0)
        reached.append("not cancelled")  # pragma: no cover - the cancellation arrives first

    task = asyncio.ensure_future(tool_call())
    with pytest.raises(asyncio.CancelledError):
        await task
    assert reached == [UNPRINTABLE]
    assert task.cancelled()


async def test_a_cancel_scope_cancelled_while_str_runs_still_cancels() -> None:
    scope_holder: list[anyio.CancelScope] = []

    class CancelsScope(Exception):
        def __str__(self) -> str:
            scope_holder[0].cancel()
            raise KeyboardInterrupt

    reached: list[str] = []
    with anyio.CancelScope() as scope:
        scope_holder.append(scope)
        reached.append(failure_from_exception(CancelsScope()).error.message)
        await anyio.lowlevel.checkpoint()
        reached.append("not cancelled")  # pragma: no cover - the cancellation arrives first
    assert reached == [UNPRINTABLE]
    assert scope.cancelled_caught


# -- the pipeline's own messages about what a listener or callback handed it ---------------------


class HostileValue:
    """A value a listener or callback returns, whose ``__repr__`` and ``__str__`` raise."""

    __repr__ = raiser(KeyboardInterrupt)
    __str__ = raiser(SystemExit)


async def test_a_guard_returning_a_value_that_cannot_be_shown_fails_only_that_call() -> None:
    # Regression: the refusal quoted the guard's value with repr(), outside any
    # containment, and a KeyboardInterrupt from it ended the host.
    registry = Registry()
    registry.register(make_tool())
    registry.guard(lambda execution: HostileValue())
    message = failed(await executed(registry)).error.message
    assert message.startswith(f"a guard returned {UNPRINTABLE} for tool 'echo'")


@pytest.mark.parametrize("kind", [KeyboardInterrupt, SystemExit, Custom, ValueError])
async def test_a_renderer_raising_an_exception_that_cannot_be_printed_is_invalid_output(
    kind: type[BaseException],
) -> None:
    def render(args: Any, value: Any) -> NoReturn:
        raise hostile_exception(kind)

    registry = Registry()
    registry.register(make_tool(render=render))
    error = failed(await executed(registry)).error
    # Named by the renderer's exception, not by what its __str__ raised.
    assert error.info is not None
    assert error.info.code == "INVALID_TOOL_OUTPUT"
    assert f"Hostile: {UNPRINTABLE}" in error.message


@pytest.mark.parametrize("returned", ["blocks", "block"])
async def test_finalize_content_returning_what_cannot_be_shown_fails_only_that_call(
    returned: str,
) -> None:
    def finalize(execution: Any, result: Any) -> Any:
        return HostileValue() if returned == "blocks" else [HostileValue()]

    registry = Registry()
    registry.register(make_tool(finalize_content=finalize))
    message = failed(await executed(registry)).error.message
    assert UNPRINTABLE in message
