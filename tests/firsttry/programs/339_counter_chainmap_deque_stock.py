# description: Compare ordered quantities against stock with Counter arithmetic, layered settings and a rotating on-call deque
# value: {"ordered": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "KB-01": 2, "LP-14": 2, "MS-02": 2}, "shortfall": {"MS-02": 2}, "leftover_total": 176, "both": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "KB-01": 2, "LP-14": 2}, "union_top": [["CB-05", 120], ["HD-10", 42]], "subtracted": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "KB-01": -3, "LP-14": 2, "MS-02": 2, "XX-99": -1}, "positive_only": {"CB-05": 12, "HD-10": 1, "HS-07": 1, "LP-14": 2, "MS-02": 2}, "elements": ["a", "a", "b"], "subset": true, "settings": {"currency": "EUR", "threshold": 3, "channel": "sms"}, "child": ["USD", "sms", "EUR", 4], "schedule": ["ana", "ben", "chi", "dev", "ana", "ben"], "rota": ["ana", "ben", "y", "x", "chi", "dev"]}
# logs: ["shortfall={'MS-02': 2}", "low stock=['MS-02']"]
from collections import ChainMap, Counter, deque

ordered = Counter()
for cid in ("c1", "c2", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid, status="pending"):
        for line in o["lines"]:
            ordered[line["sku"]] += line["quantity"]

stock = Counter({p["sku"]: p["in_stock"] for p in await tools.list_products()})
shortfall = ordered - stock
leftover = stock - ordered
both = ordered & stock
union = ordered | stock
ordered_copy = ordered.copy()
ordered_copy.subtract({"KB-01": 5, "XX-99": 1})

defaults = {"currency": "EUR", "threshold": 5, "channel": "email"}
team = {"threshold": 3}
run = {"channel": "sms"}
settings = ChainMap(run, team, defaults)
child = settings.new_child({"currency": "USD"})

rota = deque(["ana", "ben", "chi", "dev"])
schedule = []
for day in range(6):
    schedule.append(rota[0])
    rota.rotate(-1)
rota.extendleft(["x", "y"])
rota.rotate(2)

print(f"shortfall={dict(shortfall)}")
print(f"low stock={sorted(k for k, v in stock.items() if v < settings['threshold'])}")
return {
    "ordered": dict(sorted(ordered.items())),
    "shortfall": dict(shortfall),
    "leftover_total": leftover.total(),
    "both": dict(sorted(both.items())),
    "union_top": union.most_common(2),
    "subtracted": {k: v for k, v in sorted(ordered_copy.items())},
    "positive_only": dict(sorted((+ordered_copy).items())),
    "elements": sorted(Counter(a=2, b=1).elements()),
    "subset": Counter(a=1) <= Counter(a=2, b=1),
    "settings": dict(settings),
    "child": [child["currency"], child["channel"], child.parents["currency"], len(child.maps)],
    "schedule": schedule,
    "rota": list(rota),
}
