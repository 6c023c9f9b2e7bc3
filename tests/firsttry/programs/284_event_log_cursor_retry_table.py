# description: Read the whole audit log page by page, retrying a page that fails, and tabulate event kinds per day
# value: {"pages": 4, "events": 47, "days": 5, "top": [["purchase", 14], ["login", 13]]}
# logs: ["day        |    error |    login |   logout | purchase |   refund | total", "-------------------------------------------------------------------------", "2024-06-10 |        1 |        3 |        2 |        2 |        1 |     9", "2024-06-11 |        2 |        2 |        1 |        4 |        1 |    10", "2024-06-12 |        1 |        3 |        2 |        2 |        2 |    10", "2024-06-13 |        2 |        3 |        1 |        3 |        1 |    10", "2024-06-14 |        1 |        2 |        1 |        3 |        1 |     8", "all        |        7 |       13 |        7 |       14 |        6 |    47"]
import asyncio
from collections import Counter, defaultdict

MAX_ATTEMPTS = 3

async def fetch_page(cursor, page_size):
    delay = 0.001
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            return await tools.list_events(cursor=cursor, page_size=page_size)
        except ToolCallError as err:
            if err.type == "ValueError" and "page_size" in str(err):
                page_size = min(page_size, 20)
                continue
            if attempt == MAX_ATTEMPTS:
                raise
            await asyncio.sleep(delay)
            delay *= 2
    raise RuntimeError("unreachable")

cursor = None
pages = 0
events = []
while True:
    page = await fetch_page(cursor, 15)
    pages += 1
    events.extend(page["items"])
    cursor = page["next_cursor"]
    if cursor is None:
        break

assert len(events) == page["total"], (len(events), page["total"])

by_day = defaultdict(Counter)
for e in events:
    by_day[e["at"][:10]][e["kind"]] += 1

kinds = sorted({e["kind"] for e in events})
header = f"{'day':<10} | " + " | ".join(f"{k:>8}" for k in kinds) + f" | {'total':>5}"
print(header)
print("-" * len(header))
for day in sorted(by_day):
    row = by_day[day]
    cells = " | ".join(f"{row.get(k, 0):>8}" for k in kinds)
    print(f"{day:<10} | {cells} | {sum(row.values()):>5}")

totals = Counter(e["kind"] for e in events)
print(f"{'all':<10} | " + " | ".join(f"{totals[k]:>8}" for k in kinds) + f" | {len(events):>5}")
return {"pages": pages, "events": len(events), "days": len(by_day), "top": totals.most_common(2)}
