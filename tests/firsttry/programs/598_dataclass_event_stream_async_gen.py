# description: Stream all audit events through an async generator into dataclass aggregates
# value: {"total": 47, "kinds": {"purchase": 14, "login": 13, "logout": 7, "error": 7, "refund": 6}, "revenue": 1363.86, "customers": ["c1", "c2", "c3", "c4", "c5", "c6"]}
from dataclasses import dataclass, field, asdict
from collections import Counter
from typing import AsyncIterator

@dataclass
class Stats:
    total: int = 0
    kinds: Counter = field(default_factory=Counter)
    revenue: float = 0.0
    customers: set[str] = field(default_factory=set)

async def events(page_size: int = 20) -> AsyncIterator[dict]:
    cursor = None
    while True:
        page = await tools.list_events(cursor=cursor, page_size=page_size)
        for e in page["items"]:
            yield e
        if not (cursor := page["next_cursor"]):
            break

stats = Stats()
async for e in events():
    stats.total += 1
    stats.kinds[e["kind"]] += 1
    if e["kind"] == "purchase":
        stats.revenue += e["amount"]
    stats.customers.add(e["customer_id"])
out = asdict(stats)
out["kinds"] = dict(stats.kinds.most_common())
out["customers"] = sorted(stats.customers)
out["revenue"] = round(stats.revenue, 2)
return out
