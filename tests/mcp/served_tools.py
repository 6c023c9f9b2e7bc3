"""The tools ``codemode serve-mcp`` serves in the tests: two to call, one the policy denies."""

from __future__ import annotations

from typing import Any, TypedDict

from codemode import Deny, Registry, tool


class Weather(TypedDict):
    city: str
    celsius: float


@tool(concurrency_safe=True)
def weather(city: str) -> Weather:
    """Current temperature in a city, in degrees Celsius."""
    return {"city": city, "celsius": {"Paris": 21.5, "Oslo": 4.0}.get(city, 15.0)}


@tool(concurrency_safe=True)
def stock(item: str) -> int:
    """How many of an item are in stock."""
    return {"apples": 12, "pears": 0}.get(item, 0)


@tool
def send_email(to: str, body: str) -> str:
    """Send an email."""
    raise AssertionError("the policy denies every email before this runs")


async def no_email(execution: Any, proceed: Any) -> Any:
    if execution.name == "send_email":
        return Deny("sending email is not allowed here")
    return await proceed()


registry = Registry(mode="code")
registry.register(weather)
registry.register(stock)
registry.register(send_email)
registry.pre_execute(no_email)
