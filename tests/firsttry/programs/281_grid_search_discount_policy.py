# description: Grid-search a discount policy over past orders and pick the best trade-off
# value: {"tried": 36, "affordable": 13, "best": {"threshold": 50, "rate": 0.05, "tiers": "enterprise+pro", "cost": 105.36, "reach": 4, "score": 294.64}, "mean_cost": 162.78}
# logs: [" thr  rate tiers                      cost reach    score", "  50    5% enterprise+pro           105.36     4   294.64", "  50    5% enterprise+pro+free      105.36     4   294.64", " 300    5% enterprise+pro            68.25     3   231.75", " 300    5% enterprise+pro+free       68.25     3   231.75"]
import itertools
from statistics import fmean

orders = []
for c in await tools.list_customers():
    orders += [{**o, "tier": c["tier"]} for o in await tools.list_orders(customer_id=c["id"])]
orders = [o for o in orders if o["status"] != "cancelled"]

thresholds = [50, 100, 200, 300]
rates = [0.05, 0.10, 0.15]
tiers_options = [("enterprise",), ("enterprise", "pro"), ("enterprise", "pro", "free")]

def evaluate(threshold: int, rate: float, tiers: tuple[str, ...]) -> dict:
    eligible = [o for o in orders if o["total"] >= threshold and o["tier"] in tiers]
    cost = sum(o["total"] * rate for o in eligible)
    reach = len({o["customer_id"] for o in eligible})
    return {"threshold": threshold, "rate": rate, "tiers": "+".join(tiers), "cost": round(cost, 2),
            "reach": reach, "score": round(reach * 100 - cost, 2)}

results = [evaluate(*combo) for combo in itertools.product(thresholds, rates, tiers_options)]
affordable = [r for r in results if r["cost"] <= 120]
best = max(affordable, key=lambda r: (r["score"], -r["cost"], r["threshold"]))
top = sorted(affordable, key=lambda r: (-r["score"], r["cost"]))[:4]
print(f"{'thr':>4} {'rate':>5} {'tiers':<22} {'cost':>8} {'reach':>5} {'score':>8}")
for r in top:
    print(f"{r['threshold']:>4} {r['rate']:>5.0%} {r['tiers']:<22} {r['cost']:>8.2f} {r['reach']:>5} {r['score']:>8.2f}")
return {"tried": len(results), "affordable": len(affordable), "best": best,
        "mean_cost": round(fmean(r["cost"] for r in results), 2)}
