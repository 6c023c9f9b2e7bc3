"""What a model reads when a program or one of its tool calls fails.

A tool's exception reaches the program as ``ToolCallError`` naming the tool and the
exception type; a failed run says which tool calls already ran, so a retry does not
repeat side effects blindly.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from codemode import ToolRunContext, text_of, tool

from .test_code_mode_support import (
    code_mode,
    failure_of,
    make_tool,
    module_pool,
    registry_with,
    returned,
    run_code,
)

if TYPE_CHECKING:
    from collections.abc import AsyncIterator

    from sandbox import WorkerPool


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
async def pool() -> AsyncIterator[WorkerPool]:
    async for shared in module_pool():
        yield shared


CATCH = (
    "try:\n    await tools.{call}\nexcept ToolCallError as e:\n"
    "    return [str(e), e.tool_name, e.code, e.type]"
)


@tool
def get_customer(customer_id: int) -> str:
    """Look a customer up."""
    raise LookupError(f"no customer {customer_id}")


@tool
def flaky() -> str:
    """Fail without a message."""
    raise RuntimeError()


# -- the tool's exception type --------------------------------------------------------------------


async def test_a_tools_exception_type_reaches_the_program_in_the_message_and_as_type(
    pool: WorkerPool,
) -> None:
    registry = registry_with(get_customer)
    async with code_mode(registry, pool):
        result = await run_code(registry, CATCH.format(call="get_customer(customer_id=7)"))
    assert returned(result) == [
        'tool "get_customer" raised LookupError: no customer 7',
        "get_customer",
        None,
        "LookupError",
    ]


async def test_a_bare_exception_arrives_as_its_type_not_as_a_message(pool: WorkerPool) -> None:
    registry = registry_with(flaky)
    async with code_mode(registry, pool):
        result = await run_code(registry, CATCH.format(call="flaky()"))
    assert returned(result) == ['tool "flaky" raised RuntimeError', "flaky", None, "RuntimeError"]


async def test_a_failure_that_is_no_exception_has_no_type(pool: WorkerPool) -> None:
    registry = registry_with(get_customer)
    async with code_mode(registry, pool, check_calls=False):
        result = await run_code(registry, CATCH.format(call="get_customer(customer_id='x')"))
    message, _, code, kind = returned(result)
    assert message.startswith('tool "get_customer" failed (INVALID_ARGS): invalid arguments: ')
    assert (code, kind) == ("INVALID_ARGS", None)


async def test_an_uncaught_tool_call_error_reads_without_module_path_or_host_frames(
    pool: WorkerPool,
) -> None:
    registry = registry_with(get_customer)
    async with code_mode(registry, pool):
        result = await run_code(registry, "await tools.get_customer(customer_id=7)")
    message = failure_of(result).message
    assert message.startswith("code run failed (exception): Traceback (most recent call last):\n")
    assert '\nToolCallError: tool "get_customer" raised LookupError: no customer 7\n' in message
    assert "bridge" not in message
    assert ".py" not in message


# -- what already ran when a run fails ------------------------------------------------------------


NOTIFY_THEN_FAIL = """
await tools.send_notification(text="hi")
try:
    await tools.get_customer(customer_id=3)
except ToolCallError:
    pass
return {"when": {1, 2}}
"""


async def test_a_failed_run_lists_the_tool_calls_that_already_ran(pool: WorkerPool) -> None:
    # Regression: the model read only "code run failed (invalid-output)"
    # and a retry sent the notification twice.
    registry = registry_with(make_tool("send_notification"), get_customer)
    async with code_mode(registry, pool):
        result = await run_code(registry, NOTIFY_THEN_FAIL)
    message = failure_of(result).message
    assert message.startswith("code run failed (invalid-output): ")
    assert message.endswith(
        "\n2 tool calls already ran: send_notification (ok), get_customer (failed); running "
        "the program again repeats them."
    )
    assert text_of(result.content) == f"Error: {message}"


async def test_the_list_of_calls_comes_before_the_captured_output(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("send_notification"))
    async with code_mode(registry, pool):
        result = await run_code(
            registry, "await tools.send_notification()\nprint('sent')\nraise ValueError('late')"
        )
    message = failure_of(result).message
    assert message.endswith(
        "\nValueError: late\n1 tool call already ran: send_notification (ok); running the "
        "program again repeats them.\nCaptured output:\nsent"
    )


async def test_a_run_that_fails_before_any_call_lists_none(pool: WorkerPool) -> None:
    registry = registry_with(make_tool("send_notification"))
    async with code_mode(registry, pool):
        result = await run_code(registry, "raise ValueError('early')")
    assert "already ran" not in failure_of(result).message


async def test_many_calls_are_summarised_in_bounded_text(pool: WorkerPool) -> None:
    async def body(args: Any, ctx: ToolRunContext) -> Any:
        return None

    names = [f"step_{index}" for index in range(30)]
    registry = registry_with(*(make_tool(name, body=body) for name in names))
    program = "\n".join(f"await tools.{name}()\nawait tools.{name}()" for name in names)
    async with code_mode(registry, pool):
        result = await run_code(registry, program + "\nreturn {1}")
    message = failure_of(result).message
    summary = message.splitlines()[-1]
    assert summary.startswith(
        "60 tool calls already ran: step_0 (ok) x2, step_1 (ok) x2, step_2 (ok) x2, "
    )
    assert summary.endswith(
        ", step_9 (ok) x2, and 40 more; running the program again repeats them."
    )
