# description: Rank customers and order lines with complex sort keys, itemgetter and attrgetter (dotted paths)
# value: {"by_tier_then_name": ["c6", "c1", "c2", "c4", "c5", "c3"], "by_city": ["c5", "c1", "c3", "c2", "c6", "c4"], "pairs": [["c1", "enterprise"], ["c2", "pro"], ["c3", "free"]], "top": [["o-1002", "MN-27", 559.98], ["o-1009", "HS-07", 447.0], ["o-1007", "MN-27", 279.99], ["o-1010", "KB-01", 178.0]], "multi": [["CB-05", 10], ["CB-05", 3], ["HS-07", 3], ["CB-05", 2], ["HD-10", 2]], "stable_head": [["CB-05", "o-1001"], ["CB-05", "o-1005"], ["CB-05", "o-1008"], ["HD-10", "o-1003"], ["HD-10", "o-1007"]], "upper": ["A", "BC"], "replaced": ["KB_01", "MN_27"], "min_vip": "c1"}
from operator import itemgetter, attrgetter, methodcaller
from types import SimpleNamespace

TIER_RANK = {"enterprise": 0, "pro": 1, "free": 2}
customers = await tools.list_customers()
people = [SimpleNamespace(id=c["id"], name=c["name"], tier=c["tier"],
                          address=SimpleNamespace(**c["address"]), tags=c["tags"]) for c in customers]

by_tier_then_name = [p.id for p in sorted(people, key=lambda p: (TIER_RANK[p.tier], p.name.split()[-1]))]
by_city = [p.id for p in sorted(people, key=attrgetter("address.country", "address.city"))]
get_pair = attrgetter("id", "tier")
pairs = [get_pair(p) for p in people[:3]]

lines = []
for p in people:
    for o in await tools.list_orders(customer_id=p.id):
        for l in o["lines"]:
            lines.append({"order": o["id"], "sku": l["sku"], "qty": l["quantity"], "value": l["quantity"] * l["unit_price"]})

top_lines = sorted(lines, key=itemgetter("value"), reverse=True)[:4]
multi = sorted(lines, key=lambda l: (-l["qty"], l["sku"], l["order"]))[:5]
stable = sorted(sorted(lines, key=itemgetter("order")), key=itemgetter("sku"))
sku_of = itemgetter("sku", "qty")
upper = list(map(methodcaller("upper"), ["a", "bc"]))
replaced = list(map(methodcaller("replace", "-", "_"), ["KB-01", "MN-27"]))
return {
    "by_tier_then_name": by_tier_then_name,
    "by_city": by_city,
    "pairs": pairs,
    "top": [(l["order"], l["sku"], round(l["value"], 2)) for l in top_lines],
    "multi": [sku_of(l) for l in multi],
    "stable_head": [(l["sku"], l["order"]) for l in stable[:5]],
    "upper": upper,
    "replaced": replaced,
    "min_vip": min((p for p in people if "vip" in p.tags), key=attrgetter("name")).id,
}
