# description: Compute SLA deadlines in business days for pending orders
# value: [{"id": "o-1008", "due": "2024-06-14", "weekday": "Fri", "week": 24, "late": true, "days_left": -1}, {"id": "o-1005", "due": "2024-06-17", "weekday": "Mon", "week": 25, "late": false, "days_left": 2}, {"id": "o-1003", "due": "2024-06-18", "weekday": "Tue", "week": 25, "late": false, "days_left": 3}, {"id": "o-1010", "due": "2024-06-18", "weekday": "Tue", "week": 25, "late": false, "days_left": 3}]
from datetime import date, timedelta

def add_business_days(start: date, n: int) -> date:
    d = start
    while n > 0:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d

today = date.fromisoformat((await tools.current_time()).split("T")[0])
report = []
for cid in ("c1", "c2", "c4", "c6"):
    for o in await tools.list_orders(customer_id=cid, status="pending"):
        created = date.fromisoformat(o["created"])
        due = add_business_days(created, 2)
        iso = due.isocalendar()
        report.append({"id": o["id"], "due": due.isoformat(), "weekday": due.strftime("%a"), "week": iso.week, "late": due < today, "days_left": (due - today).days})
report.sort(key=lambda r: (r["due"], r["id"]))
return report
