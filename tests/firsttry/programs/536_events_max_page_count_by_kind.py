# description: Read the whole audit log twenty events a page and count kinds
# value: {"pages": 3, "seen": 47, "total": 47, "kinds": {"error": 7, "login": 13, "logout": 7, "purchase": 14, "refund": 6}}
from collections import Counter
kinds = Counter()
cursor = None
pages = 0
seen = 0
total = None
while True:
    page = await tools.list_events(cursor=cursor, page_size=20)
    pages += 1
    total = page["total"]
    for e in page["items"]:
        kinds[e["kind"]] += 1
        seen += 1
    cursor = page["next_cursor"]
    if cursor is None:
        break
return {"pages": pages, "seen": seen, "total": total, "kinds": dict(sorted(kinds.items()))}
