# description: Work out restock needs from pending order demand with Counter arithmetic
# value: {"demand": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "KB-01": 2, "LP-14": 2, "MS-02": 2}, "shortfall": {"MS-02": 2}, "surplus_top": [["CB-05", 108], ["HD-10", 41]], "negative": {"MS-02": -2}, "after_plus": {"CB-05": 108, "HD-10": 41, "HS-07": 8, "KB-01": 12, "LP-14": 1, "MN-27": 6}, "after_minus": {"MS-02": 2}, "both": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "KB-01": 2, "LP-14": 2}, "either_kb": 14, "total_demand": 20, "combined_kb": 3, "missing_is_zero": 0, "lt": true}
# logs: ["MS-02,MS-02"]
from collections import Counter

products = await tools.list_products()
stock = Counter({p["sku"]: p["in_stock"] for p in products})
demand = Counter()
for c in await tools.list_customers():
    for o in await tools.list_orders(customer_id=c["id"], status="pending"):
        for line in o["lines"]:
            demand[line["sku"]] += line["quantity"]

shortfall = demand - stock
surplus = stock - demand
left = stock.copy()
left.subtract(demand)
negative = {k: v for k, v in left.items() if v < 0}
combined = demand + Counter({"KB-01": 1})
print(*sorted(shortfall.elements()), sep=",")
return {
    "demand": dict(sorted(demand.items())),
    "shortfall": dict(shortfall),
    "surplus_top": surplus.most_common(2),
    "negative": negative,
    "after_plus": dict(sorted((+left).items())),
    "after_minus": dict(-left),
    "both": dict(sorted((demand & stock).items())),
    "either_kb": (demand | stock)["KB-01"],
    "total_demand": demand.total(),
    "combined_kb": combined["KB-01"],
    "missing_is_zero": demand["nope"],
    "lt": Counter(a=1) <= Counter(a=2, b=1),
}
