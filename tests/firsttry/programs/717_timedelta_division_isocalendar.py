# description: Timedelta division and floor division, fromisocalendar week starts for orders
# value: {"rows": [{"id": "o-1004", "weeks": 8, "ratio": 1.93, "week_start": "2024-04-15", "mod_days": 2}, {"id": "o-1001", "weeks": 6, "ratio": 1.47, "week_start": "2024-04-29", "mod_days": 2}, {"id": "o-1002", "weeks": 0, "ratio": 0.17, "week_start": "2024-06-10", "mod_days": 5}, {"id": "o-1005", "weeks": 0, "ratio": 0.07, "week_start": "2024-06-10", "mod_days": 2}, {"id": "o-1003", "weeks": 0, "ratio": 0.03, "week_start": "2024-06-10", "mod_days": 1}], "span_h": 26.5, "span": "1 day, 2:30:00"}
from datetime import date, datetime, timedelta

orders = []
for cid in ["c1", "c2"]:
    orders += await tools.list_orders(customer_id=cid)
today = date(2024, 6, 15)
out = []
for o in sorted(orders, key=lambda o: o["created"]):
    created = date.fromisoformat(o["created"])
    age = today - created
    year, week, _ = created.isocalendar()
    out.append({
        "id": o["id"], "weeks": age // timedelta(weeks=1), "ratio": round(age / timedelta(days=30), 2),
        "week_start": date.fromisocalendar(year, week, 1).isoformat(),
        "mod_days": (age % timedelta(weeks=1)).days,
    })
span = datetime(2024, 6, 15, 12) - datetime(2024, 6, 14, 9, 30)
return {"rows": out, "span_h": span.total_seconds() / 3600, "span": str(span)}
