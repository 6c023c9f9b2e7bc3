# description: Reconcile ordered vs stocked units with Counter arithmetic, defaultdict, deque, ChainMap and OrderedDict
# value: {"shortfall": {"MS-02": 2}, "surplus_top": [["CB-05", 108], ["HD-10", 41]], "overlap_total": 23, "union_keys": ["CB-05", "HD-10", "HS-07", "KB-01", "LP-14", "MN-27", "MS-02"], "demand_after": {"CB-05": 12, "HD-10": 1, "HS-07": 4, "KB-01": 1, "LP-14": 2, "MN-27": 2, "MS-02": 2}, "positive": {"MN-27": 2, "HS-07": 4, "HD-10": 1, "MS-02": 2, "CB-05": 12, "LP-14": 2, "KB-01": 1}, "by_status": {"delivered": ["o-1001", "o-1004", "o-1007", "o-1011"], "shipped": ["o-1002", "o-1009"], "pending": ["o-1003", "o-1005", "o-1008", "o-1010"], "cancelled": ["o-1006"]}, "recent": ["o-1008", "o-1009", "o-1010", "o-1011"], "settings": {"currency": "EUR", "threshold": 3, "channel": "sms"}, "child_currency": "GBP", "maps": 4, "lru": [["MN-27", 1], ["KB-01", 2], ["CB-05", 1]], "elements": ["a", "a", "b"]}
from collections import Counter, defaultdict, deque, ChainMap, OrderedDict

customers = await tools.list_customers()
demand = Counter()
by_status = defaultdict(list)
recent = deque(maxlen=4)
for c in customers:
    for o in await tools.list_orders(customer_id=c["id"]):
        by_status[o["status"]].append(o["id"])
        recent.append(o["id"])
        if o["status"] in ("pending", "shipped"):
            for line in o["lines"]:
                demand[line["sku"]] += line["quantity"]

supply = Counter({p["sku"]: p["in_stock"] for p in await tools.list_products()})
shortfall = demand - supply
surplus = supply - demand
overlap = demand & supply
union = demand | supply
demand.subtract({"KB-01": 1})

defaults = {"currency": "EUR", "threshold": 5, "channel": "email"}
team = {"threshold": 3}
override = {"channel": "sms"}
settings = ChainMap(override, team, defaults)
child = settings.new_child({"currency": "GBP"})

lru = OrderedDict()
for sku in ["KB-01", "MN-27", "HD-10", "KB-01", "CB-05", "MN-27"]:
    lru[sku] = lru.get(sku, 0) + 1
    lru.move_to_end(sku)
    if len(lru) > 3:
        lru.popitem(last=False)
lru.move_to_end("MN-27", last=False)

return {
    "shortfall": dict(shortfall),
    "surplus_top": surplus.most_common(2),
    "overlap_total": overlap.total(),
    "union_keys": sorted(union),
    "demand_after": dict(sorted(demand.items())),
    "positive": dict(+demand),
    "by_status": dict(by_status),
    "recent": list(recent),
    "settings": dict(settings),
    "child_currency": child["currency"],
    "maps": len(child.maps),
    "lru": list(lru.items()),
    "elements": sorted(Counter(a=2, b=1).elements()),
}
