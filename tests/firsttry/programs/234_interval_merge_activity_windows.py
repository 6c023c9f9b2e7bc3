# description: Merge each customer's activity into busy windows from the paginated event log
# value: {"c1": {"events": 7, "windows": 7, "busy_hours": 14.0, "longest": "10 17:18-10 19:18"}, "c2": {"events": 8, "windows": 8, "busy_hours": 16.0, "longest": "10 10:05-10 12:05"}, "c3": {"events": 8, "windows": 8, "busy_hours": 16.0, "longest": "10 03:52-10 05:52"}, "c4": {"events": 8, "windows": 8, "busy_hours": 16.0, "longest": "10 14:57-10 16:57"}, "c5": {"events": 8, "windows": 8, "busy_hours": 16.0, "longest": "10 07:44-10 09:44"}, "c6": {"events": 8, "windows": 8, "busy_hours": 16.0, "longest": "10 00:31-10 02:31"}}
# logs: ["c1:  7 windows,  14.0 h busy", "c2:  8 windows,  16.0 h busy", "c3:  8 windows,  16.0 h busy", "c4:  8 windows,  16.0 h busy", "c5:  8 windows,  16.0 h busy", "c6:  8 windows,  16.0 h busy"]
from datetime import datetime, timedelta
from collections import defaultdict

WINDOW = timedelta(hours=2)

async def all_events() -> list[dict]:
    events: list[dict] = []
    cursor: str | None = None
    while True:
        page = await tools.list_events(cursor=cursor, page_size=20)
        events.extend(page["items"])
        if (cursor := page["next_cursor"]) is None:
            break
    return events

def merge(intervals: list[tuple[datetime, datetime]]) -> list[tuple[datetime, datetime]]:
    merged: list[tuple[datetime, datetime]] = []
    for start, end in sorted(intervals):
        if merged and start <= merged[-1][1]:
            last_start, last_end = merged[-1]
            merged[-1] = (last_start, max(last_end, end))
        else:
            merged.append((start, end))
    return merged

events = await all_events()
by_customer: defaultdict[str, list[tuple[datetime, datetime]]] = defaultdict(list)
for e in events:
    at = datetime.fromisoformat(e["at"])
    by_customer[e["customer_id"]].append((at - WINDOW / 2, at + WINDOW / 2))

summary = {}
for cid in sorted(by_customer):
    windows = merge(by_customer[cid])
    busy = sum((end - start for start, end in windows), timedelta())
    longest = max(windows, key=lambda w: w[1] - w[0])
    summary[cid] = {
        "events": len(by_customer[cid]),
        "windows": len(windows),
        "busy_hours": busy.total_seconds() / 3600,
        "longest": f"{longest[0]:%d %H:%M}-{longest[1]:%d %H:%M}",
    }
    print(f"{cid}: {len(windows):>2} windows, {busy.total_seconds() / 3600:5.1f} h busy")
return summary
