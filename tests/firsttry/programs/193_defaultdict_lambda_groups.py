# description: Group order revenue by month and status with defaultdict factories
# value: {"months": {"2024-01": {"orders": 1, "revenue": 39.0, "skus": ["HD-10"]}, "2024-02": {"orders": 1, "revenue": 357.99, "skus": ["HD-10", "MN-27"]}, "2024-03": {"orders": 1, "revenue": 89.0, "skus": ["KB-01"]}, "2024-04": {"orders": 1, "revenue": 45.0, "skus": ["LP-14"]}, "2024-05": {"orders": 1, "revenue": 118.25, "skus": ["CB-05", "KB-01"]}, "2024-06": {"orders": 6, "revenue": 1630.98, "skus": ["CB-05", "HD-10", "HS-07", "KB-01", "LP-14", "MN-27", "MS-02"]}}, "by_status": {"cancelled": ["o-1006"], "delivered": ["o-1001", "o-1004", "o-1007", "o-1011"], "pending": ["o-1003", "o-1005", "o-1008", "o-1010"], "shipped": ["o-1002", "o-1009"]}, "nested": {"enterprise": {"delivered": 2, "pending": 2, "shipped": 2}, "free": {"cancelled": 1}, "pro": {"delivered": 2, "pending": 2}}, "words": [["the", 3], ["and", 2], ["bat", 1], ["cat", 1], ["hat", 1]], "factory_name": "list", "get_no_insert": [null, false]}
from collections import defaultdict
from datetime import date

stats = defaultdict(lambda: {"orders": 0, "revenue": 0.0, "skus": set()})
by_status = defaultdict(list)
nested = defaultdict(lambda: defaultdict(int))
for c in await tools.list_customers():
    for o in await tools.list_orders(customer_id=c["id"]):
        month = date.fromisoformat(o["created"]).strftime("%Y-%m")
        s = stats[month]
        s["orders"] += 1
        s["revenue"] = round(s["revenue"] + o["total"], 2)
        s["skus"].update(l["sku"] for l in o["lines"])
        by_status[o["status"]].append(o["id"])
        nested[c["tier"]][o["status"]] += 1

counter = defaultdict(int)
for word in "the cat and the hat and the bat".split():
    counter[word] += 1
return {
    "months": {m: {**s, "skus": sorted(s["skus"])} for m, s in sorted(stats.items())},
    "by_status": dict(sorted(by_status.items())),
    "nested": {t: dict(sorted(v.items())) for t, v in sorted(nested.items())},
    "words": sorted(counter.items(), key=lambda kv: (-kv[1], kv[0])),
    "factory_name": by_status.default_factory.__name__,
    "get_no_insert": (stats.get("1999-01"), "1999-01" in stats),
}
