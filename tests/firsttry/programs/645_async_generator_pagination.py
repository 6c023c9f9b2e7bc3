# description: Page through the order search with an async generator and async comprehensions
# value: {"big": ["o-1001", "o-1002", "o-1003", "o-1007", "o-1009", "o-1010"], "by_status": {"shipped": ["o-1002", "o-1009"], "pending": ["o-1003", "o-1005", "o-1008", "o-1010"]}, "names": {"o-1007": "Katherine Johnson", "o-1008": "Katherine Johnson", "o-1009": "Margaret Hamilton", "o-1010": "Margaret Hamilton", "o-1011": "Margaret Hamilton"}, "first_two": ["o-1001", "o-1002"]}
import asyncio

async def all_orders(filters, page_size=3):
    cursor = None
    while True:
        page = await tools.search_orders(filters=filters, cursor=cursor, limit=page_size)
        for o in page["orders"]:
            yield o
        if not (cursor := page["next_cursor"]):
            break

async def enrich(orders):
    async for o in orders:
        customer = await tools.get_customer(customer_id=o["customer_id"])
        yield {**o, "name": customer["name"]}

big = [o["id"] async for o in all_orders({"min_total": 100})]
by_status = {}
async for o in all_orders({"status": ["pending", "shipped"]}):
    by_status.setdefault(o["status"], []).append(o["id"])
names = {o["id"]: o["name"] async for o in enrich(all_orders({"customer_ids": ["c4", "c6"]}))}
gen = all_orders({}, page_size=10)
first = await anext(gen)
second = await anext(gen, None)
await gen.aclose()
return {"big": big, "by_status": by_status, "names": names, "first_two": [first["id"], second["id"]]}
