# description: Per-task request ids kept in a dict keyed by asyncio.current_task()
# value: {"tiers": ["enterprise", "pro", "free"], "log": ["req-c1 Ada Lovelace", "req-c2 Grace Hopper", "req-c3 Alan Turing"], "tasks": 3}
import asyncio

request_ids = {}
log = []

async def lookup(cid):
    request_ids[asyncio.current_task()] = f"req-{cid}"
    customer = await tools.get_customer(customer_id=cid)
    log.append(f"{request_ids[asyncio.current_task()]} {customer['name']}")
    return customer["tier"]

tiers = await asyncio.gather(*(lookup(c) for c in ["c1", "c2", "c3"]))
return {"tiers": tiers, "log": sorted(log), "tasks": len(request_ids)}
