# description: Compare customers' product sets with set algebra and group identical baskets under frozenset keys
# value: {"never_sold": [], "everyone": [], "anyone": 7, "sym": ["CB-05", "LP-14", "MN-27"], "sym_method": ["CB-05", "LP-14", "MN-27"], "sub": true, "issubset": true, "superset": true, "disjoint": true, "groups": [["c1"], ["c2"], ["c4"], ["c6"]], "frozen_hash_eq": true, "proper": true, "difference_update": ["MS-02"]}
customers = ["c1", "c2", "c4", "c6"]
baskets = {}
for cid in customers:
    skus = set()
    for order in await tools.list_orders(customer_id=cid):
        skus |= {line["sku"] for line in order["lines"]}
    baskets[cid] = frozenset(skus)
catalogue = {p["sku"] for p in await tools.list_products()}
everyone = frozenset.intersection(*baskets.values())
anyone = set().union(*baskets.values())
groups = {}
for cid, basket in baskets.items():
    groups.setdefault(basket, []).append(cid)
a, b = baskets["c1"], baskets["c6"]
return {
    "never_sold": sorted(catalogue - anyone), "everyone": sorted(everyone), "anyone": len(anyone),
    "sym": sorted(a ^ b), "sym_method": sorted(a.symmetric_difference(b)), "sub": a <= catalogue,
    "issubset": {"KB-01"}.issubset(a), "superset": a.issuperset({"KB-01", "CB-05"}), "disjoint": a.isdisjoint({"MS-02"}),
    "groups": sorted(sorted(v) for v in groups.values()), "frozen_hash_eq": hash(frozenset("ab")) == hash(frozenset("ba")),
    "proper": {"KB-01"} < a, "difference_update": sorted(set(catalogue).difference(a, b)),
}
