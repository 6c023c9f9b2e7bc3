# description: Keep a sorted list of orders by total and bucket them
# value: {"buckets": {"small": ["o-1011", "o-1004"], "medium": ["o-1005", "o-1006", "o-1008"], "large": ["o-1001", "o-1003", "o-1010"], "huge": ["o-1007", "o-1009", "o-1002"]}, "below_100": 5, "cheapest": {"id": "o-1011", "total": 39.0}, "dearest": {"id": "o-1002", "total": 559.98}}
import bisect

customers = await tools.list_customers()
ranked: list[dict] = []
for c in customers:
    for o in await tools.list_orders(customer_id=c["id"]):
        bisect.insort(ranked, {"id": o["id"], "total": o["total"]}, key=lambda r: r["total"])

totals = [r["total"] for r in ranked]
thresholds = [50, 100, 300]
labels = ["small", "medium", "large", "huge"]
buckets = {label: [] for label in labels}
for r in ranked:
    buckets[labels[bisect.bisect_right(thresholds, r["total"])]].append(r["id"])
median_pos = bisect.bisect_left(totals, 100)
return {"buckets": buckets, "below_100": median_pos, "cheapest": ranked[0], "dearest": ranked[-1]}
