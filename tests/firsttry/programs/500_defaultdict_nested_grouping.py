# description: Group orders by customer tier then status with nested defaultdicts of lists and sets
# value: {"tree": {"enterprise": {"delivered": ["o-1001", "o-1011"], "pending": ["o-1003", "o-1010"], "shipped": ["o-1002", "o-1009"]}, "free": {"cancelled": ["o-1006"]}, "pro": {"delivered": ["o-1004", "o-1007"], "pending": ["o-1005", "o-1008"]}}, "skus": {"UK": ["CB-05", "HD-10", "HS-07", "KB-01", "MN-27"], "US": ["CB-05", "HD-10", "HS-07", "KB-01", "LP-14", "MN-27", "MS-02"]}, "totals": {"enterprise": 1620.23, "free": 89.0, "pro": 570.99}, "missing": [], "has_nobody": true, "factory_is_list": true}
from collections import defaultdict

customers = await tools.list_customers()
tree = defaultdict(lambda: defaultdict(list))
skus_by_country = defaultdict(set)
totals = defaultdict(float)
for c in customers:
    for order in await tools.list_orders(customer_id=c["id"]):
        tree[c["tier"]][order["status"]].append(order["id"])
        totals[c["tier"]] += order["total"]
        for line in order["lines"]:
            skus_by_country[c["address"]["country"]].add(line["sku"])
plain = {tier: {status: ids for status, ids in sorted(by_status.items())} for tier, by_status in sorted(tree.items())}
missing = tree["nobody"]["pending"]
return {
    "tree": plain, "skus": {k: sorted(v) for k, v in sorted(skus_by_country.items())},
    "totals": {k: round(v, 2) for k, v in sorted(totals.items())}, "missing": missing,
    "has_nobody": "nobody" in tree, "factory_is_list": tree["free"].default_factory is list,
}
