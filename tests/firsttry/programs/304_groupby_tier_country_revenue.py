# description: Group customers by tier and country and rank groups by revenue
# value: {"groups": [{"tier": "enterprise", "country": "UK", "customers": ["c1"], "revenue": 866.23}, {"tier": "enterprise", "country": "US", "customers": ["c6"], "revenue": 754.0}, {"tier": "pro", "country": "US", "customers": ["c4", "c2"], "revenue": 570.99}, {"tier": "free", "country": "NL", "customers": ["c5"], "revenue": 0}, {"tier": "free", "country": "UK", "customers": ["c3"], "revenue": 0}], "ranked": ["enterprise/UK", "enterprise/US", "pro/US", "free/NL", "free/UK"], "longest_names": ["Margaret Hamilton", "Katherine Johnson"]}
# logs: ["tier       cc   n    revenue", "enterprise UK   1     866.23", "enterprise US   1     754.00", "           \u03a3        1,620.23", "pro        US   2     570.99", "           \u03a3          570.99", "free       NL   1       0.00", "free       UK   1       0.00", "           \u03a3            0.00"]
from itertools import groupby
from operator import itemgetter

TIER_ORDER = {"enterprise": 0, "pro": 1, "free": 2}
rows = []
for c in await tools.list_customers():
    orders = await tools.list_orders(customer_id=c["id"])
    revenue = sum(o["total"] for o in orders if o["status"] != "cancelled")
    rows.append({"id": c["id"], "name": c["name"], "tier": c["tier"], "country": c["address"]["country"],
                 "revenue": round(revenue, 2), "orders": len(orders)})

rows.sort(key=lambda r: (TIER_ORDER[r["tier"]], r["country"], -r["revenue"]))
groups = []
for (tier, country), members in groupby(rows, key=itemgetter("tier", "country")):
    members = list(members)
    groups.append({"tier": tier, "country": country, "customers": [m["id"] for m in members],
                   "revenue": round(sum(m["revenue"] for m in members), 2)})

print(f"{'tier':<11}{'cc':<4}{'n':>2} {'revenue':>10}")
for tier, tier_groups in groupby(groups, key=itemgetter("tier")):
    tier_groups = list(tier_groups)
    for g in tier_groups:
        print(f"{g['tier']:<11}{g['country']:<4}{len(g['customers']):>2} {g['revenue']:>10,.2f}")
    print(f"{'':<11}{'Σ':<4}{'':>2} {sum(g['revenue'] for g in tier_groups):>10,.2f}")

ranked = sorted(groups, key=lambda g: (g["revenue"], g["tier"]), reverse=True)
by_name_len = sorted(rows, key=lambda r: (len(r["name"]), r["name"]), reverse=True)
return {"groups": groups, "ranked": [f"{g['tier']}/{g['country']}" for g in ranked],
        "longest_names": [r["name"] for r in by_name_len[:2]]}
