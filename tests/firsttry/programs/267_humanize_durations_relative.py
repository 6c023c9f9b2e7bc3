# description: Describe when each customer last did something in friendly relative time
# value: {"last_seen": {"Grace Hopper": "9 hours 37m ago (Fri 14 Jun, 23:53)", "Edsger Dijkstra": "12 hours 58m ago (Fri 14 Jun, 20:32)", "Alan Turing": "16 hours 50m ago (Fri 14 Jun, 16:40)", "Margaret Hamilton": "20 hours 11m ago (Fri 14 Jun, 13:19)", "Ada Lovelace": "yesterday (Fri 14 Jun, 06:06)", "Katherine Johnson": "yesterday (Fri 14 Jun, 03:45)"}, "never": [], "samples": ["just now", "1 minute ago", "2 hours 25m ago", "yesterday", "3 weeks ago", "in the future"]}
from datetime import datetime

def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"

def ago(then: datetime, now: datetime) -> str:
    seconds = int((now - then).total_seconds())
    if seconds < 0:
        return "in the future"
    days, rem = divmod(seconds, 86_400)
    hours, rem = divmod(rem, 3_600)
    minutes = rem // 60
    match days, hours, minutes:
        case 0, 0, 0:
            return "just now"
        case 0, 0, m:
            return f"{plural(m, 'minute')} ago"
        case 0, h, m:
            return f"{plural(h, 'hour')} {m:02d}m ago"
        case 1, _, _:
            return "yesterday"
        case d, _, _ if d < 7:
            return f"{plural(d, 'day')} ago"
        case d, _, _:
            return f"{plural(d // 7, 'week')} ago"

now = datetime.fromisoformat(await tools.current_time())
last_seen: dict[str, datetime] = {}
cursor = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    for e in page["items"]:
        at = datetime.fromisoformat(e["at"])
        last_seen[e["customer_id"]] = max(last_seen.get(e["customer_id"], at), at)
    if (cursor := page["next_cursor"]) is None:
        break

customers = {c["id"]: c for c in await tools.list_customers()}
lines = {}
for cid, at in sorted(last_seen.items(), key=lambda kv: kv[1], reverse=True):
    lines[customers[cid]["name"]] = f"{ago(at, now)} ({at:%a %d %b, %H:%M})"
never = sorted(set(customers) - set(last_seen))
samples = [ago(datetime.fromisoformat(s), now) for s in
           ("2024-06-15T09:30:00+00:00", "2024-06-15T09:29:00+00:00", "2024-06-15T07:05:00+00:00",
            "2024-06-14T08:00:00+00:00", "2024-05-20T00:00:00+00:00", "2024-06-16T00:00:00+00:00")]
return {"last_seen": lines, "never": never, "samples": samples}
