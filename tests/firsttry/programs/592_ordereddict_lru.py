# description: A small LRU cache built on OrderedDict.move_to_end in front of get_customer
# value: {"hits": 1, "misses": 5, "keys": ["c2", "c1"], "repr": "OrderedDict([('a', 1)])"}
# logs: ["evicted c2", "evicted c1", "evicted c3"]
from collections import OrderedDict

class LRU:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.data: OrderedDict[str, dict] = OrderedDict()
        self.hits = self.misses = 0

    async def get(self, key: str) -> dict:
        if key in self.data:
            self.hits += 1
            self.data.move_to_end(key)
            return self.data[key]
        self.misses += 1
        value = await tools.get_customer(customer_id=key)
        self.data[key] = value
        if len(self.data) > self.capacity:
            evicted, _ = self.data.popitem(last=False)
            print(f"evicted {evicted}")
        return value

cache = LRU(2)
for cid in ["c1", "c2", "c1", "c3", "c2", "c1"]:
    await cache.get(cid)
return {"hits": cache.hits, "misses": cache.misses, "keys": list(cache.data), "repr": repr(OrderedDict(a=1))}
