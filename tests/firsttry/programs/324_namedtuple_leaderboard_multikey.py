# description: Rank customers on a leaderboard by several criteria with ties broken consistently
# value: {"spend": ["Ada Lovelace", "Margaret Hamilton", "Katherine Johnson", "Grace Hopper", "Edsger Dijkstra", "Alan Turing"], "orders": ["Margaret Hamilton", "Ada Lovelace", "Katherine Johnson", "Grace Hopper", "Alan Turing", "Edsger Dijkstra"], "by_tier": [["enterprise", "Ada Lovelace"], ["enterprise", "Margaret Hamilton"], ["free", "Alan Turing"], ["free", "Edsger Dijkstra"], ["pro", "Grace Hopper"], ["pro", "Katherine Johnson"]], "medals": {"gold": "Lovelace", "silver": "Hamilton", "bronze": "Johnson"}, "fields": ["name", "tier", "spend", "orders", "since"], "as_dict_keys": ["name", "tier", "spend", "orders", "since"], "oldest": "Margaret Hamilton"}
# logs: [" # name                   spend  n      since", " 1 Ada Lovelace          866.23  3 2021-03", " 2 Margaret Hamilton     754.00  3 2019-05", " 3 Katherine Johnson     455.49  2 2020-11", " 4 Grace Hopper          115.50  2 2022-07", " 5 Edsger Dijkstra         0.00  0 2023-09", " 6 Alan Turing             0.00  0 2023-01"]
from typing import NamedTuple
from operator import attrgetter
from datetime import date

class Entry(NamedTuple):
    name: str
    tier: str
    spend: float
    orders: int
    since: date

    def tenure_days(self, today: date) -> int:
        return (today - self.since).days

today = date.fromisoformat((await tools.current_time())[:10])
entries = []
for c in await tools.list_customers():
    os_ = [o for o in await tools.list_orders(customer_id=c["id"]) if o["status"] != "cancelled"]
    entries.append(Entry(c["name"], c["tier"], round(sum(o["total"] for o in os_), 2), len(os_), date.fromisoformat(c["signup_date"])))

by_spend = sorted(entries, key=attrgetter("spend", "name"), reverse=True)
by_orders_then_tenure = sorted(entries, key=lambda e: (-e.orders, -e.tenure_days(today), e.name))
stable = sorted(sorted(entries, key=attrgetter("name")), key=attrgetter("tier"))

print(f"{'#':>2} {'name':<18} {'spend':>9} {'n':>2} {'since':>10}")
for rank, e in enumerate(by_spend, 1):
    print(f"{rank:>2} {e.name:<18} {e.spend:>9.2f} {e.orders:>2} {e.since:%Y-%m}")
medals = dict(zip(("gold", "silver", "bronze"), (e.name.split()[-1] for e in by_spend)))
return {"spend": [e.name for e in by_spend], "orders": [e.name for e in by_orders_then_tenure],
        "by_tier": [(e.tier, e.name) for e in stable], "medals": medals,
        "fields": list(Entry._fields), "as_dict_keys": list(by_spend[0]._asdict()), "oldest": min(entries, key=attrgetter("since")).name}
