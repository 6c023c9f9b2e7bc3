# description: Pivot order revenue by customer signup cohort (quarter) and order status
# value: {"cohorts": {"2019-Q2": ["c6"], "2020-Q4": ["c4"], "2021-Q1": ["c1"], "2022-Q3": ["c2"], "2023-Q1": ["c3"], "2023-Q3": ["c5"]}, "table": ["cohort      pending    shipped  delivered  cancelled      total", "---------------------------------------------------------------", "2019-Q2      268.00     447.00      39.00       0.00     754.00", "2020-Q4       97.50       0.00     357.99       0.00     455.49", "2021-Q1      188.00     559.98     118.25       0.00     866.23", "2022-Q3       70.50       0.00      45.00       0.00     115.50", "2023-Q1        0.00       0.00       0.00      89.00      89.00", "2023-Q3        0.00       0.00       0.00       0.00       0.00", "all          624.00   1,006.98     560.24      89.00   2,280.22"], "best": "2021-Q1", "delivered_share": "24.6%"}
# logs: ["cohort      pending    shipped  delivered  cancelled      total", "---------------------------------------------------------------", "2019-Q2      268.00     447.00      39.00       0.00     754.00", "2020-Q4       97.50       0.00     357.99       0.00     455.49", "2021-Q1      188.00     559.98     118.25       0.00     866.23", "2022-Q3       70.50       0.00      45.00       0.00     115.50", "2023-Q1        0.00       0.00       0.00      89.00      89.00", "2023-Q3        0.00       0.00       0.00       0.00       0.00", "all          624.00   1,006.98     560.24      89.00   2,280.22"]
import asyncio
from collections import defaultdict
from datetime import date
from decimal import Decimal

customers = await tools.list_customers()
order_lists = await asyncio.gather(*(tools.list_orders(customer_id=c["id"]) for c in customers))

def cohort(signup: str) -> str:
    d = date.fromisoformat(signup)
    return f"{d.year}-Q{(d.month - 1) // 3 + 1}"

statuses = ["pending", "shipped", "delivered", "cancelled"]
pivot: defaultdict[str, defaultdict[str, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
members: defaultdict[str, list[str]] = defaultdict(list)
for c, orders in zip(customers, order_lists):
    key = cohort(c["signup_date"])
    members[key].append(c["id"])
    for o in orders:
        pivot[key][o["status"]] += Decimal(str(o["total"]))

cohorts = sorted(members)
col = max(len(s) for s in statuses) + 2
header = f"{'cohort':<8}" + "".join(f"{s:>{col}}" for s in statuses) + f"{'total':>{col}}"
lines = [header, "-" * len(header)]
for key in cohorts:
    row = pivot[key]
    lines.append(f"{key:<8}" + "".join(f"{row[s]:>{col},.2f}" for s in statuses) + f"{sum(row.values(), Decimal()):>{col},.2f}")
totals = {s: sum((pivot[k][s] for k in cohorts), Decimal()) for s in statuses}
lines.append(f"{'all':<8}" + "".join(f"{totals[s]:>{col},.2f}" for s in statuses) + f"{sum(totals.values()):>{col},.2f}")
print("\n".join(lines))
return {
    "cohorts": {k: members[k] for k in cohorts},
    "table": lines,
    "best": max(cohorts, key=lambda k: sum(pivot[k].values())),
    "delivered_share": f"{totals['delivered'] / sum(totals.values()):.1%}",
}
