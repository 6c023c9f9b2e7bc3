# description: Parse ISO timestamps with Z suffix, convert offsets and compute weekday and epoch
# value: {"out": [{"utc": "2024-06-14T23:30:00+00:00", "tokyo": "Sat 15 Jun 08:30 JST", "epoch": 1718407800, "weekday": "Friday"}, {"utc": "2024-06-15T06:00:00+00:00", "tokyo": "Sat 15 Jun 15:00 JST", "epoch": 1718431200, "weekday": "Saturday"}, {"utc": "2024-06-15T06:15:00+00:00", "tokyo": "Sat 15 Jun 15:15 JST", "epoch": 1718432100, "weekday": "Saturday"}], "latest": "2024-06-15T01:15:00-05:00", "now_is_aware": true}
from datetime import datetime, timezone, timedelta

now = datetime.fromisoformat((await tools.current_time()).replace("Z", "+00:00"))
stamps = ["2024-06-14T23:30:00Z", "2024-06-15T08:00:00+02:00", "2024-06-15T01:15:00-05:00"]
out = []
for s in stamps:
    dt = datetime.fromisoformat(s)
    utc = dt.astimezone(timezone.utc)
    tokyo = dt.astimezone(timezone(timedelta(hours=9), "JST"))
    out.append({
        "utc": utc.isoformat(),
        "tokyo": tokyo.strftime("%a %d %b %H:%M %Z"),
        "epoch": int(utc.timestamp()),
        "weekday": utc.strftime("%A"),
    })
latest = max(stamps, key=datetime.fromisoformat)
return {"out": out, "latest": latest, "now_is_aware": now.tzinfo is not None}
