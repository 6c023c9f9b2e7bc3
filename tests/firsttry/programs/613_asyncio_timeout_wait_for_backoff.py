# description: Read warehouse stock with a timeout per attempt and exponential backoff
# value: {"KB-01": {"total": 14, "attempts": 2}, "MN-27": {"total": 6, "attempts": 3}, "HS-07": {"total": 9, "attempts": 1}}
import asyncio

async def with_retries(sku, attempts=4):
    delay = 0.001
    for attempt in range(1, attempts + 1):
        try:
            async with asyncio.timeout(5):
                return await tools.warehouse_stock(sku=sku), attempt
        except TimeoutError:
            pass
        except ToolCallError as e:
            if e.type != "TimeoutError":
                raise
        await asyncio.sleep(delay)
        delay *= 2
    raise RuntimeError(f"{sku}: gave up after {attempts} attempts")

out = {}
for sku in ["KB-01", "MN-27", "HS-07"]:
    stock, attempt = await asyncio.wait_for(with_retries(sku), timeout=10)
    out[sku] = {"total": stock["north"] + stock["south"], "attempts": attempt}
return out
