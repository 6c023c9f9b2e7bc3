# description: Run a mix of sync and async steps, awaiting only coroutine functions
# value: 671.98
import asyncio

async def fetch_total(order_id):
    return (await tools.get_order(order_id=order_id))["total"]

def add_vat(total):
    return round(total * 1.2, 2)

steps = [fetch_total, add_vat]
value = "o-1002"
for step in steps:
    if asyncio.iscoroutinefunction(step):
        value = await step(value)
    else:
        value = step(value)
return value
