# description: Compare stock demand with Counter arithmetic, layered settings with ChainMap and an LRU cache
# value: {"short": {"MS-02": 2}, "left_top": [["CB-05", 108], ["HD-10", 41]], "both": ["CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "CB-05", "HD-10", "HS-07", "KB-01", "KB-01", "LP-14", "LP-14"], "most_kb": 2, "cb_after": 10, "total": 18, "settings": {"channel": "email", "retries": 5, "quiet": true}, "child": "sms", "team": {"retries": 5}, "maps": 4, "lru": ["KB-01", "HS-07"], "ring": ["south", "east", "north"], "recent": [9, 2, 3]}
import asyncio
from collections import ChainMap, Counter, OrderedDict, deque

orders = await asyncio.gather(*(tools.list_orders(customer_id=c) for c in ("c1", "c2", "c4", "c6")))
demand = Counter()
for os in orders:
    for o in os:
        if o["status"] == "pending":
            for l in o["lines"]:
                demand[l["sku"]] += l["quantity"]
stock = Counter({p["sku"]: p["in_stock"] for p in await tools.list_products()})
short = demand - stock
left = stock - demand
both = demand & stock
most = demand | Counter({"KB-01": 1})
demand.subtract({"CB-05": 2})

defaults = {"channel": "email", "retries": 3, "quiet": False}
team = {"retries": 5}
settings = ChainMap({}, team, defaults)
settings["quiet"] = True
child = settings.new_child({"channel": "sms"})

class LRU:
    def __init__(self, size):
        self.size = size
        self.data = OrderedDict()

    def get(self, key):
        if key in self.data:
            self.data.move_to_end(key)
            return self.data[key]
        return None

    def put(self, key, value):
        self.data[key] = value
        self.data.move_to_end(key)
        if len(self.data) > self.size:
            self.data.popitem(last=False)

cache = LRU(2)
for sku in ["KB-01", "CB-05", "KB-01", "HS-07"]:
    if cache.get(sku) is None:
        cache.put(sku, stock[sku])
ring = deque(["north", "south", "east"])
ring.rotate(-1)
recent = deque(maxlen=3)
recent.extend(range(5))
recent.appendleft(9)
return {
    "short": dict(short), "left_top": left.most_common(2), "both": sorted(both.elements()),
    "most_kb": most["KB-01"], "cb_after": demand["CB-05"], "total": demand.total(),
    "settings": dict(settings), "child": child["channel"], "team": team, "maps": len(child.maps),
    "lru": list(cache.data), "ring": list(ring), "recent": list(recent),
}
