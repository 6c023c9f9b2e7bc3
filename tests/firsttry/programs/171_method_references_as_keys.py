# description: Use bound and unbound methods as key functions
# value: {"top": "c1", "ranked": ["c1", "c4", "c2", "c3"], "upper": ["A", "B"], "most_tagged": "vip", "names": ["Ada Lovelace", "Alan Turing", "Edsger Dijkstra", "Grace Hopper", "Katherine Johnson", "Margaret Hamilton"], "lens": ["Alan Turing", "Ada Lovelace"], "fromkeys": {"x": 0, "y": 0}, "stripped": ["a", "b"]}
from collections import Counter

customers = await tools.list_customers()
orders = []
for c in customers[:4]:
    orders += await tools.list_orders(customer_id=c["id"])
spend = {}
for o in orders:
    spend[o["customer_id"]] = spend.get(o["customer_id"], 0) + o["total"]
top = max(spend, key=spend.get)
tags = Counter(t for c in customers for t in c["tags"])
names = sorted((c["name"] for c in customers), key=str.lower)
return {
    "top": top,
    "ranked": sorted(spend, key=spend.get, reverse=True),
    "upper": list(map(str.upper, ["a", "b"])),
    "most_tagged": max(tags, key=tags.get),
    "names": names,
    "lens": sorted(names, key=len)[:2],
    "fromkeys": dict.fromkeys(["x", "y"], 0),
    "stripped": list(map(str.strip, [" a ", "b "])),
}
