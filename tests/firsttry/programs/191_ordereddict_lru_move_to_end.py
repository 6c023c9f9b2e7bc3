# description: Cache customer lookups in an OrderedDict LRU while processing a stream of order ids
# value: {"names": ["Ada", "Grace", "Ada", "Katherine", "Grace", "Ada", "Margaret", "Katherine"], "hits": 1, "misses": 7, "evicted": ["c2", "c1", "c4", "c2", "c1"], "cached": ["c6", "c4"], "od": "dace", "first": "d", "popped": "b", "eq_order_sensitive": false, "eq_dict": true}
from collections import OrderedDict


class LRU:
    def __init__(self, capacity):
        self.capacity = capacity
        self.data = OrderedDict()
        self.hits = self.misses = 0
        self.evicted = []

    async def get(self, key, loader):
        if key in self.data:
            self.data.move_to_end(key)
            self.hits += 1
            return self.data[key]
        self.misses += 1
        value = await loader(key)
        self.data[key] = value
        if len(self.data) > self.capacity:
            old, _ = self.data.popitem(last=False)
            self.evicted.append(old)
        return value


async def load_customer(cid):
    return await tools.get_customer(customer_id=cid)

cache = LRU(2)
order_ids = ["o-1001", "o-1004", "o-1002", "o-1007", "o-1005", "o-1003", "o-1009", "o-1008"]
names = []
for oid in order_ids:
    o = await tools.get_order(order_id=oid)
    c = await cache.get(o["customer_id"], load_customer)
    names.append(c["name"].split()[0])

od = OrderedDict.fromkeys("abcde")
od.move_to_end("b")
od.move_to_end("d", last=False)
first = next(iter(od))
last_key, _ = od.popitem()
return {"names": names, "hits": cache.hits, "misses": cache.misses, "evicted": cache.evicted,
        "cached": list(cache.data), "od": "".join(od), "first": first, "popped": last_key,
        "eq_order_sensitive": OrderedDict(a=1, b=2) == OrderedDict(b=2, a=1),
        "eq_dict": OrderedDict(a=1, b=2) == {"b": 2, "a": 1}}
