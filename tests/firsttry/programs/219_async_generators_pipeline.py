# description: Stream events through async generator stages with async comprehensions and early exit
# value: {"refunds": 6, "by_tier": {"enterprise": 104.98, "free": 199.98, "pro": 317.98}, "first_error": 4, "none": "none", "big": [5, 10], "ids": {"10": "purchase", "20": "refund", "30": "login", "40": "purchase"}, "cached": ["c1", "c2", "c3", "c4", "c5", "c6"]}
# limitation: a returned dict with int keys is refused, plain json.dumps converts them
import asyncio


async def all_events(page_size=10):
    cursor = None
    while True:
        page = await tools.list_events(cursor=cursor, page_size=page_size)
        for e in page["items"]:
            yield e
        cursor = page["next_cursor"]
        if cursor is None:
            return


async def only(kind, source):
    async for e in source:
        if e["kind"] == kind:
            yield e


async def enrich(source, cache):
    async for e in source:
        cid = e["customer_id"]
        if cid not in cache:
            cache[cid] = (await tools.get_customer(customer_id=cid))["tier"]
        yield {**e, "tier": cache[cid]}


cache = {}
refunds = [e async for e in enrich(only("refund", all_events()), cache)]
by_tier = {}
for r in refunds:
    by_tier[r["tier"]] = round(by_tier.get(r["tier"], 0) + r["amount"], 2)

first_error = await anext(only("error", all_events(page_size=5)), None)
first_none = await anext(only("nothing", all_events(page_size=20)), "none")

big = []
gen = only("purchase", all_events())
async for e in gen:
    if e["amount"] > 150:
        big.append(e["id"])
        if len(big) == 2:
            break
await gen.aclose()
ids = {e["id"]: e["kind"] async for e in all_events(20) if e["id"] % 10 == 0}
return {"refunds": len(refunds), "by_tier": by_tier, "first_error": first_error["id"], "none": first_none, "big": big, "ids": ids, "cached": sorted(cache)}
