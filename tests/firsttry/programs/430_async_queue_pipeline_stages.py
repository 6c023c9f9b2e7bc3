# description: Three-stage asyncio queue pipeline (fetch orders, enrich with customer, total by country) with sentinels
# value: {"totals": {"UK": 955.23, "US": 1324.99}, "statuses": {"UK": ["cancelled", "delivered", "pending", "shipped"], "US": ["delivered", "pending", "shipped"]}, "customers_fetched": 5, "empty": true}
import asyncio
from collections import defaultdict

SENTINEL = None
orders_q: asyncio.Queue = asyncio.Queue(maxsize=3)
enriched_q: asyncio.Queue = asyncio.Queue()
customer_cache: dict[str, dict] = {}


async def producer(ids):
    for oid in ids:
        await orders_q.put(await tools.get_order(order_id=oid))
    await orders_q.put(SENTINEL)


async def enricher():
    while (order := await orders_q.get()) is not SENTINEL:
        cid = order["customer_id"]
        if cid not in customer_cache:
            customer_cache[cid] = await tools.get_customer(customer_id=cid)
        await enriched_q.put((customer_cache[cid]["address"]["country"], order["total"], order["status"]))
    await enriched_q.put(SENTINEL)


async def aggregator():
    totals = defaultdict(float)
    statuses = defaultdict(set)
    while (item := await enriched_q.get()) is not SENTINEL:
        country, total, status = item
        totals[country] += total
        statuses[country].add(status)
    return {k: round(v, 2) for k, v in sorted(totals.items())}, {k: sorted(v) for k, v in statuses.items()}


ids = [f"o-10{i:02d}" for i in range(1, 12)]
_, _, (totals, statuses) = await asyncio.gather(producer(ids), enricher(), aggregator())
return {"totals": totals, "statuses": statuses, "customers_fetched": len(customer_cache), "empty": orders_q.empty() and enriched_q.empty()}
