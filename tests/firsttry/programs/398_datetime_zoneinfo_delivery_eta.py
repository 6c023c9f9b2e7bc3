# description: Compute delivery ETAs in customers' local time zones with zoneinfo and timedelta arithmetic
# limitation: the zoneinfo module is not available in run_code (no time zone database; fixed offsets with datetime.timezone work)
# value: [{"order": "o-1003", "local_now": "2024-06-15 10:30 BST", "offset_h": 1.0, "eta": "2024-06-21", "eta_weekday": "Friday", "hours_left": 150.5, "eta_utc": "2024-06-21T16:00:00+00:00"}, {"order": "o-1005", "local_now": "2024-06-15 05:30 EDT", "offset_h": -4.0, "eta": "2024-06-20", "eta_weekday": "Thursday", "hours_left": 131.5, "eta_utc": "2024-06-20T21:00:00+00:00"}, {"order": "o-1008", "local_now": "2024-06-15 05:30 EDT", "offset_h": -4.0, "eta": "2024-06-19", "eta_weekday": "Wednesday", "hours_left": 107.5, "eta_utc": "2024-06-19T21:00:00+00:00"}, {"order": "o-1010", "local_now": "2024-06-15 05:30 EDT", "offset_h": -4.0, "eta": "2024-06-21", "eta_weekday": "Friday", "hours_left": 155.5, "eta_utc": "2024-06-21T21:00:00+00:00"}]
from datetime import datetime, timedelta, date, timezone
from zoneinfo import ZoneInfo

TZ = {"UK": "Europe/London", "US": "America/New_York", "NL": "Europe/Amsterdam"}
now = datetime.fromisoformat(await tools.current_time())


def add_business_days(d: date, n: int) -> date:
    while n:
        d += timedelta(days=1)
        if d.weekday() < 5:
            n -= 1
    return d


rows = []
for c in await tools.list_customers():
    zone = ZoneInfo(TZ[c["address"]["country"]])
    local = now.astimezone(zone)
    for o in await tools.list_orders(customer_id=c["id"], status="pending"):
        created = date.fromisoformat(o["created"])
        eta = add_business_days(created, 5)
        eta_local = datetime.combine(eta, datetime.min.time().replace(hour=17), tzinfo=zone)
        until = eta_local - now
        rows.append({
            "order": o["id"],
            "local_now": local.strftime("%Y-%m-%d %H:%M %Z"),
            "offset_h": local.utcoffset().total_seconds() / 3600,
            "eta": eta.isoformat(),
            "eta_weekday": eta.strftime("%A"),
            "hours_left": round(until.total_seconds() / 3600, 1),
            "eta_utc": eta_local.astimezone(timezone.utc).isoformat(),
        })
return rows
