# description: Tag each concurrent lookup with a request id held in a ContextVar
# value: {"tiers": ["enterprise", "pro", "free"], "log": ["req-c1 Ada Lovelace", "req-c2 Grace Hopper", "req-c3 Alan Turing"], "outside": "-"}
# limitation: the contextvars module is not available in run_code; the refusal names an argument or a dict keyed by the task
import asyncio
import contextvars

request_id = contextvars.ContextVar("request_id", default="-")
log = []

async def lookup(cid):
    request_id.set(f"req-{cid}")
    customer = await tools.get_customer(customer_id=cid)
    log.append(f"{request_id.get()} {customer['name']}")
    return customer["tier"]

tiers = await asyncio.gather(*(lookup(c) for c in ["c1", "c2", "c3"]))
return {"tiers": tiers, "log": sorted(log), "outside": request_id.get()}
