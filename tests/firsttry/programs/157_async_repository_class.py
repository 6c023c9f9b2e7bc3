# description: An async repository class that caches and locks tool access
# value: {"pro": {"Grace Hopper": 2, "Katherine Johnson": 2}, "enterprise": {"Ada Lovelace": 3, "Margaret Hamilton": 3}, "free": ["c3", "c5"], "fetches": 1}
import asyncio

class CustomerRepo:
    def __init__(self):
        self._cache: dict[str, dict] = {}
        self._lock = asyncio.Lock()
        self.fetches = 0

    async def all(self) -> list[dict]:
        async with self._lock:
            if not self._cache:
                self.fetches += 1
                for c in await tools.list_customers():
                    self._cache[c["id"]] = c
        return list(self._cache.values())

    async def by_tier(self, tier: str) -> list[dict]:
        return [c for c in await self.all() if c["tier"] == tier]

    async def orders_for(self, tier: str) -> dict[str, int]:
        customers = await self.by_tier(tier)
        counts = await asyncio.gather(*(self._count(c["id"]) for c in customers))
        return {c["name"]: n for c, n in zip(customers, counts)}

    async def _count(self, cid: str) -> int:
        return len(await tools.list_orders(customer_id=cid))

repo = CustomerRepo()
pro, ent, free = await asyncio.gather(repo.orders_for("pro"), repo.orders_for("enterprise"), repo.by_tier("free"))
return {"pro": pro, "enterprise": ent, "free": [c["id"] for c in free], "fetches": repo.fetches}
