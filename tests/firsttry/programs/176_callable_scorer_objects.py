# description: Rank pending orders for expediting with callable scoring objects
# value: {"ranked": [["o-1008", 16.95], ["o-1010", 14.04], ["o-1003", 8.64], ["o-1005", 7.41]], "big": ["o-1010", "o-1003"], "best": "o-1008", "filter": "MinTotal(100)", "scorer_calls": 12, "callable": [true, true, false], "collected": ["o-1010", "o-1003"]}
class Scorer:
    def __init__(self, tier_weights, per_item=1.5):
        self.tier_weights = tier_weights
        self.per_item = per_item
        self.calls = 0

    def __call__(self, order):
        self.calls += 1
        items = sum(line["quantity"] for line in order["lines"])
        return round(order["total"] / 100 * self.tier_weights.get(order["tier"], 1) + items * self.per_item, 3)


class MinTotal:
    def __init__(self, threshold):
        self.threshold = threshold

    def __call__(self, order):
        return order["total"] >= self.threshold

    def __repr__(self):
        return f"MinTotal({self.threshold})"


class Collector:
    def __init__(self):
        self.seen = []

    def __call__(self, item):
        self.seen.append(item)
        return item


customers = {c["id"]: c for c in await tools.list_customers()}
pending = []
for cid, c in customers.items():
    for o in await tools.list_orders(customer_id=cid, status="pending"):
        pending.append({**o, "tier": c["tier"]})

scorer = Scorer({"enterprise": 3, "pro": 2})
ranked = sorted(pending, key=scorer, reverse=True)
big = list(filter(MinTotal(100), ranked))
collect = Collector()
ids = list(map(collect, (o["id"] for o in big)))
best = max(pending, key=scorer)
return {
    "ranked": [(o["id"], scorer(o)) for o in ranked],
    "big": ids,
    "best": best["id"],
    "filter": repr(MinTotal(100)),
    "scorer_calls": scorer.calls,
    "callable": [callable(scorer), callable(collect), callable(best)],
    "collected": collect.seen,
}
