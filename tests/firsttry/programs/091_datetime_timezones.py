# description: Compute order ages, weekdays and local times across time zones
# value: {"ages": {"o-1009": {"days": 7, "hours": 177, "weekday": "Saturday", "iso_week": 23}, "o-1010": {"days": 0, "hours": 9, "weekday": "Saturday", "iso_week": 24}, "o-1011": {"days": 162, "hours": 3897, "weekday": "Friday", "iso_week": 1}}, "local": {"tokyo": "2024-06-15 18:30 JST", "ny": "2024-06-15T05:30:00-04:00"}, "deadline": "2024-06-18T13:45:00+00:00", "deadline_fmt": "Tue 18 Jun 2024, 01:45 PM", "leap": "2024-02-29", "to_xmas": 193, "since_midnight": 34200, "parsed": "2024-06-15T14:05:00", "weekday": 5, "utc": "UTC", "ts": 1718443800.0, "from_ts": "1970-01-01T00:00:00+00:00", "td_str": "1 day, 1:02:05"}
from datetime import datetime, date, timedelta, timezone, time as dtime

now = datetime.fromisoformat(await tools.current_time())
orders = await tools.list_orders(customer_id="c6")
ages = {}
for o in orders:
    created = datetime.fromisoformat(o["created"]).replace(tzinfo=timezone.utc)
    delta = now - created
    ages[o["id"]] = {"days": delta.days, "hours": int(delta.total_seconds() // 3600), "weekday": created.strftime("%A"), "iso_week": created.isocalendar()[1]}

tokyo = timezone(timedelta(hours=9), "JST")
ny = timezone(timedelta(hours=-4))
local = {"tokyo": now.astimezone(tokyo).strftime("%Y-%m-%d %H:%M %Z"), "ny": now.astimezone(ny).isoformat()}
deadline = now + timedelta(days=3, hours=4, minutes=15)
d = date(2024, 2, 28) + timedelta(days=1)
diff = date(2024, 12, 25) - date.fromisoformat("2024-06-15")
midnight = datetime.combine(now.date(), dtime(0, 0), tzinfo=timezone.utc)
parsed = datetime.strptime("15/06/2024 14:05", "%d/%m/%Y %H:%M")
return {
    "ages": ages,
    "local": local,
    "deadline": deadline.isoformat(),
    "deadline_fmt": f"{deadline:%a %d %b %Y, %I:%M %p}",
    "leap": d.isoformat(),
    "to_xmas": diff.days,
    "since_midnight": (now - midnight).seconds,
    "parsed": parsed.isoformat(),
    "weekday": now.weekday(),
    "utc": now.astimezone(timezone.utc).tzname(),
    "ts": now.timestamp(),
    "from_ts": datetime.fromtimestamp(0, tz=timezone.utc).isoformat(),
    "td_str": str(timedelta(days=1, seconds=3725)),
}
