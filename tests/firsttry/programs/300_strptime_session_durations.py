# description: Pair logins with logouts in the audit log and report session lengths per customer
# value: {"report": {"c3": {"n": 1, "total": "6h42m", "longest": "6h42m", "avg_min": 402.0}, "c4": {"n": 1, "total": "17h18m", "longest": "17h18m", "avg_min": 1038.0}, "c6": {"n": 2, "total": "24h00m", "longest": "18h18m", "avg_min": 720.0}}, "open": {"c1": "27h24m", "c2": "51h55m", "c4": "77h57m", "c5": "12h58m"}, "first_iso": "2024-06-10T07:13+00:00", "span_days": 4}
# logs: ["first event Mon 10 Jun 2024 07:13 (UTC), week 24", "c3: 1 sessions, total   6h42m, longest 6h42m", "c4: 1 sessions, total  17h18m, longest 17h18m", "c6: 2 sessions, total  24h00m, longest 18h18m"]
from datetime import datetime, timedelta, timezone
from collections import defaultdict

events = []
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events += page["items"]
    cursor = page["next_cursor"]
    if cursor is None:
        break

FMT = "%Y-%m-%dT%H:%M:%S%z"
open_sessions: dict[str, datetime] = {}
sessions = defaultdict(list)
for e in sorted(events, key=lambda e: (e["at"], e["id"])):
    at = datetime.strptime(e["at"], FMT)
    if e["kind"] == "login":
        open_sessions[e["customer_id"]] = at
    elif e["kind"] == "logout" and e["customer_id"] in open_sessions:
        start = open_sessions.pop(e["customer_id"])
        sessions[e["customer_id"]].append(at - start)

def fmt(td: timedelta) -> str:
    h, rem = divmod(int(td.total_seconds()), 3600)
    m = rem // 60
    return f"{h}h{m:02d}m"

now = datetime.fromisoformat(await tools.current_time())
report = {}
for cid in sorted(sessions):
    durs = sessions[cid]
    total = sum(durs, timedelta())
    report[cid] = {"n": len(durs), "total": fmt(total), "longest": fmt(max(durs)), "avg_min": round(total / len(durs) / timedelta(minutes=1), 1)}
still_open = {cid: fmt(now - t) for cid, t in sorted(open_sessions.items())}
first = datetime.strptime(events[0]["at"], FMT)
print(f"first event {first:%a %d %b %Y %H:%M} ({first.tzinfo}), week {first.isocalendar().week}")
for cid, r in report.items():
    print(f"{cid}: {r['n']} sessions, total {r['total']:>7}, longest {r['longest']}")
return {"report": report, "open": still_open, "first_iso": first.astimezone(timezone.utc).isoformat(timespec="minutes"),
        "span_days": (datetime.strptime(events[-1]["at"], FMT) - first).days}
