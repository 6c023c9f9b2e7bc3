# description: Time between log incidents using strptime and timedelta formatting
# value: {"gaps": ["6m18s", "2m43s"], "window_s": 541.0, "avg_gap": "4m30s", "first": "08:03 on 15 Jun 2024", "replaced": "2024-06-15T00:00:00", "ratio": 2.319}
from datetime import datetime, timedelta

text = await tools.fetch_logs(service="billing")
stamps = [datetime.strptime(" ".join(line.split()[:2]), "%Y-%m-%d %H:%M:%S") for line in text.splitlines()]
gaps = [b - a for a, b in zip(stamps, stamps[1:])]

def human(td: timedelta) -> str:
    minutes, seconds = divmod(int(td.total_seconds()), 60)
    return f"{minutes}m{seconds:02d}s"

window = stamps[-1] - stamps[0]
return {
    "gaps": [human(g) for g in gaps],
    "window_s": window.total_seconds(),
    "avg_gap": human(sum(gaps, timedelta()) / len(gaps)),
    "first": stamps[0].strftime("%H:%M on %d %b %Y"),
    "replaced": stamps[0].replace(hour=0, minute=0, second=0).isoformat(),
    "ratio": round(gaps[0] / gaps[1], 3),
}
