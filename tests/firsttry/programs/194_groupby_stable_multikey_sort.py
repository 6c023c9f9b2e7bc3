# description: Report orders grouped by customer tier and status with stable multi-key sorting
# value: {"report": [{"tier": "enterprise", "n": 6, "statuses": {"delivered": ["o-1001", "o-1011"], "pending": ["o-1010", "o-1003"], "shipped": ["o-1002", "o-1009"]}}, {"tier": "pro", "n": 4, "statuses": {"delivered": ["o-1007", "o-1004"], "pending": ["o-1008", "o-1005"]}}, {"tier": "free", "n": 1, "statuses": {"cancelled": ["o-1006"]}}], "runs": [["a", 3], ["b", 1], ["c", 2], ["d", 4], ["a", 1], ["e", 1]], "same": true, "newest_first": ["o-1002", "o-1009", "o-1010", "o-1003"], "by_attr": ["CB-05", "HD-10", "LP-14", "HS-07", "MN-27", "MS-02", "KB-01"]}
from itertools import groupby
from operator import itemgetter, attrgetter

customers = {c["id"]: c for c in await tools.list_customers()}
rows = []
for cid in customers:
    for o in await tools.list_orders(customer_id=cid):
        rows.append({"id": o["id"], "tier": customers[cid]["tier"], "status": o["status"], "total": o["total"], "created": o["created"]})

# sort by total descending, then stably by status, then tier: tier is primary
rows.sort(key=itemgetter("total"), reverse=True)
rows.sort(key=itemgetter("status"))
rows.sort(key=lambda r: ["enterprise", "pro", "free"].index(r["tier"]))
report = []
for tier, tier_rows in groupby(rows, key=itemgetter("tier")):
    tier_rows = list(tier_rows)
    statuses = {status: [r["id"] for r in grp] for status, grp in groupby(tier_rows, key=itemgetter("status"))}
    report.append({"tier": tier, "n": len(tier_rows), "statuses": statuses})

runs = [(k, len(list(g))) for k, g in groupby("aaabccddddae")]
same = sorted(rows, key=itemgetter("tier", "status")) == sorted(rows, key=lambda r: (r["tier"], r["status"]))
newest_first = [r["id"] for r in sorted(rows, key=lambda r: (r["status"], r["created"]), reverse=True)][:4]
products = await tools.list_products()


class P:
    def __init__(self, d):
        self.category, self.price, self.sku = d["category"], d["price"], d["sku"]


by_attr = [p.sku for p in sorted(map(P, products), key=attrgetter("category", "price"))]
return {"report": report, "runs": runs, "same": same, "newest_first": newest_first, "by_attr": by_attr}
