# description: Fetch every page of the event log in parallel once the total is known
# value: {"peak_ok": true, "pages": 8, "count": 47, "contiguous": true, "last": 47, "kinds": ["error", "login", "logout", "purchase", "refund"]}
# logs: ["8 pages, 47 events"]
import asyncio
import math

PAGE = 6
first = await tools.list_events(page_size=PAGE)
pages_needed = math.ceil(first["total"] / PAGE)
limit = asyncio.Semaphore(3)
in_flight = 0
peak = 0

async def fetch(n: int) -> tuple[int, list[dict]]:
    nonlocal in_flight, peak
    async with limit:
        in_flight += 1
        peak = max(peak, in_flight)
        try:
            page = await tools.list_events(cursor=f"cur_{n * PAGE}", page_size=PAGE)
        finally:
            in_flight -= 1
    return n, page["items"]

results = await asyncio.gather(*(fetch(n) for n in range(1, pages_needed)))
events = first["items"] + [e for _, items in sorted(results) for e in items]
ids = [e["id"] for e in events]
gaps = [b for a, b in zip(ids, ids[1:]) if b != a + 1]
print(f"{pages_needed} pages, {len(events)} events")
return {"peak_ok": 1 <= peak <= 3, "pages": pages_needed, "count": len(events), "contiguous": not gaps, "last": ids[-1],
        "kinds": sorted({e["kind"] for e in events})}
