# description: Accumulate totals in a defaultdict and an OrderedDict and return them directly
# value: {"ranked": {"shipped": 1006.98, "pending": 624.0, "delivered": 560.24}, "by_status": {"delivered": 560.24, "shipped": 1006.98, "pending": 624.0}, "skus": {"KB-01": 2, "CB-05": 3, "MN-27": 2, "HS-07": 2, "HD-10": 3, "LP-14": 2, "MS-02": 1}}
from collections import defaultdict, OrderedDict, Counter

orders = []
for cid in ["c1", "c2", "c4", "c6"]:
    orders += await tools.list_orders(customer_id=cid)
by_status = defaultdict(float)
for o in orders:
    by_status[o["status"]] += o["total"]
ranked = OrderedDict(sorted(((k, round(v, 2)) for k, v in by_status.items()), key=lambda kv: -kv[1]))
skus = Counter(line["sku"] for o in orders for line in o["lines"])
return {"ranked": ranked, "by_status": by_status, "skus": skus}
