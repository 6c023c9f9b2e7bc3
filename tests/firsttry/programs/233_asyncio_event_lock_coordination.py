# description: Coordinate workers with asyncio.Event and asyncio.Lock while fetching forecasts
# value: {"summary": {"London": 16.0, "Oslo": 8.0, "Tokyo": 25.5}, "log": ["waiting=True", "loaded"], "finished": [0, 1, 2], "locked": false, "got": ["a", "b"]}
import asyncio

ready = asyncio.Event()
lock = asyncio.Lock()
shared = {"cities": None}
log = []
summary = {}


async def loader():
    customers = await tools.list_customers()
    shared["cities"] = sorted({c["address"]["city"] for c in customers} & {"London", "Paris", "Tokyo"} | {"Tokyo", "Oslo"})
    log.append("loaded")
    ready.set()


async def worker(i):
    await ready.wait()
    while True:
        async with lock:
            if not shared["cities"]:
                return i
            city = shared["cities"].pop(0)
        days = await tools.forecast(city=city, days=2)
        async with lock:
            summary[city] = max(d["high"] for d in days)


workers = [asyncio.create_task(worker(i)) for i in range(3)]
await asyncio.sleep(0)
log.append(f"waiting={not ready.is_set()}")
await loader()
finished = await asyncio.gather(*workers)
cond = asyncio.Condition()
items = []


async def consumer():
    async with cond:
        await cond.wait_for(lambda: len(items) >= 2)
        return list(items)


task = asyncio.create_task(consumer())
for x in ("a", "b"):
    await asyncio.sleep(0)
    async with cond:
        items.append(x)
        cond.notify_all()
got = await task
return {"summary": dict(sorted(summary.items())), "log": log, "finished": sorted(finished), "locked": lock.locked(), "got": got}
