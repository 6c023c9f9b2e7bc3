# description: Measure how many business hours each open order has waited against its SLA
# value: {"now": "Saturday 09:30 UTC", "report": [{"order": "o-1008", "status": "pending", "hours": 22.5, "breached": true, "left": -6.5}, {"order": "o-1009", "status": "shipped", "hours": 42.5, "breached": true, "left": -2.5}, {"order": "o-1002", "status": "shipped", "hours": 39.5, "breached": false, "left": 0.5}, {"order": "o-1005", "status": "pending", "hours": 14.0, "breached": false, "left": 2.0}, {"order": "o-1003", "status": "pending", "hours": 5.5, "breached": false, "left": 10.5}, {"order": "o-1010", "status": "pending", "hours": 0.0, "breached": false, "left": 16.0}]}
# logs: ["o-1008 pending   22.50h BREACH", "o-1009 shipped   42.50h BREACH", "o-1002 shipped   39.50h ok", "o-1005 pending   14.00h ok", "o-1003 pending    5.50h ok", "o-1010 pending    0.00h ok"]
from datetime import datetime, time, timedelta, timezone

OPEN, CLOSE = time(9, 0), time(17, 30)
SLA_HOURS = {"pending": 16, "shipped": 40}

def business_hours(start: datetime, end: datetime) -> float:
    total = timedelta()
    day = start.date()
    while day <= end.date():
        if day.weekday() < 5:
            window_start = datetime.combine(day, OPEN, tzinfo=timezone.utc)
            window_end = datetime.combine(day, CLOSE, tzinfo=timezone.utc)
            lo, hi = max(start, window_start), min(end, window_end)
            if hi > lo:
                total += hi - lo
        day += timedelta(days=1)
    return total / timedelta(hours=1)

now = datetime.fromisoformat(await tools.current_time())
report = []
for c in await tools.list_customers():
    for o in await tools.list_orders(customer_id=c["id"]):
        if o["status"] not in SLA_HOURS:
            continue
        created = datetime.combine(datetime.fromisoformat(o["created"]).date(), time(12), tzinfo=timezone.utc)
        hours = business_hours(created, now)
        budget = SLA_HOURS[o["status"]]
        report.append({"order": o["id"], "status": o["status"], "hours": round(hours, 2),
                       "breached": hours > budget, "left": round(budget - hours, 2)})

report.sort(key=lambda r: (not r["breached"], r["left"]))
for r in report:
    flag = "BREACH" if r["breached"] else "ok"
    print(f"{r['order']} {r['status']:<8} {r['hours']:6.2f}h {flag}")
return {"now": f"{now:%A %H:%M %Z}", "report": report}
