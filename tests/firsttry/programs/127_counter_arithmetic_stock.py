# description: Compare ordered quantities with stock using Counter arithmetic
# value: {"demand_total": 21, "shortfall": {"MS-02": 2}, "surplus_top": [["CB-05", 108], ["HD-10", 41]], "covered": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "KB-01": 2, "LP-14": 2}, "elements": ["x", "x", "y"], "union": {"a": 2, "b": 3}}
from collections import Counter
import asyncio

customers = await tools.list_customers()
order_lists = await asyncio.gather(*(tools.list_orders(customer_id=c["id"], status="pending") for c in customers))
demand = Counter()
for orders in order_lists:
    for o in orders:
        for line in o["lines"]:
            demand[line["sku"]] += line["quantity"]

products = await tools.list_products()
stock = Counter({p["sku"]: p["in_stock"] for p in products})
shortfall = demand - stock
surplus = stock - demand
both = demand & stock
demand.update({"KB-01": 1})
return {
    "demand_total": demand.total(),
    "shortfall": dict(shortfall),
    "surplus_top": surplus.most_common(2),
    "covered": dict(sorted(both.items())),
    "elements": sorted(Counter({"x": 2, "y": 1}).elements()),
    "union": dict(Counter(a=1, b=3) | Counter(a=2)),
}
