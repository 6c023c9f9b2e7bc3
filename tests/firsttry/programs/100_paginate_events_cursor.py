# description: Page through the whole audit log and count event kinds
# value: {"pages": 3, "kinds": {"purchase": 14, "login": 13, "logout": 7, "error": 7, "refund": 6}, "first_id": 1, "last_id": 47}
# logs: ["fetched 47 events in 3 pages"]
from collections import Counter

events = []
cursor = None
pages = 0
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    events.extend(page["items"])
    pages += 1
    cursor = page["next_cursor"]
    if cursor is None:
        break

assert len(events) == page["total"], "missed some events"
kinds = Counter(e["kind"] for e in events)
print(f"fetched {len(events)} events in {pages} pages")
return {"pages": pages, "kinds": dict(kinds.most_common()), "first_id": events[0]["id"], "last_id": events[-1]["id"]}
