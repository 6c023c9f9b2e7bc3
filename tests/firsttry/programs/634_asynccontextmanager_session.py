# description: Time-box tool work inside an async context manager that records a session
# value: {"events": ["open events", "close events", "open a", "open b", "close b", "close a"], "seen": 17, "purchases": 5, "oslo": "snow", "names": ["a", "b"]}
import asyncio
from contextlib import asynccontextmanager, AsyncExitStack, aclosing

events = []

@asynccontextmanager
async def session(name):
    events.append(f"open {name}")
    try:
        yield {"name": name, "calls": 0}
    finally:
        events.append(f"close {name}")

async def pages():
    cursor = None
    while True:
        page = await tools.list_events(cursor=cursor, page_size=20)
        for item in page["items"]:
            yield item
        cursor = page["next_cursor"]
        if cursor is None:
            return

async with session("events") as s:
    purchases = 0
    async with aclosing(pages()) as items:
        async for ev in items:
            s["calls"] += 1
            if ev["kind"] == "purchase":
                purchases += 1
            if purchases == 5:
                break
async with AsyncExitStack() as stack:
    a = await stack.enter_async_context(session("a"))
    b = await stack.enter_async_context(session("b"))
    w = await tools.get_weather(city="Oslo")
return {"events": events, "seen": s["calls"], "purchases": purchases, "oslo": w["condition"], "names": [a["name"], b["name"]]}
