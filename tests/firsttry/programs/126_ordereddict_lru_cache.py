# description: A small LRU cache in front of get_customer using OrderedDict
# value: {"hits": 2, "misses": 5, "keys": ["c2", "c1"], "reversed": ["c1", "c2"]}
# logs: ["evicted c2", "evicted c1", "evicted c3"]
from collections import OrderedDict

class LRU:
    def __init__(self, capacity: int):
        self.capacity = capacity
        self.data: OrderedDict[str, dict] = OrderedDict()
        self.hits = self.misses = 0

    async def get(self, cid: str) -> dict:
        if cid in self.data:
            self.hits += 1
            self.data.move_to_end(cid)
            return self.data[cid]
        self.misses += 1
        value = await tools.get_customer(customer_id=cid)
        self.data[cid] = value
        if len(self.data) > self.capacity:
            evicted, _ = self.data.popitem(last=False)
            print("evicted", evicted)
        return value

cache = LRU(capacity=2)
for cid in ["c1", "c2", "c1", "c3", "c2", "c1", "c1"]:
    await cache.get(cid)
return {"hits": cache.hits, "misses": cache.misses, "keys": list(cache.data), "reversed": list(reversed(cache.data))}
