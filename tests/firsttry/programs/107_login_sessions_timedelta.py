# description: Pair logins with logouts and measure session lengths
# value: {"sessions": {"c3": ["6h42m"], "c4": ["17h18m"], "c6": ["5h42m", "18h18m"]}, "longest": "18h18m", "still_open": ["c1", "c2", "c4", "c5"]}
from datetime import datetime, timedelta

events = []
page = await tools.list_events(page_size=20)
events += page["items"]
while page["next_cursor"]:
    page = await tools.list_events(cursor=page["next_cursor"], page_size=20)
    events += page["items"]

open_sessions: dict[str, datetime] = {}
durations: dict[str, list[timedelta]] = {}
for e in sorted(events, key=lambda e: e["at"]):
    when = datetime.fromisoformat(e["at"])
    if e["kind"] == "login":
        open_sessions[e["customer_id"]] = when
    elif e["kind"] == "logout" and (start := open_sessions.pop(e["customer_id"], None)):
        durations.setdefault(e["customer_id"], []).append(when - start)

def fmt(td: timedelta) -> str:
    hours, rem = divmod(int(td.total_seconds()), 3600)
    return f"{hours}h{rem // 60:02d}m"

return {
    "sessions": {cid: [fmt(d) for d in ds] for cid, ds in sorted(durations.items())},
    "longest": fmt(max(d for ds in durations.values() for d in ds)),
    "still_open": sorted(open_sessions),
}
