# description: Name tasks per customer and report which task handled which customer
# value: {"load-c1": 3, "load-c2": 2, "load-c4": 2}
import asyncio

async def load(customer_id):
    task = asyncio.current_task()
    orders = await tools.list_orders(customer_id=customer_id)
    return task.get_name(), len(orders)

tasks = [asyncio.create_task(load(cid), name=f"load-{cid}") for cid in ["c1", "c2", "c4"]]
results = await asyncio.gather(*tasks)
return dict(results)
