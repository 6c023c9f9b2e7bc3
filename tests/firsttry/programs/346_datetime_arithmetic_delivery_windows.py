# description: Compute order ages, delivery windows and customer tenure with datetime arithmetic
# value: {"rows": [{"id": "o-1001", "age_days": 44, "age_hours": 1065.5, "weeks": 6, "eta": "2024-05-07", "eta_day": "Tue", "late": false}, {"id": "o-1002", "age_days": 5, "age_hours": 129.5, "weeks": 0, "eta": "2024-06-17", "eta_day": "Mon", "late": false}, {"id": "o-1003", "age_days": 1, "age_hours": 33.5, "weeks": 0, "eta": "2024-06-19", "eta_day": "Wed", "late": false}, {"id": "o-1004", "age_days": 58, "age_hours": 1401.5, "weeks": 8, "eta": "2024-04-23", "eta_day": "Tue", "late": false}, {"id": "o-1005", "age_days": 2, "age_hours": 57.5, "weeks": 0, "eta": "2024-06-18", "eta_day": "Tue", "late": false}, {"id": "o-1007", "age_days": 125, "age_hours": 3009.5, "weeks": 17, "eta": "2024-02-16", "eta_day": "Fri", "late": false}, {"id": "o-1008", "age_days": 3, "age_hours": 81.5, "weeks": 0, "eta": "2024-06-17", "eta_day": "Mon", "late": false}, {"id": "o-1009", "age_days": 7, "age_hours": 177.5, "weeks": 1, "eta": "2024-06-13", "eta_day": "Thu", "late": true}, {"id": "o-1010", "age_days": 0, "age_hours": 9.5, "weeks": 0, "eta": "2024-06-20", "eta_day": "Thu", "late": false}, {"id": "o-1011", "age_days": 162, "age_hours": 3897.5, "weeks": 23, "eta": "2024-01-10", "eta_day": "Wed", "late": false}], "tenure_days": 512, "tenure_years": 1.4, "local": "2024-06-15T04:30:00-05:00", "tzname": "EST", "utcoffset_h": -5.0, "remaining": "8:00:00", "remaining_s": 28800.0, "month_start": "2024-06-01T00:00+00:00", "iso_week": [2024, 24, 6], "weekday": "Saturday 167", "ordinal_delta": 193, "mod": "2:00:00", "neg": "-1 day, 21:00:00", "naive_vs_aware": "2024-06-15 09:30:00", "parsed": "2024-06-15T09:30:00"}
# logs: ["10 orders; 1 late"]
from datetime import date, datetime, time, timedelta, timezone

now = datetime.fromisoformat(await tools.current_time())
orders = []
for cid in ("c1", "c2", "c4", "c6"):
    orders.extend(await tools.list_orders(customer_id=cid))

rows = []
for o in orders:
    created = datetime.strptime(o["created"], "%Y-%m-%d").replace(tzinfo=timezone.utc)
    age = now - created
    eta = created + timedelta(days=5)
    while eta.weekday() >= 5:
        eta += timedelta(days=1)
    rows.append({
        "id": o["id"],
        "age_days": age.days,
        "age_hours": round(age / timedelta(hours=1), 1),
        "weeks": age // timedelta(weeks=1),
        "eta": eta.date().isoformat(),
        "eta_day": eta.strftime("%a"),
        "late": o["status"] != "delivered" and eta < now,
    })

customer = await tools.get_customer(customer_id="c3")
since = date.fromisoformat(customer["signup_date"])
tenure = now.date() - since
est = timezone(timedelta(hours=-5), "EST")
local = now.astimezone(est)
cutoff = datetime.combine(now.date(), time(17, 30), tzinfo=timezone.utc)
remaining = cutoff - now
month_start = now.replace(day=1, hour=0, minute=0, second=0)
print(f"{len(rows)} orders; {sum(r['late'] for r in rows)} late")
return {
    "rows": rows,
    "tenure_days": tenure.days,
    "tenure_years": round(tenure.days / 365.25, 2),
    "local": local.isoformat(),
    "tzname": local.tzname(),
    "utcoffset_h": local.utcoffset() / timedelta(hours=1),
    "remaining": str(remaining),
    "remaining_s": remaining.total_seconds(),
    "month_start": month_start.isoformat(timespec="minutes"),
    "iso_week": list(now.isocalendar()),
    "weekday": now.strftime("%A %j"),
    "ordinal_delta": (date(2024, 12, 25) - now.date()).days,
    "mod": str(timedelta(hours=50) % timedelta(days=1)),
    "neg": str(timedelta(hours=-3)),
    "naive_vs_aware": now.replace(tzinfo=None).isoformat(sep=" "),
    "parsed": datetime.strptime("15/06/2024 09:30", "%d/%m/%Y %H:%M").isoformat(),
}
