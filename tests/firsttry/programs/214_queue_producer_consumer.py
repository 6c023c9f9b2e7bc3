# description: Page the event log with a producer and aggregate with consumer workers over an asyncio.Queue
# value: {"pages": 4, "kinds": {"error": 7, "login": 13, "logout": 7, "purchase": 14, "refund": 6}, "net": {"c1": 110.99, "c2": 237.98, "c3": 192.99, "c4": -0.02, "c5": 28.99, "c6": 169.99}, "seen": 47, "all_ids": true, "names": ["w0", "w1", "w2"], "empty": true}
import asyncio
from collections import Counter

queue = asyncio.Queue(maxsize=5)
totals = Counter()
amounts = {}
seen = []


async def producer():
    cursor = None
    pages = 0
    while True:
        page = await tools.list_events(cursor=cursor, page_size=15)
        pages += 1
        for e in page["items"]:
            await queue.put(e)
        cursor = page["next_cursor"]
        if cursor is None:
            return pages


async def consumer(name):
    while True:
        e = await queue.get()
        try:
            if e is None:
                return name
            totals[e["kind"]] += 1
            if e["amount"]:
                amounts[e["customer_id"]] = round(amounts.get(e["customer_id"], 0) + (e["amount"] if e["kind"] == "purchase" else -e["amount"]), 2)
            seen.append(e["id"])
        finally:
            queue.task_done()


workers = [asyncio.create_task(consumer(f"w{i}")) for i in range(3)]
pages = await producer()
await queue.join()
for _ in workers:
    queue.put_nowait(None)
names = await asyncio.gather(*workers)
try:
    queue.get_nowait()
    empty = False
except asyncio.QueueEmpty:
    empty = True
return {"pages": pages, "kinds": dict(sorted(totals.items())), "net": dict(sorted(amounts.items())), "seen": len(seen),
        "all_ids": sorted(seen) == list(range(1, 48)), "names": names, "empty": empty}
