# description: Stream audit events through async generators, stop early, and make sure the pager is closed
# value: {"first_refunds": [6, 13, 20], "first_two": [1, 2], "after": "exhausted", "purchases": [111.99, 185.99, 170.99, 103.99, 162.99, 147.99, 139.99], "errors": ["c1", "c2", "c3", "c4", "c5", "c6"], "closed": ["open refunds", "pager(size=8)", "close refunds", "pager(size=5)", "pager(size=20)", "pager(size=20)"]}
# logs: ["[6, 13, 20] ['open refunds', 'pager(size=8)', 'close refunds', 'pager(size=5)', 'pager(size=20)', 'pager(size=20)']"]
# limitation: calling gen.__anext__() is refused as a dunder attribute (write await anext(gen))
import asyncio
from contextlib import aclosing, asynccontextmanager

closed: list[str] = []


async def pages(page_size: int = 8):
    cursor = None
    try:
        while True:
            page = await tools.list_events(cursor=cursor, page_size=page_size)
            for item in page["items"]:
                yield item
            cursor = page["next_cursor"]
            if cursor is None:
                return
    finally:
        closed.append(f"pager(size={page_size})")


async def only(kind: str, source):
    async for e in source:
        if e["kind"] == kind:
            yield e


@asynccontextmanager
async def session(name: str):
    closed.append(f"open {name}")
    try:
        yield name
    finally:
        closed.append(f"close {name}")


first_refunds = []
async with session("refunds"):
    async with aclosing(pages()) as pager, aclosing(only("refund", pager)) as stream:
        async for e in stream:
            first_refunds.append(e["id"])
            if len(first_refunds) == 3:
                break

gen = pages(5)
first = await gen.__anext__()
second = await anext(gen)
await gen.aclose()
after = await anext(gen, "exhausted")

purchases = [e["amount"] async for e in only("purchase", pages(20)) if e["amount"] > 100]
errors = {e["customer_id"] async for e in only("error", pages(20))}
print(first_refunds, closed)
return {
    "first_refunds": first_refunds,
    "first_two": [first["id"], second["id"]],
    "after": after,
    "purchases": purchases,
    "errors": sorted(errors),
    "closed": closed,
}
