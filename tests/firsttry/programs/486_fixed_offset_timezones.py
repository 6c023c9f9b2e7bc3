# description: Show the current time in several offices with fixed-offset timezones and astimezone
# value: {"local": {"London": {"time": "2024-06-15 10:30 BST (+0100)", "iso": "2024-06-15T10:30:00+01:00", "offset_h": 1.0, "tzname": "BST"}, "Tokyo": {"time": "2024-06-15 18:30 JST (+0900)", "iso": "2024-06-15T18:30:00+09:00", "offset_h": 9.0, "tzname": "JST"}, "New York": {"time": "2024-06-15 05:30 EDT (-0400)", "iso": "2024-06-15T05:30:00-04:00", "offset_h": -4.0, "tzname": "EDT"}, "Kolkata": {"time": "2024-06-15 15:00 UTC+05:30 (+0530)", "iso": "2024-06-15T15:00:00+05:30", "offset_h": 5.5, "tzname": "UTC+05:30"}}, "same_instant": true, "naive_is_aware": false, "aware_eq": true, "utc_str": "UTC", "minus": "EDT", "span_h": -0.5}
from datetime import datetime, timedelta, timezone

now = datetime.fromisoformat(await tools.current_time())
offices = {
    "London": timezone(timedelta(hours=1), "BST"),
    "Tokyo": timezone(timedelta(hours=9), "JST"),
    "New York": timezone(timedelta(hours=-4), "EDT"),
    "Kolkata": timezone(timedelta(hours=5, minutes=30)),
}
local = {}
for city, tz in offices.items():
    t = now.astimezone(tz)
    local[city] = {"time": t.strftime("%Y-%m-%d %H:%M %Z (%z)"), "iso": t.isoformat(),
                   "offset_h": t.utcoffset().total_seconds() / 3600, "tzname": t.tzname()}
naive = datetime(2024, 6, 15, 9, 30)
aware = naive.replace(tzinfo=timezone.utc)
back = datetime.fromisoformat(local["Tokyo"]["iso"]).astimezone(timezone.utc)
return {"local": local, "same_instant": back == now, "naive_is_aware": naive.tzinfo is not None,
        "aware_eq": aware == now, "utc_str": str(timezone.utc), "minus": str(offices["New York"]),
        "span_h": (datetime(2024, 6, 15, 18, 0, tzinfo=offices["Tokyo"]) - now) / timedelta(hours=1)}
