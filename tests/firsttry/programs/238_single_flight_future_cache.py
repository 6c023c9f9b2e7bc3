# description: Deduplicate concurrent customer lookups with a single-flight cache of futures
# limitation: asyncio.get_running_loop is not in the asyncio facade (no loop.create_future); share a task from asyncio.create_task instead
# value: {"rows": [{"order": "o-1001", "name": "Ada Lovelace", "tier": "enterprise"}, {"order": "o-1002", "name": "Ada Lovelace", "tier": "enterprise"}, {"order": "o-1003", "name": "Ada Lovelace", "tier": "enterprise"}, {"order": "o-1004", "name": "Grace Hopper", "tier": "pro"}], "lookups": {"c1": 1, "c2": 1, "c4": 1, "c6": 1, "c99": 2}, "bad": ["ToolCallError", "ToolCallError"]}
# logs: ["10 orders enriched with 6 customer lookups"]
import asyncio
from collections import Counter

class SingleFlight:
    def __init__(self) -> None:
        self._futures: dict[str, asyncio.Future] = {}
        self.calls = Counter()

    async def customer(self, customer_id: str) -> dict:
        if customer_id in self._futures:
            return await self._futures[customer_id]
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._futures[customer_id] = future
        self.calls[customer_id] += 1
        try:
            result = await tools.get_customer(customer_id=customer_id)
        except ToolCallError as e:
            future.set_exception(e)
            del self._futures[customer_id]
            raise
        future.set_result(result)
        return result

cache = SingleFlight()
orders = []
for cid in ("c1", "c2", "c4", "c6"):
    orders.extend(await tools.list_orders(customer_id=cid))

async def enrich(order: dict) -> dict:
    customer = await cache.customer(order["customer_id"])
    return {"order": order["id"], "name": customer["name"], "tier": customer["tier"]}

rows = await asyncio.gather(*(enrich(o) for o in orders))
bad = await asyncio.gather(cache.customer("c99"), cache.customer("c99"), return_exceptions=True)
print(f"{len(rows)} orders enriched with {sum(cache.calls.values())} customer lookups")
return {
    "rows": rows[:4],
    "lookups": dict(cache.calls),
    "bad": [type(b).__name__ for b in bad],
}
