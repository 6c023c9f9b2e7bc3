# description: A retry helper that takes tools and plain functions alike, awaiting what is a coroutine
# value: [559.98, 1.2, true, false, true]
import asyncio

async def with_retry(fn, *args, attempts=3, **kwargs):
    for attempt in range(attempts):
        try:
            result = fn(*args, **kwargs)
            if asyncio.iscoroutine(result):
                result = await result
            return result
        except ToolCallError:
            if attempt == attempts - 1:
                raise
            await asyncio.sleep(0)

def vat_rate(country):
    return {"DE": 1.19, "FR": 1.2}[country]

order = await with_retry(tools.get_order, order_id="o-1002")
rate = await with_retry(vat_rate, "FR")
return [order["total"], rate, asyncio.iscoroutinefunction(tools.get_order),
        asyncio.iscoroutinefunction(vat_rate), asyncio.iscoroutinefunction(asyncio.sleep)]
