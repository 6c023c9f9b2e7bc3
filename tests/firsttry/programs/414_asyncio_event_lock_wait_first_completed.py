# description: Coordinate stock checks with asyncio.Event, Lock and wait(FIRST_COMPLETED), with an asyncio.timeout guard
# value: {"levels": {"KB-01": 14, "MS-02": 0, "MN-27": 6, "HD-10": 42, "CB-05": 120, "LP-14": 3, "HS-07": 9}, "first_done": true, "ledger_size": 7, "ready": true, "timed_out": true, "oslo": "snow", "locked": false}
import asyncio

lock = asyncio.Lock()
ready = asyncio.Event()
ledger: dict[str, int] = {}
order_of_updates: list[str] = []


async def check(sku: str):
    level = await tools.get_stock(sku=sku)
    async with lock:
        ledger[sku] = level
        order_of_updates.append(sku)
        if len(ledger) >= 3:
            ready.set()
    return sku, level


async def waiter():
    await ready.wait()
    return sorted(ledger)[:3]


products = await tools.list_products()
tasks = [asyncio.create_task(check(p["sku"])) for p in products]
first_three = await waiter()
done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
first_done = len(done) >= 1
if pending:
    await asyncio.wait(pending)
levels = dict(t.result() for t in tasks)

try:
    async with asyncio.timeout(0.01):
        await asyncio.sleep(1)
    timed_out = False
except TimeoutError:
    timed_out = True

async with asyncio.timeout(5):
    weather = await tools.get_weather(city="Oslo")

return {"levels": levels, "first_done": first_done, "ledger_size": len(ledger), "ready": ready.is_set(),
        "timed_out": timed_out, "oslo": weather["condition"], "locked": lock.locked()}
