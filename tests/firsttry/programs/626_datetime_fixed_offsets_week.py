# description: Group recent orders by ISO week and show them in New York time with fixed offsets
# value: {"weeks": {"2024-W24": ["Mon 10 Jun", "Fri 14 Jun", "Thu 13 Jun", "Wed 12 Jun", "Sat 15 Jun"], "2024-W23": ["Sat 08 Jun"]}, "hours_since_midnight": 9.5, "monday": "2024-06-10", "age_days": {"o-1002": 5, "o-1003": 1, "o-1005": 2, "o-1008": 3, "o-1009": 7, "o-1010": 0}, "utc_offset": "-1 day, 20:00:00", "next_month": "2024-07-01"}
# logs: ["2024-06-15T05:30:00-04:00 EDT 05:30 AM"]
from datetime import date, datetime, time, timedelta, timezone

now = datetime.fromisoformat(await tools.current_time())
NY = timezone(timedelta(hours=-4), "EDT")
orders = (await tools.search_orders(filters={"created_after": "2024-06-01"}, limit=10))["orders"]
details = [await tools.get_order(order_id=o["id"]) for o in orders]

weeks = {}
for o in details:
    d = date.fromisoformat(o["created"])
    iso = d.isocalendar()
    key = f"{iso.year}-W{iso.week:02d}"
    weeks.setdefault(key, []).append(f"{d:%a %d %b}")
local = now.astimezone(NY)
start_of_day = datetime.combine(now.date(), time(0, 0), tzinfo=timezone.utc)
monday = now.date() - timedelta(days=now.weekday())
print(local.isoformat(), local.tzname(), local.strftime("%I:%M %p"))
return {
    "weeks": weeks,
    "hours_since_midnight": (now - start_of_day) / timedelta(hours=1),
    "monday": monday.isoformat(),
    "age_days": {o["id"]: (now.date() - date.fromisoformat(o["created"])).days for o in details},
    "utc_offset": str(local.utcoffset()),
    "next_month": now.replace(month=now.month % 12 + 1, day=1).date().isoformat(),
}
