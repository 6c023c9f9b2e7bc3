# description: Show order ages and local delivery windows across time zones with datetime
# value: {"now": "2024-06-15T09:30:00+00:00", "local": {"London": "2024-06-15 10:30 BST", "New York": "2024-06-15 05:30 EDT", "Tokyo": "2024-06-15 18:30 UTC+09:00"}, "tokyo_offset": 9.0, "tzname": ["UTC+09:00", "UTC"], "ages": {"o-1001": {"days": 44, "hours": 1065.5, "weeks": 6, "created": "Thu 02 May 2024", "iso_week": 18}, "o-1005": {"days": 2, "hours": 57.5, "weeks": 0, "created": "Thu 13 Jun 2024", "iso_week": 24}, "o-1010": {"days": 0, "hours": 9.5, "weeks": 0, "created": "Sat 15 Jun 2024", "iso_week": 24}}, "deadline": "2024-06-17T17:00+01:00", "remaining": "54h30m", "same_instant": true, "naive_iso": "2024-06-15 09:30:00", "weekday": [5, 6, "167"], "parsed": "2024-06-15T14:05:00", "date_ops": ["2024-02-29", 193], "utc_z": "2024-06-15T09:30:00Z", "timestamp": 1718443800.0, "from_ts": "1970-01-01T00:00:00+00:00", "repr_td": "datetime.timedelta(days=1, seconds=5)"}
from datetime import datetime, date, time, timedelta, timezone

now = datetime.fromisoformat(await tools.current_time())
zones = {"London": timezone(timedelta(hours=1), "BST"), "New York": timezone(timedelta(hours=-4), "EDT"), "Tokyo": timezone(timedelta(hours=9))}
local = {city: now.astimezone(tz) for city, tz in zones.items()}
orders = [await tools.get_order(order_id=i) for i in ("o-1001", "o-1005", "o-1010")]
ages = {}
for o in orders:
    created = datetime.strptime(o["created"], "%Y-%m-%d").replace(tzinfo=timezone.utc)
    age = now - created
    ages[o["id"]] = {"days": age.days, "hours": round(age.total_seconds() / 3600, 1), "weeks": age // timedelta(weeks=1),
                     "created": created.strftime("%a %d %b %Y"), "iso_week": created.isocalendar().week}

deadline = datetime.combine(now.date() + timedelta(days=2), time(17, 0), tzinfo=zones["London"])
remaining = deadline - now
hours, rem = divmod(int(remaining.total_seconds()), 3600)
return {
    "now": now.isoformat(),
    "local": {c: d.strftime("%Y-%m-%d %H:%M %Z") for c, d in local.items()},
    "tokyo_offset": local["Tokyo"].utcoffset().total_seconds() / 3600,
    "tzname": [local["Tokyo"].tzname(), str(timezone.utc)],
    "ages": ages,
    "deadline": deadline.isoformat(timespec="minutes"),
    "remaining": f"{hours}h{rem // 60:02d}m",
    "same_instant": local["Tokyo"] == local["London"],
    "naive_iso": datetime(2024, 6, 15, 9, 30).isoformat(sep=" "),
    "weekday": [now.weekday(), now.isoweekday(), now.strftime("%j")],
    "parsed": datetime.strptime("15/06/2024 14:05", "%d/%m/%Y %H:%M").isoformat(),
    "date_ops": [str(date(2024, 3, 1) - timedelta(days=1)), (date(2024, 12, 25) - date(2024, 6, 15)).days],
    "utc_z": now.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    "timestamp": now.timestamp(),
    "from_ts": datetime.fromtimestamp(0, tz=timezone.utc).isoformat(),
    "repr_td": repr(timedelta(days=1, seconds=5)),
}
