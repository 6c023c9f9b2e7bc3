# description: Read flaky warehouse stock with a generic async retry helper using exponential backoff and jitter
# value: {"stock": {"KB-01": 14, "MS-02": 0, "MN-27": 6, "HD-10": 42, "CB-05": 120, "LP-14": 3, "HS-07": 9}, "retries": 5, "unknown": "LookupError: tool \"warehouse_stock\" raised LookupError: unknown sku 'ZZ-99'"}
import asyncio
import random
from typing import Awaitable, Callable, TypeVar

T = TypeVar("T")
rng = random.Random(7)
delays: list[float] = []


async def retry(make: Callable[[], Awaitable[T]], *, attempts: int = 4, base: float = 0.001,
                retry_on: tuple[type[BaseException], ...] = (ToolCallError,)) -> T:
    last: BaseException | None = None
    for attempt in range(attempts):
        try:
            return await make()
        except retry_on as e:
            if isinstance(e, ToolCallError) and e.type != "TimeoutError":
                raise
            last = e
            delay = base * (2 ** attempt) + rng.uniform(0, base)
            delays.append(round(delay, 6))
            await asyncio.sleep(delay)
    raise RuntimeError(f"gave up after {attempts} attempts") from last


skus = ["KB-01", "MS-02", "MN-27", "HD-10", "CB-05", "LP-14", "HS-07"]
stock = {}
for sku in skus:
    s = await retry(lambda: tools.warehouse_stock(sku=sku))
    stock[sku] = s["north"] + s["south"]

try:
    await retry(lambda: tools.warehouse_stock(sku="ZZ-99"), attempts=2)
    bad = "ok"
except RuntimeError as e:
    bad = f"{e} (cause: {type(e.__cause__).__name__})"
except ToolCallError as e:
    bad = f"{e.type}: {e}"

return {"stock": stock, "retries": len(delays), "unknown": bad}
