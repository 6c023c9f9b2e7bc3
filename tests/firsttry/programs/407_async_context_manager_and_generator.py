# description: Page through events with an async generator inside an asynccontextmanager session that records metrics
# value: {"refunds": [[6, 22.99], [13, 81.99], [20, 140.99], [27, 199.99], [34, 58.99], [41, 117.99]], "closed": true, "pages": 3, "firsts": [2, 7, 9], "ticks": 1, "purchases": 1363.86}
# logs: ["open audit", "close audit: 3 pages, 47 events", "open first-page", "close first-page: 10 pages, 47 events"]
import asyncio
from contextlib import asynccontextmanager, AsyncExitStack


class Metrics:
    def __init__(self):
        self.pages = 0
        self.events = 0
        self.closed = False


@asynccontextmanager
async def session(name: str, metrics: Metrics):
    print(f"open {name}")
    try:
        yield metrics
    finally:
        metrics.closed = True
        print(f"close {name}: {metrics.pages} pages, {metrics.events} events")


async def events(m: Metrics, page_size: int = 20):
    cursor = None
    while True:
        page = await tools.list_events(cursor=cursor, page_size=page_size)
        m.pages += 1
        for e in page["items"]:
            m.events += 1
            yield e
        cursor = page["next_cursor"]
        if not cursor:
            return


class Timer:
    async def __aenter__(self):
        self.ticks = 0
        return self

    async def __aexit__(self, *exc):
        await asyncio.sleep(0)
        self.ticks += 1
        return False


m = Metrics()
refunds = []
async with session("audit", m) as metrics:
    async for e in events(metrics):
        if e["kind"] == "refund":
            refunds.append((e["id"], e["amount"]))

async with AsyncExitStack() as stack:
    t = await stack.enter_async_context(Timer())
    m2 = await stack.enter_async_context(session("first-page", Metrics()))
    firsts = [e["id"] async for e in events(m2, page_size=5) if e["kind"] == "login"][:3]

purchases = sum([e["amount"] async for e in events(Metrics()) if e["kind"] == "purchase"])
return {"refunds": refunds, "closed": m.closed, "pages": m.pages, "firsts": firsts, "ticks": t.ticks, "purchases": round(purchases, 2)}
