# description: Bound slow lookups with asyncio.wait_for and asyncio.timeout, falling back to defaults
# value: {"out": {"c1": {"score": 2}, "c2": {"score": null, "timed_out": true}, "c4": {"score": 1}}, "log": ["weather ok", "timed out", "no deadline: None"], "oslo": "snow", "is_asyncio_timeout": true}
import asyncio


async def slow_enrichment(customer_id):
    await asyncio.sleep(5)
    return {"score": 99}


async def quick_enrichment(customer_id):
    c = await tools.get_customer(customer_id=customer_id)
    return {"score": len(c["tags"])}


out = {}
for cid, fn in (("c1", quick_enrichment), ("c2", slow_enrichment), ("c4", quick_enrichment)):
    try:
        out[cid] = await asyncio.wait_for(fn(cid), timeout=0.2)
    except TimeoutError:
        out[cid] = {"score": None, "timed_out": True}

log = []
try:
    async with asyncio.timeout(0.1):
        await tools.get_weather(city="Paris")
        log.append("weather ok")
        await asyncio.sleep(3)
        log.append("never")
except TimeoutError:
    log.append("timed out")

async with asyncio.timeout(None) as cm:
    w = await tools.get_weather(city="Oslo")
    log.append(f"no deadline: {cm.when()}")
return {"out": out, "log": log, "oslo": w["condition"], "is_asyncio_timeout": asyncio.TimeoutError is TimeoutError}
