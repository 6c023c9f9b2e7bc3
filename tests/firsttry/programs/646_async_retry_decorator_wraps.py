# description: Retry flaky warehouse reads with a parametrised async decorator using functools.wraps
# value: {"totals": [14, 0, 42, 3], "log": [["stock_of", "HD-10", 1], ["stock_of", "KB-01", 2], ["stock_of", "LP-14", 3], ["stock_of", "MS-02", 1]], "doc": "Total units across warehouses.", "name": "stock_of", "strict": "strict_stock failed 1 times"}
import asyncio
import functools
from typing import Awaitable, Callable, ParamSpec, TypeVar

P = ParamSpec("P")
R = TypeVar("R")
attempts_log = []

def retry(times: int, on: tuple[str, ...] = ("TimeoutError",)):
    def decorator(fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        @functools.wraps(fn)
        async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            last = None
            for attempt in range(1, times + 1):
                try:
                    result = await fn(*args, **kwargs)
                    attempts_log.append((fn.__name__, args[0] if args else kwargs.get("sku"), attempt))
                    return result
                except ToolCallError as e:
                    if e.type not in on:
                        raise
                    last = e
            raise RuntimeError(f"{fn.__name__} failed {times} times") from last
        return wrapper
    return decorator

@retry(times=3)
async def stock_of(sku: str) -> int:
    """Total units across warehouses."""
    s = await tools.warehouse_stock(sku=sku)
    return s["north"] + s["south"]

@retry(times=1)
async def strict_stock(sku: str) -> int:
    s = await tools.warehouse_stock(sku=sku)
    return s["north"]

totals = await asyncio.gather(*(stock_of(sku) for sku in ["KB-01", "MS-02", "HD-10", "LP-14"]))
try:
    await strict_stock("MN-27")
    strict = "ok"
except RuntimeError as e:
    strict = str(e)
return {"totals": totals, "log": sorted(attempts_log), "doc": stock_of.__doc__, "name": stock_of.__name__,
        "strict": strict}
